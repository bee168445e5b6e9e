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
    from puzzlebox.catalog import load_file as load

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
    assert len(puzzle.grid_symmetries()) == 8
    assert puzzle.symmetries.tolist() == [[0]]
    assert puzzle.count_search("reference")[:2] == (1, 1)


def _shape(cells):
    from puzzlebox.geometry import Shape

    return Shape.from_cells(cells)


# -- symmetries that exchange pieces (puzzle-format.md: "A symmetry may exchange ...") ------
def _turn(cells: set[Cell]) -> set[Cell]:
    return {(c, -r) for r, c in cells}


def _mirror(cells: set[Cell]) -> set[Cell]:
    return {(r, -c) for r, c in cells}


@st.composite
def exchanging_polyomino(draw):
    """Pieces in pairs a symmetry may exchange: a shape and its mirror image (one-sided
    sets, rotate without reflect) or its quarter turn (rotate = false), with equal counts;
    sometimes a third piece of the first one's shape, which must never be exchanged."""
    rotate, reflect = draw(st.sampled_from([(True, False), (False, False), (False, True)]))
    R = draw(st.integers(1, 4))
    C = draw(st.sampled_from([R, R, R, draw(st.integers(1, 4))]))
    board = {
        (r, c): "#" for r in range(R) for c in range(C) if draw(st.integers(0, 9)) > 0
    }
    # mostly a board that the exchanging maps keep (mirrors, or quarter turns)
    likely = [["mirror"], ["transpose"], ["anti"]] if rotate else [["r90"], ["r90", "mirror"]]
    group = draw(st.sampled_from(likely + likely + _SUBGROUPS))
    board = _symmetrize(board or {(0, 0): "#"}, R, C, group)
    size = draw(st.sampled_from([1, 2, 3, 3, 4, 4]))  # monominoes exchange nothing
    cells = {(0, 0)}
    while len(cells) < size:
        r, c = draw(st.sampled_from(sorted(cells)))
        dr, dc = draw(st.sampled_from([(0, 1), (1, 0), (0, -1), (-1, 0)]))
        cells.add((r + dr, c + dc))
    twin = _mirror(cells) if rotate else _turn(cells)
    lo, hi = draw(st.sampled_from([(1, 1), (0, 1), (2, 2), (0, None), (1, 2)]))
    if hi is None and size == 1:
        lo, hi = 1, 1  # monominoes in any number: 2**cells tilings, too many to list
    pieces = [("A", {x: "#" for x in cells}, lo, hi), ("B", {x: "#" for x in twin}, lo, hi)]
    bounded = hi is not None  # (unbounded pieces with a filler: too many tilings to list)
    if bounded and draw(st.integers(0, 3)) == 0:  # A's shape, another name: never exchanged
        pieces.append(("C", {x: "#" for x in cells}, lo, hi))
    if bounded and len(board) <= 9 and draw(st.integers(0, 2)) > 0:  # (bigger: too many)
        pieces.append(("M", {(0, 0): "#"}, 0, None))  # a filler makes most boards solvable
    return board, pieces, rotate, reflect, False


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(case=exchanging_polyomino())
def test_exchanging_pieces_counts_match_brute_force(case):
    _check_polyomino(case)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(case=exchanging_polyomino())
def test_exchanging_pieces_every_engine_and_memo(case):
    """The same counts through "auto" (memo sweeps where it can, with symmetries that
    exchange counters) and through a forced memo sweep where the problem allows one."""
    board, pieces, rotate, reflect, colors = case
    puzzle = _puzzle(*case)
    expected = oracle.polyomino_solutions(board, pieces, rotate, reflect, colors)
    distinct = oracle.distinct(expected, oracle.board_symmetries(*case))
    result = puzzle.count()
    assert (result.solutions, result.distinct) == (len(expected), distinct), case
    from puzzlebox.engine.memo import MemoDeclined

    try:
        memo = puzzle.count(engine="memo")
    except MemoDeclined:
        return
    assert (memo.solutions, memo.distinct) == (len(expected), distinct), case


def _pair_puzzle(board: dict[Cell, str], pieces: dict[str, str], count=1, **rules):
    from puzzlebox.geometry import Shape, parse_grid

    return PolyominoPuzzle(
        "pairs",
        board,
        [
            Piece(name, Shape.from_cells(parse_grid(grid)[0]), *count)
            if isinstance(count, tuple)
            else Piece(name, Shape.from_cells(parse_grid(grid)[0]), count, count)
            for name, grid in pieces.items()
        ],
        **rules,
    )


