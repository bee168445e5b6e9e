"""Can an assembly come apart? A breadth-first search over the positions of its pieces.

The semantics follow BurrTools' disassembler (after Bill Cutler's analysis of six-piece
burrs), written afresh here:

* A **position** is the offset of every piece from where the assembly has it, counted up to
  a common translation (moving a group one way is moving the others the other way).
* A **move** slides a group of pieces ``k`` units along one lattice axis, the rest staying
  put, through free cells only; any ``k`` the group can reach counts as one move. Groups are
  the sets *closed* under blocking: when a piece of the group would run into a piece outside
  it within ``k`` units, that piece must move too.
* A **separation** is a move that takes a group away for ever (nothing blocks it along its
  axis). The search stops at the first position where one exists, so the number of moves to
  it, the removal included, is the fewest possible: the first number of the level.
* Each of the two parts is then taken apart the same way from where it was; a part of one
  piece, a part made only of fixed pieces (a box, a frame) or a part inside a declared group
  of pieces that may stay together needs nothing more. The assembly comes apart when every
  part does.
* The **level** (BurrTools' notation, e.g. ``98.2.4.2``) is the number of moves of the first
  separation, followed by the levels of the part left behind and then of the part removed,
  each written only where it holds a separation of more than one move.

BurrTools judges an assembly by the first separation its search meets. So does
:func:`disassemble` by default (``thorough=False``); with ``thorough=True`` the search goes
on past separations whose parts do not come apart, trying every separation of every
position that holds together, so it may find assemblies that come apart where BurrTools
says they do not (it then gives the moves that show it). It does not move on from a
position that already falls apart (its parts could drift for ever).

Three implementations give the same answers, position by position: the C extension
(_cdisasm.c, built at installation) runs the whole breadth-first search of a part, and the
step of thorough searches; where it is not built, numba's step (_kernel.py) runs under the
Python loop here; ``compiled=False`` runs the Python reference of the step, which the tests
compare the other two against.
"""

from __future__ import annotations

import time
from array import array
from collections.abc import Callable, Collection, Iterable, Sequence
from dataclasses import dataclass, field
from types import ModuleType
from typing import TYPE_CHECKING, Any, cast

from puzzlebox.disassembly.blocking import FREE, BlockingCache, Cell, Step, SweptBlockingCache
from puzzlebox.engine import kernel_choice
from puzzlebox.engine.memory import OutOfTime, OverMemory, memory_limit, size_text
from puzzlebox.errors import PuzzleboxError

if TYPE_CHECKING:  # numpy loads where a search needs it: the C search of an exact cover's
    import numpy as np  # solution (disassemble_shaped) needs none (0.1 s of a process's CPU)

    from puzzlebox.geometry import Lattice

_cdisasm: ModuleType | None
try:
    from puzzlebox.disassembly import _cdisasm
except ImportError:  # not built (no C compiler at installation): numba's step runs
    _cdisasm = None

DEFAULT_MAX_STATES = 2_000_000  # positions visited over all parts of one assembly
# The memory of the search, measured (peak resident size of `puzzlebox moves` less the
# 36 MB of the interpreter; eight dominoes loose in a fixed frame: a 5 x 5 hole and a 4 x 5
# one, neither of which comes apart, so the search runs to its state limit):
#   C search (_cdisasm.c): 180 to 290 bytes a position counted against --max-states
#     (2,000,000 positions: 370 MB and 570 MB); each node it keeps is 4 bytes an int of
#     its position (3 per piece), 32 of parent and move, 8 of the table that finds it, and
#     the newest front (not yet counted) is kept too.
#   Python loop (numba's step, or the reference): 456 bytes a position held in its three
#     fronts and their nodes (nine pieces: 274,043 held at most for 200,000 counted, 122 MB
#     over the 150 MB with numba loaded), a tuple of 3 ints a piece each: py_bytes(); the
#     process held 390 MB at 200,000 positions counted, so 2,000,000 would pass the 2 GB
#     limit (issue #35 saw 3.3 GB).
# The default state limit fits the default memory limit (2 GB, engine/memory.py) in the C
# search; the memory bound below holds both searches under --max-memory whatever the limit
# of states: the C search counts what it allocates (held_bytes) before each array grows,
# the Python loop its positions held times py_bytes().
PY_BYTES_BASE, PY_BYTES_PER_PIECE = 240, 24  # 240 + 24 * 9 = 456


def py_bytes(pieces: int) -> int:
    """The bytes the Python loop holds a position of ``pieces`` pieces in (measured)."""
    return PY_BYTES_BASE + PY_BYTES_PER_PIECE * pieces


EXIT_TOO_BIG = 3  # as budget.TooBig: well formed, but too big to work on here

Position = tuple[int, ...]  # x, y, z of every piece of a part, relative to its first piece


class DisassemblyTooBig(PuzzleboxError):
    """The search for a disassembly met a limit: its state limit (this class), its time
    limit (:class:`DisassemblyOutOfTime`) or its memory limit
    (:class:`DisassemblyOverMemory`)."""

    exit_status = EXIT_TOO_BIG


