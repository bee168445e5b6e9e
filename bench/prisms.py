"""Triangular prisms in layers (#37): BurrTools' prism examples, puzzlebox against burrTxt.

    python bench/prisms.py                 # 3 rounds
    python bench/prisms.py --rounds 1
    python bench/prisms.py --burrtxt PATH  # a burrTxt built elsewhere

Bermuda and both problems of Prisgon (Bill Cutler's, in BurrTools' examples beside the
repository: ``shared/peers/burrtools/examples`` or ``$BURRTOOLS_EXAMPLES``) are imported with
``puzzlebox import`` once, then ``puzzlebox count TOML --disassemble --json`` and
``burrTxt -d [-o N] FILE`` (burrtools.py builds it) run in turn, round after round, so a
change of load charges both alike. CPU is user + system of each whole process (``wait4``),
the median of the rounds; the assemblies and levels are printed side by side. The prism
take-apart runs on the Python reference of the disassembler's step (the lattice's own
steps: ``Lattice.slide_steps`` and ``swept``).
"""

from __future__ import annotations

import argparse
import os
import platform
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import burrtools  # noqa: E402  (bench/burrtools.py: build)
import run  # noqa: E402  (bench/run.py: measure)

ROOT = Path(__file__).resolve().parent.parent
ROWS = [("Bermuda", None), ("Prisgon", 1), ("Prisgon", 2)]  # file, problem (from 1)
LEVEL = re.compile(r"level: ([0-9.]+)")
ASSEMBLIES = re.compile(r"(\d+) assemblies and (\d+) solutions")


def examples() -> Path | None:
    named = os.environ.get("BURRTOOLS_EXAMPLES")
    for folder in ([Path(named)] if named else []) + [
            ROOT.parent / "shared" / "peers" / "burrtools" / "examples",
            ROOT.parent.parent / "shared" / "peers" / "burrtools" / "examples"]:
        if (folder / "Bermuda.xmpuzzle").is_file():
            return folder
    return None


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=3, help="rounds (default 3)")
    parser.add_argument("--timeout", type=float, default=300.0, help="seconds per process")
    parser.add_argument("--burrtxt", type=Path, default=None, help="a built burrTxt to use")
    args = parser.parse_args()
    folder = examples()
    if folder is None:
        print("skipped: BurrTools' examples are not here (set BURRTOOLS_EXAMPLES)")
        return 0
    binary, how = (args.burrtxt, f"given: {args.burrtxt}") if args.burrtxt else \
        burrtools.build()
    if binary is None:
        print(f"skipped: {how}")
        return 0
    exe = shutil.which("puzzlebox", path=str(Path(sys.executable).parent)) or "puzzlebox"
    work = Path(tempfile.mkdtemp(prefix="prisms-"))
    tomls = {}
    for name, problem in ROWS:
        toml = work / f"{name}{problem or ''}.toml"
        subprocess.run([exe, "import", str(folder / f"{name}.xmpuzzle"), "-o", str(toml)]
                       + (["--problem", str(problem)] if problem else []),
                       check=True, capture_output=True)  # fmt: skip
        tomls[name, problem] = toml
    load_before = " ".join(f"{x:.1f}" for x in os.getloadavg())
    ours: dict[tuple[str, int | None], list[run.Run]] = {row: [] for row in ROWS}
    theirs: dict[tuple[str, int | None], list[run.Run]] = {row: [] for row in ROWS}
    for _ in range(args.rounds):
        for name, problem in ROWS:
            ours[name, problem].append(run.measure(
                [exe, "count", str(tomls[name, problem]), "--disassemble", "--json"],
                args.timeout))
            theirs[name, problem].append(run.measure(
                [str(binary), "-d", str(folder / f"{name}.xmpuzzle")]
                + (["-o", str(problem - 1)] if problem else []), args.timeout))
    load_after = " ".join(f"{x:.1f}" for x in os.getloadavg())
    print(f"`python bench/prisms.py --rounds {args.rounds}`, burrTxt ({how}), Python "
          f"{platform.python_version()}, {platform.machine()}, {os.cpu_count()} CPUs, load "
          f"average {load_before} at the start, {load_after} at the end; whole-process CPU "
          f"seconds (user + system), median of {args.rounds}.\n")
    print("| puzzle | puzzlebox assemblies, level | burrTxt assemblies, level | puzzlebox CPU s "
          "| burrTxt CPU s |")
    print("|---|---|---|---:|---:|")
    for name, problem in ROWS:
        good = [r for r in ours[name, problem] if r.failure is None and r.process_cpu]
        peer = [r for r in theirs[name, problem] if r.failure is None and r.process_cpu]
        label = name + (f" {problem}" if problem else "")
        if not good or not peer:
            print(f"| {label} | {(ours[name, problem] + theirs[name, problem])[0].failure} "
                  "|  |  |  |")
            continue
        report = good[0].report
        listed = report.get("levels", [])
        levels = ", ".join(str(v.get("level")) for v in listed) \
            if isinstance(listed, list) else "?"
        # burrTxt's whole output once more, untimed (the timed run keeps its last line)
        text = subprocess.run([str(binary), "-d", str(folder / f"{name}.xmpuzzle")]
                              + (["-o", str(problem - 1)] if problem else []),
                              capture_output=True, text=True, timeout=args.timeout).stdout
        found = ASSEMBLIES.search(text)
        level = LEVEL.search(text)
        print(f"| {label} | {report.get('assemblies')}, {levels} | "
              f"{found.group(1) if found else '?'}, {level.group(1) if level else '?'} | "
              f"{statistics.median(r.process_cpu or 0.0 for r in good):.3f} | "
              f"{statistics.median(r.process_cpu or 0.0 for r in peer):.3f} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
