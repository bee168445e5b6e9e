"""The compiled kernel at a git revision against the working tree's, in CPU seconds.

Both kernels count the same tree in one process, in alternating order, so the load of a
shared machine falls on both alike:

    .venv/bin/python bench/kernel_ab.py [--rev HEAD] [--rounds 7] [pentomino-6x10 | queens-13]

It loads ``src/puzzlebox/engine/_kernels.py`` as it was at ``--rev`` into a module of its
own (numba compiles it anew: the first round of each is not timed) and prints the minimum and
median CPU seconds of a full count with each. A full count of pentomino-6x10 as placed takes
seconds, so the whole run takes minutes: each step says so on standard error as it starts.
"""

from __future__ import annotations

import argparse
import importlib.util
import statistics
import subprocess
import sys
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
    parser.add_argument("name", nargs="?", default="pentomino-6x10")
    args = parser.parse_args()
    if args.name.startswith("queens-"):
        text = f'kind = "queens"\nn = {args.name.split("-")[1]}\n'
        problem = read_text(text, args.name, args.name).puzzles[0].problem
    else:
        problem = puzzlebox.load(args.name).problem
    tables = _Tables.build(problem)
    say(f"{args.name}: {2 * (args.rounds + 1)} full counts, the kernels at {args.rev} against "
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
    print(f"{args.name}: {solutions} solutions, {nodes} nodes; CPU seconds of a count")
    for label, spent in times.items():
        print(f"  {label}: min {min(spent):.3f}, median {statistics.median(spent):.3f} "
              f"({' '.join(f'{x:.3f}' for x in spent)})")


if __name__ == "__main__":
    sys.exit(main())
