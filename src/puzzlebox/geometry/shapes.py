"""Square-grid helpers kept for callers that know they are on squares, and the grid reader."""

from __future__ import annotations

from collections.abc import Mapping

from puzzlebox.geometry.lattice import NO_CELL, Cell, Lattice, Shape, parse_grid
from puzzlebox.geometry.square import SQUARE

__all__ = ["NO_CELL", "normalize", "orientations", "parse_grid"]


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
    return SQUARE
