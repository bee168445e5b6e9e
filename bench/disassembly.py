"""Disassembly against BurrTools (#24): the same example files, both tools, interleaved.

For each BurrTools example the two commands that answer "how many assemblies, which come
apart, at what level" run one after the other, ``--repeat`` times, alternating, each in a
fresh process timed from the outside (wall clock, and the CPU of the reaped child):

* BurrTools: ``burrTxt -d FILE`` (its assembler, then its disassembler on each assembly);
* puzzlebox: ``puzzlebox count FILE.toml --disassemble --json`` on the file that
  ``puzzlebox import`` wrote (distinct solutions by exact cover, then each taken apart).

The answers are compared too (assemblies, how many come apart, the levels), so a run that
got faster by getting something wrong shows it. The examples are GPL and not in the
repository: ``--examples`` (or ``BURRTOOLS_EXAMPLES``) says where they are, by default
``../shared/peers/burrtools/examples``; ``--burrtxt`` where BurrTools' solver is.

    python bench/disassembly.py                  # CubeInCage, AlPackino, PelikanBurr
    python bench/disassembly.py --all            # and SolidSixPieceBurrs (a few minutes)
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
QUICK = ["CubeInCage", "AlPackino", "PelikanBurr"]
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


def puzzlebox_answer(out: str) -> tuple[int, int, Counter[str]]:
    obj = json.loads(out.splitlines()[-1])
    return (obj["assemblies"], obj["come_apart"],
            Counter({lv["level"]: lv["assemblies"] for lv in obj["levels"]}))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--examples", default=os.environ.get(
        "BURRTOOLS_EXAMPLES", str(ROOT / ".." / "shared" / "peers" / "burrtools" / "examples")))
    parser.add_argument("--burrtxt", default="/work/notes/burrtools-bin/burrTxt")
    parser.add_argument("--repeat", type=int, default=2)
    parser.add_argument("--timeout", type=float, default=300)
    parser.add_argument("--all", action="store_true", help="also SolidSixPieceBurrs")
    args = parser.parse_args()
    examples = Path(args.examples)
    if not (examples / "CubeInCage.xmpuzzle").exists():
        print(f"no BurrTools examples at {examples}: give --examples", file=sys.stderr)
        return 2
    puzzlebox = str(Path(sys.executable).with_name("puzzlebox"))
    names = QUICK + (SLOW if args.all else [])
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        for name in names:
            toml = Path(tmp) / f"{name}.toml"
            subprocess.run([puzzlebox, "import", str(examples / f"{name}.xmpuzzle"), "-o",
                            str(toml)], check=True, capture_output=True)
            # one unmeasured run compiles or loads numba's kernels for this puzzle
            subprocess.run([puzzlebox, "count", str(toml), "--json"], capture_output=True)
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
    print("| example | assemblies | come apart | levels agree | burrTxt -d wall / CPU s "
          "| puzzlebox wall / CPU s | puzzlebox / burrTxt (CPU) |")
    print("|---|---|---|---|---|---|---|")
    for name, bt, pb, bta, pba in rows:
        same = "yes" if bta and pba and bta == pba else f"no: {bta} vs {pba}"
        ratio = pb[1] / bt[1] if bt[1] else float("inf")
        print(f"| {name} | {pba[0] if pba else '?'} | {pba[1] if pba else '?'} | {same} | "
              f"{bt[0]:.2f} / {bt[1]:.2f} | {pb[0]:.2f} / {pb[1]:.2f} | {ratio:.1f}x |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
