"""The square lattice: cells ``(row, col)``, four neighbours, the eight maps of D4."""

from __future__ import annotations

from typing import Any

from puzzlebox.geometry.lattice import (
    Cell,
    GridError,
    Lattice,
    Point,
    Transform,
    TwoColouring,
    parse_grid,
    register_lattice,
)
from puzzlebox.geometry.symmetry import SYMMETRIES, Symmetry


def _transform(sym: Symmetry) -> Transform:
    proper = sym.a * sym.d - sym.b * sym.c == 1
    return Transform(sym.name, proper, lambda cell: sym((cell[0], cell[1])))


_GROUP = tuple(_transform(sym) for sym in SYMMETRIES)  # identity first, mirror fifth


def parse_rows(value: Any, lattice: str) -> dict[Cell, str]:
    """A flat grid string as ``{(row, col): character}`` (shared by the flat lattices)."""
    if not isinstance(value, str):
        kind = "a list of layers" if isinstance(value, list) else type(value).__name__
        raise GridError(
            f"a {lattice} grid must be a string of rows, not {kind}"
            + (" (layers are for lattice = \"cube\")" if isinstance(value, list) else "")
        )
    cells, _ = parse_grid(value)
    return dict(cells)


class SquareLattice(Lattice):
    name = "square"
    dimensions = 2
    cell_word = "square"
    unit_squares = True
    transforms = _GROUP

    def neighbours(self, cell: Cell) -> tuple[Cell, ...]:
        r, c = cell
        return ((r - 1, c), (r, c - 1), (r, c + 1), (r + 1, c))


    def turn(self) -> Transform:
        return self.group()[1]  # a quarter (square) or sixth (triangle, hexagon) turn clockwise

    def can_translate(self, vector: Cell) -> bool:
        return True

    def two_colouring(self) -> TwoColouring:
        return TwoColouring("checkerboard", "dark", "light", lambda c: (c[0] + c[1]) % 2 == 0)

    def parse(self, value: Any) -> dict[Cell, str]:
        return parse_rows(value, self.name)

    def polygon(self, cell: Cell) -> list[Point]:
        r, c = cell
        return [(c, r), (c + 1, r), (c + 1, r + 1), (c, r + 1)]


SQUARE = register_lattice(SquareLattice())
