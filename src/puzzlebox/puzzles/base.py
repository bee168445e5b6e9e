"""The Kind interface: what every puzzle kind provides, and what is the same for all.

A kind is one package under puzzles/ whose class is registered once by
:func:`register_kind`. It reads its part of a puzzle file (:meth:`Puzzle.read`), compiles
itself to a :class:`CoverProblem` (:meth:`Puzzle.build_problem`), decodes engine answers
back into placements (:meth:`Puzzle.decode`, and back: :meth:`Puzzle.option_labels`),
gives the symmetries of the whole puzzle in one form, permutations of its options
(:meth:`Puzzle.build_symmetries`: distinct counts, canonical forms and board maps all come
from them), proves impossibility where it can (:meth:`Puzzle.proofs`), names itself
(:attr:`Puzzle.label`) and draws itself as text and as a picture with its own text and
pictures modules, built on render/'s helpers. Nothing outside a kind's package asks which
kind a puzzle is: what differs is asked of these methods and flags (``grid_editable``,
``sweepable``, :meth:`Puzzle.pieces_to_make`).
"""

from __future__ import annotations

import importlib
import json
from abc import ABC, abstractmethod
from collections.abc import Hashable, Iterator, Mapping, Sequence
from functools import cached_property
from typing import TYPE_CHECKING, Any, ClassVar, Protocol, TypeVar

from puzzlebox.engine.memory import check_cover_size
from puzzlebox.engine.registry import AUTO
from puzzlebox.engine.search import OnStep, count_all
from puzzlebox.engine.stats import SearchStats
from puzzlebox.puzzles.proofs import Proof
from puzzlebox.puzzles.reading import FileReader
from puzzlebox.render.json_out import solution_json
from puzzlebox.render.notebook import svg_of
from puzzlebox.render.text import describe, solution_lines
from puzzlebox.reports import CountResult

# numpy, the cover problem and the engines are imported where a puzzle is compiled or
# searched, not here: reading and showing a puzzle loads none of them (issue #23)
if TYPE_CHECKING:
    from puzzlebox.cover.problem import CoverProblem
    from puzzlebox.cover.symmetry import Perms, SymmetryBreaking
    from puzzlebox.engine.memo import Progress, SweepPlan
    from puzzlebox.render.pictures import Panel


# The name of the one search that is not a complete cover engine: sink and exact finish, one
# tiling of a polyomino board by local search (puzzles/polyomino/repair_tiling.py), registered by
# the polyomino kind.
SINK = "sink"


class Solution(ABC):
    """A decoded solution: a list of placements in the puzzle's own words.

    ``print(solution)`` draws it (``str``: the text drawing, ending in a blank line, so that
    solutions printed in a loop stand apart); ``solution.placements`` is the data (each
    piece and its cells, each card and its place and turns, each queen's square),
    ``solution.to_json()`` the ``--json`` line, ``svg()``/``png()`` the picture."""

    @abstractmethod
    def placements_json(self) -> list[dict[str, Any]]:
        """The placements as the ``--json`` contract writes them, as Python lists and dicts
        (internal: :meth:`to_json` is the JSON text, ``placements`` the typed data)."""

    def to_json(self) -> str:
        """The solution as one line of JSON, as ``solve --json`` writes it: ``{"puzzle",
        ["board"], ["lattice"], "placements"}`` (just ``placements`` when the solution does not
        know its puzzle)."""
        puzzle = getattr(self, "puzzle", None)
        if puzzle is None:
            return json.dumps({"placements": self.placements_json()})

        return solution_json(puzzle, self)

    def __dir__(self) -> list[str]:
        """What a user reaches for (tab completion): the data, the drawings, the JSON."""
        data = [name for name in vars(self) if not name.startswith("_")]
        return sorted({*data, "key", "placements", "png", "svg", "to_json"})

    @abstractmethod
    def key(self) -> tuple[Hashable, ...]:
        """A sortable value equal for equal solutions (copies of a piece are interchangeable)."""

    # A solution from Puzzle.solutions() knows its puzzle (attribute ``puzzle``), so that it
    # can draw itself in a notebook; the puzzle is no part of its value or its pickle.
    def _repr_svg_(self) -> str | None:
        return svg_of(getattr(self, "puzzle", None), self)

    def __getstate__(self) -> dict[str, Any]:
        return {k: v for k, v in self.__dict__.items() if k != "puzzle"}

    # -- drawing (python-chess style: str() is the text drawing, svg()/png() the picture) --
    def __str__(self) -> str:
        """The text drawing (letters, cards, queens) and a blank line, so that ``print`` in
        a loop keeps the drawings apart; the placements when the solution does not know its
        puzzle (made by hand rather than yielded by ``Puzzle.solutions``)."""
        puzzle = getattr(self, "puzzle", None)
        if puzzle is None:
            return repr(self)

        return "\n".join(solution_lines(puzzle, self)) + "\n"

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


