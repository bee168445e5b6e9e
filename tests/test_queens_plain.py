"""The queens engine's two kinds of search state (engine/queens_bitmask.py, ``state_for``):
plain ``array('q')`` and ints for the C kernels, numpy for numba's. Both give the published
counts node for node, and a queens count through the C kernels loads no numpy (issue #23)."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from array import array
from collections.abc import Iterator

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from puzzlebox.engine import kernel_choice
from puzzlebox.engine.queens_bitmask import (
    PLAIN,
    QueensSearch,
    State,
    frontier,
    run,
    state_for,
    whole_job,
)
from puzzlebox.engine.search import Job, Mode

# OEIS A000170 (placed) and A002562 (distinct up to the square's eight symmetries)
PLACED = [1, 0, 0, 2, 10, 4, 40, 92, 352, 724]
DISTINCT = [1, 0, 0, 1, 2, 1, 6, 12, 46, 92]

# (kernels, state): the C kernels read either state; numba's take numpy's only
WAYS = [(kernels, state) for kernels, state in
        [(kernel_choice.C, kernel_choice.C), (kernel_choice.C, kernel_choice.NUMBA),
         (kernel_choice.NUMBA, kernel_choice.NUMBA)]
        if kernels in kernel_choice.available()]


@pytest.fixture(params=WAYS, ids=[f"{k}-kernels-{s}-state" for k, s in WAYS])
def way(request: pytest.FixtureRequest) -> Iterator[State]:
    """Each pair of kernels and state: the kernels in use, the state handed to the search."""
    kernels, state = request.param
    kernel_choice.use(kernels)
    yield state_for(state)
    kernel_choice.use(None)


def counts(job: Job, state: State) -> tuple[int, int, int]:
    """(raw, distinct, nodes) of one job, searched with ``state``."""
    search = run(QueensSearch(job, state=state), max_nodes=97)  # many steps: resumed often
    return search.raw, search.distinct(), search.stats.nodes


@pytest.mark.parametrize("n", range(1, 11))
def test_each_way_gives_the_published_counts(way: State, n: int) -> None:
    raw, distinct, _ = counts(whole_job(n), way)
    assert (raw, distinct) == (PLACED[n - 1], DISTINCT[n - 1])


def test_the_ways_agree_node_for_node() -> None:
    found = {}
    for kernels, state in WAYS:
        kernel_choice.use(kernels)
        try:
            found[kernels, state] = [counts(whole_job(n), state_for(state))
                                     for n in range(1, 11)]
        finally:
            kernel_choice.use(None)
    first = next(iter(found.values()))
    assert [raw for raw, _, _ in first] == PLACED
    assert all(each == first for each in found.values()), found


def test_the_c_kernels_get_plain_state_and_numba_numpy() -> None:
    """The one choice: array('q') and Python ints for C, numpy arrays and np.int64 for
    numba."""
    plain = state_for(kernel_choice.C)
    assert plain is PLAIN
    assert isinstance(plain.ints([1, 2]), array) and type(plain.scalar(3)) is int
    numpy_state = state_for(kernel_choice.NUMBA)
    made = numpy_state.ints([1, 2])
    assert isinstance(made, np.ndarray) and made.dtype == np.int64
    assert isinstance(numpy_state.scalar(3), np.int64)


@pytest.mark.skipif(kernel_choice.C not in kernel_choice.available(),
                    reason="the C kernels are not built here")
@given(n=st.integers(4, 9), depth=st.integers(0, 3), pick=st.integers(0, 10_000))
def test_both_states_count_any_subproblem_alike(n: int, depth: int, pick: int) -> None:
    """A subproblem of the split (forced and excluded options: the leaders' count) gives the
    same raw, distinct and node counts with either state, through the C kernels."""
    job = whole_job(n)
    subs = frontier(job, depth)
    forced, excluded = subs[pick % len(subs)]
    sub = Job(job.problem, Mode.COUNT, forced, excluded)
    kernel_choice.use(kernel_choice.C)
    try:
        assert counts(sub, PLAIN) == counts(sub, state_for(kernel_choice.NUMBA))
    finally:
        kernel_choice.use(None)


def _numpy_after(body: str) -> str:
    """Run ``body`` in a fresh interpreter with the C kernels; its output, then whether numpy
    was loaded."""
    script = textwrap.dedent(body) + "\nimport sys\nprint('numpy' in sys.modules)\n"
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                          timeout=120, env={**os.environ, "PUZZLEBOX_KERNELS": "c"},
                          check=True)  # fmt: skip
    return done.stdout


@pytest.mark.skipif(kernel_choice.C not in kernel_choice.available(),
                    reason="the C kernels are not built here")
def test_a_queens_count_loads_no_numpy() -> None:
    """The catalog's 8 queens, loaded, its problem built and counted by the kind's engine."""
    out = _numpy_after("""
        from puzzlebox import catalog
        from puzzlebox.engine.search import Job, Mode
        from puzzlebox.puzzles.queens.model import BITMASK

        puzzle = catalog.load("queens-8")
        search = BITMASK.start(Job(puzzle.problem, Mode.COUNT, puzzle=puzzle))
        while not (step := search.step(1 << 20)).done:
            pass
        print(search.stats.solutions, step.distinct)
    """)
    assert out.split() == ["92", "12", "False"]


@pytest.mark.skipif(kernel_choice.C not in kernel_choice.available(),
                    reason="the C kernels are not built here")
def test_puzzle_count_of_queens_loads_no_numpy() -> None:
    """The library's own door, ``puzzle.count()``, through the run layer."""
    out = _numpy_after("""
        from puzzlebox import catalog

        result = catalog.load("queens-8").count()
        print(result.solutions, result.distinct)
    """)
    assert out.split() == ["92", "12", "False"]
