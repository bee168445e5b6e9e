"""Plane geometry of cell sets for pictures: outlines, enclosed holes, where a label fits.

Pure Python (no matplotlib), so it is cheap to test. Points are grid corners ``(x, y)`` with
``x`` the column and ``y`` the row, so ``y`` grows downwards as on a screen; the cell
``(r, c)`` is the unit square from ``(c, r)`` to ``(c + 1, r + 1)``.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from puzzlebox.geometry.lattice import Cell, Lattice

Point = tuple[int, int]


def boundary_loops(cells: Iterable[Cell]) -> list[list[Point]]:
    """The boundary of the union of ``cells`` as closed loops of corner points.

    Why loops and not squares: a piece is drawn as one polygon whose outline is the piece's
    outline. The outer boundary runs clockwise on screen (interior on the right, positive
    :func:`signed_area`), the boundary of each hole counter-clockwise (negative), so a
    compound path of all loops fills correctly under either fill rule. Where two cells of the
    set touch only at a corner the walk turns right, hugging the cells: cells that meet only
    at a corner get loops of their own (and a hole that meets the outside at a corner is
    walked as part of the outer loop, which then passes that corner twice). Collinear
    corners are dropped; each loop starts at its smallest corner, so output is stable.
    """
    cellset = set(cells)
    out: dict[Point, list[Point]] = {}

    def edge(a: Point, b: Point) -> None:
        out.setdefault(a, []).append(b)

    for r, c in cellset:
        if (r - 1, c) not in cellset:
            edge((c, r), (c + 1, r))
        if (r, c + 1) not in cellset:
            edge((c + 1, r), (c + 1, r + 1))
        if (r + 1, c) not in cellset:
            edge((c + 1, r + 1), (c, r + 1))
        if (r, c - 1) not in cellset:
            edge((c, r + 1), (c, r))

    loops: list[list[Point]] = []
    while out:
        start = min(out)
        loop = [start]
        prev, cur = start, _take(out, start, None)
        while cur != start:
            loop.append(cur)
            prev, cur = cur, _take(out, cur, (cur[0] - prev[0], cur[1] - prev[1]))
        loops.append(_drop_collinear(loop))
    return loops


def _take(out: dict[Point, list[Point]], at: Point, came: tuple[int, int] | None) -> Point:
    """Remove and return the next corner from ``at``, turning as far right as possible."""
    ends = out[at]
    if came is None or len(ends) == 1:
        end = ends[0]
    else:
        # cross > 0 is a right turn on a screen (y down); prefer right, then straight, then left
        def cross(e: Point) -> int:
            return came[0] * (e[1] - at[1]) - came[1] * (e[0] - at[0])

        end = max(ends, key=cross)
    ends.remove(end)
    if not ends:
        del out[at]
    return end


def _drop_collinear(loop: list[Point]) -> list[Point]:
    n = len(loop)
    kept = []
    for i, p in enumerate(loop):
        a, b = loop[i - 1], loop[(i + 1) % n]
        if (p[0] - a[0]) * (b[1] - p[1]) - (p[1] - a[1]) * (b[0] - p[0]) != 0:
            kept.append(p)
    start = kept.index(min(kept))
    return kept[start:] + kept[:start]


def signed_area(loop: list[Point] | list[tuple[float, float]]) -> float:
    """Shoelace area: positive for loops clockwise on screen (outer boundaries here)."""
    n = len(loop)
    return 0.5 * sum(
        loop[i][0] * loop[(i + 1) % n][1] - loop[(i + 1) % n][0] * loop[i][1] for i in range(n)
    )


def enclosed(cells: Iterable[Cell]) -> set[Cell]:
    """Cells not in the set but inside its bounding box and cut off from the outside.

    These are the holes of a board (drawn hatched), as opposed to the space around it,
    which stays blank.
    """
    cellset = set(cells)
    if not cellset:
        return set()
    r0 = min(r for r, _ in cellset) - 1
    r1 = max(r for r, _ in cellset) + 1
    c0 = min(c for _, c in cellset) - 1
    c1 = max(c for _, c in cellset) + 1
    outside = {(r0, c0)}
    todo = [(r0, c0)]
    while todo:
        r, c = todo.pop()
        for n in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)):
            if r0 <= n[0] <= r1 and c0 <= n[1] <= c1 and n not in cellset and n not in outside:
                outside.add(n)
                todo.append(n)
    return {
        (r, c)
        for r in range(r0 + 1, r1)
        for c in range(c0 + 1, c1)
        if (r, c) not in cellset and (r, c) not in outside
    }


# The height of capitals in ems, roughly, for a bold sans-serif face. Pictures measure the
# real text; this serves where no font is at hand.
CAP_HEIGHT = 0.73


@dataclass(frozen=True)
class LabelSpot:
    """Where a label goes (centre, in grid units), its turn in degrees, and the largest font
    size (em, in cell units) at which it stays inside the cells."""

    x: float
    y: float
    rotation: int
    size: float


def label_spot(
    cells: Iterable[Cell], width: float, height: float = CAP_HEIGHT, largest: float = 0.6
) -> LabelSpot:
    """The roomiest place for a label ``width`` by ``height`` ems in size inside ``cells``.

    Candidates are the centres of solid squares of 1 to 3 cells and of every maximal straight
    run of cells; text may be turned a quarter, for long names in upright strips.
    The one that allows the largest font wins; ties go to larger room, then to the spot
    nearest the centroid, then to the first in reading order, so the choice is stable.
    """
    cellset = set(cells)
    cy = sum(r + 0.5 for r, _ in cellset) / len(cellset)
    cx = sum(c + 0.5 for _, c in cellset) / len(cellset)
    boxes: list[tuple[float, float, int, int]] = []  # centre x, y; width, height in cells
    for r, c in cellset:
        for k in (1, 2, 3):
            if all((r + i, c + j) in cellset for i in range(k) for j in range(k)):
                boxes.append((c + k / 2, r + k / 2, k, k))
        if (r, c - 1) not in cellset:  # start of a horizontal run
            n = 1
            while (r, c + n) in cellset:
                n += 1
            boxes.append((c + n / 2, r + 0.5, n, 1))
        if (r - 1, c) not in cellset:  # start of a vertical run
            n = 1
            while (r + n, c) in cellset:
                n += 1
            boxes.append((c + 0.5, r + n / 2, 1, n))

    def size(room_x: float, room_y: float) -> float:
        return min(0.8 * room_x / max(width, 1e-9), 0.75 * room_y / height, largest)

    candidates = []
    for x, y, room_x, room_y in boxes:
        candidates.append((size(room_x, room_y), x, y, room_x * room_y, 0))
        if width > 1.2 * height:  # upright text only for long labels, and when it buys size
            candidates.append((0.97 * size(room_y, room_x), x, y, room_x * room_y, 90))

    def rank(cand: tuple[float, float, float, int, int]) -> tuple[float, ...]:
        fit, x, y, area, _ = cand
        dist = (x - cx) ** 2 + (y - cy) ** 2
        return (round(fit, 6), area, -round(dist, 6), -y, -x)

    fit, x, y, _, turn = max(candidates, key=rank)
    return LabelSpot(x, y, turn, fit)


def short_names(names: list[str]) -> dict[str, str]:
    """The shortest prefix of each name that no other name starts with (for legends)."""
    result = {}
    for name in names:
        others = [n for n in names if n != name]
        for k in range(1, len(name) + 1):
            if not any(o.startswith(name[:k]) for o in others):
                result[name] = name[:k]
                break
        else:
            result[name] = name
    return result


# -- any lattice: cells as polygons --------------------------------------------------------
#
# The square functions above walk unit edges of the grid. Other flat lattices (triangle,
# hexagon) give each cell as a polygon (``Lattice.polygon``); the functions below merge such
# polygons the same way, so one piece is one outline on every lattice. On the square lattice
# they return the same loops as :func:`boundary_loops` (as floats); a test checks that.

FPoint = tuple[float, float]
_EPS = 1e-9


def _key(point: Sequence[float]) -> FPoint:
    """A corner as a dictionary key: corners shared by two cells are computed twice (with
    square roots on triangle and hexagon), so they are rounded to match; ``+ 0.0`` turns -0.0
    into 0.0."""
    return (round(point[0], 6) + 0.0, round(point[1], 6) + 0.0)


def _clockwise(points: Sequence[Sequence[float]]) -> list[FPoint]:
    """The polygon's corners as keys, turned to run clockwise on screen (positive area)."""
    keyed = [_key(p) for p in points]
    return keyed if signed_area(keyed) > 0 else keyed[::-1]


