"""Which image of an assembly is taken apart: the one BurrTools' assembler keeps (#35 item 4).

An assembly and its turned copies (its images under the turns that keep the board) come
apart alike, but where several separations are equally short the first one met depends on
the image: the level string (19.4.2.2 or 19.4.2.3.2) can differ. ``burrTxt -d`` takes apart
each assembly exactly as its assembler placed it, and its assembler keeps, of an
assembly's images, the least by its own order (BurrTools 0.7.1, ``assembler_0.cpp``,
``assembler_1.cpp``, ``assembly.cpp``: one piece placed in fewer orientations and
``smallerRotationExists``). This module states that order and picks that image, so that
``count --disassemble`` and ``solve --disassemble`` write the levels ``burrTxt -d`` writes.

The order, in puzzlebox's terms (cube cells ``(layer, row, col)`` are BurrTools' ``(z, y,
x)``, as the importer maps them, and a file's pieces are BurrTools' parts in order):

* BurrTools numbers the 48 orientations of a piece: ``4a + b`` is ``b`` quarter turns
  about x (y towards z), then turn ``a``: none, 1 to 3 quarter turns about y (x towards z
  first, then -x, then -z), a quarter turn about z taking x to y, or taking x to -y;
  ``24 + t`` mirrors x first, then turns as ``t``. A placement is written as the least
  number that gives its shape (colours included) and its position: where the piece's
  origin lands then (its low corner's image, to a constant of each orientation).
* Placements compare by (orientation, x, y, z); an assembly by its placements in the
  file's order, the copies of one piece sorted, one piece (the pivot) first.
* The pivot is the piece whose turns the assembler cut down: with one copy of each piece
  (``assembler_0``), the first piece sharing the fewest symmetries with the board (its
  own symmetries against every conjugate of the board's); with copies (``assembler_1``),
  the first with the fewest copies, then the fewest shared symmetries, and none at all
  where that piece has several copies or any piece a range of counts.
* The images are the assembly turned by each symmetry of the board (cells, optional cells
  and colours), mirrors included where every piece stays a piece the puzzle allows
  (BurrTools also swaps a piece with its mirror twin there: not done here).

On the prism lattice (BurrTools' grid type 1) the order is the same with BurrTools' 24
orientations of a prism (``symmetries_1``, ``voxel_1``): in its coordinates (``x`` along a
row, ``y`` up the rows, ``z`` up the layers; the importer writes ``row = -y``, ``col = x``,
``layer = z``), ``6f + k`` is ``k`` turns of 60 degrees about ``z`` (x towards y) after
``f``: none, a half turn about ``y``, the mirror ``x -> -x``, the mirror ``z -> -z``; 0 to 11
are rotations. Its cells are worked on as the integer centres of their prisms in a basis
where these maps are integer matrices (``_prism()``). BurrTools compares the placements in
its problem's order of pieces, which the importer may not keep (Prisgon's cage, first
there, is written last); the pivot's placement decides where it differs from image to
image, as on Prisgon's Markus.

On the other lattices the assembly is taken apart as the solver placed it.
"""

from __future__ import annotations

import weakref
from collections.abc import Callable, Mapping, Sequence
from functools import cache
from typing import NamedTuple, TypeVar

from puzzlebox.disassembly.search import sliding_axes
from puzzlebox.geometry import Cell, Lattice
from puzzlebox.puzzles.polyomino import Placement, PolyominoPuzzle, PolyominoSolution

Xyz = tuple[int, int, int]
Matrix = tuple[Xyz, Xyz, Xyz]
V = TypeVar("V")


def _mul(a: Matrix, b: Matrix) -> Matrix:
    return tuple(tuple(sum(a[i][k] * b[k][j] for k in range(3)) for j in range(3))
                 for i in range(3))  # type: ignore[return-value]


ONE: Matrix = ((1, 0, 0), (0, 1, 0), (0, 0, 1))


