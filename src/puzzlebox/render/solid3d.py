"""Solids that are not unit cubes, seen from where render/isometric.py sees cubes (#37).

Two kinds: cells that are polyhedra of their own (the rhombic lattice's tetrahedra, given
by ``Lattice.solid_faces``) and balls (the sphere lattice, ``Lattice.ball_radius``). Pure
Python, as isometric.py: the same projection (one step along a column to the lower right,
along a row to the lower left, a layer up), the viewer looking along -(1, 1, 1) in
``(layer, row, col)``.

* Polyhedra: a face that two cells share (of one piece or of two) is inside the solid and
  left out; of the others, those turned away from the viewer are left out too, and the rest
  are drawn far to near (by their centre's distance along the view), each shaded by the way
  it faces (lit from above). On a solid with hollows a far face may show through a near one
  at the rim of a hollow; the pieces' own outlines are drawn on each face.
* Balls: a disc per ball, far to near, shaded by its depth in the view.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from puzzlebox.render.isometric import project

Point = tuple[float, float]
Point3 = tuple[float, float, float]
DISC_SIDES = 28  # a ball's outline, as a polygon
LIGHT = (0.75, 0.25, 0.45)  # from above, a little from the front and the right


@dataclass(frozen=True)
class Patch:
    """One thing to draw: the group (piece) it belongs to, its outline on the screen, how
    lit it is (-1 dark to 1 bright) and how far it is (drawn far to near)."""

    group: int
    points: tuple[Point, ...]
    light: float
    depth: float


def _key(face: Sequence[Point3]) -> frozenset[Point3]:
    return frozenset((round(p[0], 6), round(p[1], 6), round(p[2], 6)) for p in face)


def polyhedra_patches(groups: Sequence[Sequence[Sequence[Point3]]]) -> list[Patch]:
    """The faces of the groups' cells (each group a list of faces, corners counter-clockwise
    from outside in ``(layer, row, col)``) that the viewer sees, far to near."""
    count: dict[frozenset[Point3], int] = {}
    for faces in groups:
        for face in faces:
            key = _key(face)
            count[key] = count.get(key, 0) + 1
    length = math.sqrt(sum(v * v for v in LIGHT))
    out = []
    for index, faces in enumerate(groups):
        for face in faces:
            if count[_key(face)] > 1:
                continue
            a, b, c = face[0], face[1], face[2]
            u = (b[0] - a[0], b[1] - a[1], b[2] - a[2])
            v = (c[0] - a[0], c[1] - a[1], c[2] - a[2])
            n = (u[1] * v[2] - u[2] * v[1], u[2] * v[0] - u[0] * v[2], u[0] * v[1] - u[1] * v[0])
            if n[0] + n[1] + n[2] <= 1e-12:
                continue  # turned away from the viewer, or seen edge on
            size = math.sqrt(sum(x * x for x in n))
            light = sum(x * y for x, y in zip(n, LIGHT, strict=True)) / (size * length)
            depth = sum(p[0] + p[1] + p[2] for p in face) / len(face)
            out.append(Patch(index, tuple(project(*p) for p in face), light, depth))
    out.sort(key=lambda p: (p.depth, p.group))
    return out


def ball_patches(groups: Sequence[Sequence[Sequence[int]]], radius: float) -> list[Patch]:
    """A disc per ball (each group a list of centres), far to near. The projection stretches
    lengths by sqrt(3/2) (isometric.py's), so a ball's outline has that much its radius."""
    out = []
    shown = radius * math.sqrt(1.5)
    for index, centres in enumerate(groups):
        for centre in centres:
            x, y = project(centre[0], centre[1], centre[2])
            ring = tuple((x + shown * math.cos(2 * math.pi * k / DISC_SIDES),
                          y + shown * math.sin(2 * math.pi * k / DISC_SIDES))
                         for k in range(DISC_SIDES))
            depth = float(centre[0] + centre[1] + centre[2])
            out.append(Patch(index, ring, 0.2, depth))
    out.sort(key=lambda p: (p.depth, p.group))
    return out


def patches_extent(patches: Sequence[Patch]) -> tuple[float, float, float, float]:
    """``(x0, y0, width, height)`` of the picture."""
    xs = [x for p in patches for x, _ in p.points]
    ys = [y for p in patches for _, y in p.points]
    return min(xs), min(ys), max(xs) - min(xs), max(ys) - min(ys)
