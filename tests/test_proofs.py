"""Impossibility proofs: the classic examples, and never a proof for a solvable puzzle."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from puzzlebox.catalog import load_file as load
from puzzlebox.engine.registry import count
from puzzlebox.geometry import Shape
from puzzlebox.puzzles import Piece, PolyominoPuzzle
from puzzlebox.puzzles.proofs import components, imbalance, impossibility_proof

DATA = Path(__file__).parent / "data"


def _rectangle(rows: int, cols: int) -> dict[tuple[int, int], str]:
    return {(r, c): "#" for r in range(rows) for c in range(cols)}


def free_polyominoes(size: int) -> list[Shape]:
    """Every free polyomino of ``size`` cells, grown cell by cell (own small enumerator)."""

    def canonical(cells: frozenset[tuple[int, int]]) -> tuple[tuple[int, int], ...]:
        forms = []
        for a, b, c, d in [(1, 0, 0, 1), (0, 1, -1, 0), (-1, 0, 0, -1), (0, -1, 1, 0),
                           (1, 0, 0, -1), (-1, 0, 0, 1), (0, 1, 1, 0), (0, -1, -1, 0)]:  # fmt: skip
            moved = [(a * r + b * q, c * r + d * q) for r, q in cells]
            r0 = min(r for r, _ in moved)
            q0 = min(q for _, q in moved)
            forms.append(tuple(sorted((r - r0, q - q0) for r, q in moved)))
        return min(forms)

    shapes = {canonical(frozenset({(0, 0)}))}
    for _ in range(size - 1):
        grown = set()
        for shape in shapes:
            for r, q in shape:
                for nb in ((r + 1, q), (r - 1, q), (r, q + 1), (r, q - 1)):
                    if nb not in shape:
                        grown.add(canonical(frozenset(shape) | {nb}))
        shapes = grown
    return [Shape.from_cells(cells) for cells in sorted(shapes)]


def test_there_are_35_hexominoes_and_11_are_unbalanced():
    hexominoes = free_polyominoes(6)
    assert len(hexominoes) == 35
    assert sorted(imbalance(list(h.cells)) for h in hexominoes).count(2) == 11


@pytest.mark.parametrize("rows", [3, 5, 6, 7, 10, 14])
def test_the_35_hexominoes_tile_no_rectangle(rows):
    pieces = [Piece(f"H{i:02}", shape) for i, shape in enumerate(free_polyominoes(6))]
    puzzle = PolyominoPuzzle("hexominoes", _rectangle(rows, 210 // rows), pieces)
    proof = impossibility_proof(puzzle)
    assert proof is not None and proof.argument == "checkerboard"
    assert "105 dark and 105 light" in proof.sentence
    assert "the 11 pieces" in proof.sentence and "2 more of one colour" in proof.sentence
    assert puzzle.impossibility() == proof.sentence
    assert puzzle.count().solutions == 0


def test_the_five_tetrominoes_in_4x5():
    puzzle = load(DATA / "tetrominoes-4x5.toml").puzzles[0]
    proof = impossibility_proof(puzzle)
    assert proof is not None and proof.argument == "checkerboard"
    assert "piece T covers 2 more" in proof.sentence
    assert puzzle.count(engine="reference").reason == proof.sentence


def test_the_mutilated_chessboard():
    puzzle = load(DATA / "mutilated-chessboard.toml").puzzles[0]
    proof = impossibility_proof(puzzle)
    assert proof is not None and proof.argument == "checkerboard"
    assert "30 dark and 32 light" in proof.sentence
    # the whole chessboard is fine: 32 of each
    whole = PolyominoPuzzle(
        "chessboard", _rectangle(8, 8), [Piece("D", Shape.from_cells({(0, 0), (0, 1)}), 32, 32)]
    )
    assert impossibility_proof(whole) is None


def test_a_walled_off_strip_of_seven_cells():
    puzzle = load(DATA / "region-too-small.toml").puzzles[0]
    proof = impossibility_proof(puzzle)
    assert proof is not None and proof.argument == "region"
    assert "region of 7 cells" in proof.sentence and "row 0, column 0" in proof.sentence


def test_a_pocket_no_piece_fits_into():
    """A 2x2 pocket cut off a board of pentominoes: no pentomino fits, so its cells are
    uncoverable (the placement argument speaks first)."""
    board = _rectangle(7, 10)
    for cell in [(0, 2), (1, 2), (2, 0), (2, 1), (2, 2)] + [(6, c) for c in range(5, 10)]:
        del board[cell]
    pentominoes = load("pentomino-6x10").puzzles[0].pieces
    puzzle = PolyominoPuzzle("pocket", board, pentominoes)
    assert len(board) == 60
    proof = impossibility_proof(puzzle)
    assert proof is not None and proof.argument == "placement"
    assert proof.sentence == "no piece can cover the cell at row 0, column 0"


def test_a_region_whose_area_no_combination_makes():
    """Dominoes and one L tromino: areas (5 + 6 = 3 + 4 x 2) and colours agree, but the L
    does not fit in the 1x5 strip, and dominoes alone cannot fill 5 cells."""
    board = _rectangle(1, 5) | {(r, c): "#" for r in range(2, 4) for c in range(3)}
    pieces = [
        Piece("D", Shape.from_cells({(0, 0), (0, 1)}), 0, None),
        Piece("L", Shape.from_cells({(0, 0), (1, 0), (1, 1)})),
    ]
    puzzle = PolyominoPuzzle("regions", board, pieces)
    proof = impossibility_proof(puzzle)
    assert proof is not None and proof.argument == "region", proof
    assert "the region of 5 cells that begins at row 0, column 0" in proof.sentence
    assert "area 2" in proof.sentence
    assert count(puzzle.problem, "reference") == 0


def test_a_piece_that_fits_nowhere():
    board = _rectangle(2, 6)
    pieces = [Piece("X", Shape.from_cells({(0, 1), (1, 0), (1, 1), (1, 2), (2, 1)})),
              Piece("M", Shape.from_cells({(0, 0)}), 0, None)]  # fmt: skip
    proof = impossibility_proof(PolyominoPuzzle("nowhere", board, pieces))
    assert proof is not None
    assert proof.sentence == "piece X must be used but fits nowhere on the board"


def test_components_split_by_holes():
    cells = {(0, 0), (0, 1), (1, 1), (3, 3), (3, 4)}
    assert components(cells) == [[(0, 0), (0, 1), (1, 1)], [(3, 3), (3, 4)]]


@pytest.mark.parametrize(
    "name", ["pentomino-6x10", "pentomino-3x20", "blocks-7x7", "y-pentomino-5x10",
             "digital-jigsaw", "black-and-white"]  # fmt: skip
)
def test_solvable_catalog_puzzles_are_never_proved_impossible(name):
    for puzzle in load(name).puzzles:
        assert impossibility_proof(puzzle) is None


@st.composite
def small_puzzle(draw):
    rows, cols = draw(st.integers(1, 4)), draw(st.integers(1, 5))
    colours = draw(st.sampled_from(["#", "#", "ab"]))
    board = {
        (r, c): draw(st.sampled_from(colours))
        for r in range(rows)
        for c in range(cols)
        if draw(st.integers(0, 3))
    }
    if not board:
        board = {(0, 0): colours[0]}
    pieces = []
    for i in range(draw(st.integers(1, 3))):
        cells = {(0, 0)}
        for _ in range(draw(st.integers(0, 3))):
            r, c = draw(st.sampled_from(sorted(cells)))
            dr, dc = draw(st.sampled_from([(0, 1), (1, 0), (0, -1), (-1, 0)]))
            cells.add((r + dr, c + dc))
        lo, hi = draw(st.sampled_from([(1, 1), (2, 2), (0, 1), (1, 3), (0, None), (3, 3)]))
        shape = Shape.from_cells({cell: draw(st.sampled_from(colours)) for cell in cells})
        pieces.append(Piece(f"P{i}", shape, lo, hi))
    if draw(st.booleans()):  # dominoes as filler: the areas often agree, the rest must speak
        pieces.append(Piece("D", Shape.from_cells({(0, 0): "a", (0, 1): "b"}), 0, None))
    rotate, reflect = draw(st.booleans()), draw(st.booleans())
    return PolyominoPuzzle(
        "random", board, pieces, rotate=rotate, reflect=reflect, match_colors=colours == "ab"
    )


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(puzzle=small_puzzle())
def test_proofs_are_sound(puzzle):
    """Whenever a proof says impossible, the reference engine finds no solution."""
    proof = impossibility_proof(puzzle)
    if proof is not None:
        assert count(puzzle.problem, "reference") == 0, proof
