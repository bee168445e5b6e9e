"""STL files of pieces, for 3-D printing: the outer surface of the piece's cells.

``puzzlebox export PUZZLE --stl DIR --cell-mm 20`` writes one binary STL per piece into
``DIR``, named only from ``DIR`` and :func:`puzzlebox.safety.file_component` of the piece
name (a name like ``../x`` cannot write outside ``DIR``).

What is written, and why it prints:

* a piece of a ``cube`` puzzle (cells ``(layer, row, col)``) is the union of unit cubes;
* a piece of a ``rhombic`` puzzle is the union of its tetrahedra (``Lattice.solid_faces``;
  ``cell_mm`` is the edge of the unit cube, so a rhombic dodecahedron is two cells wide):
  the faces two of its tetrahedra share are dropped, the rest is its closed surface;
* a piece of a ``prism`` or ``tetra-octa`` puzzle is the union of its cells' polyhedra
  (``Lattice.solid_faces``: prisms a triangle's side tall; tetrahedra and octahedron eighths
  in units of the cube, ``cell_mm`` its edge), the same way;
* a piece of a ``sphere`` puzzle is its balls (``cell_mm`` across each) and, between every
  two of them that touch, a neck (a prism a third of a ball thick from centre to centre) so
  that the piece holds together: overlapping closed shells, each wound outwards, which a
  slicer prints as their union (touching balls alone would meet at a point);
* a piece of a flat lattice is its cells' polygons extruded one cell high, the tile a
  polyomino set is made of.

Only the outside is kept: a face between two cells of the piece is dropped, so the mesh
is the boundary of the solid. Every triangle is wound counter-clockwise seen from outside
(its normal, written too, points out), which is what slicers expect. Units are
millimetres: one cell is ``cell_mm`` wide. The axes: x along a layer's columns, y up the
page of a layer's drawing (so a layer seen from above reads as it is written), z up
through the layers.

Where two cubes of a piece touch only along an edge (and the two cubes beside that edge
are not in the piece), four triangles meet at that edge: the solid is still closed (every
edge is matched by an edge running the other way), but not a 2-manifold there, as a solid
of cubes meeting on an edge is not; slicers print such pieces as the two cubes they are.
"""

from __future__ import annotations

import math
import struct
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

from puzzlebox.geometry.lattice import Cell
from puzzlebox.outfile import write_bytes
from puzzlebox.render.sheet import DIGITS, ExportError, ExportTooLarge, cell_polygon
from puzzlebox.safety import file_component, printable

MAX_STL_CELLS = 20_000  # cells of all pieces, checked before any is built (#28): 25,000
# hexagons took 5.2 s on a loaded machine; 20,000 cubes of 20 mm are 160 litres of print
TRIANGLES_PER_CELL = 20  # at most: a hexagon's top and bottom fans (8) and six walls (12)

Vertex = tuple[float, float, float]
Triangle = tuple[Vertex, Vertex, Vertex]

# The six faces of the unit cube at the origin in (x, y, z), each as a neighbour offset in
# (x, y, z) and its four corners counter-clockwise seen from outside.
_FACES: tuple[tuple[tuple[int, int, int], tuple[Vertex, ...]], ...] = (
    ((1, 0, 0), ((1, 0, 0), (1, 1, 0), (1, 1, 1), (1, 0, 1))),
    ((-1, 0, 0), ((0, 0, 0), (0, 0, 1), (0, 1, 1), (0, 1, 0))),
    ((0, 1, 0), ((0, 1, 0), (0, 1, 1), (1, 1, 1), (1, 1, 0))),
    ((0, -1, 0), ((0, 0, 0), (1, 0, 0), (1, 0, 1), (0, 0, 1))),
    ((0, 0, 1), ((0, 0, 1), (1, 0, 1), (1, 1, 1), (0, 1, 1))),
    ((0, 0, -1), ((0, 0, 0), (0, 1, 0), (1, 1, 0), (1, 0, 0))),
)


