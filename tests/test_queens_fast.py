"""The n-queens bitmask fast path against known values and a brute-force oracle of its own."""

from __future__ import annotations

import pytest

from puzzlebox.engine.queens_bitmask import count_queens, fixed_by_rotation, queens_counts
from puzzlebox.puzzles.queens import QueensPuzzle

# the tests marked BOTH run with the C kernels and with numba's (tests/conftest.py); the
# sixteen-queens ones, 15 s each, with the default kernels only
BOTH = pytest.mark.usefixtures("each_kernels")

# OEIS A000170 and A002562
ALL = [1, 0, 0, 2, 10, 4, 40, 92, 352, 724, 2680, 14200, 73712, 365596]
DISTINCT = [1, 0, 0, 1, 2, 1, 6, 12, 46, 92, 341, 1787, 9233, 45752]


def brute_force(n: int) -> list[tuple[int, ...]]:
    """Every solution as the column of the queen in each row, by plain backtracking."""
    found: list[tuple[int, ...]] = []

    def go(cols: list[int]) -> None:
        r = len(cols)
        if r == n:
            found.append(tuple(cols))
            return
        for c in range(n):
            if all(c != q and abs(c - q) != r - i for i, q in enumerate(cols)):
                go(cols + [c])

    go([])
    return found


def images(n: int, cols: tuple[int, ...]) -> list[tuple[int, ...]]:
    """The solution under the eight symmetries of the square (identity first)."""
    cells = [(r, c) for r, c in enumerate(cols)]
    maps = [
        lambda r, c: (r, c),
        lambda r, c: (c, n - 1 - r),
        lambda r, c: (n - 1 - r, n - 1 - c),
        lambda r, c: (n - 1 - c, r),
        lambda r, c: (r, n - 1 - c),
        lambda r, c: (n - 1 - r, c),
        lambda r, c: (c, r),
        lambda r, c: (n - 1 - c, n - 1 - r),
    ]
    result = []
    for f in maps:
        moved = sorted(f(r, c) for r, c in cells)
        result.append(tuple(c for _, c in moved))
    return result


@BOTH
@pytest.mark.parametrize("n", range(1, 15))
def test_counts_match_known_values(n: int) -> None:
    raw, distinct, stats = queens_counts(n)
    assert (raw, distinct) == (ALL[n - 1], DISTINCT[n - 1])
    assert stats.engine == "queens-bitmask" and stats.solutions == raw and stats.complete
    assert stats.nodes >= raw


@BOTH
@pytest.mark.parametrize("n", range(1, 11))
def test_against_brute_force(n: int) -> None:
    solutions = brute_force(n)
    canonical = {min(images(n, s)) for s in solutions}
    assert int(count_queens(n)[0]) == len(solutions)
    assert queens_counts(n)[1] == len(canonical)
    for turns, index in ((1, 1), (2, 2)):
        fixed = sum(1 for s in solutions if images(n, s)[index] == s)
        assert fixed_by_rotation(n, turns) == fixed


@BOTH
def test_puzzle_count_uses_the_fast_path_only_under_auto() -> None:
    from puzzlebox.engine.registry import names

    if "queens-bitmask" not in names():
        pytest.skip("the queens-bitmask engine is not registered in this branch (its spec "
                    "comes with engine/queens_bitmask.py's step-wise search)")
    puzzle = QueensPuzzle("q8", 8)
    fast = puzzle.count()
    assert (fast.solutions, fast.distinct, fast.stats.engine) == (92, 12, "queens-bitmask")
    slow = puzzle.count(engine="reference")
    assert (slow.solutions, slow.distinct) == (92, 12)
    assert slow.stats.engine != "queens-bitmask"


@BOTH
def test_bad_arguments() -> None:
    with pytest.raises(ValueError):
        queens_counts(0)
    with pytest.raises(ValueError):
        fixed_by_rotation(8, 3)


# Q(16) = 14,772,512 (21 s here) is checked by bench/run.py, against the same published
# figures; the tests check n up to 14 (above) and a split of 14 (below).


# -- the step-wise, splittable engine --------------------------------------------------------

from puzzlebox.engine import registry  # noqa: E402
from puzzlebox.engine.queens_bitmask import (  # noqa: E402
    QueensSearch,
    accepts,
    describe,
    frontier,
    whole_job,
)
from puzzlebox.engine.search import Capability, Job, Mode  # noqa: E402


