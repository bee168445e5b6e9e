"""The bitboard engine against the reference engine: same solution sets, on random puzzles."""

from __future__ import annotations

import gc
from collections.abc import Iterable

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine_runs import reference_count, reference_solutions
from puzzlebox import catalog
from puzzlebox.cover.problem import CoverBuilder, CoverProblem
from puzzlebox.engine.bitboard import BitboardEngine, ineligible
from puzzlebox.engine.registry import choose
from puzzlebox.engine.search import Job, Mode
from puzzlebox.geometry import Shape
from puzzlebox.puzzles.polyomino import Piece, PolyominoPuzzle

# every test here runs with the C kernels and with numba's (tests/conftest.py)
pytestmark = pytest.mark.usefixtures("kernels")

COUNTS = [(1, 1), (2, 2), (3, 3), (0, 1), (1, 2), (0, 3), (0, None)]


def _shape(draw: st.DrawFn, size: int, gaps: bool) -> Shape:
    cells = {(0, 0)}
    while len(cells) < size:
        r, c = draw(st.sampled_from(sorted(cells)))
        dr, dc = draw(st.sampled_from([(0, 1), (1, 0), (0, -1), (-1, 0)]))
        step = draw(st.sampled_from([1, 1, 1, 2])) if gaps else 1  # 2: not in one piece
        cells.add((r + step * dr, c + step * dc))
    return Shape.from_cells(cells)


@st.composite
def puzzles(draw: st.DrawFn) -> PolyominoPuzzle:
    """A small board with holes and a few small pieces, sometimes not in one piece; often
    all of one size (regions are then judged by divisibility) and often with one large piece
    used more than once (then the search branches on that piece's count)."""
    rows, cols = draw(st.integers(1, 5)), draw(st.integers(1, 5))
    board = {(r, c): "#" for r in range(rows) for c in range(cols) if draw(st.integers(0, 7)) > 0}
    if not board:
        board[(0, 0)] = "#"
    gaps = draw(st.integers(0, 3)) == 0
    one_size = draw(st.sampled_from([None, 2, 3]))
    pieces = []
    for i in range(draw(st.integers(1, 3))):
        size = one_size or draw(st.integers(1, 4))
        lo, hi = draw(st.sampled_from(COUNTS))
        pieces.append(Piece(f"P{i}", _shape(draw, size, gaps), lo, hi))
    if draw(st.booleans()):
        lo, hi = draw(st.sampled_from([(1, 2), (2, 2), (2, 3), (1, 3)]))
        pieces.append(Piece("big", _shape(draw, 4, gaps), lo, hi))
    return PolyominoPuzzle(
        "random", board, pieces, rotate=draw(st.booleans()), reflect=draw(st.booleans())
    )


def with_secondary(problem: CoverProblem, rng: np.random.Generator, n: int) -> CoverProblem:
    """The problem plus ``n`` uncoloured secondary items, each on a random set of options
    (as symmetry breaking adds them): options sharing one exclude each other."""
    rows = [problem.items[problem.start[k] : problem.start[k + 1]].tolist() for k in
            range(problem.n_options)]  # fmt: skip
    for s in range(n):
        for k in range(problem.n_options):
            if rng.random() < 0.3:
                rows[k].append(problem.n_items + s)
    start = np.cumsum([0] + [len(r) for r in rows]).astype(np.int64)
    items = np.array([i for r in rows for i in r], dtype=np.int64)
    return problem.replace(
        item_names=problem.item_names + tuple(("extra", s) for s in range(n)),
        start=start,
        items=items,
        colors=np.zeros(len(items), dtype=np.int64),
    )


def solution_set(solutions: Iterable[tuple[int, ...]]) -> set[tuple[int, ...]]:
    found = list(solutions)
    assert len(found) == len(set(found)), "a solution came out twice"
    return set(found)


FAST = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@FAST
@given(puzzles(), st.integers(0, 2), st.integers(0, 10**6))
def test_same_solutions_as_reference(puzzle: PolyominoPuzzle, extra: int, seed: int) -> None:
    problem = with_secondary(puzzle.problem, np.random.default_rng(seed), extra)
    assert ineligible(problem) is None
    expected = solution_set(reference_solutions(problem))
    for prune, rows in ((1, True), (0, True), (1, False)):
        engine = BitboardEngine(problem, prune=prune, conflict_rows=rows)
        assert solution_set(engine.solutions()) == expected
        assert engine.stats.complete
        assert BitboardEngine(problem, prune=prune, conflict_rows=rows).count() == len(expected)
    for chosen in expected:
        assert problem.is_solution(chosen)
    if all(problem.lo <= 1):  # the same tree as the reference engine: the same first solution
        assert BitboardEngine(problem).first() == next(reference_solutions(problem, limit=1), None)


