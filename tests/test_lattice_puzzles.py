"""Polyform puzzles on every lattice (#14): solve, count and distinct against a brute force
written here, reader errors, and the parity proofs on triangles and in 3-D.

The brute force shares no code with puzzlebox: its own cells and neighbours, its own
symmetry groups (triangles and hexagons turned as points of the plane, cubes as signed
permutations), its own orientations, placements, backtracking and symmetry classes (the
contract's rule, puzzle-format.md: a map is a symmetry when it keeps the board and sends
each piece's set of allowed orientations onto the set of a piece with the same count). The
pieces themselves are grown here, not typed in, so the tests cover every small polyform.
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable, Iterable
from itertools import permutations, product
from pathlib import Path

import pytest

from puzzlebox.cli import main
from puzzlebox.formats.reader import read_text
from puzzlebox.puzzles import PolyominoPuzzle
from puzzlebox.puzzles.order import parse_shape, polyomino_order, regions_to_try
from puzzlebox.puzzles.sweep import sweep

Cell = tuple[int, ...]
Map = Callable[[Cell], Cell]
H = math.sqrt(3) / 2  # the height of a unit triangle, and the row step of hexagon centres


# -- the oracle's own lattices -----------------------------------------------------------------
class Grid:
    """One lattice as the oracle sees it: neighbours, the point group as (map, proper,
    mirror) triples, and which translations keep it."""

    def __init__(self, name: str, neighbours: Callable[[Cell], list[Cell]],
                 group: list[tuple[Map, bool]], mirror: Map,
                 translates: Callable[[Cell], bool] = lambda v: True) -> None:
        self.name = name
        self.neighbours = neighbours
        self.group = group
        self.mirror = mirror
        self.translates = translates

    def allowed(self, rotate: bool, reflect: bool) -> list[Map]:
        """The maps a piece may undergo: the contract's four cases."""
        if rotate:
            return [g for g, proper in self.group if proper or reflect]
        return [lambda c: c] + ([self.mirror] if reflect else [])

    def norm(self, cells: Iterable[Cell]) -> frozenset[Cell]:
        """Cells moved so that their least cell is at the origin, or (0, 1) on triangles
        whose least cell points down (a translation must keep up triangles up)."""
        cells = list(cells)
        low = min(cells)
        if not self.translates(low):
            low = (*low[:-1], low[-1] - 1)
        return frozenset(tuple(a - b for a, b in zip(c, low)) for c in cells)


def _signed_permutations(n: int) -> list[tuple[Map, bool]]:
    maps = []
    for perm in permutations(range(n)):
        inversions = sum(perm[i] > perm[j] for i in range(n) for j in range(i + 1, n))
        for signs in product((1, -1), repeat=n):
            proper = (-1) ** inversions * math.prod(signs) == 1
            maps.append((lambda c, p=perm, s=signs: tuple(s[i] * c[p[i]] for i in range(n)),
                         proper))
    return maps


def _planar_group(to_xy: Callable[[Cell], tuple[float, float]],
                  from_xy: Callable[[float, float], Cell]) -> list[tuple[Map, bool]]:
    """The 12 maps of a lattice with six-fold symmetry: turns by 60 degrees about the
    origin of the plane, each with or without the mirror x -> -x first."""
    maps = []
    for flip in (False, True):
        for k in range(6):
            a = math.pi / 3 * k

            def f(cell: Cell, a: float = a, flip: bool = flip) -> Cell:
                x, y = to_xy(cell)
                if flip:
                    x = -x
                return from_xy(x * math.cos(a) - y * math.sin(a), x * math.sin(a) + y * math.cos(a))

            maps.append((f, not flip))
    return maps


def _square_neighbours(c: Cell) -> list[Cell]:
    r, k = c
    return [(r + 1, k), (r - 1, k), (r, k + 1), (r, k - 1)]


def _cube_neighbours(c: Cell) -> list[Cell]:
    out = []
    for i in range(3):
        for d in (1, -1):
            out.append(tuple(v + d * (i == j) for j, v in enumerate(c)))
    return out


# Triangles: (r, c) points up when r + c is even and spans x from c/2 to c/2 + 1 of row r;
# its centre is at x = c/2 + 1/2, y = (r + 2/3) H (up) or (r + 1/3) H (down), y downwards.
# Turned about the lattice point (0, H), centres go to centres.
def _tri_xy(c: Cell) -> tuple[float, float]:
    r, k = c
    up = (r + k) % 2 == 0
    return k / 2 + 0.5, (r + (2 / 3 if up else 1 / 3)) * H - H


def _tri_cell(x: float, y: float) -> Cell:
    y = y / H + 1
    r = math.floor(y)
    up = y - r > 0.5
    k = round(2 * (x - 0.5))
    assert ((r + k) % 2 == 0) == up, (x, y)
    return (r, k)


def _tri_neighbours(c: Cell) -> list[Cell]:
    r, k = c
    return [(r, k - 1), (r, k + 1), (r + 1, k) if (r + k) % 2 == 0 else (r - 1, k)]


