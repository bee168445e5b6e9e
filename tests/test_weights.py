"""Per-solution weights (cover/symmetry.py ``leader_weights``): the path a distinct count takes
when a puzzle has no anchor for its whole group, checked where a wrong weight would show.

The boards here have no cell that every symmetry fixes and pieces in any number, so every
solution is enumerated and weighed on its orbit. The counts are compared with orbit counts
made from scratch (tests/oracle.py on the square lattice, a small tiler and the box's own
16 maps in 3-D below); the weights themselves with their definition, written out plainly.
"""

from __future__ import annotations

from itertools import permutations, product

import pytest

import oracle
from puzzlebox.cover import symmetry
from puzzlebox.engine.registry import Job, start
from puzzlebox.engine.search import each_solution
from puzzlebox.formats import read_text
from puzzlebox.geometry import Shape
from puzzlebox.puzzles import Piece, PolyominoPuzzle

ENGINES = ("reference", "compiled", "bitboard")


def _square(rows: int, cols: int, pieces) -> tuple[PolyominoPuzzle, tuple]:
    board = {(r, c): "#" for r in range(rows) for c in range(cols)}
    case = (board, pieces, True, True, False)
    puzzle = PolyominoPuzzle(
        "weights",
        board,
        [Piece(name, Shape.from_cells(shape), lo, hi) for name, shape, lo, hi in pieces],
        rotate=True,
        reflect=True,
    )
    return puzzle, case


DOMINO = ("D", {(0, 0): "#", (0, 1): "#"}, 0, None)
MONOMINO = ("M", {(0, 0): "#"}, 0, None)


@pytest.mark.parametrize("engine", ENGINES)
def test_dominoes_on_a_4x6_board_with_no_anchor_match_the_oracle(engine: str) -> None:
    # the 4x6 board's four maps fix no cell: no anchor, every tiling is weighed
    puzzle, case = _square(4, 6, [DOMINO])
    breaking = puzzle.symmetry_breaking
    assert breaking.order == 4 and breaking.anchor_item is None
    assert [part.weighed for part in breaking.parts()] == [True]
    expected = oracle.polyomino_solutions(*case)
    maps = oracle.board_symmetries(*case)
    raw, distinct, _ = puzzle.count_search(engine)
    assert raw == len(expected) == 281  # domino tilings of 4x6 (OEIS A099390)
    assert distinct == oracle.distinct(expected, maps)


@pytest.mark.parametrize("engine", ENGINES)
def test_monominoes_and_dominoes_weigh_solutions_of_every_size(engine: str) -> None:
    # solutions of 6 to 12 pieces on a 3x4 board: weighed in blocks of one size each
    puzzle, case = _square(3, 4, [MONOMINO, DOMINO])
    assert not puzzle.symmetry_breaking.full
    expected = oracle.polyomino_solutions(*case)
    raw, distinct, _ = puzzle.count_search(engine)
    assert raw == len(expected)
    assert distinct == oracle.distinct(expected, oracle.board_symmetries(*case))


def _box_orbits(box: tuple[int, int, int], brick: tuple[int, int, int]) -> tuple[int, int]:
    """(tilings, tilings up to the box's symmetries) of a box by a cuboid brick, from
    scratch: tilings by filling the first empty cell, symmetries as the axis permutations
    that keep the box's shape with every reflection of the axes."""
    cells = list(product(*map(range, box)))
    blocks = []
    for dims in set(permutations(brick)):
        for corner in cells:
            block = frozenset(tuple(x + d for x, d in zip(corner, step))
                              for step in product(*map(range, dims)))  # fmt: skip
            if all(all(0 <= v < box[k] for k, v in enumerate(cell)) for cell in block):
                blocks.append(block)
    tilings: list[frozenset[frozenset[tuple[int, ...]]]] = []

    def fill(empty: set[tuple[int, ...]], chosen: list[frozenset[tuple[int, ...]]]) -> None:
        if not empty:
            tilings.append(frozenset(chosen))
            return
        first = min(empty)
        for block in blocks:
            if first in block and block <= empty:
                fill(empty - block, [*chosen, block])

    fill(set(cells), [])
    maps = []
    for axes in permutations(range(3)):
        if all(box[a] == box[k] for k, a in enumerate(axes)):
            for signs in product((False, True), repeat=3):
                maps.append((axes, signs))

    def move(cell: tuple[int, ...], axes: tuple[int, ...], signs: tuple[bool, ...]):
        return tuple(box[k] - 1 - cell[a] if s else cell[a]
                     for k, (a, s) in enumerate(zip(axes, signs)))  # fmt: skip

    forms = {
        min(
            tuple(sorted(tuple(sorted(move(c, *m) for c in block)) for block in tiling))
            for m in maps
        )
        for tiling in tilings
    }
    assert len(maps) == (16 if box[1] == box[2] else 8)
    return len(tilings), len(forms)


