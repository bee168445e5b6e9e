"""Knuth's probes of the bitboard engine's own tree (engine/bitboard.py ``PartSizes``, the
kernel's probe mode): their mean is the number of options the engine places (checked against
its count, subproblems included), the C kernels and numba's draw the same probes, and a probe
cut short by a node budget carries on as if it had not been."""

from __future__ import annotations

import math

import pytest

from puzzlebox import catalog
from puzzlebox.cover.problem import CoverProblem
from puzzlebox.engine import bitboard, kernel_choice
from puzzlebox.engine.bitboard import BitboardEngine, PartSizes

# every test here runs with the C kernels and with numba's (tests/conftest.py)
pytestmark = pytest.mark.usefixtures("kernels")

PROBES = 20_000


def problem_of(name: str) -> CoverProblem:
    return catalog.load_file(name).puzzles[0].problem


def placed(problem: CoverProblem, forced: tuple[int, ...] = (),
           excluded: tuple[int, ...] = ()) -> int:  # fmt: skip
    """The options the engine places counting the subproblem: its tree's nodes."""
    engine = BitboardEngine(problem, forced, excluded)
    engine.count()
    return engine.stats.nodes


# pentominoes in a strip (one of each piece), 3-D pentominoes, ten Y pentominoes (the search
# branches on a counter that needs several options), four-square blocks, Soma's cube
@pytest.mark.parametrize("name", ["pentomino-3x20", "solid-pentominoes-2x3x10",
                                  "y-pentomino-5x10", "blocks-4x4", "soma-cube"])
def test_the_probes_estimate_the_tree_the_engine_counts(name: str) -> None:
    problem = problem_of(name)
    assert bitboard.ineligible(problem) is None
    sizes = PartSizes(problem, PROBES, seed=3)
    parts = [((), ()), *BitboardEngine(problem).subproblems(2)[:3]]
    spreads = []
    for forced, excluded in parts:
        truth = placed(problem, forced, excluded)
        estimate = sizes(forced, excluded)
        assert estimate.probes == PROBES and estimate.nodes_error < math.inf
        # unbiased: within four standard errors (the seed fixes the probes: no flakiness); a
        # subtree whose every node has one branch, or none, has no spread and is exact
        assert abs(estimate.nodes - truth) <= 4 * estimate.nodes_error, (forced, truth)
        assert estimate.nodes_error <= 0.25 * truth
        spreads.append(estimate.nodes_error)
    assert spreads[0] > 0  # the whole tree's probes took different paths


def test_a_dead_root_and_clashing_forced_options_are_exact() -> None:
    """No node at all: a board no option can fill at its root, forced options that clash."""
    holes = problem_of("pentomino-6x10-two-holes")  # 58 cells: no region can be filled
    empty = PartSizes(holes, 16)((), ())
    assert (empty.nodes, empty.solutions) == (0.0, 0.0) and empty.exact
    strip = problem_of("pentomino-3x20")
    a, b = [k for k in range(strip.n_options) if (0, 0) in strip.option(k)][:2]
    clash = PartSizes(strip, 16)((a, b), ())
    assert (clash.nodes, clash.probes, clash.exact) == (0.0, 0, True)


def test_the_probes_go_on_across_kernel_calls(monkeypatch: pytest.MonkeyPatch) -> None:
    """A node budget of one stops the kernel at every placement, in the middle of a probe:
    the probes, and so the estimate, are the same as in one call."""
    problem = problem_of("y-pentomino-5x10")
    whole = PartSizes(problem, 300, seed=11)((), ())
    monkeypatch.setattr(bitboard, "_PROBE_NODES", 1)
    sliced = PartSizes(problem, 300, seed=11)((), ())
    assert (sliced.nodes, sliced.nodes_error, sliced.solutions) == (
        whole.nodes, whole.nodes_error, whole.solutions)
    other = PartSizes(problem, 300, seed=12)((), ())
    assert other.nodes != whole.nodes  # the seed draws them


def test_c_and_numba_draw_the_same_probes() -> None:
    """The kernels are one algorithm statement for statement: the same seed, the same
    estimates, on the default kernels and on every other backend installed."""
    problem = problem_of("solid-pentominoes-2x3x10")
    parts = BitboardEngine(problem).subproblems(1)[:4]
    chosen = kernel_choice.wanted()
    found = {}
    try:
        for backend in kernel_choice.available():
            kernel_choice.use(backend)
            sizes = PartSizes(problem, 200, seed=5)
            found[backend] = [(e.nodes, e.nodes_error, e.solutions, e.solution_probes)
                              for e in (sizes(f, x) for f, x in parts)]
    finally:
        kernel_choice.use(chosen)
    assert len({tuple(v) for v in found.values()}) == 1, found