def leads(n: int, cols: tuple[int, ...]) -> bool:
    """Whether the solution is the smallest of its eight images (brute force)."""
    return cols == min(images(n, cols))


def holds(job: Job, cols: tuple[int, ...]) -> bool:
    """Whether a solution (column per row) has every forced option and no excluded one."""
    labels = job.problem.labels
    placed = set(enumerate(cols))
    return all(labels[k] in placed for k in job.forced) and not any(
        labels[k] in placed for k in job.excluded
    )


def counted(job: Job, max_nodes: int = 1 << 20) -> tuple[int, int, int]:
    """``(raw, distinct, nodes)`` of the bitmask engine on ``job``, step by step."""
    search = registry.get("queens-bitmask").start(job)
    raw = 0
    while True:
        step = search.step(max_nodes)
        raw += step.counted
        if step.done:
            assert step.distinct is not None
            return raw, step.distinct, search.stats.nodes


@BOTH
def test_registered_with_its_capabilities() -> None:
    spec = registry.get("queens-bitmask")
    assert spec.can == {Capability.COUNT, Capability.DISTINCT, Capability.SPLIT,
                        Capability.PROVE}
    # the queens kind describes the engine and imports its module on use (issue #23: showing
    # a puzzle loads no numpy): its checks and split are this module's, word for word
    assert spec.accepts is not None and spec.frontier is not None
    job = whole_job(8)
    listing = Job(job.problem, Mode.SOLUTIONS)
    assert spec.accepts(job) is None and accepts(job) is None
    assert spec.accepts(listing) == accepts(listing) == "it counts solutions; it does not list them"
    assert spec.frontier(job, 2) == frontier(job, 2) and len(frontier(job, 2)) > 1


@BOTH
@pytest.mark.parametrize("n", range(1, 11))
@pytest.mark.parametrize("depth", [0, 1, 2, 3])
def test_frontier_partitions_raw_and_distinct(n: int, depth: int) -> None:
    """Every subproblem's raw and distinct counts equal brute force over its own solutions
    (distinct: the leaders of their orbits); the subproblems partition the solutions; both
    counts add up to the board's."""
    solutions = brute_force(n)
    job = whole_job(n)
    subs = frontier(job, depth)
    owner: dict[tuple[int, ...], int] = {}
    raw_total = distinct_total = 0
    for index, (forced, excluded) in enumerate(subs):
        sub = Job(job.problem, Mode.COUNT, forced, excluded, puzzle=job.puzzle)
        assert accepts(sub) is None
        mine = [s for s in solutions if holds(sub, s)]
        for s in mine:
            assert s not in owner, "a solution lies in two subproblems"
            owner[s] = index
        raw, distinct, _ = counted(sub)
        assert raw == len(mine)
        assert distinct == sum(1 for s in mine if leads(n, s)) <= raw
        if depth and n > 3:  # a cut keeps the mirror: one half searched, counted twice
            assert describe(sub)["mirror"] is True
        raw_total += raw
        distinct_total += distinct
    assert len(owner) == len(solutions) == ALL[n - 1] == raw_total
    assert distinct_total == DISTINCT[n - 1]


@BOTH
def test_frontier_of_a_subproblem_refines_it() -> None:
    job = whole_job(8)
    for forced, excluded in frontier(job, 1):
        sub = Job(job.problem, Mode.COUNT, forced, excluded, puzzle=job.puzzle)
        parts = frontier(sub, 3)
        assert sum(counted(Job(job.problem, Mode.COUNT, f, e, puzzle=job.puzzle))[0]
                   for f, e in parts) == counted(sub)[0]
        assert all(set(excluded) <= set(e) for _, e in parts)


@BOTH
def test_any_forced_and_excluded_options_count_exactly() -> None:
    """Subproblems the frontier would not make (no mirror) are searched whole, exactly."""
    import random

    n = 7
    solutions = brute_force(n)
    job = whole_job(n)
    rng = random.Random(13)
    for _ in range(60):
        forced = tuple(sorted(rng.sample(range(n * n), rng.choice([0, 0, 1, 2]))))
        excluded = tuple(sorted(set(rng.sample(range(n * n), rng.randint(0, 12))) - set(forced)))
        sub = Job(job.problem, Mode.COUNT, forced, excluded, puzzle=job.puzzle)
        mine = [s for s in solutions if holds(sub, s)]
        raw, distinct, _ = counted(sub, max_nodes=7)
        assert (raw, distinct) == (len(mine), sum(1 for s in mine if leads(n, s)))
        parts = [Job(job.problem, Mode.COUNT, f, e, puzzle=job.puzzle)
                 for f, e in frontier(sub, rng.randint(1, 3))]
        assert sorted(s for part in parts for s in solutions if holds(part, s)) == sorted(mine)


