"""Polytrigs (#37): sticks on the triangle grid, the polysticks kind with ``lattice =
"triangle"``.

Counts are checked against Polyform Puzzler's published ones and against a brute force
written here from scratch: sticks as pairs of grid points in axial coordinates, pieces
turned by the six rotations and the mirror as functions of the plane (not the kind's
matrices), a plain backtracking over the board's first uncovered stick, and "no two pieces
cross" tested by its definition (around a grid point, the rays of one piece never separate
those of another). It shares nothing with the kind but the file it reads.
"""

from __future__ import annotations

import itertools
import json
import math
import random
from collections.abc import Iterable

import pytest

from puzzlebox import catalog
from puzzlebox.cli import main
from puzzlebox.formats import PuzzleFileError, read_text
from puzzlebox.puzzles.polysticks import PolysticksPuzzle, geometry

GPoint = tuple[int, int]  # axial (row, col)
GStick = frozenset[GPoint]


# -- the brute force ---------------------------------------------------------------------------
def parse(drawing: str) -> set[GStick]:
    """Sticks of a drawing, read on their own: the first '+' fixes the columns of points
    (every 4 along a row, 2 further right a row down); '-' runs, '/' and '\\' join the
    points on either side of them."""
    rows = [row for row in drawing.split("\n")]
    while rows and not rows[0].strip():
        rows.pop(0)
    y0, x0 = next((y, row.index("+")) for y, row in enumerate(rows) if "+" in row)

    def point(y: int, x: int) -> GPoint:  # text place of a point -> axial
        r = (y - y0) // 2
        return r, (x - x0 - 2 * r) // 4

    out: set[GStick] = set()
    for y, row in enumerate(rows):
        for x, ch in enumerate(row):
            if ch in " .+" or (x - x0 - (y - y0)) % 2:
                continue  # the two fill characters of a horizontal stick
            if (y - y0) % 2 == 0:
                out.add(frozenset({point(y, x - 2), point(y, x + 2)}))
            elif (x - x0 - (y - y0)) % 4 == 2:  # a down-left stick, "/"
                out.add(frozenset({point(y - 1, x + 1), point(y + 1, x - 1)}))
            else:  # '\'
                out.add(frozenset({point(y - 1, x - 1), point(y + 1, x + 1)}))
    return out


def plane(p: GPoint) -> tuple[float, float]:
    return p[1] + p[0] / 2, p[0] * math.sqrt(3) / 2


def unplane(x: float, y: float) -> GPoint:
    r = round(y * 2 / math.sqrt(3))
    return r, round(x - r / 2)


def image(sticks: Iterable[GStick], turn: int, flip: bool) -> frozenset[GStick]:
    """Turned by ``turn`` sixths of a circle after a left-right flip, in the plane, and
    moved so that the least row and column are 0."""
    a = turn * math.pi / 3

    def f(p: GPoint) -> GPoint:
        x, y = plane(p)
        if flip:
            x = -x
        return unplane(x * math.cos(a) - y * math.sin(a), x * math.sin(a) + y * math.cos(a))

    moved = [frozenset(f(p) for p in s) for s in sticks]
    r0 = min(r for s in moved for r, _ in s)
    c0 = min(c for s in moved for _, c in s)
    return frozenset(frozenset((r - r0, c - c0) for r, c in s) for s in moved)


def angle(p: GPoint, q: GPoint) -> int:
    """The ray from p to its neighbour q, 0 to 5 counter-clockwise (as drawn, y down)."""
    x0, y0 = plane(p)
    x1, y1 = plane(q)
    return round(math.degrees(math.atan2(-(y1 - y0), x1 - x0)) / 60) % 6


def crosses(a: set[int], b: set[int]) -> bool:
    """Whether two pieces' rays at one point cross: two rays of one lie on both sides of
    the line of two rays of the other."""
    def inside(lo: int, hi: int, k: int) -> bool:
        return 0 < (k - lo) % 6 < (hi - lo) % 6
    return any(inside(a1, a2, b1) != inside(a1, a2, b2)
               for a1, a2 in itertools.combinations(sorted(a), 2)
               for b1, b2 in itertools.combinations(sorted(b), 2))