@FAST
@given(puzzles(), st.integers(1, 3), st.integers(0, 10**6))
def test_subproblems_partition_the_solutions(
    puzzle: PolyominoPuzzle, depth: int, seed: int
) -> None:
    problem = with_secondary(puzzle.problem, np.random.default_rng(seed), seed % 2)
    everything = solution_set(reference_solutions(problem))
    parts = BitboardEngine(problem).subproblems(depth)
    seen: list[tuple[int, ...]] = []
    for forced, excluded in parts:
        mine = solution_set(BitboardEngine(problem, forced, excluded).solutions())
        assert mine == solution_set(reference_solutions(problem, forced, excluded))
        assert BitboardEngine(problem, forced, excluded).count() == len(mine)
        seen += mine
    assert len(seen) == len(set(seen)) and set(seen) == everything


@FAST
@given(puzzles(), st.integers(1, 5), st.integers(1, 7))
def test_lazy_and_resumed_search(puzzle: PolyominoPuzzle, limit: int, budget: int) -> None:
    """A tiny node budget makes the kernel stop and carry on all the time: same answers."""
    problem = puzzle.problem
    everything = solution_set(reference_solutions(problem))
    engine = BitboardEngine(problem, node_budget=budget)
    assert solution_set(engine.solutions()) == everything
    assert BitboardEngine(problem, node_budget=budget).count() == len(everything)
    first = list(BitboardEngine(problem).solutions(limit=limit))
    assert len(first) == min(limit, len(everything)) and set(first) <= everything


def test_forced_options_that_clash_give_nothing() -> None:
    problem = catalog.load_file("pentomino-3x20").puzzles[0].problem
    a, b = [k for k in range(problem.n_options) if (0, 0) in problem.option(k)][:2]
    assert BitboardEngine(problem, forced=[a, b]).count() == 0
    assert list(BitboardEngine(problem, forced=[a, b]).solutions()) == []


@pytest.mark.parametrize(
    ("name", "raw"), [("pentomino-3x20", 8), ("pentomino-5x12", 4040), ("pentomino-6x10", 9356)]
)
def test_known_pentomino_counts(name: str, raw: int) -> None:
    problem = catalog.load_file(name).puzzles[0].problem
    engine = BitboardEngine(problem)
    assert engine.count() == raw
    assert engine.stats.nodes > 0 and engine.stats.search_seconds > 0


def test_region_pruning_cuts_nodes_and_proves_at_the_root() -> None:
    problem = catalog.load_file("pentomino-3x20").puzzles[0].problem
    with_test, without = BitboardEngine(problem), BitboardEngine(problem, prune=0)
    assert with_test.count() == without.count() == 8
    assert with_test.pruned > 0 and with_test.stats.nodes < without.stats.nodes
    # 58 cells and pentominoes only: no region of the board can be filled, seen before search
    holes = catalog.load_file("pentomino-6x10-two-holes").puzzles[0].problem
    engine = BitboardEngine(holes)
    assert engine.count() == 0 and engine.stats.nodes == 0


def test_auto_picks_bitboard_only_for_tilings() -> None:
    tiling = catalog.load_file("pentomino-3x20").puzzles[0].problem
    queens = catalog.load_file("queens-8").puzzles[0].problem
    for mode in Mode:  # auto takes the bitboard engine for a tiling, never for queens
        assert choose(Job(tiling, mode)).name == "bitboard"
    assert ineligible(queens) is not None
    assert choose(Job(queens, Mode.SOLUTIONS)).name == "compiled"
    # a count of the whole queens problem goes to the queens kind's own engine, which reads
    # n off the problem itself
    assert choose(Job(queens, Mode.COUNT)).name == "queens-bitmask"
    coloured = CoverBuilder()
    coloured.primary("a")
    coloured.neighbours("a", [])
    coloured.secondary("s")
    coloured.option(["a", "s"], "x", [None, "red"])
    assert "colour" in (ineligible(coloured.build()) or "")


def test_bad_forced_options_are_refused() -> None:
    problem = catalog.load_file("pentomino-3x20").puzzles[0].problem
    with pytest.raises(ValueError):
        BitboardEngine(problem, forced=[problem.n_options])
    with pytest.raises(ValueError):
        BitboardEngine(problem).subproblems(-1)


@st.composite
def larger_puzzles(draw: st.DrawFn) -> PolyominoPuzzle:
    """Boards up to 6x6 and pieces of mixed sizes 2 to 5: regions close often enough for the
    region test to matter, too big for the reference engine but not for the bitboard one."""
    rows, cols = draw(st.integers(3, 6)), draw(st.integers(3, 6))
    board = {(r, c): "#" for r in range(rows) for c in range(cols) if draw(st.integers(0, 9)) > 0}
    board[(0, 0)] = "#"
    pieces = [
        Piece(f"P{i}", _shape(draw, draw(st.integers(2, 5)), False), *draw(st.sampled_from(COUNTS)))
        for i in range(draw(st.integers(2, 4)))
    ]
    return PolyominoPuzzle("random", board, pieces, rotate=True, reflect=draw(st.booleans()))


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(larger_puzzles())
def test_region_test_changes_no_count(puzzle: PolyominoPuzzle) -> None:
    problem = puzzle.problem
    plain = BitboardEngine(problem, prune=0, node_budget=200_000)
    search = plain._start()
    plain._advance(search, 0, 0, 1 << 62, 200_000)
    if not search.finished:
        return  # too big for a quick test
    assert BitboardEngine(problem).count() == int(search.regs[3])
    assert BitboardEngine(problem, conflict_rows=False).count() == int(search.regs[3])


