"""Knuth's estimate of a search tree, as its numbers: what any engine's probes report, with
no numpy, so that an engine whose search needs none (the bitboard engine with the C kernels)
estimates its own tree without loading it (0.12 s of CPU, #38 item 6). engine/estimate.py
probes the compiled engine's tree; engine/bitboard.py its own."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from puzzlebox.words import duration_text, noun_for

# Below this many probes finding a solution, the solution estimate is not given. With at least
# this many, every estimate of a solution count measured (docs/estimates.md, tests/
# test_progress.py: n-queens, pentomino tilings) was within SOLUTION_FACTOR of the truth.
MIN_SOLUTION_PROBES = 30
SOLUTION_FACTOR = 2.0


@dataclass(frozen=True)
class TreeEstimate:
    """Knuth's estimate of a search tree: means over the probes and their standard errors."""

    nodes: float
    nodes_error: float  # standard error of the mean
    solutions: float
    solutions_error: float
    probes: int
    mean_depth: float
    seconds: float  # spent probing (not counting compilation)
    solution_probes: int = 0  # probes that found a solution (at their leaf or below)
    exact: bool = False  # the whole tree was searched: nodes and solutions are its counts

    @property
    def solutions_estimated(self) -> bool:
        """Whether enough probes found a solution for :attr:`solutions` to mean anything
        (within :data:`SOLUTION_FACTOR` on the trees tested), or the count is exact (an
        empty tree, no node at all, has exactly none)."""
        return self.exact or self.nodes == 0 or self.solution_probes >= MIN_SOLUTION_PROBES

    def seconds_at(self, nodes_per_second: float) -> float:
        """How long the engine would take for the whole tree at that speed."""
        return self.nodes / nodes_per_second if nodes_per_second > 0 else math.inf

    def probes_text(self) -> str:
        """What the estimate cost: "1000 probes in 0.3 s", or the search of the whole tree."""
        if self.exact:
            return f"the whole tree searched in {duration_text(self.seconds)}"
        plural = "" if self.probes == 1 else "s"
        return f"{self.probes} probe{plural} in {duration_text(self.seconds)}"

    def solutions_text(self) -> str:
        """The solution estimate in words, or why there is none."""
        if self.exact or self.nodes == 0:
            return (f"{self.solutions:.0f} {noun_for(round(self.solutions), 'solution')} in the "
                    "tree (searched in full)")
        if self.solutions_estimated:
            spread = 100 * self.solutions_error / self.solutions if self.solutions else 0.0
            return (f"{self.solutions:.3g} solutions in the tree (\u00b1{spread:.0f}%, "
                    f"{self.solution_probes} of {self.probes} probes found one)")
        if self.solution_probes == 0:
            return (f"solutions not estimated: none of {self.probes} probes found one "
                    "(that is no proof that there are none)")
        return (f"solutions not estimated: only {self.solution_probes} of {self.probes} probes "
                f"found one (an estimate needs {MIN_SOLUTION_PROBES})")


def probe_values(path: list[int]) -> tuple[float, float, list[float]]:
    """(nodes, solutions, weights) of one probe record: the degrees along the path, then the
    nodes and solutions of the subtree where it stopped (a leaf: 1 node, 1 or 0 solutions).
    ``weights[k]`` is the product of the first ``k`` degrees: the estimate of the number of
    nodes at depth ``k``."""
    weights = [1.0]
    for degree in path[:-2]:
        weights.append(weights[-1] * degree)
    weight = weights[-1]
    return sum(weights[:-1]) + weight * path[-2], weight * path[-1], weights


def plain_estimate(paths: Sequence[Sequence[int]], seconds: float, root: int = 1) -> TreeEstimate:
    """The estimate from plain probes (Knuth's: no subtree searched), each recorded as the
    degrees along its path and then 1 where its leaf is a solution, else 0: the means over
    the probes and their standard errors. ``root=0`` leaves the root out of the nodes (an
    engine that counts the options it places, not the nodes it enters)."""
    nodes: list[float] = []
    solutions: list[float] = []
    depths: list[int] = []
    for path in paths:
        n, s, weights = probe_values([*path[:-1], 1, path[-1]])
        nodes.append(n - (1 - root))
        solutions.append(s)
        depths.append(len(weights) - 1)
    count = len(nodes)
    return TreeEstimate(
        nodes=math.fsum(nodes) / count if count else math.nan,
        nodes_error=_standard_error(nodes),
        solutions=math.fsum(solutions) / count if count else math.nan,
        solutions_error=_standard_error(solutions),
        probes=count,
        mean_depth=math.fsum(depths) / count if count else math.nan,
        seconds=seconds,
        solution_probes=sum(1 for s in solutions if s),
    )


def _standard_error(values: Sequence[float]) -> float:
    """The standard error of the mean of ``values`` (infinite for fewer than two, or for
    values past a float's range: a tree that large has no spread to give)."""
    if len(values) < 2 or not all(math.isfinite(v) for v in values):
        return math.inf
    mean = math.fsum(values) / len(values)
    try:
        variance = math.fsum((v - mean) ** 2 for v in values) / (len(values) - 1)
    except OverflowError:
        return math.inf
    return math.sqrt(variance / len(values))
