"""Cells, shapes and the eight symmetries of the square grid.

Used by puzzles/ (to generate placements and symmetry groups) and render/ (to draw).
"""

from puzzlebox.geometry.shapes import Shape, normalize, orientations, parse_grid
from puzzlebox.geometry.symmetry import ROTATIONS, SYMMETRIES, Cell, Symmetry

__all__ = [
    "Cell",
    "Shape",
    "normalize",
    "orientations",
    "parse_grid",
    "Symmetry",
    "SYMMETRIES",
    "ROTATIONS",
]
