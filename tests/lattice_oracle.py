"""An independent brute-force counter for polyform tilings on four lattices (issue #14, item 5).

The catalog's counts on the new lattices are checked twice: against a published figure, and
against this module, which shares nothing with puzzlebox but the file format. It reads the
TOML itself (``tomllib``), embeds every lattice in integer points of its own choosing, builds
the symmetry groups from its own matrices, makes its own orientations and placements, and
counts with a plain backtracker that always fills the first empty cell. So a wrong neighbour
rule, a missing rotation or a bad cover in puzzlebox cannot be repeated here by sharing code.

The embeddings (each a bijection from the file's cells, ../shared/docs/puzzle-format.md):

* square ``(row, col)``: the point itself.
* hexagon ``(row, q)``: the point ``(q, row)`` of the axial plane; the six neighbours differ
  by ``(+-1, 0)``, ``(0, +-1)``, ``(1, -1)``, ``(-1, 1)``; a turn by 60 degrees is the
  linear map ``(x, y) -> (-y, x + y)``, a mirror ``(x, y) -> (x, -x - y)``.
* triangle ``(row, col)``: three times the centroid of the triangle, in the oblique
  coordinates of the triangular point lattice (basis vectors 60 degrees apart). Row ``r`` is
  the strip between the point rows ``b = -r - 1`` and ``b = -r``; the up triangle with
  corners ``(a, b), (a + 1, b), (a, b + 1)`` is the cell ``(r, 2a - r)``, the down triangle
  ``(a + 1, b), (a, b + 1), (a + 1, b + 1)`` the cell ``(r, 2a - r + 1)``. Centroids are
  integer points after scaling by 3, the same linear maps as the hexagon turn and mirror the
  plane, and translations are the multiples of 3 (they move corners to corners).
* cube ``(layer, row, col)``: the point itself; the 48 signed permutation matrices.
* tetra-octa ``(layer, row, col)``: BurrTools' positions, 3 a unit cube; the point is four
  times the cell's centroid (``4 * (v // 3) + v % 3 + 1`` on each axis); the cube's 48
  matrices; translations by whole cubes (4) with an even sum.
* prism ``(layer, row, col)``: the triangle's point of ``(row, col)`` and ``3 * layer``; the
  triangle's 12 matrices, each with the layers kept or turned over (24).

Counting: ``count(...)`` returns every solution as placed (labelled pieces) and the number
of classes under the maps of the board that send the set of each piece's placements onto
the set of some piece's placements (so a mirror that exchanges two mirror-image pieces, as in
the Soma cube, is a symmetry; one that turns a chiral piece into a shape the set lacks, as in
the Bedlam cube, is not). A solution is compared with others as its set of cell sets (names
dropped), and each new one marks its whole orbit as seen. That is right when no two pieces
have the same shape, which :func:`count` checks.
"""

from __future__ import annotations

import itertools
import tomllib
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

Point = tuple[int, ...]
Matrix = tuple[tuple[int, ...], ...]


# -- lattices ------------------------------------------------------------------------------


