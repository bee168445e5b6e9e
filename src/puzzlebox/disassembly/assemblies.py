"""Disassembling the solutions of a puzzle: from placements to pieces that slide.

A solution of a polyomino puzzle is an assembly: each placement is a piece's cells. Pieces
slide along the lattice's axes, which exist where a cell's neighbours are the unit steps
along its coordinates (the square lattice in its plane, the cube lattice in space), or
along the steps a lattice names itself (``Lattice.slide_steps``: the 26 cube axes, face
and body diagonals of the rhombic and sphere lattices, the prism lattice's
layers and the triangle lattice's three directions, #37); on the other lattices the question
is refused in one line.

Every door takes assemblies apart under the run layer's limits (``puzzlebox.run.Limits``:
its time and memory), the same rule for the command line, the library and the page:
:func:`take_apart` finds the assemblies through a run held to those limits and takes each
apart before one deadline, the whole command's; :func:`disassemble_solution` takes
``limits`` for one assembly.
"""

from __future__ import annotations

import weakref
from array import array
from collections.abc import Callable, Collection, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from functools import partial
from types import ModuleType
from typing import TYPE_CHECKING, Any, Protocol, TypeVar, cast

from puzzlebox.disassembly.image import burrtools_image
from puzzlebox.disassembly.search import (
    DEFAULT_MAX_STATES,
    Deadline,
    Separation,
    Shapes,
    disassemble,
    disassemble_shaped,
    native_search,
    sliding_axes,
)
from puzzlebox.errors import PuzzleboxError
from puzzlebox.geometry import Cell, Lattice
from puzzlebox.puzzles.polyomino import Placement, PolyominoPuzzle, PolyominoSolution

if TYPE_CHECKING:  # loaded where a search needs it: a take-apart in C needs none
    import numpy as np


class CannotDisassemble(PuzzleboxError):
    """A puzzle whose pieces do not slide along axes (another kind, another lattice)."""


class HeldTo(Protocol):
    """What a take-apart is held to: ``puzzlebox.run.Limits`` (a layer up) is one.
    ``time``: seconds (None: none); ``memory``: bytes (None: the default, 2 GB)."""

    @property
    def time(self) -> float | None: ...

    @property
    def memory(self) -> int | None: ...


@dataclass(frozen=True)
class Rules:
    """What may stay put and together: pieces named ``fixed`` never move (a box, a frame);
    the pieces of each of ``groups`` (by name) may stay together."""

    fixed: frozenset[str] = frozenset()
    groups: tuple[frozenset[str], ...] = ()
    thorough: bool = False
    max_states: int = DEFAULT_MAX_STATES
    max_seconds: float | None = None


@dataclass(frozen=True)
class Disassembled:
    """One assembly and how it comes apart (``separation`` None: it does not)."""

    solution: PolyominoSolution
    names: tuple[str, ...]  # the piece of each placement, in the order the moves number them
    separation: Separation | None
    placements: tuple[Placement, ...] = field(default=())  # in the order of ``names``

    @property
    def level(self) -> str | None:
        return None if self.separation is None else self.separation.level


def check_slides(puzzle: object, label: str) -> int:
    """The sliding axes of the puzzle (3 for a lattice with steps of its own), or a
    one-line refusal."""
    if not getattr(puzzle, "slides_apart", False):  # Puzzle.slides_apart: a kind says so
        raise CannotDisassemble(f"{label}: only pieces packed on a board can be taken apart")
    shared = _SHARED.get(cast(PolyominoPuzzle, puzzle))
    if shared is not None:  # worked out before, for the puzzle's first assembly
        return shared.dims
    lattice = cast(PolyominoPuzzle, puzzle).lattice
    if lattice.slide_steps() is not None:
        return lattice.dimensions
    dims = sliding_axes(lattice)
    if dims is None:
        raise CannotDisassemble(
            f"{label}: pieces slide along the axes of square and cube cells, the steps of "
            f"rhombic and sphere cells and the edges of triangular prisms only; this "
            f"puzzle's {lattice.cell_word}s have other neighbours")
    return dims


