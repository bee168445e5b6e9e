"""How big is the search tree? Knuth's random-probe estimate, on the compiled engine's own tree.

Knuth (1975, "Estimating the efficiency of backtrack programs") walks one random path from
the root: at a node with ``d`` children it multiplies a running product by ``d`` and steps
to one child chosen uniformly. The sum of the products along the path, ``1 + d1 + d1 d2 +
...``, is an unbiased estimate of the number of nodes, and the product at a solution leaf
(0 at a dead end) an unbiased estimate of the number of solutions. Averaging many probes
shrinks the error; the spread of the probes says by how much.

The estimate is only as good as the tree it walks, so the compiled engine walks it itself:
its kernel (numba's or the C port, as the search) has a probe mode (``cover_kernels.M_PROBE``)
that chooses the item, covers and takes options exactly as the search does, takes one branch
of each node at random and writes the degrees along the path. There is no second statement
of the engine's rules to keep equal.

Solutions are another matter: in a tree with few solutions among many dead ends (a
pentomino tiling) plain probes almost never reach one (1000 probes of the pentomino trees in
docs/estimates.md reached none, and reported "0 solutions"). So each probe goes down at random
only to a depth where subtrees have about :data:`SUBTREE_NODES` nodes, and searches that
subtree in full (Purdom's partial backtracking): still unbiased, and a probe finds the
solutions of a whole subtree. A pilot of plain probes chooses the depth; a tree no bigger than
the probes would search anyway is searched once, exactly. An estimate still reports how many
probes found a solution (:attr:`TreeEstimate.solution_probes`), and
:attr:`TreeEstimate.solutions_estimated` is False below :data:`MIN_SOLUTION_PROBES`: then the
probes say nothing about the number of solutions, and "0" would read as "impossible".
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Iterable

import numpy as np

from puzzlebox.cover.problem import CoverProblem
from puzzlebox.engine import cover_kernels as K
from puzzlebox.engine.compiled import _i32, _Search, _Tables, _warm_up
from puzzlebox.engine.compiled import tables as kernel_tables
from puzzlebox.engine.registry import get
from puzzlebox.engine.search import Job, Mode
from puzzlebox.engine.tree_estimate import (
    MIN_SOLUTION_PROBES,
    SOLUTION_FACTOR,
    TreeEstimate,
    probe_values,
)

__all__ = [  # the estimate's numbers (engine/tree_estimate.py) are read from here too
    "MIN_SOLUTION_PROBES", "SOLUTION_FACTOR", "PartSizes", "TreeEstimate", "cutoff_depth",
    "engine_speed", "estimate_tree",
]

PILOT_PROBES = 1000  # plain probes that estimate the nodes at each depth
SUBTREE_NODES = 1000  # the size of the subtrees the probes search in full

_NO_LIMIT = 1 << 62
_SLICE_SECONDS = 0.05  # probes per kernel call: about this long, so a time limit is kept
_NODE_CAP = 6  # the probes stop after this many times the nodes planned for them
_OVERRUN = 3  # probes costing this many times the planned subtree go one level deeper


def _seed_register(seed: int) -> np.int64:
    """Any Python int as the 64 bits of the kernel's seed register."""
    bits = np.array([seed % (1 << 64)], dtype=np.uint64).view(np.int64)
    return np.int64(bits[0])  # numpy types an array's element as Any; this is the same int64


def cutoff_depth(level_nodes: list[float], subtree_nodes: float) -> int:
    """The shallowest depth whose nodes have subtrees of at most ``subtree_nodes`` nodes on
    average, from the estimated number of nodes at each depth (0: the whole tree is that
    small)."""
    below = 0.0
    depth = len(level_nodes)
    for k in range(len(level_nodes) - 1, -1, -1):
        below += level_nodes[k]
        if level_nodes[k] > 0 and below / level_nodes[k] <= subtree_nodes:
            depth = k
        elif level_nodes[k] > 0:
            break
    return depth


class _Probes:
    """Probes of one search, collected: what each estimated, and how deep it went."""

    def __init__(self) -> None:
        self.nodes: list[float] = []
        self.solutions: list[float] = []
        self.depths: list[int] = []
        self.level_nodes: list[float] = []  # summed over the probes

    def add(self, path: list[int]) -> None:
        n, s, weights = probe_values(path)
        self.nodes.append(n)
        self.solutions.append(s)
        self.depths.append(len(weights) - 1)
        if len(self.level_nodes) < len(weights):
            self.level_nodes += [0.0] * (len(weights) - len(self.level_nodes))
        for k, w in enumerate(weights):
            self.level_nodes[k] += w

    def __len__(self) -> int:
        return len(self.nodes)


