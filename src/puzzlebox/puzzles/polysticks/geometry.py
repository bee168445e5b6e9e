"""Sticks on a grid of points, in doubled coordinates, and what is true of them alone.

Two grids of points carry sticks (unit edges): the square grid (polysticks) and the
triangle grid (polytrigs, Polyform Puzzler's name), each a :class:`StickGrid`. On both, a
grid point ``p`` (integer coordinates) is written ``2p`` and the stick from ``p`` to ``q``
its midpoint doubled, ``p + q``. So points are the places whose two coordinates are even,
sticks the others, and every symmetry of the grid, being linear, acts on points and sticks
alike (one integer matrix); translations by grid steps are even shifts.

* **square** (polysticks): ``(row, col)``, row 0 at the top. A horizontal stick has an odd
  column, a vertical one an odd row; both odd is the inside of a square, no stick. These
  are also the places of the text notation (text.py): row ``y``, column ``x``.
* **triangle** (polytrigs): axial ``(row, col)`` of the triangular lattice, row 0 at the
  top; a point's six neighbours are ``(r, c +- 1)``, ``(r + 1, c)`` (down right),
  ``(r + 1, c - 1)`` (down left), ``(r - 1, c)`` (up left) and ``(r - 1, c + 1)`` (up
  right). A stick's parity says its direction: (even, odd) horizontal, (odd, even) down
  right ``\\``, (odd, odd) down left ``/``. In the text notation the place ``(a, b)``
  stands at row ``a`` and column ``2b + a``, so that rows of points are drawn half a
  step apart, as the lattice looks.

Why doubled: one set of numbers names points and sticks alike, symmetry and translation
are the plain lattice's, and a piece is "normalised" by an even shift that keeps points on
points.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Iterator
from dataclasses import dataclass

Stick = tuple[int, int]  # doubled (row, col): not both even
Point = tuple[int, int]  # doubled (row, col): both even
Sticks = frozenset[Stick]
Matrix = tuple[int, int, int, int]  # (a, b, c, d): (y, x) -> (a y + b x, c y + d x)


def _times(m: Matrix, n: Matrix) -> Matrix:
    """The matrix of ``m`` after ``n``."""
    a, b, c, d = m
    e, f, g, h = n
    return (a * e + b * g, a * f + b * h, c * e + d * g, c * f + d * h)


def _group(turn: Matrix, mirror: Matrix, order: int) -> tuple[Matrix, ...]:
    """The rotations ``turn**k`` (k < order), then the mirror after each of them."""
    turns = [(1, 0, 0, 1)]
    for _ in range(order - 1):
        turns.append(_times(turn, turns[-1]))
    return tuple(turns) + tuple(_times(mirror, t) for t in turns)


@dataclass(frozen=True)
class StickGrid:
    """A grid of points whose unit edges are sticks: its symmetries, its directions and
    where a place is drawn. ``maps`` lists the rotations first (``rotations`` of them, a
    turn each), then the mirror images, the first of which (``mirror``) mirrors left to
    right; ``rays`` are the steps from a point to its sticks, counter-clockwise as drawn,
    from the one to the right. Everything a grid does differently is a value here, so
    that nothing asks which grid it is."""

    name: str
    maps: tuple[Matrix, ...]
    rotations: int
    rays: tuple[Point, ...]
    directions: tuple[str, ...]  # each stick direction's name
    parities: tuple[Point, ...]  # each direction's (row % 2, col % 2), in that order
    halves: tuple[Point, ...]  # each direction's step from a stick's middle to an end
    marks: tuple[str, ...]  # each direction's character in the text notation
    plane_of: tuple[float, float, float, float]  # (x from row, x from col, y from row, 0)
    staggered: bool  # rows of points drawn half a step apart (the triangle notation)
    claims_rays: bool  # "no crossing" claims rays (triangle), not points passed straight
    family: str  # what a puzzle of its sticks is called

    @property
    def mirror(self) -> int:
        return self.rotations

    def is_stick(self, place: tuple[int, int]) -> bool:
        return place[0] % 2 == 1 or place[1] % 2 == 1

    def direction(self, stick: Stick) -> int:
        """Which of the grid's stick directions (an index into ``directions``)."""
        return self.parities.index((stick[0] % 2, stick[1] % 2))

    def half(self, stick: Stick) -> Point:
        """The step from a stick's middle to its one end (the other is minus it)."""
        return self.halves[self.direction(stick)]

    def ends(self, stick: Stick) -> tuple[Point, Point]:
        """The two grid points a stick joins, the upper (or left) one first."""
        dy, dx = self.half(stick)
        y, x = stick
        a, b = (y - dy, x - dx), (y + dy, x + dx)
        return (a, b) if a <= b else (b, a)

    def plane(self, place: tuple[int, int]) -> tuple[float, float]:
        """Where a place is drawn, (x, y) in unit sticks, y down."""
        y, x = place
        xy, xx, yy, _ = self.plane_of
        return xy * y + xx * x, yy * y

    def text_column(self, place: tuple[int, int]) -> int:
        """The column of the text notation where a place is written (its row is its
        first coordinate): ``2 col + row`` on a staggered grid, ``col`` otherwise."""
        y, x = place
        return 2 * x + y if self.staggered else x


