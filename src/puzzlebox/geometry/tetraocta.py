"""The tetrahedral-octahedral lattice (BurrTools' grid type 4): space filled with regular
tetrahedra and octahedra, each octahedron cut in eight; cells ``(layer, row, col)``.

BurrTools writes this grid on a cube grid three times finer (its voxel_4): every unit cube
of space is a 3 x 3 x 3 block of positions. The centre position of a block is the regular
tetrahedron inscribed in that cube (its corners on four corners of the cube); the cube's
four other corners are cut off by the tetrahedron's faces, and each cut-off corner (a
tetrahedron with three right angles, an eighth of the octahedron centred on that corner of
space) is the position at that corner of the block. Which four corners are cut off
alternates like a checkerboard: in a cube whose block ``(layer // 3, row // 3, col // 3)``
has an even sum the corners with an odd number of coordinates at 2 (of 0 and 2 within the
block), in the others those with an even number. The other positions of a block are no
cell. puzzlebox keeps BurrTools' positions as its cells, so a file writes a board or a piece
as cube files do (layers of rows, bottom first) with ``.`` on the positions that are no
cell; a character there is an error naming it.

Neighbours share a face: the tetrahedron its four corner eighths; an eighth the tetrahedron
of its block and, across each of the cube's three faces at its corner, the eighth of the
next block at the same corner of space (one position on along that axis).

Why another coordinate system: the maps of the lattice are those of the cube grid (48:
BurrTools uses its cube symmetries for this grid) acting on the *centroids* of the cells,
which are integers after scaling by 4: position ``3 k + s`` (block ``k``, ``s`` 0, 1 or 2)
has its centroid at ``(4 k + s + 1) / 4`` on each axis. The signed permutations of those
coordinates keep the set of cells (a cut-off corner is valid exactly when its corner of
space has an odd coordinate sum, which they keep), so they are the point group. Translations
move by whole blocks with an even sum (three positions a block): the checkerboard stays.
"""

from __future__ import annotations

from collections.abc import Iterable
from itertools import permutations, product
from typing import Any

from puzzlebox.geometry.cube import parse_layers
from puzzlebox.geometry.lattice import (
    Cell,
    GridError,
    Lattice,
    Point3,
    Transform,
    TwoColouring,
    outward,
    register_lattice,
)