def _run_probes(search: _Search, probes: _Probes, wanted: int, depth: int,
                deadline: float | None, max_nodes: int, subtree_nodes: int = 0,
                clock: Callable[[], float] = time.perf_counter) -> None:
    """Add probes that search the subtrees at ``depth`` in full until there are ``wanted``,
    the clock passes ``deadline`` (once there is one probe at least, when there is no
    ``subtree_nodes``) or the search has entered ``max_nodes`` nodes in all (a probe cut
    short is dropped). With ``subtree_nodes``, a depth whose probes cost more than
    :data:`_OVERRUN` times that many nodes each is given up for the next one down: each
    probe is unbiased whatever its depth, so the mean of all of them is too (the depth
    changes between probes only)."""
    chunk = 16
    budget = 1 << 12  # nodes per kernel call: doubled while a call is quicker than a slice
    since, at_depth = search.nodes, len(probes)
    while len(probes) < wanted and search.nodes < max_nodes:
        t0 = time.perf_counter()
        before = len(probes)
        nodes_before = search.nodes
        for path in search.run(K.M_PROBE, depth, min(chunk, wanted - before),
                               min(max_nodes - search.nodes, budget)):
            probes.add(path)
        now = time.perf_counter()
        if deadline is not None and clock() >= deadline and (len(probes) or subtree_nodes):
            break
        if search.nodes - nodes_before >= budget and now - t0 < _SLICE_SECONDS:
            budget *= 2
        done_here = len(probes) - at_depth
        costly = search.nodes - since > _OVERRUN * subtree_nodes * max(done_here, 1)
        between = search.regs[K.R_LEVEL] == 0 and search.regs[K.R_PHASE] == K.P_ENTER
        if subtree_nodes and costly and between:
            depth += 1
            since, at_depth = search.nodes, len(probes)
            chunk = 16
            continue
        per_probe = max((now - t0) / max(len(probes) - before, 1), 1e-7)
        chunk = int(min(max(_SLICE_SECONDS / per_probe, 1), 1 << 16))


def estimate_tree(
    problem: CoverProblem,
    probes: int = 1000,
    seed: int = 0,
    forced: Iterable[int] = (),
    excluded: Iterable[int] = (),
    max_seconds: float | None = None,
    subtree_nodes: int = SUBTREE_NODES,
    clock: Callable[[], float] = time.perf_counter,
) -> TreeEstimate:
    """Estimate the compiled engine's tree for ``problem`` (with ``forced``/``excluded``
    options) from ``probes`` random probes, stopping early after ``max_seconds`` (at least
    one probe).

    First :data:`PILOT_PROBES` plain probes (Knuth's) estimate how many nodes each depth
    has; then each probe goes down at random to the depth where subtrees have about
    ``subtree_nodes`` nodes and searches that subtree in full. A tree that small as a whole
    is searched once, exactly. ``subtree_nodes=0``: plain probes only. Probe ``p`` draws
    from ``(seed, p)`` alone, so a result is reproducible. ``clock`` measures
    ``max_seconds``: ``time.process_time`` makes the number of probes, and so the estimate,
    independent of what else the machine runs (budget.py's refusals rely on that).
    """
    return _estimate(problem, kernel_tables(problem), probes, seed, forced, excluded,
                     max_seconds, subtree_nodes, clock)