def brute_force(board: set[GStick], pieces: dict[str, tuple[str, int, int]],
                reflect: bool = True) -> list[frozenset[tuple[str, frozenset[GStick]]]]:
    """Every solution: each board stick covered once, each piece within its count, no two
    pieces crossing at any point."""
    shapes: dict[str, set[frozenset[GStick]]] = {}
    for name, (drawing, _, _) in pieces.items():
        base = parse(drawing)
        shapes[name] = {image(base, t, f) for t in range(6) for f in ((False, True)
                                                                     if reflect else (False,))}
    placements: list[tuple[str, frozenset[GStick]]] = []
    points = {p for s in board for p in s}
    for name, orients in shapes.items():
        for shape in orients:
            anchor = min(min(s) for s in shape)
            for p in points:
                dr, dc = p[0] - anchor[0], p[1] - anchor[1]
                placed = frozenset(frozenset((r + dr, c + dc) for r, c in s) for s in shape)
                if placed <= board:
                    placements.append((name, placed))
    placements = sorted(set(placements), key=lambda pl: (pl[0], sorted(map(sorted, pl[1]))))
    order = sorted(board, key=lambda s: sorted(s))
    out: list[frozenset[tuple[str, frozenset[GStick]]]] = []
    used = {name: 0 for name in pieces}
    chosen: list[tuple[str, frozenset[GStick]]] = []
    covered: set[GStick] = set()

    def legal(new: frozenset[GStick]) -> bool:
        for _, old in chosen:
            for p in {p for s in new for p in s} & {p for s in old for p in s}:
                a = {angle(p, next(iter(s - {p}))) for s in new if p in s}
                b = {angle(p, next(iter(s - {p}))) for s in old if p in s}
                if crosses(a, b):
                    return False
        return True

    def search() -> None:
        todo = next((s for s in order if s not in covered), None)
        if todo is None:
            if all(pieces[n][1] <= used[n] for n in pieces):
                out.append(frozenset(chosen))
            return
        for name, placed in placements:
            if todo in placed and used[name] < pieces[name][2] and not (placed & covered) \
                    and legal(placed):
                used[name] += 1
                chosen.append((name, placed))
                covered.update(placed)
                search()
                covered.difference_update(placed)
                chosen.pop()
                used[name] -= 1

    search()
    return out


def file_of(board: str, pieces: dict[str, tuple[str, int, int]], reflect: bool = True) -> str:
    lines = ['kind = "polysticks"', 'lattice = "triangle"', "[board]", f"grid = '''\n{board}\n'''",
             "[pieces]"]
    for name, (drawing, lo, hi) in pieces.items():
        lines.append(f"{name} = {{ shape = '''\n{drawing}\n''', count = [{lo}, {hi}] }}")
    lines += ["[rules]", f"reflect = {str(reflect).lower()}"]
    return "\n".join(lines) + "\n"


def catalog_pieces(name: str) -> tuple[str, dict[str, tuple[str, int, int]]]:
    import tomllib
    doc = tomllib.loads(catalog.path_of(name).read_text("utf-8"))
    return doc["board"]["grid"], {n: (v, 1, 1) for n, v in doc["pieces"].items()}


# -- the lattice -------------------------------------------------------------------------------
def test_the_triangle_grid_group():
    """12 maps, closed under composition, each sending neighbouring points to neighbouring
    points and sticks to sticks; the rotation has order 6."""
    grid = geometry.TRIANGLE
    maps = grid.maps
    assert len(set(maps)) == 12
    for m in maps:
        for n in maps:
            assert geometry._times(m, n) in maps
    around = [(2 * dy, 2 * dx) for dy, dx in grid.rays]
    for k in range(12):
        image = geometry.moved(around, k, grid)
        assert sorted(image) == sorted(around)  # the six neighbours of the origin
        sticks = geometry.moved(grid.rays, k, grid)
        assert all(grid.is_stick(s) for s in sticks)
    turn = maps[1]
    power = turn
    for _ in range(5):
        power = geometry._times(turn, power)
    assert power == (1, 0, 0, 1) and turn != (1, 0, 0, 1)


def test_the_generator_counts_the_published_polytrigs():
    """Free polytrigs 1, 3, 12, 60 (Polyform Puzzler's sets: 3 ditrigs, 12 tritrigs, 60
    tetratrigs); one-sided 1, 3, 19, 104 (each asymmetric one twice)."""
    grid = geometry.TRIANGLE
    assert [len(geometry.polysticks(n, grid=grid)) for n in range(1, 5)] == [1, 3, 12, 60]
    assert [len(geometry.polysticks(n, True, grid)) for n in range(1, 5)] == [1, 3, 19, 104]


