"""Speed-up of a split count: --jobs N and a local Dask cluster against one plain search.

Each measurement runs the ``puzzlebox`` command line in a fresh process and times it from
the outside (start-up included, as a user sees it). The single search and the split runs use
the same engine, so the ratio measures the splitting and nothing else; the counts of every
run must agree or the script stops.

    python bench/parallel.py                       # queens 15 and pentomino-5x12
    python bench/parallel.py queens:12 pentomino-3x20 --engine reference --no-cluster
    python bench/parallel.py --append              # add a section to bench/RESULTS.md

A puzzle is a catalog name, a .toml file, or ``queens:N``; ``NAME@ENGINE`` pins its engine
(``pentomino-5x12@compiled``).
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import platform
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
RESULTS = HERE / "RESULTS.md"


def search_engine(puzzle: str) -> str:
    """The engine that "auto" searches this puzzle with. Named explicitly, so that the single
    run searches too (a plain "auto" count may sweep instead, which is another algorithm)."""
    import puzzlebox
    from puzzlebox.engine import auto_engine

    return auto_engine(puzzlebox.load(puzzle).search_problem())


def autogroup_note() -> str:
    """Linux's autogroup shares the CPUs between sessions, not processes: while other
    sessions keep cores busy, more processes in this one do not get more CPU time."""
    try:
        enabled = Path("/proc/sys/kernel/sched_autogroup_enabled").read_text().strip() == "1"
    except OSError:
        return ""
    return "; the kernel's autogroup scheduling shares CPUs per session" if enabled else ""


def puzzle_arg(spec: str, folder: Path) -> str:
    if spec.startswith("queens:"):
        n = int(spec.split(":", 1)[1])
        path = folder / f"queens-{n}.toml"
        path.write_text(f'kind = "queens"\nn = {n}\n')
        return str(path)
    return spec


def run_count(puzzle: str, engine: str, extra: list[str]) -> tuple[float, dict]:
    """Wall-clock seconds of one ``puzzlebox count`` and its JSON object."""
    argv = [sys.executable, "-m", "puzzlebox.cli", "count", puzzle, "--json",
            "--engine", engine, *extra]
    began = time.perf_counter()
    done = subprocess.run(argv, capture_output=True, text=True)
    seconds = time.perf_counter() - began
    if done.returncode != 0:
        raise SystemExit(f"{' '.join(argv)} failed: {done.stderr.strip()}")
    return seconds, json.loads(done.stdout.splitlines()[0])


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("puzzles", nargs="*",
                        default=["queens:15", "pentomino-5x12", "pentomino-5x12@compiled"])
    parser.add_argument("--engine", default=None,
                        help="default: the engine 'auto' searches each puzzle with")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--no-cluster", action="store_true", help="skip the Dask cluster")
    parser.add_argument("--append", action="store_true", help=f"append to {RESULTS.name}")
    args = parser.parse_args()
    load = os.getloadavg()[0]
    rows = []
    cluster = None
    try:
        if not args.no_cluster:
            from dask.distributed import LocalCluster

            began = time.perf_counter()
            cluster = LocalCluster(n_workers=args.jobs, threads_per_worker=1, processes=True,
                                   dashboard_address=None)
            cluster_start = time.perf_counter() - began
            print(f"LocalCluster with {args.jobs} workers up in {cluster_start:.1f} s",
                  file=sys.stderr)
        with tempfile.TemporaryDirectory() as folder:
            for spec in args.puzzles:
                name, _, pinned = spec.partition("@")
                puzzle = puzzle_arg(name, Path(folder))
                engine = pinned or args.engine or search_engine(puzzle)
                one, base = run_count(puzzle, engine, [])
                print(f"{spec}: 1 process {one:.2f} s", file=sys.stderr)
                many, split = run_count(puzzle, engine, ["--jobs", str(args.jobs)])
                print(f"{spec}: --jobs {args.jobs} {many:.2f} s", file=sys.stderr)
                answers = {(base["solutions"], base["distinct"]),
                           (split["solutions"], split["distinct"])}
                on_cluster = None
                if cluster is not None:
                    on_cluster, clustered = run_count(
                        puzzle, engine, ["--cluster", cluster.scheduler_address]
                    )
                    print(f"{spec}: cluster {on_cluster:.2f} s", file=sys.stderr)
                    answers.add((clustered["solutions"], clustered["distinct"]))
                if len(answers) != 1:
                    raise SystemExit(f"{spec}: the runs disagree: {sorted(answers)}")
                rows.append((spec, engine, base["solutions"], base["distinct"], one, many,
                             on_cluster, split.get("total")))
    finally:
        if cluster is not None:
            cluster.close()

    cores = os.cpu_count()
    lines = [
        "",
        f"## Parallel speed-up ({datetime.date.today().isoformat()})",
        "",
        f"`{' '.join(['python', 'bench/parallel.py', *sys.argv[1:]])}`: "
        f"{cores} cores ({platform.processor() or platform.machine()}), load average "
        f"{load:.1f} at the start (the machine is shared{autogroup_note()}). Wall-clock "
        "seconds of the whole command, start-up included; the speed-up is the single "
        "search's time over the split run's.",
        "",
        f"| puzzle | engine | solutions | distinct | 1 process | --jobs {args.jobs} | speed-up | "
        f"LocalCluster ({args.jobs} workers) | speed-up | subproblems |",
        "|---|---|---|---|---|---|---|---|---|---|",
    ]
    for spec, engine, raw, distinct, one, many, on_cluster, total in rows:
        cl = f"{on_cluster:.2f} s | {one / on_cluster:.2f}x" if on_cluster else "- | -"
        lines.append(
            f"| {spec} | {engine} | {raw} | {distinct} | {one:.2f} s | {many:.2f} s | "
            f"{one / many:.2f}x | {cl} | {total} |"
        )
    text = "\n".join(lines) + "\n"
    print(text)
    if args.append:
        if not RESULTS.exists():
            RESULTS.write_text("# Benchmark results\n")
        with RESULTS.open("a") as handle:
            handle.write(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
