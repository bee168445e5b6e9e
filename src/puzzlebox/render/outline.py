"""Plane geometry of cell sets for pictures: outlines, enclosed holes, where a label fits.

Pure Python (no matplotlib), so it is cheap to test. Points are grid corners ``(x, y)`` with
``x`` the column and ``y`` the row, so ``y`` grows downwards as on a screen; the cell
``(r, c)`` is the unit square from ``(c, r)`` to ``(c + 1, r + 1)``.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from puzzlebox.geometry.lattice import Cell

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
