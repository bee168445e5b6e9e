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

import lattice_oracle as oracle
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from puzzlebox.formats.reader import read_text
from puzzlebox.geometry.lattice import Cell, GridError, Shape, lattice_named

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
    theirs = oracle.normalize(oracle.PRISM, map(oracle.PRISM.to_point, cells)) == \
        oracle.normalize(oracle.PRISM, map(oracle.PRISM.to_point, moved))
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


def _random_puzzle(seed: int) -> str:
    """A small board in layers cut at random into pieces of distinct shapes (free, under
    rotations only), written as a file: its count is at least one."""
    rng = random.Random(seed)
    layers, rows, cols = rng.choice([(2, 1, 6), (2, 2, 4), (3, 1, 4), (2, 2, 3)])
    board = {(l, r, c) for l in range(layers) for r in range(rows) for c in range(cols)}
    while True:  # until the pieces have distinct shapes (the oracle's condition)
        left = set(board)
        pieces: list[set[Cell]] = []
        while left:
            start = min(left)
            piece = {start}
            size = rng.randint(2, 5)
            while len(piece) < size:
                near = [n for c in piece for n in PRISM.neighbours(c)
                        if n in left and n not in piece]
                if not near:
                    break
                piece.add(rng.choice(sorted(near)))
            left -= piece
            pieces.append(piece)
        forms = {frozenset(PRISM.orientations(PRISM.normalize(dict.fromkeys(p, "#")),
                                              True, False)) for p in pieces}
        if len(forms) == len(pieces):
            break
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
