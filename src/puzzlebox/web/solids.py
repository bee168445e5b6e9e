"""The page's 3-D view of cells that are not unit cubes (#37 item 4): the meshes it draws.

The prism, rhombic, tetra-octa and sphere lattices say what their cells are in space
(``Lattice.solid_faces``: a polyhedron's faces; ``Lattice.ball_radius``: balls about the
cells' coordinates); this module turns groups of cells (a board, a piece, a placement) into
what static/view3d.js draws, so that the page never computes a lattice's geometry itself.
Coordinates are the page's: x the column, y the row, z the layer, in units of a cube's edge
(``(layer, row, col)`` in space becomes ``[col, row, layer]``, as the cubes' cells do).

A face that two cells of one group share is inside the group: it is left out where both
cells are in the same layer, and otherwise kept with the other cell's layer (``inner``), so
that the layer cut (the layers up to one drawn) closes the solid where it cuts it: the page
draws such a face only when its own cell is drawn and the other is not.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from itertools import product
from typing import Any

from puzzlebox.geometry.lattice import Cell, Lattice, Point3

DIGITS = 5  # decimals sent: a face shared by two cells is found by its rounded corners


def draws_solids(lattice: Lattice) -> bool:
    """Whether the page draws the lattice's cells as polyhedra or balls (its 3-D lattices
    other than cube, whose unit cubes view3d.js draws from the cells themselves)."""
    return lattice.dimensions == 3 and (
        lattice.ball_radius is not None
        or type(lattice).solid_faces is not Lattice.solid_faces)


def _page(point: Sequence[float]) -> list[float]:
    layer, row, col = point
    return [round(col, DIGITS), round(row, DIGITS), round(layer, DIGITS)]


def centre(lattice: Lattice, cell: Cell) -> list[float]:
    """A cell's centre in the page's coordinates: its ball's centre, or the mean of its
    polyhedron's corners (a translation of the cell moves it by the translation's length in
    space)."""
    if lattice.ball_radius is not None:
        return _page([float(v) for v in cell])
    faces = lattice.solid_faces(cell)
    assert faces is not None  # draws_solids(lattice)
    corners = {p for face in faces for p in face}
    return _page([sum(p[i] for p in corners) / len(corners) for i in range(3)])


def _key(face: Sequence[Point3]) -> frozenset[tuple[float, ...]]:
    return frozenset(tuple(round(v, DIGITS) for v in p) for p in face)


def mesh(lattice: Lattice, cells: Sequence[Cell]) -> list[dict[str, Any]]:
    """One group of cells as the page draws it: a ball ``{"level", "centre"}`` a cell, or a
    polyhedron ``{"level", "faces": [[[x, y, z], ...], ...], "inner": [None or the layer of
    the cell of the group beyond the face, ...]}``. ``level`` is the cell's layer (its first
    coordinate, as the file's grids number layers), which the layer cut compares; ``cell``
    is the cell itself, which a click on it in the editor names."""
    if lattice.ball_radius is not None:
        return [{"level": cell[0], "cell": list(cell), "centre": _page([float(v) for v in cell])}
                for cell in cells]
    listed: list[tuple[Cell, list[tuple[Point3, ...]]]] = []
    owners: dict[frozenset[tuple[float, ...]], list[int]] = {}
    for index, cell in enumerate(cells):
        faces = lattice.solid_faces(cell)
        assert faces is not None  # draws_solids(lattice)
        listed.append((cell, faces))
        for face in faces:
            owners.setdefault(_key(face), []).append(index)
    out = []
    for index, (cell, faces) in enumerate(listed):
        drawn: list[list[list[float]]] = []
        inner: list[int | None] = []
        for face in faces:
            others = [k for k in owners[_key(face)] if k != index]
            beyond = cells[others[0]][0] if others else None
            if beyond == cell[0]:
                continue  # inside the group within one layer: never seen
            drawn.append([_page(p) for p in face])
            inner.append(beyond)
        out.append({"level": cell[0], "cell": list(cell), "faces": drawn, "inner": inner})
    return out


def meshes(lattice: Lattice, groups: Sequence[Sequence[Cell]]) -> dict[str, Any]:
    """The groups' meshes (:func:`mesh`) with what the page needs to draw them: ``kind``
    (``"faces"`` or ``"balls"``) and a ball's ``radius``."""
    kind = "balls" if lattice.ball_radius is not None else "faces"
    return {"kind": kind, "radius": lattice.ball_radius, "lattice": lattice.name,
            "groups": [mesh(lattice, cells) for cells in groups]}


# -- editing by clicking in the 3-D view (#37 item 4) ------------------------------------------

SURFACE = 0.05  # how far (in cube edges) a clicked point may lie off the cell's surface