# Hexagons in axial coordinates: centre x = q + r/2, y = r H.
def _hex_xy(c: Cell) -> tuple[float, float]:
    r, q = c
    return q + r / 2, r * H


def _hex_cell(x: float, y: float) -> Cell:
    r = round(y / H)
    return (r, round(x - r / 2))


def _hex_neighbours(c: Cell) -> list[Cell]:
    r, q = c
    return [(r, q - 1), (r, q + 1), (r - 1, q), (r + 1, q), (r - 1, q + 1), (r + 1, q - 1)]


GRIDS = {
    "square": Grid("square", _square_neighbours, _signed_permutations(2), lambda c: (c[0], -c[1])),
    "triangle": Grid("triangle", _tri_neighbours, _planar_group(_tri_xy, _tri_cell),
                     lambda c: (c[0], -c[1] - 2), lambda v: (v[0] + v[1]) % 2 == 0),
    "hexagon": Grid("hexagon", _hex_neighbours, _planar_group(_hex_xy, _hex_cell),
                    lambda c: (c[0], -c[1] - c[0])),
    "cube": Grid("cube", _cube_neighbours, _signed_permutations(3),
                 lambda c: (c[0], c[1], -c[2])),
}


def test_the_oracles_groups_are_groups_of_the_right_size():
    """8 maps on square, 12 on triangle and hexagon, 48 on cube: pairwise different on a
    patch of cells, closed under composition there, and each keeps neighbours."""
    sizes = {"square": 8, "triangle": 12, "hexagon": 12, "cube": 48}
    for name, grid in GRIDS.items():
        patch = list(product(range(-2, 3), repeat=3 if name == "cube" else 2))
        images = [tuple(g(c) for c in patch) for g, _ in grid.group]
        assert len(set(images)) == len(grid.group) == sizes[name]
        for g, _ in grid.group:
            for c in patch:
                assert sorted(g(n) for n in grid.neighbours(c)) == sorted(grid.neighbours(g(c)))
            for f, _ in grid.group:
                assert tuple(f(g(c)) for c in patch) in images
        assert sum(proper for _, proper in grid.group) == sizes[name] // 2


# -- the oracle's own pieces and search --------------------------------------------------------
Coloured = frozenset[tuple[Cell, str]]


def polyforms(grid: Grid, size: int, reflect: bool = True) -> list[frozenset[Cell]]:
    """Every polyform of ``size`` cells up to the group (free, or one-sided without
    ``reflect``), grown cell by cell from one cell, in a stable order."""
    start = (0, 0, 0) if grid.name == "cube" else (0, 0)
    found = {grid.norm([start])}
    for _ in range(size - 1):
        found = {grid.norm(s | {n}) for s in found for c in s for n in grid.neighbours(c)
                 if n not in s}
    classes: dict[frozenset[Cell], frozenset[Cell]] = {}
    maps = grid.allowed(True, reflect)
    for shape in sorted(found, key=sorted):
        key = min((grid.norm(g(c) for c in shape) for g in maps), key=sorted)
        classes.setdefault(key, shape)
    return sorted(classes.values(), key=sorted)


def placed(grid: Grid, cells: dict[Cell, str]) -> tuple[dict[Cell, str], str | list[str]]:
    """The cells moved to the corner (a translation the lattice allows) and as a puzzle
    file writes them (layers bottom first on cube)."""
    low = [min(c[i] for c in cells) for i in range(len(next(iter(cells))))]
    if not grid.translates(tuple(low)):
        low[-1] -= 1
    moved = {tuple(v - lo for v, lo in zip(c, low)): k for c, k in cells.items()}
    rows = 1 + max(c[-2] for c in moved)
    cols = 1 + max(c[-1] for c in moved)

    def layer(prefix: tuple[int, ...]) -> str:
        return "/".join("".join(moved.get((*prefix, r, k), ".") for k in range(cols))
                        for r in range(rows))

    if grid.name == "cube":
        return moved, [layer((z,)) for z in range(1 + max(c[0] for c in moved))]
    return moved, layer(())


def _plain(cells: Iterable[Cell]) -> dict[Cell, str]:
    return {c: "#" for c in cells}