class DisassemblyOutOfTime(DisassemblyTooBig, OutOfTime):
    """The search stopped at its time limit: the run layer's ``OutOfTime`` (the words and
    exit status of every other time limit)."""


class DisassemblyOverMemory(DisassemblyTooBig, OverMemory):
    """The search would pass the memory limit: an ``OverMemory`` like an engine's."""



def sliding_axes(lattice: Lattice) -> int | None:
    """The number of axes pieces slide along on ``lattice``, or None when a cell's
    neighbours are not the unit steps along its coordinates."""
    dims = lattice.dimensions
    origin = (0,) * dims
    steps = set()
    for axis in range(dims):
        for sign in (1, -1):
            step = [0] * dims
            step[axis] = sign
            steps.add(tuple(step))
    return dims if set(lattice.neighbours(origin)) == steps else None

@dataclass(frozen=True)
class Deadline:
    """A time limit that may have begun before this search: it passes at ``at``
    (``time.monotonic()``) and was set at ``seconds`` (what its line says). One deadline
    serves a whole command: the search for its assemblies and every take-apart."""

    at: float
    seconds: float

    @classmethod
    def after(cls, seconds: float) -> Deadline:
        """The deadline ``seconds`` from now."""
        return cls(time.monotonic() + seconds, seconds)

    @staticmethod
    def sooner(first: Deadline | None, second: Deadline | None) -> Deadline | None:
        if first is None or second is None:
            return first or second
        return first if first.at <= second.at else second


@dataclass(frozen=True)
class Move:
    """Pieces (numbered as given) sliding ``distance`` units along ``direction``; a distance
    of None takes them away for good (the move that separates)."""

    pieces: tuple[int, ...]
    direction: tuple[int, int, int]
    distance: int | None

    def text(self, names: Sequence[str] | None = None) -> str:
        """The move in words, e.g. ``2,5 +x 3``, ``4 -z out`` or, along a diagonal step,
        ``1 +x-y 2``."""
        who = ",".join(names[p] if names else str(p) for p in self.pieces)
        way = "".join(("+" if v > 0 else "-") + "xyz"[a]
                      for a, v in enumerate(self.direction) if v)
        return f"{who} {way} {'out' if self.distance is None else self.distance}"


@dataclass(frozen=True)
class Separation:
    """How a set of pieces comes apart: the moves up to and including the one that splits
    it, then how each part comes apart (None for a part that needs nothing more)."""

    pieces: tuple[int, ...]
    moves: tuple[Move, ...]
    left: Separation | None  # the part that stays where it was
    removed: Separation | None  # the part the last move takes away
    removed_pieces: tuple[int, ...] = field(default=())

    def has_multi_moves(self) -> bool:
        """Does this separation or one below it take more than one move (BurrTools writes
        only those in a level)?"""
        return (len(self.moves) > 1 or (self.left is not None and self.left.has_multi_moves())
                or (self.removed is not None and self.removed.has_multi_moves()))

    @property
    def level(self) -> str:
        """The level in BurrTools' notation, e.g. ``98.2.4.2``."""
        text = str(len(self.moves))
        for part in (self.left, self.removed):
            if part is not None and part.has_multi_moves():
                text += "." + part.level
        return text

    def all_moves(self) -> list[Move]:
        """Every move of the disassembly in order: this split, then the part left, then the
        part removed (each part's moves are relative to where the part was)."""
        moves = list(self.moves)
        for part in (self.left, self.removed):
            if part is not None:
                moves.extend(part.all_moves())
        return moves

    @property
    def total_moves(self) -> int:
        return len(self.all_moves())


@dataclass
class _Budget:
    max_states: int
    deadline: Deadline | None
    label: str
    max_bytes: int = memory_limit(None)
    visited: int = 0

    def spend(self, count: int) -> None:
        self.visited += count
        if self.visited > self.max_states:
            raise self.too_many()
        self.check_time()

    def check_time(self) -> None:
        if self.deadline is not None and time.monotonic() > self.deadline.at:
            raise self.too_long()

    def hold(self, positions: int, pieces: int) -> None:
        """The Python loop holds ``positions`` of ``pieces`` pieces: refused past the memory
        limit."""
        if positions * py_bytes(pieces) > self.max_bytes:
            raise self.too_much()

    def too_many(self) -> DisassemblyTooBig:
        return DisassemblyTooBig(
            f"{self.label}: the disassembly search passed {self.max_states:,} positions "
            "without an answer; raise the state limit to go on")

    def too_long(self) -> DisassemblyOutOfTime:
        seconds = self.deadline.seconds if self.deadline is not None else 0.0
        return DisassemblyOutOfTime(
            f"{self.label}: stopped at the time limit of {seconds:g} s after "
            f"{self.visited:,} position{'' if self.visited == 1 else 's'} of the disassembly "
            "search, unfinished")

    def too_much(self) -> DisassemblyOverMemory:
        return DisassemblyOverMemory(
            f"{self.label}: the disassembly search reached the memory limit of "
            f"{size_text(self.max_bytes)} after {self.visited:,} positions without an answer; "
            "raise the limit to go on")

    def seconds_left(self) -> float:
        """What is left of the time limit, for the C search (-1: none)."""
        if self.deadline is None:
            return -1.0
        return max(0.0, self.deadline.at - time.monotonic())


