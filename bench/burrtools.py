"""puzzlebox against BurrTools' command-line solver, side by side, whole process (issue #23).

    python bench/burrtools.py                 # every row, 3 rounds (Bedlam: minutes)
    python bench/burrtools.py --quick         # without Bedlam, 1 round
    python bench/burrtools.py --burrtxt PATH  # a burrTxt built elsewhere instead of the cache

BurrTools 0.7.1 (GPL, C++) is built from its source in ``shared/peers/burrtools`` beside the
repository (or ``$BURRTOOLS_SRC``) by its own ``build.sh``, once, into ``bench/.peers/``
(ignored by git; about two minutes on two cores); without ``g++`` the benchmark says so and
stops, exit 0. Nothing of BurrTools enters puzzlebox: it runs as a separate program.

Each catalog puzzle is written as a BurrTools file (bench/xmpuzzle.py) and solved by
``burrTxt -q FILE`` (it prints "N assemblies ...": N solutions distinct up to the box's
symmetries, which it removes as it searches) and counted by ``puzzlebox count NAME --json``;
the two processes alternate, round after round, so a change of load charges both alike. CPU
is user + system of each whole process (``wait4``), the median of the rounds; the counts
must agree (puzzlebox's distinct count against BurrTools' assemblies).
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
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import run  # noqa: E402  (bench/run.py: measure, cli_count)
from xmpuzzle import to_xmpuzzle  # noqa: E402

BENCH = Path(__file__).resolve().parent
ROOT = BENCH.parent
CACHE = BENCH / ".peers" / "burrtools"
ROWS = [  # catalog puzzle, whether --quick keeps it
    ("soma-cube", True),
    ("pentomino-6x10", True),
    ("solid-pentominoes-2x3x10", True),
    ("solid-pentominoes-2x5x6", True),
    ("solid-pentominoes-3x4x5", True),
    ("bedlam-cube", False),
]
ASSEMBLIES = re.compile(r"(\d+) assemblies")


def source() -> Path | None:
    """BurrTools' source: ``$BURRTOOLS_SRC``, else ``shared/peers/burrtools`` beside the
    repository (as CI has it), inside it, or beside the folder of a worktree."""
    candidates = [Path(os.environ["BURRTOOLS_SRC"])] if os.environ.get("BURRTOOLS_SRC") else []
    candidates += [ROOT.parent / "shared" / "peers" / "burrtools",  # CI: beside the clone
                   ROOT / "shared" / "peers" / "burrtools",
                   ROOT.parent.parent / "shared" / "peers" / "burrtools"]  # a worktree's
    return next((c for c in candidates if (c / "build.sh").is_file()), None)


def build() -> tuple[Path | None, str]:
    """``burrTxt`` from the cache, built first if it is not there; else None and why."""
    binary = CACHE / "burrTxt"
    src = source()
    if src is None:
        return None, "BurrTools' source not found (set BURRTOOLS_SRC to shared/peers/burrtools)"
    if binary.is_file() and binary.stat().st_mtime >= (src / "build.sh").stat().st_mtime:
        return binary, f"cached build of {src}"
    if shutil.which("g++") is None:
        return None, "g++ is not installed: BurrTools' solver cannot be built"
    print(f"building BurrTools' solver from {src} into {CACHE} (about two minutes)...",
          file=sys.stderr)  # fmt: skip
    made = subprocess.run(["bash", str(src / "build.sh"), str(CACHE)], capture_output=True,
                          text=True, timeout=1800)  # fmt: skip
    if made.returncode != 0 or not binary.is_file():
        last = (made.stderr.strip().splitlines() or ["?"])[-1]
        return None, f"BurrTools' build failed: {last}"
    return binary, f"built from {src}"


def burr(binary: Path, path: Path, limit: float) -> run.Run:
    """``burrTxt -q`` on one file: its assemblies and whole-process CPU."""
    measured = run.measure([str(binary), "-q", str(path)], limit)
    return measured


def _assemblies(measured: run.Run) -> int | None:
    text = str(measured.get("result", ""))
    found = ASSEMBLIES.search(text)
    return int(found.group(1)) if found else None


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="no Bedlam, one round")
    parser.add_argument("--rounds", type=int, default=None, help="rounds (default 3; quick 1)")
    parser.add_argument("--timeout", type=float, default=600.0, help="seconds per process")
    parser.add_argument("--burrtxt", type=Path, default=None, help="a built burrTxt to use")
    parser.add_argument("--only", nargs="*", default=None, help="these catalog puzzles only")
    args = parser.parse_args()
    rounds = args.rounds or (1 if args.quick else 3)
    if args.burrtxt is not None:
        binary, how = args.burrtxt, f"given: {args.burrtxt}"
    else:
        binary, how = build()
    if binary is None:
        print(f"skipped: {how}")
        return 0
    from puzzlebox import catalog

    names = [n for n, quick in ROWS if quick or not args.quick]
    if args.only:
        names = [n for n in names if n in args.only]
    files: dict[str, Path] = {}
    work = BENCH / ".peers" / "xmpuzzle"
    work.mkdir(parents=True, exist_ok=True)
    for name in names:
        files[name] = work / f"{name}.xmpuzzle"
        files[name].write_text(to_xmpuzzle(catalog.load_file(name).puzzles[0]))
    load_before = " ".join(f"{x:.1f}" for x in os.getloadavg())
    ours: dict[str, list[run.Run]] = {n: [] for n in names}
    theirs: dict[str, list[run.Run]] = {n: [] for n in names}
    for _ in range(rounds):
        for name in names:
            ours[name].append(run.cli_count(name, args.timeout))
            theirs[name].append(burr(binary, files[name], args.timeout))
    load_after = " ".join(f"{x:.1f}" for x in os.getloadavg())
    print(f"`python bench/burrtools.py{' --quick' if args.quick else ''} --rounds {rounds}`, "
          f"BurrTools 0.7.1 burrTxt ({how}), Python {platform.python_version()}, "
          f"{platform.machine()}, {os.cpu_count()} CPUs, load average {load_before} at the "
          f"start, {load_after} at the end; whole-process CPU seconds (user + system), "
          f"median of {rounds}.\n")
    print("| puzzle | puzzlebox count (raw/distinct) | BurrTools assemblies | puzzlebox CPU s "
          "| burrTxt CPU s | burrTxt / puzzlebox |")
    print("|---|---|---:|---:|---:|---:|")
    problems = []
    for name in names:
        good = [r for r in ours[name] if r.failure is None and r.process_cpu is not None]
        peer = [r for r in theirs[name] if r.failure is None and r.process_cpu is not None]
        if not good or not peer:
            why = (ours[name] + theirs[name])[0].failure
            print(f"| {name} | {why} |  |  |  |  |")
            continue
        ours_cpu = statistics.median(r.process_cpu or 0.0 for r in good)
        peer_cpu = statistics.median(r.process_cpu or 0.0 for r in peer)
        distinct = good[0].get("distinct")
        assemblies = _assemblies(peer[0])
        if assemblies != distinct:
            problems.append(f"{name}: puzzlebox {distinct} distinct, BurrTools {assemblies}")
        print(f"| {name} | {good[0].get('result')} | {assemblies} | {ours_cpu:.3f} | "
              f"{peer_cpu:.3f} | {peer_cpu / ours_cpu:.2f}x |")
    for problem in problems:
        print(f"DISAGREE: {problem}")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
