"""Every engine that accepts each bench instance, against the one "auto" chooses, in one run.

    python bench/engines.py              # every instance (many minutes on a loaded machine)
    python bench/engines.py --quick      # the three instances of the engine choice, and a few
    python bench/engines.py --write      # also replace this benchmark's section of RESULTS.md

The instances are those of bench/run.py (the pentomino boards, n-queens 12 to 14 and every
catalog puzzle, counted) and three that the old choice of "auto" got wrong by orders of
magnitude (bench/instances/): counting the domino tilings of the Aztec diamond of order 10
(2^55) and the tilings of a 10x10 square by squares (1,500,957,422,222), and the first
solution of MacMahon's 24 three-colour squares in 4x6 with a one-colour border.

Each measurement runs in a fresh process (``--worker``): it loads the puzzle, starts the
engine once and takes one step of it (which loads its compiled kernels from numba's cache
and builds nothing that is kept), then loads the puzzle afresh and times the command with
``time.process_time`` (CPU seconds: the machine is shared, wall time says little). "auto"
runs first; every other engine's process is then given ``max(MIN_CUT, CUT_FACTOR * auto's
process)`` wall seconds at most (never more than ``--limit``): an engine cut off there
cannot be twice as fast as auto, which is all the check needs, and it is shown as
``>N s wall``. The check: auto's time is
within 2x of the best engine's on every instance where some engine finished. Every count is
checked against the known value where there is one, and all engines against each other.
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import platform
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

BENCH = Path(__file__).resolve().parent
ROOT = BENCH.parent
RESULTS = BENCH / "RESULTS.md"
BEGIN = "<!-- bench/engines.py: begin -->"
END = "<!-- bench/engines.py: end -->"
INSTANCES = BENCH / "instances"

CUT_FACTOR = 3.0
MIN_CUT = 10.0

# instance -> (target, command, known raw count or None)
CHOICE = {
    "aztec-diamond-10": (str(INSTANCES / "aztec-diamond-10.toml"), "count", 2**55),
    "squares-10x10": (str(INSTANCES / "squares-10x10.toml"), "count", 1_500_957_422_222),
    "macmahon-4x6": (str(INSTANCES / "macmahon-4x6.toml"), "solve", None),
}
RUN_PY = {  # the instances of bench/run.py (its catalog puzzles are added in main)
    "pentomino-6x10": ("pentomino-6x10", "count", 9356),
    "pentomino-5x12": ("pentomino-5x12", "count", 4040),
    "pentomino-8x8-centre": (str(INSTANCES / "pentomino-8x8-centre.toml"), "count", 520),
    "pentomino-3x20": ("pentomino-3x20", "count", 8),
    "queens-12": ("queens:12", "count", 14200),
    "queens-13": ("queens:13", "count", 73712),
    "queens-14": ("queens:14", "count", 365596),
}


# -- the worker: one measurement inside a fresh process ---------------------------------------


def _puzzle(target: str):  # type: ignore[no-untyped-def]
    from puzzlebox import catalog
    from puzzlebox.formats import read_text

    if target.startswith("queens:"):
        n = int(target.split(":")[1])
        return read_text(f'kind = "queens"\nn = {n}\n', "q", f"queens-{n}").puzzles[0]
    return catalog.load_file(target).puzzles[0]


def _job(puzzle, command: str):  # type: ignore[no-untyped-def]
    from puzzlebox.engine.search import Job, Mode

    if command == "count":
        return Job(puzzle.problem, Mode.COUNT, puzzle=puzzle)
    return Job(puzzle.problem, Mode.SOLUTIONS, limit=1, puzzle=puzzle)


def worker(engine: str, command: str, target: str) -> dict[str, object]:
    """Warm the engine up, then time the command on a freshly loaded puzzle."""
    from puzzlebox.engine.registry import resolve

    warm = _puzzle(target)
    spec = resolve(_job(warm, command), engine)
    if spec.name != "sink":  # (the sink search has no kernel to load: a step is an attempt)
        spec.start(_job(warm, command)).step(1)
    puzzle = _puzzle(target)
    began, wall = time.process_time(), time.perf_counter()
    if command == "count":
        result = puzzle.count(engine=engine)
        solutions: int | None = result.solutions
        used = result.stats.engine
    else:
        from puzzlebox.engine.stats import SearchStats

        stats = SearchStats()
        found = list(puzzle.solutions(limit=1, engine=engine, stats=stats))
        solutions = len(found)
        used = stats.engine
    return {"cpu": time.process_time() - began, "wall": time.perf_counter() - wall,
            "solutions": solutions, "engine": used}  # fmt: skip


# -- the driver ---------------------------------------------------------------------------------


@dataclass
class Run:
    cpu: float | None = None
    solutions: int | None = None
    engine: str = ""
    failure: str | None = None  # ">N s" when cut off, else a one-line reason
    process: float = 0.0  # wall seconds of the whole worker process

    def text(self) -> str:
        if self.failure is not None:
            return self.failure
        assert self.cpu is not None
        return f"{self.cpu:.2f} s"


def measure(engine: str, command: str, target: str, limit: float) -> Run:
    argv = [sys.executable, str(Path(__file__).resolve()), "--worker", engine, command, target]
    began = time.perf_counter()
    try:
        done = subprocess.run(argv, capture_output=True, text=True, timeout=limit, cwd=ROOT)
    except subprocess.TimeoutExpired:
        return Run(failure=f">{limit:.0f} s wall")
    if done.returncode != 0:
        last = (done.stderr.strip().splitlines() or ["failed"])[-1]
        return Run(failure=f"error: {last[:80]}")
    out = json.loads(done.stdout.strip().splitlines()[-1])
    return Run(out["cpu"], out["solutions"], out["engine"],
               process=time.perf_counter() - began)  # fmt: skip


def engines_for(command: str, target: str) -> list[str]:
    """The registered engines that can do the command and accept the instance."""
    from puzzlebox.engine.registry import specs
    from puzzlebox.engine.search import Capability

    puzzle = _puzzle(target)
    job = _job(puzzle, command)
    need = Capability.COUNT if command == "count" else Capability.SOLVE
    return [s.name for s in specs() if s.does(need) and s.accepts(job) is None]


def run_instance(name: str, target: str, command: str, known: int | None, limit: float,
                 table: list[str], problems: list[str]) -> None:  # fmt: skip
    auto = measure("auto", command, target, limit)
    runs = {"auto": auto}
    # the cut is on the worker's wall time (start-up and warm-up included): CUT_FACTOR times
    # auto's whole process, so that an engine cut there is far from twice as fast as auto
    cut = limit if auto.cpu is None else min(limit, max(MIN_CUT, CUT_FACTOR * auto.process))
    for engine in engines_for(command, target):
        runs[engine] = measure(engine, command, target, cut)
    finished = {e: r for e, r in runs.items() if r.cpu is not None}
    answers = {r.solutions for r in finished.values()}
    if command == "count" and known is not None:
        answers.add(known)
    if command == "count" and len(answers) > 1:
        problems.append(f"{name}: engines disagree: {sorted(map(str, answers))}")
    if command == "solve" and any(r.solutions != 1 for r in finished.values()):
        problems.append(f"{name}: an engine found no first solution")
    others = {e: r for e, r in finished.items() if e != "auto"}
    best = min(others.items(), key=lambda item: item[1].cpu or 0.0, default=None)
    ratio = "n/a"
    if auto.cpu is not None and best is not None:
        assert best[1].cpu is not None
        value = auto.cpu / max(best[1].cpu, 1e-3)
        ratio = f"{value:.2f} ({best[0]})"
        if value > 2.0:
            problems.append(f"{name}: auto {auto.cpu:.2f} s is {value:.1f}x the {best[0]} "
                            f"engine's {best[1].cpu:.2f} s")  # fmt: skip
    elif auto.cpu is None and best is not None:
        ratio = f"auto cut off ({best[0]} {best[1].cpu:.2f} s)"
        problems.append(f"{name}: auto did not finish, {best[0]} did")
    cells = " / ".join(f"{e} {r.text()}" for e, r in runs.items() if e != "auto")
    chose = auto.engine or "-"
    table.append(f"| {name} | {command} | {auto.text()} ({chose}) | {cells} | {ratio} |")
    print(table[-1], flush=True)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--worker", nargs=3, metavar=("ENGINE", "COMMAND", "TARGET"))
    parser.add_argument("--quick", action="store_true", help="the three choice instances and "
                        "the pentomino boards only")  # fmt: skip
    parser.add_argument("--limit", type=float, default=120.0,
                        help="seconds for any one measurement (default 120)")
    parser.add_argument("--write", action="store_true", help="update bench/RESULTS.md")
    args = parser.parse_args()
    if args.worker:
        print(json.dumps(worker(*args.worker)))
        return 0
    instances = dict(CHOICE)
    instances.update({k: v for k, v in RUN_PY.items() if not args.quick or "pentomino" in k})
    if not args.quick:
        from puzzlebox import catalog

        for name in catalog.names():
            instances.setdefault(name, (name, "count", None))
    table = [
        "| instance | command | auto (engine it ran) | every engine that accepts it "
        "(CPU s) | auto / best other |",
        "|---|---|---|---|---|",
    ]
    print("\n".join(table), flush=True)
    problems: list[str] = []
    began = time.perf_counter()
    for name, (target, command, known) in instances.items():
        run_instance(name, target, command, known, args.limit, table, problems)
    elapsed = time.perf_counter() - began
    stamp = datetime.datetime.now(datetime.UTC).strftime("%Y-%m-%d %H:%M UTC")
    command = "python bench/engines.py" + (" --quick" if args.quick else "") + (
        f" --limit {args.limit:g}" if args.limit != 120.0 else "")
    head = [
        f"Measured {stamp} on {platform.machine()} {platform.system()}, {os.cpu_count()} "
        f"cores, Python {platform.python_version()}, with `{command}` ({elapsed:.0f} s in all).",
        "The machine was loaded by other work while this ran (several sessions sharing two "
        "cores): CPU seconds are the fairer figure, and small differences are noise.",
        "",
    ]
    verdict = ["", "Check: " + ("auto within 2x of the best engine on every instance."
                                if not problems else "FAILED: " + "; ".join(problems))]
    text = "\n".join(head + table + verdict)
    print(verdict[-1])
    if args.write:
        write_results(text)
    return 0 if not problems else 1


def write_results(text: str) -> None:
    """Replace this benchmark's section of RESULTS.md (or append it)."""
    old = RESULTS.read_text() if RESULTS.exists() else ""
    section = f"{BEGIN}\n{text}\n{END}"
    if BEGIN in old and END in old:
        new = old[: old.index(BEGIN)] + section + old[old.index(END) + len(END):]
    else:
        new = old.rstrip() + "\n\n## Engines: every engine against auto (bench/engines.py)\n\n"
        new += section + "\n"
    RESULTS.write_text(new)


if __name__ == "__main__":
    raise SystemExit(main())