@dataclass(frozen=True, slots=True)
class _Node:
    """A position met by the search, the node it was reached from and by which move."""

    pos: Position
    parent: _Node | None
    move: tuple[int, int, int] | None  # (mask, direction, distance)


class _Part:
    """The search over one set of pieces (an assembly, or a part split off it)."""

    def __init__(self, solver: _Solver, pieces: tuple[int, ...]) -> None:
        self.solver = solver
        self.pieces = pieces  # global piece numbers
        self.n = len(pieces)
        fixed = solver.fixed
        self.fixed_mask = sum(1 << k for k, p in enumerate(pieces) if p in fixed)
        self.full = (1 << self.n) - 1
        self.dirs = len(solver.steps)
        self.kernel: tuple[np.ndarray, np.ndarray, np.ndarray] | None = None
        self.native: tuple[np.ndarray, np.ndarray] | None = None  # the C search's pieces
        # the same in the book of shapes that the solver shares: (shapes, low corners)
        self.placed: tuple[list[int], list[int]] | None = None
        if solver.placed is not None and self.n <= solver.placed[0].MAX_PIECES:
            _, sids, origins = solver.placed
            self.placed = ([sids[p] for p in pieces],
                           [c for p in pieces for c in origins[3 * p:3 * p + 3]])
            return
        import numpy as np

        if solver.native is not None and self.n <= solver.native.MAX_PIECES:
            self.native = (np.concatenate([solver.voxels[p] for p in pieces]),
                           np.cumsum([0] + [len(solver.voxels[p]) for p in pieces],
                                     dtype=np.int64))
        elif solver.kernels is not None and self.n <= solver.kernels.MAX_PIECES:
            cells = [solver.voxels[p] for p in pieces]
            starts = np.cumsum([0] + [len(c) for c in cells], dtype=np.int64)
            voxels = np.concatenate(cells)
            fronts = np.concatenate([solver.fronts(p) + (k, starts[k], 0)
                                     for k, p in enumerate(pieces)])
            self.kernel = (voxels, starts, fronts)

    def expand(self, pos: Position
               ) -> tuple[list[tuple[int, int]], list[tuple[Position, tuple[int, int, int]]]]:
        """The separations at ``pos`` (moving mask, direction) and, when there are none, the
        moves that keep the part together with the positions they lead to. The compiled
        kernel does it in one call; the Python reference below does the same for parts too
        big for its 64-bit masks (and for the tests that compare the two)."""
        if self.native is not None and self.solver.native is not None:
            return self.solver.native.expand(*self.native, self.solver.dims, self.fixed_mask,
                                             pos)
        if self.kernel is not None and self.solver.kernels is not None:
            import numpy as np

            voxels, starts, fronts = self.kernel
            splits, table, after = self.solver.kernels.expand(
                voxels, starts, fronts, np.array(pos, dtype=np.int64), self.solver.dims,
                self.fixed_mask)
            if len(splits):
                return [(m, d) for m, d in splits.tolist()], []
            return [], [(tuple(row), (m, d, k))
                        for row, (m, d, k) in zip(after.tolist(), table.tolist(), strict=True)]
        reach = self.reach(pos)
        found = self.separations(reach)
        if found:
            return found, []
        return [], [(self.shifted(pos, m, d, k), (m, d, k)) for m, d, k in self.moves(reach)]

    def reach(self, pos: Position) -> np.ndarray:
        """``R[d, p, j]``: the least distance ``k`` at which sliding piece ``p`` by ``k``
        units in direction ``d`` drags piece ``j`` along (0 for ``p`` itself, :data:`FREE`
        when it never does).

        Piece ``i`` moving ``k`` drags ``j`` when it can move less than ``k`` past it, and
        what ``i`` drags drags on in turn: the least over chains of the largest free
        distance along the chain (a bottleneck path, Floyd-Warshall over the pieces)."""
        import numpy as np

        pair = self.solver.cache.pair
        n, pieces = self.n, self.pieces
        zero = (0,) * self.dirs
        rows: list[list[tuple[int, ...]]] = [[zero] * n for _ in range(n)]
        for i in range(n):
            xi, yi, zi = pos[3 * i], pos[3 * i + 1], pos[3 * i + 2]
            row = rows[i]
            for j in range(i + 1, n):
                row[j], rows[j][i] = pair(pieces[i], pieces[j],
                                          pos[3 * j] - xi, pos[3 * j + 1] - yi, pos[3 * j + 2] - zi)
        free = np.array(rows, dtype=np.int64)
        reach = free.transpose(2, 0, 1).copy()
        for m in range(n):
            reach = np.minimum(reach, np.maximum(reach[:, :, m:m + 1], reach[:, m:m + 1, :]))
        return reach

    def movable(self, mask: int) -> bool:
        """Fixed pieces may all stay on one side of a move, never on both."""
        return not (mask & self.fixed_mask and (self.full ^ mask) & self.fixed_mask)

    def mover(self, mask: int, direction: int) -> tuple[int, int]:
        """The side that really moves (never a fixed piece) and its direction."""
        if mask & self.fixed_mask:
            return self.full ^ mask, direction ^ 1
        return mask, direction

    def separations(self, reach: np.ndarray) -> list[tuple[int, int]]:
        """The groups that can leave for good, as (mask, direction) of the side that leaves:
        single pieces first, then groups, each by direction then piece (BurrTools' order):
        the pieces a piece drags along at some distance, when they are at most half."""
        n, half = self.n, self.n // 2
        found: list[tuple[int, int, int]] = []
        seen: set[int] = set()
        bounded = (reach < FREE).tolist()
        for d in range(self.dirs):
            rows = bounded[d]
            for p in range(n):
                row = rows[p]
                if sum(row) > half:
                    continue
                mask = sum(1 << j for j in range(n) if row[j])
                moving, direction = self.mover(mask, d)
                if moving & self.fixed_mask:
                    continue  # fixed pieces on both sides: they never part
                split = min(moving, self.full ^ moving)
                if split in seen:
                    continue
                seen.add(split)
                found.append((0 if moving.bit_count() == 1 else 1, moving, direction))
        found.sort(key=lambda item: item[0])
        return [(moving, direction) for _, moving, direction in found]

    def moves(self, reach: np.ndarray) -> list[tuple[int, int, int]]:
        """The moves that keep the part together, as (mask, direction, distance): for each
        direction and piece, the group it drags along at each distance while that is at
        most half the pieces, then the unions of groups moving the same distance. Such a
        group can always move that far: what it would hit first it drags along."""
        n, half, full = self.n, self.n // 2, self.full
        result: list[tuple[int, int, int]] = []
        table = reach.tolist()
        for d in range(self.dirs):
            by_distance: dict[int, list[int]] = {}
            for p in range(n):
                row = table[d][p]
                ranked = sorted(range(n), key=row.__getitem__)
                most = row[ranked[half]] if half < n else 0  # the group outgrows half here
                if most >= FREE:  # the group leaves for good past its last finite distance
                    most = max(v for v in row if v < FREE)
                mask = 0
                at = 0
                for k in range(1, most + 1):
                    while at < n and row[ranked[at]] < k:
                        mask |= 1 << ranked[at]
                        at += 1
                    known = by_distance.setdefault(k, [])
                    if mask in known or not self.movable(mask):
                        continue
                    known.append(mask)
                    result.append((mask, d, k))
                    # merged with the groups met before it, the newest first: BurrTools
                    # keeps them in a list it adds to at the head (countingNodeHash)
                    for other in known[-2::-1]:
                        union = other | mask
                        if (union not in (other, mask, full) and union not in known
                                and self.movable(union)):
                            known.append(union)
                            result.append((union, d, k))
        return result

    def shifted(self, pos: Position, mask: int, direction: int, distance: int) -> Position:
        """The position after the pieces in ``mask`` slide ``distance`` along ``direction``,
        given relative to piece 0 again."""
        step = self.solver.steps[direction]
        out = list(pos)
        for axis in range(3):
            if not step[axis]:
                continue
            along = step[axis] * distance
            for k in range(self.n):
                if mask >> k & 1:
                    out[3 * k + axis] += along
            base = out[axis]
            if base:
                for k in range(self.n):
                    out[3 * k + axis] -= base
        return tuple(out)

    def move_of(self, mask: int, direction: int, distance: int | None) -> Move:
        moving, direction = self.mover(mask, direction)
        pieces = tuple(self.pieces[k] for k in range(self.n) if moving >> k & 1)
        return Move(pieces, self.solver.steps[direction], distance)

    def search(self, start: Position) -> Separation | None:
        """Breadth first from ``start`` until a separation whose parts come apart."""
        solver = self.solver
        if (self.native is not None and solver.native is not None) or self.placed is not None:
            return self.search_native(start)
        # only three fronts of positions are kept to tell old from new (every move can be
        # undone), while the parent links keep the paths of the live front
        root = _Node(start, None, None)
        older: set[Position] = set()
        current: set[Position] = {start}
        front: list[_Node] = [root]
        failed = solver.failed.setdefault(self.pieces, set())
        if start in failed:
            return None
        # a thorough search keeps every position: when it fails, each of them is known to fail
        everything: set[Position] | None = {start} if solver.thorough else None
        budget = solver.budget
        while front:
            budget.spend(len(front))
            newer: set[Position] = set()
            next_front: list[_Node] = []
            held = len(older) + len(current) + len(everything or ())
            for number, node in enumerate(front):
                if number % 1024 == 1023:  # a front may hold millions
                    budget.check_time()
                    budget.hold(held + len(newer), self.n)
                pos = node.pos
                splits, steps = self.expand(pos)
                for mask, direction in splits:
                    found = self.split(pos, _path(node), mask, direction)
                    if found is not None or not solver.thorough:
                        return found
                if splits:
                    # the pieces already part here: going on from a position that falls
                    # apart would let the parts drift for ever, so the search stays among
                    # the positions that hold together
                    continue
                for new, move in steps:
                    if new in current or new in older or new in newer:
                        continue
                    newer.add(new)
                    if everything is not None:
                        everything.add(new)
                    next_front.append(_Node(new, node, move))
            budget.hold(held + len(newer), self.n)
            older, current = current, newer
            front = next_front
        failed.update(everything or (start,))
        return None

    def search_native(self, start: Position,
                      first: tuple[int, int, Any, Any, Any] | None = None) -> Separation | None:
        """:meth:`search` with the whole breadth-first loop in the C extension: as
        BurrTools judges (the first separation met decides) in one call; a thorough search
        goes on from each position whose separations all fail."""
        solver = self.solver
        failed = solver.failed.setdefault(self.pieces, set())
        if start in failed:
            return None
        native = solver.native
        assert native is not None
        budget = solver.budget
        # the part's pieces: shapes of the shared book at their low corners, or voxels
        pieces: tuple[Any, ...]
        if self.placed is not None and solver.shapes is not None:
            pieces = (solver.shapes.book, *self.placed)
            bfs, walk_from = native.bfs_in, native.walk_in
        else:
            assert self.native is not None
            pieces = (*self.native, solver.dims)
            bfs, walk_from = native.bfs, native.walk
        walk = walk_from(*pieces, self.fixed_mask, start) if solver.thorough else None
        while True:
            if first is not None:  # the breadth-first search already made (shaped())
                status, budget.visited, pos, splits, path = first
                first = None
            elif walk is None:
                status, budget.visited, pos, splits, path = bfs(
                    *pieces, self.fixed_mask, start, budget.visited,
                    budget.max_states, budget.seconds_left(), budget.max_bytes)
            else:
                status, budget.visited, pos, splits, path = native.walk_next(
                    walk, budget.visited, budget.max_states, budget.seconds_left(),
                    budget.max_bytes)
            if status == native.STATES:
                raise budget.too_many()
            if status == native.TIME:
                raise budget.too_long()
            if status == native.MEMORY:
                raise budget.too_much()
            if status == native.NONE:
                # a thorough search met every position: each of them is known to fail
                failed.update(native.walk_positions(walk) if walk is not None else (start,))
                return None
            for mask, direction in splits:
                found = self.split(pos, path, mask, direction)
                if found is not None or walk is None:
                    return found

    def split(self, pos: Position, path: list[tuple[int, int, int]], mask: int,
              direction: int) -> Separation | None:
        """The separation that takes ``mask`` away from position ``pos`` (reached from the
        start by the moves ``path``), if both parts come apart in their turn."""
        stay = self.full ^ mask
        parts: list[Separation | None] = []
        for side in (stay, mask):
            members = [k for k in range(self.n) if side >> k & 1]
            sub = tuple(self.pieces[k] for k in members)
            if not self.solver.needs_work(sub):
                parts.append(None)
                continue
            inner = _Part(self.solver, sub)
            ref = members[0]
            start = tuple(pos[3 * k + a] - pos[3 * ref + a] for k in members for a in range(3))
            found = inner.search(start)
            if found is None:
                return None
            parts.append(found)
        moves = [self.move_of(m, d, k) for m, d, k in path]
        moves.append(self.move_of(mask, direction, None))
        removed = tuple(self.pieces[k] for k in range(self.n) if mask >> k & 1)
        return Separation(self.pieces, tuple(moves), parts[0], parts[1], removed)


