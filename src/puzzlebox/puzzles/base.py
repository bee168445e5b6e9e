"""What every puzzle kind provides, and the solving that is the same for all of them.

A kind compiles itself to a :class:`CoverProblem`, decodes engine answers back into
placements, and names the symmetries of the whole puzzle (used to count distinct solutions).
"""

from __future__ import annotations

import time
from abc import ABC, abstractmethod
from collections.abc import Callable, Hashable, Iterator, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any, ClassVar

from puzzlebox.cover.problem import CoverProblem
from puzzlebox.engine import Engine, SearchStats, make_engine


class Solution(ABC):
    """A decoded solution: a list of placements in the puzzle's own words."""

    @abstractmethod
    def placements_json(self) -> list[dict[str, Any]]:
        """The placements exactly as the ``--json`` contract writes them."""

    @abstractmethod
    def key(self) -> tuple[Hashable, ...]:
        """A sortable value equal for equal solutions (copies of a piece are interchangeable)."""


SolutionMap = Callable[[Solution], Solution]


@dataclass
class CountResult:
    """The outcome of a full count: raw and distinct solutions, and how it was obtained."""

    solutions: int
    distinct: int
    seconds: float
    stats: SearchStats = field(default_factory=SearchStats)
    reason: str | None = None  # why there is no solution, when it was proved without search


class Puzzle(ABC):
    """A puzzle of one kind: its data, its cover problem and its symmetries."""

    kind: ClassVar[str]

    def __init__(self, name: str, title: str = "", notes: str = "") -> None:
        self.name = name
        self.title = title
        self.notes = notes

    # -- what each kind implements ---------------------------------------------------------
    @abstractmethod
    def build_problem(self) -> CoverProblem:
        """Compile the puzzle to a cover problem whose option labels decode placements."""

    @abstractmethod
    def decode(self, chosen: tuple[int, ...]) -> Solution:
        """Turn a set of option indices into a solution of this puzzle."""

    @abstractmethod
    def symmetry_maps(self) -> list[SolutionMap]:
        """The non-identity symmetries of the whole puzzle, as maps on its solutions."""

    def impossibility(self) -> str | None:
        """A sentence proving there is no solution, when that is cheap to see, else None."""
        return None

    # -- shared behaviour ------------------------------------------------------------------
    @cached_property
    def problem(self) -> CoverProblem:
        return self.build_problem()

    def canonical_key(self, solution: Solution) -> tuple[Hashable, ...]:
        """The smallest key in the solution's orbit under the puzzle's symmetries."""
        return min([solution.key()] + [g(solution).key() for g in self.symmetry_maps()])

    def is_canonical(self, solution: Solution) -> bool:
        """True for exactly one solution of each orbit: distinct counts need no memory."""
        return solution.key() == self.canonical_key(solution)

    def search_problem(self) -> CoverProblem:
        """The problem a count actually searches (symmetry breaking may restrict it)."""
        return self.problem

    def engine(self, engine: str = "auto") -> Engine:
        return make_engine(self.problem, engine)

    def solutions(self, limit: int | None = None, engine: str = "auto") -> Iterator[Solution]:
        """Yield solutions lazily (none at all when impossibility() proves there are none)."""
        if self.impossibility() is not None:
            return
        for chosen in self.engine(engine).solutions(limit):
            yield self.decode(chosen)

    def solve(self, engine: str = "auto") -> Solution | None:
        """The first solution found, or None."""
        return next(self.solutions(limit=1, engine=engine), None)

    def count_search(
        self,
        engine: str = "auto",
        forced: Sequence[int] = (),
        excluded: Sequence[int] = (),
    ) -> tuple[int, int, SearchStats]:
        """Raw and distinct counts of ``search_problem()`` with some options forced or
        excluded: the unit of work that a split count hands to other processes."""
        searcher = make_engine(self.search_problem(), engine, forced, excluded)
        if not self.symmetry_maps():
            raw = searcher.count()
            return raw, raw, searcher.stats
        raw = distinct = 0
        for chosen in searcher.solutions():
            raw += 1
            distinct += self.is_canonical(self.decode(chosen))
        return raw, distinct, searcher.stats

    def count(self, engine: str = "auto") -> CountResult:
        """Count every solution as placed and up to symmetry."""
        began = time.perf_counter()
        reason = self.impossibility()
        if reason is not None:
            return CountResult(0, 0, time.perf_counter() - began, SearchStats(), reason)
        raw, distinct, stats = self.count_search(engine)
        return CountResult(raw, distinct, time.perf_counter() - began, stats)
