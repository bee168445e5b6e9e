"""The answers the commands report, as plain data: made by the run layer (puzzlebox/run/
reports.py), formatted in render/.

Each report is a dataclass that a command line, a notebook or a web page can format as it
likes; render/report_text.py and render/json_out.py hold one text and one JSON formatter for
each. Nothing here prints, runs a search or knows a command-line flag: this module sits
below render/ (which formats it) and the kinds (which return a :class:`CountResult`), and
above the engines; what it asks of a puzzle or a solution it names itself (:class:`Named`,
:class:`Placed`, :class:`Board`, :class:`TiledBoard`), so it imports nothing from render/.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol

from puzzlebox.engine.stats import SearchStats
from puzzlebox.geometry.lattice import Cell, Lattice, Shape
from puzzlebox.geometry.regions import Region, region_noun
from puzzlebox.geometry.square import SQUARE
from puzzlebox.safety import printable

if TYPE_CHECKING:  # the modules that make these answers load when a command needs them
    from puzzlebox.engine.estimate import TreeEstimate

__all__ = [
    "CountReport",
    "EstimateReport",
    "OrderReport",
    "SweepReport",
    "Why",
    "CountResult",
    "label",
]


class Named(Protocol):
    """What a report asks of a puzzle to name it: its label (a kind's puzzle, which this
    module sits below)."""

    @property
    def label(self) -> str: ...


class Placed(Protocol):
    """A solution, as the ``--json`` contract writes it (render/'s protocols name this one)."""

    def placements_json(self) -> list[dict[str, Any]]: ...


def label(puzzle: Named) -> str:
    """How reports name one board (the kind's label), safe to print."""
    return printable(puzzle.label)


@dataclass
class CountResult:
    """The outcome of a full count: raw and distinct solutions, and how it was obtained."""

    solutions: int
    distinct: int
    seconds: float
    stats: SearchStats = field(default_factory=SearchStats)
    reason: str | None = None  # why there is no solution, when it was proved without search

    def __str__(self) -> str:
        """A sentence: ``9356 solutions, 2339 distinct (bitboard engine, 1.2 s)``, or the
        reason there are none."""
        if self.reason is not None:
            return f"{_solutions(self.solutions)}: {self.reason}"
        how = f"{self.stats.engine} engine, " if self.stats.engine else ""
        return f"{_solutions(self.solutions)}, {self.distinct} distinct ({how}{self.seconds:.1f} s)"

    def _rows(self) -> list[tuple[str, object]]:
        """What a notebook's table shows: the numbers, and how they were obtained."""
        if self.reason is not None:
            return [("solutions", self.solutions)]  # the caption says why there are none
        rows: list[tuple[str, object]] = [("solutions", self.solutions),
                                          ("distinct", self.distinct)]
        if self.stats.engine:
            rows.append(("engine", self.stats.engine))
        if self.stats.nodes:
            rows.append(("nodes", self.stats.nodes))
        return [*rows, ("seconds", f"{self.seconds:.3g}")]

    def _repr_html_(self) -> str:
        """In Jupyter: a small table whose caption is the sentence of ``str()``."""
        return _html_table(str(self), self._rows())

    def _repr_pretty_(self, printer: Any, cycle: bool) -> None:
        """In IPython: the sentence of ``str()``, not the dataclass's fields."""
        printer.text(str(self))


@dataclass
class SplitCountResult(CountResult):
    """A count made of subproblems; ``done < total`` when it was interrupted."""

    done: int = 0
    total: int = 0
    resumed: int = 0  # subproblems whose results came from the checkpoint
    workers: int = 0  # processes that counted a subproblem of this run (0: none did)

    @property
    def partial(self) -> bool:
        return self.done < self.total

    # IPython looks for it in each class's own namespace before the dataclass's __repr__
    _repr_pretty_ = CountResult._repr_pretty_

    def _rows(self) -> list[tuple[str, object]]:
        rows = super()._rows()
        return [*rows, ("subproblems", f"{self.done} of {self.total} done")] if self.total \
            else rows

    def __str__(self) -> str:
        """As a count's sentence; one stopped early says so, and how far it got."""
        if not self.partial:
            return super().__str__()
        return (f"{_solutions(self.solutions)}, {self.distinct} distinct so far (partial: "
                f"{self.done} of {self.total} subproblems, {self.seconds:.1f} s)")


def _solutions(n: int) -> str:
    return f"{n} solution{'' if n == 1 else 's'}"


_HTML_ESCAPES = str.maketrans({"&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;"})


def _html_table(caption: str, rows: list[tuple[str, object]]) -> str:
    """A small HTML table (for a notebook), every text escaped."""
    def cell(value: object) -> str:
        return printable(str(value)).translate(_HTML_ESCAPES)

    body = "".join(f"<tr><th style=\"text-align: left\">{cell(name)}</th>"
                   f"<td style=\"text-align: left\">{cell(value)}</td></tr>"
                   for name, value in rows)
    return f"<table><caption>{cell(caption)}</caption>{body}</table>"


@dataclass(frozen=True)
class Why:
    """What settled an answer: a proof before search (``argument`` is its name) or the
    search itself (``argument`` is ``"search"``), and a sentence saying so."""

    argument: str
    sentence: str


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
    tree_engine: str = "compiled"  # the engine whose tree Knuth's probes walk (estimate_tree)


class Board(Protocol):
    """What a report asks of the board it answers for (a kind's puzzle, which this module
    sits below): the lattice its cells stand on."""

    @property
    def lattice(self) -> Lattice: ...


@dataclass(frozen=True)
class SweepResult:
    """The answer for one choice of uncovered cells."""

    uncovered: tuple[Cell, ...]
    solvable: bool
    solutions: int | None = None  # only when counting
    distinct: int | None = None
    proof: str | None = None  # the argument that settled it without search, if any
    reason: str | None = None  # that argument's sentence
    nodes: int = 0
    same_as: tuple[Cell, ...] | None = None  # the symmetric choice whose answer this copies


@dataclass(frozen=True)
class SweepReport:
    """A sweep of one board: every choice of ``uncover`` cells left uncovered, answered."""

    puzzle: str
    board: str | None
    label: str
    swept: Board  # the board that was swept (its holes filled, when asked)
    uncover: int
    counted: bool
    choices: int
    results: list[SweepResult]
    holes_left: bool  # the swept board has holes that filling it would sweep too
    grid: list[str] = field(default_factory=list)  # one uncovered cell: the board of answers

    @property
    def solvable(self) -> int:
        return sum(r.solvable for r in self.results)

    @property
    def searched(self) -> int:
        """Choices solved themselves (the others copy a symmetric choice's answer)."""
        return sum(1 for r in self.results if r.same_as is None)


class TiledBoard(Named, Protocol):
    """The board an order was found on, as its report shows it: a puzzle with its cells and
    lattice (render/json_out.py measures the board) that draws a solution as text."""

    @property
    def board(self) -> Mapping[Cell, object]: ...

    @property
    def lattice(self) -> Lattice: ...

    def text_lines(self, solution: Any, style: str = "text") -> list[str]: ...


@dataclass
class Attempt:
    """One region tried: how it ended and why (``rows`` and ``cols`` are its extent along
    the last two coordinates; ``dims`` its measures: the layers first on cube, one side for
    a triangle or a hexagon; ``name`` how it is shown)."""

    rows: int
    cols: int
    copies: int
    tiled: bool
    how: str  # the proof's argument, or "search"
    detail: str  # the proof's sentence, or the nodes searched
    seconds: float = 0.0
    dims: tuple[int, ...] = ()
    name: str = ""

    @property
    def size(self) -> str:
        """``2x3`` (``2x3x4`` on cube; ``hexagon of side 2``)."""
        return self.name or "x".join(map(str, self.dims or (self.rows, self.cols)))


@dataclass
class OrderResult:
    """The order of a polyomino (puzzles/order.py): the smallest number of copies that tile
    a region, with the regions tried."""

    shape: Shape
    max_area: int
    order: int | None = None  # None: no rectangle up to max_area
    puzzle: TiledBoard | None = None  # the rectangle that was tiled (a polyomino puzzle)
    solution: Placed | None = None
    attempts: list[Attempt] = field(default_factory=list)
    lattice: Lattice = SQUARE
    region: Region | None = None  # the region that was tiled

    def summary(self) -> str:
        if self.order is None or self.region is None:
            return f"no {region_noun(self.lattice)} up to area {self.max_area}"
        copies = "copy" if self.order == 1 else "copies"
        return f"order {self.order}: {self.order} {copies} tile a {self.region.label}"


@dataclass(frozen=True)
class OrderReport:
    """The order of a polyomino, with every rectangle tried (shown when ``tried`` is set)."""

    result: OrderResult
    tried: bool = False


@dataclass(frozen=True)
class LabelResult:
    """The answer for one combination of labels."""

    labels: dict[str, str]  # group -> label
    result: SweepResult


@dataclass(frozen=True)
class LabelSweepReport:
    """A labelled sweep of one board: every combination answered, with its count."""

    puzzle: str
    board: str | None
    label: str
    groups: tuple[str, ...]
    results: list[LabelResult]

    @property
    def solvable(self) -> int:
        return sum(r.result.solvable for r in self.results)

    @property
    def solutions(self) -> int:
        return sum(r.result.solutions or 0 for r in self.results)

    @property
    def searched(self) -> int:
        """Combinations counted themselves (the others copy a symmetric one's answer)."""
        return sum(1 for r in self.results if r.result.same_as is None)
