"""The general engine's C kernels (engine/_ckernels.c: cover_setup, cover_search) against
numba's (engine/_kernels.py), state for state (issue #23 item 2).

Both are given the same tables and their own copies of the mutable arrays; after every call,
made with small node budgets so that the walk stops and resumes all over the tree, each
array (the bitsets of every level, the frames, the registers, the item lists, the output)
must be the same in both, in every mode: counting, solutions, the frontier and Knuth's
probes. Then whole counts and estimates agree, and the C source uses the numbers of
engine/cover_kernels.py.
"""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from puzzlebox.cover.problem import CoverProblem
from puzzlebox.engine import cover_kernels as K
from puzzlebox.engine import kernel_choice
from puzzlebox.engine.compiled import _i32, _Search, _Tables, _warm_up
from puzzlebox.engine.estimate import _seed_register, estimate_tree
from test_compiled_engine import cover_problems, pentominoes, queens

pytestmark = pytest.mark.skipif("c" not in kernel_choice.available(),
                                reason="the C kernels are not built")
C_SOURCE = Path(K.__file__).with_name("_ckernels.c")
STATE = ("levels", "done", "need", "room", "act", "apos", "blist", "frames", "regs", "out")
NONE = np.zeros(0, dtype=np.int32)


@pytest.fixture(scope="module", autouse=True)
def _numba_compiled():
    """numba's kernels compiled (or loaded from its cache) once, before any example."""
    kernel_choice.use(kernel_choice.NUMBA)
    try:
        _warm_up()
    finally:
        kernel_choice.use(None)


def _searches(problem: CoverProblem, forced=(), excluded=()) -> tuple[_Search, _Search]:
    """The same search twice: on the C kernels, then on numba's."""
    tables = _Tables.build(problem)
    pair = []
    for backend in (kernel_choice.C, kernel_choice.NUMBA):
        kernel_choice.use(backend)
        try:
            search = _Search(tables, _i32(excluded), _i32(forced))
        finally:
            kernel_choice.use(None)
        assert search.kernels.backend == backend
        pair.append(search)
    c, nb = pair
    return c, nb


def _same_state(c: _Search, nb: _Search, where: str) -> None:
    for name in STATE:
        a, b = getattr(c, name), getattr(nb, name)
        assert a.shape == b.shape and np.array_equal(a, b), f"{name} differs {where}"


def _walk(c: _Search, nb: _Search, mode: int, depth: int, records: int, nodes: int,
          calls: int = 10_000) -> list[list[int]]:
    """Run both to the end in calls of at most ``records`` records and ``nodes`` nodes,
    comparing everything after each call; returns the records."""
    _same_state(c, nb, "after setup")
    found: list[list[int]] = []
    for call in range(calls):
        if c.finished:
            break
        got = c.run(mode, depth, records, nodes)
        assert got == nb.run(mode, depth, records, nodes), f"records differ at call {call}"
        _same_state(c, nb, f"after call {call}")
        found += got
        if mode == K.M_PROBE and len(found) >= 40:  # probes go on forever
            break
    return found


@settings(max_examples=150, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow])
@given(cover_problems(), st.sampled_from([K.M_COUNT, K.M_SOLUTIONS, K.M_FRONTIER, K.M_PROBE]),
       st.integers(0, 4), st.integers(1, 3), st.integers(1, 7), st.integers(0, 2**64 - 1),
       st.data())
def test_c_and_numba_walk_the_same_tree_step_by_step(problem, mode, depth, records, nodes,
                                                      seed, data):
    n = problem.n_options
    forced = data.draw(st.sets(st.integers(0, n - 1), max_size=2)) if n else set()
    excluded = data.draw(st.sets(st.integers(0, n - 1), max_size=2)) if n else set()
    c, nb = _searches(problem, sorted(forced), sorted(excluded - forced))
    for search in (c, nb):
        search.regs[K.R_SEED] = _seed_register(seed)
    _walk(c, nb, mode, depth, records, nodes)


def test_the_walks_can_differ():
    """The comparison above can fail: a search one node ahead is not the same state."""
    c, nb = _searches(queens(5))
    c.run(K.M_COUNT, 0, 1 << 62, 3)
    nb.run(K.M_COUNT, 0, 1 << 62, 2)
    with pytest.raises(AssertionError):
        _same_state(c, nb, "")


@pytest.mark.parametrize(("problem", "mode", "depth", "nodes"), [
    (queens(8), K.M_COUNT, 0, 97),
    (queens(8), K.M_SOLUTIONS, 0, 1000),
    (queens(8), K.M_FRONTIER, 3, 50),
    (pentominoes(3, 20), K.M_FRONTIER, 2, 5000),
    (pentominoes(), K.M_PROBE, 6, 20_000),  # probes searching subtrees in full below depth 6
    (pentominoes(), K.M_PROBE, 1 << 30, 20_000),  # plain probes, to a leaf
], ids=["queens-8 count", "queens-8 solutions", "queens-8 frontier", "pentominoes-3x20 frontier",
        "pentominoes probes", "pentominoes plain probes"])
def test_c_and_numba_on_known_puzzles(problem, mode, depth, nodes):
    c, nb = _searches(problem)
    c.regs[K.R_SEED] = nb.regs[K.R_SEED] = 12345
    found = _walk(c, nb, mode, depth, 1 << 20, nodes)
    if mode == K.M_COUNT:
        assert c.found == 92  # published
    if mode == K.M_SOLUTIONS:
        assert len(found) == 92
    if mode == K.M_PROBE:
        assert len(found) >= 40


@pytest.mark.parametrize(("problem", "known"), [(pentominoes(3, 20), 8), (queens(10), 724)],
                         ids=["pentominoes-3x20", "queens-10"])
def test_whole_counts_agree_with_the_published_ones(problem, known):
    """Counted in one call each: the 2 tilings of the 3x20 rectangle up to its 4 symmetries
    (8 in all) and the 724 placements of 10 queens, both published figures."""
    c, nb = _searches(problem)
    for search in (c, nb):
        search.run(K.M_COUNT, 0, 1 << 62, 1 << 62)
        assert search.finished and search.found == known
    assert c.nodes == nb.nodes


def test_estimates_agree_on_both_kernels():
    """Knuth's estimate (engine/estimate.py) reads the same probes from either kernel."""
    problem = pentominoes()
    estimates = []
    for backend in (kernel_choice.C, kernel_choice.NUMBA):
        kernel_choice.use(backend)
        try:
            estimates.append(estimate_tree(problem, probes=30, seed=3, subtree_nodes=300))
        finally:
            kernel_choice.use(None)
    c, nb = (e.__dict__ | {"seconds": 0.0} for e in estimates)
    assert c == nb and c["probes"] == 30


def _c_enum(first: str) -> list[str]:
    """The names of the C enum that starts with ``first``, in order."""
    text = C_SOURCE.read_text()
    match = re.search(r"enum \{\s*(" + first + r"\b[^}]*)\}", text)
    assert match, first
    names = [part.split("=")[0].strip() for part in match.group(1).split(",")]
    return [name for name in names if name]


@pytest.mark.parametrize("first", ["CV_R_LEVEL", "CV_P_ENTER", "CV_F_ITEM", "CV_K_COVER",
                                   "CV_M_COUNT", "CV_S_DONE"])
def test_the_c_source_numbers_things_as_cover_kernels_does(first):
    for value, name in enumerate(_c_enum(first)):
        assert getattr(K, name.removeprefix("CV_")) == value, name