def _path(node: _Node) -> list[tuple[int, int, int]]:
    """The moves from the start to ``node``."""
    path: list[tuple[int, int, int]] = []
    walk: _Node | None = node
    while walk is not None and walk.move is not None:
        path.append(walk.move)
        walk = walk.parent
    path.reverse()
    return path


def _compiled() -> ModuleType:
    """The compiled inner step (numba, loaded on the first disassembly: not at start-up)."""
    from puzzlebox.disassembly import _kernel

    return _kernel


def native_search() -> ModuleType | None:
    """The C search's module where it runs now (built, and the kernels chosen are C)."""
    return _native()


def _native() -> ModuleType | None:
    """The C search when it is built and the kernels chosen are C (engine/kernel_choice.py:
    ``PUZZLEBOX_KERNELS=numba`` runs numba's step instead, as for the engines)."""
    if kernel_choice.backend() != kernel_choice.C:
        return None
    if _cdisasm is None:
        if kernel_choice.wanted() == kernel_choice.C:
            raise kernel_choice.KernelsMissing(
                f"{kernel_choice.ENVIRONMENT}=c, but the C disassembly search is not built: "
                "install puzzlebox again where a C compiler and Python's headers are")
        return None
    return _cdisasm


def axis_steps(dims: int) -> tuple[Step, ...]:
    """The unit steps along the first ``dims`` axes, each followed by its opposite: the
    directions ``2 * axis`` (up) and ``2 * axis + 1`` (down) of the compiled searches."""
    out: list[Step] = []
    for axis in range(dims):
        for sign in (1, -1):
            out.append((sign * (axis == 0), sign * (axis == 1), sign * (axis == 2)))
    return tuple(out)


