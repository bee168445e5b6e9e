"""The bitboard engine's two builds (engine/bitboard.py, ``_Tables``): numpy's array
operations, and plain Python (``array``, ints as bit sets) for the C kernels when numpy is
not loaded and the problem is small (``bitboard_fit.plain_path``). Both give the same
tables and search state field by field, the same solutions, counts, first solution and
split, and a library solve of soma-cube and 6x10 with the C kernels loads no numpy (#23)."""

from __future__ import annotations

import os
import random
import subprocess
import sys
import textwrap
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any
from unittest import mock

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from puzzlebox import catalog
from puzzlebox.cover.problem import CoverBuilder, CoverProblem
from puzzlebox.engine import bitboard, bitboard_fit, kernel_choice
from puzzlebox.engine.bitboard import BitboardEngine, _Search, _Tables
from puzzlebox.puzzles.polyomino import PolyominoPuzzle
from test_bitboard import larger_puzzles, puzzles, with_secondary

pytestmark = pytest.mark.skipif(kernel_choice.C not in kernel_choice.available(),
                                reason="the plain build is for the C kernels, not built here")

CATALOG = ["soma-cube", "pentomino-6x10", "pentomino-3x20", "pentomino-6x10-two-holes",
           "blocks-4x4", "tiling-3x12", "hexiamonds-4x9-parallelogram", "calendar",
           "tetrominoes-5x4-tube", "solid-pentominoes-2x3x10"]  # fmt: skip

SEARCH_FIELDS = ["avail", "board", "fempty", "fitem", "fsel", "fopts", "gcount", "regs", "vis",
                 "queue", "lab", "par", "csize", "pend", "reach", "out"]  # fmt: skip


@pytest.fixture(autouse=True, scope="module")
def c_kernels() -> Iterator[None]:
    """The plain tables are read by the C kernels only."""
    kernel_choice.use(kernel_choice.C)
    yield
    kernel_choice.use(None)


@contextmanager
def build(plain: bool) -> Iterator[None]:
    """Make the engine take the plain build (or numpy's) whatever is loaded."""
    with mock.patch.object(bitboard_fit, "plain_path", lambda problem: plain):
        yield


def same_buffer(plain: Any, numpy: Any, what: str) -> None:
    """The same numbers of the same type; a plain 2-d table may be kept flat (the kernel
    reads the row length of ``avail`` and ``board`` only)."""
    a, b = np.asarray(plain), np.asarray(numpy)
    assert a.dtype == b.dtype, what
    assert a.ravel().tolist() == b.ravel().tolist(), what
    if a.ndim == 2:
        assert a.shape == b.shape, what


def same_tables(problem: CoverProblem, excluded: set[int], prune: int, rows: bool) -> None:
    plain = _Tables(problem, excluded, prune, rows, plain=True)
    numpy = _Tables(problem, excluded, prune, rows, plain=False)
    assert plain.plain and not numpy.plain
    for name, kind in _Tables.__annotations__.items():
        if kind == "int":
            assert getattr(plain, name) == getattr(numpy, name), name
        else:
            same_buffer(getattr(plain, name), getattr(numpy, name), name)
    assert np.asarray(plain.emask).size == plain.topt.__len__() * plain.words
    assert len(np.asarray(plain.conflicts)) in (0, len(plain.topt) * plain.n_words)


def same_state(problem: CoverProblem, forced: tuple[int, ...], excluded: set[int]) -> None:
    plain = _Search(_Tables(problem, set(), 1, plain=True), forced, excluded)
    numpy = _Search(_Tables(problem, set(), 1, plain=False), forced, excluded)
    assert plain.forced_solution == numpy.forced_solution
    for name in SEARCH_FIELDS:
        same_buffer(getattr(plain, name), getattr(numpy, name), name)
    for mode in (bitboard.M_COUNT, bitboard.M_SOLUTIONS, bitboard.M_FRONTIER):
        a = _Search(plain.t, forced, excluded)
        b = _Search(numpy.t, forced, excluded)
        for _ in range(3):  # a few calls of a few nodes: the same records and states
            assert a.run(mode, 2, 3, 5) == b.run(mode, 2, 3, 5)
            assert a.walked() == b.walked()
            for name in SEARCH_FIELDS[:-1]:  # out is only read up to what was written
                same_buffer(getattr(a, name), getattr(b, name), name)


