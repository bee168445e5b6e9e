"""The reports of puzzlebox.reports, made: each runs what its answer needs (a proof, a
probe of the tree, a sweep) and returns the plain data that render/ formats."""

from __future__ import annotations

from collections.abc import Callable

from puzzlebox.engine.registry import general
from puzzlebox.engine.search import Job
from puzzlebox.engine.stats import SearchStats
from puzzlebox.puzzles import Puzzle
from puzzlebox.puzzles.proofs import impossibility_proof
from puzzlebox.puzzles.sweep import count_grid, filled, number_of_choices, sweep, sweepable
from puzzlebox.reports import (
    CountReport,
    CountResult,
    EstimateReport,
    SplitCountResult,
    SweepReport,
    Why,
    label,
)
from puzzlebox.words import plural

__all__ = ["count_report", "estimate_report", "sweep_report", "why"]


def why(puzzle: Puzzle, found: int, stats: SearchStats) -> Why:
    """What settled ``found`` solutions of ``puzzle``, searched with ``stats``."""
    proof = impossibility_proof(puzzle)
    if proof is not None:
        return Why(proof.argument,
                   f"proved before search by the {proof.argument} argument: {proof.sentence}")
    if found == 0:
        return Why("search", f"searched exhaustively: no solution ({plural(stats.nodes, 'node')})")
    how = "search with restarts" if stats.engine.startswith("restarts") else "search"
    return Why("search", f"found by {how} ({plural(stats.nodes, 'node')}, {stats.engine} engine)")


def count_report(
    puzzle: Puzzle,
    result: CountResult,
    why: Why | None = None,
    interrupted: bool = False,
    done: int | None = None,
    total: int | None = None,
) -> CountReport:
    """The report of ``result``; a split count's result brings its own ``done``/``total``."""
    if isinstance(result, SplitCountResult) and done is None:
        done, total = result.done, result.total
    grid = getattr(puzzle, "lattice", None)  # polyomino puzzles carry one; other kinds do not
    lattice = None if grid is None else grid.name
    return CountReport(puzzle.name, puzzle.board_name, label(puzzle), result, why, done, total,
                       interrupted, lattice)


def estimate_report(puzzle: Puzzle, probes: int = 1000, seed: int = 0) -> EstimateReport:
    """Estimate the compiled engine's tree for a count of ``puzzle`` and time the engine."""
    from puzzlebox.engine.estimate import engine_speed, estimate_tree  # loads numba

    name, board, text = puzzle.name, puzzle.board_name, label(puzzle)
    reason = puzzle.impossibility()
    if reason is not None:
        return EstimateReport(name, board, text, reason=reason)
    problem = puzzle.search_problem()
    est = estimate_tree(problem, probes=probes, seed=seed)
    speed, searched = engine_speed(problem)
    return EstimateReport(name, board, text, None, est, speed, est.seconds_at(speed), searched,
                          general(Job(problem)).name)


def sweep_report(
    puzzle: Puzzle,
    uncover: int,
    count: bool = False,
    fill_holes: bool = False,
    engine: str = "auto",
    progress: Callable[[int, int], None] | None = None,
) -> SweepReport:
    """Sweep ``puzzle`` (its whole bounding rectangle with ``fill_holes``)."""
    board = sweepable(puzzle)
    board = filled(board) if fill_holes else board
    results = list(sweep(board, uncover, count, engine, progress))
    holes = not board.match_colors and len(board.board) < len(filled(board).board)
    grid = count_grid(board, results, count) if uncover == 1 else []
    return SweepReport(puzzle.name, puzzle.board_name, label(puzzle), board, uncover, count,
                       number_of_choices(board, uncover), results, holes, grid)