@cache
def orientations() -> tuple[Matrix, ...]:
    """BurrTools' 48 orientations of the cube grid, in its numbering (module docstring)."""
    about_x: Matrix = ((1, 0, 0), (0, 0, -1), (0, 1, 0))
    about_y: Matrix = ((0, 0, -1), (0, 1, 0), (1, 0, 0))
    x_to_y: Matrix = ((0, -1, 0), (1, 0, 0), (0, 0, 1))
    x_to_minus_y: Matrix = ((0, 1, 0), (-1, 0, 0), (0, 0, 1))
    turns = [ONE, about_y, _mul(about_y, about_y), _mul(about_y, _mul(about_y, about_y)),
             x_to_y, x_to_minus_y]
    rotations = []
    for a in turns:
        spin = ONE
        for _ in range(4):
            rotations.append(_mul(a, spin))
            spin = _mul(spin, about_x)
    mirror: Matrix = ((-1, 0, 0), (0, 1, 0), (0, 0, 1))
    return tuple(rotations) + tuple(_mul(r, mirror) for r in rotations)


ROTATIONS = 24


@cache
def prism_orientations() -> tuple[Matrix, ...]:
    """BurrTools' 24 orientations of the prism grid, in its numbering (module docstring),
    as integer matrices on the prisms' centres (``_prism_point``): ``(a, b)`` counts
    thirds of the two unit steps of the triangle grid at 60 degrees, (1, 0) and (1/2, h)."""
    turn: Matrix = ((0, -1, 0), (1, 1, 0), (0, 0, 1))  # 60 degrees: e1 -> e2 -> e2 - e1
    mirror_x: Matrix = ((-1, -1, 0), (0, 1, 0), (0, 0, 1))  # x -> -x: e1 -> -e1, e2 -> e2 - e1
    flip_z: Matrix = ((1, 0, 0), (0, 1, 0), (0, 0, -1))
    out = []
    for first in (ONE, _mul(mirror_x, flip_z), mirror_x, flip_z):
        spin = ONE
        for _ in range(6):
            out.append(_mul(spin, first))
            spin = _mul(turn, spin)
    return tuple(out)