SQUARE = StickGrid("square", _group((0, 1, -1, 0), (1, 0, 0, -1), 4), 4,
                   ((0, 1), (-1, 0), (0, -1), (1, 0)), ("horizontal", "vertical"),
                   ((0, 1), (1, 0)), ((0, 1), (1, 0)), ("-", "|"), (0.0, 0.5, 0.5, 0.0),
                   staggered=False, claims_rays=False, family="polysticks")
# On axial (row, col): a turn by 60 degrees sends (r, c) to (r + c, -r); the mirror
# (c -> -c on the drawing) sends (r, c) to (r, -r - c). A point (r, c) is drawn at
# x = c + r / 2, y = r * sqrt(3) / 2 (places are doubled: half of that).
TRIANGLE = StickGrid("triangle", _group((1, 1, -1, 0), (1, 0, -1, -1), 6), 6,
                     ((0, 1), (-1, 1), (-1, 0), (0, -1), (1, -1), (1, 0)),
                     ("horizontal", "down-right", "down-left"),
                     ((0, 1), (1, 0), (1, 1)), ((0, 1), (1, 0), (1, -1)), ("-", "\\", "/"),
                     (0.25, 0.5, math.sqrt(3) / 4, 0.0),
                     staggered=True, claims_rays=True, family="polytrigs (sticks on triangles)")
GRIDS = {g.name: g for g in (SQUARE, TRIANGLE)}


def moved(sticks: Iterable[Stick], k: int, grid: StickGrid = SQUARE) -> list[Stick]:
    """The sticks under the grid's map number ``k``."""
    a, b, c, d = grid.maps[k]
    return [(a * y + b * x, c * y + d * x) for y, x in sticks]


def is_stick(place: tuple[int, int]) -> bool:
    """A square grid's stick: exactly one coordinate odd."""
    return (place[0] + place[1]) % 2 == 1


def is_horizontal(stick: Stick) -> bool:
    return stick[1] % 2 == 1 and stick[0] % 2 == 0


def ends(stick: Stick, grid: StickGrid = SQUARE) -> tuple[Point, Point]:
    """The two grid points a stick joins."""
    return grid.ends(stick)


def normalize(sticks: Iterable[Stick], grid: StickGrid = SQUARE) -> Sticks:
    """Shift by an even amount so that the least row and the least column of the points
    the sticks join are 0."""
    sticks = list(sticks)
    if not sticks:
        return frozenset()
    points = [p for s in sticks for p in grid.ends(s)]
    y0 = min(y for y, _ in points)
    x0 = min(x for _, x in points)
    return frozenset((y - y0, x - x0) for y, x in sticks)


def orientations(sticks: Iterable[Stick], maps: Iterable[int] | None = None,
                 grid: StickGrid = SQUARE) -> list[Sticks]:
    """The distinct images of a shape under ``maps`` (indices into the grid's maps; all of
    them by default), normalised, in the order of their first map."""
    shape = list(sticks)
    out: list[Sticks] = []
    for k in range(len(grid.maps)) if maps is None else maps:
        image = normalize(moved(shape, k, grid), grid)
        if image not in out:
            out.append(image)
    return out


def allowed_maps(rotate: bool, reflect: bool, grid: StickGrid = SQUARE) -> tuple[int, ...]:
    """The maps a piece may take: every rotation with ``rotate``; with ``reflect`` the
    mirror images as well (without ``rotate``: the shape and its left-right mirror)."""
    turns = tuple(range(grid.rotations)) if rotate else (0,)
    if not reflect:
        return turns
    if rotate:
        return tuple(range(len(grid.maps)))
    return (0, grid.mirror)


def _by_point(sticks: Iterable[Stick], grid: StickGrid) -> dict[Point, list[Stick]]:
    out: dict[Point, list[Stick]] = {}
    for s in sticks:
        for p in grid.ends(s):
            out.setdefault(p, []).append(s)
    return out


