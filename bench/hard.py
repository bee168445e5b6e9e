"""Hard instances: SAT against backtracking, edge-matching at scale, randomised restarts.

Every answer is checked with ``CoverProblem.is_solution`` before its time is recorded.

    python bench/hard.py y20           # Y pentominoes in 20x20: compiled, SAT, restarts
    python bench/hard.py edges         # random Eternity-style puzzles, 6x6 .. 10x10
    python bench/hard.py queens        # n-queens first solutions: plain against hedged
    python bench/hard.py all --append  # everything, and a section in RESULTS.md

Times are wall-clock seconds on whatever machine runs it (say which in RESULTS.md).
"""

from __future__ import annotations

import argparse
import datetime
import platform
import sys
import time
from collections.abc import Callable
from pathlib import Path

from puzzlebox.cover.problem import CoverProblem
from puzzlebox.engine import registry
from puzzlebox.engine.errors import EngineError
from puzzlebox.engine.sat import SatSearch
from puzzlebox.engine.search import Job, Search
from puzzlebox.formats import read_text
from puzzlebox.puzzles import EdgeMatchingPuzzle
from puzzlebox.puzzles.generate import random_edge_matching

RESULTS = Path(__file__).resolve().parent / "RESULTS.md"

Y20 = """title = "80 Y pentominoes in a 20x20 square"
[board]
grid = "{rows}"
[pieces]
Y = {{ shape = "####/.#..", count = 80 }}
""".format(rows="/".join(["#" * 20] * 20))


def _timed_first(make: Callable[[], Search], problem: CoverProblem, limit: float) -> str:
    """Seconds and nodes to the first solution (checked), or 'not in N s': a loop over the
    search's steps that stops looking at the time limit."""
    began = time.perf_counter()
    try:
        search = make()
        solution = None
        while solution is None and time.perf_counter() - began <= limit:
            step = search.step(1 << 16)
            solution = step.solutions[0] if step.solutions else None
            if step.done:
                break
    except EngineError:
        return f"not in {limit:g} s"
    if solution is None:
        return "no solution" if search.stats.complete else f"not in {limit:g} s"
    seconds = time.perf_counter() - began
    if not problem.is_solution(solution):
        raise SystemExit("a benchmark answer failed verification")
    return f"{seconds:.2f} s, {search.stats.nodes} nodes"


def _first(engine: str, problem: CoverProblem, seed: int | None = None) -> Search:
    """The named engine's search for one solution (``seed``: inside restarts)."""
    return registry.start(Job(problem, limit=1, seed=seed), engine)[1]


def _hedged(problem: CoverProblem) -> Search:
    """What ``solve`` runs under auto for a first solution: the plain engine hedged."""
    return registry.start(Job(problem, limit=1))[1]


def bench_y20(limit: float) -> list[str]:
    problem = read_text(Y20, "y20", "y20").puzzles[0].problem
    for name in ("compiled", "bitboard"):  # compile the kernels before any clock starts
        _first(name, problem).step(1)
    rows = ["| engine | first solution |", "|---|---|"]
    for name in ("bitboard", "compiled"):
        first = _timed_first(lambda n=name: _first(n, problem), problem, limit)
        rows.append(f"| {name} | {first} |")
    for seed in range(3):
        sat = _timed_first(
            lambda s=seed: SatSearch(Job(problem, limit=1, seed=s), time_limit=limit), problem,
            limit,
        )
        rows.append(f"| sat (8 workers, seed {seed}) | {sat} |")
    for seed in range(3):
        restarts = _timed_first(lambda s=seed: _first("compiled", problem, s), problem, limit)
        rows.append(f"| compiled + restarts (seed {seed}) | {restarts} |")
    return rows


QUEENS_SIZES = (20, 40, 50, 60, 80, 100)