def test_subproblems_leave_out_earlier_branches_of_a_counter() -> None:
    """Two separate 3x3 blocks: the plus-shaped piece fits once in each and may be used
    twice, every cell has more options than it, so the search branches on its count first;
    the second branch must leave the first one's placement out, or a solution with both
    would be counted in both subproblems."""
    board = {(r, c): "#" for r in range(3) for c in (0, 1, 2, 4, 5, 6)}
    pieces = [
        Piece("X", Shape.from_cells([(0, 1), (1, 0), (1, 1), (1, 2), (2, 1)]), 1, 2),
        Piece("mono", Shape.from_cells([(0, 0)]), 0, None),
        Piece("domino", Shape.from_cells([(0, 0), (0, 1)]), 0, None),
    ]
    problem = PolyominoPuzzle("blocks", board, pieces).problem
    parts = BitboardEngine(problem).subproblems(1)
    assert len(parts) == 2 and sum(len(excluded) for _, excluded in parts) == 1
    counts = [BitboardEngine(problem, *part).count() for part in parts]
    assert sum(counts) == BitboardEngine(problem).count() == reference_count(problem)
    assert sum(counts) == 2 * 131 + 1  # X in one block and 131 tilings of the other, or both


def test_nested_subproblems_of_shared_tables_partition_and_keep_forced_out_of_excluded(
) -> None:
    """The tables hold every option, forced ones too (one set per problem, shared by every
    subproblem): cutting a subproblem again must not name one of its forced options among
    the options its children leave out, and the children still partition it."""
    board = {(r, c): "#" for r in range(3) for c in (0, 1, 2, 4, 5, 6)}
    pieces = [
        Piece("X", Shape.from_cells([(0, 1), (1, 0), (1, 1), (1, 2), (2, 1)]), 1, 2),
        Piece("mono", Shape.from_cells([(0, 0)]), 0, None),
        Piece("domino", Shape.from_cells([(0, 0), (0, 1)]), 0, None),
    ]
    problem = PolyominoPuzzle("blocks", board, pieces).problem
    total = 0
    for forced, excluded in BitboardEngine(problem).subproblems(1):
        children = BitboardEngine(problem, forced, excluded).subproblems(2)
        assert all(not set(f) & set(e) for f, e in children)
        counts = [BitboardEngine(problem, *child).count() for child in children]
        assert sum(counts) == BitboardEngine(problem, forced, excluded).count()
        assert sum(counts) == reference_count(problem, forced, excluded)
        total += sum(counts)
    assert total == reference_count(problem) == 2 * 131 + 1


def test_an_output_buffer_that_starts_small_grows_and_changes_no_record(
        monkeypatch: pytest.MonkeyPatch) -> None:  # fmt: skip
    """A search's output buffer starts with room for a few records and doubles each time a
    call fills it: a split, a listing and probes come out the same whatever room it starts
    with, one record or thousands."""
    from puzzlebox.engine import bitboard

    problem = catalog.load_file("pentomino-6x10").puzzles[0].problem
    sizes = bitboard.PartSizes(problem, probes=200, seed=3)

    def answers() -> tuple[object, ...]:
        listed = list(BitboardEngine(problem).solutions(300))
        return BitboardEngine(problem).subproblems(3), listed, sizes((), ()).nodes

    split, listed, probed = answers()
    assert len(split) > 4 * bitboard._FIRST_RECORDS and len(listed) == 300
    for first in (1, 3, 1 << 12):
        monkeypatch.setattr(bitboard, "_FIRST_RECORDS", first)
        assert answers() == (split, listed, probed)


def test_what_is_kept_per_problem_is_never_another_problems() -> None:
    """The reasons and tables kept per problem are found by identity: an equal-looking or
    a newer problem gets its own answer, a full store forgets the oldest, and a problem's
    answers go when it does."""
    tiling = catalog.load_file("pentomino-3x20").puzzles[0].problem
    coloured = tiling.replace(colors=np.ones_like(tiling.colors))
    for _ in range(2):
        assert ineligible(tiling) is None
        assert ineligible(coloured) is not None
    from puzzlebox.engine.bitboard_fit import PerProblem

    store: PerProblem[int] = PerProblem(2)
    made: list[int] = []

    def make(n: int):
        return lambda: made.append(n) or n

    a, b, c = tiling, coloured, tiling.replace()
    assert [store.get(p, None, make(i)) for i, p in enumerate([a, b, a, c, a, b])] == [
        0, 1, 0, 3, 0, 5]
    assert made == [0, 1, 3, 5]  # b was the oldest when c came, and was forgotten
    d = tiling.replace()
    assert store.get(d, None, make(9)) == 9 and len(store) == 2
    del d
    gc.collect()
    assert len(store) == 1  # a problem's answers go with it