class Oracle:
    """A puzzle's solutions and symmetry classes by brute force. Board and pieces are
    ``{cell: colour}``; colours must match only with ``match``."""

    def __init__(self, grid: Grid, board: dict[Cell, str],
                 pieces: dict[str, tuple[dict[Cell, str], int]],
                 rotate: bool = True, reflect: bool = True, match: bool = False) -> None:
        self.grid, self.pieces, self.match = grid, pieces, match
        self.board = board if match else _plain(board)
        self.cells = set(board)
        maps = grid.allowed(rotate, reflect)
        self.orients = {name: {self._norm({g(c): k for c, k in self._colours(shape).items()})
                               for g in maps}
                        for name, (shape, _) in pieces.items()}
        self.place: dict[str, list[frozenset[Cell]]] = {}
        for name, shapes in self.orients.items():
            spots = set()
            for shape in shapes:
                anchor = min(c for c, _ in shape)
                for b in self.cells:
                    v = tuple(x - y for x, y in zip(b, anchor))
                    if grid.translates(v):
                        moved = {tuple(x + y for x, y in zip(c, v)): k for c, k in shape}
                        if all(self.board.get(c) == k for c, k in moved.items()):
                            spots.add(frozenset(moved))
            self.place[name] = sorted(spots, key=sorted)

    def _colours(self, cells: dict[Cell, str]) -> dict[Cell, str]:
        return cells if self.match else _plain(cells)

    def _norm(self, cells: dict[Cell, str]) -> Coloured:
        shift = self.grid.norm(cells)  # the same move for the colours
        low = min(cells)
        top = min(shift)
        return frozenset((tuple(a - b + t for a, b, t in zip(c, low, top)), k)
                         for c, k in cells.items())

    def solutions(self) -> list[frozenset[tuple[str, frozenset[Cell]]]]:
        out = []
        left = {name: count for name, (_, count) in self.pieces.items()}
        chosen: list[tuple[str, frozenset[Cell]]] = []
        covered: set[Cell] = set()
        order = sorted(self.cells)

        def walk() -> None:
            first = next((c for c in order if c not in covered), None)
            if first is None:
                if not any(left.values()):
                    out.append(frozenset(chosen))
                return
            for name in self.pieces:
                if not left[name]:
                    continue
                for spot in self.place[name]:
                    if first in spot and not covered & spot:
                        left[name] -= 1
                        chosen.append((name, spot))
                        covered.update(spot)
                        walk()
                        covered.difference_update(spot)
                        chosen.pop()
                        left[name] += 1

        walk()
        return out

    def symmetries(self) -> list[tuple[Callable[[Cell], Cell], dict[str, str]]]:
        """The board maps (each with its translation folded in) that keep the puzzle, and
        where each piece goes."""
        grid = self.grid
        out = []
        for g, _ in grid.group:
            image = {g(c): k for c, k in self.board.items()}
            v = tuple(x - y for x, y in zip(min(self.board), min(image)))
            moved = {tuple(a + b for a, b in zip(c, v)): k for c, k in image.items()}
            if not grid.translates(v) or moved != self.board:
                continue
            goes = {}
            for name, shapes in self.orients.items():
                turned = {self._norm({g(c): k for c, k in s}) for s in shapes}
                if turned == shapes:
                    goes[name] = name
                    continue
                others = [q for q, s in self.orients.items()
                          if s == turned and self.pieces[q][1] == self.pieces[name][1]]
                if len(others) != 1:
                    break
                goes[name] = others[0]
            else:
                if len(set(goes.values())) == len(goes):
                    out.append((lambda c, g=g, v=v: tuple(a + b for a, b in zip(g(c), v)), goes))
        return out

    def distinct(self, solutions) -> int:
        forms = set()
        maps = self.symmetries()
        for sol in solutions:
            forms.add(min(
                tuple(sorted((goes[name], tuple(sorted(f(c) for c in spot)))
                             for name, spot in sol))
                for f, goes in maps
            ))
        return len(forms)


# -- puzzles on every lattice, checked against the oracle -------------------------------------
def toml_text(lattice: str, board, pieces: dict[str, tuple[object, int]],
              rotate: bool = True, reflect: bool = True, match: bool = False) -> str:
    lines = [f'lattice = "{lattice}"', "[board]", f"grid = {json.dumps(board)}", "[pieces]"]
    for name, (shape, count) in pieces.items():
        lines.append(f"{name} = {{ shape = {json.dumps(shape)}, count = {count} }}")
    lines += ["[rules]", f"rotate = {str(rotate).lower()}", f"reflect = {str(reflect).lower()}",
              f"match_colors = {str(match).lower()}"]
    return "\n".join(lines) + "\n"


def check(lattice: str, board: Iterable[Cell] | dict[Cell, str],
          pieces: dict[str, tuple[Iterable[Cell] | dict[Cell, str], int]],
          rotate: bool = True, reflect: bool = True, match: bool = False) -> tuple[int, int]:
    """Count with puzzlebox and with the oracle; they must agree, raw and distinct, and
    puzzlebox's first solution must be one of the oracle's."""
    grid = GRIDS[lattice]
    board = board if isinstance(board, dict) else _plain(board)
    pieces = {n: (s if isinstance(s, dict) else _plain(s), k) for n, (s, k) in pieces.items()}
    board, board_text = placed(grid, board)
    text = toml_text(lattice, board_text,
                     {n: (placed(grid, s)[1], k) for n, (s, k) in pieces.items()},
                     rotate, reflect, match)
    puzzle = read_text(text, "t.toml", "t").puzzles[0]
    assert isinstance(puzzle, PolyominoPuzzle)
    assert puzzle.board == board  # the file's cells are where the contract puts them
    oracle = Oracle(grid, board, pieces, rotate, reflect, match)
    expected = oracle.solutions()
    result = puzzle.count()
    assert (result.solutions, result.distinct) == (len(expected), oracle.distinct(expected))
    first = puzzle.solve()
    if expected:
        assert first is not None
        assert frozenset((p.piece, frozenset(p.cells)) for p in first.placements) in expected
    else:
        assert first is None
    return result.solutions, result.distinct


