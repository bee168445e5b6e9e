"""The triangular prism lattice: layers of triangles stacked, cells ``(layer, row, col)``.

Each layer is the triangle lattice (triangle.py: ``(row, col)`` points up when ``row + col``
is even), layer 0 at the bottom; a prism is as tall as a triangle's side (BurrTools' grid
type 1). A cell's neighbours are the three of its triangle in its layer and the prisms
straight above and below it (five faces).

The point group is the triangle's 12 maps, each either keeping the layers or turning them
upside down (``layer -> -layer``): 24 maps. A map is proper (a rotation of space) when its
map of the plane is a rotation and it keeps the layers, or when it is a mirror of the plane
and turns the layers over (a half turn about a horizontal axis): so ``rotate = true`` turns
pieces over, as on cube. Translations move by whole layers and by the triangle lattice's
translations (an up prism stays up).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from puzzlebox.geometry.cube import parse_layers
from puzzlebox.geometry.lattice import (
    Cell,
    Lattice,
    Point3,
    Transform,
    TwoColouring,
    outward,
    register_lattice,
)
from puzzlebox.geometry.triangle import TRIANGLE


def _make(plane: Transform, flip: bool) -> Transform:
    sign = -1 if flip else 1

    def apply(cell: Cell) -> Cell:
        return (sign * cell[0], *plane((cell[1], cell[2])))

    if plane.name == "id":
        name = "flip" if flip else "id"
    else:
        name = f"{plane.name} flip" if flip else plane.name
    return Transform(name, plane.proper != flip, apply)


def _group() -> tuple[Transform, ...]:
    plane = TRIANGLE.group()
    both = [_make(t, flip) for flip in (False, True) for t in plane]
    proper = [t for t in both if t.proper]
    mirror = next(t for t in both if t.name == "mirror")  # col -> -col, layers kept
    improper = [t for t in both if not t.proper and t is not mirror]
    return (*proper, mirror, *improper)


_GROUP = _group()  # identity first, the 12 rotations, then "mirror" (col -> -col) 13th


class PrismLattice(Lattice):
    name = "prism"
    dimensions = 3
    cell_word = "prism"
    transforms = _GROUP
    layer_lattice = "triangle"

    def neighbours(self, cell: Cell) -> tuple[Cell, ...]:
        layer, r, c = cell
        vertical = (r + 1, c) if (r + c) % 2 == 0 else (r - 1, c)
        return (
            (layer - 1, r, c),
            (layer, r, c - 1),
            (layer, r, c + 1),
            (layer, *vertical),
            (layer + 1, r, c),
        )

    def can_translate(self, vector: Cell) -> bool:
        return (vector[1] + vector[2]) % 2 == 0

    def normalize_offset(self, cells: Iterable[Cell]) -> Cell:
        """Lowest layer 0; in the plane as on triangle (smallest row 0, smallest column 0
        or 1 so that no triangle turns over)."""
        cells = list(cells)
        dl = -min(cell[0] for cell in cells)
        dr, dc = TRIANGLE.normalize_offset((cell[1], cell[2]) for cell in cells)
        return (dl, dr, dc)

    def two_colouring(self) -> TwoColouring:
        """Up and down prisms: every map of the group keeps all up triangles up or turns
        all of them down (turning the layers over changes neither), translations keep them."""
        return TwoColouring("up and down prisms", "up", "down",
                            lambda c: (c[1] + c[2]) % 2 == 0)

    def slide_steps(self) -> tuple[Cell, ...]:
        """BurrTools' four ways of sliding prisms (its movement cache for grid type 1), in
        its order, each followed by its opposite: up the layers; along a row, to the next
        prism pointing the same way (two columns); up to the right at 60 degrees and up to
        the left at 120 degrees (a row up and a column across: an up prism stays up). The
        order decides which of two equally short separations the search meets first, so it
        is BurrTools' (z, then its x, then its (1, 1) and (-1, 1) with its rows counting
        up)."""
        return ((1, 0, 0), (-1, 0, 0), (0, 0, 2), (0, 0, -2),
                (0, -1, 1), (0, 1, -1), (0, -1, -1), (0, 1, 1))

    def swept(self, cell: Cell, step: Cell) -> tuple[Cell, ...]:
        """A prism sliding one step up or down the layers passes into the prism it lands on;
        one step in the plane slides along an edge of its triangle through the triangle
        beyond that edge's far end, pointing the other way, then lands: the cells of its
        strip, the one between and the one it lands on."""
        layer, r, c = cell
        if step[0]:
            return ((layer + step[0], r, c),)
        dr, dc = step[1], step[2]
        landing = (layer, r + dr, c + dc)
        if dr == 0:  # along the row: the triangle beside it, then the next one its way
            return ((layer, r, c + dc // 2), landing)
        up = (r + c) % 2 == 0
        if up == (dr < 0):  # towards its apex (up prism going up): beside it in its row
            return ((layer, r, c + dc), landing)
        return ((layer, r + dr, c), landing)  # towards its base: across the base first

    def solid_faces(self, cell: Cell) -> list[tuple[Point3, ...]]:
        """The prism: its triangle (the triangle lattice's polygon, in the same units: a
        side 1, as tall as the prism) at the bottom and top of its layer, and a rectangle
        on each side."""
        layer = cell[0]
        corners = TRIANGLE.polygon((cell[1], cell[2]))
        assert corners is not None  # every triangle is drawn flat
        low = [(float(layer), y, x) for x, y in corners]
        high = [(float(layer + 1), y, x) for x, y in corners]
        sides = [(low[i], low[(i + 1) % 3], high[(i + 1) % 3], high[i]) for i in range(3)]
        return outward([tuple(low), tuple(high), *sides])

    def parse(self, value: Any) -> dict[Cell, str]:
        """Layers from the bottom up, each a triangle grid; a single string is one layer."""
        return parse_layers(value, self.name)


PRISM = register_lattice(PrismLattice())
