"""The rhombic lattice (BurrTools' grid 3): rhombic dodecahedra, built of tetrahedra.

Space is cut into unit cubes, and each cube into 24 tetrahedra by the six planes through its
centre and two opposite edges: each tetrahedron has the cube's centre as its apex and a
quarter of one face (the triangle between the face's centre and one of its edges) as its
base. A rhombic dodecahedron is the 24 tetrahedra of one cube with the 4 of each of its six
neighbours that lean on it (48 in all); the dodecahedra centred on the cubes whose
coordinates have an even sum fill space. Stewart Coffin's puzzles use parts of them too
(stellations, half units), so the cells here are the tetrahedra, as in BurrTools.

Coordinates are BurrTools' own (src/lib/voxel_3.cpp): each unit cube is a block of 5 x 5 x 5
voxels, and a tetrahedron is the voxel ``(layer, row, col)`` whose place in its block
(each coordinate modulo 5) has one coordinate 0 or 4 (the face: its axis and side), one 1 or
3 (the edge of that face the base touches), and one 2. The other 101 voxels of a block are
no cell. A grid value is written as on ``cube``: layers from the bottom up, each a square
grid, five layers and five rows and columns to a unit cube (docs/puzzle-format.md).

The point group is the cube's 48 signed permutations about the centres of the blocks
(``v -> 2 + s * (v' - 2)``); translations move whole blocks (multiples of 5). Two
tetrahedra are neighbours when they share a face: the one beyond the base in the next cube,
the one across the plane through the base's edge, and the two across the face's
diagonals. Mirror images in this tiling are neighbours, and the tiling is the chamber
system of the planes x, y, z, x +- y, x +- z, y +- z in Z, so it is two-coloured by the
parity of the planes between a cell and the origin's.
"""

from __future__ import annotations

import math
from itertools import product
from typing import Any

from puzzlebox.geometry.cube import CubeLattice
from puzzlebox.geometry.lattice import (
    Cell,
    GridError,
    Lattice,
    Transform,
    TwoColouring,
    register_lattice,
)

BLOCK = 5  # voxels along each side of a unit cube


def place(cell: Cell) -> tuple[int, int, int]:
    """A voxel's place in its block: each coordinate modulo 5."""
    return (cell[0] % BLOCK, cell[1] % BLOCK, cell[2] % BLOCK)


def is_cell(cell: Cell) -> bool:
    """Whether the voxel is one of the 24 tetrahedra of its block: folded about the block's
    centre (``v -> min(v, 4 - v)``) its coordinates are 0, 1 and 2 in some order."""
    folded = sorted(min(v, 4 - v) for v in place(cell))
    return folded == [0, 1, 2]


PLACES: tuple[tuple[int, int, int], ...] = tuple(
    p for p in product(range(BLOCK), repeat=3) if is_cell(p))  # the 24, sorted


def _about_centres(transform: Transform) -> Transform:
    """One of the cube lattice's maps (a signed permutation about the origin) moved to
    act about the block centres: ``v -> 2 + t(v - 2)``, which keeps the valid places."""
    apply = transform.apply
    return Transform(
        transform.name, transform.proper,
        lambda c: tuple(2 + v for v in apply((c[0] - 2, c[1] - 2, c[2] - 2))))


def _group() -> tuple[Transform, ...]:
    """The cube's 48 maps in the cube lattice's order (identity, rotations, mirror, ...),
    each about the block centres instead of the origin."""
    return tuple(_about_centres(t) for t in CubeLattice.transforms)


_GROUP = _group()

# the nine linear forms whose integer levels are the planes of the cut (see the docstring)
_FORMS = ((1, 0, 0), (0, 1, 0), (0, 0, 1), (1, 1, 0), (1, -1, 0), (1, 0, 1), (1, 0, -1),
          (0, 1, 1), (0, 1, -1))


def chamber_parity(cell: Cell) -> int:
    """The parity of the number of cutting planes between the cell and the origin's cell:
    the voxel's centre ``(v + 1/2) / 5`` lies inside its tetrahedron and on none of the
    planes, so each form's floor there counts the planes below it."""
    total = 0
    for form in _FORMS:
        value = sum(f * (2 * v + 1) for f, v in zip(form, cell, strict=True))  # 10x the form
        total += math.floor(value / (2 * BLOCK))
    return total % 2


class RhombicLattice(Lattice):
    name = "rhombic"
    dimensions = 3
    cell_word = "tetrahedron"
    period = BLOCK
    transforms = _GROUP

    def neighbours(self, cell: Cell) -> tuple[Cell, ...]:
        """The four tetrahedra that share a face with ``cell`` (see the module's text)."""
        if not is_cell(cell):
            return ()
        here = place(cell)
        roles = [min(v, 4 - v) for v in here]
        face, edge, middle = roles.index(0), roles.index(1), roles.index(2)
        out = []
        base = list(cell)  # across the base: the next cube's tetrahedron on that face
        base[face] += -1 if here[face] == 0 else 1
        out.append(tuple(base))
        across = list(cell)  # across the edge's plane: face and edge swap roles
        across[face] += 1 if here[face] == 0 else -1
        across[edge] += -1 if here[edge] == 1 else 1
        out.append(tuple(across))
        for side in (-1, 1):  # across a diagonal of the face: edge and middle swap roles
            turned = list(cell)
            turned[edge] += 1 if here[edge] == 1 else -1
            turned[middle] += side
            out.append(tuple(turned))
        return tuple(out)

    def can_translate(self, vector: Cell) -> bool:
        return all(v % BLOCK == 0 for v in vector)

    def normalize_offset(self, cells: Any) -> Cell:
        """Whole blocks: the lowest block of each axis becomes block 0."""
        return tuple(-(min(axis) - min(axis) % BLOCK) for axis in zip(*cells, strict=True))

    def two_colouring(self) -> TwoColouring:
        """The chamber system's two classes: every map of the group and every translation
        by whole cubes keeps the cutting planes, so it keeps or swaps the classes."""
        return TwoColouring("alternating tetrahedra", "dark", "light",
                            lambda c: chamber_parity(c) == 0)

    def parse(self, value: Any) -> dict[Cell, str]:
        """Layers as on ``cube``; a character on a voxel that is no tetrahedron is refused,
        with its layer, row and column."""
        cells = _cube_parse(value)
        for cell in sorted(cells):
            if not is_cell(cell):
                layer, row, col = cell
                raise GridError(
                    f"layer {layer}, row {row}, column {col} is no cell of the rhombic "
                    f"lattice: in each block of 5 x 5 x 5 a cell has one coordinate 0 or 4, "
                    f"one 1 or 3 and one 2 (modulo 5; here {place(cell)})")
        return cells


def _cube_parse(value: Any) -> dict[Cell, str]:
    try:
        return CubeLattice().parse(value)
    except GridError as error:
        raise GridError(str(error).replace("a cube grid", "a rhombic grid"),
                        error.text_line) from None


RHOMBIC = register_lattice(RhombicLattice())