def polygon_edges(polygons: Iterable[Sequence[Sequence[float]]]) -> tuple[
        list[tuple[FPoint, FPoint]], list[tuple[FPoint, FPoint]]]:
    """The boundary edges of the union of ``polygons`` (cells that share whole sides), each
    directed with the interior on its right, and the inner edges (a side two cells share),
    each once, sorted so that output is stable.

    Why by cancellation: two cells of a lattice that share a side walk it in opposite
    directions when both run clockwise, so an edge whose reverse is also there is inside."""
    directed: dict[tuple[FPoint, FPoint], int] = {}
    for polygon in polygons:
        corners = _clockwise(polygon)
        for i, a in enumerate(corners):
            b = corners[(i + 1) % len(corners)]
            directed[(a, b)] = directed.get((a, b), 0) + 1
    outer, inner = [], []
    for (a, b), n in directed.items():
        back = directed.get((b, a), 0)
        outer += [(a, b)] * max(0, n - back)
        if back and a < b:
            inner.append((a, b))
    return sorted(outer), sorted(inner)


def polygon_loops(polygons: Iterable[Sequence[Sequence[float]]]) -> list[list[FPoint]]:
    """The outline of the union of ``polygons`` as closed loops, as :func:`boundary_loops`
    draws it on squares: outer boundaries clockwise on screen, holes counter-clockwise,
    turning as far right as possible where loops touch at a corner, collinear corners
    dropped, each loop from its smallest corner."""
    outer, _ = polygon_edges(polygons)
    out: dict[FPoint, list[FPoint]] = {}
    for a, b in outer:
        out.setdefault(a, []).append(b)
    loops: list[list[FPoint]] = []
    while out:
        start = min(out)
        loop = [start]
        prev, cur = start, _take_turning(out, start, None)
        while cur != start:
            loop.append(cur)
            prev, cur = cur, _take_turning(out, cur, (cur[0] - prev[0], cur[1] - prev[1]))
        kept = _drop_straight(loop)
        if len(kept) >= 3:
            loops.append(kept)
    return loops


