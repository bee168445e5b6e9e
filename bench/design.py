"""Design search against its published figures and against BurrTools (issue #34, item 5).

    python bench/design.py                  # both rows: the burrs (3 rounds), the calendar
    python bench/design.py --only burrs     # the 25 notchable sticks against burrTxt -d
    python bench/design.py --only calendar  # A-Puzzle-A-Day's 792 sets, --jobs 1 and 2

**Burrs.** BurrTools' SolidSixPieceBurrs example (the 25 notchable sticks, each with a piece
range of 0 to 6, in the six-piece burr's shape) is imported with ``puzzlebox import`` and
given a ``[design]`` table (a pool of the 25, six taken, coming apart wanted, ranked by
level). ``burrTxt -d`` (BurrTools 0.7.1, built from ``shared/peers/burrtools`` as
bench/burrtools.py builds it) solves and takes apart the same file; the two alternate, round
after round. The figures must agree: BurrTools' assemblies and "solutions" (assemblies that
come apart, mirror images as one) against puzzlebox's assemblies and ``come_apart`` summed
over the kept designs; puzzlebox also gives them with mirror images apart (314, Cutler's
figure, which the example's notes quote).

**Calendar.** ``puzzlebox design calendar-sets`` (the 2x3 rectangle and seven of the twelve
pentominoes on DragonFjord's board: which of the 792 sets leave all 366 dates solvable)
with ``--jobs 1`` (CPU: the target is under 10 minutes on one core) and ``--jobs 2`` (wall:
half of one process's on two free cores), once each; the progress lines (``--progress
json``) give the time left the search predicted at a tenth, a quarter and half of the
designs, against the time it then took.

CPU is user + system of each whole process and its children (``wait4``).
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import re
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import burrtools  # noqa: E402  (bench/burrtools.py: build)

BENCH = Path(__file__).resolve().parent
SOLUTIONS = re.compile(r"(\d+) assemblies and (\d+) solutions")


def puzzlebox_exe() -> str:
    return str(Path(sys.executable).parent / "puzzlebox")


def burr_space(work: Path) -> Path | None:
    """The example as a design file, or None where BurrTools' examples are not at hand."""
    src = burrtools.source()
    if src is None:
        return None
    example = src / "examples" / "SolidSixPieceBurrs.xmpuzzle"
    plain = work / "ssb.toml"
    subprocess.run([puzzlebox_exe(), "import", str(example), "-o", str(plain)], check=True,
                   capture_output=True)
    pool = ", ".join(f'"S{k}"' for k in range(1, 26))
    text = plain.read_text().replace(
        "[rules]", f"[design]\npool = [{pool}]\ntake = 6\ncomes_apart = true\nrank = "
        "\"level\"\n\n[rules]")
    space = work / "ssb-design.toml"
    space.write_text(text)
    return space


def design_totals(stdout: str) -> dict[str, int]:
    objects = [json.loads(line) for line in stdout.splitlines() if line.startswith("{")]
    every = [o for o in objects if "design" in o]
    kept = [o for o in every if o.get("kept")]
    return {"kept": len(kept), "assemblies": sum(o["assemblies"] or 0 for o in every),
            "come_apart": sum(o["come_apart"] or 0 for o in kept),
            "mirrors_apart": sum(o["come_apart_mirrors"] or 0 for o in kept)}


def measured(command: list[str], limit: float) -> tuple[float, float, str]:
    """CPU (process and children) and wall of ``command``; its standard output."""
    with tempfile.TemporaryFile("w+") as out:
        began = time.perf_counter()
        proc = subprocess.Popen(command, stdout=out, stderr=subprocess.DEVNULL, text=True)
        _, status, usage = os.wait4(proc.pid, 0)
        wall = time.perf_counter() - began
        out.seek(0)
        text = out.read()
    if os.waitstatus_to_exitcode(status) != 0:
        raise SystemExit(f"failed: {' '.join(command)}")
    return usage.ru_utime + usage.ru_stime, wall, text


