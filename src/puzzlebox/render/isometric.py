"""Polycubes seen from above, in front and to the right: the faces of an isometric view.

Pure Python (no matplotlib), so it is cheap to test. Cells are ``(layer, row, col)`` with
layer 0 at the bottom (../shared/docs/puzzle-format.md, "Other lattices"); a layer's rows
run from the back (row 0) to the front, as a grid string's lines run down the page.

The projection sends one step along a column to the lower right, one step along a row to
the lower left and one layer up the screen::

    X = (col - row) * sqrt(3)/2        Y = (col + row) / 2 - layer      (y down, in cells)

so the viewer looks along -(1, 1, 1) in (col, row, layer) and sees exactly the faces whose
outward normal is +layer (``top``), +row (``front``, facing the lower left) or +col
(``right``, facing the lower right). Every such face is a rhombus made of two equilateral
triangles of the screen's triangle grid, which is how hidden faces are found exactly: each
screen triangle belongs to the face nearest the viewer over it.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass

from puzzlebox.geometry.lattice import Cell

COS30 = math.sqrt(3) / 2
SIDES = ("top", "front", "right")
_STEP = {"top": (1, 0, 0), "front": (0, 1, 0), "right": (0, 0, 1)}

Point = tuple[float, float]


def project(layer: float, row: float, col: float) -> Point:
    """A point of space (in cell units) on the screen."""
    return ((col - row) * COS30, (col + row) / 2 - layer)


@dataclass(frozen=True)
class Face:
    """One face of a cube that the viewer can see: its cell, which side (``top``, ``front``,
    ``right``) and its corners on the screen (clockwise)."""

    cell: Cell
    side: str
    corners: tuple[Point, Point, Point, Point]

    @property
    def depth(self) -> int:
        """Painter's order: faces of cubes with a smaller ``layer + row + col`` lie behind;
        the projections of two cubes with the same sum never overlap."""
        return sum(self.cell)


def face_corners(cell: Cell, side: str) -> tuple[Point, Point, Point, Point]:
    layer, row, col = cell
    if side == "top":
        pts = [(layer + 1, row, col), (layer + 1, row, col + 1), (layer + 1, row + 1, col + 1),
               (layer + 1, row + 1, col)]
    elif side == "front":
        pts = [(layer + 1, row + 1, col), (layer + 1, row + 1, col + 1),
               (layer, row + 1, col + 1), (layer, row + 1, col)]
    else:
        pts = [(layer + 1, row + 1, col + 1), (layer + 1, row, col + 1), (layer, row, col + 1),
               (layer, row + 1, col + 1)]
    a, b, c, d = (project(*p) for p in pts)
    return (a, b, c, d)


def _triangles(corners: tuple[Point, Point, Point, Point]) -> list[tuple[Point, Point, Point]]:
    """The rhombus cut along its short diagonal into two equilateral screen triangles."""
    a, b, c, d = corners
    if math.dist(a, c) < math.dist(b, d):
        return [(a, b, c), (a, c, d)]
    return [(a, b, d), (b, c, d)]


def _nearness(face: Face, x: float, y: float) -> float:
    """``layer + row + col`` of the point of ``face`` seen at screen point (x, y): larger is
    nearer the viewer. Solved from the projection with the face's fixed coordinate."""
    layer, row, col = face.cell
    u = x / COS30  # col - row
    if face.side == "top":
        lf = layer + 1
        return 2 * (y + lf) + lf
    if face.side == "front":
        rf = row + 1
        c = rf + u
        return c + rf + ((c + rf) / 2 - y)
    cf = col + 1
    r = cf - u
    return cf + r + ((cf + r) / 2 - y)


def exposed_faces(cells: Iterable[Cell]) -> list[Face]:
    """The top, front and right faces of the cubes with no cube of the set across them."""
    cellset = set(cells)
    faces = []
    for cell in sorted(cellset):
        for side in SIDES:
            step = _STEP[side]
            across = (cell[0] + step[0], cell[1] + step[1], cell[2] + step[2])
            if across not in cellset:
                faces.append(Face(cell, side, face_corners(cell, side)))
    return faces


def _owners(faces: list[Face]) -> dict[Point, tuple[float, int, tuple[Point, Point, Point]]]:
    """For each screen triangle that some face covers (keyed by its rounded centroid): how
    near the nearest such face is, its index in ``faces`` and the triangle's corners."""
    owner: dict[Point, tuple[float, int, tuple[Point, Point, Point]]] = {}
    for index, face in enumerate(faces):
        for tri in _triangles(face.corners):
            x = sum(p[0] for p in tri) / 3
            y = sum(p[1] for p in tri) / 3
            near = _nearness(face, x, y)
            key = _round(x, y)
            if key not in owner or near > owner[key][0] + 1e-9:
                owner[key] = (near, index, tri)
    return owner


def _round(x: float, y: float) -> Point:
    return (round(x, 6) + 0.0, round(y, 6) + 0.0)


def visible_faces(cells: Iterable[Cell]) -> list[Face]:
    """The faces of the solid that the viewer sees at least in part, in painter's order
    (back to front; drawn in this order, nearer faces cover farther ones).

    A face is kept when it is exposed (no cube across it) and is the nearest face over at
    least one triangle of the screen's triangle grid; faces hidden entirely behind nearer
    cubes are left out, so a picture has no face the viewer cannot see."""
    faces = exposed_faces(cells)
    seen = {index for _, index, _ in _owners(faces).values()}
    kept = [face for index, face in enumerate(faces) if index in seen]
    return sorted(kept, key=lambda f: (f.depth, f.cell, SIDES.index(f.side)))


def piece_edges(groups: dict[Cell, int]) -> list[tuple[Point, Point]]:
    """The lines of the view where what is seen changes from one group (placed piece) to
    another or to the background: the outline of each piece as it is seen, drawn bolder
    than the edges between faces of one piece. Found on the screen's triangle grid: a side
    of a seen triangle is on such a line when the triangle across it is seen on another
    group's face, or on none."""
    faces = exposed_faces(groups)
    owner = _owners(faces)
    lines: set[tuple[Point, Point]] = set()
    for _, index, tri in owner.values():
        mine = groups[faces[index].cell]
        cx = sum(p[0] for p in tri) / 3
        cy = sum(p[1] for p in tri) / 3
        for i in range(3):
            a, b = tri[i], tri[(i + 1) % 3]
            mx, my = (a[0] + b[0]) / 2, (a[1] + b[1]) / 2
            across = owner.get(_round(2 * mx - cx, 2 * my - cy))
            if across is None or groups[faces[across[1]].cell] != mine:
                ka, kb = _round(*a), _round(*b)
                lines.add((min(ka, kb), max(ka, kb)))
    return sorted(lines)


def view_extent(cells: Iterable[Cell]) -> tuple[float, float, float, float]:
    """``(x0, y0, width, height)`` of the solid's picture on the screen."""
    points = [p for face in exposed_faces(cells) for p in face.corners]
    xs = [x for x, _ in points]
    ys = [y for _, y in points]
    return min(xs), min(ys), max(xs) - min(xs), max(ys) - min(ys)
