"""The prism lattice (#37): triangular prisms in layers, checked against facts that could be
false.

Its group is checked as maps (24 of them, 12 proper, closed, distinct, each keeping
neighbours); its counts against the independent brute force of tests/lattice_oracle.py,
which builds its own embedding, group and placements; its normal forms against the
oracle's; and its file form (layers of triangle rows) read back.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from itertools import product
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import lattice_oracle as oracle
from puzzlebox.disassembly.assemblies import slides_of
from puzzlebox.disassembly.blocking import FREE, SweptBlockingCache
from puzzlebox.formats.reader import read_text
from puzzlebox.geometry.lattice import Cell, GridError, Lattice, Shape, lattice_named
from puzzlebox.puzzles.polyomino import PolyominoPuzzle
from puzzlebox.puzzles.proofs import checkerboard_impossibility
from puzzlebox.render.pictures import puzzle_svg, solution_svg
from puzzlebox.render.solid3d import polyhedra_patches
from puzzlebox.render.stl import polyhedra_surface, signed_volume

PRISM = lattice_named("prism")


def patch(radius: int) -> list[Cell]:
    return list(product(range(-radius, radius + 1), repeat=3))


def key(f: Callable[[Cell], Cell]) -> Shape:
    """A map up to translation: the normal form of a patch whose cells all differ."""
    return PRISM.normalize({f(c): chr(65 + i) for i, c in enumerate(patch(1))})


def test_group_is_a_group_of_24_maps_12_of_them_rotations() -> None:
    group = PRISM.group()
    assert len(group) == 24 and len({t.name for t in group}) == 24
    assert sum(t.proper for t in group) == 12
    assert all(group[0](c) == c for c in patch(2))
    keys = {key(t): t for t in group}
    assert len(keys) == 24
    for a in group:
        for b in group:
            product_key = key(lambda c, a=a, b=b: a(b(c)))
            assert product_key in keys, (a.name, b.name)
            assert keys[product_key].proper == (a.proper == b.proper)


def test_maps_and_translations_keep_the_five_neighbours() -> None:
    cells = patch(2)
    for cell in cells:
        near = PRISM.neighbours(cell)
        assert len(set(near)) == 5 and all(cell in PRISM.neighbours(n) for n in near)
    for t in PRISM.group():
        for cell in cells:
            assert {t(n) for n in PRISM.neighbours(cell)} == set(PRISM.neighbours(t(cell)))
    for vector in patch(2):
        assert PRISM.can_translate(vector) == ((vector[1] + vector[2]) % 2 == 0)
        if not PRISM.can_translate(vector):
            continue
        for cell in cells:
            moved = tuple(a + b for a, b in zip(cell, vector))
            assert {tuple(a + b for a, b in zip(n, vector)) for n in PRISM.neighbours(cell)} \
                == set(PRISM.neighbours(moved))


def test_rules_rotations_turn_pieces_over_and_mirror_is_col_to_minus_col() -> None:
    group = PRISM.group()
    ident, mirror = PRISM.orientation_transforms(False, True)
    assert ident == group[0] and not mirror.proper
    assert all(mirror(c) == (c[0], c[1], -c[2]) for c in patch(2))
    # a rotation turns the layers over (a half turn about a horizontal axis)
    assert any(t.proper and t((1, 0, 0))[0] == -1 for t in group)
    # orientations under every rule, as many as the oracle finds with its own maps
    for grid in (["##/#.", "#./.."], ["##/#.", ".#/.."], ["###"], ["#", "#"], ["##", ".#"]):
        shape = PRISM.normalize(PRISM.parse(grid))
        points = [oracle.PRISM.to_point(c) for c in shape.cells]
        for rotate, reflect in product((True, False), repeat=2):
            assert len(PRISM.orientations(shape, rotate, reflect)) == \
                len(oracle.orientations(oracle.PRISM, points, rotate, reflect)), grid


@pytest.mark.parametrize("size, free", [(1, 1), (2, 2), (3, 3)])
def test_free_polyprisms_as_the_oracle_finds_them(size: int, free: int) -> None:
    """Free forms grown cell by cell, each kept as its normal form under puzzlebox's
    group, against the oracle's count under its own (1, 2, 3: a prism; two side by side or
    stacked; three in a row, bent, stacked, ...)."""
    found = {PRISM.normalize({(0, 0, 0): "#"})}
    for _ in range(size - 1):
        found = {min(PRISM.orientations(PRISM.normalize(dict.fromkeys([*s.cells, n], "#"))),
                     key=lambda s: s.cells)
                 for s in found for c in s.cells for n in PRISM.neighbours(c)
                 if n not in s.cells}
    assert len(found) == len(oracle.free_forms(oracle.PRISM, size))
    assert size > 2 or len(found) == free


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(st.integers(-3, 3), st.integers(-3, 3), st.integers(-3, 3)),
                min_size=1, max_size=6, unique=True),
       st.tuples(st.integers(-4, 4), st.integers(-4, 4), st.integers(-4, 4)))
def test_normal_forms_equal_exactly_for_allowed_translates(cells: list[Cell],
                                                           shift: Cell) -> None:
    moved = [tuple(a + b for a, b in zip(c, shift)) for c in cells]
    ours = PRISM.normalize(dict.fromkeys(cells, "#")) == \
        PRISM.normalize(dict.fromkeys(moved, "#"))
    theirs = oracle.translates(oracle.PRISM, cells, moved)
    assert ours == theirs == PRISM.can_translate(shift)


def test_parse_layers_of_triangle_rows() -> None:
    assert PRISM.parse(["#./.#", "##/.."]) == {
        (0, 0, 0): "#", (0, 1, 1): "#", (1, 0, 0): "#", (1, 0, 1): "#"}
    assert PRISM.parse("##") == {(0, 0, 0): "#", (0, 0, 1): "#"}
    with pytest.raises(GridError, match="prism grid must be a list of layer strings"):
        PRISM.parse(3)
    with pytest.raises(GridError, match="layer 1 has 1 rows, layer 0 has 2"):
        PRISM.parse(["##/##", "##"])


# -- counts against the brute force ---------------------------------------------------------

def _write(tmp: Path, name: str, text: str) -> Path:
    path = tmp / f"{name}.toml"
    path.write_text(text)
    return path


def _both(path: Path) -> tuple[tuple[int, int], tuple[int, int]]:
    puzzle = read_text(path.read_text(), path.name, path.stem).puzzles[0]
    counted = puzzle.count()
    found, _ = oracle.count(oracle.read(path))
    return (counted.solutions, counted.distinct), (found.solutions, found.distinct)


def random_pieces(lattice: Lattice, board: set[Cell], rng: random.Random, most: int
                  ) -> list[set[Cell]]:
    """``board`` cut at random into connected pieces of 2 to ``most`` cells (fewer where a
    piece is walled in), cut again until their shapes are distinct under rotations (the
    oracle's condition)."""
    while True:
        left = set(board)
        pieces: list[set[Cell]] = []
        while left:
            piece = {min(left)}
            size = rng.randint(2, most)
            while len(piece) < size:
                near = [n for c in piece for n in lattice.neighbours(c)
                        if n in left and n not in piece]
                if not near:
                    break
                piece.add(rng.choice(sorted(near)))
            left -= piece
            pieces.append(piece)
        forms = {frozenset(lattice.orientations(lattice.normalize(dict.fromkeys(p, "#")),
                                                True, False)) for p in pieces}
        if len(forms) == len(pieces):
            return pieces


def _random_puzzle(seed: int) -> str:
    """A small board in layers cut at random into pieces of distinct shapes (free, under
    rotations only), written as a file: its count is at least one."""
    rng = random.Random(seed)
    layers, rows, cols = rng.choice([(2, 1, 6), (2, 2, 4), (3, 1, 4), (2, 2, 3)])
    board = {(l, r, c) for l in range(layers) for r in range(rows) for c in range(cols)}
    pieces = random_pieces(PRISM, board, rng, 5)
    lines = ['lattice = "prism"', "[board]", f"grid = {_layers(board)}", "[pieces]"]
    for k, piece in enumerate(pieces):
        lines.append(f"p{k} = {_layers(piece)}")
    lines += ["[rules]", "rotate = true", "reflect = false"]
    return "\n".join(lines) + "\n"


def _layers(cells: set[Cell]) -> str:
    l0 = min(c[0] for c in cells)
    r0 = min(c[1] for c in cells)
    c0 = min(c[2] for c in cells)
    c0 -= (r0 + c0) % 2  # keep each triangle's direction
    rows = 1 + max(c[1] for c in cells) - r0
    cols = 1 + max(c[2] for c in cells) - c0
    out = []
    for layer in range(l0, 1 + max(c[0] for c in cells)):
        out.append("/".join("".join("#" if (layer, r, c) in cells else "."
                                    for c in range(c0, c0 + cols))
                            for r in range(r0, r0 + rows)))
    return "[" + ", ".join(f'"{layer}"' for layer in out) + "]"


@pytest.mark.parametrize("seed", range(8))
def test_random_prism_puzzles_count_as_the_brute_force(seed: int, tmp_path: Path) -> None:
    text = _random_puzzle(seed)
    path = _write(tmp_path, f"r{seed}", text)
    instance = oracle.read(path)
    shapes = {frozenset(oracle.orientations(instance.geometry, c, True, False))
              for c in instance.pieces.values()}
    assert len(shapes) == len(instance.pieces)
    ours, theirs = _both(path)
    assert ours == theirs and ours[0] >= 1


# -- sliding prisms: free distances against the geometry ------------------------------------

_H = 3 ** 0.5 / 2


def _triangle_at(px: float, py: float) -> tuple[int, int] | None:
    """The triangle ``(x, y)`` (BurrTools' numbering: x the column, y the row counting up,
    up when ``x + y`` is even) whose inside holds the point, found from the triangles'
    corners; None on an edge."""
    y = int(py // _H)
    for x in range(int(2 * px) - 3, int(2 * px) + 3):
        up = (x + y) % 2 == 0
        base, apex = (y * _H, (y + 1) * _H) if up else ((y + 1) * _H, y * _H)
        corners = [(0.5 * x, base), (0.5 * x + 1, base), (0.5 * x + 0.5, apex)]
        signs = []
        for k in range(3):
            (ax, ay), (bx, by) = corners[k], corners[(k + 1) % 3]
            signs.append((bx - ax) * (py - ay) - (by - ay) * (px - ax))
        if all(s > 1e-9 for s in signs) or all(s < -1e-9 for s in signs):
            return (x, y)
    return None


def _centroid(x: int, y: int) -> tuple[float, float]:
    return 0.5 * x + 0.5, y * _H + (_H / 3 if (x + y) % 2 == 0 else 2 * _H / 3)


def _free_by_geometry(mine: list[Cell], theirs: set[Cell], step: Cell) -> int:
    """How many whole units ``mine`` slides along the plane direction ``step`` before a
    prism of it would overlap one of ``theirs``: each centroid walked in small steps, the
    triangle under it looked up (a triangle sliding along one of its edges' directions sweeps
    exactly the triangles its centroid passes)."""
    dx, dy = 0.5 * step[0], _H * step[1]
    for units in range(1, 12):
        for x, y, z in mine:
            cx, cy = _centroid(x, y)
            for k in range(1, 25):
                t = units - 1 + k / 24
                hit = _triangle_at(cx + t * dx, cy + t * dy)
                if hit is not None and (*hit, z) in theirs:
                    return units - 1
    return 1 << 30


@settings(max_examples=40, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 5), st.integers(0, 2), st.integers(0, 1)),
                min_size=1, max_size=4, unique=True),
       st.lists(st.tuples(st.integers(0, 5), st.integers(0, 2), st.integers(0, 1)),
                min_size=1, max_size=4, unique=True),
       st.tuples(st.integers(-3, 3), st.integers(-2, 2)))