Swept = Callable[[Cell, Step], Iterable[Cell]]


class Shapes:
    """The shapes of one puzzle's pieces, shared by the take-aparts of all its assemblies.

    Every assembly of a puzzle places the same pieces in the same few orientations, and how
    far one piece slides past another depends only on the two shapes and their offset. The
    C search keeps those distances in a *book* of shapes (_cdisasm.c); one book serves
    every part of every assembly taken apart with the same ``Shapes``, so a distance is
    worked out once per puzzle rather than once per assembly. Its cache of distances is
    held under a quarter of the memory limit (past it, it begins again), and the C search
    counts it in what a take-apart holds. Where the C search is not built (or
    ``compiled=False``), searches ignore it."""

    def __init__(self, dims: int) -> None:
        self.dims = dims
        self.book: Any = None
        self.generation = 0  # one more each time the book is renewed (its numbers change)
        self._ids: dict[bytes, int] = {}  # a shape's rows (from its low corner): its number
        self._placed: dict[bytes, tuple[int, int, int, int]] = {}  # cells: shape, corner
        self._by_id: dict[int, tuple[Any, tuple[int, int, int, int]]] = {}

    def place(self, native: ModuleType, cells: np.ndarray | array[int]
              ) -> tuple[int, int, int, int] | None:
        """The shape of ``cells`` (int64 rows x y z, or an ``array('q')`` of x y z one
        after the other) and its low corner x, y, z; None when the book is full
        (:meth:`renew` then)."""
        seen = self._by_id.get(id(cells))
        if seen is not None and seen[0] is cells:  # the same array as before (a caller's)
            return seen[1]
        key = cells.tobytes()
        found = self._placed.get(key)
        if found is not None:
            self._remember(cells, found)
            return found
        if self.book is None:
            self.book = native.book(self.dims)
        flat = array("q", key)  # x y z, one cell after another
        xs, ys, zs = flat[0::3], flat[1::3], flat[2::3]
        low = (min(xs), min(ys), min(zs))
        rows = array("q", [c for cell in sorted(zip(xs, ys, zs))  # one order per shape
                           for c in (cell[0] - low[0], cell[1] - low[1], cell[2] - low[2])])
        name = rows.tobytes()
        shape = self._ids.get(name)
        if shape is None:
            shape, _ = native.book_add(self.book, rows)
            if shape < 0:
                return None
            self._ids[name] = shape
        found = (shape, low[0], low[1], low[2])
        self._placed[key] = found
        self._remember(cells, found)
        return found

    def _remember(self, cells: Any, found: tuple[int, int, int, int]) -> None:
        """Know the array itself next time (it is held, so its id stays its own); a caller
        that hands new arrays each time fills this up, and it begins again."""
        if len(self._by_id) > 4 * len(self._placed) + 4096:
            self._by_id.clear()
        self._by_id[id(cells)] = (cells, found)

    def renew(self) -> None:
        """An empty book (the old one was full: it has room for 16,384 shapes)."""
        self.generation += 1
        self.book = None
        self._ids.clear()
        self._placed.clear()
        self._by_id.clear()

    def info(self) -> dict[str, int]:
        """What the book holds: shapes, pairs (distances kept), computed (distances worked
        out), cleared (times its cache began again), bytes (for bench/ and the tests)."""
        if self.book is None or _cdisasm is None:
            return {"shapes": 0, "pairs": 0, "computed": 0, "cleared": 0, "bytes": 0}
        return dict(_cdisasm.book_info(self.book))


