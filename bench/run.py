"""puzzlebox against its peers, on the same instances, in one run.

    python bench/run.py            # everything (several minutes on a small machine)
    python bench/run.py --quick    # fewer and smaller instances, shorter time limits
    python bench/run.py --write    # also replace this benchmark's section of RESULTS.md

Every measurement runs in a fresh subprocess with a time limit. Two kinds of time:

* **search**: CPU and wall seconds of the search alone, measured inside the process after
  the kernels are loaded (numba's compiled code comes from its on-disk cache; a warm-up on a
  small instance of the same kind loads it before the clock starts);
* **process**: CPU (user + system, from ``wait4``) and wall seconds of the whole process:
  for puzzlebox the command line ``puzzlebox count NAME --json`` (imports, reading the file,
  building the problem, loading the cached kernels, search, output); for a Python peer a
  process that imports it, builds the same cover problem and searches; for the C reference
  the compiled program.

Peers: ``xcover`` (dancing cells in numba) and ``exact-cover`` (dancing links in C), both
from the ``bench`` extra, and a C bitmask n-queens of our own (``bench/queens.c``, built with
``cc -O2`` here). Every count is checked: peers against puzzlebox's raw count, and both
against known values where there are any. Ratios are the peer's CPU over puzzlebox's.
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import platform
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

BENCH = Path(__file__).resolve().parent
ROOT = BENCH.parent
RESULTS = BENCH / "RESULTS.md"
BEGIN = "<!-- bench/run.py: begin -->"
END = "<!-- bench/run.py: end -->"

PENTOMINOES = {  # instance -> (file or catalog name, known raw count, known distinct)
    "pentomino-6x10": ("pentomino-6x10", 9356, 2339),
    "pentomino-5x12": ("pentomino-5x12", 4040, 1010),
    "pentomino-8x8-centre": (str(BENCH / "instances" / "pentomino-8x8-centre.toml"), 520, 65),
    "pentomino-3x20": ("pentomino-3x20", 8, 2),
}
QUEENS = {12: (14200, 1787), 13: (73712, 9233), 14: (365596, 45752), 15: (2279184, 285053),
          16: (14772512, 1846955)}  # fmt: skip
LATTICE_KNOWN = {  # catalog puzzles on the other lattices -> (raw, distinct), see lattices.py
    "soma-cube": (11520, 240),
    "solid-pentominoes-3x4x5": (31520, 3940),
    "bedlam-cube": (460464, 19186),
}
XCOVER_QUEENS_MAX = 13  # xcover enumerates every solution in Python: keep it to small n


# -- the worker: one measurement inside a fresh process ---------------------------------------


def _load(target: str):  # type: ignore[no-untyped-def]
    from puzzlebox import catalog

    return catalog.load_file(target)


def _warm(kind: str) -> None:
    """Load every kernel a count of this kind uses, on a small instance, before timing."""
    from puzzlebox import catalog
    from puzzlebox.engine import bitboard, compiled

    bitboard._warm_up()
    compiled._warm_up()
    if kind == "queens":
        from puzzlebox.engine import queens_bitmask

        queens_bitmask._warm_up()
        catalog.load_file("queens-5").puzzles[0].count()
    else:
        catalog.load_file("pentomino-3x20").puzzles[0].count()


def _problem(target: str):  # type: ignore[no-untyped-def]
    """The cover problem of a catalog puzzle, or of ``queens:N`` (what both sides solve)."""
    if target.startswith("queens:"):
        from puzzlebox.puzzles.queens import QueensPuzzle

        return QueensPuzzle("q", int(target.split(":")[1])).problem
    return _load(target).puzzles[0].problem


def _timed(run):  # type: ignore[no-untyped-def]
    cpu, wall = time.process_time(), time.perf_counter()
    result = run()
    return result, time.process_time() - cpu, time.perf_counter() - wall


def _cover_rows(problem) -> list[list[int]]:  # type: ignore[no-untyped-def]
    return [problem.items[problem.start[k] : problem.start[k + 1]].tolist()
            for k in range(problem.n_options)]  # fmt: skip


def _xcover_args(problem):  # type: ignore[no-untyped-def]
    """The problem in xcover's terms, or a reason it has none (xcover covers primary items
    exactly once: a piece used a number of times other than one cannot be said)."""
    import numpy as np

    bounds = set(zip(problem.lo.tolist(), problem.hi.tolist(), strict=True))
    if bounds - {(1, 1), (0, 1)}:
        return None, "bounds other than 1 and [0, 1]"
    at_most_once = set(np.nonzero(problem.lo == 0)[0].tolist())
    primary = [f"p{i}" for i in range(problem.n_primary) if i not in at_most_once]
    secondary = [f"p{i}" for i in sorted(at_most_once)]
    secondary += [f"s{i}" for i in range(problem.n_primary, problem.n_items)]
    colored = bool(np.any(problem.colors))
    options = []
    for k in range(problem.n_options):
        row = []
        for i, c in problem.option(k):
            name = f"p{i}" if i < problem.n_primary else f"s{i}"
            row.append(f"{name}:{c}" if colored and c else name)
        options.append(row)
    return (options, primary, secondary, colored), None


def worker(task: str, target: str) -> dict[str, object]:
    """Run one measurement; return what the parent prints."""
    if task == "pb-count":  # what `puzzlebox count` does by default
        pf = _load(target)
        _warm(pf.puzzles[0].kind)
        results, cpu, wall = _timed(lambda: [p.count() for p in pf.puzzles])
        engines = sorted({r.stats.engine or "proof" for r in results})
        return {
            "result": " + ".join(f"{r.solutions}/{r.distinct}" for r in results),
            "raw": sum(r.solutions for r in results),
            "distinct": sum(r.distinct for r in results),
            "engine": ",".join(engines),
            "nodes": sum(r.stats.nodes for r in results),
            "cpu": cpu,
            "wall": wall,
        }
    if task in ("pb-raw", "pb-generic", "pb-noprune"):  # one engine on the unrestricted problem
        from puzzlebox.engine import registry
        from puzzlebox.engine.bitboard import BitboardEngine
        from puzzlebox.engine.search import Job, Mode, count_all

        problem = _problem(target)
        _warm("polyomino")
        if task == "pb-generic":  # the registry's compiled engine, as `--engine compiled` runs it
            search = registry.get("compiled").start(Job(problem, Mode.COUNT))
            (count, _), cpu, wall = _timed(lambda: count_all(search))
            return {"result": str(count), "raw": count, "engine": search.stats.engine,
                    "cpu": cpu, "wall": wall, "nodes": search.stats.nodes}  # fmt: skip
        # the bitboard engine's own handle: only it can turn the closed-region test off
        engine = BitboardEngine(problem, prune=0 if task == "pb-noprune" else 1)
        count, cpu, wall = _timed(engine.count)
        return {"result": str(count), "raw": count, "engine": engine.name, "cpu": cpu,
                "wall": wall, "nodes": engine.stats.nodes, "pruned": engine.pruned}  # fmt: skip
    if task == "pb-first":
        puzzle = _load(target).puzzles[0]
        _warm(puzzle.kind)
        # the cover problem is built before the clock starts, as it is for the peers
        assert puzzle.problem.n_options > 0
        solution, cpu, wall = _timed(puzzle.solve)
        assert solution is not None
        return {"result": "found", "cpu": cpu, "wall": wall, "engine": "auto"}
    if task == "pb-generic-first":
        from puzzlebox.engine import registry
        from puzzlebox.engine.search import Job, each_solution

        problem = _problem(target)
        _warm("polyomino")
        search = registry.get("compiled").start(Job(problem, limit=1))
        first, cpu, wall = _timed(lambda: next(each_solution(search), None))
        assert first is not None and problem.is_solution(first)
        return {"result": "found", "cpu": cpu, "wall": wall, "engine": search.stats.engine,
                "nodes": search.stats.nodes}  # fmt: skip
    if task == "pb-queens":
        from puzzlebox.engine.queens_bitmask import _warm_up, count_queens, queens_counts

        n = int(target)
        _warm_up()
        (raw, nodes), cpu, wall = _timed(lambda: count_queens(n))
        (raw2, distinct, _), cpu2, wall2 = _timed(lambda: queens_counts(n))
        return {"result": f"{raw}/{distinct}", "raw": int(raw), "distinct": distinct,
                "cpu": cpu, "wall": wall, "cpu_distinct": cpu2, "wall_distinct": wall2,
                "nodes": int(nodes), "engine": "queens-bitmask"}  # fmt: skip
    if task in ("xcover", "xcover-first"):
        import xcover

        if not target.startswith("queens:") and len(_load(target).puzzles) > 1:
            return {"skip": "a batch of boards"}
        problem = _problem(target)
        args, why = _xcover_args(problem)
        if args is None:
            return {"skip": why}
        options, primary, secondary, colored = args
        # xcover's kernels are numba functions too: load them before the clock starts
        next(xcover.covers([["a"]], primary=["a"], secondary=[]), None)
        found = xcover.covers(options, primary=primary, secondary=secondary, colored=colored)
        if task == "xcover-first":
            first, cpu, wall = _timed(lambda: next(found, None))
            return {"result": "found" if first is not None else "none", "cpu": cpu, "wall": wall}
        count, cpu, wall = _timed(lambda: sum(1 for _ in found))
        return {"result": str(count), "raw": count, "cpu": cpu, "wall": wall}
    if task == "exact-cover":
        import exact_cover
        import numpy as np

        problem = _load(target).puzzles[0].problem
        if (
            problem.n_items != problem.n_primary
            or np.any(problem.lo != 1)
            or np.any(problem.hi != 1)
        ):
            return {"skip": "not a plain exact cover"}
        matrix = np.zeros((problem.n_options, problem.n_items), dtype=bool)
        for k, row in enumerate(_cover_rows(problem)):
            matrix[k, row] = True
        count, cpu, wall = _timed(lambda: int(exact_cover.get_solution_count(matrix)))
        return {"result": str(count), "raw": count, "cpu": cpu, "wall": wall}
    raise SystemExit(f"unknown task {task!r}")


# -- the parent: subprocesses, limits, the table ---------------------------------------------


@dataclass
class Run:
    """One measured subprocess: what it reported, and its whole-process times."""

    report: dict[str, object] = field(default_factory=dict)
    process_cpu: float | None = None
    process_wall: float | None = None
    failure: str | None = None  # "timeout after N s", "error: ..."

    def get(self, key: str, default: object = None) -> object:
        return self.report.get(key, default)


def measure(command: list[str], limit: float) -> Run:
    """Run ``command`` with a wall-clock limit. Its CPU time is its own (and its waited-for
    children's), read from ``wait4``; on a timeout its whole process group is killed."""
    with tempfile.TemporaryFile("w+") as out, tempfile.TemporaryFile("w+") as err:
        began = time.perf_counter()
        proc = subprocess.Popen(
            command, cwd=ROOT, stdout=out, stderr=err, text=True, start_new_session=True,
            env={**os.environ, "PYTHONPATH": str(ROOT / "src")},
        )  # fmt: skip
        while True:
            pid, status, usage = os.wait4(proc.pid, os.WNOHANG)
            wall = time.perf_counter() - began
            if pid:
                break
            if wall > limit:
                os.killpg(proc.pid, signal.SIGKILL)
                os.wait4(proc.pid, 0)
                return Run(failure=f"over {limit:.0f} s")
            time.sleep(0.002)
        proc.returncode = os.waitstatus_to_exitcode(status)  # reaped here, not by Popen
        out.seek(0)
        err.seek(0)
        stdout, stderr = out.read(), err.read()
    run = Run(process_wall=wall, process_cpu=usage.ru_utime + usage.ru_stime)
    if proc.returncode != 0:
        last = (stderr.strip().splitlines() or ["?"])[-1]
        run.failure = f"error: {last[:80]}"
        return run
    lines = [line for line in stdout.splitlines() if line.strip()]
    try:
        run.report = json.loads(lines[-1]) if lines else {}
    except json.JSONDecodeError:
        run.report = {"result": lines[-1][:40] if lines else ""}
    return run


def python_task(task: str, target: str, limit: float) -> Run:
    return measure([sys.executable, str(Path(__file__)), "--worker", task, target], limit)


def cli_count(target: str, limit: float) -> Run:
    exe = shutil.which("puzzlebox", path=str(Path(sys.executable).parent)) or "puzzlebox"
    run = measure([exe, "count", target, "--json", "--quiet"], limit)
    if run.failure is None:
        reported = run.report
        run.report = {"result": f"{reported.get('solutions')}/{reported.get('distinct')}",
                      **reported}  # fmt: skip
    return run


def _s(value: object) -> str:
    return "" if value is None else f"{float(value):.3f}"  # type: ignore[arg-type]


def _ratio(peer: Run, ours: Run, key: str = "cpu") -> str:
    a, b = peer.get(key), ours.get(key)
    if not isinstance(a, float) or not isinstance(b, float) or b <= 0:
        return ""
    return f"{a / b:.1f}x"


class Table:
    def __init__(self) -> None:
        self.lines = [
            "| instance | tool | result | search CPU s | search wall s | process CPU s "
            "| process wall s | peer CPU / puzzlebox CPU |",
            "|---|---|---|---:|---:|---:|---:|---:|",
        ]

    def row(self, instance: str, tool: str, run: Run, process: Run | None = None,
            ratio: str = "") -> None:  # fmt: skip
        result = run.failure or str(run.get("skip") and f"n/a ({run.get('skip')})" or "")
        if not result:
            result = str(run.get("result", ""))
        proc = process if process is not None else run
        self.lines.append(
            f"| {instance} | {tool} | {result} | {_s(run.get('cpu'))} | {_s(run.get('wall'))} "
            f"| {_s(proc.process_cpu)} | {_s(proc.process_wall)} | {ratio} |"
        )
        print(self.lines[-1], flush=True)


def check(label: str, run: Run, raw: int | None, distinct: int | None = None) -> list[str]:
    """Disagreements with known values (an empty list when all is well)."""
    problems = []
    if run.failure or run.get("skip"):
        return problems
    if raw is not None and run.get("raw") is not None and run.get("raw") != raw:
        problems.append(f"{label}: {run.get('raw')} solutions, expected {raw}")
    if distinct is not None and run.get("distinct") is not None and run.get("distinct") != distinct:
        problems.append(f"{label}: {run.get('distinct')} distinct, expected {distinct}")
    return problems


def build_c_queens(workdir: Path) -> Path | None:
    cc = shutil.which("cc")
    if cc is None:
        return None
    exe = workdir / "queens"
    subprocess.run([cc, "-O2", "-o", str(exe), str(BENCH / "queens.c")], check=True)
    return exe


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="fewer, smaller instances")
    parser.add_argument("--timeout", type=float, default=None, help="seconds per measurement")
    parser.add_argument("--write", action="store_true", help="update bench/RESULTS.md")
    parser.add_argument("--worker", nargs=2, metavar=("TASK", "TARGET"), help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.worker:
        print(json.dumps(worker(*args.worker)))
        return 0

    limit = args.timeout or (30.0 if args.quick else 120.0)
    catalog_limit = min(limit, 20.0 if args.quick else 60.0)  # some are far out of reach
    table = Table()
    notes: list[str] = []
    problems: list[str] = []
    started = datetime.datetime.now()
    command = "python bench/run.py" + (" --quick" if args.quick else "")
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    header = [
        f"{started:%Y-%m-%d %H:%M}, `{command}`, Python {platform.python_version()}, "
        f"{platform.machine()}, {os.cpu_count()} CPUs, load average {load:.1f} at the start.",
        "",
    ]
    print("\n".join(header))
    print("\n".join(table.lines), flush=True)

    # kernels into numba's on-disk cache, so that no measured process compiles
    cli_count("pentomino-3x20", 600)
    cli_count("queens-5", 600)
    python_task("xcover", "queens:6", 600)

    # pentomino counts
    names = list(PENTOMINOES)
    if args.quick:
        names = ["pentomino-6x10", "pentomino-3x20"]
    summary: dict[str, Run] = {}
    for name in names:
        target, raw, distinct = PENTOMINOES[name]
        ours = python_task("pb-count", target, limit)
        process = cli_count(target, limit)
        table.row(name, "puzzlebox count (default)", ours, process)
        problems += check(f"{name} puzzlebox", ours, raw, distinct)
        fast = python_task("pb-raw", target, limit)
        table.row(name, "bitboard engine, raw count", fast)
        problems += check(f"{name} bitboard", fast, raw)
        plain = python_task("pb-noprune", target, limit)
        table.row(name, "bitboard, no region test", plain)
        if fast.get("nodes") and plain.get("nodes"):
            notes.append(
                f"{name}: region test {plain.get('nodes')} -> {fast.get('nodes')} nodes "
                f"({fast.get('pruned')} branches cut), search CPU {_s(plain.get('cpu'))} -> "
                f"{_s(fast.get('cpu'))} s"
            )
        generic = python_task("pb-generic", target, limit)
        table.row(name, "compiled engine (generic), raw", generic)
        problems += check(f"{name} compiled", generic, raw)
        peer = python_task("xcover", target, limit)
        ratio = f"{_ratio(peer, ours)} / {_ratio(peer, fast)} / {_ratio(peer, generic)}"
        table.row(name, "xcover, raw", peer, ratio=ratio)
        problems += check(f"{name} xcover", peer, raw)
        summary[name] = ours
        summary[name + ":process"] = process
        summary[name + ":raw"] = fast
        summary[name + ":generic"] = generic
        summary[name + ":xcover"] = peer
        if not args.quick:
            exact = python_task("exact-cover", target, limit)
            table.row(name, "exact-cover, raw", exact, ratio=_ratio(exact, ours))
            problems += check(f"{name} exact-cover", exact, raw)

    # the first solution of 6x10
    first = python_task("pb-first", "pentomino-6x10", limit)
    table.row("pentomino-6x10 first solution", "puzzlebox solve", first)
    generic_first = python_task("pb-generic-first", "pentomino-6x10", limit)
    table.row("pentomino-6x10 first solution", "compiled engine (generic)", generic_first)
    peer_first = python_task("xcover-first", "pentomino-6x10", limit)
    table.row("pentomino-6x10 first solution", "xcover", peer_first,
              ratio=f"{_ratio(peer_first, first)} / {_ratio(peer_first, generic_first)}")
    summary["pentomino-6x10 first:generic"] = generic_first
    summary["pentomino-6x10 first:xcover"] = peer_first

    # n-queens
    with tempfile.TemporaryDirectory() as tmp:
        workdir = Path(tmp)
        c_queens = build_c_queens(workdir)
        for n in range(12, 15 if args.quick else 17):
            raw, distinct = QUEENS[n]
            toml = workdir / f"queens-{n}.toml"
            toml.write_text(f'kind = "queens"\nn = {n}\n')
            ours = python_task("pb-queens", str(n), limit)
            process = cli_count(str(toml), limit)
            table.row(f"queens {n}", "puzzlebox (raw count)", ours, process)
            problems += check(f"queens {n}", ours, raw, distinct)
            with_distinct = Run(report={
                "result": ours.get("result"), "cpu": ours.get("cpu_distinct"),
                "wall": ours.get("wall_distinct")})  # fmt: skip
            table.row(f"queens {n}", "puzzlebox (raw and distinct)", with_distinct)
            if c_queens is not None:
                c_run = measure([str(c_queens), str(n)], limit)
                if c_run.failure is None:
                    _, count, seconds = str(c_run.get("result")).split()
                    c_run.report = {"result": count, "raw": int(count), "cpu": float(seconds)}
                table.row(f"queens {n}", "C bitmask (bench/queens.c)", c_run,
                          ratio=_ratio(c_run, ours))  # fmt: skip
                problems += check(f"queens {n} C", c_run, raw)
                summary[f"queens-{n}"] = ours
                summary[f"queens-{n}:c"] = c_run
            if n <= XCOVER_QUEENS_MAX:
                generic = python_task("pb-generic", f"queens:{n}", limit)
                table.row(f"queens {n}", "compiled engine (generic), raw", generic)
                problems += check(f"queens {n} compiled", generic, raw)
                peer = python_task("xcover", f"queens:{n}", limit)
                ratio = f"{_ratio(peer, ours)} / {_ratio(peer, generic)}"
                table.row(f"queens {n}", "xcover", peer, ratio=ratio)
                problems += check(f"queens {n} xcover", peer, raw)
                summary[f"queens-{n}:generic"] = generic
                summary[f"queens-{n}:xcover"] = peer

    # every catalog puzzle, as `puzzlebox count` does it
    from puzzlebox import catalog

    for name in catalog.names():
        ours = python_task("pb-count", name, catalog_limit)
        process = cli_count(name, catalog_limit) if ours.failure is None else ours
        table.row(name, f"puzzlebox count ({ours.get('engine') or '-'})", ours, process)
        single = "+" not in str(ours.get("result"))
        agree = process.get("solutions") == ours.get("raw")
        if single and not (ours.failure or process.failure) and not agree:
            problems.append(f"{name}: command line and library disagree")
        summary[name] = ours
        if name in LATTICE_KNOWN:
            problems += check(name, ours, *LATTICE_KNOWN[name])
        if not args.quick and ours.failure is None:
            # (the lattice puzzles' xcover limit is bench/lattices.py's: the 3x4x5 solid
            # pentominoes take xcover about 75 s; Bedlam's is projected there)
            peer = python_task("xcover", name, limit if name in LATTICE_KNOWN else catalog_limit)
            if not peer.get("skip"):
                table.row(name, "xcover, raw", peer, ratio=_ratio(peer, ours))
                summary[name + ":xcover"] = peer

    footer = [
        "",
        "Region test (bitboard engine, raw counts, same run). Nodes are options placed; a",
        "placement the test rejects counts as a node but its subtree is never searched. The",
        "test runs while at least half the cells are empty, and once before the search:",
        "",
    ]
    footer += [f"- {note}" for note in notes]
    footer += ["", *targets(summary), ""]
    footer += ["Disagreements: " + ("; ".join(problems) if problems else "none") + "."]
    print("\n".join(footer))
    if args.write:
        write_results("\n".join(header + table.lines + footer))
    return 1 if problems else 0


def targets(summary: dict[str, Run]) -> list[str]:
    """The targets this benchmark is held to, each with what was measured."""

    def cpu(key: str) -> float | None:
        run = summary.get(key)
        value = run.get("cpu") if run else None
        return float(value) if isinstance(value, float) else None  # type: ignore[arg-type]

    lines = ["Targets (measured in this run):", ""]
    ours, raw = cpu("pentomino-6x10"), cpu("pentomino-6x10:raw")
    lines.append(
        f"- 6x10, all 2339 distinct / 9356 raw, search <= 0.15 s: `puzzlebox count` "
        f"{_s(ours)} s CPU (distinct, symmetry broken), raw fast path {_s(raw)} s"
    )
    whole = summary.get("pentomino-6x10:process")
    if whole is not None and whole.process_wall is not None:
        lines.append(
            f"- 6x10 whole process with a warm cache <= 1.0 s: "
            f"{whole.process_wall:.3f} s wall, {_s(whole.process_cpu)} s CPU"
        )
    peer = cpu("pentomino-6x10:xcover")
    if peer and ours and raw:
        lines.append(
            f"- >= 20x less CPU than xcover on 6x10: {peer / ours:.1f}x for "
            f"`puzzlebox count`, {peer / raw:.1f}x for the raw count"
        )
    generic_ratios = []
    shared = [*PENTOMINOES, "pentomino-6x10 first"]
    shared += [f"queens-{n}" for n in range(12, XCOVER_QUEENS_MAX + 1)]
    for name in shared:
        g, x = cpu(name + ":generic"), cpu(name + ":xcover")
        if g and x:
            generic_ratios.append(f"{name} {x / g:.1f}x")
    if generic_ratios:
        lines.append(
            "- generic (compiled) engine >= 3x less CPU than xcover: " + ", ".join(generic_ratios)
        )
    from lattices import targets as lattice_targets  # the #14 targets, worded once

    lines += lattice_targets(summary)[2:]  # (without its heading)
    q, c = cpu("queens-16"), cpu("queens-16:c")
    if q and c:
        lines.append(
            f"- Q(16) within 1.3x of the C reference: {q:.2f} s vs {c:.2f} s ({q / c:.2f}x)"
        )
    return [line for line in lines if line]


def write_results(text: str) -> None:
    """Replace this benchmark's section of RESULTS.md (other sections are left alone)."""
    section = f"{BEGIN}\n## puzzlebox against its peers (`bench/run.py`)\n\n{text}\n{END}\n"
    old = RESULTS.read_text() if RESULTS.exists() else "# Benchmark results\n"
    if BEGIN in old and END in old:
        head, rest = old.split(BEGIN, 1)
        _, tail = rest.split(END, 1)
        new = head + section + tail.lstrip("\n")
    else:
        new = old.rstrip("\n") + "\n\n" + section
    RESULTS.write_text(new)


if __name__ == "__main__":
    sys.exit(main())
