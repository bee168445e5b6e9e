"""BurrTools' rhombic-dodecahedron and sphere examples (grids 3 and 2, #37) against burrTxt.

For each problem of each grid-3 example (Stewart Coffin's puzzles that BurrTools ships), and
of BallRoom (Coffin's, grid 2: in burr-tools/burr-tools' examples/, not in the examples
BurrTools 0.7.1's snapshot keeps; measured where the folder has it), the
two commands that count its assemblies run one after the other, ``--repeat`` times,
alternating, each in a fresh process timed from the outside (wall clock, and the CPU of the
reaped child, user + system):

* BurrTools: ``burrTxt -q -o N FILE`` (its assembler; assemblies up to symmetry);
* puzzlebox: ``puzzlebox count FILE.toml --json`` on the file ``puzzlebox import --problem
  N+1`` wrote (its ``distinct``, the same assemblies).

Then each is asked to take the assemblies apart: ``burrTxt -d -o N FILE`` (BurrTools 0.7.1
has no movement cache for grids 2 and 3 and dies with signal 11, which the table says) and
``puzzlebox count FILE.toml --disassemble --json`` (assemblies, how many come apart, the
levels), once each (``--no-disassembly`` leaves it out). The answers are compared, so a run
that got faster by getting something wrong shows it.

    python bench/fcc.py                      # all seven examples, ten problems
    python bench/fcc.py --only HexSticks     # one example
    python bench/fcc.py --no-disassembly     # counting alone

``--examples`` (or ``BURRTOOLS_EXAMPLES``) says where the examples are, by default
``../shared/peers/burrtools/examples``; ``--burrtxt`` where BurrTools' solver is (by default
``bench/.peers/burrtools/burrTxt``, where ../shared/peers/burrtools/build.sh puts it).
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import re
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
EXAMPLES = {  # example -> its number of problems
    "12PieceSeparation": 1, "AugmentedSecondStellation": 1, "BrokenSticks": 2,
    "DiagonalCube": 1, "HexSticks": 1, "PermutatedThirdStellation": 1, "PiecesOfEight": 6,
    "BallRoom": 3,
}


def timed(argv: list[str], timeout: float, stderr: bool = False
          ) -> tuple[float, float, str, int]:
    """(wall seconds, CPU seconds of the child, stdout (and stderr), return code)."""
    began = time.perf_counter()
    before = os.times()
    proc = subprocess.Popen(argv, stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT if stderr else subprocess.PIPE, text=True)
    try:
        out, _ = proc.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.communicate()
        return float("inf"), float("inf"), "", -1
    after = os.times()
    cpu = (after.children_user - before.children_user
           + after.children_system - before.children_system)
    return time.perf_counter() - began, cpu, out, proc.returncode


def assemblies(out: str) -> int | None:
    """The assemblies burrTxt counted; 0 where it said that a piece fits nowhere (it then
    prints no count)."""
    found = re.search(r"(\d+) assemblies", out)
    if found:
        return int(found.group(1))
    return 0 if "can be place nowhere" in out else None


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--examples", default=os.environ.get(
        "BURRTOOLS_EXAMPLES", str(ROOT / ".." / "shared" / "peers" / "burrtools" / "examples")))
    parser.add_argument("--burrtxt", default=str(ROOT / "bench" / ".peers" / "burrtools" /
                                                 "burrTxt"))
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--timeout", type=float, default=600)
    parser.add_argument("--only", nargs="+", metavar="NAME", help="these examples only")
    parser.add_argument("--no-disassembly", action="store_true",
                        help="count only: do not take the assemblies apart")
    args = parser.parse_args()
    examples = Path(args.examples)
    if not (examples / "HexSticks.xmpuzzle").exists():
        print(f"no BurrTools examples at {examples}: give --examples", file=sys.stderr)
        return 2
    puzzlebox = str(Path(sys.executable).with_name("puzzlebox"))
    print(f"{time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}, `python bench/fcc.py "
          f"{' '.join(sys.argv[1:])}`, Python {platform.python_version()}, "
          f"{platform.machine()}, {os.cpu_count()} CPUs, load average "
          f"{os.getloadavg()[0]:.1f} at the start.\n")
    counted, taken = [], []
    with tempfile.TemporaryDirectory() as tmp:
        for name in args.only or list(EXAMPLES):
            source = examples / f"{name}.xmpuzzle"
            if not source.exists():
                print(f"({name}.xmpuzzle is not in {examples}: left out)\n")
                continue
            for number in range(EXAMPLES[name]):
                label = name if EXAMPLES[name] == 1 else f"{name} {number + 1}"
                toml = Path(tmp) / f"{name}-{number + 1}.toml"
                subprocess.run([puzzlebox, "import", str(source), "--problem",
                                str(number + 1), "-o", str(toml)], check=True,
                               capture_output=True)
                bt_times, pb_times = [], []
                bt = pb = None
                for _ in range(args.repeat):
                    wall, cpu, out, _ = timed([args.burrtxt, "-q", "-o", str(number),
                                               str(source)], args.timeout, stderr=True)
                    bt_times.append((wall, cpu))
                    bt = assemblies(out)
                    wall, cpu, out, _ = timed([puzzlebox, "count", str(toml), "--json"],
                                              args.timeout)
                    pb_times.append((wall, cpu))
                    pb = json.loads(out.splitlines()[-1])["distinct"] if out else None
                counted.append((label, bt, pb, min(bt_times), min(pb_times)))
                if args.no_disassembly:
                    continue
                wall, cpu, out, code = timed([args.burrtxt, "-d", "-o", str(number),
                                              str(source)], args.timeout, stderr=True)
                bt_said = (f"signal {-code} ({signal.Signals(-code).name})" if code < 0
                           else f"{assemblies(out)} assemblies")
                wall, cpu, out, _ = timed([puzzlebox, "count", str(toml), "--disassemble",
                                           "--json"], args.timeout)
                report = json.loads(out.splitlines()[-1]) if out else None
                taken.append((label, bt_said, report, (wall, cpu)))
    print("| example | burrTxt -q assemblies | puzzlebox distinct | burrTxt -q wall / CPU s "
          "| puzzlebox count wall / CPU s | puzzlebox / burrTxt (CPU) |")
    print("|---|---|---|---|---|---|")
    for label, bt, pb, bt_time, pb_time in counted:
        # below 0.02 s burrTxt's CPU is the clock's tick, not a measurement
        ratio = f"{pb_time[1] / bt_time[1]:.1f}x" if bt_time[1] >= 0.02 else "-"
        mark = "" if bt == pb else " (differs)"
        print(f"| {label} | {bt} | {pb}{mark} | {bt_time[0]:.2f} / {bt_time[1]:.2f} | "
              f"{pb_time[0]:.2f} / {pb_time[1]:.2f} | {ratio} |")
    if taken:
        print()
        print("| example | burrTxt -d | puzzlebox assemblies | come apart | levels | "
              "puzzlebox --disassemble wall / CPU s |")
        print("|---|---|---|---|---|---|")
        for label, bt_said, report, (wall, cpu) in taken:
            if report is None:
                print(f"| {label} | {bt_said} | ? | ? | ? | {wall:.2f} / {cpu:.2f} |")
                continue
            levels = ", ".join(f"{lv['level']} (x{lv['assemblies']})" for lv in report["levels"])
            print(f"| {label} | {bt_said} | {report['assemblies']} | {report['come_apart']} | "
                  f"{levels or '-'} | {wall:.2f} / {cpu:.2f} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