def bench_burrs(rounds: int, limit: float) -> None:
    binary, how = burrtools.build()
    with tempfile.TemporaryDirectory() as folder:
        space = burr_space(Path(folder))
        if binary is None or space is None:
            print(f"burrs: skipped: {how if binary is None else 'no BurrTools examples'}")
            return
        example = space.parent / "SolidSixPieceBurrs.xmpuzzle"
        example.write_bytes((burrtools.source() / "examples"  # type: ignore[operator]
                             / "SolidSixPieceBurrs.xmpuzzle").read_bytes())
        ours, theirs = [], []
        totals: dict[str, int] = {}
        peer: tuple[int, int] | None = None
        load = os.getloadavg()
        for _ in range(rounds):
            cpu, _, out = measured([puzzlebox_exe(), "design", str(space), "--json", "--every"],
                                   limit)
            ours.append(cpu)
            totals = design_totals(out)
            cpu, _, out = measured([str(binary), "-d", str(example)], limit)
            theirs.append(cpu)
            found = SOLUTIONS.search(out)
            peer = (int(found.group(1)), int(found.group(2))) if found else None
        after = os.getloadavg()
    print(f"burrs: `python bench/design.py --only burrs --rounds {rounds}`, BurrTools 0.7.1 "
          f"burrTxt -d ({how}), Python {platform.python_version()}, {platform.machine()}, "
          f"{os.cpu_count()} CPUs, load {load[0]:.1f} at the start, {after[0]:.1f} at the "
          f"end; CPU seconds, median of {rounds}\n")
    print("| | assemblies | come apart (mirrors as one) | come apart (mirrors apart) | "
          "kept sets | CPU s |")
    print("|---|---:|---:|---:|---:|---:|")
    print(f"| puzzlebox design | {totals['assemblies']} | {totals['come_apart']} | "
          f"{totals['mirrors_apart']} | {totals['kept']} | {statistics.median(ours):.2f} |")
    if peer is not None:
        print(f"| burrTxt -d | {peer[0]} | {peer[1]} | | | {statistics.median(theirs):.2f} |")
    ratio = statistics.median(theirs) / statistics.median(ours)
    print(f"\nburrTxt -d / puzzlebox design: {ratio:.1f}x CPU")
    if peer is not None and peer != (totals["assemblies"], totals["come_apart"]):
        print(f"DISAGREE: burrTxt {peer}, puzzlebox {totals}")


def bench_calendar(limit: float) -> None:
    rows = []
    load = os.getloadavg()
    for jobs in (1, 2):
        command = [puzzlebox_exe(), "design", "calendar-sets", "--json", "--every", "--jobs",
                   str(jobs), "--progress", "json"]
        with tempfile.TemporaryFile("w+") as out, tempfile.TemporaryFile("w+") as err:
            began = time.perf_counter()
            proc = subprocess.Popen(command, stdout=out, stderr=err, text=True)
            _, status, usage = os.wait4(proc.pid, 0)
            wall = time.perf_counter() - began
            out.seek(0)
            err.seek(0)
            stdout, stderr = out.read(), err.read()
        if os.waitstatus_to_exitcode(status) != 0:
            raise SystemExit(f"failed: {' '.join(command)}: {stderr[-300:]}")
        events = [json.loads(line) for line in stderr.splitlines() if line.startswith("{")]
        objects = [json.loads(line) for line in stdout.splitlines()]
        summary = objects[-1]
        etas = []
        for share in (0.1, 0.25, 0.5):
            event = next((e for e in events if e["eta"] is not None
                          and e["tried"] >= share * e["total"]), None)
            if event is not None:
                truth = summary["summary"]["seconds"] - event["elapsed"]
                etas.append(f"{share:.0%}: {event['eta']:.0f} s said, {truth:.0f} s taken")
        # the workers are the forkserver's children, not this process's: their CPU is the
        # sum of each design's own (the thread that tried it), beside the main process's
        tried = sum(o.get("cpu", 0.0) for o in objects[:-1]) if jobs > 1 else 0.0
        rows.append((jobs, usage.ru_utime + usage.ru_stime + tried, wall, objects, etas))
    after = os.getloadavg()
    print(f"\ncalendar: `python bench/design.py --only calendar`, Python "
          f"{platform.python_version()}, {platform.machine()}, {os.cpu_count()} CPUs, load "
          f"{load[0]:.1f} at the start, {after[0]:.1f} at the end\n")
    print("| --jobs | CPU s | wall s | sets kept | time left said / taken |")
    print("|---:|---:|---:|---:|---|")
    for jobs, cpu, wall, objects, etas in rows:
        print(f"| {jobs} | {cpu:.1f} | {wall:.1f} | {objects[-1]['summary']['kept']} | "
              f"{'; '.join(etas)} |")
    objects = rows[0][3]
    kept = {o["design"]: o for o in objects[:-1] if o["kept"]}
    ranked = objects[-1]["ranked"]
    print(f"\nwall, --jobs 1 / --jobs 2: {rows[0][2] / rows[1][2]:.2f}x")
    print("\nthe hardest sets (fewest solutions on their hardest date):\n")
    print("| rank | pieces (with the rectangle) | hardest date | its solutions |")
    print("|---:|---|---|---:|")
    for k, index in enumerate(ranked[:5], 1):
        o = kept[index]
        print(f"| {k} | {' '.join(o['pieces'])} | {' '.join(o['hardest'].values())} | "
              f"{o['hardest_solutions']} |")
    dragonfjord = next((k for k, i in enumerate(ranked, 1)
                        if set(kept[i]["pieces"]) == set("LNPUVYZ")), None)
    print(f"\nDragonFjord's set (L N P U V Y Z): rank {dragonfjord} of {len(ranked)}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", choices=["burrs", "calendar"], default=None)
    parser.add_argument("--rounds", type=int, default=3, help="rounds of the burrs (3)")
    parser.add_argument("--timeout", type=float, default=3600.0)
    args = parser.parse_args()
    if args.only in (None, "burrs"):
        bench_burrs(args.rounds, args.timeout)
    if args.only in (None, "calendar"):
        bench_calendar(args.timeout)
    return 0


if __name__ == "__main__":
    sys.exit(main())
