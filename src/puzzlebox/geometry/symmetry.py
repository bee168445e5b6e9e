"""The dihedral group D4: the eight rotations and reflections of the square grid.

A symmetry is a 2x2 integer matrix acting on ``(row, col)``; cells are translated back into
place afterwards by whoever applies it (shapes are normalised, boards are matched by offset).
"""

from __future__ import annotations

from dataclasses import dataclass

from puzzlebox.geometry.lattice import Cell


@dataclass(frozen=True)
class Symmetry:
    """One element of D4, as the matrix ``[[a, b], [c, d]]`` applied to ``(row, col)``."""

    name: str
    a: int
    b: int
    c: int
    d: int

    def __call__(self, cell: Cell) -> Cell:
        r, k = cell
        return (self.a * r + self.b * k, self.c * r + self.d * k)

    def then(self, other: Symmetry) -> Symmetry:
        """The symmetry that applies ``self`` first and ``other`` second."""
        a = other.a * self.a + other.b * self.c
        b = other.a * self.b + other.b * self.d
        c = other.c * self.a + other.d * self.c
        d = other.c * self.b + other.d * self.d
        return _BY_MATRIX[(a, b, c, d)]


# Clockwise rotation on screen coordinates (row grows downwards): (r, c) -> (c, -r).
SYMMETRIES: tuple[Symmetry, ...] = (
    Symmetry("id", 1, 0, 0, 1),
    Symmetry("r90", 0, 1, -1, 0),
    Symmetry("r180", -1, 0, 0, -1),
    Symmetry("r270", 0, -1, 1, 0),
    Symmetry("mirror", 1, 0, 0, -1),  # left-right
    Symmetry("flip", -1, 0, 0, 1),  # top-bottom
    Symmetry("transpose", 0, 1, 1, 0),  # main diagonal
    Symmetry("antitranspose", 0, -1, -1, 0),
)
ROTATIONS: tuple[Symmetry, ...] = SYMMETRIES[:4]
IDENTITY = SYMMETRIES[0]
MIRROR = SYMMETRIES[4]
_BY_MATRIX = {(s.a, s.b, s.c, s.d): s for s in SYMMETRIES}