def _prism_point(cell: Cell) -> Xyz:
    """A prism's centre in ``prism_orientations``' basis, three times over (integers):
    BurrTools' ``(x, y, z) = (col, -row, layer)``, its triangle pointing up where ``x + y``
    is even (centre a third of the way up its row), down where odd (two thirds)."""
    x, y, z = cell[2], -cell[1], cell[0]
    b = 3 * y + (1 if (x + y) % 2 == 0 else 2)
    return ((3 + 3 * x - b) // 2, b, z)


def _prism_cell(p: Xyz) -> Cell:
    y = p[1] // 3
    x = (2 * p[0] + p[1] - 3) // 3
    return (p[2], -y, x)


def _prism_low(points: Sequence[Xyz]) -> Xyz:
    """The low corner by whole translations of the grid (multiples of 3 in the plane), so
    that an up prism and a down one never compare equal."""
    return (3 * (min(p[0] for p in points) // 3), 3 * (min(p[1] for p in points) // 3),
            min(p[2] for p in points))


def _prism_position(shift: Xyz) -> Xyz:
    """A translation ``(3i, 3j, z)`` of centres as BurrTools' ``(x, y, z)``: ``j`` rows up
    and ``2i + j`` columns across."""
    i, j = shift[0] // 3, shift[1] // 3
    return (2 * i + j, j, shift[2])


def _cube_low(points: Sequence[Xyz]) -> Xyz:
    return (min(p[0] for p in points), min(p[1] for p in points), min(p[2] for p in points))


def _xyz(cell: Cell) -> Xyz:
    return (cell[2], cell[1], cell[0])


def _cell(p: Xyz) -> Cell:
    return (p[2], p[1], p[0])


def _same(p: Xyz) -> Xyz:
    return p


class _Frame(NamedTuple):
    """A grid as BurrTools numbers its orientations: points of cells on which they are
    integer matrices, back to cells, the low corner by the grid's translations, and a
    translation as BurrTools' position."""

    orientations: tuple[Matrix, ...]
    point: Callable[[Cell], Xyz]
    cell: Callable[[Xyz], Cell]
    low: Callable[[Sequence[Xyz]], Xyz]
    position: Callable[[Xyz], Xyz]

    @property
    def rotations(self) -> int:
        return len(self.orientations) // 2


@cache
def _cube() -> _Frame:
    return _Frame(orientations(), _xyz, _cell, _cube_low, _same)


@cache
def _prism() -> _Frame:
    return _Frame(prism_orientations(), _prism_point, _prism_cell, _prism_low,
                  _prism_position)


def _prism_neighbours(cell: Cell) -> set[Cell]:
    """A prism's five neighbours from its centre: the prisms above and below, and the three
    triangles whose centres are nearest in its layer."""
    a, b, z = _prism_point(cell)
    sign = 1 if b % 3 == 1 else -1  # up: the others lie at (+1, +1), (-2, +1), (+1, -2)
    flat = [(a + sign * da, b + sign * db, z) for da, db in ((1, 1), (-2, 1), (1, -2))]
    return {_prism_cell(p) for p in flat} | {(cell[0] - 1, cell[1], cell[2]),
                                            (cell[0] + 1, cell[1], cell[2])}


def frame_of(lattice: Lattice) -> _Frame | None:
    """The cube frame where pieces slide along three axes, the prism frame where every
    cell's neighbours are a prism's (checked on the cells about the origin), else None."""
    if sliding_axes(lattice) == 3:
        return _cube()
    if lattice.dimensions != 3 or len(lattice.transforms) != 24:
        return None
    near = [(z, r, c) for z in (-1, 0, 1) for r in (-1, 0, 1) for c in (-1, 0, 1)]
    if all(set(lattice.neighbours(cell)) == _prism_neighbours(cell) for cell in near):
        return _prism()
    return None


@cache
def _index(frame: _Frame) -> dict[Matrix, int]:
    return {m: t for t, m in enumerate(frame.orientations)}


@cache
def _product(frame: _Frame) -> tuple[tuple[int, ...], ...]:
    index = _index(frame)
    return tuple(tuple(index[_mul(g, m)] for m in frame.orientations)
                 for g in frame.orientations)


def product() -> tuple[tuple[int, ...], ...]:
    """``product()[g][t]``: the orientation of a piece in orientation ``t`` turned by ``g``
    on the cube grid (built when first asked: 2,304 products)."""
    return _product(_cube())


def _apply(m: Matrix, p: Xyz) -> Xyz:
    return (m[0][0] * p[0] + m[0][1] * p[1] + m[0][2] * p[2],
            m[1][0] * p[0] + m[1][1] * p[1] + m[1][2] * p[2],
            m[2][0] * p[0] + m[2][1] * p[1] + m[2][2] * p[2])


def _moved(p: Xyz, by: Xyz) -> Xyz:
    return (p[0] + by[0], p[1] + by[1], p[2] + by[2])


def _minus(p: Xyz, q: Xyz) -> Xyz:
    return (p[0] - q[0], p[1] - q[1], p[2] - q[2])


def _shape(frame: _Frame, cells: Mapping[Xyz, object]) -> frozenset[tuple[Xyz, object]]:
    """The cells with their contents, moved to their low corner: equal up to translation."""
    lo = frame.low(list(cells))
    return frozenset((_minus(p, lo), v) for p, v in cells.items())


def _turned(frame: _Frame, cells: Mapping[Xyz, V], t: int) -> dict[Xyz, V]:
    m = frame.orientations[t]
    return {_apply(m, p): v for p, v in cells.items()}


class _PieceOrder(NamedTuple):
    """One piece's orientations: each one's shape (no colours), its coloured shape's least
    number and the low corner of the piece so turned."""

    plain: dict[frozenset[Xyz], tuple[int, ...]]  # the orientations giving each shape
    least: tuple[int, ...]
    low: tuple[Xyz, ...]
    colours: tuple[dict[Xyz, str], ...]


class _Order(NamedTuple):
    frame: _Frame
    board: dict[Xyz, tuple[str, bool]]
    turns: tuple[tuple[int, Xyz], ...]  # the board's symmetries: orientation, then shift
    pieces: dict[str, _PieceOrder]
    rank: dict[str, int]
    pivot: int | None  # the pivot's place among the placements, in BurrTools' order
    pivot_piece: str | None  # and its piece (one copy)
    neutral: str | None  # the colour that goes on any other
    placed: dict[tuple[str, tuple[Cell, ...]], tuple[int, Xyz] | None]  # _placed's answers


_ORDERS: weakref.WeakKeyDictionary[PolyominoPuzzle, _Order] = weakref.WeakKeyDictionary()


def _order(puzzle: PolyominoPuzzle, frame: _Frame) -> _Order:
    known = _ORDERS.get(puzzle)
    if known is None:
        known = _ORDERS[puzzle] = _build(puzzle, frame)
    return known


def _conjugates(frame: _Frame, group: frozenset[int]) -> frozenset[int]:
    """Every orientation conjugate to one of ``group`` by a turn: the symmetries a shape has
    in some orientation (BurrTools' ``unifiedSymmetries``)."""
    times = _product(frame)
    out = set()
    for g in range(frame.rotations):
        back = times[g].index(0)  # g's inverse
        for s in group:
            out.add(times[times[g][s]][back])
    return frozenset(out)


class _Pieces(dict[str, _PieceOrder]):
    """Each piece's orientations, worked out when first asked (SolidSixPieceBurrs has 25
    pieces, and an assembly places 6 of them)."""

    def __init__(self, puzzle: PolyominoPuzzle, frame: _Frame, colours: bool) -> None:
        super().__init__()
        self.shapes = {p.name: p.shape for p in puzzle.pieces}
        self.frame = frame
        self.colours = colours

    def __missing__(self, name: str) -> _PieceOrder:
        frame, shape = self.frame, self.shapes[name]
        cells = {frame.point(c): ch if self.colours else "#"
                 for c, ch in zip(shape.cells, shape.colors, strict=True)}
        shaped = [_turned(frame, cells, t) for t in range(len(frame.orientations))]
        coloured = [_shape(frame, s) for s in shaped]
        first: dict[frozenset[tuple[Xyz, object]], int] = {}
        for t, s in enumerate(coloured):
            first.setdefault(s, t)
        plain: dict[frozenset[Xyz], list[int]] = {}
        for t, s in enumerate(coloured):
            plain.setdefault(frozenset(p for p, _ in s), []).append(t)
        found = self[name] = _PieceOrder(
            {k: tuple(v) for k, v in plain.items()}, tuple(first[s] for s in coloured),
            tuple(frame.low(list(s)) for s in shaped),
            tuple({p: str(v) for p, v in s.items()} for s in shaped))
        return found


def _build(puzzle: PolyominoPuzzle, frame: _Frame) -> _Order:
    colours = puzzle.match_colors  # otherwise colours are not the rules' (nor BurrTools')
    board = {frame.point(c): (ch if colours else "#", c in puzzle.optional)
             for c, ch in puzzle.board.items()}
    own = _shape(frame, board)
    low = frame.low(list(board))
    turns = []
    for t in range(len(frame.orientations)):
        turned = _turned(frame, board, t)
        if _shape(frame, turned) == own:
            turns.append((t, _minus(low, frame.low(list(turned)))))
    pieces = _Pieces(puzzle, frame, colours)
    result = frozenset(t for t, _ in turns)
    pivot = _pivot(puzzle, _conjugates(frame, result) if len(result) > 1 else None, pieces)
    rank = {p.name: k for k, p in enumerate(puzzle.pieces)}
    lead = None if pivot is None else _piece_at(puzzle, pivot)
    return _Order(frame, board, tuple(turns), pieces, rank, pivot, lead,
                  puzzle.neutral if colours else "#", {})


def _piece_at(puzzle: PolyominoPuzzle, place: int) -> str:
    """The piece of the placement at ``place`` in the file's order of pieces and copies."""
    for piece in puzzle.pieces:
        copies = piece.hi if piece.hi is not None else 1
        if place < copies:
            return piece.name
        place -= copies
    raise ValueError(f"no placement {place}")


def _pivot(puzzle: PolyominoPuzzle, unified: frozenset[int] | None,
           pieces: Mapping[str, _PieceOrder]) -> int | None:
    """The placement compared first (module docstring), or None; ``unified``: the board's
    symmetries in every orientation (None: the board has none)."""
    if unified is None or any(p.lo != p.hi for p in puzzle.pieces):
        return None  # no symmetries, or a range of counts: no piece is placed fewer ways
    shared = []
    for p in puzzle.pieces:  # the symmetries of each piece shared with the board
        least = pieces[p.name].least
        shared.append(sum(1 for t in unified if least[t] == least[0]))
    copies = [p.hi if p.hi is not None else 1 << 30 for p in puzzle.pieces]
    if all(c == 1 for c in copies):  # assembler_0
        return min(range(len(shared)), key=lambda k: (shared[k], k))
    best = 0
    for k in range(1, len(shared)):
        if copies[k] < copies[best] or (copies[k] == copies[best] and shared[k] < shared[best]):
            best = k
    if copies[best] > 1:
        return None
    return sum(copies[:best])


def _placed(order: _Order, piece: str, cells: tuple[Cell, ...]) -> tuple[int, Xyz] | None:
    """The placement's orientation ``t`` and shift ``d`` (its cells are the piece turned by
    ``t``, moved by ``d``), or None where no orientation gives it; kept per placement."""
    known = order.placed.get((piece, cells), False)
    if known is not False:
        return known  # type: ignore[return-value]
    info = order.pieces[piece]
    points = [order.frame.point(c) for c in cells]
    lo = order.frame.low(points)
    fits = info.plain.get(frozenset(_minus(p, lo) for p in points), ())
    found: tuple[int, Xyz] | None = None
    for u in fits:  # the same cells, coloured differently: the board's colours say which
        d = _minus(lo, info.low[u])
        found = found or (u, d)
        if len(fits) == 1 or all(
                ch == order.neutral or order.board.get(_moved(p, d), ("", False))[0] in (
                    ch, order.neutral) for p, ch in info.colours[u].items()):
            found = (u, d)
            break
    order.placed[(piece, cells)] = found
    return found


def _keys(order: _Order, placed: Sequence[tuple[str, int, Xyz]], turn: int, shift: Xyz,
          mirrors: bool) -> tuple[tuple[int, int, int, int], ...] | None:
    """The keys, sorted, of ``placed`` (copies of one piece: orientation, shift) turned by
    orientation ``turn`` and moved by ``shift``: each its least orientation number and
    BurrTools' position; None where a piece would be mirrored and ``mirrors`` is off."""
    frame = order.frame
    m = frame.orientations[turn]
    turned = _product(frame)[turn]
    out = []
    for piece, t, d in placed:
        info = order.pieces[piece]
        u = turned[t]
        least = info.least[u]
        if least >= frame.rotations and not mirrors:
            return None
        at = frame.position(_minus(_moved(_moved(_apply(m, d), shift), info.low[u]),
                                   info.low[least]))
        out.append((least, *at))
    return tuple(sorted(out))


Best = tuple[int, Xyz]


def _least(order: _Order, placed: Sequence[tuple[str, int, Xyz]], mirrors: bool
           ) -> Best | None:
    """The board's turn (and shift) that gives the least key in BurrTools' order: the
    placements compared piece by piece (the pivot first, then the others in the file's
    order, the copies of one sorted), keeping at each piece only the turns where it is
    least, so that most turns are dropped after a placement or two."""
    by_piece: dict[str, list[tuple[str, int, Xyz]]] = {}
    for p in placed:
        by_piece.setdefault(p[0], []).append(p)
    names = sorted(by_piece, key=order.rank.__getitem__)
    if order.pivot is not None and order.pivot_piece in by_piece:
        names.remove(order.pivot_piece)
        names.insert(0, order.pivot_piece)
    left = list(order.turns)
    if not mirrors:  # the turns that would mirror a piece are out, whatever comes first
        times, cut, pieces = _product(order.frame), order.frame.rotations, order.pieces
        left = [(t, shift) for t, shift in left
                if all(pieces[p].least[times[t][u]] < cut for p, u, _ in placed)]
    for name in names:
        keyed = [(_keys(order, by_piece[name], t, shift, mirrors), t, shift)
                 for t, shift in left]
        least = min((k for k, _, _ in keyed if k is not None), default=None)
        if least is None:
            return None
        left = [(t, shift) for k, t, shift in keyed if k == least]
        if len(left) == 1:
            break
    return left[0]


def burrtools_image(puzzle: PolyominoPuzzle, solution: PolyominoSolution) -> PolyominoSolution:
    """The image of ``solution`` under the board's symmetries that BurrTools' assembler
    keeps (module docstring); ``solution`` itself off the cube and prism lattices, on a
    board without symmetries, or where it is that image already."""
    if puzzle.wrap is not None or not solution.placements:
        return solution
    frame = frame_of(puzzle.lattice)
    if frame is None:
        return solution
    order = _order(puzzle, frame)
    if len(order.turns) <= 1:
        return solution
    placed = []
    for p in solution.placements:
        found = _placed(order, p.piece, p.cells)
        if found is None:
            return solution
        placed.append((p.piece, *found))
    best = _least(order, placed, puzzle.reflect)
    if best is None or best[0] == 0:
        return solution
    m, shift = frame.orientations[best[0]], best[1]
    return PolyominoSolution(tuple(
        Placement(p.piece, tuple(sorted(frame.cell(_moved(_apply(m, frame.point(c)), shift))
                                        for c in p.cells)))
        for p in solution.placements))