def test_the_crossing_rule_is_the_definition():
    """Two pieces' claimed rays meet exactly when their rays at a point cross, for every
    pair of disjoint sets of rays (602 of them)."""
    grid = geometry.TRIANGLE

    def claims(legs: Iterable[int]) -> set[int]:
        return {k for _, _, k in geometry.claimed_rays([grid.rays[k] for k in legs], grid)}

    subsets = [set(c) for n in range(1, 7) for c in itertools.combinations(range(6), n)]
    pairs = [(a, b) for a in subsets for b in subsets if not a & b]
    assert len(pairs) == 602
    for a, b in pairs:
        assert bool(claims(a) & claims(b)) == crosses(a, b), (a, b)


# -- published counts and the brute force ------------------------------------------------------
@pytest.mark.parametrize("name, raw, distinct", [
    ("tritrigs-parallelogram-5x2", 18, 9),
    ("tritrigs-trapezoid-6x2", 16, 8),
    ("polytrigs-23-hexagon", 13416, 1118),
    ("polytrigs-23-triangle-ring", 4926, 821),
])
def test_published_counts(name, raw, distinct):
    """Polyform Puzzler: 9 and 8 (tritrigs), 1,118 and 821 (ditrigs and tritrigs) solutions
    up to symmetry; as placed, the board's symmetries times that (none is symmetric)."""
    puzzle = catalog.load(name)
    assert isinstance(puzzle, PolysticksPuzzle) and puzzle.grid is geometry.TRIANGLE
    result = puzzle.count()
    assert (result.solutions, result.distinct) == (raw, distinct)


def test_the_catalog_piece_sets_are_the_generated_families():
    grid = geometry.TRIANGLE
    puzzle = catalog.load("polytrigs-23-hexagon")
    assert isinstance(puzzle, PolysticksPuzzle)
    mine = sorted(geometry.canonical(p.sticks, grid=grid) for p in puzzle.pieces)
    assert mine == sorted(tuple(sorted(s)) for n in (2, 3)
                          for s in geometry.polysticks(n, grid=grid))


def test_random_small_boards_agree_with_the_brute_force():
    rng = random.Random(37)
    shapes = ["+---+", "+---+---+", "  +\n /\n+", "+\n \\\n  +---+", "  +\n / \\\n+   +",
              "+---+---+\n \\\n  +", "  +---+\n /\n+", "  +\n / \\\n+---+"]
    checked = 0
    for _ in range(25):
        rows, cols = rng.randint(1, 2), rng.randint(1, 3)
        lines = []
        for r in range(rows + 1):
            indent = " " * (2 * (rows - r))
            row = "+" + "".join(("---" if rng.random() < 0.85 else "   ") + "+"
                                for _ in range(cols))
            lines.append(indent + row)
            if r < rows:
                slants = "".join(("/" if rng.random() < 0.85 else " ") + " "
                                 + ("\\" if rng.random() < 0.85 else " ") + " "
                                 for _ in range(cols + 1))
                lines.append(" " * (2 * (rows - r) - 1) + slants.rstrip())
        board = "\n".join(lines)
        if not parse(board):
            continue
        pieces = {"p0": ("+---+", 0, 4)}  # monotrigs fill what the others leave
        pieces |= {f"p{i}": (rng.choice(shapes[1:]), 0, rng.randint(1, 3)) for i in (1, 2)}
        reflect = rng.random() < 0.7
        puzzle = read_text(file_of(board, pieces, reflect), "r.toml", "r").puzzles[0]
        expected = brute_force(parse(board), pieces, reflect)
        assert puzzle.count(limits=None).solutions == len(expected), (board, pieces)
        checked += bool(expected)
    assert checked >= 5  # some boards have solutions, so the agreement says something


STAR = "  +   +\n   \\ /\n+---+---+\n   / \\\n  +   +"  # six sticks meeting at one point