def test_a_quarter_turn_exchanges_h_and_v():
    """h = "##" and v = "#/#", rotate = false, any number of each, on a 2x2 square: two
    tilings (two h, two v), one up to the quarter turn that exchanges h and v."""
    square = {(r, c): "#" for r in range(2) for c in range(2)}
    puzzle = _pair_puzzle(square, {"h": "##", "v": "#/#"}, (0, None), rotate=False,
                          reflect=False)
    assert len(puzzle.symmetries) == 8
    assert (puzzle.count().solutions, puzzle.count().distinct) == (2, 1)
    assert puzzle.count_search("reference")[:2] == (2, 1)
    # on a 2x3 rectangle no quarter turn maps the board: only the half turn and mirrors,
    # which keep h and v; three tilings, two up to symmetry (hhh is mapped to itself)
    oblong = {(r, c): "#" for r in range(2) for c in range(3)}
    puzzle = _pair_puzzle(oblong, {"h": "##", "v": "#/#"}, (0, None), rotate=False,
                          reflect=False)
    assert puzzle.count_search("reference")[:2] == (3, 2)


def test_only_pieces_of_equal_counts_exchange():
    """h and v once each on a 2x2 square: the quarter turns exchange them (8 symmetries);
    with different counts they do not (4: the half turn and the two mirrors and itself)."""
    square = {(r, c): "#" for r in range(2) for c in range(2)}
    equal = _pair_puzzle(square, {"h": "##", "v": "#/#"}, 1, rotate=False, reflect=False)
    assert len(equal.symmetries) == 8
    unequal = PolyominoPuzzle(
        "pairs", square,
        [Piece("h", _shape({(0, 0), (0, 1)}), 1, 1), Piece("v", _shape({(0, 0), (1, 0)}), 0, 2)],
        rotate=False, reflect=False,
    )  # fmt: skip
    assert len(unequal.symmetries) == 4  # the quarter turns and diagonals are not symmetries


def test_two_pieces_of_one_shape_are_never_exchanged():
    """A one-sided L, its mirror image and a second L: the mirror would have to send two
    pieces onto one, so it is no symmetry, and the raw/distinct counts say so."""
    board = {(r, c): "#" for r in range(3) for c in range(4)}
    puzzle = _pair_puzzle(board, {"A": "#./#./##", "B": ".#/.#/##", "C": "#./#./##"},
                          rotate=True, reflect=False)
    kept = {sym.name for sym, _, _ in puzzle.grid_symmetries()}
    assert kept == {"id", "r180"}  # the half turn keeps every piece; no mirror is left
    case = (
        board,
        [("A", {(0, 0): "#", (1, 0): "#", (2, 0): "#", (2, 1): "#"}, 1, 1),
         ("B", {(0, 1): "#", (1, 1): "#", (2, 0): "#", (2, 1): "#"}, 1, 1),
         ("C", {(0, 0): "#", (1, 0): "#", (2, 0): "#", (2, 1): "#"}, 1, 1)],
        True, False, False,
    )  # fmt: skip
    _check_polyomino(case)


ONE_SIDED = {
    "F": ".##/##./.#.", "I": "#####", "L": "####/#...", "N": "##../.###", "P": "##/##/#.",
    "T": "###/.#./.#.", "U": "#.#/###", "V": "#../#../###", "W": "#../##./.##",
    "X": ".#./###/.#.", "Y": "####/.#..", "Z": "##./.#./.##",
}  # fmt: skip
ONE_SIDED |= {
    name + "'": "/".join(row[::-1] for row in ONE_SIDED[name].split("/")) for name in "FLNPYZ"
}


@pytest.mark.slow
def test_one_sided_pentominoes_tile_3x30_in_46_ways():
    """The 18 one-sided pentominoes tile a 3x30 rectangle in 46 ways up to symmetry (a
    published figure; the mirrors exchange each piece with its mirror image), 184 as
    placed: each tiling has 4 images, none symmetric."""
    from puzzlebox.formats import read_text

    pieces = "".join(f'"{name}" = "{grid}"\n' for name, grid in ONE_SIDED.items())
    text = f'[board]\ngrid = "{"/".join(["#" * 30] * 3)}"\n[pieces]\n{pieces}'
    puzzle = read_text(text + "[rules]\nreflect = false\n", "<test>", "one-sided").puzzles[0]
    assert len(puzzle.symmetries) == 4
    result = puzzle.count()
    assert (result.solutions, result.distinct) == (184, 46)
    # a tiling and its mirror image with each piece renamed to its mirror: one orbit
    from puzzlebox.puzzles import Placement, PolyominoSolution

    first = next(puzzle.distinct_solutions())
    swap = {name: name[:-1] if name.endswith("'") else name + "'" for name in ONE_SIDED}
    mirrored = PolyominoSolution(tuple(
        Placement(swap.get(p.piece, p.piece) if p.piece in swap and swap[p.piece] in ONE_SIDED
                  else p.piece, tuple(sorted((r, 29 - c) for r, c in p.cells)))
        for p in first.placements
    ))  # fmt: skip
    assert mirrored.key() != first.key()
    assert puzzle.canonical_key(mirrored) == puzzle.canonical_key(first)