def cube_surface(cells: Iterable[Cell], cell_mm: float = 1.0) -> list[Triangle]:
    """The outer surface of the union of unit cubes at ``(layer, row, col)`` cells, as
    triangles (two per exposed face) in millimetres."""
    # (layer, row, col) -> (x, y, z) = (col, -row, layer): a layer seen from above reads
    # as drawn (row 0 at the top), and the map keeps handedness for the reader's eye
    voxels = {(c[2], -c[1], c[0]) for c in cells}
    triangles: list[Triangle] = []
    for x, y, z in sorted(voxels):
        for (dx, dy, dz), corners in _FACES:
            if (x + dx, y + dy, z + dz) in voxels:
                continue
            a, b, c, d = (((x + u) * cell_mm, (y + v) * cell_mm, (z + w) * cell_mm)
                          for u, v, w in corners)
            triangles.append((a, b, c))
            triangles.append((a, c, d))
    return triangles


def _space(point: tuple[float, float, float], cell_mm: float) -> Vertex:
    """``(layer, row, col)`` to millimetres ``(x, y, z) = (col, -row, layer)``, as
    :func:`cube_surface` maps cells."""
    return (point[2] * cell_mm + 0.0, -point[1] * cell_mm + 0.0, point[0] * cell_mm + 0.0)


def polyhedra_surface(faces: Iterable[Sequence[tuple[float, float, float]]],
                      cell_mm: float = 1.0) -> list[Triangle]:
    """The outer surface of the union of polyhedral cells given by their faces (corners
    counter-clockwise from outside, ``(layer, row, col)``): a face met twice lies between two
    cells of the piece and is dropped; the others are fanned into triangles."""
    found: dict[frozenset[tuple[float, float, float]], list[Sequence[tuple[float, ...]]]] = {}
    for face in faces:
        key = frozenset((round(a, 6), round(b, 6), round(c, 6)) for a, b, c in face)
        found.setdefault(key, []).append(face)
    triangles: list[Triangle] = []
    for key in sorted(found, key=sorted):
        kept = found[key]
        if len(kept) != 1:
            continue
        points = [_space((p[0], p[1], p[2]), cell_mm) for p in kept[0]]
        for i in range(1, len(points) - 1):
            triangles.append((points[0], points[i], points[i + 1]))
    return triangles


BALL_SEGMENTS, BALL_RINGS = 16, 8  # a ball's mesh: segments round, rings pole to pole
NECK = 1 / 3  # a neck's radius, in balls' radii
NECK_SIDES = 8


def balls_surface(cells: Sequence[tuple[int, ...]], radius: float, cell_mm: float = 1.0,
                  ) -> list[Triangle]:
    """Balls of ``radius`` (in the cells' units) about each cell, scaled so that a ball is
    ``cell_mm`` across, and a neck between every two that touch: each a closed shell of
    triangles wound outwards (see the module's text)."""
    scale = cell_mm / (2 * radius)
    triangles: list[Triangle] = []
    centres = [_space((c[0] * scale, c[1] * scale, c[2] * scale), 1.0) for c in cells]
    r = radius * scale
    for cx, cy, cz in centres:
        rings = []
        for i in range(BALL_RINGS + 1):
            theta = math.pi * i / BALL_RINGS
            rings.append([(cx + r * math.sin(theta) * math.cos(2 * math.pi * j / BALL_SEGMENTS),
                           cy + r * math.sin(theta) * math.sin(2 * math.pi * j / BALL_SEGMENTS),
                           cz + r * math.cos(theta)) for j in range(BALL_SEGMENTS)])
        for i in range(BALL_RINGS):
            for j in range(BALL_SEGMENTS):
                a, b = rings[i][j], rings[i][(j + 1) % BALL_SEGMENTS]
                c, d = rings[i + 1][j], rings[i + 1][(j + 1) % BALL_SEGMENTS]
                if i > 0:
                    triangles.append((a, c, b))
                if i < BALL_RINGS - 1:
                    triangles.append((b, c, d))
    touch = (2 * r) ** 2 * 1.0001
    for i, p in enumerate(centres):
        for q in centres[i + 1:]:
            if sum((a - b) ** 2 for a, b in zip(p, q, strict=True)) <= touch:
                triangles += _neck(p, q, r * NECK)
    return triangles