BOX = """lattice = "cube"
[board]
grid = [{grid}]
[pieces]
B = {{ shape = {shape}, count = "any" }}
[rules]
rotate = true
reflect = true
"""


@pytest.mark.parametrize("engine", ENGINES)
def test_bricks_in_a_box_with_no_fixed_cell_match_a_tiler(engine: str) -> None:
    # a 2x4x4 box of 1x2x2 bricks: 16 maps, no cell fixed by all (the anchor, a corner, is
    # fixed by one mirror only), so all the solutions searched are weighed
    layer = '"####/####/####/####"'
    text = BOX.format(grid=f"{layer}, {layer}", shape='"##/##"')
    puzzle = read_text(text, "<box>", "box").puzzles[0]
    breaking = puzzle.symmetry_breaking
    assert breaking.order == 16 and not breaking.full
    raw, distinct, _ = puzzle.count_search(engine)
    assert (raw, distinct) == _box_orbits((2, 4, 4), (1, 2, 2))


def _weights_by_definition(breaking: symmetry.SymmetryBreaking) -> dict[tuple[int, ...], int]:
    """Each restricted solution's weight as the docstring defines it: the size of its orbit
    if it is the smallest member of its orbit among the solutions the restricted search
    finds, else 0 (orbits and membership as Python sets, nothing vectorised)."""
    _, search = start(Job(breaking.problem), "reference")
    found = {breaking.original(chosen) for chosen in each_solution(search)}
    out = {}
    for solution in found:
        orbit = {tuple(sorted(int(perm[k]) for k in solution)) for perm in breaking.P}
        out[solution] = len(orbit) if min(orbit & found) == solution else 0
    return out


@pytest.mark.parametrize(
    "make",
    [
        lambda: _square(4, 6, [DOMINO])[0],  # no anchor
        lambda: _square(3, 4, [MONOMINO, DOMINO])[0],  # an anchor kept by a subgroup
        # a full anchor with symmetric first anchors cut by second anchors (extra items)
        lambda: _square(
            3, 3, [("A", {(0, 0): "#"}, 1, 1), ("B", {(0, 0): "#", (0, 1): "#"}, 4, 4)]
        )[0],
    ],
)
@pytest.mark.parametrize("block", [1, 7, symmetry._BLOCK])
def test_vectorised_weights_equal_their_definition(make, block, monkeypatch) -> None:
    monkeypatch.setattr(symmetry, "_BLOCK", block)  # blocks of one solution, some, all
    breaking = make().symmetry_breaking
    expected = _weights_by_definition(breaking)
    solutions = sorted(expected)
    weights = breaking.leader_weights(solutions)
    assert weights == [expected[s] for s in solutions]
    assert weights == [breaking.leader_weight(s) for s in solutions]  # one at a time
    assert any(w == 0 for w in weights) and any(w > 0 for w in weights)
    # the same solutions as the engine gives them (restricted option numbers, unsorted)
    restricted = [tuple(int(breaking.search_index[k]) for k in reversed(s)) for s in solutions]
    assert breaking.leader_weights(restricted, restricted=True) == weights
