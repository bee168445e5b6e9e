"""Which problems the bitboard engine (engine/bitboard.py) takes, decided without loading
its kernel: the registry asks this for every job, and listing engines or counting with memo
must not import numba."""

from __future__ import annotations

import numpy as np

from puzzlebox.cover.problem import CoverProblem

_MAX_BYTES = 1 << 29  # bit-set tables larger than this are left to the general engine


def _table_bytes(problem: CoverProblem) -> int:
    """An upper bound on the memory of the kernel's bit sets for ``problem``."""
    words = (problem.n_options + 63) // 64
    depth = problem.n_graph + 2
    return 8 * words * (2 * depth + problem.n_items)


def ineligible(problem: CoverProblem) -> str | None:
    """Why the bitboard engine cannot solve ``problem``, or None when it can."""
    m = problem.n_graph
    if m == 0:
        return "the problem has no graph of cells"
    if np.any(problem.colors != 0):
        return "the problem gives secondary items colours"
    if np.any(problem.lo[:m] != 1) or np.any(problem.hi[:m] != 1):
        return "the graph's items are not all covered exactly once"
    n_options = problem.n_options
    owner = np.repeat(np.arange(n_options), np.diff(problem.start))
    items = problem.items
    if np.any(np.bincount(owner[items < m], minlength=n_options) == 0):
        return "an option covers no cell"
    if _table_bytes(problem) > _MAX_BYTES:
        return "the problem is too large for the bitboard engine's tables"
    return None