class Puzzle(ABC):
    """A puzzle of one kind: its data, its cover problem, its symmetries and its drawings."""

    kind: ClassVar[str]
    # whether the page's grid editor (web/model.py) draws it: a board and pieces of cells
    grid_editable: ClassVar[bool] = False
    # whether it is a board of cells that a sweep may leave uncovered (puzzles/sweep.py)
    sweepable: ClassVar[bool] = False
    # pieces packed on a board, whose solutions can be taken apart by sliding (#24)
    slides_apart: ClassVar[bool] = False
    board_name: str | None = None  # the board's name within a batch file, else None

    def __init__(self, name: str, title: str = "", notes: str = "") -> None:
        self.name = name
        self.title = title
        self.notes = notes

    # -- what each kind implements ---------------------------------------------------------
    @classmethod
    @abstractmethod
    def read(cls, r: FileReader, doc: dict[str, Any], name: str, title: str, notes: str
             ) -> list[Puzzle]:
        """The kind's reader: the puzzles of a parsed file ``doc`` (several for a batch of
        boards, each with its ``board_name``), every value checked through ``r``, which
        names the file and the line of anything wrong (formats/reader.py calls it)."""

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
    def build_symmetries(self) -> Perms:
        """The symmetry group of the whole puzzle as permutations of the options of
        ``problem``, one row each, identity first (cover/symmetry.py helps build them): a
        numpy array, or rows of ``array('q')`` for the plain path (cover/symmetry.py's
        ``Perms``)."""

    def proofs(self) -> Iterator[Proof]:
        """Every proof that there is no solution found without search, cheapest first."""
        return iter(())

    def quick_proofs(self) -> Iterator[Proof]:
        """The proofs that build nothing (no placement, no cover problem): what a caller
        about to build the problem asks first (#28: a column of cubes built placements for
        13 s before the area proof). A kind whose every proof is cheap gives them all."""
        return self.proofs()

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

    def pieces_to_make(self) -> Sequence[Any] | None:
        """The pieces a person cuts or prints (render/sheet.py, render/stl.py), each with a
        ``name``, a ``shape`` (its ``cells``) and its count ``lo``..``hi``, on the puzzle's
        ``lattice``; None: the kind has no such pieces (cards, queens)."""
        return None

    def text_owners(self, solution: Solution) -> list[list[int | None]] | None:
        """For each character of ``text_lines(solution)``, the number of the placement it
        shows (None for none), so that a terminal can colour pieces; None: not offered."""
        return None

    def move_words(self, label: Hashable) -> str:
        """An option of the cover problem (``problem.labels``) in the puzzle's own words,
        as the page's watch of the search lists moves ("queen on d5", "card 6 at row 1,
        column 2, turned 90°"); the kind says it, nobody else asks which kind it is."""
        return str(label)

    def item_words(self, name: Hashable) -> str:
        """An item of the cover problem (``problem.item_names``) in the puzzle's words: what
        a level of the search branched on ("cell 2,3", "row 4")."""
        if isinstance(name, tuple):
            return " ".join(str(v) for v in name)
        return str(name)

    def drawn_ids(self, solution: Solution, labels: Sequence[Hashable]) -> list[str]:
        """The ids (after the panel's ``pN-``) of the SVG elements that draw the placements
        ``labels`` of ``solution`` in :meth:`solution_panel`, so that the page can mark the
        move just made on the board; an id also names the elements whose id starts with it
        and a dash. Empty: the kind marks nothing."""
        return []

    # -- shared behaviour ------------------------------------------------------------------
    @property
    def label(self) -> str:
        """How messages name this puzzle: its name, and its board's within a batch."""
        return f"{self.name} {self.board_name}" if self.board_name else self.name

    def impossibility(self, quick: bool = False) -> str | None:
        """A sentence proving there is no solution, when that is cheap to see, else None
        (``quick``: only from the proofs that build nothing, :meth:`quick_proofs`)."""
        proof = next(self.quick_proofs() if quick else self.proofs(), None)
        return None if proof is None else proof.sentence

    @cached_property
    def problem(self) -> CoverProblem:
        """The cover problem, built once; one that could not fit is refused before it is
        built (:class:`puzzlebox.engine.memory.TooBig`, from :meth:`cover_entries_bound`), so
        that every way in (the command line, ``count()``, ``solutions()``, this property) is
        guarded alike."""
        check_cover_size(self.cover_entries_bound(), self.label)
        return self.build_problem()

    @property
    def symmetries(self) -> Perms:
        """The puzzle's symmetry group as distinct permutations of its options (int64, one
        row each, identity first), checked to be a group that keeps the problem: a numpy
        array, or a list of ``array('q')`` rows when the kind built them on the plain path
        (cover/symmetry.py: ``Perms``, ``plain_path``; ``perm_lists`` reads either)."""
        return self._group[0]

    @cached_property
    def _group(self) -> tuple[Perms, Perms]:
        """The option permutations and the item permutations derived from them."""
        from puzzlebox.cover.symmetry import SymmetryError, group_of

        try:
            return group_of(self.problem, self.build_symmetries())
        except SymmetryError as error:
            raise SymmetryError(f"{self.name}: {error}") from None

    def _symmetry_pairs(self) -> list[tuple[list[int], list[int]]]:
        """The non-identity symmetries as (item permutation, option permutation) pairs:
        the item maps (board maps) are derived from the option permutations."""
        from puzzlebox.cover.symmetry import perm_lists

        options, items = self._group
        return list(zip(perm_lists(items)[1:], perm_lists(options)[1:]))

    def encode(self, solution: Solution) -> tuple[int, ...]:
        """The sorted option numbers of a solution (the inverse of :meth:`decode`)."""
        index = self.problem.label_index
        return tuple(sorted(index[label] for label in self.option_labels(solution)))

    def canonical_key(self, solution: Solution) -> tuple[Hashable, ...]:
        """The smallest key in the solution's orbit under the puzzle's symmetries."""
        from puzzlebox.cover.symmetry import images_of

        images = images_of(self.symmetries, self.encode(solution))
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
        **run: Any,
    ) -> Iterator[Solution]:
        """Yield solutions lazily (none at all when impossibility() proves there are none),
        from the engine named (``auto``: the run layer's choice), through one
        :class:`puzzlebox.run.Run`: the same rules as the command line's ``solve``. Every
        solution (``limit=None``) of a puzzle that would take more than a thousand years is
        refused with :class:`puzzlebox.run.Hopeless`; ``limits=None`` enumerates anyway,
        ``limits=Limits(time=60)`` for at most a minute. ``stats``, when given, follows the
        search's statistics; ``on_step`` sees them after every step, ``on_progress`` a
        :class:`puzzlebox.run.Progress` event now and then (``run``: the keywords of
        ``Run``: ``limits``, ``on_progress``, ``distinct``)."""
        return _runner().solutions(self, limit=limit, engine=engine, seed=seed, stats=stats,
                                   on_step=on_step, max_memory=max_memory, **run)

    def _repr_svg_(self) -> str | None:
        """The board and pieces, drawn, in a notebook."""
        return svg_of(self, None)

    def solve(self, engine: str = AUTO, **run: Any) -> Solution | None:
        """The first solution found, or None (``run``: as for :meth:`solutions`)."""
        return next(iter(self.solutions(limit=1, engine=engine, **run)), None)

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
        **run: Any,
    ) -> Iterator[Solution]:
        """One solution of each orbit under the puzzle's symmetries, lazily, from the
        search cut down by symmetry (``stats``, ``on_step`` and ``run`` as for
        :meth:`solutions`)."""
        return self.solutions(limit, engine, stats=stats, on_step=on_step, distinct=True,
                              **run)

    def count(
        self,
        engine: str = AUTO,
        max_memory: int | None = None,
        progress: Progress | None = None,
        on_step: OnStep | None = None,
        **run: Any,
    ) -> CountResult:
        """Count every solution as placed and up to symmetry, through one
        :class:`puzzlebox.run.Run`: the rules and words of the command line's ``count``.

        A count that Knuth's estimate (or the kind's lower bound) says would take more than
        a thousand years raises :class:`puzzlebox.run.Hopeless`, the line ``puzzlebox
        count`` prints; to count it anyway::

            puzzle.count(limits=None)                 # no time rule at all
            puzzle.count(limits=Limits(time=600))     # at most ten minutes, then OutOfTime

        Every engine is held to ``max_memory`` bytes (2 GB when None; ``TooBig`` past it).
        ``on_step`` sees the search's stats after every step, ``progress(done, total)`` the
        share walked where the engine tells it (a memo sweep's bar), ``on_progress`` a
        :class:`puzzlebox.run.Progress` event now and then (``run``: the keywords of
        ``Run``: ``limits``, ``on_progress``)."""
        return _runner().count(self, engine=engine, max_memory=max_memory, progress=progress,
                               on_step=on_step, **run)

    # -- what a user sees (python-chess style) ---------------------------------------------
    def __dir__(self) -> list[str]:
        """The user-facing names (tab completion, ``dir``): the puzzle's own data (board,
        pieces, cards, n...), its names, the searches and the drawings. The machinery that
        kinds, engines and the command line share (``build_problem``, ``decode``,
        ``cover_entries_bound``...) is still there, just not offered."""
        offered = (
            "name", "title", "notes", "kind", "label", "board_name",  # what it is called
            "solve", "solutions", "distinct_solutions", "count",  # searching
            "impossibility", "proofs",  # why there is no solution, without search
            "symmetries", "problem",  # its symmetry group and its exact cover problem
            "describe_lines", "text_lines", "svg", "png",  # drawings
        )
        cls = type(self)  # a cached property's value is in vars() too: not data of its own
        data = [n for n in vars(self) if not n.startswith("_") and not hasattr(cls, n)]
        return sorted({*data, *offered})

    # -- naming and drawing (python-chess style) -------------------------------------------
    def __repr__(self) -> str:
        """``PolyominoPuzzle('pentomino-6x10')``; a batch's board adds ``board='grid01'``."""
        extra = f", board={self.board_name!r}" if self.board_name else ""
        return f"{type(self).__name__}({self.name!r}{extra})"

    def __str__(self) -> str:
        """The puzzle drawn as text: its board and its pieces (or cards, or board size)."""
        return "\n".join(describe(self))

    def svg(self) -> str:
        """The empty board and the pieces as SVG text (needs the 'pictures' extra)."""
        from puzzlebox.render.drawing import picture

        return picture(self, None, "svg").decode("utf-8")

    def png(self) -> bytes:
        """The empty board and the pieces as PNG bytes (needs the 'pictures' extra)."""
        from puzzlebox.render.drawing import picture

        return picture(self, None, "png")