class _Solver:
    def __init__(self, dims: int, pieces: Sequence[Any],
                 fixed: Collection[int], groups: Iterable[Collection[int]], thorough: bool,
                 budget: _Budget, compiled: bool = True, shapes: Shapes | None = None,
                 slides: tuple[Sequence[Step], Swept] | None = None) -> None:
        self.dims = dims
        # the directions, each followed by its opposite: the axes, or a lattice's own steps
        # with the cells a cell sweeps on one (the Python step alone knows those, #37)
        self.steps = axis_steps(dims) if slides is None else tuple(slides[0])
        self.swept = None if slides is None else slides[1]
        compiled = compiled and slides is None
        self.voxels = pieces  # each piece's cells, rows of x y z
        self._cache: BlockingCache | SweptBlockingCache | None = None
        self._fronts: dict[int, np.ndarray] = {}
        self.fixed = frozenset(fixed)
        self.groups = [frozenset(g) for g in groups]
        self.thorough = thorough
        self.budget = budget
        self.native = _native() if compiled else None
        self.kernels = _compiled() if compiled and self.native is None else None
        # each piece as a shape of the shared book and its low corner (the C search)
        self.shapes = shapes if self.native is not None else None
        self.placed: tuple[ModuleType, list[int], list[int]] | None = None
        if self.shapes is not None and self.native is not None:
            self.placed = self._place(self.shapes, self.native)
        # positions of each part known not to come apart (a thorough search meets the same
        # part again and again after each separation that fails)
        self.failed: dict[tuple[int, ...], set[Position]] = {}

    def _place(self, shapes: Shapes, native: ModuleType
               ) -> tuple[ModuleType, list[int], list[int]]:
        """Every piece's shape in the book and its low corner (a full book is renewed)."""
        for _ in range(2):
            where = [shapes.place(native, cells) for cells in self.voxels]
            if all(w is not None for w in where):
                return (native, [w[0] for w in where if w is not None],
                        [c for w in where if w is not None for c in w[1:]])
            shapes.renew()
        raise AssertionError("an empty book has room for every piece of a part")

    @property
    def cache(self) -> BlockingCache | SweptBlockingCache:
        """The pair cache of the Python step, built on first use (the compiled step needs
        none)."""
        if self._cache is None:
            cells = [[(x, y, z) for x, y, z in piece.tolist()] for piece in self.voxels]
            self._cache = BlockingCache(cells, self.dims) if self.swept is None else \
                SweptBlockingCache(cells, self.steps, self.swept)
        return self._cache

    def fronts(self, piece: int) -> np.ndarray:
        """Rows (0, voxel, direction) of the piece's cells that face out that way, voxels
        numbered in the piece's own array (a part shifts them to its own numbering)."""
        found = self._fronts.get(piece)
        if found is None:
            import numpy as np

            assert self.kernels is not None
            voxels = self.voxels[piece]
            found = self.kernels.front_cells(
                voxels, np.array([0, len(voxels)], dtype=np.int64), self.dims)
            self._fronts[piece] = found
        return found

    def needs_work(self, pieces: tuple[int, ...]) -> bool:
        """Must this part still come apart? Not one piece, not only fixed pieces, not a
        declared group."""
        return needs_work(pieces, self.fixed, self.groups)