def _pieces(shapes: list[frozenset[Cell]], names: str, count: int = 1):
    return {n: (s, count) for n, s in zip(names, shapes)}


def _block(*dims: int) -> set[Cell]:
    return set(product(*(range(d) for d in dims)))


# A hexagon of side 2 made of 24 triangles: rows of 5, 7, 7, 5, the top two rows starting
# with an up triangle, the bottom two with a down one.
TRIANGLE_HEXAGON = {(r, c) for r, (lo, hi) in enumerate([(0, 4), (-1, 5), (-1, 5), (0, 4)])
                    for c in range(lo, hi + 1)}


def test_a_hexagon_of_six_triangles_has_two_rhombus_tilings():
    """By hand: the three rhombi of a hexagon of six triangles lie one of two ways, and a
    turn by 60 degrees takes one to the other."""
    text = ('lattice = "triangle"\n[board]\ngrid = "###/###"\n[pieces]\n'
            'D = { shape = "##", count = 3 }\n')
    puzzle = read_text(text, "t.toml", "t").puzzles[0]
    result = puzzle.count()
    assert (result.solutions, result.distinct) == (2, 1)
    assert check("triangle", _block(2, 3), {"D": ({(0, 0), (0, 1)}, 3)}) == (2, 1)


def _parallelogram(rows: int, width: int) -> set[Cell]:
    """Rows of ``2 * width`` triangles, each row starting half a triangle further left
    than the one above: a parallelogram with sides ``rows`` and ``width``."""
    return {(r, c) for r in range(rows) for c in range(-r, 2 * width - r)}


def test_lozenge_tilings_are_macmahons_numbers():
    """Rhombi (two triangles) tile a parallelogram in one way and the hexagon of side 2
    in MacMahon's 20 = prod (i + j + k - 1) / (i + j + k - 2) ways (6 up to symmetry, by the
    oracle): independent of both programs."""
    assert check("triangle", _parallelogram(2, 3), {"D": ({(0, 0), (0, 1)}, 6)}) == (1, 1)
    raw, _ = check("triangle", TRIANGLE_HEXAGON, {"D": ({(0, 0), (0, 1)}, 12)})
    assert raw == 20


def test_polyiamonds_against_the_oracle():
    grid = GRIDS["triangle"]
    tetriamonds = polyforms(grid, 4)
    hexiamonds = polyforms(grid, 6)
    assert [len(polyforms(grid, n)) for n in range(1, 7)] == [1, 1, 1, 3, 4, 12]
    assert len(polyforms(grid, 4, reflect=False)) == 4  # the chevron's mirror told apart
    assert len(Oracle(grid, _plain(TRIANGLE_HEXAGON), {}).symmetries()) == 12
    bar = next(s for s in tetriamonds if len({r for r, _ in s}) == 1)
    assert check("triangle", _parallelogram(2, 3), {"I": (bar, 3)}) == (3, 2)
    assert check("triangle", TRIANGLE_HEXAGON,
                 _pieces([hexiamonds[i] for i in (1, 2, 3, 7)], "ABCD")) == (12, 1)
    assert check("triangle", _parallelogram(2, 6),
                 _pieces([hexiamonds[i] for i in (3, 5, 6, 10)], "ABCD")) == (8, 4)
    check("triangle", _parallelogram(4, 5), _pieces(polyforms(grid, 5), "ABCD", 2))
    check("triangle", _parallelogram(2, 6), _pieces(polyforms(grid, 4, reflect=False), "ABCD")
          | {"M": ({(0, 0), (0, 1)}, 4)}, reflect=False)
    check("triangle", TRIANGLE_HEXAGON, {"D": ({(0, 0), (0, 1)}, 12)}, rotate=False)


def test_polyhexes_against_the_oracle():
    grid = GRIDS["hexagon"]
    trihexes = polyforms(grid, 3)
    tetrahexes = polyforms(grid, 4)
    assert len(trihexes) == 3 and len(tetrahexes) == 7
    rhombus = _block(3, 3)
    check("hexagon", rhombus, _pieces(trihexes, "ABC"))
    for shape in trihexes:
        check("hexagon", rhombus, {"A": (shape, 3)})
    side2 = {(r, q) for r in range(3) for q in range(3) if 1 <= r + q <= 3}
    assert len(Oracle(grid, _plain(side2), {}).symmetries()) == 12
    assert check("hexagon", side2, {"M": ({(0, 0)}, 1), "D": ({(0, 0), (0, 1)}, 3)})[0] > 0
    check("hexagon", _block(4, 4), _pieces(tetrahexes[:4], "ABCD"))
    check("hexagon", _block(4, 4), _pieces(tetrahexes[3:7], "ABCD"), reflect=False)


