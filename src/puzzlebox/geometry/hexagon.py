"""The hexagon lattice (polyhexes): axial cells ``(row r, column q)``, six neighbours.

Picture (x right, y down): pointy-top hexagons, one unit wide (flat side to flat side), the
centre of ``(r, q)`` at ``x = q + r/2 + 1/2``, ``y = r*sqrt(3)/2 + 1/sqrt(3)``; each row is
shifted half a hexagon right of the row above, so ``".##/###/##."`` is a regular hexagon of
seven cells.

The 12 maps are linear in ``(r, q)`` (axial coordinates are cube coordinates ``x = q``,
``z = r``, ``y = -q - r`` with one dropped): the rotation by 60 degrees (clockwise on the
picture) is ``(r, q) -> (q + r, -r)``, and the mirror is ``(r, q) -> (r, -q - r)``.

On hexagons the contract's reflect-only map "``col`` -> ``-col``" means the mirror across a
vertical axis *of the picture*: the picture's x is ``q + r/2``, which ``q -> -q - r`` negates
while keeping every row. (``q -> -q`` alone is not a symmetry of this lattice: it would not
keep neighbours.)
"""

from __future__ import annotations

import math
from typing import Any

from puzzlebox.geometry.lattice import Cell, Lattice, Point, Transform, register_lattice
from puzzlebox.geometry.square import parse_rows

Matrix = tuple[int, int, int, int]  # [[a, b], [c, d]] acting on the column vector (r, q)

_H = math.sqrt(3) / 2
_R = 1 / math.sqrt(3)  # circumradius of a hexagon one unit wide


def _mul(m: Matrix, n: Matrix) -> Matrix:
    """The matrix product ``m n`` (apply ``n`` first)."""
    a, b, c, d = m
    e, f, g, k = n
    return (a * e + b * g, a * f + b * k, c * e + d * g, c * f + d * k)


def _make(name: str, m: Matrix) -> Transform:
    a, b, c, d = m
    return Transform(
        name,
        a * d - b * c == 1,
        lambda cell: (a * cell[0] + b * cell[1], c * cell[0] + d * cell[1]),
    )


_IDENTITY: Matrix = (1, 0, 0, 1)
_ROTATE: Matrix = (1, 1, -1, 0)  # (r, q) -> (r + q, -r): 60 degrees clockwise
_MIRROR: Matrix = (1, 0, -1, -1)  # (r, q) -> (r, -q - r): the picture's vertical mirror


def _group() -> tuple[Transform, ...]:
    rotations = [_IDENTITY]
    for _ in range(5):
        rotations.append(_mul(_ROTATE, rotations[-1]))
    proper = [_make("id" if k == 0 else f"r{60 * k}", m) for k, m in enumerate(rotations)]
    # "mirror rN": the mirror first, then the rotation by N degrees.
    mirrors = [
        _make("mirror" if k == 0 else f"mirror r{60 * k}", _mul(m, _MIRROR))
        for k, m in enumerate(rotations)
    ]
    return tuple(proper + mirrors)


_GROUP = _group()  # identity first, the six rotations, then "mirror" seventh


class HexagonLattice(Lattice):
    name = "hexagon"
    dimensions = 2
    cell_word = "hexagon"
    transforms = _GROUP

    def neighbours(self, cell: Cell) -> tuple[Cell, ...]:
        r, q = cell
        return ((r - 1, q), (r - 1, q + 1), (r, q - 1), (r, q + 1), (r + 1, q - 1), (r + 1, q))


    def turn(self) -> Transform:
        return self.group()[1]  # a quarter (square) or sixth (triangle, hexagon) turn clockwise

    def can_translate(self, vector: Cell) -> bool:
        return True

    # No two_colouring: three hexagons meet at every corner, so no colouring in two classes
    # is a checkerboard (neighbours always of different classes) for parity proofs.

    def parse(self, value: Any) -> dict[Cell, str]:
        return parse_rows(value, self.name)

    def polygon(self, cell: Cell) -> list[Point]:
        r, q = cell
        x = q + r / 2 + 0.5
        y = r * _H + _R
        return [
            (x, y - _R),
            (x + 0.5, y - _R / 2),
            (x + 0.5, y + _R / 2),
            (x, y + _R),
            (x - 0.5, y + _R / 2),
            (x - 0.5, y - _R / 2),
        ]


HEXAGON = register_lattice(HexagonLattice())
