"""Shapes as sets of cells, their normal forms and their distinct orientations."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from puzzlebox.geometry.symmetry import Cell, Symmetry, allowed_symmetries

NO_CELL = frozenset(". ")


@dataclass(frozen=True)
class Shape:
    """A set of cells, each with a colour character, translated so its top-left is (0, 0).

    Two shapes are equal when they have the same cells with the same colours, which is what
    makes orientation de-duplication a set operation.
    """

    cells: tuple[Cell, ...]
    colors: tuple[str, ...]

    @staticmethod
    def from_cells(cells: Mapping[Cell, str] | Iterable[Cell]) -> Shape:
        if not isinstance(cells, Mapping):
            cells = {cell: "#" for cell in cells}
        return normalize(cells)

    def __len__(self) -> int:
        return len(self.cells)

    def color_map(self) -> dict[Cell, str]:
        return dict(zip(self.cells, self.colors, strict=True))

    def transformed(self, sym: Symmetry) -> Shape:
        return normalize({sym(cell): color for cell, color in zip(self.cells, self.colors)})

    @property
    def height(self) -> int:
        return 1 + max(r for r, _ in self.cells)

    @property
    def width(self) -> int:
        return 1 + max(c for _, c in self.cells)

    def to_text(self) -> str:
        grid = [["."] * self.width for _ in range(self.height)]
        for (r, c), color in zip(self.cells, self.colors):
            grid[r][c] = color
        return "\n".join("".join(row) for row in grid)


def normalize(cells: Mapping[Cell, str]) -> Shape:
    """Translate cells so the smallest row and column are 0, in sorted order."""
    if not cells:
        raise ValueError("a shape needs at least one cell")
    r0 = min(r for r, _ in cells)
    c0 = min(c for _, c in cells)
    items = sorted(((r - r0, c - c0), color) for (r, c), color in cells.items())
    return Shape(tuple(cell for cell, _ in items), tuple(color for _, color in items))


def orientations(shape: Shape, rotate: bool = True, reflect: bool = True) -> list[Shape]:
    """The distinct orientations of a shape under the rules, in a stable order.

    A symmetric piece yields fewer than eight: the I pentomino has two, the X one.
    """
    seen: dict[Shape, None] = {}
    for sym in allowed_symmetries(rotate, reflect):
        seen.setdefault(shape.transformed(sym), None)
    return list(seen)


def parse_grid(text: str) -> tuple[dict[Cell, str], list[str]]:
    """Read a drawn grid into ``{(row, col): colour}`` and its rows.

    Rows are separated by newlines, or by ``/`` when the grid is written on one line.
    ``.`` and space are no cell. Leading and trailing blank lines are dropped.
    """
    text = text.replace("\r\n", "\n")
    rows = text.split("\n") if "\n" in text else text.split("/")
    while rows and not rows[0].strip():
        rows.pop(0)
    while rows and not rows[-1].strip():
        rows.pop()
    cells = {
        (r, c): ch
        for r, row in enumerate(rows)
        for c, ch in enumerate(row)
        if ch not in NO_CELL
    }
    return cells, rows