def same_answers(problem: CoverProblem, depth: int = 2) -> None:
    """Solutions, count, first solution and split of the engine on each build (a copy of
    the problem per build: the tables are kept per problem)."""
    answers = []
    for plain in (True, False):
        mine = problem.replace()
        with build(plain):
            engine = BitboardEngine(mine)
            assert engine._tables.plain is plain
            answers.append((sorted(engine.solutions()), BitboardEngine(mine).count(),
                            BitboardEngine(mine).first(),
                            BitboardEngine(mine).subproblems(depth)))  # fmt: skip
    assert answers[0] == answers[1]


def some(rng: random.Random, n: int, share: float) -> set[int]:
    return {k for k in range(n) if rng.random() < share}


@pytest.mark.parametrize("name", CATALOG)
def test_both_builds_give_the_same_tables_on_catalog_puzzles(name: str) -> None:
    problem = catalog.load_file(name).puzzles[0].problem
    rng = random.Random(name)
    for prune, rows in ((1, True), (0, True), (1, False)):
        same_tables(problem, set(), prune, rows)
    same_tables(problem, some(rng, problem.n_options, 0.2), 1, True)
    assert bitboard_fit._ineligible_plain(problem) == bitboard_fit._ineligible_numpy(problem)


@pytest.mark.parametrize("name", ["soma-cube", "pentomino-3x20", "pentomino-6x10-two-holes"])
def test_both_builds_give_the_same_state_and_answers_on_catalog_puzzles(name: str) -> None:
    problem = catalog.load_file(name).puzzles[0].problem
    rng = random.Random(name)
    first = BitboardEngine(problem).first() or ()
    same_state(problem, (), set())
    same_state(problem, first[:2], some(rng, problem.n_options, 0.3))
    same_state(problem, first, set())  # the forced options alone are a solution
    same_answers(problem)


def test_both_builds_count_6x10_alike() -> None:
    problem = catalog.load_file("pentomino-6x10").puzzles[0].problem
    for plain in (True, False):
        with build(plain):
            engine = BitboardEngine(problem.replace())
            assert engine._tables.plain is plain and engine.count() == 9356


FAST = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@FAST
@given(puzzles(), st.integers(0, 2), st.integers(0, 10**6))
def test_both_builds_agree_on_random_tilings(puzzle: PolyominoPuzzle, extra: int, seed: int
                                             ) -> None:  # fmt: skip
    rng = random.Random(seed)
    problem = with_secondary(puzzle.problem, np.random.default_rng(seed), extra)
    for prune, rows in ((1, True), (0, True), (1, False)):
        same_tables(problem, set(), prune, rows)
    same_tables(problem, some(rng, problem.n_options, 0.3), 1, True)
    forced = tuple(sorted(some(rng, problem.n_options, 0.1)))  # clashing ones too
    same_state(problem, forced, some(rng, problem.n_options, 0.2))
    same_answers(problem, 1 + seed % 3)


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(larger_puzzles(), st.integers(0, 10**6))
def test_both_builds_agree_on_larger_random_tilings(puzzle: PolyominoPuzzle, seed: int) -> None:
    problem = puzzle.problem
    same_tables(problem, some(random.Random(seed), problem.n_options, 0.1), 1, True)
    same_state(problem, (), set())