def is_cell(cell: Cell) -> bool:
    """Whether the position is a tetrahedron or an eighth of an octahedron."""
    blocks = [v // 3 for v in cell]
    inside = [v % 3 for v in cell]
    if inside == [1, 1, 1]:
        return True
    if 1 in inside:
        return False
    twos = inside.count(2)
    return twos % 2 == (1 if sum(blocks) % 2 == 0 else 0)


def is_tetrahedron(cell: Cell) -> bool:
    return all(v % 3 == 1 for v in cell)


def _to_centroid(v: int) -> int:
    return 4 * (v // 3) + v % 3 + 1


def _from_centroid(u: int) -> int:
    return 3 * (u // 4) + u % 4 - 1


def _make(perm: tuple[int, ...], signs: tuple[int, ...], name: str, proper: bool
          ) -> Transform:  # fmt: skip
    def apply(cell: Cell) -> Cell:
        u = [_to_centroid(v) for v in cell]
        return tuple(_from_centroid(signs[i] * u[perm[i]]) for i in range(3))

    return Transform(name, proper, apply)


def _determinant(perm: tuple[int, ...], signs: tuple[int, ...]) -> int:
    inversions = sum(1 for i in range(3) for j in range(i + 1, 3) if perm[i] > perm[j])
    return (-1 if inversions % 2 else 1) * signs[0] * signs[1] * signs[2]


def _group() -> tuple[Transform, ...]:
    axes = "lrc"
    elements = [(p, s) for p in permutations(range(3)) for s in product((1, -1), repeat=3)]
    identity, mirror = ((0, 1, 2), (1, 1, 1)), ((0, 1, 2), (1, 1, -1))

    def name(e: tuple[tuple[int, ...], tuple[int, ...]]) -> str:
        if e == identity:
            return "id"
        if e == mirror:
            return "mirror"
        return "(" + ",".join(("-" if s < 0 else "") + axes[p] for p, s in zip(*e)) + ")"

    rotations = [e for e in elements if _determinant(*e) == 1 and e != identity]
    others = [e for e in elements if _determinant(*e) == -1 and e != mirror]
    ordered = [identity, *rotations, mirror, *others]
    return tuple(_make(*e, name(e), _determinant(*e) == 1) for e in ordered)


_GROUP = _group()  # identity first, the 24 rotations, then "mirror" (col -> -1 - col) 25th


class TetraOctaLattice(Lattice):
    name = "tetra-octa"
    dimensions = 3
    cell_word = "tetrahedron or octahedron part"
    transforms = _GROUP

    def neighbours(self, cell: Cell) -> tuple[Cell, ...]:
        if is_tetrahedron(cell):
            base = [3 * (v // 3) for v in cell]
            return tuple(c for c in product(*[(b, b + 2) for b in base]) if is_cell(c))
        centre = tuple(3 * (v // 3) + 1 for v in cell)
        across = []
        for axis in range(3):
            step = 1 if cell[axis] % 3 == 2 else -1
            near = list(cell)
            near[axis] += step
            across.append(tuple(near))
        return (centre, *across)

    def holds(self, cell: Cell) -> bool:
        return is_cell(cell)

    def can_translate(self, vector: Cell) -> bool:
        return all(v % 3 == 0 for v in vector) and (sum(vector) // 3) % 2 == 0

    def normalize_offset(self, cells: Iterable[Cell]) -> Cell:
        """Whole blocks towards 0 on each axis (the smallest position in block 0), one
        more block along the columns where the blocks moved add up to an odd number."""
        cells = list(cells)
        blocks = [-(min(cell[i] for cell in cells) // 3) for i in range(3)]
        if sum(blocks) % 2:
            blocks[2] += 1
        return tuple(3 * b for b in blocks)

    def two_colouring(self) -> TwoColouring:
        """Regular tetrahedra and octahedron eighths: every map and translation keeps each
        kind (a piece covers the same numbers of each wherever it lies)."""
        return TwoColouring("tetrahedra and octahedron eighths", "tetrahedron", "eighth",
                            is_tetrahedron)

    def solid_faces(self, cell: Cell) -> list[tuple[Point3, ...]]:
        """The cell in units of the unit cube (its block): the tetrahedron on the cube's four
        corners that are not cut off, or the eighth at a cut-off corner, whose other three
        corners are the cube's corners next to it."""
        b0, b1, b2 = (v // 3 for v in cell)
        corners: list[Point3]
        if is_tetrahedron(cell):
            corners = [(float(b0 + s0), float(b1 + s1), float(b2 + s2))
                       for s0, s1, s2 in product((0, 1), repeat=3)
                       if not is_cell((3 * b0 + 2 * s0, 3 * b1 + 2 * s1, 3 * b2 + 2 * s2))]
        else:
            at = [v % 3 // 2 for v in cell]  # which corner of its block: 0 or 1 on each axis
            apex = (float(b0 + at[0]), float(b1 + at[1]), float(b2 + at[2]))
            away = [1 - 2 * a for a in at]  # towards the inside of the block
            corners = [apex, (apex[0] + away[0], apex[1], apex[2]),
                       (apex[0], apex[1] + away[1], apex[2]),
                       (apex[0], apex[1], apex[2] + away[2])]
        faces = [tuple(corners[k] for k in range(4) if k != left) for left in range(4)]
        return outward(faces)

    def parse(self, value: Any) -> dict[Cell, str]:
        """Layers of rows from the bottom up, as on cube; a character on a position that
        is no cell of the grid is an error naming it."""
        cells = parse_layers(value, self.name)
        for cell in sorted(cells):
            if not is_cell(cell):
                layer, row, col = cell
                raise GridError(f"layer {layer}, row {row}, column {col} is no cell of the "
                                "tetra-octa grid (write '.' there)")
        return cells


TETRA_OCTA = register_lattice(TetraOctaLattice())
