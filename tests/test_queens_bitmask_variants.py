"""The queens-bitmask engine on every queens variant (#38 item 15): holes and givens that keep
any part of the square's symmetry (or none), and the torus, with or without holes.

Counts against OEIS (A051906 toroidal queens, A000170 queens), and hypothesis property
tests against the reference engine (plain Python, its distinct count by symmetry breaking)
on random small variants, with the C kernels and numba's; split subproblems (leaders of
their orbits under the board's own group) against the whole board's Burnside count.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from tests import oracle
from tests.test_queens_variants import toml  # the variants' file text, written once

import puzzlebox
from puzzlebox.engine import kernel_choice, queens_bitmask
from puzzlebox.engine.search import Job, Mode, count_all

BOTH = pytest.mark.usefixtures("each_kernels")

# OEIS A051906: n nonattacking queens on an n x n toroidal board, n = 1..17
TORUS = [1, 0, 0, 0, 10, 0, 28, 0, 0, 0, 88, 0, 4524, 0, 0, 0, 140692]



def bitmask_counts(puzzle, max_nodes: int = 1 << 20) -> tuple[int, int]:
    """(raw, distinct) of the bitmask engine's search of the whole puzzle, in steps."""
    job = Job(puzzle.problem, Mode.COUNT)
    assert queens_bitmask.accepts(job) is None
    raw, distinct = count_all(queens_bitmask.QueensSearch(job), max_nodes=max_nodes)
    return raw, distinct


@BOTH
@pytest.mark.parametrize("n", range(1, 18))
def test_toroidal_counts_match_oeis_a051906(n):
    if n in (16, 17) and kernel_choice.backend() != kernel_choice.C:
        pytest.skip("numba's kernels: the shorter ones suffice")
    raw, distinct = bitmask_counts(puzzlebox.loads(toml(n, torus=True)))
    assert raw == TORUS[n - 1]
    assert (distinct == 0) == (raw == 0)


def test_toroidal_distinct_counts_match_the_general_engine():
    for n, published in ((11, 88), (13, 4524)):
        puzzle = puzzlebox.loads(toml(n, torus=True))
        general = puzzle.count(engine="compiled")
        assert (general.solutions, general.distinct) == (published, bitmask_counts(puzzle)[1])


def test_auto_counts_a_torus_and_holes_with_the_bitmask_engine():
    for text in (toml(13, torus=True), toml(9, holes=frozenset({(0, 1), (4, 7)})),
                 toml(9, givens=((2, 3),)), toml(11, torus=True, holes=frozenset({(3, 3)}))):
        assert "queens-bitmask" in str(puzzlebox.loads(text).count())


@st.composite
def variants(draw, sizes=(1, 8)):
    n = draw(st.integers(*sizes))
    torus = draw(st.booleans())
    squares = [(r, c) for r in range(n) for c in range(n)]
    holes = frozenset(draw(st.lists(st.sampled_from(squares), max_size=n)))
    free = [s for s in squares if s not in holes]
    givens = tuple(dict.fromkeys(draw(st.lists(st.sampled_from(free), max_size=2)))) \
        if free else ()
    symmetric = draw(st.booleans())  # holes closed under a map, so that groups vary
    if symmetric and holes:
        k = draw(st.integers(1, 7))
        holes = holes | {queens_bitmask._square_map(n, k, r, c) for r, c in holes}
        givens = tuple(g for g in givens if g not in holes)
    if len(holes) == n * n:  # a board needs a square
        holes = frozenset()
    return n, torus, holes, givens


@BOTH
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow,
          HealthCheck.function_scoped_fixture])  # fmt: skip
@given(variants())
def test_variants_match_the_reference_engine(case):
    n, torus, holes, givens = case
    puzzle = puzzlebox.loads(toml(n, torus, holes, givens))
    if puzzle.impossibility() is not None:
        return
    reference = puzzle.count(engine="reference")
    assert bitmask_counts(puzzle, max_nodes=97) == (reference.solutions, reference.distinct)


@BOTH
@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow,
          HealthCheck.function_scoped_fixture])  # fmt: skip
@given(variants(sizes=(4, 7)))
def test_variants_match_a_brute_force(case):
    n, torus, holes, givens = case
    puzzle = puzzlebox.loads(toml(n, torus, holes, givens))
    if puzzle.impossibility() is not None:
        return
    assert bitmask_counts(puzzle) == oracle.queens_variant(n, torus, holes, givens)


@BOTH
@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow,
          HealthCheck.function_scoped_fixture])  # fmt: skip
@given(variants(sizes=(5, 9)), st.integers(0, 3))
def test_split_subproblems_add_up_to_the_whole_board(case, depth):
    """A subproblem counts the leaders of their orbits under the board's own group (a
    subgroup of the square's eight where holes break it): the subproblems' raw and distinct
    counts add up to the whole board's Burnside count; a torus is not cut."""
    n, torus, holes, givens = case
    puzzle = puzzlebox.loads(toml(n, torus, holes, givens))
    if puzzle.impossibility() is not None:
        return
    job = Job(puzzle.problem, Mode.COUNT)
    subs = queens_bitmask.frontier(job, depth)
    if torus:
        assert subs == [((), ())]
    total = [0, 0]
    for forced, excluded in subs:
        search = queens_bitmask.QueensSearch(Job(puzzle.problem, Mode.COUNT, forced, excluded))
        raw, distinct = count_all(search)
        total[0] += raw
        total[1] += distinct
    assert tuple(total) == bitmask_counts(puzzle)


def test_a_torus_with_forced_options_is_declined():
    puzzle = puzzlebox.loads(toml(7, torus=True))
    reason = queens_bitmask.accepts(Job(puzzle.problem, Mode.COUNT, (0,), ()))
    assert reason is not None and "whole" in reason


def test_random_holes_on_bigger_boards_match_the_compiled_engine():
    rng = random.Random(38)
    for n, torus in ((10, False), (11, True), (12, False)):
        squares = [(r, c) for r in range(n) for c in range(n)]
        holes = frozenset(rng.sample(squares, n))
        puzzle = puzzlebox.loads(toml(n, torus, holes))
        general = puzzle.count(engine="compiled")
        assert bitmask_counts(puzzle) == (general.solutions, general.distinct)


@pytest.mark.parametrize("text", [
    toml(11, torus=True),
    toml(10, holes=frozenset({(0, 1), (2, 5), (7, 8)})),
    toml(10, givens=((0, 2),)),
    toml(10, holes=frozenset({(0, 0), (0, 9), (9, 0), (9, 9), (4, 1)})),
])
def test_a_split_run_counts_the_variants_as_one_search_does(tmp_path, text):
    """The run layer's split (this process and one worker): the torus is one task, the
    other boards are cut by rows and count leaders under their own groups."""
    from puzzlebox.parallel import SplitRun
    from puzzlebox.run.choice import split_spec

    path = tmp_path / "q.toml"
    path.write_text(text)
    one = puzzlebox.loads(text).count()
    with SplitRun(puzzlebox.load_file(str(path)), jobs=2, split_depth=2,
                  choose=split_spec) as run:
        result = run.count()
    assert (result.solutions, result.distinct) == (one.solutions, one.distinct)
    assert "queens-bitmask" in str(one)