def bench_queens(limit: float) -> list[str]:
    """The first solution of n-queens: the plain compiled engine, whose first choices can
    trap it (a heavy tail), against what ``solve`` runs under "auto" (the same engine hedged
    by restarts after a million nodes, engine/restarts.py)."""
    from puzzlebox.puzzles.queens import QueensPuzzle

    warm = QueensPuzzle("q", 8).problem
    _first("compiled", warm).step(1)  # load the kernel before any clock starts
    rows = ["| n | compiled engine, plain | hedged (`solve` under auto) |", "|---|---|---|"]
    for n in QUEENS_SIZES:
        problem = QueensPuzzle("q", n).problem
        plain = _timed_first(lambda p=problem: _first("compiled", p), problem, limit)
        hedged = _timed_first(lambda p=problem: _hedged(p), problem, limit)
        rows.append(f"| {n} | {plain} | {hedged} |")
        print(rows[-1], flush=True)
    return rows


EDGE_CASES = [(6, 6), (6, 10), (7, 8), (7, 12), (8, 8), (8, 10), (8, 12), (9, 12), (9, 16),
              (10, 14), (10, 18)]


def _edges(puzzle: EdgeMatchingPuzzle, seed: int | None) -> Search:
    """The edges solver's search for one solution: one plain run, or seeded restarts."""
    return registry.get("edges").start(Job(puzzle.problem, limit=1, seed=seed, puzzle=puzzle))


def bench_edges(limit: float, seeds: int) -> list[str]:
    warm, _ = random_edge_matching(3, 3, 3, border=True)
    _timed_first(lambda: _edges(warm, None), warm.problem, limit)  # load the kernel first
    rows = [
        "| board | colours (frame) | seed | plain run | seeded restarts |",
        "|---|---|---|---|---|",
    ]
    for n, colors in EDGE_CASES:
        for seed in range(seeds):
            puzzle, _ = random_edge_matching(n, n, colors, border=True, seed=seed)
            cells = [
                _timed_first(lambda p=puzzle, s=solver_seed: _edges(p, s), puzzle.problem, limit)
                for solver_seed in (None, seed)
            ]
            frame = max(1, colors // 2)
            rows.append(f"| {n}x{n} | {colors} ({frame}) | {seed} | {cells[0]} | {cells[1]} |")
            print(rows[-1], flush=True)
    return rows


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("what", choices=["y20", "edges", "queens", "all"])
    parser.add_argument("--limit", type=float, default=60.0, help="seconds per search")
    parser.add_argument("--seeds", type=int, default=2, help="edge-matching puzzles per size")
    parser.add_argument("--append", action="store_true", help="add a section to RESULTS.md")
    args = parser.parse_args()
    sections = []
    if args.what in ("y20", "all"):
        sections.append(("Y pentominoes in 20x20 (80 copies): time to the first solution",
                         bench_y20(args.limit)))
    if args.what in ("queens", "all"):
        sections.append(("n-queens: time to the first solution", bench_queens(args.limit)))
    if args.what in ("edges", "all"):
        sections.append(("Random edge-matching puzzles with a border (generate edge-matching "
                         "--border): the scan-row solver", bench_edges(args.limit, args.seeds)))
    text = []
    for title, rows in sections:
        text += [f"### {title}", "", *rows, ""]
    print("\n".join(text))
    if args.append:
        today = datetime.date.today().isoformat()
        head = [
            "",
            "## Hard instances (SAT, edge-matching at scale, restarts)",
            "",
            f"{today}, {platform.machine()}, Python {platform.python_version()}, "
            "this development machine (2 cores shared with other jobs: times vary by a factor "
            "of two or more). Command, from the repository root:",
            "",
            f"    .venv/bin/python bench/hard.py {' '.join(sys.argv[1:]).replace(' --append', '')}",
            "",
        ]
        with RESULTS.open("a") as handle:
            handle.write("\n".join(head + text))
    return 0


if __name__ == "__main__":
    sys.exit(main())