def test_prisms_slide_as_far_as_the_geometry_allows(mine: list[Cell], theirs: list[Cell],
                                                    offset: tuple[int, int]) -> None:
    """The disassembler's free distances along the plane's six steps (the prism lattice's
    steps and sweeps, in the search's x y z = col, row, layer), against the triangles the
    prisms' centroids pass (BurrTools' numbering here: x, y with y up, so row = -y)."""
    ox, oy = offset
    ox += (ox + oy) % 2  # a translation of the lattice keeps up prisms up
    moved = {(x + ox, y + oy, z) for x, y, z in theirs}
    if moved & set(mine):
        return
    slides = slides_of(PRISM)
    assert slides is not None
    steps, swept = slides

    def search(cells: list[Cell]) -> list[tuple[int, int, int]]:  # (x, y, z) -> (col, row, z)
        return [(x, -y, z) for x, y, z in cells]

    cache = SweptBlockingCache([search(mine), search(theirs)], steps, swept)
    free = cache.free(0, 1, (ox, -oy, 0))
    plane = [d for d, step in enumerate(steps) if not step[2]]
    assert len(plane) == 6
    for d in plane:
        col, row, _ = steps[d]
        want = _free_by_geometry(mine, moved, (col, -row, 0))
        assert (free[d] if free[d] < FREE else 1 << 30) == (want if want < 11 else 1 << 30)


