"""Disassembly against BurrTools (#24): the same example files, both tools, interleaved.

For each BurrTools example the two commands that answer "how many assemblies, which come
apart, at what level" run one after the other, ``--repeat`` times, alternating, each in a
fresh process timed from the outside (wall clock, and the CPU of the reaped child):

* BurrTools: ``burrTxt -d FILE`` (its assembler, then its disassembler on each assembly);
* puzzlebox: ``puzzlebox count FILE.toml --disassemble --json`` on the file that
  ``puzzlebox import`` wrote (distinct solutions by exact cover, then each taken apart).

The answers are compared too (assemblies, how many come apart, the levels), so a run that
got faster by getting something wrong shows it.

A second table times assembling alone, the same way: ``burrTxt -q FILE`` (its assembler,
no disassembly) against ``puzzlebox count FILE.toml --json`` (every solution and the
distinct ones up to symmetry, which are BurrTools' assemblies). The examples are GPL and not in the
repository: ``--examples`` (or ``BURRTOOLS_EXAMPLES``) says where they are, by default
``../shared/peers/burrtools/examples``; ``--burrtxt`` where BurrTools' solver is.

    python bench/disassembly.py                  # CubeInCage, AlPackino, PelikanBurr, Dracula
    python bench/disassembly.py --all            # and SolidSixPieceBurrs (a few minutes)
    python bench/disassembly.py --inner          # the search alone: Python, numba, C
    python bench/disassembly.py --stages         # where a process's CPU goes, stage by stage

``--inner`` times only the taking apart, in this process, on the assemblies found first:
``disassemble(..., compiled=False)`` (the Python reference of a position's step), numba's
step under the Python loop (``PUZZLEBOX_KERNELS=numba``'s choice) and the C search
(_cdisasm.c, the default where it is built), CPU seconds, and checks that all give the same
levels and moves.

``--stages`` runs each example in a fresh process and splits its CPU: the interpreter's own
start (``python -c pass``), the command line's imports, reading the BurrTools file
(``puzzlebox import``'s reader), the placements (the cover problem), the symmetries, the
assembly search (distinct solutions) and the disassembly.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
QUICK = ["CubeInCage", "AlPackino", "PelikanBurr", "DraculasDentalDesaster"]
SLOW = ["SolidSixPieceBurrs"]


def timed(argv: list[str], timeout: float) -> tuple[float, float, str]:
    """(wall seconds, CPU seconds of the child, stdout)."""
    began = time.perf_counter()
    proc = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        out, _ = proc.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.communicate()
        return float("inf"), float("inf"), ""
    wall = time.perf_counter() - began
    return wall, _children_cpu(), out


_last_cpu = [0.0]


def _children_cpu() -> float:
    """CPU of the child just reaped: the growth of this process's children's times."""
    times = os.times()
    total = times.children_user + times.children_system
    spent = total - _last_cpu[0]
    _last_cpu[0] = total
    return spent


def burrtools_answer(out: str) -> tuple[int, int, Counter[str]]:
    levels = Counter(re.findall(r"^level: (\S+)", out, re.M))
    found = re.search(r"(\d+) assemblies and (\d+) solutions", out)
    assert found, out[-300:]
    return int(found.group(1)), int(found.group(2)), levels


def burrtools_assemblies(out: str) -> int:
    found = re.search(r"(\d+) assemblies", out)
    assert found, out[-300:]
    return int(found.group(1))


def puzzlebox_answer(out: str) -> tuple[int, int, Counter[str]]:
    obj = json.loads(out.splitlines()[-1])
    return (obj["assemblies"], obj["come_apart"],
            Counter({lv["level"]: lv["assemblies"] for lv in obj["levels"]}))


def inner(examples: Path, names: list[str], repeat: int) -> None:
    """The disassembly search alone: Python step, numba step, C search (see above)."""
    from puzzlebox.disassembly import disassemble
    from puzzlebox.disassembly.assemblies import arrange, check_slides
    from puzzlebox.engine import kernel_choice
    from puzzlebox.formats import burrtools
    from puzzlebox.formats.reader import read_text
    from puzzlebox.puzzles import PolyominoPuzzle

    ways = [("python", None)] + [(k, k) for k in reversed(kernel_choice.available())]
    print("| example | assemblies | " + " | ".join(f"{w} CPU s" for w, _ in ways)
          + " | Python / last | same moves |")
    print("|---|---|" + "---|" * len(ways) + "---|---|")
    for name in names:
        text = burrtools.import_file(examples / f"{name}.xmpuzzle")
        puzzle = read_text(text, name, name).puzzles[0]
        assert isinstance(puzzle, PolyominoPuzzle)
        dims = check_slides(puzzle, name)
        rules = puzzle.disassembly
        jobs = []
        for solution in puzzle.distinct_solutions():
            arranged = arrange(puzzle, solution, dims, rules.fixed if rules else (),
                               rules.groups if rules else ())
            jobs.append((arranged.pieces, arranged.fixed, arranged.groups))
        results = []
        for _way, backend in ways:
            kernel_choice.use(backend)
            if backend == kernel_choice.NUMBA:  # numba's kernels load (or compile) untimed
                disassemble(*jobs[0][:1], dims=dims, fixed=jobs[0][1], groups=jobs[0][2])
            best = float("inf")
            for _ in range(repeat):
                began = time.process_time()
                found = [disassemble(cells, dims=dims, fixed=fixed, groups=groups,
                                     compiled=backend is not None)
                         for cells, fixed, groups in jobs]
                best = min(best, time.process_time() - began)
            kernel_choice.use(None)
            results.append((best, found))
        same = all(found == results[0][1] for _, found in results)
        print(f"| {name} | {len(jobs)} | " + " | ".join(f"{t:.3f}" for t, _ in results)
              + f" | {results[0][0] / results[-1][0]:.0f}x | {'yes' if same else 'NO'} |")


STAGES = r"""
import sys, time
def lap(t=[time.process_time()]):
    now = time.process_time()
    spent, t[0] = now - t[0], now
    return spent
