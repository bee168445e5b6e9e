"""The compiled kernel at a git revision against the working tree's, in CPU seconds.

Both kernels count the same tree in one process, in alternating order, so the load of a
shared machine falls on both alike:

    .venv/bin/python bench/kernel_ab.py [--rev HEAD] [--rounds 7] [pentomino-6x10 | queens-13]

It loads ``src/puzzlebox/engine/_kernels.py`` as it was at ``--rev`` into a module of its
own (numba compiles it anew: the first round of each is not timed) and prints the minimum and
median CPU seconds of a full count with each. A full count of pentomino-6x10 as placed takes
seconds, so the whole run takes minutes: each step says so on standard error as it starts.

With ``--c`` it compares the C kernels instead (``src/puzzlebox/engine/_ckernels.c``, the
ones a count runs when they are built): the file at ``--rev`` is compiled with the flags
``pip install`` uses, and the working tree's module as built (rebuild it first), and each
round runs the whole in-process ``count`` of each puzzle named, with one and then the other:

    .venv/bin/python bench/kernel_ab.py --c [--rev HEAD] [--rounds 7] pentomino-6x10 ...

The puzzle's set-up is the same on both sides, so the difference is the kernels'.
"""

from __future__ import annotations

import argparse
import importlib.machinery
import importlib.util
import statistics
import subprocess
import sys
import sysconfig
import tempfile
import time
from pathlib import Path
from types import ModuleType

import numpy as np

import puzzlebox
from puzzlebox.engine import _kernels as current
from puzzlebox.engine.compiled import _Tables
from puzzlebox.formats import read_text

ROOT = Path(__file__).resolve().parent.parent


