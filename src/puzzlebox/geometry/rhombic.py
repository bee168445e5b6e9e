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
    Point3,
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


PLACES: tuple[Cell, ...] = tuple(
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


# -- sliding (#37) ---------------------------------------------------------------------------

Point = tuple[int, ...]  # doubled coordinates: a unit cube spans 2, its centre is odd

# the 12 steps a rhombic dodecahedron slides along (the normals of its faces), each followed
# by its opposite, in cells (layer, row, col): one step moves a block diagonally
def _steps() -> tuple[Cell, ...]:
    out: list[Cell] = []
    for axis in (2, 1, 0):
        step = tuple(BLOCK if k == axis else 0 for k in range(3))
        out += [step, tuple(-v for v in step)]
    for a, b in ((1, 2), (0, 2), (0, 1)):  # the plane of rows and columns first
        for sb in (1, -1):
            step = tuple(BLOCK if k == a else BLOCK * sb if k == b else 0 for k in range(3))
            out += [step, tuple(-v for v in step)]
    for sr, sc in ((1, 1), (1, -1), (-1, 1), (-1, -1)):
        step = (BLOCK, BLOCK * sr, BLOCK * sc)
        out += [step, tuple(-v for v in step)]
    return tuple(out)


STEPS = _steps()


def corners(cell: Cell) -> tuple[Point, ...]:
    """The tetrahedron of a cell in doubled coordinates: the cube's centre, the face's
    centre and the two ends of the face's edge it leans on."""
    block = [v // BLOCK for v in cell]
    here = place(cell)
    roles = [min(v, 4 - v) for v in here]
    face, edge, middle = roles.index(0), roles.index(1), roles.index(2)
    centre = [2 * b + 1 for b in block]
    face_centre = list(centre)
    face_centre[face] = 2 * block[face] + (0 if here[face] == 0 else 2)
    out = [tuple(centre), tuple(face_centre)]
    for end in (0, 2):
        corner = list(face_centre)
        corner[edge] = 2 * block[edge] + (0 if here[edge] == 1 else 2)
        corner[middle] = 2 * block[middle] + end
        out.append(tuple(corner))
    return tuple(out)


def _sub(a: Point, b: Point) -> Point:
    return (a[0] - b[0], a[1] - b[1], a[2] - b[2])


def _cross(a: Point, b: Point) -> Point:
    return (a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0])


def _edges(points: tuple[Point, ...]) -> list[Point]:
    return [_sub(points[j], points[i]) for i in range(len(points))
            for j in range(i + 1, len(points))]


def _interiors_meet(first: tuple[Point, ...], first_edges: list[Point],
                    second: tuple[Point, ...], second_edges: list[Point]) -> bool:
    """Whether two convex polytopes (their corners, and directions that include every
    edge's) share inner points: they do not exactly when some plane has each on one side,
    and such a plane is normal to two edge directions of one of them, or to one of each
    (the separating axes of convex polytopes), all in exact integers."""
    axes = {_cross(a, b) for edges in (first_edges, second_edges)
            for i, a in enumerate(edges) for b in edges[i + 1:]}
    axes |= {_cross(a, b) for a in first_edges for b in second_edges}
    for axis in axes:
        if axis == (0, 0, 0):
            continue
        one = [p[0] * axis[0] + p[1] * axis[1] + p[2] * axis[2] for p in first]
        two = [p[0] * axis[0] + p[1] * axis[1] + p[2] * axis[2] for p in second]
        if max(one) <= min(two) or max(two) <= min(one):
            return False
    return True


_SWEPT: dict[tuple[Cell, Cell], tuple[Cell, ...]] = {}


def swept_offsets(here: Cell, step: Cell) -> tuple[Cell, ...]:
    """The cells (as offsets from the cell) that the tetrahedron at ``here`` in block 0
    passes through inside as it slides by ``step``. Worked out once per place for the first
    step (:func:`_swept_first`) and carried to every other step by a map of the group that
    takes the first step there (a map keeps the cut, so it keeps what a slide sweeps)."""
    key = (here, step)
    found = _SWEPT.get(key)
    if found is not None:
        return found
    reference, turn = next((r, t) for r in _REFERENCES for t in _GROUP
                           if _linear(t, r) == step)
    back = next(t for t in _GROUP if t(turn(here)) == here and t(turn((1, 2, 3))) == (1, 2, 3))
    source = back(here)  # the place that the map takes onto ``here``
    found = tuple(sorted(_linear(turn, o) for o in _swept_first(source, reference)))
    _SWEPT[key] = found
    return found


def _linear(transform: Transform, vector: Cell) -> Cell:
    """The map's linear part (a signed permutation) applied to a vector."""
    image = transform((vector[0] + 2, vector[1] + 2, vector[2] + 2))
    return (image[0] - 2, image[1] - 2, image[2] - 2)


_REFERENCES: tuple[Cell, ...] = ((0, BLOCK, BLOCK), (0, 0, BLOCK), (BLOCK, BLOCK, BLOCK))


def _swept_first(here: Cell, step: Cell) -> tuple[Cell, ...]:
    """:func:`swept_offsets` for a reference step, from the geometry: the cells whose
    tetrahedron meets the inside of the hull of where the cell starts and where it ends
    (a convex body slid along a line sweeps the hull of its two ends)."""
    key = (here, step)
    found = _SWEPT.get(key)
    if found is not None:
        return found
    start = corners(here)
    shift = tuple(2 * v // BLOCK for v in step)
    end = tuple((p[0] + shift[0], p[1] + shift[1], p[2] + shift[2]) for p in start)
    hull = start + end
    hull_edges = _edges(start) + [shift]  # every edge of the hull runs along one of these
    low = [min(p[a] for p in hull) for a in range(3)]
    high = [max(p[a] for p in hull) for a in range(3)]
    blocks = [range((low[a] - 1) // 2, (high[a] + 1) // 2 + 1) for a in range(3)]
    out = []
    for bl in blocks[0]:
        for br in blocks[1]:
            for bc in blocks[2]:
                for p in PLACES:
                    cell = (BLOCK * bl + p[0], BLOCK * br + p[1], BLOCK * bc + p[2])
                    if cell == here:
                        continue
                    tet = corners(cell)
                    if any(max(q[a] for q in tet) <= low[a] or min(q[a] for q in tet) >= high[a]
                           for a in range(3)):
                        continue
                    if _interiors_meet(hull, hull_edges, tet, _edges(tet)):
                        out.append(_sub(cell, here))
    found = tuple(sorted(out))
    _SWEPT[key] = found
    return found


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

    def holds(self, cell: Cell) -> bool:
        return is_cell(cell)

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

    def slide_steps(self) -> tuple[Cell, ...]:
        """The 12 face normals of a rhombic dodecahedron, a whole block diagonally: the
        directions in which rows of dodecahedra slide past each other."""
        return STEPS

    def swept(self, cell: Cell, step: Cell) -> tuple[Cell, ...]:
        """Every tetrahedron the cell's passes through inside as it slides one step (a
        tetrahedron is no prism along a diagonal: it crosses several on its way)."""
        here = place(cell)
        base = (cell[0] - here[0], cell[1] - here[1], cell[2] - here[2])
        return tuple((base[0] + here[0] + o[0], base[1] + here[1] + o[1],
                      base[2] + here[2] + o[2]) for o in swept_offsets(here, step))

    def solid_faces(self, cell: Cell) -> list[tuple[Point3, ...]]:
        """The tetrahedron's four triangles in cube units, each wound counter-clockwise
        seen from outside (away from its fourth corner)."""
        doubled = corners(cell)  # whole numbers: the winding is decided exactly
        faces: list[tuple[Point3, ...]] = []
        for skip in range(4):
            a, b, c = (doubled[i] for i in range(4) if i != skip)
            normal = _cross(_sub(b, a), _sub(c, a))
            if sum(n * v for n, v in zip(normal, _sub(doubled[skip], a), strict=True)) > 0:
                b, c = c, b  # the normal pointed at the fourth corner: turn it round
            faces.append(tuple((p[0] / 2, p[1] / 2, p[2] / 2) for p in (a, b, c)))
        return faces

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