@BOTH
def test_steps_respect_their_budget_and_end_cleanly() -> None:
    search = QueensSearch(whole_job(9))
    nodes, raw = search.stats.nodes, 0
    while True:
        step = search.step(50)
        assert search.stats.nodes - nodes <= 50
        nodes = search.stats.nodes
        raw += step.counted
        if step.done:
            break
    assert (raw, step.distinct) == (352, 46)
    assert search.stats.complete and search.stats.solutions == 352
    again = search.step(1000)
    assert again.done and again.counted == 0 and again.distinct is None


@BOTH
def test_a_step_is_short() -> None:
    """Ctrl-C lands between steps: a default step of a big count takes well under a second."""
    import time

    from puzzlebox.engine.search import DEFAULT_STEP_NODES

    search = QueensSearch(whole_job(20))
    search.step(1000)  # kernels loaded
    began = time.process_time()
    step = search.step(DEFAULT_STEP_NODES)
    assert not step.done and time.process_time() - began < 0.5


@BOTH
def test_declines_what_it_cannot_count() -> None:
    job = whole_job(6)
    assert accepts(job) is None
    assert "list" in accepts(Job(job.problem, Mode.SOLUTIONS, puzzle=job.puzzle))
    assert "limit" in accepts(Job(job.problem, Mode.COUNT, limit=3, puzzle=job.puzzle))
    # cut down by symmetry: fewer squares, a board with holes to this engine since #38,
    # counted exactly as the cover problem it is
    restricted = QueensPuzzle("q6", 6).search_problem()
    assert accepts(Job(restricted, Mode.COUNT, puzzle=job.puzzle)) is None
    from puzzlebox.engine import registry

    assert registry.count(restricted, "queens-bitmask") == registry.count(restricted, "compiled")
    big = QueensPuzzle("q40", 40)
    assert "1..31" in accepts(Job(big.problem, Mode.COUNT, puzzle=big))
    import puzzlebox

    pent = puzzlebox.load("pentomino-3x20")
    assert "queens on an n x n board" in accepts(Job(pent.problem, Mode.COUNT, puzzle=pent))
    for reason in (accepts(Job(pent.problem, Mode.COUNT, puzzle=pent)),):
        assert reason is not None and "\n" not in reason
    with pytest.raises(ValueError):
        QueensSearch(Job(pent.problem, Mode.COUNT, puzzle=pent))


@BOTH
def test_split_fourteen_queens_adds_up() -> None:
    job = whole_job(14)
    raw = distinct = 0
    for forced, excluded in frontier(job, 2):
        r, s, _ = counted(Job(job.problem, Mode.COUNT, forced, excluded, puzzle=job.puzzle),
                          max_nodes=1 << 22)
        raw, distinct = raw + r, distinct + s
    assert (raw, distinct) == (365_596, 45_752)  # OEIS A000170 and A002562


@BOTH
def test_frontier_depth_counts_below_the_rows_already_cut() -> None:
    job = whole_job(8)
    [sub] = frontier(job, 0)
    assert sub == ((), ())
    for forced, excluded in frontier(job, 2):
        part = Job(job.problem, Mode.COUNT, forced, excluded, puzzle=job.puzzle)
        assert frontier(part, 0) == [(forced, excluded)]
        deeper = frontier(part, 1)
        assert len(deeper) > 1 or counted(part)[0] == 0 or len(deeper) == 1
        rows = {job.problem.labels[k][0] for _, e in deeper for k in set(e) - set(excluded)}
        assert rows <= {2}


@BOTH
@pytest.mark.parametrize("n", range(4, 13))
def test_leaders_agree_with_burnside(n: int) -> None:
    """A subproblem counts orbits by their leaders, a whole board by Burnside's lemma: the
    two must agree (here on the subproblems of one cut against the board's count)."""
    job = whole_job(n)
    total = [0, 0]
    for forced, excluded in frontier(job, 1):
        raw, distinct, _ = counted(Job(job.problem, Mode.COUNT, forced, excluded,
                                       puzzle=job.puzzle))
        total[0] += raw
        total[1] += distinct
    assert total == [ALL[n - 1], DISTINCT[n - 1]] == list(queens_counts(n)[:2])