def test_polycubes_against_the_oracle():
    grid = GRIDS["cube"]
    tricubes = polyforms(grid, 3)
    tetracubes = polyforms(grid, 4)
    assert len(tricubes) == 2 and len(tetracubes) == 7
    assert len(polyforms(grid, 4, reflect=False)) == 8  # the Soma screws told apart
    bent = next(s for s in tricubes if len({c[1:] for c in s}) == 3 and len({c[0] for c in s}) == 1
                or len({c[0] for c in s}) == 2)
    check("cube", _block(2, 2, 2), {"V": (bent, 2), "D": ({(0, 0, 0), (0, 0, 1)}, 1)})
    check("cube", _block(2, 2, 3), _pieces(tetracubes[:3], "ABC"))
    check("cube", _block(2, 2, 3), _pieces(tetracubes[3:6], "ABC"))
    check("cube", _block(2, 2, 3), _pieces(polyforms(grid, 4, reflect=False)[:3], "ABC"),
          reflect=False)
    check("cube", _block(2, 3, 3), {"V": (bent, 6)})


def test_colours_on_the_new_lattices_against_the_oracle():
    stripes = {(r, c): "ab"[r % 2] for r in range(2) for c in range(6)}
    check("triangle", stripes, {"D": ({(0, 0): "a", (1, 0): "b"}, 6)}, match=True)
    updown = {(r, c): "ud"[(r + c) % 2] for r in range(2) for c in range(6)}
    check("triangle", updown, {"D": ({(0, 0): "u", (0, 1): "d"}, 6)}, match=True)
    layers = {c: "xy"[c[0]] for c in _block(2, 2, 3)}
    check("cube", layers, {"D": ({(0, 0, 0): "x", (1, 0, 0): "y"}, 6)}, match=True)
    check("cube", layers, {"I": ({(0, 0, 0): "x", (0, 0, 1): "x"}, 3),
                           "J": ({(0, 0, 0): "y", (0, 0, 1): "y"}, 3)}, match=True)


def test_mirror_pieces_are_exchanged_by_a_mirror():
    """By hand: a 2x4 board, one-sided L and J tetrominoes, up to two of each. Two L lie
    as ``AAAB/ABBB`` (a half turn swaps the copies), two J as its mirror image; nothing
    else fits. So 2 solutions, and 1 up to symmetry only because the mirror that maps one
    onto the other exchanges L and J, whose allowed orientations it swaps."""
    text = ('[board]\ngrid = "####/####"\n[pieces]\nL = { shape = "###/#..", count = [0, 2] }\n'
            'J = { shape = "###/..#", count = [0, 2] }\n[rules]\nreflect = false\n')
    puzzle = read_text(text, "t.toml", "t").puzzles[0]
    result = puzzle.count()
    assert (result.solutions, result.distinct) == (2, 1)
    swaps = [goes for _, _, goes in puzzle.grid_symmetries() if goes["L"] == "J"]
    assert len(swaps) == 2  # the mirror and the flip
    # the same in 3-D: the two Soma screws, turned but never reflected, in a 2x2x3 box
    grid = GRIDS["cube"]
    rotations = [g for g, proper in grid.group if proper]
    screws = [s for s in polyforms(grid, 4, reflect=False)
              if grid.norm(grid.mirror(c) for c in s)
              not in {grid.norm(g(c) for c in s) for g in rotations}]
    assert len(screws) == 2
    ell = {(0, 0, 0), (0, 0, 1), (0, 0, 2), (0, 1, 0)}
    assert check("cube", _block(2, 2, 3),
                 {"A": (screws[0], 1), "B": (screws[1], 1), "L": (ell, 1)},
                 reflect=False) == (16, 1)
    text = toml_text("cube", ["##/##", "##/##", "##/##"],
                     {"A": (placed(grid, _plain(screws[0]))[1], 1),
                      "B": (placed(grid, _plain(screws[1]))[1], 1),
                      "L": ("###/#..", 1)}, reflect=False)
    puzzle = read_text(text, "t.toml", "t").puzzles[0]
    kept = puzzle.grid_symmetries()
    assert len(kept) == 16  # the box's 16 maps, its 8 mirrors exchanging A and B
    assert sum(goes["A"] == "B" for _, _, goes in kept) == 8


# -- proofs -------------------------------------------------------------------------------------
def test_the_parity_proof_on_triangles_and_in_3d(capsys, tmp_path):
    tri = tmp_path / "tri.toml"
    tri.write_text('lattice = "triangle"\n[board]\ngrid = "..#/.###"\n[pieces]\n'
                   'D = { shape = "##", count = "any" }\n')
    assert main(["count", str(tri), "--why"]) == 0
    out = capsys.readouterr().out
    assert "0 solutions" in out and "checkerboard argument" in out
    assert "(up and down triangles)" in out and "3 up and 1 down cells" in out
    assert "covers as many up cells as down ones" in out
    box = tmp_path / "box.toml"
    box.write_text('lattice = "cube"\n[board]\ngrid = ["###/###/###", "###/#.#/###", '
                   '"###/###/###"]\n[pieces]\nD = { shape = "##", count = "any" }\n')
    assert main(["count", str(box), "--why"]) == 0
    out = capsys.readouterr().out
    assert "(3-D checkerboard)" in out and "14 dark and 12 light" in out
    # hexagons have no two-colouring: no parity claim, the search decides
    hexes = tmp_path / "hex.toml"
    hexes.write_text('lattice = "hexagon"\n[board]\ngrid = "###/###"\n[pieces]\n'
                     'D = { shape = "##", count = "any" }\n')
    assert main(["count", str(hexes), "--why"]) == 0
    out = capsys.readouterr().out
    assert "found by search" in out and "checkerboard" not in out


