"""The triangle lattice (polyiamonds): cells ``(row, col)``, up when ``row + col`` is even.

Picture (x right, y down, a triangle 1 wide and sqrt(3)/2 high): the triangle ``(row, col)``
spans x from ``col/2`` to ``col/2 + 1`` and y from ``row*h`` to ``(row + 1)*h``; an up
triangle has its apex at the top. Its neighbours are the triangles left and right in its row
and the one below it (up triangle) or above it (down triangle).

Why a second coordinate system: the 12 maps of the lattice (6 rotations by 60 degrees about
a vertex, 6 mirrors) are not linear in ``(row, col)`` (whether a triangle points up decides
where it goes). They are linear in *three times a triangle's centroid* written in the basis
``e1 = (1, 0)``, ``e2 = (1/2, h)`` with the origin at the vertex ``(1/2, 0)``: there the
rotation by 60 degrees (clockwise on the picture) is ``(u, v) -> (-v, u + v)`` and the
mirror across the vertical line ``x = 1/2`` is ``(u, v) -> (-u - v, v)``, which in
``(row, col)`` is ``col -> -col`` (the contract's reflect-only map). Centroids are the points
with ``u = v = 1`` (down) or ``u = v = 2`` (up) modulo 3, and integer matrices that keep the
vertex lattice and fix a vertex permute them, so every map sends triangles onto triangles and
neighbours (triangles sharing two vertices) onto neighbours.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from typing import Any

from puzzlebox.geometry.lattice import (
    Cell,
    Lattice,
    Point,
    Transform,
    TwoColouring,
    register_lattice,
)
from puzzlebox.geometry.square import parse_rows

Matrix = tuple[int, int, int, int]  # [[a, b], [c, d]] acting on the column vector (u, v)

_H = math.sqrt(3) / 2


def to_uv(cell: Cell) -> tuple[int, int]:
    """Three times the centroid of triangle ``(row, col)`` in the basis e1, e2 (see above)."""
    r, c = cell
    if (r + c) % 2 == 0:  # up: centroid at 2/3 of the row's height
        return ((3 * (c - r) - 2) // 2, 3 * r + 2)
    return ((3 * (c - r) - 1) // 2, 3 * r + 1)


def from_uv(u: int, v: int) -> Cell:
    """The triangle whose centroid (times 3) is ``(u, v)``; the inverse of :func:`to_uv`."""
    if v % 3 == 2:
        r = (v - 2) // 3
        return (r, r + (2 * u + 2) // 3)
    if v % 3 == 1:
        r = (v - 1) // 3
        return (r, r + (2 * u + 1) // 3)
    raise ValueError(f"({u}, {v}) is not the centroid of a triangle")


def _mul(m: Matrix, n: Matrix) -> Matrix:
    """The matrix product ``m n`` (apply ``n`` first)."""
    a, b, c, d = m
    e, f, g, k = n
    return (a * e + b * g, a * f + b * k, c * e + d * g, c * f + d * k)


def _make(name: str, m: Matrix) -> Transform:
    a, b, c, d = m

    def apply(cell: Cell) -> Cell:
        u, v = to_uv(cell)
        return from_uv(a * u + b * v, c * u + d * v)

    return Transform(name, a * d - b * c == 1, apply)


_IDENTITY: Matrix = (1, 0, 0, 1)
_ROTATE: Matrix = (0, -1, 1, 1)  # 60 degrees clockwise on the picture
_MIRROR: Matrix = (-1, -1, 0, 1)  # across a vertical line: col -> -col


def _group() -> tuple[Transform, ...]:
    rotations = [_IDENTITY]
    for _ in range(5):
        rotations.append(_mul(_ROTATE, rotations[-1]))
    proper = [_make("id" if k == 0 else f"r{60 * k}", m) for k, m in enumerate(rotations)]
    mirrors = [
        _make("mirror" if k == 0 else f"mirror r{60 * k}", _mul(m, _MIRROR))
        for k, m in enumerate(rotations)
    ]
    return tuple(proper + mirrors)


_GROUP = _group()  # identity first, the six rotations, then "mirror" (col -> -col) seventh


class TriangleLattice(Lattice):
    name = "triangle"
    dimensions = 2
    cell_word = "triangle"
    transforms = _GROUP

    def neighbours(self, cell: Cell) -> tuple[Cell, ...]:
        r, c = cell
        vertical = (r + 1, c) if (r + c) % 2 == 0 else (r - 1, c)
        return ((r, c - 1), (r, c + 1), vertical)


    def turn(self) -> Transform:
        return self.group()[1]  # a quarter (square) or sixth (triangle, hexagon) turn clockwise

    def can_translate(self, vector: Cell) -> bool:
        return (vector[0] + vector[1]) % 2 == 0

    def normalize_offset(self, cells: Iterable[Cell]) -> Cell:
        """Smallest row 0; smallest column 0, or 1 where 0 would turn triangles over."""
        cells = list(cells)
        dr = -min(cell[0] for cell in cells)
        dc = -min(cell[1] for cell in cells)
        if (dr + dc) % 2:
            dc += 1
        return (dr, dc)

    def two_colouring(self) -> TwoColouring:
        """Every map of the group either keeps all up triangles up or turns all of them down,
        and translations keep them: so a piece covers the same up/down numbers wherever and
        however it is placed, up to exchanging the two."""
        return TwoColouring("up and down triangles", "up", "down", lambda c: (c[0] + c[1]) % 2 == 0)

    def parse(self, value: Any) -> dict[Cell, str]:
        return parse_rows(value, self.name)

    def polygon(self, cell: Cell) -> list[Point]:
        r, c = cell
        left, right, mid = c / 2, c / 2 + 1, c / 2 + 0.5
        top, bottom = r * _H, (r + 1) * _H
        if (r + c) % 2 == 0:
            return [(left, bottom), (mid, top), (right, bottom)]
        return [(left, top), (right, top), (mid, bottom)]


TRIANGLE = register_lattice(TriangleLattice())