def across(lattice: Lattice, cell: Cell, point: Sequence[float]) -> Cell:
    """The cell beyond the face of ``cell`` that ``point`` (the page's coordinates, on the
    cell's surface: where a click hit it) lies on: the neighbour whose polyhedron has that
    face too; on balls the touching ball whose direction from the centre is nearest the
    point's. :class:`ValueError` (one line) where the point is not on the cell's surface."""
    x, y, z = (float(v) for v in point)
    here = (z, y, x)  # the page's [col, row, layer] as space's (layer, row, col)
    if lattice.ball_radius is not None:
        away = [h - float(c) for h, c in zip(here, cell, strict=True)]
        if abs(math.hypot(*away) - lattice.ball_radius) > SURFACE:
            raise ValueError(f"the point {list(point)} is not on ball {list(cell)}")
        return max(lattice.neighbours(cell), key=lambda near: sum(
            (n - c) * a for n, c, a in zip(near, cell, away, strict=True)))
    faces = lattice.solid_faces(cell)
    if faces is None:
        raise ValueError(f"the {lattice.name} lattice's cells are no polyhedra of their own")
    # how far the point is outside each face's plane (the faces are wound outward): on the
    # surface of the convex cell the largest is 0, and its face is the one hit
    outside = []
    for face in faces:
        a, b, c = face[0], face[1], face[2]
        u = [b[i] - a[i] for i in range(3)]
        v = [c[i] - a[i] for i in range(3)]
        normal = [u[1] * v[2] - u[2] * v[1], u[2] * v[0] - u[0] * v[2], u[0] * v[1] - u[1] * v[0]]
        outside.append(sum(n * (h - p) for n, h, p in zip(normal, here, a, strict=True))
                       / math.hypot(*normal))
    nearest = max(range(len(faces)), key=outside.__getitem__)
    if abs(outside[nearest]) > SURFACE:
        raise ValueError(f"the point {list(point)} is not on the surface of cell {list(cell)}")
    shared = _key(faces[nearest])
    for near in lattice.neighbours(cell):
        if any(_key(other) == shared for other in lattice.solid_faces(near) or ()):
            return near
    raise ValueError(f"no cell of the {lattice.name} lattice shares that face of {list(cell)}")


def first_cell(lattice: Lattice) -> Cell:
    """The cell an empty board or piece starts from: the lattice's first cell (in the
    order of layer, row and column) in the lowest block."""
    return next(cell for cell in product(range(6), repeat=3) if lattice.holds(cell))


def places(lattice: Lattice, window: Sequence[int]) -> list[str]:
    """Which positions of a window (``layers, rows, cols``) are cells, written as the file
    writes a grid: a layer a string, rows joined by "/", '#' a cell and '.' none."""
    layers, rows, cols = window
    return ["/".join("".join("#" if lattice.holds((l, r, c)) else "." for c in range(cols))
                     for r in range(rows)) for l in range(layers)]


def space_map(lattice: Lattice, cell: Cell) -> list[list[float]] | None:
    """The linear map (rows of a 3 x 3 matrix) from a move of cells ``[dx, dy, dz]`` (x the
    column, y the row, z the layer, in cells, as the take-apart's positions are given) to
    the same move in the page's space, found from three of the lattice's own steps taken
    from ``cell``; None for a lattice without steps of its own."""
    steps = lattice.slide_steps()
    if not steps:
        return None
    here = centre(lattice, cell)
    chosen: list[tuple[list[int], list[float]]] = []
    for step in steps:
        xyz = [step[2], step[1], step[0]]
        trial = [*chosen, (xyz, [0.0, 0.0, 0.0])]
        if len(trial) == 3 and _det([s for s, _ in trial]) == 0:
            continue
        if len(trial) == 2 and _cross(trial[0][0], xyz) == [0, 0, 0]:
            continue
        moved = centre(lattice, tuple(c + s for c, s in zip(cell, step, strict=True)))
        chosen.append((xyz, [m - h for m, h in zip(moved, here, strict=True)]))
        if len(chosen) == 3:
            break
    if len(chosen) < 3:
        return None
    # space = M @ cells for the three steps: M = D S^-1 (S: the steps as columns)
    s = [[chosen[j][0][i] for j in range(3)] for i in range(3)]
    d = [[chosen[j][1][i] for j in range(3)] for i in range(3)]
    inverse = _inverse(s)
    return [[round(sum(d[i][k] * inverse[k][j] for k in range(3)), DIGITS + 1)
             for j in range(3)] for i in range(3)]


def _cross(a: Sequence[int], b: Sequence[int]) -> list[int]:
    return [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]]


def _det(rows: Sequence[Sequence[float]]) -> float:
    a, b, c = rows
    return a[0] * (b[1] * c[2] - b[2] * c[1]) - a[1] * (b[0] * c[2] - b[2] * c[0]) \
        + a[2] * (b[0] * c[1] - b[1] * c[0])


def _inverse(m: Sequence[Sequence[float]]) -> list[list[float]]:
    det = _det(m)
    cof = [[m[(i + 1) % 3][(j + 1) % 3] * m[(i + 2) % 3][(j + 2) % 3]
            - m[(i + 1) % 3][(j + 2) % 3] * m[(i + 2) % 3][(j + 1) % 3] for j in range(3)]
           for i in range(3)]
    return [[cof[j][i] / det for j in range(3)] for i in range(3)]