def connected(sticks: Iterable[Stick], grid: StickGrid = SQUARE) -> bool:
    """Whether sticks form one piece: two sticks touch when they share an end."""
    todo = set(sticks)
    if not todo:
        return False
    by_point = _by_point(todo, grid)
    stack = [todo.pop()]
    while stack:
        s = stack.pop()
        for p in grid.ends(s):
            for t in by_point[p]:
                if t in todo:
                    todo.remove(t)
                    stack.append(t)
    return not todo


def through_points(sticks: Iterable[Stick], grid: StickGrid = SQUARE) -> list[Point]:
    """The points a shape passes straight through (two of its sticks in line meet there):
    where a crossing would happen if another shape passed through it the other way.

    Polyform Puzzler's rule on the square grid: a piece claims these points, so that no
    two pieces cross.
    """
    own = set(sticks)
    out: set[Point] = set()
    for s in own:
        for p in grid.ends(s):
            beyond = (2 * p[0] - s[0], 2 * p[1] - s[1])
            if beyond in own:
                out.add(p)
    return sorted(out)


Ray = tuple[int, int, int]  # a point (doubled) and one of its rays (an index into grid.rays)


def claimed_rays(sticks: Iterable[Stick], grid: StickGrid = TRIANGLE) -> list[Ray]:
    """The rays a shape claims so that no two shapes cross (Polyform Puzzler's rule for
    polytrigs). Two shapes cross at a point where the rays of one separate those of the
    other around it. Going counter-clockwise from each ray a shape uses at a point: where
    the next ray is free but one of the two after it is the shape's (a turn of 120
    degrees, or a straight line on the triangle grid), the shape claims every ray from
    the first to that one. A shape that passes a point straight claims all six rays; one
    that turns by 60 degrees, none; so two shapes cross exactly when their claims meet
    (tests/test_polytrigs.py checks this against the definition)."""
    n = len(grid.rays)
    out: set[Ray] = set()
    for point, here in _by_point(sticks, grid).items():
        used = {grid.rays.index((s[0] - point[0], s[1] - point[1])) for s in here}
        for k in used:
            if (k + 1) % n in used:
                continue
            for gap in (2, 3):
                if (k + gap) % n in used:
                    out.update((point[0], point[1], (k + j) % n) for j in range(gap + 1))
                    break
    return sorted(out)


def joint_points(sticks: Iterable[Stick], grid: StickGrid = SQUARE) -> list[Point]:
    """The points where two or more of a shape's own sticks meet (straight or turning):
    the stricter rule, under which pieces meet only where one of them ends."""
    return sorted(p for p, here in _by_point(sticks, grid).items() if len(here) >= 2)


def neighbours(stick: Stick, grid: StickGrid = SQUARE) -> Iterator[Stick]:
    """The sticks that share an end with ``stick`` (six on squares, ten on triangles)."""
    for p in grid.ends(stick):
        for dy, dx in grid.rays:
            t = (p[0] + dy, p[1] + dx)
            if t != stick:
                yield t


def canonical(sticks: Iterable[Stick], maps: Iterable[int] | None = None,
              grid: StickGrid = SQUARE) -> tuple[Stick, ...]:
    """The least normalised image of a shape under ``maps``: equal for equal shapes."""
    return min(tuple(sorted(o)) for o in orientations(sticks, maps, grid))


def polysticks(size: int, one_sided: bool = False, grid: StickGrid = SQUARE
               ) -> list[Sticks]:
    """Every shape of ``size`` sticks on the grid, once each up to rotation and
    reflection (up to rotation only when ``one_sided``), grown stick by stick from one.

    Independent of the cover machinery: the catalog's piece sets are checked against it
    (square: 1, 2, 5, 16, 55 free, 1, 2, 7, 25, 99 one-sided for sizes 1 to 5; triangle:
    1, 3, 12, 60 free polytrigs for sizes 1 to 4).
    """
    maps = tuple(range(grid.rotations)) if one_sided else None
    first: Sticks = frozenset({(0, 1)})
    level: dict[tuple[Stick, ...], Sticks] = {canonical(first, maps, grid): first}
    for _ in range(size - 1):
        grown: dict[tuple[Stick, ...], Sticks] = {}
        for shape in level.values():
            for s in shape:
                for t in neighbours(s, grid):
                    if t in shape:
                        continue
                    key = canonical(shape | {t}, maps, grid)
                    if key not in grown:
                        grown[key] = frozenset(key)
        level = grown
    return [level[k] for k in sorted(level)]


# The square grid's maps by index, as the rest of the kind and its tests name them.
ROTATIONS = tuple(range(SQUARE.rotations))
MIRROR = SQUARE.mirror
