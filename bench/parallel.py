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
    python bench/parallel.py --cli queens:16 solid-pentominoes-3x4x5 --jobs 2 4 --rounds 3
    python bench/parallel.py --cli --long           # #38's four long counts, --jobs 1 vs 2
    python bench/parallel.py --cli queens:16 --src before=/tmp/old/src --src after=/tmp/new/src
    python bench/parallel.py --overhead solid-pentominoes-3x4x5 pentomino-5x12 queens:16

``--cli`` times the command a user types, ``puzzlebox count PUZZLE --json`` against the same
with ``--jobs N``, interleaved round by round (the load changes as it runs), each run's
whole-process CPU counted with its workers (``--per-process``: each process's CPU too, the
command's own first, then the processes it started: forked workers, or the forkserver, its
resource tracker and its workers, read from ``/proc`` every 10 ms), and prints for each the
speed-up in wall time
(one process's wall over N's), the CPU against one process's, the load average at the end
of each run and the processes that counted (``--json``'s ``workers``); ``--long`` names the
bench's long counts (issue #38: queens 17, the 3x4x5 solid pentominoes, the 6x6
tetrasticks, Bedlam). This script makes itself the subreaper of what
it starts (Linux ``PR_SET_CHILD_SUBREAPER``), so the forkserver and its worker processes are
reaped here and their CPU is in ``RUSAGE_CHILDREN``. It also reports how many cores the
rest of the machine left idle during each run (``/proc/stat``). ``--src NAME=DIR`` runs the
``--jobs`` commands once for each source tree (``PYTHONPATH=DIR``, ahead of the installed
one: two versions of puzzlebox compared in one interleaved run; the one-process count runs
on the first).

``--overhead`` measures what a split costs in CPU, in one process: the whole count's CPU
against the sum of its subproblems' (the split ``--jobs N`` makes, as a worker runs them:
each in a fresh process whose kernels are ready and whose puzzle is built, the first
subproblem paying what a worker pays once), with ``--profile`` the functions the
subproblems spend it in; ``--src`` compares source trees.

