"""The Kind interface: what every puzzle kind provides, and what is the same for all.

A kind is one module with one class, registered once by :func:`register_kind`. It
compiles itself to a :class:`CoverProblem` (:meth:`Puzzle.build_problem`), decodes engine
answers back into placements (:meth:`Puzzle.decode`, and back: :meth:`Puzzle.option_labels`),
gives the symmetries of the whole puzzle in one form, permutations of its options
(:meth:`Puzzle.build_symmetries`: distinct counts, canonical forms and board maps all come
from them), proves impossibility where it can (:meth:`Puzzle.proofs`), names itself
(:attr:`Puzzle.label`) and draws itself as text and as a picture, by calling the pure
functions of render/ for its kind. Nothing outside a kind's module asks which kind a
puzzle is.
"""

from __future__ import annotations

import time
from abc import ABC, abstractmethod
from collections.abc import Hashable, Iterator, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from typing import TYPE_CHECKING, Any, ClassVar, TypeVar

import numpy as np

from puzzlebox.cover.problem import CoverProblem
from puzzlebox.engine.errors import EngineError
from puzzlebox.engine.memo import Progress, SweepPlan
from puzzlebox.engine.registry import AUTO, resolve
from puzzlebox.engine.search import Capability, Job, Mode, OnStep, Search, count_all, each_solution
from puzzlebox.engine.stats import SearchStats
from puzzlebox.puzzles.proofs import Proof

if TYPE_CHECKING:
    from puzzlebox.cover.symmetry import SymmetryBreaking
    from puzzlebox.render.pictures import Panel


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


@dataclass
class CountResult:
    """The outcome of a full count: raw and distinct solutions, and how it was obtained."""

    solutions: int
    distinct: int
    seconds: float
    stats: SearchStats = field(default_factory=SearchStats)
    reason: str | None = None  # why there is no solution, when it was proved without search


