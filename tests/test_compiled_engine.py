"""The compiled engine against the reference engine, known counts, resuming and splitting."""

from __future__ import annotations

import itertools

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from puzzlebox.cover.problem import CoverBuilder, CoverProblem
from puzzlebox.engine import registry
from puzzlebox.engine.bitboard import BitboardEngine
from puzzlebox.engine.compiled import CompiledEngine
from puzzlebox.engine.reference import ReferenceEngine
from puzzlebox.geometry import Shape, orientations

# -- problems ----------------------------------------------------------------------------------


@st.composite
def cover_problems(draw: st.DrawFn) -> CoverProblem:
    """Small random MCC problems: bounds with slack (lo = 0, lo < hi, hi = 0), secondary items
    with and without colours, options touching only items with slack, no options at all."""
    n_primary = draw(st.integers(0, 4))
    n_secondary = draw(st.integers(0, 3))
    b = CoverBuilder()
    for i in range(n_primary):
        lo = draw(st.integers(0, 2))
        b.primary(("p", i), lo, lo + draw(st.integers(0, 2)))
    for s in range(n_secondary):
        b.secondary(("s", s))
    if n_primary:
        for k in range(draw(st.integers(0, 8))):
            prim = draw(st.sets(st.integers(0, n_primary - 1), min_size=1, max_size=n_primary))
            sec = draw(st.sets(st.integers(0, n_secondary - 1), max_size=n_secondary)) if (
                n_secondary
            ) else set()
            names = [("p", i) for i in sorted(prim)] + [("s", s) for s in sorted(sec)]
            colors = [None] * len(prim) + [
                draw(st.sampled_from([None, "red", "blue"])) for _ in sec
            ]
            order = draw(st.permutations(range(len(names))))
            b.option([names[i] for i in order], k, [colors[i] for i in order])
    return b.build()


def queens(n: int) -> CoverProblem:
    """n-queens: rows and columns primary (exactly once), diagonals secondary (at most once)."""
    b = CoverBuilder()
    for i in range(n):
        b.primary(("row", i))
    for i in range(n):
        b.primary(("col", i))
    for d in range(2 * n - 1):
        b.secondary(("diag", d))
        b.secondary(("anti", d))
    for r in range(n):
        for c in range(n):
            b.option([("row", r), ("col", c), ("diag", r + c), ("anti", r - c + n - 1)], (r, c))
    return b.build()


PENTOMINOES = {
    "F": "##./.##/.#.", "I": "#####", "L": "####/#...", "N": "##../.###", "P": "##/##/#.",
    "T": "###/.#./.#.", "U": "#.#/###", "V": "#../#../###", "W": "#../##./.##",
    "X": ".#./###/.#.", "Y": "####/.#..", "Z": "##./.#./.##",
}


def pentominoes(rows: int = 6, cols: int = 10) -> CoverProblem:
    """The 12 pentominoes in a rectangle: 60 cell items, then 12 piece items, every placement."""
    b = CoverBuilder()
    cells = [(r, c) for r in range(rows) for c in range(cols)]
    for cell in cells:
        b.primary(cell)
    for name in PENTOMINOES:
        b.primary(name)
    for name, drawing in PENTOMINOES.items():
        shape = Shape.from_cells(
            (r, c)
            for r, line in enumerate(drawing.split("/"))
            for c, ch in enumerate(line)
            if ch == "#"
        )
        for turned in orientations(shape):
            for dr in range(rows - turned.height + 1):
                for dc in range(cols - turned.width + 1):
                    placed = [(r + dr, c + dc) for r, c in turned.cells]
                    b.option([name, *placed], (name, tuple(placed)))
    return b.build()


def oracle(problem: CoverProblem, forced=(), excluded=()) -> set[tuple[int, ...]]:
    found = list(ReferenceEngine(problem, forced, excluded).solutions())
    assert len(found) == len(set(found))
    return set(found)