class Runner(Protocol):
    """The run layer's doors (puzzlebox/run: :class:`puzzlebox.run.Run` behind them), which
    it hands to :func:`use_runner` when it is imported: the kinds sit below the run layer
    and never import it, yet ``Puzzle.count()`` obeys the same rules as the command line."""

    def count(self, puzzle: Puzzle, **options: Any) -> CountResult: ...

    def solutions(self, puzzle: Puzzle, **options: Any) -> Iterator[Solution]: ...

    def split_engine(self, puzzle: Puzzle, kind: str, split: bool) -> Any:
        """The engine (an ``EngineSpec``) that "auto" runs a split run's subproblems with:
        the run layer's choice, for a ``SplitRun`` made without one (docs/cluster.md)."""
        ...


_RUNNERS: list[Runner] = []
# The run layer, found by name the first time a puzzle runs when nothing has loaded it yet
# (a plug-in point, as a registry of engines is one): no import statement of the kinds
# names a layer above them (tests/test_layers.py), yet ``catalog.load_file(...).count()`` obeys
# the same rules as the command line, however the puzzle was made.
RUN_LAYER = "puzzlebox.run"


def use_runner(runner: Runner) -> None:
    """Install the run layer's doors (called once, by ``puzzlebox.run`` when imported)."""
    _RUNNERS[:] = [runner]