# what a cell sweeps on a step, in the search's x y z, per lattice: the same board cells
# and steps come back in every assembly of a puzzle (HexSticks: 33 assemblies, 2,256 cells
# and 26 steps), so each is asked of the lattice once
_SWEPT: dict[tuple[str, tuple[int, int, int], tuple[int, int, int]],
             list[tuple[int, int, int]]] = {}
_SWEPT_KEPT = 400_000  # entries (a few hundred bytes each): cleared past this


def slides_of(lattice: Lattice) -> tuple[list[tuple[int, int, int]], Any] | None:
    """A lattice's own steps and what a cell sweeps on one, in the search's x y z (the
    lattice's (layer, row, col) reversed, as :func:`_spaced` writes cells), or None where
    pieces slide along the axes (the compiled searches' case)."""
    steps = lattice.slide_steps()
    if steps is None:
        return None
    name = lattice.name

    def swept(cell: tuple[int, int, int], step: tuple[int, int, int]
              ) -> list[tuple[int, int, int]]:
        key = (name, cell, step)
        found = _SWEPT.get(key)
        if found is None:
            if len(_SWEPT) >= _SWEPT_KEPT:
                _SWEPT.clear()
            found = [(u[2], u[1], u[0]) for u in lattice.swept(cell[::-1], step[::-1])]
            _SWEPT[key] = found
        return found

    return [(s[2], s[1], s[0]) for s in steps], swept


def _spaced(cells: Sequence[Cell], dims: int) -> np.ndarray:
    """A placement's cells as rows of (x, y, z) for the search: x the column, y the row, z
    the layer (as the BurrTools importer maps voxels), so that moves are tried along x, then
    y, then z."""
    import numpy as np

    grid = np.array(cells, dtype=np.int64)
    if dims == 2:
        return np.column_stack([grid[:, 1], grid[:, 0], np.zeros(len(grid), dtype=np.int64)])
    return np.ascontiguousarray(grid[:, ::-1])


def _spaced_flat(cells: Sequence[Cell], dims: int) -> array[int]:
    """:func:`_spaced` as an ``array('q')`` of x y z one cell after another (the same
    bytes): the C search takes it, and no numpy is loaded for it."""
    if dims == 2:
        return array("q", [c for row, col in cells for c in (col, row, 0)])
    return array("q", [c for layer, row, col in cells for c in (col, row, layer)])


@dataclass(frozen=True)
class Arranged:
    """A solution as :func:`~puzzlebox.disassembly.search.disassemble` takes it: placements
    in the puzzle's order of pieces (as BurrTools numbers them), each piece's cells as x y z
    rows, and the numbers of the fixed pieces and of each group's pieces."""

    placements: tuple[Placement, ...]
    pieces: list[np.ndarray]
    fixed: list[int]
    groups: list[list[int]]

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(p.piece for p in self.placements)


# One book of shapes a process for each number of axes, shared by the take-aparts of every
# puzzle taken apart in it: a shape's distances past another depend on the two shapes and
# their offset alone, whichever puzzle they come from. So a design search's worker, which
# tries design after design made of the same pool pieces (#34), and the page's processes,
# find each distance worked out before; the book stays under its memory bound (and begins
# again past it) as one puzzle's does.
_BOOKS: dict[int, Shapes] = {}


def shared_book(dims: int) -> Shapes:
    """This process's book of shapes for pieces that slide along ``dims`` axes."""
    found = _BOOKS.get(dims)
    if found is None:
        found = _BOOKS[dims] = Shapes(dims)
    return found


