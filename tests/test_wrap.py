"""Boards that wrap (#27 item 1): tubes and tori, `[board] wrap` (puzzle-format.md).

* Published counts (Polyform Puzzler's docs): the five tetrominoes around a 5x4 tube, 7
  distinct; the twelve pentominoes around a 3x20 ring, 2 distinct. Both as ``distinct`` up
  to the wrapped board's whole group (turns about the axis, mirrors, the end swap), and as
  placed (the published figure times the group's order: no solution is mapped onto itself).
  The 3x20 tube, whose published list is marked incomplete: 48,928 (slow: the memo sweep).
* An independent brute force (below: its own folding, its own placements, its own
  backtracking and its own formula for the symmetries of a tube or torus, nothing of
  puzzlebox but the count it is compared with) on tiny tubes and tori tiled by dominoes
  and trominoes, boards drawn by hypothesis.
* The reader's refusals (one line each), the proofs (checkerboard only where the seam keeps
  it), the neighbours across the seam, every engine agreeing, and the drawings' seam marks.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

import puzzlebox
from puzzlebox import catalog
from puzzlebox.formats.errors import PuzzleFileError

Cell = tuple[int, int]

PUBLISHED = {  # catalog name: (distinct, as placed, order of the board's group)
    "tetrominoes-5x4-tube": (7, 140, 20),
    "pentomino-3x20-ring": (2, 160, 80),
}


# -- the brute force ------------------------------------------------------------------------
D4 = [lambda r, c: (r, c), lambda r, c: (c, -r), lambda r, c: (-r, -c), lambda r, c: (-c, r),
      lambda r, c: (r, -c), lambda r, c: (-c, -r), lambda r, c: (-r, c), lambda r, c: (c, r)]


def _fold(cell: Cell, rows: int, cols: int, wrap: str) -> Cell | None:
    r, c = cell
    if wrap in ("top-bottom", "both"):
        r %= rows
    if wrap in ("left-right", "both"):
        c %= cols
    return (r, c) if 0 <= r < rows and 0 <= c < cols else None


def _placements(shape: list[Cell], rows: int, cols: int, wrap: str) -> set[frozenset[Cell]]:
    """Every cell set a free piece covers on the board: each of the 8 maps, each anchor in
    a window one period wider than the board, folded; none covering a cell twice."""
    found = set()
    for f in D4:
        moved = [f(r, c) for r, c in shape]
        r0, c0 = min(r for r, _ in moved), min(c for _, c in moved)
        for dr in range(-rows, rows + 1):
            for dc in range(-cols, cols + 1):
                cells = [_fold((r - r0 + dr, c - c0 + dc), rows, cols, wrap) for r, c in moved]
                if None in cells or len(set(cells)) != len(cells):
                    continue
                found.add(frozenset(cells))  # type: ignore[arg-type]
    return found


def _tilings(rows: int, cols: int, wrap: str, pieces: dict[str, list[Cell]]
             ) -> list[frozenset[tuple[str, frozenset[Cell]]]]:
    """Every tiling of the board by any number of each piece (copies alike)."""
    options = [(name, p) for name, shape in pieces.items()
               for p in _placements(shape, rows, cols, wrap)]
    board = [(r, c) for r in range(rows) for c in range(cols)]
    out = []

    def walk(covered: set[Cell], chosen: list[tuple[str, frozenset[Cell]]]) -> None:
        free = next((cell for cell in board if cell not in covered), None)
        if free is None:
            out.append(frozenset(chosen))  # copies of a piece: a set of placements
            return
        for name, cells in options:
            if free in cells and not cells & covered:
                chosen.append((name, cells))
                walk(covered | cells, chosen)
                chosen.pop()

    walk(set(), [])
    return out


def _board_maps(rows: int, cols: int, wrap: str) -> Iterator[dict[Cell, Cell]]:
    """The symmetries of a rows x cols tube or torus, by formula: each coordinate that wraps
    may be turned (any shift) and reversed, one that does not only reversed; on a square
    torus the two coordinates may also be exchanged."""
    def axis(n: int, wraps: bool) -> list:
        if wraps:
            return [lambda v, k=k, s=s: (s * v + k) % n for k in range(n) for s in (1, -1)]
        return [lambda v: v, lambda v: n - 1 - v]

    rmaps = axis(rows, wrap in ("top-bottom", "both"))
    cmaps = axis(cols, wrap in ("left-right", "both"))
    seen = set()
    for fr, fc in itertools.product(rmaps, cmaps):
        for swap in ((False, True) if wrap == "both" and rows == cols else (False,)):
            m = {(r, c): ((fc(c), fr(r)) if swap else (fr(r), fc(c)))
                 for r in range(rows) for c in range(cols)}
            key = tuple(sorted(m.items()))
            if key not in seen:
                seen.add(key)
                yield m


def _brute(rows: int, cols: int, wrap: str, pieces: dict[str, list[Cell]]) -> tuple[int, int]:
    tilings = _tilings(rows, cols, wrap, pieces)
    maps = list(_board_maps(rows, cols, wrap))
    classes = {min(tuple(sorted((n, tuple(sorted(m[c] for c in cells))) for n, cells in t))
                   for m in maps) for t in tilings}
    return len(tilings), len(classes)


def _toml(rows: int, cols: int, wrap: str, pieces: dict[str, str]) -> str:
    grid = "/".join("#" * cols for _ in range(rows))
    lines = ["[board]", f'grid = "{grid}"', f'wrap = "{wrap}"', "[pieces]"]
    lines += [f'{name} = {{ shape = "{shape}", count = "any" }}' for name, shape in
              pieces.items()]
    return "\n".join(lines) + "\n"


SHAPES = {"D": ("##", [(0, 0), (0, 1)]), "I": ("###", [(0, 0), (0, 1), (0, 2)]),
          "L": ("##/#.", [(0, 0), (0, 1), (1, 0)])}
WRAPS = ("left-right", "top-bottom", "both")


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(rows=st.integers(1, 4), cols=st.integers(1, 4), wrap=st.sampled_from(WRAPS),
       names=st.sets(st.sampled_from(sorted(SHAPES)), min_size=1))
def test_tiny_wrapped_boards_match_the_brute_force(rows: int, cols: int, wrap: str,
                                                   names: set[str]) -> None:
    pieces = {n: SHAPES[n] for n in sorted(names)}
    assume(rows * cols >= max(len(cells) for _, cells in pieces.values()))  # the reader's rule
    puzzle = puzzlebox.loads(_toml(rows, cols, wrap, {n: s for n, (s, _) in pieces.items()}))
    result = puzzle.count(engine="reference")
    assert (result.solutions, result.distinct) == _brute(
        rows, cols, wrap, {n: cells for n, (_, cells) in pieces.items()})


@pytest.mark.parametrize("rows, cols, wrap, names, expected", [
    # by hand: 3 round, so no row is all across; all upright (1), or one upright domino and
    # two across (3, one per column): 4, in 2 classes under the tube's turns
    (2, 3, "left-right", "D", (4, 2)),
    (3, 3, "both", "IL", None),
    (4, 4, "both", "D", None),
    (2, 4, "top-bottom", "DL", None),
])
def test_chosen_wrapped_boards_match_the_brute_force(rows: int, cols: int, wrap: str,
                                                     names: str, expected: tuple | None) -> None:
    pieces = {n: SHAPES[n] for n in names}
    brute = _brute(rows, cols, wrap, {n: cells for n, (_, cells) in pieces.items()})
    if expected is not None:
        assert brute == expected
    puzzle = puzzlebox.loads(_toml(rows, cols, wrap, {n: s for n, (s, _) in pieces.items()}))
    assert len(puzzle.problem.items) <= puzzle.cover_entries_bound()  # placements across seams
    for engine in ("reference", "compiled", "bitboard"):
        result = puzzle.count(engine=engine)
        assert (result.solutions, result.distinct) == brute, engine


# -- the published counts --------------------------------------------------------------------
@pytest.mark.parametrize("name", sorted(PUBLISHED))
def test_published_counts(name: str) -> None:
    distinct, placed, order = PUBLISHED[name]
    puzzle = catalog.load(name)
    assert len(puzzle.symmetries) == order
    result = puzzle.count()
    assert (result.distinct, result.solutions) == (distinct, placed)


@pytest.mark.slow
def test_the_3x20_tube_is_settled() -> None:
    """Polyform Puzzler's "48,928 at least" (a list marked incomplete), settled under the
    contract's rule: exactly 48,928 up to the tube's 12 symmetries. The memo sweep (a few
    seconds) here; the bitboard and compiled engines give the same (the file's notes)."""
    puzzle = catalog.load("pentomino-3x20-tube")
    assert len(puzzle.symmetries) == 12
    result = puzzle.count(engine="memo")
    assert (result.distinct, result.solutions) == (48928, 587136)


def test_catalog_files_cite_their_source() -> None:
    for name in [*PUBLISHED, "pentomino-3x20-tube"]:
        text = catalog.path_of(name).read_text()
        assert text.startswith("# Source: Polyform Puzzler"), name
        assert "wrap = " in text


def test_the_tube_of_tetrominoes_is_not_a_rectangle() -> None:
    """Without the wrap the five tetrominoes do not fill 4x5 (the checkerboard says so);
    with it, the checkerboard (5 round: odd) is not used, and the area proof passes."""
    text = catalog.path_of("tetrominoes-5x4-tube").read_text()
    flat = puzzlebox.loads(text.replace('wrap = "left-right"', ""))
    assert flat.impossibility() is not None
    assert catalog.load("tetrominoes-5x4-tube").impossibility() is None


def test_checkerboard_holds_on_an_even_tube() -> None:
    """A 4-round tube keeps the checkerboard: the T tetromino and three squares of dominoes
    cannot fill 2 x 4 wrapped (imbalance 2 against 0); on a 3-round tube it is not used."""
    even = puzzlebox.loads('[board]\ngrid = "####/####"\nwrap = "left-right"\n[pieces]\n'
                           'T = "###/.#."\nD = { shape = "##", count = 2 }\n')
    proof = even.impossibility()
    assert proof is not None and "checkerboard" in str(proof)
    odd = puzzlebox.loads('[board]\ngrid = "###/###/###"\nwrap = "left-right"\n[pieces]\n'
                          'T = "###/.#./.#."\nD = { shape = "##", count = 2 }\n')
    assert odd.impossibility() is None or "checkerboard" not in str(odd.impossibility())


def test_neighbours_cross_the_seam() -> None:
    puzzle = puzzlebox.loads(_toml(2, 4, "left-right", {"D": "##"}))
    problem = puzzle.problem
    names = problem.item_names
    start, adj = problem.adj_start, problem.adj_items
    i = names.index(("cell", 0, 0))
    near = {names[j] for j in adj[start[i]:start[i + 1]]}
    assert near == {("cell", 0, 1), ("cell", 0, 3), ("cell", 1, 0)}


@pytest.mark.parametrize("text, message", [
    ('wrap = "sideways"', "unknown wrap 'sideways'"),
    ("wrap = 3", 'must be "left-right", "top-bottom" or "both"'),
])
def test_bad_wrap_values_are_one_line(text: str, message: str) -> None:
    with pytest.raises(PuzzleFileError, match=message) as info:
        puzzlebox.loads(f'[board]\ngrid = "##/##"\n{text}\n[pieces]\nD = "##"\n')
    assert "\n" not in str(info.value)


def test_lattices_that_cannot_wrap_are_refused() -> None:
    with pytest.raises(PuzzleFileError, match="flat lattices only"):
        puzzlebox.loads('lattice = "cube"\n[board]\ngrid = ["##", "##"]\nwrap = "both"\n'
                        '[pieces]\nD = "##"\n')
    with pytest.raises(PuzzleFileError, match="even number of columns"):
        puzzlebox.loads('lattice = "triangle"\n[board]\ngrid = "###/###"\nwrap = "left-right"\n'
                        '[pieces]\nD = "##"\n')
    tri = puzzlebox.loads('lattice = "triangle"\n[board]\ngrid = "####/####"\n'
                          'wrap = "left-right"\n[pieces]\nD = { shape = "##", count = "any" }\n')
    assert tri.count().solutions > 0


def test_drawings_mark_the_seam() -> None:
    puzzle = catalog.load("tetrominoes-5x4-tube")
    solution = puzzle.solve()
    assert solution is not None
    text = "\n".join(puzzle.text_lines(solution, "outline"))
    assert "left edge joins the right edge" in text
    crossing = [p for p in solution.placements
                if {c for _, c in p.cells} >= {0, 4}]  # a piece across the seam
    assert (":" in text) == bool(crossing)
    svg = solution.svg()
    assert "seam" in svg and "stroke-dasharray" in svg


# -- triangles and hexagons: dominoes are the perfect matchings of the wrapped grid -------------
def _matchings(cells: list[Cell], edges: set[frozenset[Cell]]) -> int:
    """Perfect matchings of a small graph, by brute force (first free cell, each partner)."""
    def walk(free: frozenset[Cell]) -> int:
        if not free:
            return 1
        first = min(free)
        return sum(walk(free - {first, other}) for other in free
                   if other != first and frozenset((first, other)) in edges)

    return walk(frozenset(cells))


def _wrapped_edges(cells: list[Cell], near, rows: int, cols: int, wrap: str
                   ) -> set[frozenset[Cell]]:
    edges = set()
    for cell in cells:
        for other in near(cell):
            folded = _fold(other, rows, cols, wrap)
            if folded is not None and folded != cell:
                edges.add(frozenset((cell, folded)))
    return edges


def _triangle_near(cell: Cell) -> list[Cell]:
    r, c = cell  # up when r + c is even: its third side is below, a down triangle's above
    return [(r, c - 1), (r, c + 1), (r + 1, c) if (r + c) % 2 == 0 else (r - 1, c)]


def _hexagon_near(cell: Cell) -> list[Cell]:
    r, q = cell
    return [(r, q - 1), (r, q + 1), (r - 1, q), (r + 1, q), (r - 1, q + 1), (r + 1, q - 1)]


@pytest.mark.parametrize("lattice, rows, cols, wrap", [
    ("triangle", 2, 4, "left-right"), ("triangle", 2, 6, "both"), ("triangle", 4, 4, "both"),
    ("triangle", 2, 4, "top-bottom"), ("hexagon", 2, 3, "left-right"),
    ("hexagon", 3, 2, "top-bottom"), ("hexagon", 2, 4, "both"), ("hexagon", 4, 3, "both"),
])
def test_dominoes_on_wrapped_triangles_and_hexagons(lattice: str, rows: int, cols: int,
                                                   wrap: str) -> None:
    cells = [(r, c) for r in range(rows) for c in range(cols)]
    near = _triangle_near if lattice == "triangle" else _hexagon_near
    expected = _matchings(cells, _wrapped_edges(cells, near, rows, cols, wrap))
    grid = "/".join("#" * cols for _ in range(rows))
    puzzle = puzzlebox.loads(f'lattice = "{lattice}"\n[board]\ngrid = "{grid}"\n'
                             f'wrap = "{wrap}"\n[pieces]\nD = {{ shape = "##", count = "any" }}\n')
    assert puzzle.count(engine="reference").solutions == expected


def test_an_outline_marks_a_piece_across_the_top_and_bottom() -> None:
    """Three rows round: each straight tromino stands upright around the tube, so the top
    and bottom borders show the seam as '.' and the columns stay apart with '|'."""
    puzzle = puzzlebox.loads(_toml(3, 2, "top-bottom", {"I": "###"}))
    solution = puzzle.solve()
    assert solution is not None
    lines = puzzle.text_lines(solution, "outline")
    assert lines[:4] == [" . . ", "| | |", "| | |", "|.|.|"]
    assert "top edge joins the bottom edge" in lines[4]
