"""Lattices of cells (square, triangle, hexagon, cube, prism, tetra-octa), shapes and their
symmetries.

Used by puzzles/ (to generate placements and symmetry groups) and render/ (to draw);
lattice.py says what a lattice must provide, one module per lattice provides it.
"""

from puzzlebox.geometry.lattice import (
    Cell,
    GridError,
    Lattice,
    Shape,
    Transform,
    TwoColouring,
    lattice_named,
    lattice_names,
)
from puzzlebox.geometry.shapes import normalize, orientations, parse_grid
from puzzlebox.geometry.symmetry import ROTATIONS, SYMMETRIES, Symmetry

__all__ = [
    "Cell",
    "GridError",
    "Lattice",
    "Transform",
    "TwoColouring",
    "lattice_named",
    "lattice_names",
    "Shape",
    "normalize",
    "orientations",
    "parse_grid",
    "Symmetry",
    "SYMMETRIES",
    "ROTATIONS",
]
