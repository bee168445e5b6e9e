"""The tetrahedral-octahedral lattice (#37, BurrTools' grid type 4), checked against facts
that could be false: its group as maps (48, 24 rotations, closed, keeping neighbours and
the set of cells), its normal forms and counts against the independent brute force of
tests/lattice_oracle.py (its own centroid points, validity rule and neighbour offsets), and
its file form (BurrTools' positions, '.' where no cell is)."""

from __future__ import annotations

import random
from itertools import product
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import lattice_oracle as oracle
from puzzlebox.formats.reader import read_text
from puzzlebox.geometry.lattice import Cell, GridError, Shape, lattice_named
from puzzlebox.geometry.tetraocta import is_cell
from puzzlebox.puzzles.polyomino import PolyominoPuzzle
from puzzlebox.puzzles.proofs import checkerboard_impossibility
from puzzlebox.render.pictures import solution_svg
from puzzlebox.render.stl import polyhedra_surface, signed_volume
from test_lattice_prism import random_pieces

LATTICE = lattice_named("tetra-octa")
CELLS = [c for c in product(range(-3, 9), repeat=3) if is_cell(c)]


def test_cells_are_the_oracles_and_have_four_faces() -> None:
    assert len([c for c in product(range(6), repeat=3) if is_cell(c)]) == 8 * 5
    for cell in CELLS:
        point = oracle.TETRA_OCTA.to_point(cell)
        assert oracle.tetra_octa_cell(point) and oracle.TETRA_OCTA.to_cell(point) == cell
        near = LATTICE.neighbours(cell)
        assert len(set(near)) == 4 and all(cell in LATTICE.neighbours(n) for n in near)
        assert {oracle.TETRA_OCTA.to_point(n) for n in near} == \
            set(oracle.TETRA_OCTA.neighbours(point))
    invalid = [c for c in product(range(6), repeat=3) if not is_cell(c)]
    assert not any(oracle.tetra_octa_cell(oracle.TETRA_OCTA.to_point(c)) for c in invalid
                   if all(v % 3 != 1 for v in c) or all(v % 3 == 1 for v in c))


def _key(f) -> Shape:  # type: ignore[no-untyped-def]
    return LATTICE.normalize({f(c): chr(65 + i) for i, c in enumerate(CELLS[:40])})


def test_group_is_the_cubes_48_maps_keeping_cells_and_neighbours() -> None:
    group = LATTICE.group()
    assert len(group) == 48 and sum(t.proper for t in group) == 24
    assert all(group[0](c) == c for c in CELLS)
    keys = {_key(t): t for t in group}
    assert len(keys) == 48
    for a in group[:12]:
        for b in group:
            product_key = _key(lambda c, a=a, b=b: a(b(c)))
            assert product_key in keys and keys[product_key].proper == (a.proper == b.proper)
    for t in group:
        for cell in CELLS[:150]:
            assert is_cell(t(cell))
            assert {t(n) for n in LATTICE.neighbours(cell)} == set(LATTICE.neighbours(t(cell)))
    ident, mirror = LATTICE.orientation_transforms(False, True)
    assert ident == group[0] and not mirror.proper
    assert all(mirror(c) == (c[0], c[1], -1 - c[2]) for c in CELLS)


@settings(max_examples=60, deadline=None)
@given(st.lists(st.sampled_from(CELLS), min_size=1, max_size=5, unique=True),
       st.tuples(*[st.integers(-3, 3).map(lambda k: 3 * k)] * 3))
def test_normal_forms_equal_exactly_for_allowed_translates(cells: list[Cell],
                                                           shift: Cell) -> None:
    moved = [tuple(a + b for a, b in zip(c, shift)) for c in cells]
    if not all(is_cell(c) for c in moved):
        assert not LATTICE.can_translate(shift)
        return
    ours = LATTICE.normalize(dict.fromkeys(cells, "#")) == \
        LATTICE.normalize(dict.fromkeys(moved, "#"))
    theirs = oracle.translates(oracle.TETRA_OCTA, cells, moved)
    assert ours == theirs == LATTICE.can_translate(shift)


def test_orientations_as_many_as_the_oracle_finds() -> None:
    rng = random.Random(4)
    for _ in range(12):
        piece = {rng.choice(CELLS)}
        while len(piece) < 4:
            piece.add(rng.choice([n for c in piece for n in LATTICE.neighbours(c)]))
        shape = LATTICE.normalize(dict.fromkeys(piece, "#"))
        points = [oracle.TETRA_OCTA.to_point(c) for c in shape.cells]
        for rotate, reflect in product((True, False), repeat=2):
            assert len(LATTICE.orientations(shape, rotate, reflect)) == \
                len(oracle.orientations(oracle.TETRA_OCTA, points, rotate, reflect))


def test_parse_refuses_a_position_that_is_no_cell() -> None:
    assert LATTICE.parse([".../.../...", ".../.#./...", ".../.../..."]) == {(1, 1, 1): "#"}
    with pytest.raises(GridError, match="layer 0, row 0, column 0 is no cell"):
        LATTICE.parse(["#"])