def needs_work(pieces: Collection[int], fixed: Collection[int],
               groups: Iterable[Collection[int]]) -> bool:
    """Must a part of these pieces still come apart? Not one piece, not only fixed pieces,
    not pieces of one declared group (the search's rule, also the movement browser's)."""
    if len(pieces) < 2 or all(p in fixed for p in pieces):
        return False
    members = set(pieces)
    return not any(members <= set(group) for group in groups)


def _arrays(pieces: Sequence[Iterable[Sequence[int]]], trusted: bool = False
            ) -> list[np.ndarray]:
    """Each piece's cells as rows of x y z (z 0 for cells given as pairs); a piece without
    cells, or two pieces on one cell, is a caller's bug (ValueError). ``trusted``: pieces
    that are already int64 rows of x y z are taken as they are, unchecked for overlaps (a
    solution of an exact cover places no cell twice)."""
    import numpy as np

    if trusted and all(isinstance(p, np.ndarray) and p.dtype == np.int64 and p.ndim == 2
                       and p.shape[1] == 3 and len(p) and p.flags.c_contiguous
                       for p in pieces):
        return cast(list[np.ndarray], list(pieces))
    out: list[np.ndarray] = []
    for index, piece in enumerate(pieces):
        cells = np.array(piece if isinstance(piece, np.ndarray) else list(piece),
                         dtype=np.int64)
        if cells.size == 0:
            raise ValueError(f"piece {index} has no cells")
        if cells.ndim != 2 or cells.shape[1] not in (2, 3):
            raise ValueError(f"piece {index}: cells are pairs or triples of ints")
        if cells.shape[1] == 2:
            cells = np.column_stack([cells, np.zeros(len(cells), dtype=np.int64)])
        out.append(np.ascontiguousarray(cells))
    every = np.concatenate(out)
    span = every.max(axis=0) - every.min(axis=0) + 1
    keys = np.sort((every - every.min(axis=0)) @ np.array([span[1] * span[2], span[2], 1]))
    if (keys[1:] == keys[:-1]).any():  # a cell met twice: find the pieces to name them
        seen: dict[Cell, int] = {}
        for index, cells in enumerate(out):
            for x, y, z in cells.tolist():
                if (x, y, z) in seen:
                    raise ValueError(f"pieces {seen[x, y, z]} and {index} overlap at "
                                     f"{(x, y, z)}")
                seen[x, y, z] = index
    return out


