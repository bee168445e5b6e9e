"""Which problems the bitboard engine (engine/bitboard.py) takes, decided without loading
its kernel: the registry asks this for every job, and listing engines or counting with memo
must not import numba."""

from __future__ import annotations

import sys
import threading
import weakref
from collections.abc import Callable, Hashable
from typing import Generic, TypeVar

from puzzlebox.cover.problem import CoverProblem
from puzzlebox.engine import kernel_choice

T = TypeVar("T")


class PerProblem(Generic[T]):
    """What is worked out from a problem alone, kept while the problem lives, for the last
    ``kept`` problems: a split count starts the engine once per subproblem and symmetry
    part, always on the same problem (bench/RESULTS.md, #23 item 4). Keyed by the
    problem's identity (its arrays are not hashable) and checked by a weak reference, so
    another problem that reuses a dead one's id is never given its answers; what a dead
    problem had is dropped with it (the bitboard tables can be large)."""

    def __init__(self, kept: int) -> None:
        self.kept = kept
        self._held: dict[tuple[int, Hashable], tuple[weakref.ref[CoverProblem], T]] = {}
        self._lock = threading.RLock()  # the drop runs at garbage collection, maybe inside

    def __len__(self) -> int:
        return len(self._held)

    def _drop(self, at: tuple[int, Hashable], ref: weakref.ref[CoverProblem]) -> None:
        with self._lock:
            held = self._held.get(at)
            if held is not None and held[0] is ref:
                del self._held[at]

    def get(self, problem: CoverProblem, key: Hashable, make: Callable[[], T]) -> T:
        """The value kept for ``(problem, key)``, made by ``make`` the first time."""
        at = (id(problem), key)
        with self._lock:
            held = self._held.get(at)
            if held is not None and held[0]() is problem:
                self._held[at] = self._held.pop(at)  # the latest used goes last
                return held[1]
        value = make()
        with self._lock:
            self._held.pop(at, None)
            while len(self._held) >= self.kept:
                self._held.pop(next(iter(self._held)))
            ref = weakref.ref(problem, lambda r: self._drop(at, r))
            self._held[at] = (ref, value)
        return value


_reasons: PerProblem[str | None] = PerProblem(8)

_MAX_BYTES = 1 << 29  # bit-set tables larger than this are left to the general engine


def _table_bytes(problem: CoverProblem) -> int:
    """An upper bound on the memory of the kernel's bit sets for ``problem``."""
    words = (problem.n_options + 63) // 64
    depth = problem.n_graph + 2
    return 8 * words * (2 * depth + problem.n_items)


def ineligible(problem: CoverProblem) -> str | None:
    """Why the bitboard engine cannot solve ``problem``, or None when it can (worked out
    once per problem: the registry and the engine ask it for every part of a count)."""
    return _reasons.get(problem, None, lambda: _ineligible(problem))


# The largest problem (entries: the items of all its options) whose tables are built in
# plain Python while numpy is not loaded. `python bench/bitboard_plain.py tables NAME ...`
# (ms of CPU per call, plain / numpy, tables | the search's start | this module's test,
# median of 7 rounds of a loop of 20 calls, the two builds interleaved, 2-core machine
# shared with other sessions, load 2.8-3.4; issue #23 item 1 made the plain build work per
# option and per cell, not per entry):
#   soma-cube                 3,296 entries  1.8 / 1.4 | 0.04 / 0.07 | 0.18 / 0.03
#   pentomino-6x10           12,336 entries  9.2 / 5.6 | 0.10 / 0.15 | 0.59 / 0.05
#   solid-pentominoes-2x3x10  9,168 entries  6.9 / 4.2 | 0.12 / 0.16 | 0.70 / 0.05
#   bedlam-cube              24,804 entries   25 / 18  | 0.16 / 0.30 | 1.2 / 0.12
#   parallelogram-6          58,220 entries   74 / 72  | 0.37 / 0.68 | 2.7 / 0.24
#   parallelogram-6-rotate  202,072 entries  188 / 63  | 1.1 / 1.7   |  10 / 0.6 (3 of 3)
# (before it, at load 0.8-1.1 and one call a round: 6x10 14.6 / 7.1, the rotated
# parallelogram 332 / 69), and `import numpy` 0.11-0.16 s (5 runs, load 2.3-3.0). The plain
# build costs 0.3-0.6 us an entry more than numpy's (was 0.6-1.3), so it passes numpy's
# import and build near 190,000 entries; 150,000 leaves room for the import's cheaper runs
# and the load. Before, a library solve through the engine
# (`python bench/bitboard_plain.py library --before DIR`, whole process, s of CPU, median of
# 7, load 1.1-1.3, against the tree before the plain build): soma-cube 0.22 -> 0.10, 6x10
# 0.24 -> 0.13 and 6x10's count 0.74 -> 0.61, none of them loading numpy now.
PLAIN_MAX_ENTRIES = 150_000


def plain_path(problem: CoverProblem) -> bool:
    """Whether the bitboard engine works out ``problem`` in plain Python (the standard
    library's ``array``, Python ints as bit sets) rather than with numpy: when the C kernels
    run (they read any buffer; numba's take numpy arrays), numpy is not loaded yet (its
    import costs 0.14-0.27 s of CPU, more than a small puzzle's whole search, issue #23) and
    the problem is small enough that the plain build costs less than that import."""
    return (kernel_choice.backend() == kernel_choice.C and "numpy" not in sys.modules
            and len(problem.arrays.items) <= PLAIN_MAX_ENTRIES)  # fmt: skip


def _ineligible(problem: CoverProblem) -> str | None:
    if problem.n_graph == 0:
        return "the problem has no graph of cells"
    reason = _ineligible_plain(problem) if plain_path(problem) else _ineligible_numpy(problem)
    if reason is None and _table_bytes(problem) > _MAX_BYTES:
        return "the problem is too large for the bitboard engine's tables"
    return reason


def _ineligible_numpy(problem: CoverProblem) -> str | None:
    """What in the options keeps the bitboard engine off ``problem``, with numpy."""
    import numpy as np

    m = problem.n_graph
    if np.any(problem.colors != 0):
        return "the problem gives secondary items colours"
    if np.any(problem.lo[:m] != 1) or np.any(problem.hi[:m] != 1):
        return "the graph's items are not all covered exactly once"
    n_options = problem.n_options
    owner = np.repeat(np.arange(n_options), np.diff(problem.start))
    items = problem.items
    if np.any(np.bincount(owner[items < m], minlength=n_options) == 0):
        return "an option covers no cell"
    return None


def _ineligible_plain(problem: CoverProblem) -> str | None:
    """:func:`_ineligible_numpy` in plain Python."""
    m = problem.n_graph
    a = problem.arrays
    if any(a.colors):
        return "the problem gives secondary items colours"
    if any(x != 1 for x in a.lo[:m]) or any(x != 1 for x in a.hi[:m]):
        return "the graph's items are not all covered exactly once"
    start, items = a.start.tolist(), a.items.tolist()
    # an option covers no cell when it is empty or its least item is not a cell: the loop
    # is map's, not a generator's (6x10: 0.43 against 0.97 ms, load 1-2)
    if len(set(start)) < len(start) or max(
        map(min, map(items.__getitem__, map(slice, start, start[1:]))), default=0) >= m:
        return "an option covers no cell"
    return None