class Puzzle(ABC):
    """A puzzle of one kind: its data, its cover problem, its symmetries and its drawings."""

    kind: ClassVar[str]
    # whether the page's grid editor (web/model.py) draws it: a board and pieces of cells
    grid_editable: ClassVar[bool] = False
    board_name: str | None = None  # the board's name within a batch file, else None

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
    def option_labels(self, solution: Solution) -> list[Hashable]:
        """The labels (``problem.labels``) of the options a solution is made of: the inverse
        of :meth:`decode`."""

    @abstractmethod
    def build_symmetries(self) -> np.ndarray:
        """The symmetry group of the whole puzzle as permutations of the options of
        ``problem``, one row each, identity first (cover/symmetry.py helps build them)."""

    def proofs(self) -> Iterator[Proof]:
        """Every proof that there is no solution found without search, cheapest first."""
        return iter(())

    @abstractmethod
    def text_lines(self, solution: Solution, style: str = "text") -> list[str]:
        """A solution drawn as lines of text (``style``: "text", or a kind's own)."""

    @abstractmethod
    def describe_lines(self) -> list[str]:
        """The puzzle itself as lines of text: its board and pieces (or what stands for them)."""

    @abstractmethod
    def solution_panel(self, solution: Solution, title: str) -> Panel:
        """A solution as one picture panel (render/pictures.py; needs matplotlib to paint)."""

    @abstractmethod
    def puzzle_panels(self, title: str) -> tuple[Panel, list[Panel]]:
        """The empty board as a panel, and one panel per piece (or card; maybe none)."""

    def cover_entries_bound(self) -> int | None:
        """An upper bound on the entries of ``build_problem()`` (what every option lists),
        computed without building it, so that a problem too big to build is refused first
        (budget.py); None: the kind gives no bound."""
        return None

    def log_solutions_lower_bound(self) -> float | None:
        """The natural logarithm of a lower bound on the number of solutions (as placed),
        computed without building the problem, where the kind can prove one cheaply (it
        must know that a solution exists); None: none. The time rule (budget.py) refuses a
        count or an enumeration that this bound alone shows hopeless, before the problem
        is built: building a big one costs seconds to minutes."""
        return None

    def text_owners(self, solution: Solution) -> list[list[int | None]] | None:
        """For each character of ``text_lines(solution)``, the number of the placement it
        shows (None for none), so that a terminal can colour pieces; None: not offered."""
        return None

    # -- shared behaviour ------------------------------------------------------------------
    @property
    def label(self) -> str:
        """How messages name this puzzle: its name, and its board's within a batch."""
        return f"{self.name} {self.board_name}" if self.board_name else self.name

    def impossibility(self) -> str | None:
        """A sentence proving there is no solution, when that is cheap to see, else None."""
        proof = next(self.proofs(), None)
        return None if proof is None else proof.sentence

    @cached_property
    def problem(self) -> CoverProblem:
        """The cover problem, built once; one that could not fit is refused before it is
        built (:class:`puzzlebox.budget.TooBig`, from :meth:`cover_entries_bound`), so that
        every way in (the command line, ``count()``, ``solutions()``, this property) is
        guarded alike."""
        from puzzlebox.budget import check_cover_size

        check_cover_size(self, self.label)
        return self.build_problem()

    @property
    def symmetries(self) -> np.ndarray:
        """The puzzle's symmetry group as distinct permutations of its options (int64, one
        row each, identity first), checked to be a group that keeps the problem."""
        return self._group[0]

    @cached_property
    def _group(self) -> tuple[np.ndarray, np.ndarray]:
        """The option permutations and the item permutations derived from them."""
        from puzzlebox.cover.symmetry import SymmetryError, group_of

        try:
            return group_of(self.problem, self.build_symmetries())
        except SymmetryError as error:
            raise SymmetryError(f"{self.name}: {error}") from None

    def symmetry_pairs(self) -> list[tuple[list[int], list[int]]]:
        """The non-identity symmetries as (item permutation, option permutation) pairs:
        the item maps (board maps) are derived from the option permutations."""
        options, items = self._group
        return list(zip(items[1:].tolist(), options[1:].tolist()))

    def encode(self, solution: Solution) -> tuple[int, ...]:
        """The sorted option numbers of a solution (the inverse of :meth:`decode`)."""
        index = self._label_index
        return tuple(sorted(index[label] for label in self.option_labels(solution)))

    @cached_property
    def _label_index(self) -> dict[Hashable, int]:
        return {label: k for k, label in enumerate(self.problem.labels)}

    def canonical_key(self, solution: Solution) -> tuple[Hashable, ...]:
        """The smallest key in the solution's orbit under the puzzle's symmetries."""
        chosen = list(self.encode(solution))
        images = np.sort(self.symmetries[:, chosen], axis=1).tolist()
        return min(self.decode(tuple(row)).key() for row in images)

    @cached_property
    def symmetry_breaking(self) -> SymmetryBreaking:
        """The problem cut down by the puzzle's symmetries (see cover/symmetry.py)."""
        from puzzlebox.cover.symmetry import SymmetryBreaking

        return SymmetryBreaking(self.problem, self.symmetries)

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
        max_memory: int | None = None,
    ) -> Iterator[Solution]:
        """Yield solutions lazily (none at all when impossibility() proves there are none),
        from the engine named (``auto``: the registry's choice, engine/registry.py), which
        may hold ``max_memory`` bytes (budget.py's default when None).
        ``stats``, when given, follows the search's statistics (for ``--why``); ``on_step``
        sees them after every step of the search (a progress display)."""
        if engine == AUTO and self.impossibility() is not None:
            return  # #28: a proof that needs no placements runs before they are built
        job = Job(self.problem, Mode.SOLUTIONS, limit=limit, seed=seed, puzzle=self,
                  max_memory=max_memory)  # fmt: skip
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
        from puzzlebox.engine.parts import representatives

        for chosen in representatives(self.symmetry_breaking, engine, limit, stats, on_step):
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
        solutions itself (memo, by sweeping) does it alone, any other runs the parts of the
        symmetry breaking (engine/parts.py); every engine is held to ``max_memory`` bytes
        (budget.py's default when None), or refuses with :class:`puzzlebox.budget.TooBig`.
        ``on_step`` sees the stats after every step (budget.CountWatch, as such, holds a
        count to the time rule); ``progress(done, total)`` the share walked, when the
        engine can tell (a memo sweep's bar).
        """
        began = time.perf_counter()
        reason = self.impossibility() if engine == AUTO else None  # #28: before building
        if reason is not None:
            return CountResult(0, 0, time.perf_counter() - began, SearchStats(), reason)
        job = Job(self.problem, Mode.COUNT, puzzle=self, max_memory=max_memory)
        spec = resolve(job, engine)
        reason = self.impossibility()
        if reason is not None:
            return CountResult(0, 0, time.perf_counter() - began, SearchStats(), reason)
        if spec.does(Capability.DISTINCT):
            search: Search = spec.start(job)
        else:
            from puzzlebox.engine.parts import count_puzzle_search

            search = count_puzzle_search(self, engine, max_memory=max_memory)

        def report(stats: SearchStats) -> None:
            if on_step is not None:
                on_step(stats)
            if progress is not None and stats.walked is not None:
                progress(round(stats.walked * _PROGRESS_STEPS), _PROGRESS_STEPS)

        raw, distinct = count_all(search, on_step=report)
        if distinct is None:
            raise EngineError(f"the {spec.name} engine gave no distinct count")
        return CountResult(raw, distinct, time.perf_counter() - began, search.stats)

    # -- naming and drawing (python-chess style) -------------------------------------------
    def __repr__(self) -> str:
        """``PolyominoPuzzle('pentomino-6x10')``; a batch's board adds ``board='grid01'``."""
        extra = f", board={self.board_name!r}" if self.board_name else ""
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


_PROGRESS_STEPS = 10_000  # the resolution of progress(done, total) from a share walked


# -- the registry of kinds ------------------------------------------------------------------
KINDS: dict[str, type[Puzzle]] = {}
K = TypeVar("K", bound=type[Puzzle])


def register_kind(cls: K) -> K:
    """Register a kind under its ``kind`` name, once (a class decorator)."""
    if cls.kind in KINDS:
        raise ValueError(f"puzzle kind {cls.kind!r} is registered twice")
    KINDS[cls.kind] = cls
    return cls