def disassemble_shaped(
    cells: Sequence[np.ndarray | array[int]],
    shapes: Shapes,
    *,
    dims: int,
    fixed: Sequence[int] = (),
    groups: Sequence[Collection[int]] = (),
    max_states: int = DEFAULT_MAX_STATES,
    label: str = "assembly",
    deadline: Deadline | None = None,
    max_memory: int | None = None,
    placed: Sequence[tuple[int, int, int, int] | None] | None = None,
    native: ModuleType | None = None,
) -> Separation | None:
    """:func:`disassemble` (not thorough) of an exact cover's solution, each piece's cells
    an int64 array of rows x y z (or an ``array('q')`` of x y z one after the other, where
    the C search runs: numpy is then not loaded) that the caller keeps (:class:`Shapes`
    knows it again by itself), with the book of ``shapes``: the same answer. Most
    assemblies of a puzzle hold together, and their take-apart is one breadth-first
    search of the C extension, made straight from here without the setup of the general
    search; an assembly whose search meets a separation goes on in the general one from
    there. ``placed``: each piece's
    shape and low corner as :meth:`Shapes.place` gave them for the book as it is now (a
    caller that keeps them asks the book no more); ``native``: :func:`native_search`'s
    answer, where the caller has it."""
    if native is None:
        native = _native()
    budget = _Budget(max_states, deadline, label, memory_limit(max_memory))
    n = len(cells)
    held = set(fixed)
    if native is None or n > native.MAX_PIECES:
        import numpy as np

        rows = [c if isinstance(c, np.ndarray) else np.array(c, dtype=np.int64).reshape(-1, 3)
                for c in cells]
        solver = _Solver(dims, rows, fixed, groups, False, budget, True, shapes)
        everyone = tuple(range(n))
        if not solver.needs_work(everyone):
            return None
        order = sorted(everyone, key=lambda p: (p not in held, p))
        return _Part(solver, tuple(order)).search((0,) * (3 * n))
    if n < 2 or len(held) == n or any(set(range(n)) <= set(g) for g in groups):
        return None  # one piece, only fixed pieces, or a group of them all: nothing to do
    order = [k for k in range(n) if k in held] + [k for k in range(n) if k not in held]
    where = [shapes.place(native, cells[k]) for k in order] if placed is None else \
        [placed[k] for k in order]
    if any(w is None for w in where):  # the book is full: an empty one has room
        shapes.renew()
        where = [shapes.place(native, cells[k]) for k in order]
    start = (0,) * (3 * n)
    first = native.bfs_in(
        shapes.book, [w[0] for w in where if w is not None],
        [c for w in where if w is not None for c in w[1:]], (1 << len(held)) - 1, start,
        0, budget.max_states, budget.seconds_left(), budget.max_bytes)
    if first[0] == native.NONE:
        return None
    solver = _Solver(dims, cells, fixed, groups, False, budget, True, shapes)
    return _Part(solver, tuple(order)).search_native(start, first)


def disassemble(
    pieces: Sequence[Iterable[Sequence[int]]],
    *,
    dims: int = 3,
    fixed: Collection[int] = (),
    groups: Iterable[Collection[int]] = (),
    thorough: bool = False,
    max_states: int = DEFAULT_MAX_STATES,
    max_seconds: float | None = None,
    label: str = "assembly",
    compiled: bool = True,
    deadline: Deadline | None = None,
    max_memory: int | None = None,
    shapes: Shapes | None = None,
    slides: tuple[Sequence[Step], Swept] | None = None,
) -> Separation | None:
    """How the assembled ``pieces`` (each a set of cells, as placed) come apart, or None
    when they cannot.

    ``dims`` is 3 on the cube lattice and 2 on the square lattice (cells may then be given
    as pairs). ``fixed`` pieces never move (a box, a frame); each of ``groups`` is a set of
    pieces that may stay together. Raises :class:`DisassemblyTooBig` past ``max_states``
    positions, :class:`DisassemblyOutOfTime` (an ``OutOfTime``) past ``max_seconds``
    seconds from now or past ``deadline`` (one that began earlier: a whole command's),
    :class:`DisassemblyOverMemory` (an ``OverMemory``) where it would hold more than
    ``max_memory`` bytes (None: the default memory limit, 2 GB, as for the engines).
    ``compiled=False`` runs the Python reference of the inner step instead of the compiled
    kernel (the same answers, slower). ``shapes`` (one :class:`Shapes` for all the
    assemblies of a puzzle) shares the pieces' shapes and the distances between them with
    every other take-apart given it: the same answers, each distance worked out once. With
    it, pieces given as int64 rows of x y z are taken as a solution of an exact cover gives
    them: their overlaps are not looked for again. ``slides`` gives a lattice's own
    directions instead of the axes (x y z steps, each followed by its opposite) with the
    cells a cell sweeps in one step (``swept(cell, step)``); the Python step runs them (and
    ``shapes`` is not used).
    """
    cells = _arrays(pieces, trusted=shapes is not None)
    if max_seconds is not None:
        deadline = Deadline.sooner(deadline, Deadline.after(max_seconds))
    budget = _Budget(max_states, deadline, label, memory_limit(max_memory))
    solver = _Solver(dims, cells, fixed, groups, thorough, budget, compiled, shapes, slides)
    everyone = tuple(range(len(cells)))
    if not solver.needs_work(everyone):
        return None
    # fixed pieces first, so that the position is counted from one of them
    order = sorted(everyone, key=lambda p: (p not in solver.fixed, p))
    part = _Part(solver, tuple(order))
    return part.search(tuple(0 for _ in range(3 * len(order))))
