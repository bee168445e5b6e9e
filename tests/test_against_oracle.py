"""Random small puzzles, written as TOML, solved by puzzlebox and by an independent oracle."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import oracle
from puzzlebox.formats import read_text

ENGINES = ["reference", "auto"]


@st.composite
def polyomino(draw, colors: bool = False):
    rows = draw(st.integers(1, 4))
    cols = draw(st.integers(1, 4))
    palette = "ab" if colors else "#"
    board = {}
    for r in range(rows):
        for c in range(cols):
            if draw(st.integers(0, 5)) > 0:  # about one cell in six is a hole
                board[(r, c)] = draw(st.sampled_from(palette))
    if not board:
        board[(0, 0)] = palette[0]
    pieces = []
    for i in range(draw(st.integers(1, 3))):
        size = draw(st.integers(1, 4))
        cells = {(0, 0)}
        while len(cells) < size:
            r, c = draw(st.sampled_from(sorted(cells)))
            dr, dc = draw(st.sampled_from([(0, 1), (1, 0), (0, -1), (-1, 0)]))
            cells.add((r + dr, c + dc))
        shape = {cell: draw(st.sampled_from(palette)) for cell in cells}
        count = draw(st.sampled_from([1, 2, 3, [0, 1], [1, 2], [0, 3], "any"]))
        pieces.append((f"P{i}", shape, count))
    rules = {
        "rotate": draw(st.booleans()),
        "reflect": draw(st.booleans()),
        "match_colors": colors,
    }
    return board, pieces, rules


def grid_text(cells: dict) -> str:
    r0 = min(r for r, _ in cells)
    c0 = min(c for _, c in cells)
    rows = max(r for r, _ in cells) - r0 + 1
    cols = max(c for _, c in cells) - c0 + 1
    return "/".join(
        "".join(cells.get((r0 + r, c0 + c), ".") for c in range(cols)) for r in range(rows)
    )


def to_toml(board, pieces, rules) -> str:
    lines = [f'[board]\ngrid = "{grid_text(board)}"', "[pieces]"]
    for name, shape, count in pieces:
        shown = f'"{count}"' if isinstance(count, str) else str(count)
        lines.append(f'{name} = {{ shape = "{grid_text(shape)}", count = {shown} }}')
    lines.append("[rules]")
    lines += [f"{k} = {str(v).lower()}" for k, v in rules.items()]
    return "\n".join(lines)


def bounds(count):
    if count == "any":
        return 0, None
    if isinstance(count, list):
        return tuple(count)
    return count, count


def check_polyomino(board, pieces, rules, engine):
    r0 = min(r for r, _ in board)
    c0 = min(c for _, c in board)
    board = {(r - r0, c - c0): k for (r, c), k in board.items()}  # as the grid draws it
    toml = to_toml(board, pieces, rules)
    if max(len(s) for _, s, _ in pieces) > len(board):
        return  # the reader rejects a piece larger than the board; tested elsewhere
    puzzle = read_text(toml, "<random>", "random").puzzles[0]
    # the oracle's placements start from the grid as drawn (the reader normalises pieces)
    specs = [
        (name, {(r, c): k for (r, c), k in shape.items()}, *bounds(count))
        for name, shape, count in pieces
    ]
    expected = oracle.polyomino_solutions(board, specs, **_rule_args(rules))
    maps = oracle.board_symmetries(board, specs, **_rule_args(rules))
    result = puzzle.count(engine=engine)
    assert result.solutions == len(expected), toml
    assert result.distinct == oracle.distinct(expected, maps), toml
    found = {
        frozenset((p.piece, frozenset(p.cells)) for p in sol.placements)
        for sol in puzzle.solutions(engine=engine)
    }
    assert found == expected, toml


def _rule_args(rules):
    return {k: rules[k] for k in ("rotate", "reflect", "match_colors")}


# the polyomino and queens checks run with the C kernels and with numba's (tests/conftest.py)
@pytest.mark.usefixtures("kernels")
@pytest.mark.parametrize("engine", ENGINES)
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(case=polyomino())
def test_polyomino_matches_oracle(engine, case):
    check_polyomino(*case, engine)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(case=polyomino())
def test_memo_counts_match_oracle(case):
    """The memo engine's sweep (its numpy layer, engine/memo.py) counts as the oracle does,
    up to symmetry too (Burnside's sweeps)."""
    board, pieces, rules = case
    r0 = min(r for r, _ in board)
    c0 = min(c for _, c in board)
    board = {(r - r0, c - c0): k for (r, c), k in board.items()}
    if max(len(s) for _, s, _ in pieces) > len(board):
        return
    puzzle = read_text(to_toml(board, pieces, rules), "<random>", "random").puzzles[0]
    specs = [(name, dict(shape), *bounds(count)) for name, shape, count in pieces]
    expected = oracle.polyomino_solutions(board, specs, **_rule_args(rules))
    maps = oracle.board_symmetries(board, specs, **_rule_args(rules))
    result = puzzle.count(engine="memo")
    assert result.solutions == len(expected)
    assert result.distinct == oracle.distinct(expected, maps)


@pytest.mark.usefixtures("kernels")
@pytest.mark.parametrize("engine", ENGINES)
@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(case=polyomino(colors=True))
def test_coloured_polyomino_matches_oracle(engine, case):
    check_polyomino(*case, engine)


@st.composite
def edge_matching(draw):
    rows, cols = draw(st.sampled_from([(1, 2), (2, 1), (2, 2), (1, 3), (3, 1)]))
    labels = draw(st.sampled_from([["x", "y"], ["x", "y", "z"], ["p1", "p2", "c1", "c2"]]))
    cards = {
        str(i + 1): tuple(draw(st.sampled_from(labels)) for _ in range(4))
        for i in range(rows * cols)
    }
    complements = {"p1": "p2", "c1": "c2"} if labels[0] == "p1" and draw(st.booleans()) else {}
    border = draw(st.sampled_from([None, labels[0]]))
    rotate = draw(st.booleans())
    return rows, cols, cards, rotate, complements, border


@pytest.mark.parametrize("engine", ENGINES)
@settings(max_examples=50, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(case=edge_matching())
def test_edge_matching_matches_oracle(engine, case):
    rows, cols, cards, rotate, complements, border = case
    lines = ['kind = "edge-matching"', "[board]", f"rows = {rows}", f"cols = {cols}"]
    if border is not None:
        lines.append(f'border = "{border}"')
    lines.append("[cards]")
    lines += [f'{name} = "{" ".join(labels)}"' for name, labels in cards.items()]
    lines += ["[rules]", f"rotate = {str(rotate).lower()}"]
    if complements:
        lines.append("[rules.complements]")
        lines += [f'{a} = "{b}"' for a, b in complements.items()]
    toml = "\n".join(lines)
    puzzle = read_text(toml, "<random>", "random").puzzles[0]
    result = puzzle.count(engine=engine)
    comp = {**complements, **{b: a for a, b in complements.items()}}
    expected = oracle.edge_matching(rows, cols, cards, rotate, comp, border)
    assert (result.solutions, result.distinct) == expected, toml


@pytest.mark.usefixtures("kernels")
@pytest.mark.parametrize("n", range(1, 8))
def test_queens_match_oracle(n):
    puzzle = read_text(f'kind = "queens"\nn = {n}', "<q>", f"queens-{n}").puzzles[0]
    result = puzzle.count()
    assert (result.solutions, result.distinct) == oracle.queens(n)
