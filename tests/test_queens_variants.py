"""The queens variants a puzzle hunt uses (#27): toroidal queens, holes, given queens.

Counts against OEIS A051906 and against a brute force over permutations
(tests/oracle.py's ``queens_variant``), through every door the kind has: the library, the
command line and the reader's one-line errors.
"""

from __future__ import annotations

import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from tests import oracle

import puzzlebox
from puzzlebox.cli import main
from puzzlebox.engine import queens_bitmask
from puzzlebox.engine.search import Job, Mode


def toml(n: int, torus: bool = False, holes=frozenset(), givens=()) -> str:
    lines = ['kind = "queens"', f"n = {n}"]
    if torus:
        lines.append("torus = true")
    if holes:
        rows = ["".join("." if (r, c) in holes else "#" for c in range(n)) for r in range(n)]
        lines.append('board = """\n' + "\n".join(rows) + '\n"""')
    if givens:
        lines.append(f"givens = {[list(g) for g in givens]}")
    return "\n".join(lines) + "\n"


@pytest.mark.parametrize("n,published", [(4, 0), (5, 10), (6, 0), (7, 28), (11, 88)])
def test_toroidal_queens_match_oeis_a051906(n, published):
    result = puzzlebox.loads(toml(n, torus=True)).count()
    assert result.solutions == published


def test_toroidal_queens_catalog_entry_counts_4524_on_13():
    assert puzzlebox.load("queens-13-torus").count().solutions == 4524


@st.composite
def variants(draw):
    n = draw(st.integers(4, 7))
    torus = draw(st.booleans())
    squares = [(r, c) for r in range(n) for c in range(n)]
    holes = frozenset(draw(st.lists(st.sampled_from(squares), max_size=n)))
    free = [s for s in squares if s not in holes]
    givens = tuple(dict.fromkeys(draw(st.lists(st.sampled_from(free), max_size=2))))
    return n, torus, holes, givens


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(variants())
def test_variants_match_a_brute_force(case):
    n, torus, holes, givens = case
    result = puzzlebox.loads(toml(n, torus, holes, givens)).count()
    assert (result.solutions, result.distinct) == oracle.queens_variant(n, torus, holes, givens)


def test_every_solution_holds_the_givens_and_avoids_the_holes():
    holes, givens = frozenset({(0, 0), (3, 4)}), ((1, 2),)
    puzzle = puzzlebox.loads(toml(6, holes=holes, givens=givens))
    solutions = list(puzzle.solutions())
    assert len(solutions) == oracle.queens_variant(6, False, holes, givens)[0] > 0
    for s in solutions:
        assert set(givens) <= set(s.queens) and not holes & set(s.queens)


def test_symmetric_holes_are_counted_by_the_bitmask_engine_and_agree_with_the_brute_force():
    holes = frozenset({(2, 2), (2, 5), (5, 2), (5, 5)})  # kept by all eight maps
    puzzle = puzzlebox.loads(toml(8, holes=holes))
    assert queens_bitmask.accepts(Job(puzzle.problem, Mode.COUNT)) is None
    result = puzzle.count()
    assert "queens-bitmask" in str(result)
    assert (result.solutions, result.distinct) == oracle.queens_variant(8, False, holes) == (76, 10)


def test_holes_that_break_the_symmetry_are_counted_by_the_bitmask_engine_too():
    # #38: Burnside over the maps that keep the squares (here only the identity)
    holes = frozenset({(0, 1)})
    puzzle = puzzlebox.loads(toml(6, holes=holes))
    assert queens_bitmask.accepts(Job(puzzle.problem, Mode.COUNT)) is None
    result = puzzle.count()
    assert "queens-bitmask" in str(result)
    assert (result.solutions, result.distinct) == oracle.queens_variant(6, False, holes)


def test_a_torus_is_counted_by_the_bitmask_engine():
    puzzle = puzzlebox.loads(toml(7, torus=True))
    assert queens_bitmask.accepts(Job(puzzle.problem, Mode.COUNT)) is None
    result = puzzle.count()
    assert "queens-bitmask" in str(result) and (result.solutions, result.distinct) == (28, 1)


def test_givens_that_attack_each_other_are_proved_impossible_without_search(capsys, tmp_path):
    path = tmp_path / "q.toml"
    path.write_text(toml(8, givens=((0, 0), (3, 3))))
    assert main(["count", str(path), "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["solutions"] == 0
    assert "[0, 0] and [3, 3] share a diagonal" in json.dumps(out)


def test_on_a_torus_a_diagonal_wraps_around_the_edge():
    puzzle = puzzlebox.loads(toml(5, torus=True, givens=((0, 0), (1, 4))))
    assert "share a diagonal" in (puzzle.impossibility() or "")
    plain = puzzlebox.loads(toml(5, givens=((0, 0), (1, 4))))
    assert plain.impossibility() is None


def test_a_row_of_holes_is_proved_impossible():
    holes = frozenset((2, c) for c in range(5))
    proof = puzzlebox.loads(toml(5, holes=holes)).impossibility()
    assert "row 3 has no square left" in (proof or "")


def test_text_shows_queens_holes_and_givens():
    puzzle = puzzlebox.loads(toml(4, holes=frozenset({(0, 0)}), givens=((0, 1),)))
    assert str(puzzle).splitlines()[1:] == [
        "  Q . .", ". . . .", ". . . .", ". . . .",
    ]
    solution = puzzle.solve()
    assert solution is not None and str(solution).splitlines()[0] == "  Q . ."


@pytest.mark.parametrize("text,where,what", [
    ('kind = "queens"\nn = 4\ngivens = [[0, 4]]\n', ":3:", "outside the 4 x 4 board"),
    ('kind = "queens"\nn = 4\ngivens = [[0, 1], [0, 1]]\n', ":3:", "given twice"),
    ('kind = "queens"\nn = 4\ngivens = [["a", 1]]\n', ":3:", "[row, col] pair of integers"),
    ('kind = "queens"\nn = 4\ngivens = "0,1"\n', ":3:", "array of [row, col] pairs"),
    ('kind = "queens"\nn = 3\nboard = "####"\n', ":3:", "outside the 3 x 3 board"),
    ('kind = "queens"\nn = 3\nboard = ".##/###/###"\ngivens = [[0, 0]]\n', ":4:", "is a hole"),
    ('kind = "queens"\nn = 3\ntorus = "yes"\n', ":3:", "true or false"),
])
def test_bad_variants_get_one_line_and_status_2(tmp_path, capsys, text, where, what):
    path = tmp_path / "bad.toml"
    path.write_text(text)
    assert main(["count", str(path)]) == 2
    err = capsys.readouterr().err.strip()
    assert err.count("\n") == 0 and where in err and what in err, err