@pytest.mark.parametrize("shape, count", [
    ("+---+---+", 0),  # three straight pieces: each crosses the others
    ("  +\n   \\\n+---+", 2),  # 60-degree corners side by side: they touch, never cross
    ("  +\n /\n+---+", 2),  # the same corner drawn the other way round
    ("      +\n     /\n+---+", 0),  # 120-degree corners: any three that cover the star cross
])
def test_what_may_meet_at_a_grid_point(shape, count):
    assert len(parse(STAR)) == 6
    pieces = {"A": (shape, 3, 3)}
    puzzle = read_text(file_of(STAR, pieces), "s.toml", "s").puzzles[0]
    assert puzzle.count(limits=None).solutions == count
    assert len(brute_force(parse(STAR), pieces)) == count


# -- the file, text, JSON and pictures ---------------------------------------------------------
def test_a_solution_drawing_reads_back_as_its_board():
    puzzle = catalog.load("tritrigs-parallelogram-5x2")
    solution = puzzle.solve()
    assert solution is not None
    lines = puzzle.text_lines(solution)
    drawing = "\n".join(line for line in lines if not line.startswith("key: "))
    assert parse(drawing) == parse(catalog_pieces(puzzle.name)[0])
    back = read_text(f"kind = \"polysticks\"\nlattice = \"triangle\"\n[board]\ngrid = '''\n"
                     f"{drawing}\n'''\n[pieces]\na = \"+---+\"\n", "b.toml", "b").puzzles[0]
    assert isinstance(back, PolysticksPuzzle) and back.board == puzzle.board
    marks = {ch for line in lines for ch in line} - set("+ ")
    assert len(marks) >= len(puzzle.pieces)
    owners = puzzle.text_owners(solution)
    assert [len(row) for row in owners] == [len(line) for line in lines[:len(owners)]]


def test_a_drawing_may_start_in_any_column():
    """The first '+' fixes the points: the same triangle indented by 0 to 3 columns."""
    sticks = set()
    for indent in range(4):
        pad = " " * indent
        text = (f"kind = \"polysticks\"\nlattice = \"triangle\"\n[board]\ngrid = '''\n"
                f"{pad}  +\n{pad} / \\\n{pad}+---+\n'''\n[pieces]\nV = '''\n+---+\n'''\n")
        puzzle = read_text(text, "t.toml", "t").puzzles[0]
        assert isinstance(puzzle, PolysticksPuzzle) and len(puzzle.board) == 3
        sticks.add(puzzle.board)
    assert len(sticks) == 1


@pytest.mark.parametrize("grid, words", [
    ("+---+\n /", "where a down-right stick goes"),  # '/' below the left point
    ("+---+\n   \\", "where a down-left stick goes"),  # '\' below the right point
    ("+-  +", "beside no horizontal stick"),
    ("+---+\n  x", "between the places of two slanted sticks"),
    ("---", "draws no grid point"),
    ("+---+\n \\\n  x", "stands on a grid point"),
])
def test_a_bad_drawing_is_one_line_naming_the_place(grid, words):
    text = (f"kind = \"polysticks\"\nlattice = \"triangle\"\n[board]\ngrid = '''\n{grid}\n'''\n"
            "[pieces]\nI = \"+---+\"\n")
    with pytest.raises(PuzzleFileError) as err:
        read_text(text, "bad.toml", "bad")
    assert "\n" not in str(err.value) and "board.grid" in str(err.value)
    assert words in str(err.value)


def test_the_lattice_key_is_checked():
    text = 'kind = "polysticks"\nlattice = "hexagon"\n[board]\ngrid = "+-+"\n[pieces]\nI = "+-+"\n'
    with pytest.raises(PuzzleFileError, match='lattice.*"square" or "triangle"'):
        read_text(text, "bad.toml", "bad")


def test_json_placements_are_sticks_as_pairs_of_axial_points(capsys):
    assert main(["solve", "tritrigs-parallelogram-5x2", "--limit", "1", "--json"]) == 0
    obj = json.loads(capsys.readouterr().out.splitlines()[0])
    assert len(obj["placements"]) == 12
    steps = {(1, 0), (0, 1), (1, -1)}
    for placement in obj["placements"]:
        for a, b in placement["sticks"]:
            assert (b[0] - a[0], b[1] - a[1]) in steps
            assert min(a + b) >= 0


def test_the_picture_draws_each_piece(tmp_path):
    assert main(["solve", "polytrigs-23-hexagon", "--format", "svg", "--out",
                 str(tmp_path / "h.svg")]) == 0
    svg = (tmp_path / "h.svg").read_text("utf-8")
    assert svg.count('id="p0-piece-') == 15  # each placed piece, as its own group