A puzzle is a catalog name, a .toml file, or ``queens:N``; ``NAME@ENGINE`` pins its engine.
"""

from __future__ import annotations

import argparse
import datetime
import json
import math
import os
import platform
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
RESULTS = HERE / "RESULTS.md"
LONG_COUNTS = ("queens:17", "solid-pentominoes-3x4x5", "tetrasticks-6x6", "bedlam-cube")


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


def become_subreaper() -> bool:
    """Make orphaned descendants (the forkserver, the workers) this process's children, so
    that their CPU time is counted when they are reaped (Linux only)."""
    try:
        import ctypes

        libc = ctypes.CDLL(None, use_errno=True)
        return libc.prctl(36, 1, 0, 0, 0) == 0  # PR_SET_CHILD_SUBREAPER
    except (OSError, AttributeError):
        return False


def cpu_times() -> tuple[float, float] | None:
    """(idle, total) jiffies of the whole machine, or None off Linux."""
    try:
        fields = Path("/proc/stat").read_text().splitlines()[0].split()[1:]
    except OSError:
        return None
    values = [float(v) for v in fields[:8]]
    return values[3] + values[4], sum(values)


def reap_all() -> None:
    """Wait for every descendant left (the forkserver exits when the command has)."""
    while True:
        try:
            os.waitpid(-1, 0)
        except ChildProcessError:
            return


def proc_cpu(pid: int) -> tuple[int, float, bool] | None:
    """``(parent pid, CPU seconds so far, running)`` of a process from ``/proc`` (not
    running: a zombie, ended and not yet reaped), or None."""
    try:
        text = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    rest = text[text.rindex(")") + 2:].split()
    cpu = (int(rest[11]) + int(rest[12])) / os.sysconf("SC_CLK_TCK")
    return int(rest[1]), cpu, rest[0] not in ("Z", "X")


def run_watched(command: list[str], env: dict[str, str]) -> tuple[int, str, str, list[float]]:
    """Run ``command``, reading every 10 ms the CPU of each process it started from
    ``/proc`` (its children, the forkserver and the forkserver's workers: descendants by
    parent pid): its status, output, error and the last CPU seen of each process, the
    command's own first (a process's last 10 ms may be missed)."""
    with tempfile.TemporaryFile("w+") as out, tempfile.TemporaryFile("w+") as err:
        proc = subprocess.Popen(command, stdout=out, stderr=err, text=True, env=env)
        seen: dict[int, float] = {proc.pid: 0.0}
        began = time.monotonic()
        while True:
            alive = False
            for name in os.listdir("/proc"):
                if not name.isdigit():
                    continue
                got = proc_cpu(int(name))
                if got is not None and (int(name) in seen or got[0] in seen):
                    seen[int(name)] = got[1]
                    alive = alive or got[2]
            if not alive or time.monotonic() - began > 600:
                break
            time.sleep(0.01)
        proc.wait()
        out.seek(0)
        err.seek(0)
        return proc.returncode, out.read(), err.read(), list(seen.values())


def measure_cli(puzzle: str, jobs: int, src: str | None = None,
                per_process: bool = False) -> dict:
    """One whole command, ``puzzlebox count PUZZLE --json [--jobs N]``: wall seconds, CPU
    seconds of it and every process it started, the answer, and the cores the machine left
    idle meanwhile; with ``per_process`` also each process's CPU (:func:`run_watched`)."""
    script = Path(sys.executable).with_name("puzzlebox")
    start = [str(script)] if script.exists() else [  # not installed: the source tree
        sys.executable, "-c", "import sys; from puzzlebox._start import main; sys.exit(main())"]
    command = [*start, "count", puzzle, "--json"]
    if jobs > 1:
        command += ["--jobs", str(jobs)]
    env = dict(os.environ)
    if src is not None:
        env["PYTHONPATH"] = src
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    idle0 = cpu_times()
    began = time.perf_counter()
    each: list[float] = []
    if per_process:
        status, stdout, stderr, each = run_watched(command, env)
        done = subprocess.CompletedProcess(command, status, stdout, stderr)
    else:
        done = subprocess.run(command, capture_output=True, text=True, timeout=600, env=env)
    wall = time.perf_counter() - began
    reap_all()
    idle1 = cpu_times()
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode != 0:
        raise SystemExit(f"{' '.join(command)} failed: {done.stderr.strip()}")
    out = json.loads(done.stdout.splitlines()[-1])
    idle = math.nan
    if idle0 is not None and idle1 is not None and idle1[1] > idle0[1]:
        idle = (idle1[0] - idle0[0]) / (idle1[1] - idle0[1]) * (os.cpu_count() or 1)
    return {
        "wall": wall,
        "cpu": (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime),
        "answer": (out["solutions"], out["distinct"]),
        "engine": out.get("engine"),
        "idle": idle,
        "notes": [line for line in done.stderr.splitlines() if line.strip()],
        "load": os.getloadavg()[0],
        "workers": out.get("workers", 1),  # the processes that counted (#38 item 6)
        "each": each,
    }


def warm_bytecode(sources: list[str | None]) -> None:
    """Let the measured commands use bytecode, as a user's do: pip writes it for an
    installed package, and a source tree gets it on its first run, unless
    ``PYTHONDONTWRITEBYTECODE`` is set, as it is on the machine these benches were written
    on; there every command compiled the 112 modules it imports again, 0.15 s of the 2.4 s
    of ``count solid-pentominoes-3x4x5`` and of its ``--jobs 2`` alike (bench/startup.py
    and bench/queens_dlx.py do the same)."""
    os.environ.pop("PYTHONDONTWRITEBYTECODE", None)
    import compileall

    import puzzlebox

    for folder in {str(Path(puzzlebox.__file__).parent), *(s for s in sources if s)}:
        compileall.compile_dir(folder, quiet=1)