FAST = settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])

# -- same solutions as the reference -----------------------------------------------------------


@FAST
@given(cover_problems())
def test_same_solutions_as_reference(problem):
    engine = CompiledEngine(problem)
    found = list(engine.solutions())
    assert len(found) == len(set(found)), "a solution came out twice"
    assert all(s == tuple(sorted(s)) and problem.is_solution(s) for s in found)
    assert set(found) == oracle(problem)
    assert engine.stats.complete and engine.stats.solutions == len(found)
    assert engine.count() == len(found)


@FAST
@given(cover_problems(), st.data())
def test_forced_and_excluded(problem, data):
    n = problem.n_options
    options = st.sets(st.integers(0, n - 1), max_size=3) if n else st.just(set())
    forced, excluded = data.draw(options), data.draw(options)
    want = {
        s for s in oracle(problem) if forced <= set(s) and not excluded & set(s)
    }
    engine = CompiledEngine(problem, forced, excluded)
    assert set(engine.solutions()) == want
    assert engine.count() == len(want)


@FAST
@given(cover_problems(), st.integers(0, 4))
def test_subproblems_partition_the_solutions(problem, depth):
    whole = oracle(problem)
    parts = CompiledEngine(problem).subproblems(depth)
    assert len(set(parts)) == len(parts)
    seen: set[tuple[int, ...]] = set()
    total = 0
    for forced, excluded in parts:
        engine = CompiledEngine(problem, forced, excluded)
        part = list(engine.solutions())
        assert engine.count() == len(part)
        assert not seen & set(part), "two subproblems share a solution"
        seen |= set(part)
        total += len(part)
    assert total == len(whole) and seen == whole


def test_trivial_problems():
    empty = CoverBuilder().build()
    assert list(CompiledEngine(empty).solutions()) == [()]
    b = CoverBuilder()
    b.primary("a", 0, 1)
    b.primary("b", 2, 3)
    b.option(["a", "b"], "ab")
    b.option(["b"], "b")
    problem = b.build()  # "b" needs two of its two options, "a" allows them
    assert list(CompiledEngine(problem).solutions()) == [(0, 1)]
    b = CoverBuilder()
    b.primary("a")
    b.primary("b")
    b.option(["a", "b"], "ab")
    b.option(["a"], "a")
    problem = b.build()
    assert list(CompiledEngine(problem, forced=[1]).solutions()) == []
    assert CompiledEngine(problem, forced=[0], excluded=[0]).count() == 0
    assert CompiledEngine(problem, forced=[1]).subproblems(2) == []
    with pytest.raises(ValueError):
        CompiledEngine(problem, forced=[2])


def test_slack_items_yield_every_superset():
    b = CoverBuilder()
    b.primary("x", 0, 3)
    for k in range(4):
        b.option(["x"], k)
    problem = b.build()  # any set of at most three of the four options
    assert CompiledEngine(problem).count() == 1 + 4 + 6 + 4


def test_deep_trees_grow_the_level_stack():
    b = CoverBuilder()  # a path of 25 cells tiled by monominoes and dominoes: Fibonacci
    for i in range(25):
        b.primary(i)
    for i in range(25):
        b.option([i], ("mono", i))
        if i + 1 < 25:
            b.option([i, i + 1], ("domino", i))
    assert CompiledEngine(b.build()).count() == 121393
    b = CoverBuilder()  # one item taking exactly 20 of its 25 options: room for many
    b.primary("x", 20, 20)
    for k in range(25):
        b.option(["x"], k)
    engine = CompiledEngine(b.build())
    assert engine.count() == 53130
    assert len(engine.first() or ()) == 20


