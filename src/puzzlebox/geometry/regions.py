"""Regular regions of each lattice: the shapes that ``order`` fills with copies of a piece.

The order of a polyform is the fewest copies that fill some region "of a simple shape", and
which shapes are simple depends on the grid: rectangles of squares, boxes of cubes, and on
the triangle and hexagon grids the parallelograms, triangles and hexagons that their cells
make. That knowledge is geometry, so it lives here (keyed by the lattice's name, like the
lattice modules themselves); puzzles/order.py only asks :func:`regions`.

Every region comes in its cells, in the lattice's coordinates (rows counted down, a
triangle pointing up where ``row + col`` is even, axial hexagons), and once per congruence
class: a 3x2 rectangle is the 2x3 one turned.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from itertools import product

from puzzlebox.geometry.lattice import Cell, Lattice


@dataclass(frozen=True)
class Region:
    """A region: what it is (``kind``), its measures and its cells."""

    kind: str  # "rectangle", "box", "parallelogram", "triangle", "hexagon"
    measures: tuple[int, ...]  # sides (rows x cols, layers x rows x cols) or (side,)
    cells: frozenset[Cell]

    @property
    def size(self) -> str:
        """``2x3`` for rectangles and boxes (their usual name), else the whole label."""
        if self.kind in ("rectangle", "box"):
            return "x".join(map(str, self.measures))
        return self.label

    @property
    def label(self) -> str:
        """``2x3 rectangle``, ``2x2x5 box``, ``2x3 parallelogram``, ``hexagon of side 2``."""
        if len(self.measures) == 1:
            return f"{self.kind} of side {self.measures[0]}"
        return f"{'x'.join(map(str, self.measures))} {self.kind}"


def block(dims: tuple[int, ...]) -> frozenset[Cell]:
    """Every cell whose coordinates lie in ``range(dims[0]) x range(dims[1]) x ...``."""
    return frozenset(product(*(range(d) for d in dims)))


def _sides(area: int, parts: int) -> Iterator[tuple[int, ...]]:
    """Non-decreasing tuples of ``parts`` positive integers with product ``area``."""
    if parts == 1:
        yield (area,)
        return
    for first in range(1, area + 1):
        if first**parts > area:
            return
        if area % first == 0:
            for rest in _sides(area // first, parts - 1):
                if rest[0] >= first:
                    yield (first, *rest)


def _blocks(kind: str, parts: int) -> Callable[[int], Iterator[Region]]:
    def make(area: int) -> Iterator[Region]:
        for dims in _sides(area, parts):
            yield Region(kind, dims, block(dims))

    return make


def _triangle_parallelogram(rows: int, width: int) -> frozenset[Cell]:
    """Rows of ``2 * width`` triangles, each starting half a triangle left of the one
    above: a parallelogram with sides ``rows`` and ``width`` (angles of 60 and 120
    degrees); the one with the sides exchanged is its mirror image turned."""
    return frozenset((r, c) for r in range(rows) for c in range(-r, 2 * width - r))


def _triangle_triangle(side: int) -> frozenset[Cell]:
    """A triangle of ``side`` pointing up: row r holds 2r + 1 triangles, the first up."""
    middle = side - 1 + (side - 1) % 2  # an even column: the top triangle points up
    return frozenset((r, c) for r in range(side) for c in range(middle - r, middle + r + 1))


def _triangle_hexagon(side: int) -> frozenset[Cell]:
    """A hexagon of ``side`` (6 side^2 triangles): rows 2 side + 2r + 1 long growing to the
    middle and shrinking after it, the top half starting with an up triangle."""
    cells: set[Cell] = set()
    for r in range(2 * side):
        k = r if r < side else 2 * side - 1 - r
        cells.update((r, c) for c in range(-k, 2 * side + k + 1))
    return frozenset(cells)


def _hexagon_hexagon(side: int) -> frozenset[Cell]:
    """A hexagon of hexagons with ``side`` cells on each side (3 side^2 - 3 side + 1): the
    axial cells within ``side - 1`` steps of a centre."""
    n = 2 * side - 1
    return frozenset((r, q) for r in range(n) for q in range(n)
                     if side - 1 <= r + q <= 3 * side - 3)


def _triangle_regions(area: int) -> Iterator[Region]:
    if area % 2 == 0:
        for rows, width in _sides(area // 2, 2):
            yield Region("parallelogram", (rows, width), _triangle_parallelogram(rows, width))
    side = round(area**0.5)
    if side * side == area:
        yield Region("triangle", (side,), _triangle_triangle(side))
    if area % 6 == 0:
        side = round((area // 6) ** 0.5)
        if 6 * side * side == area:
            yield Region("hexagon", (side,), _triangle_hexagon(side))


def _hexagon_regions(area: int) -> Iterator[Region]:
    for rows, cols in _sides(area, 2):
        yield Region("parallelogram", (rows, cols), block((rows, cols)))
    side = 1
    while 3 * side * side - 3 * side + 1 < area:
        side += 1
    if 3 * side * side - 3 * side + 1 == area and side > 1:
        yield Region("hexagon", (side,), _hexagon_hexagon(side))


_FAMILIES: dict[str, tuple[str, Callable[[int], Iterator[Region]]]] = {
    "square": ("rectangle", _blocks("rectangle", 2)),
    "cube": ("box", _blocks("box", 3)),
    "triangle": ("parallelogram, triangle or hexagon", _triangle_regions),
    "hexagon": ("parallelogram or hexagon", _hexagon_regions),
}


def regions(lattice: Lattice, area: int) -> Iterator[Region]:
    """The regions of ``area`` cells on ``lattice``, one per congruence class, in a stable
    order (rectangles and boxes by their sides, shortest first)."""
    return _FAMILIES[lattice.name][1](area)


def region_noun(lattice: Lattice) -> str:
    """What the regions of a lattice are called, for "no rectangle up to area N"."""
    return _FAMILIES[lattice.name][0]
