"""The bitboard engine's plain build against numpy's (issue #23 item 1; engine/bitboard.py
``_Tables``, the bound in engine/bitboard_fit.py ``PLAIN_MAX_ENTRIES``).

    python bench/bitboard_plain.py tables [NAME ...] [--builds 20]
        # build CPU, plain vs numpy, in process: each round a loop of --builds builds
    python bench/bitboard_plain.py library [--before DIR] [--rounds 7]
        # whole process: a library solve of soma-cube and 6x10 and 6x10's count through
        # bitboard.start; DIR/src an older tree (git archive REV src | tar -x -C DIR, with the
        # built C extensions copied in), interleaved with this one

CPU time (process time in process; user + system from ``wait4`` for a whole process), the
median of the rounds, the two builds (or trees) interleaved round by round, so that a
machine whose load changes charges both alike; the load average is printed.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from functools import partial
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

LIBRARY_RUN = """
import sys
from puzzlebox import catalog
from puzzlebox.engine import bitboard
from puzzlebox.engine.search import Job, Mode, count_all, each_solution
name, mode = sys.argv[1], sys.argv[2]
problem = catalog.load_file(name).puzzles[0].problem
if mode == "count":
    print(count_all(bitboard.start(Job(problem, Mode.COUNT)))[0], "numpy" in sys.modules)
else:
    job = Job(problem, Mode.SOLUTIONS, limit=1)
    print(next(each_solution(bitboard.start(job))), "numpy" in sys.modules)
"""
CASES = [("soma-cube", "solve"), ("pentomino-6x10", "solve"), ("pentomino-6x10", "count")]


def _ms(work: Callable[[], object], times: int = 1) -> float:
    """CPU ms of one call of ``work``, the mean of a loop of ``times`` calls."""
    began = time.process_time()
    for _ in range(times):
        work()
    return (time.process_time() - began) * 1000 / times


def tables(names: list[str], rounds: int, builds: int) -> None:
    """Build CPU of the tables, the search's start and the eligibility test, each way."""
    import numpy  # noqa: F401  (numpy's build needs it loaded: its import is not counted)

    from puzzlebox import catalog
    from puzzlebox.engine import bitboard, bitboard_fit, kernel_choice

    kernel_choice.use(kernel_choice.C)
    print(f"load {os.getloadavg()[0]:.2f}; ms, median of {rounds} loops of {builds}, "
          "plain / numpy")
    for name in names:
        p = catalog.load_file(name).puzzles[0].problem
        for view in ("lo", "hi", "start", "items", "colors"):
            getattr(p, view)  # numpy's views of the arrays, made once
        times: dict[str, list[float]] = {}
        for _ in range(rounds):
            for plain in (True, False):
                t = bitboard._Tables(p, set(), 1, True, plain)
                way = "plain" if plain else "numpy"
                test = bitboard_fit._ineligible_plain if plain else bitboard_fit._ineligible_numpy
                for what, work in (
                    ("tables", partial(bitboard._Tables, p, set(), 1, True, plain)),
                    ("start", partial(bitboard._Search, t, ())),
                    ("eligible", partial(test, p)),
                ):
                    times.setdefault(f"{what} {way}", []).append(_ms(work, builds))
        m = {k: statistics.median(v) for k, v in times.items()}
        print(f"{name:26s} {len(p.arrays.items):8d} entries | "
              + " | ".join(f"{w} {m[w + ' plain']:.2f} / {m[w + ' numpy']:.2f}"
                           for w in ("tables", "start", "eligible")))  # fmt: skip
    print(f"load {os.getloadavg()[0]:.2f}")


def _process_cpu(src: Path, name: str, mode: str) -> float:
    """User + system CPU seconds of a fresh interpreter running LIBRARY_RUN on ``src``."""
    env = {**os.environ, "PYTHONPATH": str(src), "PUZZLEBOX_KERNELS": "c"}
    proc = subprocess.Popen([sys.executable, "-c", LIBRARY_RUN, name, mode], env=env,
                            stdout=subprocess.DEVNULL)  # fmt: skip
    _, status, usage = os.wait4(proc.pid, 0)
    proc.returncode = os.waitstatus_to_exitcode(status)
    if proc.returncode:
        raise SystemExit(f"{name} {mode} failed on {src}")
    return usage.ru_utime + usage.ru_stime


def library(before: Path | None, rounds: int) -> None:
    trees = [("after", ROOT / "src")] + ([("before", before / "src")] if before else [])
    print(f"load {os.getloadavg()[0]:.2f}; s of CPU, median of {rounds}")
    for name, mode in CASES:
        times: dict[str, list[float]] = {label: [] for label, _ in trees}
        for _ in range(rounds):
            for label, src in trees:
                times[label].append(_process_cpu(src, name, mode))
        print(f"{mode} {name}: " + ", ".join(
            f"{label} {statistics.median(v):.3f} (min {min(v):.2f}, max {max(v):.2f})"
            for label, v in times.items()))  # fmt: skip
    print(f"load {os.getloadavg()[0]:.2f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("what", choices=["tables", "library"])
    parser.add_argument("names", nargs="*", default=["soma-cube", "pentomino-6x10"])
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--before", type=Path)
    parser.add_argument("--builds", type=int, default=20, help="calls per round (tables)")
    args = parser.parse_intermixed_args()
    if args.what == "tables":
        tables(args.names, args.rounds, args.builds)
    else:
        library(args.before, args.rounds)


if __name__ == "__main__":
    main()