class _Shared:
    """What the take-aparts of one puzzle share: the order of its pieces, each placement's
    cells as the search takes them, and the book of shapes (:class:`Shapes`, the process's
    own: :func:`shared_book`)."""

    def __init__(self, puzzle: PolyominoPuzzle, dims: int) -> None:
        self.dims = dims
        self.rank = {piece.name: k for k, piece in enumerate(puzzle.pieces)}
        self.spaced: dict[tuple[Cell, ...], np.ndarray] = {}
        self.by_id: dict[int, tuple[tuple[Cell, ...], np.ndarray]] = {}
        self.shapes = shared_book(dims)
        # a placement's cells (the solver's own tuple, by identity): the tuple, its place
        # in the puzzle's order, its cells for the C search, its shape and low corner in
        # the book and the book's generation then
        self.records: dict[int, tuple[tuple[Cell, ...], tuple[int, tuple[Cell, ...]],
                                      array[int], tuple[int, int, int, int] | None, int]] = {}
        self.flat: dict[tuple[Cell, ...], array[int]] = {}

    def record(self, placement: Placement, native: ModuleType
               ) -> tuple[tuple[Cell, ...], tuple[int, tuple[Cell, ...]], array[int],
                          tuple[int, int, int, int] | None, int]:
        """What a take-apart asks of a placement, worked out once (see ``records``)."""
        cells = placement.cells
        found = self.records.get(id(cells))
        if found is not None and found[0] is cells and found[4] == self.shapes.generation:
            return found
        rows = self.flat.get(cells)
        if rows is None:
            rows = self.flat[cells] = _spaced_flat(cells, self.dims)
        generation = self.shapes.generation
        found = (cells, (self.rank[placement.piece], cells), rows,
                 self.shapes.place(native, rows), generation)
        if len(self.records) > 4 * len(self.flat) + 4096:  # new tuples each time: again
            self.records.clear()
        self.records[id(cells)] = found  # it holds the tuple: the id stays its own
        return found

    def cells(self, placement: Placement) -> np.ndarray:
        """The placement's cells as rows of x y z, one array per placement (the book of
        shapes knows it again by itself)."""
        seen = self.by_id.get(id(placement.cells))
        if seen is not None and seen[0] is placement.cells:  # the solver's own tuple again
            return seen[1]
        found = self.spaced.get(placement.cells)
        if found is None:
            found = self.spaced[placement.cells] = _spaced(placement.cells, self.dims)
        if len(self.by_id) > 4 * len(self.spaced) + 4096:  # new tuples each time: again
            self.by_id.clear()
        self.by_id[id(placement.cells)] = (placement.cells, found)  # held: its id stays
        return found


# each puzzle's shared part, for as long as the puzzle lives (a worker of a split keeps its
# puzzle from one batch to the next, and so its book)
_SHARED: weakref.WeakKeyDictionary[PolyominoPuzzle, _Shared] = weakref.WeakKeyDictionary()


def _shared(puzzle: PolyominoPuzzle, dims: int) -> _Shared:
    found = _SHARED.get(puzzle)
    if found is None or found.dims != dims:
        found = _SHARED[puzzle] = _Shared(puzzle, dims)
    return found


def arrange(puzzle: PolyominoPuzzle, solution: PolyominoSolution, dims: int,
            fixed: Collection[str] = (), groups: Sequence[Collection[str]] = ()) -> Arranged:
    """``solution``'s pieces numbered for the search, ``fixed`` and ``groups`` by name."""
    shared = _shared(puzzle, dims)
    rank = shared.rank
    placements = tuple(sorted(solution.placements, key=lambda p: (rank[p.piece], p.cells)))
    names = [p.piece for p in placements]
    return Arranged(placements, [shared.cells(p) for p in placements],
                    [k for k, name in enumerate(names) if name in fixed],
                    [[k for k, name in enumerate(names) if name in group] for group in groups])


def in_order(puzzle: PolyominoPuzzle, solution: PolyominoSolution, dims: int
             ) -> tuple[Placement, ...]:
    """``solution``'s placements in the order :func:`arrange` numbers them (the puzzle's
    order of pieces, then their cells), without the cells the search takes: what a split
    take-apart's client needs to give a result out. The placements of one piece share no
    cell, so their first cells decide."""
    rank = _shared(puzzle, dims).rank
    return tuple(sorted(solution.placements, key=lambda p: (rank[p.piece], p.cells[:1])))


