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
from typing import TYPE_CHECKING, Any, ClassVar

from puzzlebox.cover.problem import CoverProblem
from puzzlebox.engine.errors import EngineError
from puzzlebox.engine.memo import Progress, SweepPlan
from puzzlebox.engine.registry import AUTO, resolve
from puzzlebox.engine.search import Capability, Job, Mode, OnStep, Search, count_all, each_solution
from puzzlebox.engine.stats import SearchStats

if TYPE_CHECKING:
    from puzzlebox.puzzles.symmetry import SymmetryBreaking


# The name of the one search that is not a complete cover engine: sink and exact finish, one
# tiling of a polyomino board by local search (puzzles/repair_tiling.py), registered by
# the polyomino kind.
SINK = "sink"


class Solution(ABC):
    """A decoded solution: a list of placements in the puzzle's own words."""

    @abstractmethod
    def placements_json(self) -> list[dict[str, Any]]:
        """The placements exactly as the ``--json`` contract writes them."""

    @abstractmethod
    def key(self) -> tuple[Hashable, ...]:
        """A sortable value equal for equal solutions (copies of a piece are interchangeable)."""

    # A solution from Puzzle.solutions() knows its puzzle (attribute ``puzzle``), so that it
    # can draw itself in a notebook; the puzzle is no part of its value or its pickle.
    def _repr_svg_(self) -> str | None:
        from puzzlebox.render.notebook import svg_of

        return svg_of(getattr(self, "puzzle", None), self)

    def __getstate__(self) -> dict[str, Any]:
        return {k: v for k, v in self.__dict__.items() if k != "puzzle"}


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

    @cached_property
    def symmetry_breaking(self) -> SymmetryBreaking:
        """The problem cut down by the puzzle's symmetries (see puzzles/symmetry.py)."""
        from puzzlebox.puzzles.symmetry import SymmetryBreaking

        return SymmetryBreaking.of(self)

    def search_problem(self) -> CoverProblem:
        """The problem a count actually searches: restricted so that each orbit of
        solutions is searched about once."""
        return self.symmetry_breaking.problem

    def sweep_plan(self) -> SweepPlan | None:
        """How a memoised count sweeps ``problem`` (item order, symmetries); None: it cannot."""
        return None

    def solutions(
        self,
        limit: int | None = None,
        engine: str = AUTO,
        seed: int | None = None,
        stats: SearchStats | None = None,
        on_step: OnStep | None = None,
    ) -> Iterator[Solution]:
        """Yield solutions lazily (none at all when impossibility() proves there are none),
        from the engine named (``auto``: the registry's choice, engine/registry.py).
        ``stats``, when given, follows the search's statistics (for ``--why``); ``on_step``
        sees them after every step of the search (a progress display)."""
        job = Job(self.problem, Mode.SOLUTIONS, limit=limit, seed=seed, puzzle=self)
        spec = resolve(job, engine)  # a named engine that cannot take it says so first
        if self.impossibility() is not None:
            return
        search = spec.start(job)
        for chosen in each_solution(search, on_step=on_step):
            solution = self.decode(chosen)
            object.__setattr__(solution, "puzzle", self)  # to draw itself (notebooks)
            if stats is not None:
                vars(stats).update(vars(search.stats))
            yield solution
        if stats is not None:
            vars(stats).update(vars(search.stats))

    def _repr_svg_(self) -> str | None:
        """The board and pieces, drawn, in a notebook."""
        from puzzlebox.render.notebook import svg_of

        return svg_of(self, None)

    def solve(self, engine: str = "auto") -> Solution | None:
        """The first solution found, or None."""
        return next(self.solutions(limit=1, engine=engine), None)

    def count_search(
        self,
        engine: str = AUTO,
        forced: Sequence[int] = (),
        excluded: Sequence[int] = (),
        on_step: OnStep | None = None,
    ) -> tuple[int, int, SearchStats]:
        """Raw and distinct counts of ``search_problem()`` with some options forced or
        excluded: the unit of work that a split count hands to other processes."""
        from puzzlebox.engine.parts import count_puzzle_search

        search = count_puzzle_search(self, engine, forced, excluded)
        raw, distinct = count_all(search, on_step=on_step)
        return raw, distinct or 0, search.stats

    def distinct_solutions(
        self,
        limit: int | None = None,
        engine: str = AUTO,
        stats: SearchStats | None = None,
        on_step: OnStep | None = None,
    ) -> Iterator[Solution]:
        """One solution of each orbit under the puzzle's symmetries, lazily, from the
        search cut down by symmetry (``stats`` and ``on_step`` as for solutions())."""
        if self.impossibility() is not None:
            return
        for chosen in self.symmetry_breaking.representatives(engine, limit, stats, on_step):
            solution = self.decode(chosen)
            object.__setattr__(solution, "puzzle", self)  # to draw itself (notebooks)
            yield solution

    def count(
        self,
        engine: str = AUTO,
        max_memory: int | None = None,
        progress: Progress | None = None,
        on_step: OnStep | None = None,
    ) -> CountResult:
        """Count every solution as placed and up to symmetry.

        The engine named (``auto``: the registry's choice) counts; one that counts distinct
        solutions itself (memo, by sweeping within ``max_memory`` bytes) does it alone,
        any other runs the parts of the symmetry breaking (engine/parts.py). ``on_step``
        sees the stats after every step; ``progress(done, total)`` the share walked, when
        the engine can tell (a memo sweep's bar).
        """
        began = time.perf_counter()
        job = Job(self.problem, Mode.COUNT, puzzle=self, max_memory=max_memory)
        spec = resolve(job, engine)
        reason = self.impossibility()
        if reason is not None:
            return CountResult(0, 0, time.perf_counter() - began, SearchStats(), reason)
        if spec.does(Capability.DISTINCT):
            search: Search = spec.start(job)
        else:
            from puzzlebox.engine.parts import count_puzzle_search

            search = count_puzzle_search(self, engine)

        def report(stats: SearchStats) -> None:
            if on_step is not None:
                on_step(stats)
            if progress is not None and stats.walked is not None:
                progress(round(stats.walked * _PROGRESS_STEPS), _PROGRESS_STEPS)

        raw, distinct = count_all(search, on_step=report)
        if distinct is None:
            raise EngineError(f"the {spec.name} engine gave no distinct count")
        return CountResult(raw, distinct, time.perf_counter() - began, search.stats)


_PROGRESS_STEPS = 10_000  # the resolution of progress(done, total) from a share walked
