"""BurrTools' grids on the face-centred cubic lattice: spheres (grid 2) as puzzlebox's
``sphere`` lattice, rhombic dodecahedra (grid 3) as its ``rhombic`` lattice (#37).

BurrTools keeps a sphere puzzle in a voxel space whose voxels ``(x, y, z)`` with an even
``x + y + z`` are the balls (src/lib/voxel_2.cpp); puzzlebox's ``sphere`` lattice uses the
same points, ``(z, y, x)`` as on ``cube``, moved by a vector of even sum (which keeps them
balls).

BurrTools keeps a rhombic puzzle in a voxel space of 5 x 5 x 5 blocks, one per unit cube,
of which 24 voxels are cells: the tetrahedra the cube is cut into (src/lib/voxel_3.cpp,
``validCoordinate``). puzzlebox's ``rhombic`` lattice uses the same voxels as cells
(geometry/rhombic.py), so a shape's voxel ``(x, y, z)`` becomes the cell ``(z, y, x)`` as on
``cube``, moved by whole blocks only: a voxel's place in its block says which tetrahedron
it is, and a shift by anything else would change that.
"""

from __future__ import annotations

from collections.abc import Iterable

from puzzlebox.geometry.rhombic import BLOCK, is_cell
from puzzlebox.geometry.sphere import SPHERE

Voxel = tuple[int, int, int]
Cell = tuple[int, ...]

LATTICES = {2: "sphere", 3: "rhombic"}  # BurrTools grid type -> puzzlebox lattice


def stray_voxel(grid: int, voxels: Iterable[Voxel]) -> Voxel | None:
    """A voxel that is no cell of its grid: on grid 3 not one of its block's 24 tetrahedra,
    on grid 2 one with an odd ``x + y + z`` (BurrTools never writes one; a hand-edited file
    may), or None."""
    if grid == 2:
        return next((v for v in sorted(voxels) if sum(v) % 2), None)
    return next((v for v in sorted(voxels) if not is_cell((v[2], v[1], v[0]))), None)


def sphere(voxels: dict[Voxel, int]) -> dict[Cell, int]:
    """Grid-2 voxels as ``sphere`` cells ``(layer, row, col)`` = ``(z, y, x)``, moved so
    the smallest of each is 0 (or the column 1, to move by a vector of even sum)."""
    cells = {(z, y, x): c for (x, y, z), c in voxels.items()}
    shift = SPHERE.normalize_offset(cells)
    return {(z + shift[0], y + shift[1], x + shift[2]): c for (z, y, x), c in cells.items()}


def rhombic(voxels: dict[Voxel, int]) -> dict[Cell, int]:
    """Grid-3 voxels as ``rhombic`` cells ``(layer, row, col)`` = ``(z, y, x)``, the lowest
    block of each axis moved to block 0. The same map for every shape of a puzzle."""
    cells = {(z, y, x): c for (x, y, z), c in voxels.items()}
    low = [min(cell[i] for cell in cells) for i in range(3)]
    shift = [v - v % BLOCK for v in low]
    return {(z - shift[0], y - shift[1], x - shift[2]): c for (z, y, x), c in cells.items()}