def _take_turning(out: dict[FPoint, list[FPoint]], at: FPoint,
                  came: tuple[float, float] | None) -> FPoint:
    """Remove and return the next corner from ``at``, turning as far right as possible (the
    largest clockwise angle on a screen whose y grows downwards)."""
    ends = out[at]
    if came is None or len(ends) == 1:
        end = ends[0]
    else:
        def turn(e: FPoint) -> float:
            dx, dy = e[0] - at[0], e[1] - at[1]
            return math.atan2(came[0] * dy - came[1] * dx, came[0] * dx + came[1] * dy)

        end = max(ends, key=turn)
    ends.remove(end)
    if not ends:
        del out[at]
    return end


def _drop_straight(loop: list[FPoint]) -> list[FPoint]:
    n = len(loop)
    kept = []
    for i, p in enumerate(loop):
        a, b = loop[i - 1], loop[(i + 1) % n]
        if abs((p[0] - a[0]) * (b[1] - p[1]) - (p[1] - a[1]) * (b[0] - p[0])) > _EPS:
            kept.append(p)
    if not kept:
        return kept
    start = kept.index(min(kept))
    return kept[start:] + kept[:start]


def cell_polygons(lattice: Lattice, cells: Iterable[Cell]) -> list[list[FPoint]]:
    """Each cell's polygon in picture units; ValueError on a lattice not drawn flat."""
    polygons = []
    for cell in cells:
        polygon = lattice.polygon(cell)
        if polygon is None:
            raise ValueError(f"the {lattice.name} lattice is not drawn flat")
        polygons.append([(float(x), float(y)) for x, y in polygon])
    return polygons


def cell_loops(lattice: Lattice, cells: Iterable[Cell]) -> list[list[FPoint]]:
    """The outline of a set of cells on a flat lattice, as :func:`polygon_loops` traces it."""
    return polygon_loops(cell_polygons(lattice, cells))


def inner_edges(lattice: Lattice, cells: Iterable[Cell]) -> list[tuple[FPoint, FPoint]]:
    """The sides shared by two cells of the set (thin lines inside a piece or a board)."""
    return polygon_edges(cell_polygons(lattice, cells))[1]