out = {}
import puzzlebox.cli, puzzlebox.cli.search, puzzlebox.cli.disassembly
out["imports"] = lap()
from pathlib import Path
from puzzlebox.formats import burrtools
from puzzlebox.formats.reader import read_text
name = Path(sys.argv[1]).stem
puzzle = read_text(burrtools.import_file(Path(sys.argv[1])), name, name).puzzles[0]
out["read"] = lap()
puzzle.problem
out["placements"] = lap()
puzzle.symmetry_breaking
out["symmetries"] = lap()
found = list(puzzle.distinct_solutions())
out["assemblies"] = lap()
from puzzlebox.disassembly.assemblies import Rules, disassemble_solution
rules = puzzle.disassembly
rules = Rules(fixed=frozenset(rules.fixed) if rules else frozenset(),
              groups=tuple(frozenset(g) for g in rules.groups) if rules else ())
levels = [disassemble_solution(puzzle, s, rules).level for s in found]
out["disassembly"] = lap()
out["numba"] = "numba" in sys.modules
print(repr(out))
"""


def stages(examples: Path, names: list[str], repeat: int) -> None:
    """Each example's CPU stage by stage, in fresh processes, best of ``repeat``."""
    import ast

    keys = ["imports", "read", "placements", "symmetries", "assemblies", "disassembly"]
    floor = min(timed([sys.executable, "-c", "pass"], 60)[1] for _ in range(repeat))
    print(f"interpreter start (python -c pass): {floor:.3f} s CPU")
    print()
    print("| example | " + " | ".join(keys) + " | process CPU s | numba loaded |")
    print("|---|" + "---|" * (len(keys) + 2))
    for name in names:
        best: dict[str, float] = {}
        total = float("inf")
        numba = False
        for _ in range(repeat):
            _, cpu, out = timed([sys.executable, "-c", STAGES,
                                 str(examples / f"{name}.xmpuzzle")], 300)
            got = ast.literal_eval(out.strip().splitlines()[-1])
            numba = got.pop("numba")
            for key in keys:
                best[key] = min(best.get(key, float("inf")), got[key])
            total = min(total, cpu)
        print(f"| {name} | " + " | ".join(f"{best[k]:.3f}" for k in keys)
              + f" | {total:.2f} | {'yes' if numba else 'no'} |")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--examples", default=os.environ.get(
        "BURRTOOLS_EXAMPLES", str(ROOT / ".." / "shared" / "peers" / "burrtools" / "examples")))
    parser.add_argument("--burrtxt", default="/work/notes/burrtools-bin/burrTxt")
    parser.add_argument("--repeat", type=int, default=2)
    parser.add_argument("--timeout", type=float, default=300)
    parser.add_argument("--all", action="store_true", help="also SolidSixPieceBurrs")
    parser.add_argument("--only", nargs="+", metavar="NAME",
                        help="these examples only (file names without .xmpuzzle)")
    parser.add_argument("--inner", action="store_true",
                        help="time the disassembly search alone: Python, numba and C")
    parser.add_argument("--stages", action="store_true",
                        help="split each example's process CPU into its stages")
    args = parser.parse_args()
    examples = Path(args.examples)
    if not (examples / "CubeInCage.xmpuzzle").exists():
        print(f"no BurrTools examples at {examples}: give --examples", file=sys.stderr)
        return 2
    names = args.only or QUICK + (SLOW if args.all else [])
    if args.inner:
        inner(examples, names, args.repeat)
        return 0
    if args.stages:
        stages(examples, names, args.repeat)
        return 0
    puzzlebox = str(Path(sys.executable).with_name("puzzlebox"))
    rows = []
    counting: list[tuple[str, tuple[float, float], tuple[float, float], int | None,
                         int | None]] = []
    with tempfile.TemporaryDirectory() as tmp:
        for name in names:
            toml = Path(tmp) / f"{name}.toml"
            subprocess.run([puzzlebox, "import", str(examples / f"{name}.xmpuzzle"), "-o",
                            str(toml)], check=True, capture_output=True)
            # unmeasured runs compile or load numba's kernels for this puzzle (the count's,
            # and, where the C search is not built, the disassembly's step)
            subprocess.run([puzzlebox, "count", str(toml), "--json"], capture_output=True)
            subprocess.run([puzzlebox, "count", str(toml), "--disassemble", "--json"],
                           capture_output=True)
            _children_cpu()
            bt_times, pb_times = [], []
            bt_answer = pb_answer = None
            for _ in range(args.repeat):
                wall, cpu, out = timed([args.burrtxt, "-d", str(examples / f"{name}.xmpuzzle")],
                                       args.timeout)
                bt_times.append((wall, cpu))
                bt_answer = burrtools_answer(out) if out else None
                wall, cpu, out = timed([puzzlebox, "count", str(toml), "--disassemble",
                                        "--json"], args.timeout)
                pb_times.append((wall, cpu))
                pb_answer = puzzlebox_answer(out) if out else None
            rows.append((name, min(bt_times), min(pb_times), bt_answer, pb_answer))
            bt_times, pb_times = [], []
            bt_count = pb_count = None
            for _ in range(args.repeat):
                wall, cpu, out = timed([args.burrtxt, "-q", str(examples / f"{name}.xmpuzzle")],
                                       args.timeout)
                bt_times.append((wall, cpu))
                bt_count = burrtools_assemblies(out) if out else None
                wall, cpu, out = timed([puzzlebox, "count", str(toml), "--json"], args.timeout)
                pb_times.append((wall, cpu))
                pb_count = json.loads(out.splitlines()[-1])["distinct"] if out else None
            counting.append((name, min(bt_times), min(pb_times), bt_count, pb_count))
    print("| example | assemblies | come apart | levels agree | burrTxt -d wall / CPU s "
          "| puzzlebox wall / CPU s | puzzlebox / burrTxt (CPU) |")
    print("|---|---|---|---|---|---|---|")
    for name, bt, pb, bta, pba in rows:
        same = "yes" if bta and pba and bta == pba else f"no: {bta} vs {pba}"
        ratio = pb[1] / bt[1] if bt[1] else float("inf")
        print(f"| {name} | {pba[0] if pba else '?'} | {pba[1] if pba else '?'} | {same} | "
              f"{bt[0]:.2f} / {bt[1]:.2f} | {pb[0]:.2f} / {pb[1]:.2f} | {ratio:.1f}x |")
    print()
    print("| example (assembling only) | burrTxt assemblies | puzzlebox distinct | "
          "burrTxt -q wall / CPU s | puzzlebox count wall / CPU s | puzzlebox / burrTxt (CPU) |")
    print("|---|---|---|---|---|---|")
    for name, bt, pb, btc, pbc in counting:
        ratio = pb[1] / bt[1] if bt[1] else float("inf")
        print(f"| {name} | {btc} | {pbc} | {bt[0]:.2f} / {bt[1]:.2f} | "
              f"{pb[0]:.2f} / {pb[1]:.2f} | {ratio:.1f}x |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