def _estimate(problem: CoverProblem, tables: _Tables, probes: int, seed: int,
              forced: Iterable[int], excluded: Iterable[int], max_seconds: float | None,
              subtree_nodes: int, clock: Callable[[], float]) -> TreeEstimate:
    """:func:`estimate_tree` on the kernel's tables of ``problem``, built by the caller."""
    if probes < 1:
        raise ValueError("probes must be at least 1")
    forced = problem.option_set(forced, "forced")
    excluded = problem.option_set(excluded, "excluded")
    _warm_up()  # numba's kernels: compiled (or loaded from its cache) before the clock starts
    search = _Search(tables, _i32(excluded), _i32(forced))
    if search.finished:  # the forced options clash: the engine enters no node at all
        return TreeEstimate(0.0, 0.0, 0.0, 0.0, probes, 0.0, 0.0)
    search.regs[K.R_SEED] = _seed_register(seed)
    began = time.perf_counter()
    deadline = None if max_seconds is None else clock() + max_seconds
    pilot = _Probes()
    wanted = probes if subtree_nodes <= 0 else min(PILOT_PROBES, max(probes, 100))
    _run_probes(search, pilot, wanted, _NO_LIMIT, deadline, _NO_LIMIT, clock=clock)
    result = pilot
    exact = False
    out_of_time = deadline is not None and clock() >= deadline
    if subtree_nodes > 0 and not out_of_time:
        level_nodes = [total / len(pilot) for total in pilot.level_nodes]
        planned = probes * subtree_nodes
        # a tree no bigger than the probes would search anyway is searched once, exactly
        depth = 0 if sum(level_nodes) <= planned else cutoff_depth(level_nodes, subtree_nodes)
        if depth < len(level_nodes) - 1:
            full = _Probes()
            # a pilot that misjudged the tree by far is not followed past a node budget
            _run_probes(search, full, 1 if depth == 0 else probes, depth, deadline,
                        search.nodes + _NODE_CAP * planned, subtree_nodes, clock)
            if len(full):
                result = full
                exact = depth == 0
    node_values = np.array(result.nodes)
    sol_values = np.array(result.solutions)

    def error(values: np.ndarray) -> float:
        if exact:
            return 0.0
        if len(values) < 2 or not np.isfinite(values).all():
            return math.inf  # a tree past a float's range (1000 named monominoes) has no spread
        with np.errstate(over="ignore"):  # squares past a float's range: an infinite error
            return float(values.std(ddof=1) / math.sqrt(len(values)))

    return TreeEstimate(
        nodes=float(node_values.mean()),
        nodes_error=error(node_values),
        solutions=float(sol_values.mean()),
        solutions_error=error(sol_values),
        probes=len(result),
        mean_depth=float(np.mean(pilot.depths)),
        seconds=time.perf_counter() - began,
        solution_probes=int(np.count_nonzero(sol_values)),
        exact=exact,
    )


class PartSizes:
    """Knuth's plain probes (no subtree searched in full) of many subproblems of one problem,
    the kernel's tables built once: a millisecond or so a subproblem, for the time rule of a
    split count.

    Plain probes are cheap (a path from the subproblem's root, nothing searched below) and
    their sum over a split's parts is stratified: each part is estimated on its own, so
    the sum spreads less than as many probes of the whole tree would. The time rule of a
    split count uses them (parallel/run.py ``parts_tree``, where the numbers are)."""

    def __init__(self, problem: CoverProblem, probes: int = 128, seed: int = 0,
                 max_seconds: float | None = None,
                 clock: Callable[[], float] = time.process_time) -> None:  # fmt: skip
        self.problem = problem
        self.probes = probes
        self.seed = seed
        self.max_seconds = max_seconds
        self.clock = clock
        self._tables = kernel_tables(problem)

    def __call__(self, forced: Iterable[int], excluded: Iterable[int]) -> TreeEstimate:
        """The estimate of the subproblem with ``forced`` and ``excluded`` options."""
        return _estimate(self.problem, self._tables, self.probes, self.seed, forced, excluded,
                         self.max_seconds, 0, self.clock)


def engine_speed(
    problem: CoverProblem,
    seconds: float = 0.25,
    forced: Iterable[int] = (),
    excluded: Iterable[int] = (),
) -> tuple[float, int | None]:
    """Nodes per second of the compiled engine on this problem, from a short run of it.

    A plain loop over the engine's step-wise search (engine/search.py), in steps that double
    from 4096 nodes up to about a million, until ``seconds`` have passed or the tree is done.
    Returns ``(speed, nodes)``: ``nodes`` is the whole tree's size when the run finished it,
    else None.
    """

    job = Job(problem, Mode.COUNT, tuple(forced), tuple(excluded))
    search = get("compiled").start(job)
    began = time.perf_counter()
    step_nodes = 1 << 12
    while not search.step(step_nodes).done and time.perf_counter() - began < seconds:
        step_nodes = min(step_nodes * 2, 1 << 20)
    stats = search.stats
    spent = max(stats.search_seconds, 1e-9)
    return stats.nodes / spent, (stats.nodes if stats.complete else None)