def cli_main(args: argparse.Namespace) -> int:
    """Interleaved rounds of ``count`` and ``count --jobs N`` for each puzzle; a table."""
    if not become_subreaper():
        raise SystemExit("--cli needs Linux's PR_SET_CHILD_SUBREAPER to count workers' CPU")
    sources = [tuple(v.split("=", 1)) for v in args.src] or [("", None)]
    warm_bytecode([src for _, src in sources])
    settings = [(sources[0][0], sources[0][1], 1)] + [
        (name, src, jobs) for name, src in sources for jobs in args.jobs]
    load = os.getloadavg()
    runs: dict[tuple[str, str, int], list[dict]] = {}
    with tempfile.TemporaryDirectory() as folder:
        for round_ in range(args.rounds):
            for spec in args.puzzles:
                puzzle = puzzle_arg(spec, Path(folder))
                for name, src, jobs in settings:
                    got = measure_cli(puzzle, jobs, src, args.per_process)
                    runs.setdefault((spec, name if jobs > 1 else "", jobs), []).append(got)
                    each = (" (" + " + ".join(f"{c:.2f}" for c in got["each"]) + ")"
                            if got["each"] else "")
                    print(f"round {round_ + 1} {spec} {name} jobs {jobs}: "
                          f"{got['wall']:.2f} s wall, "
                          f"{got['cpu']:.2f} s CPU{each}, {got['workers']} processes, "
                          f"{got['idle']:.2f} cores idle, load "
                          f"{got['load']:.1f} {' / '.join(got['notes'])}", file=sys.stderr)
    keys = [(name if jobs > 1 else "", jobs) for name, _, jobs in settings]
    for spec in args.puzzles:
        answers = {r["answer"] for key in keys for r in runs[(spec, *key)]}
        if len(answers) != 1:
            raise SystemExit(f"{spec}: the runs disagree: {sorted(answers)}")
    command = " ".join(["python", "bench/parallel.py", *sys.argv[1:]])
    lines = [
        "",
        f"`{command}`: {os.cpu_count()} cores, load average {load[0]:.1f} / {load[1]:.1f} "
        f"(1 / 5 min) at the start{autogroup_note()}. Whole command, median of "
        f"{args.rounds} interleaved rounds; CPU = user + system of the command and every "
        "process it started; idle = cores the machine left idle during the run.",
        "",
        "| puzzle | version | jobs | processes | wall (median) | walls | CPU (median) "
        "| loads | idle cores | speed-up (1 / N wall) | CPU vs 1 |",
        "|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    for spec in args.puzzles:
        base = statistics.median(r["wall"] for r in runs[spec, "", 1])
        base_cpu = statistics.median(r["cpu"] for r in runs[spec, "", 1])
        for name, jobs in keys:
            rs = runs[spec, name, jobs]
            wall = statistics.median(r["wall"] for r in rs)
            cpu = statistics.median(r["cpu"] for r in rs)
            walls = " ".join(f"{r['wall']:.2f}" for r in rs)
            loads = " ".join(f"{r['load']:.1f}" for r in rs)
            workers = "/".join(str(r["workers"]) for r in rs)
            lines.append(
                f"| {spec} | {name or '-'} | {jobs} | {workers} | {wall:.2f} s | {walls} | "
                f"{cpu:.2f} s | {loads} | "
                f"{statistics.median(r['idle'] for r in rs):.2f} | {base / wall:.2f}x | "
                f"{cpu / base_cpu:.2f}x |"
            )
    text = "\n".join(lines) + "\n"
    print(text)
    return 0


def overhead_child(puzzle: str, subs_file: str, profile: bool) -> int:
    """Count the subproblems listed in ``subs_file`` (``[[forced, excluded], ...]``; one
    ``[[], []]`` is the whole count) one after the other as a worker does (tasks.py's
    ``count_subproblem``), after readying the kernels and building the puzzle, as a
    worker has before its first task. Prints the CPU of the counts and the answer."""
    import puzzlebox
    from puzzlebox.engine import bitboard, registry
    from puzzlebox.parallel.tasks import count_subproblem
    from puzzlebox.run.choice import split_spec

    name, _, pinned = puzzle.partition("@")
    pf = puzzlebox.load_file(name)
    board = pf.puzzles[0]
    spec = registry.get(pinned) if pinned else split_spec(board, "count", False)
    bitboard._warm_up()  # a worker's kernels are ready before its tasks
    board.search_problem()  # built when the worker checks the fingerprint
    subs = json.loads(Path(subs_file).read_text())
    raw = distinct = nodes = 0
    profiler = None
    if profile:
        import cProfile

        profiler = cProfile.Profile()
        profiler.enable()
    began = time.process_time()
    for forced, excluded in subs:
        r, d, n = count_subproblem(board, spec, tuple(forced), tuple(excluded))
        raw, distinct, nodes = raw + r, distinct + d, nodes + n
    cpu = time.process_time() - began
    if profiler is not None:
        import io
        import pstats

        profiler.disable()
        text = io.StringIO()
        pstats.Stats(profiler, stream=text).sort_stats("tottime").print_stats(12)
        print(text.getvalue(), file=sys.stderr)
    print(json.dumps({"cpu": cpu, "raw": raw, "distinct": distinct, "nodes": nodes,
                      "engine": spec.name, "tables": getattr(bitboard, "TABLES_BUILT", None)}))
    return 0


def plan_split(puzzle: str, jobs: int) -> list[list[list[int]]]:
    """The subproblems ``--jobs`` cuts ``puzzle`` into where it has not tried the whole
    board first (run.py's plan with a checkpoint, or on a cluster): about ``PER_WORKER`` per
    process, at least ``LEAST``, balanced by Knuth's estimate where the engine probes (a
    local count tried whole first is cut the same way without the probes)."""
    import puzzlebox
    from puzzlebox.engine import registry
    from puzzlebox.parallel.run import LEAST, PER_WORKER, tree_size
    from puzzlebox.parallel.split import split
    from puzzlebox.parallel.tasks import COUNT, task_job
    from puzzlebox.run.choice import split_spec

    name, _, pinned = puzzle.partition("@")
    board = puzzlebox.load_file(name).puzzles[0]
    spec = registry.get(pinned) if pinned else split_spec(board, COUNT, False)
    job = task_job(board, COUNT, spec)
    subs = split(spec, job, target=max(PER_WORKER * jobs, LEAST), weight=tree_size(spec, job))
    return [[list(f), list(e)] for f, e in subs]


def overhead_main(args: argparse.Namespace) -> int:
    """Whole count against the sum of its subproblems, CPU in one process, per source tree."""
    sources = [tuple(v.split("=", 1)) for v in args.src] or [("", None)]
    load = os.getloadavg()
    rows = []
    with tempfile.TemporaryDirectory() as folder:
        for spec in args.puzzles:
            name, _, pinned = spec.partition("@")
            puzzle = puzzle_arg(name, Path(folder)) + (f"@{pinned}" if pinned else "")
            subs = plan_split(puzzle, args.jobs[0])
            whole_file = Path(folder) / "whole.json"
            whole_file.write_text("[[[], []]]")
            subs_file = Path(folder) / "subs.json"
            subs_file.write_text(json.dumps(subs))
            for label, src in sources:
                env = dict(os.environ)
                if src is not None:
                    env["PYTHONPATH"] = src
                got = {}
                for what, path in (("whole", whole_file), ("split", subs_file)):
                    cpus = []
                    for _ in range(args.rounds):
                        argv = [sys.executable, __file__, "--overhead-child", puzzle,
                                str(path)] + (["--profile"] if args.profile else [])
                        done = subprocess.run(argv, capture_output=True, text=True, env=env,
                                              timeout=600)
                        if done.returncode != 0:
                            raise SystemExit(f"{' '.join(argv)} failed: {done.stderr.strip()}")
                        if args.profile:
                            print(f"--- {spec} {label} {what}\n{done.stderr}", file=sys.stderr)
                        out = json.loads(done.stdout.splitlines()[-1])
                        cpus.append(out["cpu"])
                    got[what] = (out, cpus)
                (whole, wcpu), (split_out, scpu) = got["whole"], got["split"]
                if (whole["raw"], whole["distinct"]) != (split_out["raw"], split_out["distinct"]):
                    raise SystemExit(f"{spec}: whole {whole['raw']}/{whole['distinct']} "
                                     f"but split {split_out['raw']}/{split_out['distinct']}")
                w, s_ = statistics.median(wcpu), statistics.median(scpu)
                rows.append((spec, label or "-", whole["engine"], len(subs), whole, split_out,
                             w, s_, wcpu, scpu))
                print(f"{spec} {label}: whole {w:.3f} s, {len(subs)} subproblems {s_:.3f} s "
                      f"({s_ / w:.2f}x), tables built {whole['tables']} / "
                      f"{split_out['tables']}, load {os.getloadavg()[0]:.1f}", file=sys.stderr)
    command = " ".join(["python", "bench/parallel.py", *sys.argv[1:]])
    lines = [
        "",
        f"`{command}`: {os.cpu_count()} cores, load average {load[0]:.1f} / {load[1]:.1f} "
        f"(1 / 5 min) at the start. CPU seconds (process time) of the counts alone, each in "
        f"a fresh process with kernels ready and the puzzle built; median of {args.rounds}.",
        "",
        "| puzzle | version | engine | subproblems | solutions | nodes whole / split "
        "| whole CPU | subproblems' CPU | ratio | tables built whole / split |",
        "|---|---|---|---|---|---|---|---|---|---|",
    ]
    for spec, label, engine, n, whole, split_out, w, s_, _, _ in rows:
        lines.append(
            f"| {spec} | {label} | {engine} | {n} | {whole['raw']} / {whole['distinct']} | "
            f"{whole['nodes']} / {split_out['nodes']} | {w:.3f} s | {s_:.3f} s | "
            f"**{s_ / w:.2f}x** | {whole['tables']} / {split_out['tables']} |"
        )
    print("\n".join(lines))
    return 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("puzzles", nargs="*", default=["queens:16", "pentomino-6x10"])
    parser.add_argument("--engine", default=None,
                        help="default: auto (the split must run on the engine it chose)")
    parser.add_argument("--jobs", type=int, nargs="+", default=[2],
                        help="(several with --cli: each against one process)")
    parser.add_argument("--cli", action="store_true",
                        help="time the command line, whole process with its workers")
    parser.add_argument("--rounds", type=int, default=3, help="with --cli")
    parser.add_argument("--per-process", action="store_true",
                        help="with --cli: each process's CPU too, read from /proc (Linux)")
    parser.add_argument("--long", action="store_true",
                        help="the long counts: " + " ".join(LONG_COUNTS))
    parser.add_argument("--src", action="append", default=[], metavar="NAME=DIR",
                        help="with --cli: run the --jobs commands on this source tree too")
    parser.add_argument("--no-cluster", action="store_true", help="skip the Dask cluster")
    parser.add_argument("--append", action="store_true", help=f"append to {RESULTS.name}")
    parser.add_argument("--overhead", action="store_true",
                        help="CPU of the whole count against the sum of its subproblems")
    parser.add_argument("--profile", action="store_true", help="with --overhead")
    parser.add_argument("--overhead-child", nargs=2, default=None, help=argparse.SUPPRESS)
    parser.add_argument("--child", default=None, help=argparse.SUPPRESS)
    parser.add_argument("--cluster", default=None, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.long:
        args.puzzles = list(LONG_COUNTS)
    if args.child is not None:
        return child(args.child, args.engine or "auto", args.jobs[0], args.cluster)
    if args.overhead_child is not None:
        return overhead_child(*args.overhead_child, args.profile)
    if args.cli:
        return cli_main(args)
    if args.overhead:
        return overhead_main(args)
    args.jobs = args.jobs[0]

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
