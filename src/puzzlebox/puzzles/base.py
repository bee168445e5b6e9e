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
from puzzlebox.engine import Engine, SearchStats, make_engine
from puzzlebox.engine.errors import EngineError
from puzzlebox.engine.memo import Progress, SweepPlan, sweep_count

if TYPE_CHECKING:
    from puzzlebox.puzzles.symmetry import SymmetryBreaking


# The name of the one search that is not a cover engine: sink and exact finish, one tiling of a
# polyomino board by local search (puzzles/repair_tiling.py); PolyominoPuzzle takes it.
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

    # -- drawing (python-chess style: str() is the text drawing, svg()/png() the picture) --
    def __str__(self) -> str:
        """The text drawing (letters, cards, queens); the placements when the solution does
        not know its puzzle (made by hand rather than yielded by ``Puzzle.solutions``)."""
        puzzle = getattr(self, "puzzle", None)
        if puzzle is None:
            return repr(self)
        from puzzlebox.render.text import solution_lines

        return "\n".join(solution_lines(puzzle, self))

    def svg(self) -> str:
        """The picture as SVG text (needs the 'pictures' extra)."""
        return self._picture("svg").decode("utf-8")

    def png(self) -> bytes:
        """The picture as PNG bytes (needs the 'pictures' extra)."""
        return self._picture("png")

    def _picture(self, fmt: str) -> bytes:
        puzzle = getattr(self, "puzzle", None)
        if puzzle is None:
            raise ValueError("this solution does not know its puzzle: draw the solutions "
                             "that Puzzle.solutions() yields")
        from puzzlebox.render.drawing import picture

        return picture(puzzle, self, fmt)


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

    def engine(self, engine: str = "auto") -> Engine:
        return make_engine(self.problem, engine)

    def searcher(
        self, engine: str = "auto", limit: int | None = None, seed: int | None = None
    ) -> Engine:
        """The search solutions() runs: "auto" may pick SAT for a hard first solution, and a
        seed randomises the search with restarts (engine/choose.py)."""
        from puzzlebox.engine.choose import make_searcher

        return make_searcher(self.problem, engine, limit, seed)

    def solutions(
        self,
        limit: int | None = None,
        engine: str = "auto",
        seed: int | None = None,
        stats: SearchStats | None = None,
    ) -> Iterator[Solution]:
        """Yield solutions lazily (none at all when impossibility() proves there are none);
        ``stats``, when given, follows the search's statistics (for ``--why``)."""
        if engine == SINK:  # polyomino puzzles override this method and take it
            raise EngineError(f"{self.name}: the sink search tiles polyomino boards only")
        if self.impossibility() is not None:
            return
        searcher = self.searcher(engine, limit, seed)
        for chosen in searcher.solutions(limit):
            solution = self.decode(chosen)
            object.__setattr__(solution, "puzzle", self)  # to draw itself (notebooks)
            if stats is not None:
                vars(stats).update(vars(searcher.stats))
            yield solution
        if stats is not None:
            vars(stats).update(vars(searcher.stats))

    def _repr_svg_(self) -> str | None:
        """The board and pieces, drawn, in a notebook."""
        from puzzlebox.render.notebook import svg_of

        return svg_of(self, None)

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
        return self.symmetry_breaking.count(engine, forced, excluded)

    def distinct_solutions(
        self, limit: int | None = None, engine: str = "auto", stats: SearchStats | None = None
    ) -> Iterator[Solution]:
        """One solution of each orbit under the puzzle's symmetries, lazily, from the
        search cut down by symmetry (``stats`` as for solutions())."""
        if self.impossibility() is not None:
            return
        for chosen in self.symmetry_breaking.representatives(engine, limit, stats):
            solution = self.decode(chosen)
            object.__setattr__(solution, "puzzle", self)  # to draw itself (notebooks)
            yield solution

    def count(
        self,
        engine: str = "auto",
        max_memory: int | None = None,
        progress: Progress | None = None,
    ) -> CountResult:
        """Count every solution as placed and up to symmetry.

        "memo" (or "auto", where it pays) counts by sweeping instead of enumerating, within
        ``max_memory`` bytes, calling ``progress(done, total)`` as it goes; a forced "memo"
        that cannot run raises MemoDeclined.
        """
        began = time.perf_counter()
        reason = self.impossibility()
        if reason is not None:
            return CountResult(0, 0, time.perf_counter() - began, SearchStats(), reason)
        if engine in ("auto", "memo"):
            swept = sweep_count(
                self.problem,
                self.sweep_plan(),
                required=engine == "memo",
                max_memory=max_memory,
                progress=progress,
            )
            if swept is not None:
                return CountResult(swept[0], swept[1], time.perf_counter() - began, swept[2])
        raw, distinct, stats = self.count_search(engine)
        return CountResult(raw, distinct, time.perf_counter() - began, stats)

    # -- naming and drawing (python-chess style) -------------------------------------------
    def __repr__(self) -> str:
        """``PolyominoPuzzle('pentomino-6x10')``; a batch's board adds ``board='grid01'``."""
        board = getattr(self, "board_name", None)
        extra = f", board={board!r}" if board else ""
        return f"{type(self).__name__}({self.name!r}{extra})"

    def __str__(self) -> str:
        """The puzzle drawn as text: its board and its pieces (or cards, or board size)."""
        from puzzlebox.render.text import describe

        return "\n".join(describe(self))

    def svg(self) -> str:
        """The empty board and the pieces as SVG text (needs the 'pictures' extra)."""
        from puzzlebox.render.drawing import picture

        return picture(self, None, "svg").decode("utf-8")

    def png(self) -> bytes:
        """The empty board and the pieces as PNG bytes (needs the 'pictures' extra)."""
        from puzzlebox.render.drawing import picture

        return picture(self, None, "png")