def _layers(cells: set[Cell]) -> str:
    low = LATTICE.normalize_offset(cells)
    moved = {tuple(v + d for v, d in zip(c, low)) for c in cells}
    size = [1 + max(c[i] for c in moved) for i in range(3)]
    return "[" + ", ".join(
        '"' + "/".join("".join("#" if (layer, r, c) in moved else "." for c in range(size[2]))
                       for r in range(size[1])) + '"'
        for layer in range(size[0])) + "]"


def _random_puzzle(seed: int) -> str:
    """A board of a few unit cubes (5 cells each) cut at random into pieces of distinct
    shapes under rotations."""
    rng = random.Random(seed)
    blocks = rng.choice([(1, 1, 2), (1, 2, 2), (2, 1, 2), (1, 1, 3)])
    board = {c for c in product(*[range(3 * b) for b in blocks]) if is_cell(c)}
    pieces = random_pieces(LATTICE, board, rng, 4)
    lines = ['lattice = "tetra-octa"', "[board]", f"grid = {_layers(board)}", "[pieces]"]
    lines += [f"p{k} = {_layers(p)}" for k, p in enumerate(pieces)]
    return "\n".join(lines + ["[rules]", "rotate = true", "reflect = false"]) + "\n"


@pytest.mark.parametrize("seed", range(6))
def test_random_puzzles_count_as_the_brute_force(seed: int, tmp_path: Path) -> None:
    path = tmp_path / f"t{seed}.toml"
    path.write_text(_random_puzzle(seed))
    puzzle = read_text(path.read_text(), path.name, path.stem).puzzles[0]
    counted = puzzle.count()
    found, _ = oracle.count(oracle.read(path))
    assert (counted.solutions, counted.distinct) == (found.solutions, found.distinct)
    assert counted.solutions >= 1


def test_stl_of_tetrahedra_and_eighths_is_closed_and_holds_their_volume() -> None:
    """A piece's STL (its cells' polyhedra, shared faces dropped) is closed, every edge met
    once each way, and holds a third of a cube per tetrahedron and a sixth per eighth: a
    unit cube of five cells is exactly one cube, wound outwards."""
    rng = random.Random(7)
    for size in (1, 2, 5, 9):
        piece = {rng.choice(CELLS)}
        while len(piece) < size:
            piece.add(rng.choice([n for c in piece for n in LATTICE.neighbours(c)]))
        triangles = polyhedra_surface([f for c in piece for f in LATTICE.solid_faces(c)], 10.0)
        edges: dict[tuple[tuple[float, ...], tuple[float, ...]], int] = {}
        for t in triangles:
            for k in range(3):
                a = tuple(round(v, 3) for v in t[k])
                b = tuple(round(v, 3) for v in t[(k + 1) % 3])
                edges[a, b] = edges.get((a, b), 0) + 1
        assert all(edges.get((b, a), 0) == n for (a, b), n in edges.items())
        want = sum(1 / 3 if all(v % 3 == 1 for v in c) else 1 / 6 for c in piece) * 1000
        assert abs(signed_volume(triangles) - want) < 1e-6 * want
    cube = [c for c in product(range(3), repeat=3) if is_cell(c)]
    triangles = polyhedra_surface([f for c in cube for f in LATTICE.solid_faces(c)], 1.0)
    assert len(triangles) == 12 and abs(signed_volume(triangles) - 1.0) < 1e-9


def test_pictures_show_the_solid_alone(tmp_path: Path) -> None:
    """A tetra-octa puzzle is drawn as the view of its tetrahedra and eighths (its layers
    are BurrTools' positions, mostly no cell: not drawn), the pieces named under it."""
    path = tmp_path / "t.toml"
    path.write_text(_random_puzzle(0))
    puzzle = read_text(path.read_text(), path.name, path.stem).puzzles[0]
    svg = solution_svg(puzzle, next(iter(puzzle.solutions())))
    assert '-iso-0-0"' in svg and "-layer0-" not in svg


def test_the_tetrahedra_colouring_proves_a_puzzle_impossible() -> None:
    """One unit cube (a tetrahedron and four eighths) and pieces of two tetrahedra in all:
    every map keeps tetrahedra tetrahedra, so the colouring of tetrahedra against eighths
    says no placement covers the cube, and the count agrees."""
    pair = '["..#/.../...", ".../.#./..."]'  # an eighth and the tetrahedron beside it
    text = ('lattice = "tetra-octa"\n[board]\n'
            'grid = ["..#/.../#..", ".../.#./...", "#../.../..#"]\n[pieces]\n'
            f'pair = {{ shape = {pair}, count = 2 }}\neighth = "..#"\n')
    puzzle = read_text(text, "pairs", "pairs").puzzles[0]
    assert isinstance(puzzle, PolyominoPuzzle)
    sentence = checkerboard_impossibility(puzzle)
    assert sentence is not None and "1 tetrahedron and 4 eighth" in sentence
    assert puzzle.count().solutions == 0
