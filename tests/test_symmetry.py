"""Symmetry breaking: raw and distinct counts through the restricted search, checked against
brute force with canonical de-duplication (tests/oracle.py shares no code with the library)."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import oracle
from puzzlebox.puzzles import EdgeMatchingPuzzle, Piece, PolyominoPuzzle, QueensPuzzle

Cell = tuple[int, int]

# The grid symmetries of an R x C box as cell maps, by name; square-only ones last.
_MAPS = {
    "r180": lambda r, c, R, C: (R - 1 - r, C - 1 - c),
    "mirror": lambda r, c, R, C: (r, C - 1 - c),
    "flip": lambda r, c, R, C: (R - 1 - r, c),
    "r90": lambda r, c, R, C: (c, R - 1 - r),
    "transpose": lambda r, c, R, C: (c, r),
    "anti": lambda r, c, R, C: (C - 1 - c, R - 1 - r),
}
_SUBGROUPS = [[], ["r180"], ["mirror"], ["flip"], ["mirror", "flip"], ["r90"], ["transpose"],
              ["anti"], ["r90", "mirror"]]  # fmt: skip


def _symmetrize(board: dict[Cell, str], R: int, C: int, names: list[str]) -> dict[Cell, str]:
    """The board made symmetric under the group the named maps generate (same colour along
    each orbit of cells, the colour of the orbit's first cell)."""
    maps = [_MAPS[n] for n in names if R == C or n in ("r180", "mirror", "flip")]
    out: dict[Cell, str] = {}
    for cell in sorted(board):
        if cell in out:
            continue
        orbit = {cell}
        frontier = [cell]
        while frontier:
            r, c = frontier.pop()
            for m in maps:
                image = m(r, c, R, C)
                if image not in orbit:
                    orbit.add(image)
                    frontier.append(image)
        for image in orbit:
            out[image] = board[cell]
    return out


@st.composite
def symmetric_polyomino(draw, colors: bool = False):
    R = draw(st.integers(1, 4))
    C = draw(st.sampled_from([R, R, draw(st.integers(1, 4))]))
    palette = "ab" if colors else "#"
    board = {
        (r, c): draw(st.sampled_from(palette))
        for r in range(R)
        for c in range(C)
        if draw(st.integers(0, 4)) > 0
    }
    board = _symmetrize(board or {(0, 0): palette[0]}, R, C, draw(st.sampled_from(_SUBGROUPS)))
    pieces = []
    for i in range(draw(st.integers(1, 3))):
        size = draw(st.integers(1, 4))
        cells = {(0, 0)}
        while len(cells) < size:
            r, c = draw(st.sampled_from(sorted(cells)))
            dr, dc = draw(st.sampled_from([(0, 1), (1, 0), (0, -1), (-1, 0)]))
            cells.add((r + dr, c + dc))
        shape = {cell: draw(st.sampled_from(palette)) for cell in cells}
        lo, hi = draw(st.sampled_from([(1, 1), (1, 1), (2, 2), (3, 3), (0, 1), (1, 2), (0, None)]))
        pieces.append((f"P{i}", shape, lo, hi))
    if draw(st.integers(0, 2)) == 0:  # a filler makes most boards solvable
        filler = draw(st.sampled_from([{(0, 0)}, {(0, 0), (0, 1)}]))
        pieces.append(("F", {cell: palette[0] for cell in filler}, 0, None))
    rotate, reflect = draw(st.sampled_from([(True, True), (True, False), (False, True),
                                            (False, False)]))  # fmt: skip
    return board, pieces, rotate, reflect, colors


def _puzzle(board, pieces, rotate, reflect, colors) -> PolyominoPuzzle:
    from puzzlebox.geometry import Shape

    return PolyominoPuzzle(
        "random",
        board,
        [Piece(name, Shape.from_cells(shape), lo, hi) for name, shape, lo, hi in pieces],
        rotate=rotate,
        reflect=reflect,
        match_colors=colors,
    )


def _check_polyomino(case) -> None:
    board, pieces, rotate, reflect, colors = case
    puzzle = _puzzle(*case)
    expected = oracle.polyomino_solutions(board, pieces, rotate, reflect, colors)
    maps = oracle.board_symmetries(board, pieces, rotate, reflect, colors)
    raw, distinct, _ = puzzle.count_search("reference")
    assert raw == len(expected), case
    assert distinct == oracle.distinct(expected, maps), case
    # one solution per orbit, and no two of them symmetric
    reps = list(puzzle.distinct_solutions(engine="reference"))
    assert len(reps) == distinct
    forms = {puzzle.canonical_key(s) for s in reps}
    assert len(forms) == distinct


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(case=symmetric_polyomino())
def test_polyomino_counts_match_brute_force(case):
    _check_polyomino(case)


@settings(max_examples=50, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(case=symmetric_polyomino(colors=True))
def test_coloured_polyomino_counts_match_brute_force(case):
    _check_polyomino(case)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(case=symmetric_polyomino(), data=st.data())
def test_split_counts_add_up(case, data):
    """Any option forced in one part and excluded in the other: the parts add up exactly."""
    puzzle = _puzzle(*case)
    total = puzzle.count_search("reference")[:2]
    n = puzzle.search_problem().n_options
    if n == 0:
        return
    k = data.draw(st.integers(0, n - 1))
    j = data.draw(st.integers(0, n - 1))
    parts = [
        puzzle.count_search("reference", forced=[k, j]),
        puzzle.count_search("reference", forced=[k], excluded=[j]),
        puzzle.count_search("reference", excluded=[k]),
    ]
    if j == k:
        del parts[1]  # the option both forced and excluded: that part is empty anyway
    assert tuple(map(sum, zip(*(p[:2] for p in parts)))) == total


def test_symmetric_anchors_take_the_second_level():
    """A monomino on a 3x3 board with four dominoes: the monomino in a corner or on an edge
    is kept by a mirror, so a second anchor (a cell on the mirror) must cut further."""
    board = {(r, c): "#" for r in range(3) for c in range(3)}
    pieces = [("A", {(0, 0): "#"}, 1, 1), ("B", {(0, 0): "#", (0, 1): "#"}, 4, 4)]
    case = (board, pieces, True, True, False)
    puzzle = _puzzle(*case)
    breaking = puzzle.symmetry_breaking
    assert breaking.order == 8 and breaking.full
    assert any(level is not None for level in breaking.level2.values())
    _check_polyomino(case)
    # the monomino in the centre (the ring of dominoes: 2 ways, one up to turning) or in a
    # corner (4 ways at each of the 4 corners, two shapes up to symmetry); never on an edge
    assert puzzle.count_search("reference")[:2] == (18, 3)


def test_pentominoes_in_3x20_with_the_compiled_or_default_engine():
    """The twelve pentominoes tile the 3x20 rectangle in 2 ways, 8 as placed."""
    from puzzlebox.catalog import load

    puzzle = load("pentomino-3x20").puzzles[0]
    raw, distinct, _ = puzzle.count_search("auto")
    assert (raw, distinct) == (8, 2)


@pytest.mark.parametrize(
    ("n", "raw", "distinct"),
    [(1, 1, 1), (2, 0, 0), (3, 0, 0), (4, 2, 1), (5, 10, 2), (6, 4, 1), (7, 40, 6), (8, 92, 12)],
)
def test_queens(n, raw, distinct):
    puzzle = QueensPuzzle(f"queens-{n}", n)
    assert puzzle.count_search("reference")[:2] == (raw, distinct)
    assert len(list(puzzle.distinct_solutions(engine="reference"))) == distinct
    if n <= 6:
        assert oracle.queens(n) == (raw, distinct)


@st.composite
def edge_matching(draw):
    rows, cols = draw(st.sampled_from([(1, 2), (2, 1), (2, 2), (2, 2), (1, 3), (1, 1)]))
    labels = draw(st.sampled_from([["x"], ["x", "y"], ["x", "y", "z"], ["p1", "p2"]]))
    cards = {}
    for i in range(rows * cols):  # symmetric cards make symmetric anchors and solutions
        a, b, c, d = (draw(st.sampled_from(labels)) for _ in range(4))
        cards[str(i + 1)] = draw(st.sampled_from([(a, b, c, d), (a, b, a, b), (a, a, a, a)]))
    complements = {"p1": "p2", "p2": "p1"} if labels == ["p1", "p2"] and draw(st.booleans()) else {}
    border = draw(st.sampled_from([None, labels[0]]))
    return rows, cols, cards, draw(st.booleans()), complements, border


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(case=edge_matching())
def test_edge_matching_counts_match_brute_force(case):
    rows, cols, cards, rotate, complements, border = case
    puzzle = EdgeMatchingPuzzle(
        "random", rows, cols, cards, rotate=rotate, complements=complements, border=border
    )
    assert puzzle.count_search("reference")[:2] == oracle.edge_matching(
        rows, cols, cards, rotate, complements, border
    ), case


def test_identical_cards_are_symmetric_solutions():
    """Four blank cards on 2x2: 4! placements, one shape; turning the board maps the
    arrangement of names, so the distinct count is 24 / 4 = 6."""
    cards = {str(i): ("x", "x", "x", "x") for i in range(4)}
    puzzle = EdgeMatchingPuzzle("blank", 2, 2, cards)
    assert puzzle.count_search("reference")[:2] == (24, 6)
    assert oracle.edge_matching(2, 2, cards) == (24, 6)


def test_group_elements_that_move_nothing_collapse():
    """On a one-cell board every board symmetry fixes every option: the group is trivial."""
    puzzle = PolyominoPuzzle("dot", {(0, 0): "#"}, [Piece("A", _shape({(0, 0)}))])
    assert len(puzzle.board_symmetries()) == 8
    assert puzzle.symmetries.tolist() == [[0]]
    assert puzzle.count_search("reference")[:2] == (1, 1)


def _shape(cells):
    from puzzlebox.geometry import Shape

    return Shape.from_cells(cells)