# -- pictures and solids ----------------------------------------------------------------------


@settings(max_examples=30, deadline=None)
@given(st.sets(st.tuples(st.integers(0, 2), st.integers(0, 2), st.integers(0, 4)),
               min_size=1, max_size=10))
def test_stl_of_stacked_prisms_is_closed_and_holds_their_volume(cells: set[Cell]) -> None:
    """Every edge of the surface is met once each way (a closed surface, faces between
    stacked or neighbouring prisms left out) and the volume is the prisms' (a triangle's
    area times a height of one side)."""
    triangles = polyhedra_surface([f for c in cells for f in PRISM.solid_faces(c)], 10.0)
    edges: dict[tuple[tuple[float, ...], tuple[float, ...]], int] = {}
    for t in triangles:
        for k in range(3):
            a = tuple(round(v, 3) for v in t[k])
            b = tuple(round(v, 3) for v in t[(k + 1) % 3])
            edges[a, b] = edges.get((a, b), 0) + 1
    assert all(edges.get((b, a), 0) == n for (a, b), n in edges.items())
    prism = 3 ** 0.5 / 4 * 10.0 ** 3
    assert abs(signed_volume(triangles) - len(cells) * prism) < 1e-6 * len(cells) * prism


def test_pictures_draw_prisms_in_3d_and_their_layers_as_triangles(tmp_path: Path) -> None:
    """A prism puzzle's picture is the view of its prisms (the faces the viewer sees, from
    Lattice.solid_faces) beside its layers of triangles; a piece's picture is its view."""
    path = _write(tmp_path, "r0", _random_puzzle(0))
    puzzle = read_text(path.read_text(), path.name, path.stem).puzzles[0]
    svg = solution_svg(puzzle, next(iter(puzzle.solutions())))
    assert '-layer0-piece-0"' in svg and '-layer1-board"' in svg
    assert '-iso-0-0"' in svg
    shown = puzzle_svg(puzzle)
    assert '-layer0-board"' in shown and '-shape-0-0"' in shown
    # every face seen lies on the outside: none between two prisms of the board
    board = [f for c in puzzle.board for f in PRISM.solid_faces(c)]
    assert 0 < len(polyhedra_patches([board])) < len(board)


def test_the_up_and_down_colouring_proves_a_prism_puzzle_impossible() -> None:
    """Three layers of an up and a down prism (3 up, 3 down) and three posts of two stacked
    prisms: a post covers 2 up or 2 down prisms wherever it stands (maps keep up prisms up
    or turn all of them down; a post never lies on its side), so three of them cover 6 or 2
    more of one kind than the other, never equal numbers: the proof says so, and the count
    agrees."""
    text = ('lattice = "prism"\n[board]\ngrid = ["##", "##", "##"]\n[pieces]\n'
            'post = { shape = ["#", "#"], count = 3 }\n')
    puzzle = read_text(text, "posts", "posts").puzzles[0]
    assert isinstance(puzzle, PolyominoPuzzle)
    sentence = checkerboard_impossibility(puzzle)
    assert sentence is not None and "up and down prisms" in sentence
    assert "3 up and 3 down" in sentence
    assert puzzle.count().solutions == 0
