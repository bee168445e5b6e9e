"""The answers the commands report, as plain data: made here, formatted in render/.

Each report is a dataclass that a command line, a notebook or a web page can format as it
likes; render/report_text.py and render/json_out.py hold one text and one JSON formatter for
each. Nothing here prints, and nothing here knows a command-line flag.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from puzzlebox.engine.stats import SearchStats
from puzzlebox.puzzles import CountResult, PolyominoPuzzle, Puzzle
from puzzlebox.words import plural

if TYPE_CHECKING:  # the modules that make these answers load when a command needs them
    from puzzlebox.engine.estimate import TreeEstimate
    from puzzlebox.puzzles.order import OrderResult
    from puzzlebox.puzzles.sweep import SweepResult

__all__ = [
    "CountReport",
    "EstimateReport",
    "OrderReport",
    "SweepReport",
    "Why",
    "count_report",
    "estimate_report",
    "label",
    "sweep_report",
    "why",
]


def label(puzzle: Puzzle) -> str:
    """How reports name one board (the kind's label), safe to print."""
    from puzzlebox.safety import printable

    return printable(puzzle.label)


@dataclass(frozen=True)
class Why:
    """What settled an answer: a proof before search (``argument`` is its name) or the
    search itself (``argument`` is ``"search"``), and a sentence saying so."""

    argument: str
    sentence: str


def why(puzzle: Puzzle, found: int, stats: SearchStats) -> Why:
    """What settled ``found`` solutions of ``puzzle``, searched with ``stats``."""
    from puzzlebox.puzzles.proofs import impossibility_proof

    proof = impossibility_proof(puzzle)
    if proof is not None:
        return Why(proof.argument,
                   f"proved before search by the {proof.argument} argument: {proof.sentence}")
    if found == 0:
        return Why("search", f"searched exhaustively: no solution ({plural(stats.nodes, 'node')})")
    how = "search with restarts" if stats.engine.startswith("restarts") else "search"
    return Why("search", f"found by {how} ({plural(stats.nodes, 'node')}, {stats.engine} engine)")


@dataclass(frozen=True)
class CountReport:
    """One board's count. A count split into subproblems also says how many there were
    (``total``) and how many are finished (``done``); ``interrupted`` marks a count that
    stopped before the end and reports what it had. ``lattice`` names the puzzle's lattice
    (None for kinds without one), so that a count can say which grid its board stands on
    (the JSON does where it is not square, as a solution's does)."""

    puzzle: str
    board: str | None
    label: str
    result: CountResult
    why: Why | None = None
    done: int | None = None
    total: int | None = None
    interrupted: bool = False
    lattice: str | None = None

    @property
    def split(self) -> bool:
        return self.done is not None and bool(self.total)

    @property
    def partial(self) -> bool:
        return self.interrupted or (self.split and (self.done or 0) < (self.total or 0))


def count_report(
    puzzle: Puzzle,
    result: CountResult,
    why: Why | None = None,
    interrupted: bool = False,
    done: int | None = None,
    total: int | None = None,
) -> CountReport:
    """The report of ``result``; a split count's result brings its own ``done``/``total``."""
    from puzzlebox.parallel.run import SplitCountResult

    if isinstance(result, SplitCountResult) and done is None:
        done, total = result.done, result.total
    grid = getattr(puzzle, "lattice", None)  # polyomino puzzles carry one; other kinds do not
    lattice = None if grid is None else grid.name
    return CountReport(puzzle.name, puzzle.board_name, label(puzzle), result, why, done, total,
                       interrupted, lattice)


@dataclass(frozen=True)
class EstimateReport:
    """Knuth's estimate of one board's search tree and the engine's speed on it, or the
    ``reason`` why no search is needed. (Its content is the estimator's: docs/estimates.md.)"""

    puzzle: str
    board: str | None
    label: str
    reason: str | None = None
    estimate: TreeEstimate | None = None
    nodes_per_second: float = 0.0
    seconds: float = 0.0  # the whole tree at that speed
    searched_nodes: int | None = None  # the tree's size, when timing the engine finished it
    auto_engine: str = "compiled"  # the engine a count under "auto" uses here


def estimate_report(puzzle: Puzzle, probes: int = 1000, seed: int = 0) -> EstimateReport:
    """Estimate the compiled engine's tree for a count of ``puzzle`` and time the engine."""
    from puzzlebox.engine.estimate import engine_speed, estimate_tree
    from puzzlebox.engine.registry import general
    from puzzlebox.engine.search import Job

    name, board, text = puzzle.name, puzzle.board_name, label(puzzle)
    reason = puzzle.impossibility()
    if reason is not None:
        return EstimateReport(name, board, text, reason=reason)
    problem = puzzle.search_problem()
    est = estimate_tree(problem, probes=probes, seed=seed)
    speed, searched = engine_speed(problem)
    return EstimateReport(name, board, text, None, est, speed, est.seconds_at(speed), searched,
                          general(Job(problem)).name)


@dataclass(frozen=True)
class SweepReport:
    """A sweep of one board: every choice of ``uncover`` cells left uncovered, answered."""

    puzzle: str
    board: str | None
    label: str
    swept: PolyominoPuzzle  # the board that was swept (its holes filled, when asked)
    uncover: int
    counted: bool
    choices: int
    results: list[SweepResult]
    holes_left: bool  # the swept board has holes that filling it would sweep too

    @property
    def solvable(self) -> int:
        return sum(r.solvable for r in self.results)

    @property
    def searched(self) -> int:
        """Choices solved themselves (the others copy a symmetric choice's answer)."""
        return sum(1 for r in self.results if r.same_as is None)


def sweep_report(
    puzzle: Puzzle,
    uncover: int,
    count: bool = False,
    fill_holes: bool = False,
    engine: str = "auto",
    progress: Callable[[int, int], None] | None = None,
) -> SweepReport:
    """Sweep ``puzzle`` (its whole bounding rectangle with ``fill_holes``)."""
    from puzzlebox.puzzles.sweep import filled, number_of_choices, sweep, sweepable

    board = sweepable(puzzle)
    board = filled(board) if fill_holes else board
    results = list(sweep(board, uncover, count, engine, progress))
    holes = not board.match_colors and len(board.board) < len(filled(board).board)
    return SweepReport(puzzle.name, puzzle.board_name, label(puzzle), board, uncover, count,
                       number_of_choices(board, uncover), results, holes)


@dataclass(frozen=True)
class OrderReport:
    """The order of a polyomino, with every rectangle tried (shown when ``tried`` is set)."""

    result: OrderResult
    tried: bool = False