def extent(lattice: Lattice, cells: Iterable[Cell]) -> tuple[float, float, float, float]:
    """``(x0, y0, width, height)`` of the cells' polygons in picture units."""
    points = [p for polygon in cell_polygons(lattice, cells) for p in polygon]
    xs = [x for x, _ in points]
    ys = [y for _, y in points]
    return min(xs), min(ys), max(xs) - min(xs), max(ys) - min(ys)


def enclosed_cells(lattice: Lattice, cells: Iterable[Cell]) -> set[Cell]:
    """Cells not in the set but cut off from the outside by it, on any lattice: the holes of
    a board. The search runs over the set's bounding box in cell coordinates, widened by two
    on every side (on triangle one column does not connect a column's cells; two do)."""
    cellset = set(cells)
    if not cellset:
        return set()
    dims = len(next(iter(cellset)))
    low = [min(cell[i] for cell in cellset) - 2 for i in range(dims)]
    high = [max(cell[i] for cell in cellset) + 2 for i in range(dims)]

    def inside(cell: Cell) -> bool:
        return all(lo <= v <= hi for v, lo, hi in zip(cell, low, high, strict=True))

    start = tuple(low)
    outside = {start}
    todo = [start]
    while todo:
        for near in lattice.neighbours(todo.pop()):
            if inside(near) and near not in cellset and near not in outside:
                outside.add(near)
                todo.append(near)
    box: list[Cell] = [()]
    for lo, hi in zip(low, high, strict=True):
        box = [cell + (v,) for cell in box for v in range(lo, hi + 1)]
    return {cell for cell in box if cell not in cellset and cell not in outside}


def polygon_label_spot(polygons: Sequence[Sequence[Sequence[float]]], width: float,
                       height: float = CAP_HEIGHT, largest: float = 0.6) -> LabelSpot:
    """The roomiest place for a label ``width`` by ``height`` ems inside the union of
    ``polygons`` (cells of a triangle or hexagon lattice); never turned.

    Candidates are the cells' centres, the midpoints of the sides two cells share and the
    corners inside the union (where six triangles meet, the roomiest spot of a hexagon of
    triangles); the room at a point is its distance to the outline, and the label's box
    must fit in the circle of that radius. Ties go to more room (a letter in the middle of
    a hexagon rather than on the notch between two), then to the spot nearest the
    centroid, then to the first in reading order."""
    keyed = [_clockwise(p) for p in polygons]
    outer, inner = polygon_edges(keyed)
    on_outline = {p for edge in outer for p in edge}
    candidates: list[FPoint] = []
    for polygon in keyed:
        candidates.append((sum(x for x, _ in polygon) / len(polygon),
                           sum(y for _, y in polygon) / len(polygon)))
    for a, b in inner:
        candidates.append(((a[0] + b[0]) / 2, (a[1] + b[1]) / 2))
        candidates += [p for p in (a, b) if p not in on_outline]
    area = sum(signed_area(p) for p in keyed)
    cx = sum(signed_area(p) * sum(x for x, _ in p) / len(p) for p in keyed) / area
    cy = sum(signed_area(p) * sum(y for _, y in p) / len(p) for p in keyed) / area
    diagonal = math.hypot(width, height)

    def rank(point: FPoint) -> tuple[float, ...]:
        room = min(_distance(point, a, b) for a, b in outer)
        fit = min(0.9 * 2 * room / max(diagonal, 1e-9), largest)
        dist = (point[0] - cx) ** 2 + (point[1] - cy) ** 2
        return (round(fit, 6), round(room, 6), -round(dist, 6), -point[1], -point[0])

    best = max(candidates, key=rank)
    return LabelSpot(best[0], best[1], 0, rank(best)[0])


def _distance(p: FPoint, a: FPoint, b: FPoint) -> float:
    """From ``p`` to the segment ``a``-``b``."""
    dx, dy = b[0] - a[0], b[1] - a[1]
    length = dx * dx + dy * dy
    t = 0.0 if length == 0 else max(0.0, min(1.0, ((p[0] - a[0]) * dx + (p[1] - a[1]) * dy)
                                             / length))
    return math.hypot(p[0] - a[0] - t * dx, p[1] - a[1] - t * dy)