def _cells(grid: str) -> dict[Cell, str]:
    from puzzlebox.geometry import parse_grid

    return parse_grid(grid)[0]


@pytest.mark.parametrize(
    ("board", "pieces", "rotate", "reflect", "exchanged"),
    [
        # one-sided tetrominoes: L and J (mirror images) twice each, on a 4x4 square
        ("####/####/####/####", [("L", "#./#./##", 2, 2), ("J", ".#/.#/##", 2, 2)], True, False,
         True),  # fmt: skip
        # P and its mirror image twice each on 4x5
        ("#####/#####/#####/#####", [("P", "##/##/#.", 2, 2), ("Q", "##/##/.#", 2, 2)], True,
         False, True),  # fmt: skip
        # h and v dominoes, rotate = false, any number: the 36 domino tilings of 4x4
        ("####/####/####/####", [("h", "##", 0, None), ("v", "#/#", 0, None)], False, False,
         True),  # fmt: skip
        # h and v twice each and monominoes on a 3x3 square
        ("###/###/###", [("h", "##", 2, 2), ("v", "#/#", 2, 2), ("m", "#", 0, None)], False,
         False, True),  # fmt: skip
        # counts differ: h and v are not exchanged
        ("###/###/###", [("h", "##", 2, 2), ("v", "#/#", 1, 2), ("m", "#", 0, None)], False,
         False, False),  # fmt: skip
        # L, L2, J, J2: the mirror would send L onto a set two pieces have: no exchange
        ("####/####/####/####", [("L", "#./#./##", 1, 1), ("J", ".#/.#/##", 1, 1),
                                 ("L2", "#./#./##", 1, 1), ("J2", ".#/.#/##", 1, 1)], True,
         False, False),  # fmt: skip
    ],
)
def test_exchanging_pieces_known_cases(board, pieces, rotate, reflect, exchanged):
    """Fixed cases of each sort, against brute force with piece renaming, through the
    reference engine, "auto" and memo (where it sweeps)."""
    case = (_cells(board), [(n, _cells(g), lo, hi) for n, g, lo, hi in pieces], rotate,
            reflect, False)  # fmt: skip
    puzzle = _puzzle(*case)
    swaps = any(k != v for _, _, goes in puzzle.grid_symmetries() for k, v in goes.items())
    assert swaps == exchanged
    expected = oracle.polyomino_solutions(*case)
    assert expected  # every case has tilings
    _check_polyomino(case)
    distinct = oracle.distinct(expected, oracle.board_symmetries(*case))
    assert (puzzle.count().solutions, puzzle.count().distinct) == (len(expected), distinct)


def test_parallelogram_5_translated_pieces_exchange_under_the_diagonal_mirrors():
    """The 14 parallelogram polyominoes, moved but never turned, in 8x8: the set is closed
    under the diagonal mirrors and the half turn, which exchange pieces (a piece and its
    transpose). 3204 tilings as placed; the oracle de-duplicates all of them with piece
    renaming: 801 up to symmetry (puzzlebox said 3204 before pieces could be exchanged)."""
    from puzzlebox.catalog import load_file as load

    puzzle = load("parallelogram-5").puzzles[0]
    assert isinstance(puzzle, PolyominoPuzzle)
    solutions = {
        frozenset((p.piece, frozenset(p.cells)) for p in s.placements)
        for s in puzzle.solutions()
    }
    specs = [(p.name, dict(zip(p.shape.cells, p.shape.colors)), p.lo, p.hi)
             for p in puzzle.pieces]  # fmt: skip
    maps = oracle.board_symmetries(puzzle.board, specs, False, False, False)
    assert len(maps) == 4
    assert len(solutions) == 3204
    result = puzzle.count()
    assert (result.solutions, result.distinct) == (3204, oracle.distinct(solutions, maps))
    assert result.distinct == 801
