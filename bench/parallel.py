"""Speed-up of a split count: --jobs N (and a local Dask cluster) against one plain search.

Each measurement runs in a fresh process and is timed from the outside (start-up included,
as a user sees it). Both runs are the same command but for ``--jobs`` (``auto``, or the
engine pinned), and the script checks that the split ran on the engine the single count ran
on, so the ratio measures the splitting and nothing else; the counts of every run must agree
or the script stops. Besides wall-clock time, every run reports CPU seconds: the main
process's, and for a split run the CPU each worker (and this process's own share) spent
on its subproblems, so a run on a loaded machine can still be judged: the split's total CPU
against the single search's shows its overhead, and the wall time against the busiest
worker's CPU shows how much CPU the machine gave it.

    python bench/parallel.py                        # queens 16 and pentomino-6x10
    python bench/parallel.py queens:17 --no-cluster
    python bench/parallel.py pentomino-5x12@compiled --jobs 2
    python bench/parallel.py --append               # add a section to bench/RESULTS.md

A puzzle is a catalog name, a .toml file, or ``queens:N``; ``NAME@ENGINE`` pins its engine.
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import platform
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
RESULTS = HERE / "RESULTS.md"


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


def child(puzzle: str, engine: str, jobs: int, cluster: str | None) -> int:
    """One measured run, in its own process: a plain count (``jobs == 0``) or a split one.
    Prints one JSON object."""
    import puzzlebox
    from puzzlebox.parallel import SplitRun

    pf = puzzlebox.load_file(puzzle)
    puzzle_obj = pf.puzzles[0]
    if jobs == 0 and cluster is None:
        began = time.process_time()
        result = puzzle_obj.count(engine=engine)
        print(json.dumps({
            "solutions": result.solutions, "distinct": result.distinct,
            "engine": result.stats.engine, "cpu": time.process_time() - began,
        }))
        return 0
    workers: dict[str, float] = {}

    def on_result(board: int, index: int, answer: tuple) -> None:
        cpu, worker = answer[5], answer[6]
        workers[worker] = workers.get(worker, 0.0) + cpu

    with SplitRun(pf, engine=engine, jobs=max(jobs, 1), cluster=cluster,
                  on_result=on_result) as run:
        result = run.count()
    print(json.dumps({
        "solutions": result.solutions, "distinct": result.distinct,
        "engine": result.stats.engine, "subproblems": result.total,
        "workers": sorted(workers.values(), reverse=True),
    }))
    return 0


def measure(puzzle: str, engine: str, jobs: int, cluster: str | None = None) -> dict:
    """Run :func:`child` in a fresh process: its JSON, its wall-clock seconds and the CPU
    seconds of that process (``RUSAGE_CHILDREN``: the worker processes are the forkserver's
    children and are not in it; their CPU is in the per-worker figures)."""
    argv = [sys.executable, __file__, "--child", puzzle, "--engine", engine,
            "--jobs", str(jobs)] + (["--cluster", cluster] if cluster else [])
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    began = time.perf_counter()
    done = subprocess.run(argv, capture_output=True, text=True)
    wall = time.perf_counter() - began
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode != 0:
        raise SystemExit(f"{' '.join(argv)} failed: {done.stderr.strip()}")
    out = json.loads(done.stdout.splitlines()[-1])
    out["wall"] = wall
    out["tree_cpu"] = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("puzzles", nargs="*", default=["queens:16", "pentomino-6x10"])
    parser.add_argument("--engine", default=None,
                        help="default: auto (the split must run on the engine it chose)")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--no-cluster", action="store_true", help="skip the Dask cluster")
    parser.add_argument("--append", action="store_true", help=f"append to {RESULTS.name}")
    parser.add_argument("--child", default=None, help=argparse.SUPPRESS)
    parser.add_argument("--cluster", default=None, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child is not None:
        return child(args.child, args.engine or "auto", args.jobs, args.cluster)

    load = os.getloadavg()[0]
    rows = []
    cluster = None
    try:
        if not args.no_cluster:
            from dask.distributed import LocalCluster

            cluster = LocalCluster(n_workers=args.jobs, threads_per_worker=1, processes=True,
                                   dashboard_address=None)
        with tempfile.TemporaryDirectory() as folder:
            for spec in args.puzzles:
                name, _, pinned = spec.partition("@")
                puzzle = puzzle_arg(name, Path(folder))
                # unpinned: both runs under "auto", as a user types them; the split must run
                # on the engine the single count ran on
                engine = pinned or args.engine or "auto"
                one = measure(puzzle, engine, 0)
                print(f"{spec}: 1 process {one['wall']:.2f} s ({one['cpu']:.2f} s CPU)",
                      file=sys.stderr)
                many = measure(puzzle, engine, args.jobs)
                ratio = one["wall"] / many["wall"]
                print(f"{spec}: --jobs {args.jobs} {many['wall']:.2f} s, ratio {ratio:.2f}x; "
                      f"CPU per worker {', '.join(f'{c:.2f}' for c in many['workers'])} s",
                      file=sys.stderr)
                answers = {(one["solutions"], one["distinct"]),
                           (many["solutions"], many["distinct"])}
                clustered = None
                if cluster is not None:
                    clustered = measure(puzzle, engine, 0, cluster.scheduler_address)
                    print(f"{spec}: cluster {clustered['wall']:.2f} s", file=sys.stderr)
                    answers.add((clustered["solutions"], clustered["distinct"]))
                if len(answers) != 1:
                    raise SystemExit(f"{spec}: the runs disagree: {sorted(answers)}")
                if many["engine"] != one["engine"]:
                    raise SystemExit(f"{spec}: the split ran on {many['engine']}, "
                                     f"one process on {one['engine']}")
                rows.append((spec, one["engine"], one, many, clustered))
    finally:
        if cluster is not None:
            cluster.close()

    command = " ".join(["python", "bench/parallel.py", *sys.argv[1:]])
    lines = [
        "",
        f"## Parallel speed-up ({datetime.date.today().isoformat()})",
        "",
        f"`{command}`: {os.cpu_count()} cores ({platform.processor() or platform.machine()}), "
        f"load average {load:.1f} at the start (the machine is shared{autogroup_note()}). "
        "Wall-clock seconds of the whole command, start-up included; the ratio is the single "
        "search's wall time over the split run's. CPU: the single process's search, and for "
        "the split run each worker's CPU on its subproblems (this process's own share runs "
        "on a thread) and the main process's CPU (its share, splitting, start-up).",
        "",
        f"| puzzle | engine | solutions | distinct | 1 process | CPU | --jobs {args.jobs} | "
        f"ratio | CPU per worker | main process CPU | subproblems | LocalCluster | ratio |",
        "|---|---|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    for spec, engine, one, many, clustered in rows:
        cl = (f"{clustered['wall']:.2f} s | {one['wall'] / clustered['wall']:.2f}x"
              if clustered else "- | -")
        per = " + ".join(f"{c:.2f}" for c in many["workers"])
        lines.append(
            f"| {spec} | {engine} | {one['solutions']} | {one['distinct']} | "
            f"{one['wall']:.2f} s | {one['cpu']:.2f} s | {many['wall']:.2f} s | "
            f"**{one['wall'] / many['wall']:.2f}x** | {per} s | {many['tree_cpu']:.2f} s | "
            f"{many['subproblems']} | {cl} |"
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