def test_both_forms_of_ineligible_agree() -> None:
    tiling = catalog.load_file("pentomino-3x20").puzzles[0].problem
    coloured = CoverBuilder()
    coloured.primary("a")
    coloured.neighbours("a", [])
    coloured.secondary("s")
    coloured.option(["a", "s"], "x", [None, "red"])
    bounds = tiling.replace(hi=[2] + tiling.arrays.hi[1:].tolist())
    no_cell = tiling.replace(start=tiling.arrays.start.tolist() + [len(tiling.arrays.items) + 1],
                             items=tiling.arrays.items.tolist() + [70],
                             colors=tiling.arrays.colors.tolist() + [0],
                             labels=tiling.labels + (None,))  # fmt: skip
    empty = tiling.replace(start=tiling.arrays.start.tolist() + [len(tiling.arrays.items)],
                           labels=tiling.labels + (None,))  # an option of no item (fmt: skip)
    queens = catalog.load_file("queens-8").puzzles[0].problem
    for problem in (tiling, coloured.build(), bounds, no_cell, empty, queens):
        if problem.n_graph:
            plain = bitboard_fit._ineligible_plain(problem)
            assert plain == bitboard_fit._ineligible_numpy(problem)
            assert (plain is None) == (problem is tiling)


def test_plain_path_only_for_the_c_kernels_without_numpy_and_small_problems(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    small = catalog.load_file("soma-cube").puzzles[0].problem
    assert not bitboard_fit.plain_path(small)  # numpy is loaded in this process
    monkeypatch.delitem(sys.modules, "numpy")
    assert bitboard_fit.plain_path(small)
    kernel_choice.use(kernel_choice.NUMBA)
    try:
        assert not bitboard_fit.plain_path(small)  # numba's kernels take numpy's arrays
    finally:
        kernel_choice.use(kernel_choice.C)
    monkeypatch.setattr(bitboard_fit, "PLAIN_MAX_ENTRIES", len(small.arrays.items) - 1)
    assert not bitboard_fit.plain_path(small)


def test_plain_tables_are_refused_to_numbas_kernels() -> None:
    """An engine made under the C kernels keeps its tables; numba's cannot read plain ones
    (refused before numba compiles anything: its own counts are tests/test_bitboard.py's).
    pentomino-3x20's 8 tilings: tiling-3x12's 1.8 billion took this test 130-238 s."""
    problem = catalog.load_file("pentomino-3x20").puzzles[0].problem.replace()
    with build(True):
        engine = BitboardEngine(problem)
    kernel_choice.use(kernel_choice.NUMBA)
    try:
        with pytest.raises(RuntimeError, match="C kernels only"):
            engine.count()
        fresh = BitboardEngine(problem)  # under numba's kernels: tables of its own, numpy's
        assert not fresh._tables.plain
    finally:
        kernel_choice.use(kernel_choice.C)
    with build(False):
        counted = BitboardEngine(problem).count()
    assert engine.count() == counted == 8  # and the first engine counts again with the C ones


def test_a_library_solve_loads_no_numpy() -> None:
    """soma-cube's and 6x10's first solution and 6x10's count, through the bitboard engine's
    step-wise search (as the registry starts it), in a fresh interpreter."""
    script = textwrap.dedent("""
        import sys
        from puzzlebox import catalog
        from puzzlebox.engine import bitboard
        from puzzlebox.engine.search import Job, Mode, count_all, each_solution

        for name, mode in [("soma-cube", Mode.SOLUTIONS), ("pentomino-6x10", Mode.SOLUTIONS),
                           ("pentomino-6x10", Mode.COUNT)]:
            puzzle = catalog.load_file(name).puzzles[0]
            job = Job(puzzle.problem, mode, limit=None if mode is Mode.COUNT else 1)
            search = bitboard.start(job)
            if mode is Mode.COUNT:
                print(count_all(search)[0])
            else:
                first = next(each_solution(search))
                print(puzzle.problem.is_solution(first))
            print(search._search.t.plain)
        print("numpy" in sys.modules)
    """)
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                          timeout=120, env={**os.environ, "PUZZLEBOX_KERNELS": "c"},
                          check=True)  # fmt: skip
    assert done.stdout.split() == ["True", "True", "True", "True", "9356", "True", "False"]