def kernels_at(rev: str, folder: Path) -> ModuleType:
    source = subprocess.run(["git", "show", f"{rev}:src/puzzlebox/engine/_kernels.py"],
                            cwd=ROOT, check=True, capture_output=True, text=True).stdout
    path = folder / "kernels_at_rev.py"
    path.write_text(source)
    spec = importlib.util.spec_from_file_location("kernels_at_rev", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def c_kernels_at(rev: str, folder: Path) -> ModuleType:
    """``_ckernels.c`` as it was at ``rev``, compiled as setuptools does (pyproject: -O3)."""
    source = subprocess.run(["git", "show", f"{rev}:src/puzzlebox/engine/_ckernels.c"],
                            cwd=ROOT, check=True, capture_output=True, text=True).stdout
    c_file = folder / "_ckernels.c"
    c_file.write_text(source)
    built = folder / f"_ckernels{sysconfig.get_config_var('EXT_SUFFIX')}"
    cc = str(sysconfig.get_config_var("CC")).split()
    flags = str(sysconfig.get_config_var("CFLAGS")).split()
    shared = str(sysconfig.get_config_var("LDSHARED")).split()[1:]
    include = sysconfig.get_paths()["include"]
    subprocess.run([*cc, *flags, "-fPIC", "-O3", f"-I{include}", *shared, str(c_file),
                    "-o", str(built)], check=True)
    return _extension(built)


def _extension(path: Path) -> ModuleType:
    """The C kernels' module from ``path``, under its own name (a second copy loads too)."""
    name = "puzzlebox.engine._ckernels"
    loader = importlib.machinery.ExtensionFileLoader(name, str(path))
    spec = importlib.util.spec_from_file_location(name, path, loader=loader)
    assert spec is not None
    module = importlib.util.module_from_spec(spec)
    loader.exec_module(module)
    return module


def c_count(module: ModuleType, name: str) -> tuple[float, str]:
    """CPU seconds and answer of one in-process count of puzzle ``name`` with ``module``."""
    from puzzlebox.engine import kernel_choice

    saved = kernel_choice._ckernels
    kernel_choice._ckernels = module
    try:
        puzzle = puzzlebox.load(name)
        began = time.process_time()
        answer = str(puzzle.count())
        return time.process_time() - began, answer
    finally:
        kernel_choice._ckernels = saved


def c_main(rev: str, rounds: int, names: list[str]) -> None:
    """``--c``: the C kernels at ``rev`` against the working tree's built module."""
    from puzzlebox.engine import kernel_choice

    if kernel_choice._ckernels is None:
        raise SystemExit("the working tree's C kernels are not built (pip install -e .)")
    with tempfile.TemporaryDirectory() as folder:
        say(f"compiling _ckernels.c at {rev}")
        pair = {rev: c_kernels_at(rev, Path(folder)), "working tree": kernel_choice._ckernels}
        for name in names:
            # one untimed count each (warm), and the same answer (less its timing note)
            answers = {label: c_count(k, name)[1] for label, k in pair.items()}
            assert len({a.split("(")[0] for a in answers.values()}) == 1, answers
            times: dict[str, list[float]] = {label: [] for label in pair}
            for r in range(rounds):
                for label in (list(pair) if r % 2 == 0 else list(pair)[::-1]):
                    times[label].append(c_count(pair[label], name)[0])
            print(f"{name}: {answers['working tree']}; CPU seconds of an in-process count")
            for label, spent in times.items():
                print(f"  {label}: min {min(spent):.3f}, median {statistics.median(spent):.3f} "
                      f"({' '.join(f'{x:.3f}' for x in spent)})")


def count(k: ModuleType, t: _Tables) -> tuple[float, int, int]:
    """CPU seconds, solutions and nodes of one full count with kernel module ``k``."""
    n_items = t.need.shape[0]
    nw = max(1, t.words.shape[0])
    levels = np.zeros(nw * (t.max_depth + 1), dtype=np.uint64)
    levels[: t.words.shape[0]] = t.words
    done = np.zeros(n_items, np.uint8)
    need, room = t.need.copy(), t.room.copy()
    act = np.arange(n_items, dtype=np.uint32)
    apos = act.copy()
    blist = np.zeros(2 * t.max_depth, np.int64)
    frames = np.zeros((t.max_depth, k.N_FIELDS), np.int64)
    regs = np.zeros(k.N_REGS, np.int64)
    out = np.zeros(t.out_capacity, np.int64)
    none = np.zeros(0, dtype=np.int32)
    k.setup(t.n_primary, t.ostart, t.items, t.pmask, t.mstart, t.mword, t.mbits, levels, done,
            need, room, act, apos, regs, none, none)
    began = time.process_time()
    status, _ = k.search(t.n_primary, t.ostart, t.items, t.pmask, t.mstart, t.mword, t.mbits,
                         levels, nw, done, need, room, act, apos, blist, frames, regs,
                         k.M_COUNT, 0, 1 << 62, 1 << 62, out)
    spent = time.process_time() - began
    assert status == k.S_DONE
    return spent, int(regs[k.R_SOLUTIONS]), int(regs[k.R_NODES])


def say(line: str) -> None:
    """What the run is doing, on standard error, at once (a run takes minutes)."""
    print(line, file=sys.stderr, flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rev", default="HEAD")
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--c", action="store_true",
                        help="compare the C kernels (_ckernels.c) on whole counts")
    parser.add_argument("name", nargs="*", default=["pentomino-6x10"])
    args = parser.parse_args()
    if args.c:
        c_main(args.rev, args.rounds, args.name)
        return
    name = args.name[0]
    if name.startswith("queens-"):
        text = f'kind = "queens"\nn = {name.split("-")[1]}\n'
        problem = read_text(text, name, name).puzzles[0].problem
    else:
        problem = puzzlebox.load(name).problem
    tables = _Tables.build(problem)
    say(f"{name}: {2 * (args.rounds + 1)} full counts, the kernels at {args.rev} against "
        "the working tree's, each round in the other order")
    with tempfile.TemporaryDirectory() as folder:
        old = kernels_at(args.rev, Path(folder))
        pair = {args.rev: old, "working tree": current}
        results = {}
        for label, k in pair.items():  # compile (numba, anew for the revision), check
            say(f"  compiling and checking the kernels of {label} (one untimed count)")
            results[label] = count(k, tables)
        assert len({r[1:] for r in results.values()}) == 1, results
        times: dict[str, list[float]] = {label: [] for label in pair}
        for r in range(args.rounds):
            for label in (list(pair) if r % 2 == 0 else list(pair)[::-1]):
                times[label].append(count(pair[label], tables)[0])
            say(f"  round {r + 1} of {args.rounds}: " + ", ".join(
                f"{label} {spent[-1]:.3f} s" for label, spent in times.items()))
    _, solutions, nodes = results["working tree"]
    print(f"{name}: {solutions} solutions, {nodes} nodes; CPU seconds of a count")
    for label, spent in times.items():
        print(f"  {label}: min {min(spent):.3f}, median {statistics.median(spent):.3f} "
              f"({' '.join(f'{x:.3f}' for x in spent)})")


if __name__ == "__main__":
    sys.exit(main())