def runner() -> Runner:
    """The run layer's doors, installed on first use (see :data:`RUN_LAYER`)."""
    return _runner()


def _runner() -> Runner:
    if not _RUNNERS:
        importlib.import_module(RUN_LAYER)  # installs its doors (use_runner)
    return _RUNNERS[0]


# -- the registry of kinds ------------------------------------------------------------------
K = TypeVar("K", bound=type[Puzzle])


class Kinds(Mapping[str, type[Puzzle]]):
    """Kind name -> class, each kind's package imported when its name is first looked up.

    A kind is declared by name with the module of its package (puzzles/__init__.py declares
    every kind), and its class is registered when that package is imported
    (:func:`register_kind`, at the top of the kind's model). Asking whether a kind exists or
    listing the names (the reader's error) imports nothing; ``KINDS[name]`` imports the
    kind's package. A polyomino command thus loads no other kind: the four others cost 6.6-10.2
    ms of CPU (measured: tests/test_layers.py, the end of KNOWN_LAZY), and ``count
    pentomino-6x10`` must stay under 1/20 of xcover's process (issue #23).
    """

    def __init__(self) -> None:
        self._packages: dict[str, str] = {}  # kind name -> its package's module, declared
        self._classes: dict[str, type[Puzzle]] = {}  # kind name -> class, once registered

    def declare(self, kind: str, package: str) -> None:
        """Name a kind whose class ``package`` (a module name) registers when imported."""
        if kind in self:
            raise ValueError(f"puzzle kind {kind!r} is declared twice")
        self._packages[kind] = package

    def register(self, cls: type[Puzzle]) -> None:
        """Register a kind's class: a declared kind once, or one never declared (a test's)."""
        if cls.kind in self._classes:
            raise ValueError(f"puzzle kind {cls.kind!r} is registered twice")
        self._classes[cls.kind] = cls

    def __getitem__(self, kind: str) -> type[Puzzle]:
        if kind not in self._classes and kind in self._packages:
            importlib.import_module(self._packages[kind])
            if kind not in self._classes:
                raise RuntimeError(f"{self._packages[kind]} did not register the kind {kind!r}")
        return self._classes[kind]

    def __delitem__(self, kind: str) -> None:
        """Forget a kind (a test's own kind, registered for the test)."""
        self._packages.pop(kind, None)
        del self._classes[kind]

    def __contains__(self, kind: object) -> bool:
        return kind in self._packages or kind in self._classes

    def __iter__(self) -> Iterator[str]:
        """The names, declared ones first (in their order), loading nothing."""
        return iter(dict.fromkeys([*self._packages, *self._classes]))

    def __len__(self) -> int:
        return len(self._packages.keys() | self._classes.keys())

    def loaded(self) -> list[str]:
        """The kinds whose class is registered (whose package has been imported)."""
        return list(self._classes)


KINDS = Kinds()


def register_kind(cls: K) -> K:
    """Register a kind under its ``kind`` name, once (a class decorator)."""
    KINDS.register(cls)
    return cls