def _neck(p: Vertex, q: Vertex, r: float) -> list[Triangle]:
    """A closed prism of ``NECK_SIDES`` sides and radius ``r`` from ``p`` to ``q``."""
    axis = tuple(b - a for a, b in zip(p, q, strict=True))
    length = math.sqrt(sum(v * v for v in axis))
    w = tuple(v / length for v in axis)
    helper = (1.0, 0.0, 0.0) if abs(w[0]) < 0.9 else (0.0, 1.0, 0.0)
    u = _unit(_cross(w, helper))
    v = _cross(w, u)
    ring = [(math.cos(2 * math.pi * k / NECK_SIDES), math.sin(2 * math.pi * k / NECK_SIDES))
            for k in range(NECK_SIDES)]
    bottom = [tuple(p[i] + r * (c * u[i] + s * v[i]) for i in range(3)) for c, s in ring]
    top = [tuple(q[i] + r * (c * u[i] + s * v[i]) for i in range(3)) for c, s in ring]
    out: list[Triangle] = []
    for k in range(NECK_SIDES):
        a, b = bottom[k], bottom[(k + 1) % NECK_SIDES]
        c, d = top[k], top[(k + 1) % NECK_SIDES]
        out += [(a, b, d), (a, d, c)]  # type: ignore[list-item]
        out += [(p, b, a), (q, c, d)]  # type: ignore[list-item]
    return out


def _cross(a: Sequence[float], b: Sequence[float]) -> Vertex:
    return (a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0])


def _unit(a: Vertex) -> Vertex:
    length = math.sqrt(sum(v * v for v in a))
    return (a[0] / length, a[1] / length, a[2] / length)


def prism_surface(polygons: Sequence[Sequence[tuple[float, float]]], cell_mm: float = 1.0,
                  height: float = 1.0) -> list[Triangle]:
    """The surface of flat cells (convex polygons in picture units, y down) extruded
    ``height`` cells up: each cell's top and bottom as a fan of triangles, and a wall on
    every edge that no other cell shares."""
    top = height * cell_mm
    triangles: list[Triangle] = []
    edges: dict[tuple[tuple[float, float], tuple[float, float]], int] = {}
    for polygon in polygons:
        # picture (x, y down) -> space (x, -y): counter-clockwise seen from above
        pts = [(round(x * cell_mm, DIGITS) + 0.0, round(-y * cell_mm, DIGITS) + 0.0)
               for x, y in polygon]
        if _area2(pts) < 0:
            pts.reverse()
        for i in range(1, len(pts) - 1):
            p0, p1, p2 = pts[0], pts[i], pts[i + 1]
            triangles.append(((*p0, top), (*p1, top), (*p2, top)))
            triangles.append(((*p0, 0.0), (*p2, 0.0), (*p1, 0.0)))
        for a, b in zip(pts, pts[1:] + pts[:1], strict=True):
            if (b, a) in edges:
                edges[(b, a)] -= 1
                if not edges[(b, a)]:
                    del edges[(b, a)]
            else:
                edges[(a, b)] = edges.get((a, b), 0) + 1
    for (a, b), n in sorted(edges.items()):
        for _ in range(n):  # a boundary edge a -> b, the inside on its left: the wall faces right
            triangles.append(((*a, 0.0), (*b, 0.0), (*b, top)))
            triangles.append(((*a, 0.0), (*b, top), (*a, top)))
    return triangles


def _area2(pts: Sequence[tuple[float, float]]) -> float:
    n = len(pts)
    return sum(pts[i][0] * pts[(i + 1) % n][1] - pts[(i + 1) % n][0] * pts[i][1]
               for i in range(n))


def normal(t: Triangle) -> Vertex:
    """The unit normal of a triangle by the right-hand rule (outward when wound
    counter-clockwise seen from outside)."""
    (ax, ay, az), (bx, by, bz), (cx, cy, cz) = t
    ux, uy, uz = bx - ax, by - ay, bz - az
    vx, vy, vz = cx - ax, cy - ay, cz - az
    nx, ny, nz = uy * vz - uz * vy, uz * vx - ux * vz, ux * vy - uy * vx
    length = math.sqrt(nx * nx + ny * ny + nz * nz) or 1.0
    return (nx / length, ny / length, nz / length)


