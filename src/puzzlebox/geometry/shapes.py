"""Square-grid helpers kept for callers that know they are on squares, and the grid reader."""

from __future__ import annotations

from collections.abc import Mapping

from puzzlebox.geometry.grid_text import invisible_character
from puzzlebox.geometry.lattice import Cell, GridError, Lattice, Shape

NO_CELL = frozenset(". ")


def normalize(cells: Mapping[Cell, str]) -> Shape:
    """Translate square-grid cells so the smallest row and column are 0, in sorted order."""
    return _square().normalize(cells)


def orientations(shape: Shape, rotate: bool = True, reflect: bool = True) -> list[Shape]:
    """The distinct orientations of a square-grid shape under the rules, in a stable order.

    A symmetric piece yields fewer than eight: the I pentomino has two, the X one. Other
    lattices: ``lattice.orientations``.
    """
    return _square().orientations(shape, rotate, reflect)


def _square() -> Lattice:
    from puzzlebox.geometry.square import SQUARE

    return SQUARE


def parse_grid(text: str) -> tuple[dict[Cell, str], list[str]]:
    """Read a drawn grid into ``{(row, col): colour}`` and its rows.

    Rows are separated by newlines, or by ``/`` when the grid is written on one line.
    ``.`` and space are no cell. Leading and trailing blank lines are dropped. A tab or
    another invisible character is refused (geometry/grid_text.py), with its place.
    """
    problem = invisible_character(text)
    if problem is not None:
        raise GridError(problem)
    text = text.replace("\r\n", "\n")
    rows = text.split("\n") if "\n" in text else text.split("/")
    while rows and not rows[0].strip():
        rows.pop(0)
    while rows and not rows[-1].strip():
        rows.pop()
    cells: dict[Cell, str] = {
        (r, c): ch
        for r, row in enumerate(rows)
        for c, ch in enumerate(row)
        if ch not in NO_CELL
    }
    return cells, rows
