"""Design search against its published figures and against BurrTools (issue #34, item 5).

    python bench/design.py                  # both rows: the burrs (3 rounds), the calendar
    python bench/design.py --only burrs     # the 25 notchable sticks against burrTxt -d
    python bench/design.py --only calendar  # A-Puzzle-A-Day's 792 sets, --jobs 1 and 2
    python bench/design.py --only calendar --calendar-rounds 2 --src before=/tmp/old/src \
        --src after=src                     # two versions' --jobs 2, interleaved

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
half of one process's on two free cores; CPU: what one process spends), interleaved round
by round (``--calendar-rounds``; ``--src NAME=DIR`` runs ``--jobs 2`` on each source tree);
the progress lines (``--progress json``) give the time left the search predicted at a
tenth, a quarter and half of the designs, against the time it then took.

CPU is user + system of each whole process and its children (``wait4``); the calendar's
counts every process the command started, this script being their subreaper (Linux's
``PR_SET_CHILD_SUBREAPER``: the forkserver's workers are not the command's children).
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import re
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import burrtools  # noqa: E402  (bench/burrtools.py: build)
from parallel import become_subreaper, reap_all, warm_bytecode  # noqa: E402

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


def calendar_once(jobs: int, limit: float, src: str | None) -> dict:
    """One whole ``design calendar-sets`` command: CPU of it and of every process it
    started (``RUSAGE_CHILDREN`` as a subreaper: forked workers and the forkserver's
    alike), wall, its output and its progress lines."""
    command = [puzzlebox_exe(), "design", "calendar-sets", "--json", "--every", "--jobs",
               str(jobs), "--progress", "json"]
    env = dict(os.environ)
    if src is not None:
        env["PYTHONPATH"] = src
    with tempfile.TemporaryFile("w+") as out, tempfile.TemporaryFile("w+") as err:
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        began = time.perf_counter()
        proc = subprocess.Popen(command, stdout=out, stderr=err, text=True, env=env)
        try:
            status = proc.wait(timeout=limit)
        except subprocess.TimeoutExpired:
            proc.kill()
            raise SystemExit(f"over {limit:g} s: {' '.join(command)}") from None
        wall = time.perf_counter() - began
        reap_all()
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        out.seek(0)
        err.seek(0)
        stdout, stderr = out.read(), err.read()
    if status != 0:
        raise SystemExit(f"failed: {' '.join(command)}: {stderr[-300:]}")
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    events = [json.loads(line) for line in stderr.splitlines() if line.startswith("{")]
    objects = [json.loads(line) for line in stdout.splitlines()]
    return {"cpu": cpu, "wall": wall, "objects": objects, "events": events,
            "load": os.getloadavg()[0]}


def bench_calendar(limit: float, rounds: int = 1, sources: list[str] | None = None) -> None:
    """``--jobs 1`` against ``--jobs 2`` (each ``--src`` tree's, where given), interleaved
    round by round; CPU of every process of each command."""
    if not become_subreaper():
        raise SystemExit("the calendar needs Linux's PR_SET_CHILD_SUBREAPER to count workers")
    trees = [tuple(v.split("=", 1)) for v in sources or []] or [("", None)]
    warm_bytecode([src for _, src in trees])  # as a user's installed package runs
    settings = [("", trees[0][1], 1)] + [(name, src, 2) for name, src in trees]
    runs: dict[tuple[str, int], list[dict]] = {}
    load = os.getloadavg()
    for round_ in range(rounds):
        for name, src, jobs in settings:
            got = calendar_once(jobs, limit, src)
            runs.setdefault((name, jobs), []).append(got)
            print(f"round {round_ + 1} {name or '-'} --jobs {jobs}: {got['cpu']:.1f} s CPU, "
                  f"{got['wall']:.1f} s wall, load {got['load']:.1f}", file=sys.stderr)
    after = os.getloadavg()
    kept = {str(r["objects"][-1]["summary"]["kept"]) + " " + str(r["objects"][-1]["ranked"])
            for rs in runs.values() for r in rs}
    if len(kept) != 1:
        raise SystemExit("calendar: the runs disagree")
    argv = " ".join(sys.argv[1:])
    print(f"\ncalendar: `python bench/design.py {argv}`, Python "
          f"{platform.python_version()}, {platform.machine()}, {os.cpu_count()} CPUs, load "
          f"{load[0]:.1f} at the start, {after[0]:.1f} at the end; CPU = user + system of "
          f"the command and every process it started; median of {rounds} interleaved "
          "round(s)\n")
    print("| version | --jobs | CPU s | CPUs | wall s | loads | sets kept | CPU vs --jobs 1 "
          "| wall --jobs 1 / this | time left said / taken |")
    print("|---|---:|---:|---|---:|---|---:|---:|---:|---|")
    base_cpu = statistics.median(r["cpu"] for r in runs["", 1])
    base_wall = statistics.median(r["wall"] for r in runs["", 1])
    for name, _, jobs in settings:
        rs = runs[name, jobs]
        cpu = statistics.median(r["cpu"] for r in rs)
        wall = statistics.median(r["wall"] for r in rs)
        last = rs[-1]
        summary = last["objects"][-1]["summary"]
        etas = []
        for share in (0.1, 0.25, 0.5):
            event = next((e for e in last["events"] if e["eta"] is not None
                          and e["tried"] >= share * e["total"]), None)
            if event is not None:
                truth = summary["seconds"] - event["elapsed"]
                etas.append(f"{share:.0%}: {event['eta']:.0f} s said, {truth:.0f} s taken")
        cpus = " ".join(f"{r['cpu']:.1f}" for r in rs)
        loads = " ".join(f"{r['load']:.1f}" for r in rs)
        print(f"| {name or '-'} | {jobs} | {cpu:.1f} | {cpus} | {wall:.1f} | {loads} | "
              f"{summary['kept']} | "
              f"{cpu / base_cpu:.3f}x | {base_wall / wall:.2f}x | {'; '.join(etas)} |")
    objects = runs["", 1][0]["objects"]
    kept_sets = {o["design"]: o for o in objects[:-1] if o["kept"]}
    ranked = objects[-1]["ranked"]
    print("\nthe hardest sets (fewest solutions on their hardest date):\n")
    print("| rank | pieces (with the rectangle) | hardest date | its solutions |")
    print("|---:|---|---|---:|")
    for k, index in enumerate(ranked[:5], 1):
        o = kept_sets[index]
        print(f"| {k} | {' '.join(o['pieces'])} | {' '.join(o['hardest'].values())} | "
              f"{o['hardest_solutions']} |")
    dragonfjord = next((k for k, i in enumerate(ranked, 1)
                        if set(kept_sets[i]["pieces"]) == set("LNPUVYZ")), None)
    print(f"\nDragonFjord's set (L N P U V Y Z): rank {dragonfjord} of {len(ranked)}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", choices=["burrs", "calendar"], default=None)
    parser.add_argument("--rounds", type=int, default=3, help="rounds of the burrs (3)")
    parser.add_argument("--timeout", type=float, default=3600.0)
    parser.add_argument("--calendar-rounds", type=int, default=1,
                        help="interleaved rounds of the calendar's --jobs 1 and 2 (1)")
    parser.add_argument("--src", action="append", default=[], metavar="NAME=DIR",
                        help="the calendar's --jobs 2 on this source tree too "
                             "(PYTHONPATH=DIR): two versions compared in one run")
    args = parser.parse_args()
    if args.only in (None, "burrs"):
        bench_burrs(args.rounds, args.timeout)
    if args.only in (None, "calendar"):
        bench_calendar(args.timeout, args.calendar_rounds, args.src)
    return 0


if __name__ == "__main__":
    sys.exit(main())