def test_colours():
    b = CoverBuilder()
    for i in range(3):
        b.primary(i)
    b.secondary("s")
    b.option([0, "s"], "red0", [None, "red"])
    b.option([1, "s"], "red1", [None, "red"])
    b.option([1, "s"], "blue1", [None, "blue"])
    b.option([2, "s"], "plain2", [None, None])
    b.option([2], "bare2")
    problem = b.build()
    # red options agree on "s"; an uncoloured use of "s" excludes every other use
    assert set(CompiledEngine(problem).solutions()) == {(0, 1, 4)}


# -- known counts ------------------------------------------------------------------------------


@pytest.mark.parametrize(("n", "count"), [(1, 1), (2, 0), (3, 0), (4, 2), (5, 10), (6, 4),
                                          (7, 40), (8, 92)])
def test_queens(n, count):
    engine = CompiledEngine(queens(n))
    assert engine.count() == count
    assert engine.stats.complete and engine.stats.nodes > 0
    assert len(set(CompiledEngine(queens(n)).solutions())) == count


def test_pentominoes_6x10():
    problem = pentominoes()
    assert problem.n_items == 72 and problem.n_options == 2056
    engine = CompiledEngine(problem)
    assert engine.count() == 9356
    assert engine.stats.solutions == 9356 and engine.stats.complete
    first = CompiledEngine(problem).first()
    assert first is not None and problem.is_solution(first)


def test_pentomino_subproblems_add_up():
    problem = pentominoes(5, 12)  # 4040 tilings
    engine = CompiledEngine(problem)
    whole = engine.count()
    parts = engine.subproblems(2)
    assert len(parts) > 20
    assert sum(CompiledEngine(problem, f, e).count() for f, e in parts) == whole == 4040


# -- limits, resuming, statistics --------------------------------------------------------------


def test_limit_and_resume_give_the_same_solutions():
    problem = queens(8)
    everything = list(CompiledEngine(problem).solutions())
    assert len(everything) == 92
    # tiny slices of work: the kernel stops and resumes after every node
    stepwise = CompiledEngine(problem, node_budget=1)
    gen = stepwise.solutions()
    taken: list[tuple[int, ...]] = []
    while chunk := list(itertools.islice(gen, 3)):
        assert len(chunk) == 3 or len(taken) + len(chunk) == 92
        taken.extend(chunk)
    assert taken == everything
    assert list(CompiledEngine(problem).solutions(limit=5)) == everything[:5]
    assert list(CompiledEngine(problem).solutions(limit=0)) == []
    counter = CompiledEngine(problem, node_budget=7)
    assert counter.count() == 92
    assert counter.stats.nodes == stepwise.stats.nodes


def test_progress_and_stats():
    reports: list[int] = []
    engine = CompiledEngine(queens(7), node_budget=16)
    assert engine.count(progress=lambda stats: reports.append(stats.nodes)) == 40
    assert len(reports) > 2 and reports == sorted(reports) and reports[-1] == engine.stats.nodes
    assert engine.stats.engine == "compiled" and engine.stats.search_seconds > 0
    assert engine.stats.compile_seconds >= 0
    first = engine.first()
    assert first is not None and engine.stats.solutions == 1 and not engine.stats.complete


def test_registered_as_the_default():
    from puzzlebox.engine.search import Job

    assert registry.choose(Job(queens(6))).name == "compiled"  # the general engine
    assert registry.count(queens(6), "compiled") == 4
    assert registry.count(queens(6), "auto", forced=[1]) == 1


@pytest.mark.parametrize("engine", ["compiled", "bitboard"])
def test_forced_and_excluded_options_must_exist(engine):
    from puzzlebox import catalog

    ENGINES = {"compiled": CompiledEngine, "bitboard": BitboardEngine}
    problem = catalog.load("pentomino-3x20").puzzles[0].problem
    last = problem.n_options - 1
    for forced, excluded in (([last + 1], []), ([], [-1])):
        with pytest.raises(ValueError, match=f"must lie in 0..{last}"):
            ENGINES[engine](problem, forced=forced, excluded=excluded)
    assert ENGINES[engine](problem, forced=[3, 3], excluded=[]).forced == (3,)