def disassemble_solution(puzzle: PolyominoPuzzle, solution: PolyominoSolution,
                         rules: Rules = Rules(), label: str = "assembly",
                         limits: HeldTo | None = None,
                         deadline: Deadline | None = None) -> Disassembled:
    """How one solution comes apart under ``rules``, held to ``limits`` (a
    ``puzzlebox.run.Limits``: ``time`` seconds from now, then ``OutOfTime``; ``memory``
    bytes, 2 GB when None, then ``OverMemory``) and to ``deadline`` (one that began before:
    a whole command's), whichever comes first; ``rules.max_states`` positions, then
    ``DisassemblyTooBig``.

    An assembly that comes apart is taken apart again as the image of it that BurrTools'
    assembler keeps, where that is another (``disassembly/image.py``): whether it comes
    apart is the same in every image, the level may not be, and this way it is
    ``burrTxt -d``'s. The answer's placements are then that image's."""
    dims = check_slides(puzzle, label)
    if limits is not None and limits.time is not None:
        deadline = Deadline.sooner(deadline, Deadline.after(limits.time))
    done = _as_placed(puzzle, solution, rules, label, limits, deadline, dims)
    if done.separation is None:
        return done
    image = burrtools_image(puzzle, solution)
    if image is solution:
        return done
    return _as_placed(puzzle, image, rules, label, limits, deadline, dims)


def _as_placed(puzzle: PolyominoPuzzle, solution: PolyominoSolution, rules: Rules,
               label: str, limits: HeldTo | None, deadline: Deadline | None, dims: int
               ) -> Disassembled:
    """:func:`disassemble_solution` of ``solution`` as it is placed."""
    if rules.max_seconds is not None:
        deadline = Deadline.sooner(deadline, Deadline.after(rules.max_seconds))
    memory = None if limits is None else limits.memory
    slides = slides_of(puzzle.lattice)
    native = native_search() if slides is None else None  # the C search knows the axes only
    if native is not None and not rules.thorough and \
            len(solution.placements) <= native.MAX_PIECES:
        return _quickly(puzzle, solution, dims, native, rules, label, deadline, memory)
    arranged = arrange(puzzle, solution, dims, rules.fixed, rules.groups)
    if slides is not None:  # a lattice's own steps (#37): the Python step, no shared book
        separation = disassemble(arranged.pieces, dims=dims, fixed=arranged.fixed,
                                 groups=arranged.groups, thorough=rules.thorough,
                                 max_states=rules.max_states, label=label, deadline=deadline,
                                 max_memory=memory, slides=slides)
        return Disassembled(solution, arranged.names, separation, arranged.placements)
    shapes = _shared(puzzle, dims).shapes
    if rules.thorough:
        separation = disassemble(arranged.pieces, dims=dims, fixed=arranged.fixed,
                                 groups=arranged.groups, thorough=True,
                                 max_states=rules.max_states, label=label, deadline=deadline,
                                 max_memory=memory, shapes=shapes)
    else:
        separation = disassemble_shaped(arranged.pieces, shapes, dims=dims,
                                        fixed=arranged.fixed, groups=arranged.groups,
                                        max_states=rules.max_states, label=label,
                                        deadline=deadline, max_memory=memory)
    return Disassembled(solution, arranged.names, separation, arranged.placements)


def _quickly(puzzle: PolyominoPuzzle, solution: PolyominoSolution, dims: int,
             native: ModuleType, rules: Rules, label: str, deadline: Deadline | None,
             memory: int | None) -> Disassembled:
    """:func:`disassemble_solution` with the C search (not thorough): what it asks of each
    placement kept from the assemblies before (:meth:`_Shared.record`), the same answer."""
    shared = _shared(puzzle, dims)
    got = sorted(((shared.record(p, native), p) for p in solution.placements),
                 key=lambda rp: rp[0][1])
    placements = tuple(p for _, p in got)
    names = tuple(p.piece for p in placements)
    fixed = [k for k, name in enumerate(names) if name in rules.fixed] if rules.fixed else []
    groups = [[k for k, name in enumerate(names) if name in group] for group in rules.groups]
    placed = [r[3] for r, _ in got]
    separation = disassemble_shaped(
        [r[2] for r, _ in got], shared.shapes, dims=dims, fixed=fixed, groups=groups,
        max_states=rules.max_states, label=label, deadline=deadline, max_memory=memory,
        placed=None if None in placed else placed, native=native)
    return Disassembled(solution, names, separation, placements)


