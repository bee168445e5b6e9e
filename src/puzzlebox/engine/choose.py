"""Which engine runs a search when the user says "auto", and how a seed changes the search.

Backtracking (the compiled engine) is the best general tool and stays the default. A SAT
solver pays off only when backtracking is hopeless, which the estimator can tell before
searching: Knuth's random probes (:mod:`puzzlebox.engine.estimate`) estimate the tree's nodes
and solutions, and their ratio is about how many nodes a search walks per solution. The rule:

* only a search for the first few solutions (``limit`` at most :data:`FIRST_FEW`) may go to
  SAT: SAT finds each further solution by solving again;
* only a big problem (at least :data:`SAT_MIN_OPTIONS` options) is probed at all, so that
  small puzzles never pay for the probes;
* SAT is chosen when the estimated nodes per solution exceed :data:`SAT_NODES_PER_SOLUTION`
  (about an hour of backtracking at ten million nodes a second) and OR-Tools is installed.

Otherwise a search for the first few solutions under "auto" is the plain engine hedged by
randomised restarts once it has run long (:class:`puzzlebox.engine.restarts.HedgedEngine`).

A polyomino puzzle asks :func:`backtracking_hopeless` itself before it gets here, and where
backtracking is hopeless it tries its own local search for one tiling first (sink and exact
finish, ``puzzles/repair_tiling.py``), which tiles ``parallelogram-7`` in about 90 s where
CP-SAT finds nothing in minutes; SAT remains for what that search cannot take.

Probes rarely reach a solution of a tight packing: half a second of them finds none for
``parallelogram-6`` either, which the compiled engine solves in 47,504 nodes, so the size
threshold matters as much as the estimate (``parallelogram-7``, 114,768 options and no
probe solution, is judged hopeless and, being a polyomino puzzle, goes to the sink search
first; ``parallelogram-6``, 8,204 options, stays with backtracking). Measurements behind
the numbers are in ``bench/RESULTS.md`` ("Hard instances") and ``docs/hard-instances.md``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from puzzlebox.cover.problem import CoverProblem
from puzzlebox.engine.sat import SatEngine, sat_available

if TYPE_CHECKING:
    from puzzlebox.engine import Engine

FIRST_FEW = 3
SAT_MIN_OPTIONS = 20_000
SAT_NODES_PER_SOLUTION = 3.6e10
PROBE_SECONDS = 0.5


def nodes_per_solution(problem: CoverProblem, seconds: float = PROBE_SECONDS) -> float:
    """Estimated backtracking nodes per solution (infinite when no probe found a solution)."""
    from puzzlebox.engine.estimate import estimate_tree

    estimate = estimate_tree(problem, probes=10_000, seed=0, max_seconds=seconds)
    if estimate.nodes == 0:
        return 0.0  # the engine proves there is nothing to search
    if estimate.solutions <= 0:
        return float("inf")
    return estimate.nodes / estimate.solutions


def worth_probing(problem: CoverProblem, limit: int | None) -> bool:
    """Whether the search is for the first few solutions of a big problem: the only kind
    that may be hopeless for backtracking, and the only kind worth the probes' time."""
    return limit is not None and limit <= FIRST_FEW and problem.n_options >= SAT_MIN_OPTIONS


def backtracking_hopeless(problem: CoverProblem, limit: int | None) -> bool:
    """Whether a search for the first ``limit`` solutions of ``problem`` is beyond
    backtracking: only a search for the first few solutions of a big problem is probed, and
    it is hopeless when the estimated nodes per solution exceed about an hour of search."""
    if not worth_probing(problem, limit):
        return False
    return nodes_per_solution(problem) > SAT_NODES_PER_SOLUTION


def choose_engine(problem: CoverProblem, engine: str = "auto", limit: int | None = None) -> str:
    """The engine name a search of ``problem`` for ``limit`` solutions should use.

    OR-Tools is looked for only once the problem is big enough to be probed: importing it
    takes about a quarter of a second, which every small solve would otherwise pay.
    """
    if engine != "auto" or not worth_probing(problem, limit) or not sat_available():
        return engine
    return "sat" if backtracking_hopeless(problem, limit) else "auto"


def make_searcher(
    problem: CoverProblem,
    engine: str = "auto",
    limit: int | None = None,
    seed: int | None = None,
) -> Engine:
    """The engine that looks for ``limit`` solutions: chosen by :func:`choose_engine`; under
    "auto" a search for the first few is hedged against a heavy tail
    (:class:`~puzzlebox.engine.restarts.HedgedEngine`); with a ``seed`` randomised (SAT
    takes the seed itself; backtracking engines are run on shuffled copies of the problem
    with restarts, see :mod:`puzzlebox.engine.restarts`)."""
    from puzzlebox.engine import make_engine
    from puzzlebox.engine.progress import watched
    from puzzlebox.engine.restarts import HedgedEngine, RestartEngine

    name = choose_engine(problem, engine, limit)
    if seed is None:
        if name == "auto" and limit is not None and limit <= FIRST_FEW:
            # the first few solutions: the plain search, hedged by restarts once it runs long
            return watched(HedgedEngine(problem))
        return make_engine(problem, name)
    if name == "sat":
        return watched(SatEngine(problem, seed=seed))
    return watched(RestartEngine(problem, inner=name, seed=seed))
