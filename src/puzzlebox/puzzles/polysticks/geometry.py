"""Sticks on the square grid, in doubled coordinates, and what is true of them alone.

A grid point (row r, column c; row 0 at the top) is ``(2r, 2c)``. A stick is the midpoint
of its unit edge: a horizontal stick from point (r, c) to (r, c + 1) is ``(2r, 2c + 1)``, a
vertical one from (r, c) to (r + 1, c) is ``(2r + 1, 2c)``. So a stick has exactly one odd
coordinate (odd column: horizontal, odd row: vertical), its two ends are its neighbours
along that coordinate, and the eight symmetries of the square act on sticks exactly as on
cells: ``(y, x) -> (x, -y)`` turns a stick into the turned stick. The coordinates are also
the text notation's places (text.py): row ``y`` and column ``x`` of the drawing.

Why doubled: one set of numbers names points and sticks alike, symmetry and translation
are the cell lattice's, and a piece is "normalised" by an even shift that keeps points on
points.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator

Stick = tuple[int, int]  # doubled (row, col): exactly one coordinate odd
Point = tuple[int, int]  # doubled (row, col): both even
Sticks = frozenset[Stick]

# The eight symmetries of the square on (row, col), identity first; the first four are the
# rotations (a quarter turn each), the last four the reflections.
MAPS: tuple[Callable[[int, int], tuple[int, int]], ...] = (
    lambda y, x: (y, x),
    lambda y, x: (x, -y),
    lambda y, x: (-y, -x),
    lambda y, x: (-x, y),
    lambda y, x: (y, -x),
    lambda y, x: (-y, x),
    lambda y, x: (x, y),
    lambda y, x: (-x, -y),
)
ROTATIONS = (0, 1, 2, 3)
MIRROR = 4  # left-right reflection


def is_stick(place: tuple[int, int]) -> bool:
    return (place[0] + place[1]) % 2 == 1


def is_horizontal(stick: Stick) -> bool:
    return stick[1] % 2 == 1


def ends(stick: Stick) -> tuple[Point, Point]:
    """The two grid points a stick joins."""
    y, x = stick
    if is_horizontal(stick):
        return (y, x - 1), (y, x + 1)
    return (y - 1, x), (y + 1, x)


def moved(sticks: Iterable[Stick], k: int) -> list[Stick]:
    f = MAPS[k]
    return [f(y, x) for y, x in sticks]


def normalize(sticks: Iterable[Stick]) -> Sticks:
    """Shift by an even amount so that the least point row and column are 0."""
    sticks = list(sticks)
    if not sticks:
        return frozenset()
    y0 = min(y - (y % 2) for y, _ in sticks)  # a vertical stick's upper end
    x0 = min(x - (x % 2) for _, x in sticks)
    return frozenset((y - y0, x - x0) for y, x in sticks)


def orientations(sticks: Iterable[Stick], maps: Iterable[int] = range(8)) -> list[Sticks]:
    """The distinct images of a shape under ``maps`` (indices into MAPS), normalised, in
    the order of their first map."""
    shape = list(sticks)
    out: list[Sticks] = []
    for k in maps:
        image = normalize(moved(shape, k))
        if image not in out:
            out.append(image)
    return out


def allowed_maps(rotate: bool, reflect: bool) -> tuple[int, ...]:
    """The maps a piece may take: every rotation with ``rotate``; with ``reflect`` the
    mirror images as well (without ``rotate``: the shape and its left-right mirror)."""
    turns = ROTATIONS if rotate else (0,)
    if not reflect:
        return turns
    if rotate:
        return tuple(range(8))
    return (0, MIRROR)


def connected(sticks: Iterable[Stick]) -> bool:
    """Whether sticks form one piece: two sticks touch when they share an end."""
    todo = set(sticks)
    if not todo:
        return False
    by_point: dict[Point, list[Stick]] = {}
    for s in todo:
        for p in ends(s):
            by_point.setdefault(p, []).append(s)
    stack = [todo.pop()]
    while stack:
        s = stack.pop()
        for p in ends(s):
            for t in by_point[p]:
                if t in todo:
                    todo.remove(t)
                    stack.append(t)
    return not todo


def through_points(sticks: Iterable[Stick]) -> list[Point]:
    """The points a shape passes straight through (two of its sticks in line meet there):
    where a crossing would happen if another shape passed through it the other way.

    Polyform Puzzler's rule: a piece claims these points, so that no two pieces cross.
    """
    own = set(sticks)
    out: set[Point] = set()
    for s in own:
        _, far = ends(s)
        beyond = (2 * far[0] - s[0], 2 * far[1] - s[1])
        if beyond in own:
            out.add(far)
    return sorted(out)


def joint_points(sticks: Iterable[Stick]) -> list[Point]:
    """The points where two or more of a shape's own sticks meet (straight or turning):
    the stricter rule, under which pieces meet only where one of them ends."""
    count: dict[Point, int] = {}
    for s in sticks:
        for p in ends(s):
            count[p] = count.get(p, 0) + 1
    return sorted(p for p, k in count.items() if k >= 2)


def neighbours(stick: Stick) -> Iterator[Stick]:
    """The six sticks that share an end with ``stick``."""
    for p in ends(stick):
        for dy, dx in ((0, 1), (0, -1), (1, 0), (-1, 0)):
            t = (p[0] + dy, p[1] + dx)
            if t != stick:
                yield t


def canonical(sticks: Iterable[Stick], maps: Iterable[int] = range(8)) -> tuple[Stick, ...]:
    """The least normalised image of a shape under ``maps``: equal for equal shapes."""
    return min(tuple(sorted(o)) for o in orientations(sticks, maps))


def polysticks(size: int, one_sided: bool = False) -> list[Sticks]:
    """Every polystick of ``size`` sticks, once each up to rotation and reflection (up to
    rotation only when ``one_sided``), grown stick by stick from the monostick.

    Independent of the cover machinery: the catalog's piece sets are checked against it
    (1, 2, 5, 16, 55 free; 1, 2, 7, 25, 99 one-sided for sizes 1 to 5).
    """
    maps = ROTATIONS if one_sided else tuple(range(8))
    level: dict[tuple[Stick, ...], Sticks] = {((0, 1),): frozenset({(0, 1)})}
    for _ in range(size - 1):
        grown: dict[tuple[Stick, ...], Sticks] = {}
        for shape in level.values():
            for s in shape:
                for t in neighbours(s):
                    if t in shape:
                        continue
                    bigger = shape | {t}
                    key = canonical(bigger, maps)
                    if key not in grown:
                        grown[key] = frozenset(key)
        level = grown
    return [level[k] for k in sorted(level)]