T = TypeVar("T")


def _here(work: Callable[[], T]) -> T:
    return work()


def _in_turn(works: list[Callable[[], Disassembled]]
             ) -> tuple[list[Disassembled], Exception | None]:
    """Each work in turn, up to the first that fails: what they gave, and its error."""
    done: list[Disassembled] = []
    for work in works:
        try:
            done.append(work())
        except Exception as error:  # handed back with what came before it
            return done, error
    return done, None


def take_apart(puzzle: PolyominoPuzzle, rules: Rules = Rules(),
               limits: HeldTo | None = None, engine: str = "auto",
               on: Callable[[Callable[[], Any]], Any] = _here, batch: int = 1
               ) -> Iterator[Disassembled]:  # fmt: skip
    """Each assembly of ``puzzle`` (its solutions up to symmetry, found through a run held
    to ``limits``: ``puzzle.distinct_solutions(limits=limits)``), taken apart in turn under
    ``rules``, all of it before the one deadline of ``limits.time`` seconds from the first
    step: past it, ``OutOfTime`` (from the search for assemblies or from a take-apart),
    with the words of every other time limit; past ``limits.memory`` (2 GB when None),
    ``OverMemory``. ``limits`` None: the run's defaults (a hopeless search for assemblies
    refused, 2 GB). ``on(work)`` runs the take-aparts (the command line: on a thread of its
    own), ``batch`` at most at a time: 1, then twice as many each time up to ``batch``, so
    that a thread is handed work less often (0.014 ms a handing) while a caller that stops
    early has at most a batch taken apart for nothing. The answers and their order are the
    same whatever the batch; an error of the search for assemblies comes after the
    assemblies found before it, an error of a take-apart after those before it."""
    check_slides(puzzle, puzzle.name)
    deadline = None if limits is None or limits.time is None else Deadline.after(limits.time)
    run: dict[str, Any] = {} if limits is None else {"limits": limits}
    found = iter(puzzle.distinct_solutions(engine=engine, **run))
    number, size = 0, 1
    while True:
        works: list[Callable[[], Disassembled]] = []
        stopped: Exception | None = None
        try:
            for solution in found:
                number += 1
                works.append(partial(disassemble_solution, puzzle,
                                     cast(PolyominoSolution, solution), rules,
                                     f"{puzzle.name}: assembly {number}", limits, deadline))
                if len(works) >= size:
                    break
        except Exception as error:  # the search met a limit: its assemblies come first
            stopped = error
        if works:
            done, failed = cast(tuple[list[Disassembled], Exception | None],
                                on(partial(_in_turn, works)))
            yield from done
            if failed is not None:
                raise failed
        if stopped is not None:
            raise stopped
        if len(works) < size:
            return
        size = min(2 * size, max(batch, 1))


def disassemble_all(puzzle: PolyominoPuzzle, solutions: Iterable[PolyominoSolution],
                    rules: Rules = Rules(), label: str = "assembly") -> Iterator[Disassembled]:
    """Each solution, disassembled in turn."""
    check_slides(puzzle, label)
    for number, solution in enumerate(solutions, 1):
        yield disassemble_solution(puzzle, solution, rules, f"{label}: assembly {number}")


def level_key(level: str) -> tuple[int, ...]:
    """Levels compare number by number (BurrTools: higher first)."""
    return tuple(int(part) for part in level.split("."))


def group_names(groups: Sequence[Collection[str]]) -> tuple[frozenset[str], ...]:
    return tuple(frozenset(g) for g in groups)