def test_regions_are_split_by_the_lattices_neighbours():
    """Three cubes in a row at the bottom and three on top, shifted so that they share no
    face: two regions of 3 (the area and the 3-D checkerboard, 3 and 3, allow dominoes),
    each too odd for dominoes. Two triangles that share only a corner are apart too."""
    text = ('lattice = "cube"\n[board]\ngrid = ["###....", "....###"]\n[pieces]\n'
            'D = { shape = "##", count = "any" }\n')
    puzzle = read_text(text, "t.toml", "t").puzzles[0]
    proof = next(puzzle.proofs())
    assert proof.argument == "region"
    assert "region of 3 cells that begins at layer 0, row 0, column 0" in proof.sentence
    text = ('lattice = "triangle"\n[board]\ngrid = "##/.."\n[pieces]\n'
            'D = { shape = "##", count = "any" }\n')
    assert read_text(text, "t.toml", "t").puzzles[0].impossibility() is None
    text = text.replace('"##/.."', '"##../..##"')  # (0,1) down and (1,2) up meet at a point
    puzzle = read_text(text, "t.toml", "t").puzzles[0]
    assert puzzle.count().solutions == 1 and puzzle.impossibility() is None


# -- reader errors ------------------------------------------------------------------------------
@pytest.mark.parametrize(("text", "line", "words"), [
    ('lattice = "square"\n[board]\ngrid = ["##", "##"]\n[pieces]\nA = "##"\n', 3,
     "layers are for lattice"),
    ('[board]\ngrid = "####"\n[pieces]\nA = ["#", "#"]\n', 4, "layers are for lattice"),
    ('lattice = "hexagon"\n[board]\ngrid = "####"\n[pieces]\nA = ["##", "##"]\n', 5,
     "layers are for lattice"),
    ('lattice = "triangle"\n[board]\ngrid = ["####"]\n[pieces]\nA = "##"\n', 3,
     "layers are for lattice"),
    # layers from 0, as [layer, row, col] counts them (#38 item 9)
    ('lattice = "cube"\n[board]\ngrid = ["##/##", "##"]\n[pieces]\nA = "##"\n', 3, "layer 1"),
    ('lattice = "cube"\n[board]\ngrid = ["##/##", 3]\n[pieces]\nA = "##"\n', 3, "layer 1"),
    ('lattice = "cube"\n[board]\ngrid = "####"\n[pieces]\nA = ["#/#", "#"]\n', 5, "layer 1"),
    ('lattice = "triangle"\n[board]\ngrid = "####"\n[pieces]\nA = "#.#"\n', 5, "not connected"),
    ('lattice = "triangle"\n[board]\ngrid = "####/####"\n[pieces]\nA = "#./.#"\n', 5,
     "not connected"),
    ('lattice = "hexagon"\n[board]\ngrid = "####/####"\n[pieces]\n\n[pieces.A]\n'
     'shape = "#./.#"\n', 7, "not connected"),
    ('lattice = "cube"\n[board]\ngrid = ["##", "##"]\n[pieces]\nA = ["#.", ".#"]\n', 5,
     "not connected"),
    ('lattice = "square"\n[board]\ngrid = "####"\n[pieces]\nA = "#.#"\n', 5, "not connected"),
    ('title = "x"\nlattice = "penrose"\n[board]\ngrid = "####"\n[pieces]\nA = "##"\n', 2,
     '"cube", "hexagon", "prism", "rhombic", "sphere", "square", "tetra-octa", "triangle"'),
    ('lattice = 6\n[board]\ngrid = "####"\n[pieces]\nA = "##"\n', 1, "must be a string"),
    ('kind = "queens"\nlattice = "cube"\nn = 4\n', 2, "unknown key"),
])
def test_bad_lattice_input_is_one_line_with_a_line_number(tmp_path, capsys, text, line, words):
    path = tmp_path / "bad.toml"
    path.write_text(text)
    assert main(["count", str(path)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "Traceback" not in err
    assert f"bad.toml:{line}:" in err and words in err


def test_a_piece_in_two_parts_stays_allowed_where_no_lattice_is_named():
    """Files from before lattices (no ``lattice`` key) read as they did."""
    text = '[board]\ngrid = "###"\n[pieces]\nA = "#.#"\nB = "#"\n'
    puzzle = read_text(text, "t.toml", "t").puzzles[0]
    assert puzzle.count().solutions == 1


# -- batches, JSON, sweep and order on the new lattices -----------------------------------------
def test_batches_and_json_cells_on_the_new_lattices(capsys, tmp_path):
    path = tmp_path / "b.toml"
    path.write_text('lattice = "hexagon"\n[[boards]]\nname = "rhombus"\ngrid = "###/###/###"\n'
                    '[[boards]]\nname = "hexagon"\ngrid = ".##/###/##."\n[pieces]\n'
                    'D = { shape = "##", count = "any" }\nM = { shape = "#", count = [0, 1] }\n')
    assert main(["count", str(path), "--json"]) == 0
    objs = {o["board"]: o for o in map(json.loads, capsys.readouterr().out.splitlines())}
    grid = GRIDS["hexagon"]
    for name, board in [("rhombus", _block(3, 3)),
                        ("hexagon", {(r, q) for r, q in _block(3, 3) if 1 <= r + q <= 3})]:
        oracle = Oracle(grid, _plain(board), {"D": ({(0, 0): "#", (0, 1): "#"}, len(board) // 2),
                                              "M": ({(0, 0): "#"}, 1)})
        assert objs[name]["solutions"] == len(oracle.solutions())
    cube = tmp_path / "c.toml"
    cube.write_text('lattice = "cube"\n[board]\ngrid = ["##", "##"]\n[pieces]\n'
                    'D = { shape = "##", count = 2 }\n')
    assert main(["solve", str(cube), "--json"]) == 0
    obj = json.loads(capsys.readouterr().out.splitlines()[0])
    assert obj["lattice"] == "cube"
    cells = sorted(tuple(c) for p in obj["placements"] for c in p["cells"])
    assert cells == [(0, 0, 0), (0, 0, 1), (1, 0, 0), (1, 0, 1)]


def test_sweep_on_a_box():
    """Dominoes in a 3x3x3 box with one cube left out: solvable exactly where the 3-D
    checkerboard leaves 13 and 13 (a cube of even coordinate sum left out), and the 27
    choices fall into 4 classes under the box's symmetries (corner, edge, face, centre)."""
    text = ('lattice = "cube"\n[board]\ngrid = ["###/###/###", "###/###/###", "###/###/###"]\n'
            '[pieces]\nD = { shape = "##", count = 13 }\n')
    puzzle = read_text(text, "t.toml", "t").puzzles[0]
    results = list(sweep(puzzle, 1))
    assert len(results) == 27
    solvable = {r.uncovered[0] for r in results if r.solvable}
    assert solvable == {c for c in puzzle.board if sum(c) % 2 == 0}
    assert sum(r.same_as is None for r in results) == 4


@pytest.mark.parametrize(("lattice", "shape"), [
    ("cube", "##/#."), ("cube", "##/##|#./.."), ("cube", "##/#.|#./.."), ("hexagon", "##/#."),
    ("hexagon", "###/#.."), ("hexagon", "#/##/.#"), ("triangle", "..#/.###"),
    ("triangle", "###/#.."), ("triangle", "#####"),
])
def test_order_on_every_lattice_against_the_oracle(lattice, shape):
    """Every region tried before the answer has no tiling, and the answer has one (by the
    oracle); where there is no answer up to area 40, no region tried has one."""
    from puzzlebox.geometry import lattice_named

    lat = lattice_named(lattice)
    piece = parse_shape(shape, lat)
    result = polyomino_order(piece, 40, lattice=lat)
    assert (result.order is None) == (result.region is None)
    grid = GRIDS[lattice]
    for region in regions_to_try(piece, 40, lat):
        board = _plain(region.cells)
        oracle = Oracle(grid, board, {"A": (_plain(piece.cells), len(board) // len(piece))})
        assert bool(oracle.solutions()) == (region == result.region), region.label
        if region == result.region:
            break


def test_the_regions_of_each_lattice_are_what_they_say():
    """Checked with the oracle's geometry: each region is connected, has the area its
    measures give, and its symmetries (as a board) are those of its shape: 12 for a
    hexagon, 6 for a triangle, 4 for a rhombus of hexagons or triangles and for a row of
    hexagons (2 for another parallelogram), 8 for a square; regions of one area are never
    congruent."""
    from puzzlebox.geometry import lattice_named
    from puzzlebox.geometry.regions import regions

    expected = {"hexagon": 12, "triangle": 6}
    for name in ("square", "triangle", "hexagon", "cube"):
        grid = GRIDS[name]
        for area in range(1, 49):
            found = list(regions(lattice_named(name), area))
            forms = set()
            for region in found:
                cells = set(region.cells)
                assert len(cells) == area and _connected(grid, cells), region
                group = len(Oracle(grid, _plain(cells), {}).symmetries())
                sides = region.measures
                if name == "hexagon" and area == 1:
                    assert group == 12  # one hexagon
                elif region.kind == "parallelogram":
                    bar = name == "hexagon" and sides[0] == 1  # a straight row of hexagons
                    assert group == (4 if sides[0] == sides[1] or bar else 2), region
                elif region.kind == "rectangle":
                    assert group == (8 if sides[0] == sides[1] else 4), region
                elif region.kind == "box":
                    assert group == {1: 48, 2: 16, 3: 8}[len(set(sides))], region
                else:
                    assert group == expected[region.kind], region
                forms.add(min((grid.norm(g(c) for c in cells) for g, _ in grid.group),
                              key=sorted))
            assert len(forms) == len(found), (name, area)
    assert {len(r.cells) for r in regions(lattice_named("triangle"), 24)} == {24}
    hexagon = next(r for r in regions(lattice_named("triangle"), 24) if r.kind == "hexagon")
    assert GRIDS["triangle"].norm(hexagon.cells) == GRIDS["triangle"].norm(TRIANGLE_HEXAGON)


def _connected(grid: Grid, cells: set[Cell]) -> bool:
    start = min(cells)
    seen, todo = {start}, [start]
    while todo:
        for n in grid.neighbours(todo.pop()):
            if n in cells and n not in seen:
                seen.add(n)
                todo.append(n)
    return seen == cells


def test_cli_order_takes_a_lattice(capsys):
    assert main(["order", "##/#.", "--lattice", "cube", "--json", "--quiet"]) == 0
    obj = json.loads(capsys.readouterr().out)
    assert (obj["order"], obj["lattice"], obj["layers"], obj["rows"], obj["cols"]) == (
        2, "cube", 1, 2, 3)
    assert main(["order", "##", "--lattice", "penrose"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "known" in err


def test_one_layer_string_is_a_flat_piece_that_stands_up():
    """Beyond the contract: on cube a plain string is one layer, and a flat piece turns
    into every plane: two L trominoes written flat fill an upright slab, three layers of
    one row of two."""
    text = ('lattice = "cube"\n[board]\ngrid = ["##", "##", "##"]\n[pieces]\n'
            'L = { shape = "##/#.", count = 2 }\n')
    puzzle = read_text(text, "t.toml", "t").puzzles[0]
    assert puzzle.count().solutions > 0
    slab = {(z, 0, c) for z in range(3) for c in range(2)}
    assert check("cube", slab, {"L": ({(0, 0, 0), (0, 0, 1), (0, 1, 0)}, 2)})[0] > 0


def test_polyforms_on_every_lattice_match_the_published_counts():
    """puzzles/families.py grows polyforms through the lattice interface; the numbers are
    OEIS's: free and one-sided polyominoes (A000105, A000988), polyiamonds (A000577,
    A006534), polyhexes (A000228, A006535), polycubes with and without mirror images
    (A038119, A000162). The oracle's own growth agrees shape for shape."""
    from puzzlebox.geometry import lattice_named
    from puzzlebox.puzzles.families import polyforms as grown

    published = {
        "square": ([1, 1, 2, 5, 12, 35], [1, 1, 2, 7, 18, 60]),
        "triangle": ([1, 1, 1, 3, 4, 12], [1, 1, 1, 4, 6, 19]),
        "hexagon": ([1, 1, 3, 7, 22], [1, 1, 3, 10, 33]),
        "cube": ([1, 1, 2, 7, 23], [1, 1, 2, 8, 29]),
    }
    for name, (free, one_sided) in published.items():
        lattice = lattice_named(name)
        assert [len(grown(lattice, n)) for n in range(1, len(free) + 1)] == free
        assert [len(grown(lattice, n, reflect=False))
                for n in range(1, len(one_sided) + 1)] == one_sided
        grid = GRIDS[name]
        for n in (3, 4):
            mine = {min((grid.norm(g(c) for c in s) for g in grid.allowed(True, True)), key=sorted)
                    for s in polyforms(grid, n)}
            theirs = {min((grid.norm(g(c) for c in s.cells) for g in grid.allowed(True, True)),
                          key=sorted) for s in grown(lattice, n)}
            assert mine == theirs


def test_a_split_count_and_its_checkpoint_on_a_lattice(capsys, tmp_path):
    """Puzzles on other lattices travel to worker processes (the lattice pickles by name)
    and a checkpoint resumes them: MacMahon's 20 lozenge tilings of the hexagon of side 2."""
    path = tmp_path / "loz.toml"
    path.write_text('lattice = "triangle"\n[board]\ngrid = "..#####/.#######/.#######/..#####"\n'
                    '[pieces]\nD = { shape = "##", count = 12 }\n')
    saved = tmp_path / "check.json"
    for _ in range(2):
        assert main(["count", str(path), "--jobs", "2", "--split-depth", "3",
                     "--checkpoint", str(saved), "--json", "--quiet"]) == 0
        obj = json.loads(capsys.readouterr().out)
        assert (obj["solutions"], obj["distinct"]) == (20, 6)


def test_nothing_outside_geometry_and_render_asks_a_lattices_name():
    """#14: kinds, proofs, engines and the reader ask the lattice, never its name."""
    import re

    import puzzlebox

    root = Path(puzzlebox.__file__).parent
    asks = re.compile(r"lattice\.name\s*(==|!=|in\b)|lattice\s*(==|!=)|"
                      r"(==|!=)\s*[\"'](square|triangle|hexagon|cube)[\"']|"
                      r"\bis (SQUARE|TRIANGLE|HEXAGON|CUBE)\b")
    found = [f"{path.relative_to(root)}:{n}: {line.strip()}"
             for path in sorted(root.rglob("*.py"))
             if path.parent.name not in ("geometry", "render")
             # the BurrTools importer names the lattice it writes (naming, not branching)
             and path.name != "burrtools.py"
             for n, line in enumerate(path.read_text().splitlines(), 1) if asks.search(line)]
    assert found == []
