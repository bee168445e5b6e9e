"""The sphere lattice (BurrTools' grid 2): balls packed face-centred cubic, each touching 12.

Cells are the integer points ``(layer, row, col)`` whose coordinates have an even sum, as
BurrTools numbers its sphere grid (src/lib/voxel_2.cpp: a voxel ``(x, y, z)`` is a ball when
``x + y + z`` is even, ``(z, y, x)`` here as on ``cube``). Two balls touch when they differ
by one in two coordinates (12 neighbours, at distance sqrt 2; a ball's radius is
sqrt 2 / 2). A grid is written as on ``cube``: layers from the bottom up, and in a layer a
character only where ``layer + row + col`` is even, so that a layer is a checkerboard
(docs/puzzle-format.md).

The point group is the cube's 48 signed permutations (they keep the parity of the sum);
translations are the vectors with an even sum. A piece of balls is a rigid body, and some
rotations that are no map of the lattice still set a piece on it: a piece lying in two
neighbouring layers across a body diagonal, turned by 60 degrees about that diagonal,
lands on balls again (the layers' stacking A B becomes A C, which the packing also has).
BurrTools tries 120 rotations for that (the cube's 24, and each of them after a turn by 60
degrees about one of the 8 body-diagonal directions; their mirror images with ``reflect``),
keeping an orientation where every ball lands on a ball; :meth:`SphereLattice.orientations`
does the same, so a piece has the orientations BurrTools gives it. The board's symmetries
(``distinct``) are the 48 maps of the lattice.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Sequence
from typing import Any

from puzzlebox.geometry.cube import CubeLattice
from puzzlebox.geometry.lattice import (
    Cell,
    GridError,
    Lattice,
    Shape,
    register_lattice,
)

Matrix = tuple[tuple[int, int, int], tuple[int, int, int], tuple[int, int, int]]  # times 3


def _matrix(rows: Sequence[Sequence[int]]) -> Matrix:
    return ((rows[0][0], rows[0][1], rows[0][2]), (rows[1][0], rows[1][1], rows[1][2]),
            (rows[2][0], rows[2][1], rows[2][2]))


def _signed_permutations() -> list[Matrix]:
    out = []
    for perm in itertools.permutations(range(3)):
        for signs in itertools.product((1, -1), repeat=3):
            rows = [[0, 0, 0] for _ in range(3)]
            for i in range(3):
                rows[i][perm[i]] = 3 * signs[i]
            out.append(_matrix(rows))
    return out


def _det(m: Matrix) -> int:
    return (m[0][0] * (m[1][1] * m[2][2] - m[1][2] * m[2][1])
            - m[0][1] * (m[1][0] * m[2][2] - m[1][2] * m[2][0])
            + m[0][2] * (m[1][0] * m[2][1] - m[1][1] * m[2][0]))


def _mul(a: Matrix, b: Matrix) -> Matrix:
    """``a b`` for matrices written three times over: the product is divided by 3."""
    return _matrix([[sum(a[i][k] * b[k][j] for k in range(3)) // 3 for j in range(3)]
                    for i in range(3)])


def _turn60(axis: Sequence[int]) -> Matrix:
    """Three times the rotation by 60 degrees about the body diagonal ``axis`` (entries
    +-1): ``I/2 + K/2 + n n^T / 6`` with ``K`` the cross product by the unit axis."""
    x, y, z = axis
    cross = ((0, -z, y), (z, 0, -x), (-y, x, 0))
    return _matrix([[(9 * (i == j) + 9 * cross[i][j] + 3 * axis[i] * axis[j]) // 6
                     for j in range(3)] for i in range(3)])


def _twins() -> tuple[Matrix, ...]:
    """The 96 rotations beyond the cube's: each of its 24 after a turn by 60 degrees about
    one of the 8 body-diagonal directions, each once."""
    cube = [m for m in _signed_permutations() if _det(m) > 0]
    seen: dict[Matrix, None] = {}
    for g in cube:
        for axis in itertools.product((1, -1), repeat=3):
            seen.setdefault(_mul(g, _turn60(axis)), None)
    return tuple(m for m in seen if m not in set(cube))


TWINS = _twins()
NEIGHBOURS: tuple[Cell, ...] = tuple(
    v for v in itertools.product((-1, 0, 1), repeat=3) if sum(map(abs, v)) == 2)


class SphereLattice(Lattice):
    name = "sphere"
    dimensions = 3
    cell_word = "sphere"
    ball_radius = 2 ** 0.5 / 2  # touching balls: half the distance between neighbours
    transforms = CubeLattice.transforms  # signed permutations keep the parity of the sum

    def neighbours(self, cell: Cell) -> tuple[Cell, ...]:
        return tuple((cell[0] + a, cell[1] + b, cell[2] + c) for a, b, c in NEIGHBOURS)

    def holds(self, cell: Cell) -> bool:
        return sum(cell) % 2 == 0

    def can_translate(self, vector: Cell) -> bool:
        return sum(vector) % 2 == 0

    def normalize_offset(self, cells: Iterable[Cell]) -> Cell:
        """The smallest layer, row and column become 0, or the column 1 where 0 would move
        by an odd vector (off the balls)."""
        low = [min(axis) for axis in zip(*cells, strict=True)]
        shift = [-v for v in low]
        if sum(shift) % 2:
            shift[2] += 1
        return tuple(shift)

    def orientations(self, shape: Shape, rotate: bool = True, reflect: bool = True
                     ) -> list[Shape]:
        """The lattice's orientations, then (where ``rotate``) those of the 96 further
        rotations, and with ``reflect`` their mirror images, that set every ball of the
        shape on a ball, in that order (BurrTools' sphere grid gives a piece these)."""
        seen = dict.fromkeys(super().orientations(shape, rotate, reflect))
        if not rotate:
            return list(seen)
        signs = (1, -1) if reflect else (1,)
        first = shape.cells[0]
        for sign in signs:
            for m in TWINS:
                moved: dict[Cell, str] = {}
                for cell, colour in zip(shape.cells, shape.colors, strict=True):
                    d = (cell[0] - first[0], cell[1] - first[1], cell[2] - first[2])
                    image = [sign * (m[i][0] * d[0] + m[i][1] * d[1] + m[i][2] * d[2])
                             for i in range(3)]
                    if any(v % 3 for v in image) or sum(image) // 3 % 2:
                        break
                    moved[(image[0] // 3, image[1] // 3, image[2] // 3)] = colour
                else:
                    seen.setdefault(self.normalize(moved), None)
        return list(seen)

    # -- taking apart (#37) ------------------------------------------------------------------
    def slide_steps(self) -> tuple[Cell, ...]:
        """The 12 directions to a touching ball, then the 6 of the cube's axes (two units:
        the nearest ball straight along an axis), each followed by its opposite."""
        out: list[Cell] = []
        for step in [v for v in NEIGHBOURS if v > (0, 0, 0)] + [(0, 0, 2), (0, 2, 0), (2, 0, 0)]:
            out += [step, (-step[0], -step[1], -step[2])]
        return tuple(out)

    def swept(self, cell: Cell, step: Cell) -> tuple[Cell, ...]:
        """The balls that a ball sliding one step runs into: those whose centre comes
        nearer than two radii (sqrt 2) to the segment its centre travels; a ball it only
        touches on the way is passed."""
        out = []
        reach = max(map(abs, step)) + 2
        length = sum(v * v for v in step)
        for d in itertools.product(range(-reach, reach + 1), repeat=3):
            if sum(d) % 2 or d == (0, 0, 0):
                continue
            # the squared distance from the centre d to the segment 0..step, in integers
            along = sum(a * b for a, b in zip(d, step))
            if along <= 0:
                near = sum(a * a for a in d) < 2
            elif along >= length:
                near = sum((a - b) ** 2 for a, b in zip(d, step)) < 2
            else:  # |d|^2 - along^2 / length < 2
                near = sum(a * a for a in d) * length - along * along < 2 * length
            if near:
                out.append((cell[0] + d[0], cell[1] + d[1], cell[2] + d[2]))
        return tuple(out)

    def parse(self, value: Any) -> dict[Cell, str]:
        """Layers as on ``cube``; a character where ``layer + row + col`` is odd is refused,
        with its layer, row and column (no ball is there)."""
        try:
            cells = CubeLattice().parse(value)
        except GridError as error:
            raise GridError(str(error).replace("a cube grid", "a sphere grid"),
                            error.text_line) from None
        for cell in sorted(cells):
            if sum(cell) % 2:
                layer, row, col = cell
                raise GridError(
                    f"layer {layer}, row {row}, column {col} is no ball of the sphere lattice: "
                    "balls stand where layer + row + column is even (each layer a "
                    "checkerboard)")
        return cells


SPHERE = register_lattice(SphereLattice())