@dataclass(frozen=True)
class Geometry:
    """A lattice as this module sees it: points, the point group, translations, adjacency."""

    name: str
    dims: int
    matrices: tuple[Matrix, ...]  # the whole point group (linear maps of the points)
    modulus: int  # translations are the vectors with every coordinate a multiple of this
    steps: tuple[tuple[Point, ...], ...]  # neighbour offsets, per point class (see step_class)

    def to_point(self, cell: Sequence[int]) -> Point:
        if self.name == "tetra-octa":  # four times the centroid (module docstring)
            return tuple(4 * (v // 3) + v % 3 + 1 for v in cell)
        if self.name == "prism":  # the layer's triangle, and three times the layer
            return (*TRIANGLE.to_point(cell[1:]), 3 * cell[0])
        if self.name == "triangle":
            row, col = cell
            up = (row + col) % 2 == 0
            a = (col + row) // 2 if up else (col + row - 1) // 2
            b = -row - 1
            return (3 * a + 1, 3 * b + 1) if up else (3 * a + 2, 3 * b + 2)
        if self.name == "hexagon":
            row, q = cell
            return (q, row)
        return tuple(cell)

    def to_cell(self, point: Point) -> tuple[int, ...]:
        if self.name == "tetra-octa":
            return tuple(3 * (u // 4) + u % 4 - 1 for u in point)
        if self.name == "prism":
            return (point[2] // 3, *TRIANGLE.to_cell(point[:2]))
        if self.name == "triangle":
            u, v = point
            up = u % 3 == 1
            a, b = (u - 1) // 3, (v - 1) // 3
            if not up:
                a, b = (u - 2) // 3, (v - 2) // 3
            row = -b - 1
            return (row, 2 * a - row) if up else (row, 2 * a - row + 1)
        if self.name == "hexagon":
            q, row = point
            return (row, q)
        return tuple(point)

    def step_class(self, point: Point) -> int:
        return 0 if self.name not in ("triangle", "prism") or point[0] % 3 == 1 else 1

    def neighbours(self, point: Point) -> list[Point]:
        if self.name == "tetra-octa":  # the offsets between face neighbours' centroids
            return [q for d in TETRA_OCTA_STEPS if tetra_octa_cell(q := add(point, d))]
        return [add(point, step) for step in self.steps[self.step_class(point)]]

    def proper(self, matrix: Matrix) -> bool:
        return determinant(matrix) > 0

    def translates(self, shift: Point) -> bool:
        """Whether moving by ``shift`` maps the lattice onto itself."""
        if self.name == "tetra-octa":  # whole unit cubes (4) with an even sum
            return all(x % 4 == 0 for x in shift) and (sum(shift) // 4) % 2 == 0
        return not any(x % self.modulus for x in shift)


def tetra_octa_cell(u: Point) -> bool:
    """A point is a cell's centroid (times 4): a regular tetrahedron's, at the centre of a
    unit cube (every coordinate 2 mod 4), or an octahedron eighth's, a quarter in from a
    corner of space whose coordinates have an odd sum (every coordinate odd)."""
    if all(x % 4 == 2 for x in u):
        return True
    return all(x % 2 for x in u) and sum((x + 1) // 4 for x in u) % 2 == 1


# a tetrahedron to its eighths and back, an eighth to the next across a face of its cube
TETRA_OCTA_STEPS = tuple(itertools.product((1, -1), repeat=3)) + tuple(
    tuple(s if i == axis else 0 for i in range(3)) for axis in range(3) for s in (2, -2))


def add(p: Point, q: Point) -> Point:
    return tuple(a + b for a, b in zip(p, q, strict=True))


def sub(p: Point, q: Point) -> Point:
    return tuple(a - b for a, b in zip(p, q, strict=True))


def apply(matrix: Matrix, point: Point) -> Point:
    return tuple(sum(m * x for m, x in zip(row, point, strict=True)) for row in matrix)


def multiply(a: Matrix, b: Matrix) -> Matrix:
    n = len(a)
    return tuple(tuple(sum(a[i][k] * b[k][j] for k in range(n)) for j in range(n))
                 for i in range(n))


def determinant(m: Matrix) -> int:
    if len(m) == 2:
        return m[0][0] * m[1][1] - m[0][1] * m[1][0]
    return sum(
        (-1) ** j * m[0][j] * determinant(tuple(
            tuple(row[k] for k in range(3) if k != j) for row in m[1:]))
        for j in range(3)
    )


def closure(generators: Iterable[Matrix]) -> tuple[Matrix, ...]:
    """The group the matrices generate, identity first."""
    generators = list(generators)
    n = len(generators[0])
    identity = tuple(tuple(int(i == j) for j in range(n)) for i in range(n))
    group = [identity]
    frontier = [identity]
    while frontier:
        new = []
        for g in frontier:
            for h in generators:
                gh = multiply(g, h)
                if gh not in group:
                    group.append(gh)
                    new.append(gh)
        frontier = new
    return tuple(group)


TURN60: Matrix = ((0, -1), (1, 1))  # (x, y) -> (-y, x + y)
MIRROR60: Matrix = ((1, 0), (-1, -1))  # (x, y) -> (x, -x - y)
HEX_STEPS = ((1, 0), (-1, 0), (0, 1), (0, -1), (1, -1), (-1, 1))

SQUARE = Geometry(
    "square", 2, closure([((0, -1), (1, 0)), ((1, 0), (0, -1))]), 1,
    (((1, 0), (-1, 0), (0, 1), (0, -1)),),
)
HEXAGON = Geometry("hexagon", 2, closure([TURN60, MIRROR60]), 1, (HEX_STEPS,))
TRIANGLE = Geometry(
    "triangle", 2, closure([TURN60, MIRROR60]), 3,
    # from an up triangle's centroid to its three down neighbours, and back
    (((1, 1), (-2, 1), (1, -2)), ((-1, -1), (2, -1), (-1, 2))),
)
CUBE = Geometry(
    "cube", 3,
    tuple(
        tuple(tuple(sign[i] if perm[i] == j else 0 for j in range(3)) for i in range(3))
        for perm in itertools.permutations(range(3))
        for sign in itertools.product((1, -1), repeat=3)
    ),
    1,
    (((1, 0, 0), (-1, 0, 0), (0, 1, 0), (0, -1, 0), (0, 0, 1), (0, 0, -1)),),
)
# triangular prisms in layers (#37): the triangle's points with the layer times 3 added, so
# that translations are again the multiples of 3; the triangle's maps, and turning over
PRISM = Geometry(
    "prism", 3,
    closure([((0, -1, 0), (1, 1, 0), (0, 0, 1)), ((1, 0, 0), (-1, -1, 0), (0, 0, 1)),
             ((1, 0, 0), (0, 1, 0), (0, 0, -1))]),
    3,
    tuple(tuple((*s, 0) for s in steps) + ((0, 0, 3), (0, 0, -3)) for steps in TRIANGLE.steps),
)
# tetrahedra and octahedra (BurrTools' grid 4, #37): centroids times 4, the cube's 48 maps
TETRA_OCTA = Geometry("tetra-octa", 3, CUBE.matrices, 4, ((),))
GEOMETRIES = {g.name: g for g in (SQUARE, HEXAGON, TRIANGLE, CUBE, PRISM, TETRA_OCTA)}


def normalize(geometry: Geometry, points: Iterable[Point]) -> tuple[Point, ...]:
    """The translate of ``points`` whose smallest point lies in the first cell of the
    translation lattice: equal for two sets exactly when one is a translate of the other."""
    points = sorted(points)
    m = geometry.modulus
    shift = tuple(x - x % m for x in points[0])
    if geometry.name == "tetra-octa" and (sum(shift) // 4) % 2:
        shift = (*shift[:2], shift[2] - 4)  # an allowed translation: an even sum of cubes
    return tuple(sub(p, shift) for p in points)


def translates(geometry: Geometry, cells: Iterable[tuple[int, ...]],
               moved: Iterable[tuple[int, ...]]) -> bool:
    """Whether the oracle finds the cells ``moved`` a translate of ``cells`` (its own points
    and normal forms: what a lattice's ``normalize`` is checked against)."""
    return normalize(geometry, map(geometry.to_point, cells)) == \
        normalize(geometry, map(geometry.to_point, moved))


def orientations(geometry: Geometry, points: Iterable[Point], rotate: bool, reflect: bool
                 ) -> list[tuple[Point, ...]]:
    """The distinct normal forms of a piece under the maps its rules allow.

    As in the file format: on ``cube`` every rotation (``rotate``) turns flat pieces over;
    ``reflect`` adds the mirror images; ``reflect`` alone allows the piece and its mirror
    image across a vertical axis of the drawing.
    """
    points = list(points)
    if rotate:
        maps = [m for m in geometry.matrices if reflect or geometry.proper(m)]
    else:
        maps = [geometry.matrices[0]]
        if reflect:
            maps.append(column_mirror(geometry))
    return sorted({normalize(geometry, (apply(m, p) for p in points)) for m in maps})


def column_mirror(geometry: Geometry) -> Matrix:
    """The map ``col -> -col`` of the file's coordinates, as a matrix on this module's points
    (found by trying every group element on a few cells: the oracle's own derivation)."""
    probe = [(0, 0), (0, 1), (1, 0), (1, 1), (2, 3)] if geometry.dims == 2 else [
        (0, 0, 0), (0, 0, 1), (0, 1, 0), (1, 0, 0), (1, 2, 3)]
    for m in geometry.matrices:
        images = [geometry.to_cell(apply(m, geometry.to_point(c))) for c in probe]
        mirrored = [c[:-1] + (-c[-1],) for c in probe]
        # equal up to one translation of the file's coordinates
        deltas = {sub(a, b) for a, b in zip(images, mirrored, strict=True)}
        if len(deltas) == 1:
            return m
    raise AssertionError(f"no column mirror on {geometry.name}")


def connected(geometry: Geometry, points: Iterable[Point]) -> bool:
    points = set(points)
    start = next(iter(points))
    seen = {start}
    stack = [start]
    while stack:
        for n in geometry.neighbours(stack.pop()):
            if n in points and n not in seen:
                seen.add(n)
                stack.append(n)
    return seen == points


def free_forms(geometry: Geometry, size: int) -> set[tuple[Point, ...]]:
    """Every connected shape of ``size`` cells, one canonical form per class under the whole
    point group and translations (the free polyominoes, polyiamonds, polyhexes, polycubes)."""
    start = geometry.to_point((0,) * geometry.dims)
    level = {canonical(geometry, [start])}
    for _ in range(size - 1):
        level = {
            canonical(geometry, [*shape, n])
            for shape in level
            for p in shape
            for n in geometry.neighbours(p)
            if n not in shape
        }
    return level


def canonical(geometry: Geometry, points: Iterable[Point]) -> tuple[Point, ...]:
    points = list(points)
    return min(normalize(geometry, (apply(m, p) for p in points)) for m in geometry.matrices)


# -- puzzle files ---------------------------------------------------------------------------


def grid_cells(text: str) -> dict[tuple[int, int], str]:
    """A 2-D grid of the file format, read here independently: ``.`` and space are no cell."""
    rows = text.split("/") if "\n" not in text else text.split("\n")
    while rows and not rows[0].strip():
        rows.pop(0)
    while rows and not rows[-1].strip():
        rows.pop()
    return {(r, c): ch for r, row in enumerate(rows) for c, ch in enumerate(row)
            if ch not in ". "}


def shape_cells(value: str | list[str]) -> list[tuple[int, ...]]:
    """A grid or, on ``cube``, a list of layers from the bottom up."""
    if isinstance(value, list):
        return [(layer, r, c) for layer, text in enumerate(value)
                for (r, c) in grid_cells(text)]
    return list(grid_cells(value))


@dataclass
class Instance:
    geometry: Geometry
    board: list[Point]
    pieces: dict[str, list[Point]]
    rotate: bool
    reflect: bool


def read(path: Path) -> Instance:
    """A polyomino puzzle file with one board and one copy of each piece."""
    data = tomllib.loads(path.read_text())
    geometry = GEOMETRIES[data.get("lattice", "square")]
    rules = data.get("rules", {})
    pieces = {}
    for name, value in data["pieces"].items():
        if isinstance(value, dict):
            assert value.get("count", 1) == 1, f"{path}: the oracle counts one copy each"
            value = value["shape"]
        pieces[name] = [geometry.to_point(c) for c in shape_cells(value)]
    board = [geometry.to_point(c) for c in shape_cells(data["board"]["grid"])]
    return Instance(geometry, board, pieces, rules.get("rotate", True),
                    rules.get("reflect", True))


# -- counting -------------------------------------------------------------------------------


@dataclass
class Count:
    solutions: int  # as placed, pieces told apart by name
    distinct: int  # classes under the puzzle's symmetries
    symmetries: int  # how many maps of the board are symmetries of the puzzle


def placements(instance: Instance) -> dict[str, list[frozenset[Point]]]:
    """Every way to put each piece on the board under its rules."""
    g = instance.geometry
    board = set(instance.board)
    out: dict[str, list[frozenset[Point]]] = {}
    for name, points in instance.pieces.items():
        found = set()
        for shape in orientations(g, points, instance.rotate, instance.reflect):
            for target in board:
                shift = sub(target, shape[0])
                if not g.translates(shift):
                    continue
                moved = frozenset(add(p, shift) for p in shape)
                if moved <= board:
                    found.add(moved)
        out[name] = sorted(found, key=sorted)
    return out


def board_symmetries(instance: Instance, options: dict[str, list[frozenset[Point]]]
                     ) -> list[tuple[Matrix, Point]]:
    """The maps ``p -> M p + t`` that send the board onto itself and each piece's set of
    placements onto some piece's set (a permutation of the pieces)."""
    g = instance.geometry
    board = sorted(instance.board)
    sets = {frozenset(v) for v in options.values()}
    found = []
    for m in g.matrices:
        image = sorted(apply(m, p) for p in board)
        shift = sub(board[0], image[0])
        if not g.translates(shift):
            continue
        if sorted(add(p, shift) for p in image) != board:
            continue

        def move(cells: frozenset[Point], m: Matrix = m, shift: Point = shift
                 ) -> frozenset[Point]:
            return frozenset(add(apply(m, p), shift) for p in cells)

        if all(frozenset(move(c) for c in v) in sets for v in options.values()):
            found.append((m, shift))
    return found


def count(instance: Instance, keep: int = 0) -> tuple[Count, list[list[frozenset[Point]]]]:
    """Count the tilings of the board by all the pieces, one copy each.

    ``keep`` solutions (as lists of cell sets) are returned as well, for spot checks.
    """
    g = instance.geometry
    options = placements(instance)
    names = list(options)
    shapes = {frozenset(orientations(g, c, instance.rotate, instance.reflect))
              for c in instance.pieces.values()}
    assert len(shapes) == len(names), "two pieces of one shape: the canonical form fails"
    board_area = len(instance.board)
    assert sum(len(p) for p in instance.pieces.values()) == board_area, "areas differ"

    # Cells are numbered along the board's longest axis first, so that the first empty cell
    # walks across a narrow front (in a 2x3x10 box: slab by slab, not layer by layer).
    extent = [max(p[i] for p in instance.board) - min(p[i] for p in instance.board)
              for i in range(g.dims)]
    axes = sorted(range(g.dims), key=lambda i: -extent[i])
    order = sorted(instance.board, key=lambda p: tuple(p[i] for i in axes))
    index = {p: i for i, p in enumerate(order)}
    # by_cell[i]: (piece number, mask) for each placement whose first cell is i
    by_cell: list[list[tuple[int, int]]] = [[] for _ in order]
    for k, name in enumerate(names):
        for cells in options[name]:
            mask = 0
            for p in cells:
                mask |= 1 << index[p]
            low = (mask & -mask).bit_length() - 1
            by_cell[low].append((k, mask))
    full = (1 << board_area) - 1

    solutions: list[tuple[int, ...]] = []
    chosen: list[int] = []

    def search(filled: int, used: int) -> None:
        if filled == full:
            solutions.append(tuple(chosen))
            return
        free = ~filled & (filled + 1)  # the first empty cell
        for k, mask in by_cell[free.bit_length() - 1]:
            if mask & filled or used >> k & 1:
                continue
            chosen.append(mask)
            search(filled | mask, used | 1 << k)
            chosen.pop()

    search(0, 0)

    symmetries = board_symmetries(instance, options)
    # each symmetry as a permutation of the board's cell numbers
    permutations = [
        [index[add(apply(m, p), shift)] for p in order] for m, shift in symmetries
    ]

    def moved(mask: int, permutation: list[int]) -> int:
        out = 0
        while mask:
            low = mask & -mask
            out |= 1 << permutation[low.bit_length() - 1]
            mask ^= low
        return out

    # classes: each new solution's whole orbit is marked seen (cell sets, not names)
    seen: set[frozenset[int]] = set()
    classes = 0
    for solution in solutions:
        if frozenset(solution) in seen:
            continue
        classes += 1
        for permutation in permutations:
            seen.add(frozenset(moved(mask, permutation) for mask in solution))

    def as_sets(solution: tuple[int, ...]) -> list[frozenset[Point]]:
        return [frozenset(order[i] for i in range(board_area) if mask >> i & 1)
                for mask in solution]

    kept = [as_sets(s) for s in solutions[:keep]]
    return Count(len(solutions), classes, len(symmetries)), kept