def stl_bytes(triangles: Sequence[Triangle], name: str) -> bytes:
    """A binary STL: an 80-byte header (the piece's name, ASCII, never starting with
    ``solid`` so that no reader takes it for ASCII STL), the triangle count, and per
    triangle its normal, its three corners (32-bit floats) and two zero bytes."""
    header = ("puzzlebox piece " + printable(name)).encode("ascii", "replace")[:80]
    out = bytearray(header.ljust(80, b" "))
    out += struct.pack("<I", len(triangles))
    for t in triangles:
        out += struct.pack("<12fH", *normal(t), *t[0], *t[1], *t[2], 0)
    return bytes(out)


def read_stl(data: bytes) -> list[tuple[Vertex, Triangle]]:
    """The (normal, triangle) list of a binary STL (for checking what was written)."""
    if len(data) < 84:
        raise ValueError("shorter than a binary STL header")
    (count,) = struct.unpack_from("<I", data, 80)
    if len(data) != 84 + 50 * count:
        raise ValueError(f"{len(data)} bytes for {count} triangles")
    out = []
    for i in range(count):
        v = struct.unpack_from("<12f", data, 84 + 50 * i)
        out.append(((v[0], v[1], v[2]), ((v[3], v[4], v[5]), (v[6], v[7], v[8]),
                                          (v[9], v[10], v[11]))))
    return out


def signed_volume(triangles: Iterable[Triangle]) -> float:
    """The volume enclosed (positive when the normals point out), by the divergence
    theorem: the sum of the tetrahedra from the origin to each triangle."""
    total = 0.0
    for (ax, ay, az), (bx, by, bz), (cx, cy, cz) in triangles:
        total += ax * (by * cz - bz * cy) - ay * (bx * cz - bz * cx) + az * (bx * cy - by * cx)
    return total / 6.0


def piece_surface(puzzle: Any, piece: Any, cell_mm: float) -> list[Triangle]:
    """A piece's triangles: balls, polyhedra (tetrahedra, prisms, octahedron eighths) or
    cubes on a 3-D lattice, extruded cells on a flat one."""
    cells = list(piece.shape.cells)
    lattice = getattr(puzzle, "lattice", None)
    if lattice is not None and lattice.ball_radius is not None:
        return balls_surface(cells, lattice.ball_radius, cell_mm)
    if lattice is not None and lattice.solid_faces(cells[0]) is not None:
        return polyhedra_surface([f for cell in cells for f in lattice.solid_faces(cell) or ()],
                                 cell_mm)
    if len(cells[0]) == 3:
        return cube_surface(cells, cell_mm)
    return prism_surface([cell_polygon(lattice, cell) for cell in cells], cell_mm)


def write_stls(puzzles: Sequence[Any], folder: str | Path, cell_mm: float) -> list[Path]:
    """One STL per piece of the file's (first) puzzle in ``folder``, made if missing;
    file names come only from ``folder`` and the piece names made safe."""
    if not puzzles or puzzles[0].pieces_to_make() is None:
        raise ExportError("STL solids are made of the pieces of a polyomino puzzle; this "
                          "puzzle has none")
    if not (0 < cell_mm <= 1000) or not math.isfinite(cell_mm):
        raise ExportError(f"a cell of {cell_mm:g} mm: give a size above 0 and at most 1000 mm")
    puzzle = puzzles[0]
    cells = sum(len(piece.shape.cells) for piece in puzzle.pieces)
    if cells > MAX_STL_CELLS:
        raise ExportTooLarge(f"{printable(puzzle.name)}: the pieces have {cells} cells in "
                             f"all (up to {cells * TRIANGLES_PER_CELL} triangles); STL files "
                             f"are made of at most {MAX_STL_CELLS} cells")
    folder = Path(folder)
    if folder.exists() and not folder.is_dir():
        raise ExportError(f"{printable(str(folder))}: not a folder, so no STL files can be "
                          "written into it")
    folder.mkdir(parents=True, exist_ok=True)
    written = []
    for piece in puzzle.pieces_to_make():
        path = folder / (file_component(piece.name) + ".stl")
        write_bytes(path, stl_bytes(piece_surface(puzzle, piece, cell_mm), piece.name))
        written.append(path)
    return written
