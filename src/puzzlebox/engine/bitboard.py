"""The bitboard engine: a fast path for cover problems that are tilings of a graph.

A problem qualifies when it carries a graph on its first ``m`` primary items (the *cells*,
each covered exactly once), no option gives a secondary item a colour, and every option
covers at least one cell. The other items are *counters*: a primary one is covered between
its bounds, a secondary one at most once. Packing pieces on a board is the example (the
pieces are counters), but nothing here knows that.

Why it is faster than the general engine on such problems:

* the state of a node is two bit sets: the covered cells (one ``uint64`` per 64 cells) and
  the options still available (one bit per option). Placing an option clears, word by word,
  the options that clash with it (for problems of up to a few thousand options, one
  precomputed row of bits per option: a single ``AND NOT`` pass); going back up the tree
  costs nothing, since each level keeps its own copy. There is no linked structure to
  repair;
* the options are numbered by their first cell in a *fill order* of small bandwidth
  (neighbouring cells are close in the order), so the options covering one cell occupy a
  short run of words, and counting them is a few ``AND`` and ``popcount`` instructions.
  Each node branches on the item with the fewest options left (cells and counters whose
  lower bound is not met yet), as in Knuth's Algorithm X. When solutions are listed, ties
  go to the first item and options are tried in the problem's order, as in the reference
  engine, so the first solution found is the same (counting uses cheaper orders);
* after an option is placed, the empty regions next to it are measured by a flood fill on
  the graph. When every option's cells are connected in the graph, an option that covers a
  cell of a closed region lies inside it, so each region's size must be a sum of the sizes
  of the options still allowed (counters bound how often). A region that cannot be filled
  ends the branch at once instead of after exhausting it. The fill starts from all the
  empty neighbours of the option at once and stops when a single region is still growing,
  so a small closed region costs about its own size. It is done before the search and while
  at least 60% of the cells are empty; deeper down, the fewest-options rule finds such a
  region one level later anyway and the subtrees are small (measurements in
  ``bench/RESULTS.md``).

The kernel keeps its stack in arrays and can stop after a number of solutions or nodes and
be called again to carry on, so :class:`BitboardEngine` yields solutions lazily, counts
without building them, and splits the tree into subproblems of forced options; its probe mode
walks one random branch a node from the root, Knuth's estimate of its own tree
(:class:`PartSizes`).
"""

from __future__ import annotations

import sys
import time
from array import array
from bisect import bisect_left
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from itertools import accumulate, chain, repeat
from operator import mul, rshift
from typing import TYPE_CHECKING, Any, Literal, NamedTuple

from puzzlebox.cover.problem import CoverProblem
from puzzlebox.engine import bitboard_fit, kernel_choice
from puzzlebox.engine.bitboard_fit import PerProblem, ineligible
from puzzlebox.engine.kernel_cache import announce
from puzzlebox.engine.progress import Progress, share_walked
from puzzlebox.engine.search import Job, Mode, Step, Subproblem
from puzzlebox.engine.stats import SearchStats, once_per_process
from puzzlebox.engine.tree_estimate import TreeEstimate, plain_estimate

if TYPE_CHECKING:
    import numpy as np

# registers
R_DEPTH = 0  # index of the top frame; -1 once the tree is exhausted
R_ENTER = 1  # 1 when the top frame has not chosen its item yet
R_NODES = 2  # options placed so far
R_SOLUTIONS = 3  # solutions found so far
R_PRUNED = 4  # branches ended by a region that cannot be filled
R_WRITTEN = 5  # int64s written to the output buffer by the last call
R_RNG = 6  # the probes' SplitMix64 stream (M_PROBE)
N_REGS = 7

# modes
M_COUNT = 0  # count solutions only
M_SOLUTIONS = 1  # write each solution as [length, option, ...]
M_FRONTIER = 2  # write each path reaching the given depth (or a solution above it)
M_PROBE = 3  # Knuth's probes: one random branch a node, each path written as [length + 1,
# the options of each frame's item..., 1 for a solution at its leaf or 0], then the root again

# what the kernel returns
S_DONE = 0
S_RECORDS = 1  # wrote the number of records asked for
S_BUDGET = 2  # placed the number of options allowed for this call
S_FULL = 3  # the output buffer cannot hold another record

PRUNE_REGIONS = 1  # the closed-region test (on by default)

_NODE_BUDGET = 1 << 21  # nodes per kernel call between progress reports
_MAX_BATCH = 1 << 12  # solutions per kernel call when enumerating
_NO_LIMIT = 1 << 62
_MAX_CONFLICT_BYTES = 1 << 24  # a row of clashing options per option, up to this size


# -- eligibility and fill order ------------------------------------------------------------


def _neighbours(problem: CoverProblem) -> list[list[int]]:
    a, v = problem.arrays.adj_start.tolist(), problem.arrays.adj_items.tolist()
    return [v[a[i] : a[i + 1]] for i in range(problem.n_graph)]


def _bfs_order(adj: list[list[int]], root: int, seen: list[bool]) -> list[int]:
    """Cuthill-McKee order of ``root``'s component: breadth first, fewest neighbours first."""
    order = [root]
    seen[root] = True
    queue = deque([root])
    while queue:
        x = queue.popleft()
        for y in sorted((y for y in adj[x] if not seen[y]), key=lambda y: (len(adj[y]), y)):
            seen[y] = True
            order.append(y)
            queue.append(y)
    return order


def _bandwidth(order: list[int], adj: list[list[int]]) -> tuple[int, int]:
    """The largest and the total distance in ``order`` between neighbours."""
    where = {x: i for i, x in enumerate(order)}
    spans = [abs(where[x] - where[y]) for x in range(len(adj)) for y in adj[x]]
    return (max(spans, default=0), sum(spans))


def fill_order(problem: CoverProblem) -> list[int]:
    """The order that numbers cells (and so options): the problem's own order of its graph
    items or a breadth-first order from a cell of least degree, whichever has the smaller
    bandwidth, so that the options covering a cell have close numbers."""
    adj = _neighbours(problem)
    m = len(adj)
    candidates = [list(range(m))]
    degree_min = min((len(a) for a in adj), default=0)
    for root in [x for x in range(m) if len(adj[x]) == degree_min][:4]:
        seen = [False] * m
        order = _bfs_order(adj, root, seen)
        for x in range(m):  # the other components, in the problem's order
            if not seen[x]:
                order += _bfs_order(adj, x, seen)
        candidates.append(order)
    return min(candidates, key=lambda o: _bandwidth(o, adj))


# -- the kernels -----------------------------------------------------------------------------


class Kernels(NamedTuple):
    """The three kernels a search calls (engine/_bitboard_kernels.py says what each does)."""

    search: Callable[..., int]
    options_left: Callable[..., None]
    reachable_sizes: Callable[..., None]


def kernels() -> Kernels:
    """The kernels of the backend in use (engine/kernel_choice.py): the C ones built at
    installation, else numba's, imported only here so that numba loads only when it runs."""
    if kernel_choice.backend() == kernel_choice.C:
        c = kernel_choice.compiled_c()
        return Kernels(c.bitboard_search, c.bitboard_options_left, c.bitboard_reachable_sizes)
    from puzzlebox.engine import _bitboard_kernels as nb

    return Kernels(nb.search, nb._options_left, nb._reachable_sizes)


# -- the engine ------------------------------------------------------------------------------


def _all_connected(
    cells: np.ndarray, owner: np.ndarray, adjs: np.ndarray, adjv: np.ndarray, m: int
) -> bool:
    """Whether every option's cells are connected in the graph (``cells`` lists them option
    by option, ``owner`` says whose each is): labels spread along edges inside an option
    until they settle, and then each option must wear one label."""
    import numpy as np

    if cells.size == 0:
        return True
    node = np.arange(cells.size)
    key = owner * m + cells  # sorted: options in order, cells sorted within each
    degree = adjs[cells + 1] - adjs[cells]
    src = np.repeat(node, degree)
    near = adjv[np.repeat(adjs[cells], degree) + _ranges(degree)]
    want = owner[src] * m + near
    at = np.searchsorted(key, want)
    hit = (at < key.size) & (key[np.minimum(at, key.size - 1)] == want)
    src, dst = src[hit], at[hit]
    label = node.copy()
    while True:
        spread = label.copy()
        np.minimum.at(spread, dst, label[src])
        if np.array_equal(spread, label):
            break
        label = spread
    first = np.zeros(owner.size, dtype=bool)
    first[0] = True
    first[1:] = owner[1:] != owner[:-1]
    head = np.maximum.accumulate(np.where(first, node, 0))  # each node's option's first node
    return bool(np.all(label == label[head]))


def _all_connected_plain(first: list[int], sets: list[int], adj: list[list[int]]) -> bool:
    """:func:`_all_connected` for entries numbered by their first cell (``first``, ascending)
    and each cell's entries as a bit set (``sets``): all the entries are flooded at once,
    one big int per cell, so the loops run per edge, not per entry. ``reached[c]`` holds
    the entries whose cells reach ``c`` from their first cell inside their own cells (a
    subset of ``sets[c]``); sweeps up and down the fill order spread it along the edges
    until nothing changes, and then every cell of every entry must be reached."""
    m = len(adj)
    bounds = [bisect_left(first, c) for c in range(m + 1)]
    reached = [(1 << b) - (1 << a) for a, b in zip(bounds, bounds[1:])]
    sweeps = [range(m), range(m - 1, -1, -1)]
    changed, turn = True, 0
    while changed:
        changed = False
        for x in sweeps[turn]:
            r = reached[x]
            if not r:
                continue
            for y in adj[x]:
                grown = reached[y] | (r & sets[y])
                if grown != reached[y]:
                    reached[y] = grown
                    changed = True
        turn ^= 1
    return reached == sets


def _ranges(lengths: np.ndarray) -> np.ndarray:
    """``[0, 1, .., l0 - 1, 0, 1, .., l1 - 1, ...]``."""
    import numpy as np

    ends = np.cumsum(lengths)
    steps: np.ndarray = np.arange(ends[-1] if ends.size else 0) - np.repeat(ends - lengths, lengths)
    return steps


def _distinct_areas(areas: dict[int, set[int]], n: int) -> tuple[list[int], list[int]]:
    start = [0]
    flat: list[int] = []
    for g in range(n):
        flat += sorted(areas.get(g, ()))
        start.append(len(flat))
    return start, flat


def _bits(indices: Iterable[int], words: int) -> np.ndarray:
    import numpy as np

    bits = np.zeros(words, dtype=np.uint64)
    at = np.fromiter(indices, dtype=np.int64)
    np.bitwise_or.at(bits, at >> 6, np.left_shift(np.uint64(1), (at & 63).astype(np.uint64)))
    return bits


def _csr_sorted(owner: np.ndarray, values: np.ndarray, n: int) -> tuple[np.ndarray, np.ndarray]:
    """Group ``values`` by ``owner`` (0..n-1), sorted within each group: ``(start, values)``."""
    import numpy as np

    order = np.lexsort((values, owner))
    start = np.zeros(n + 1, dtype=np.int64)
    np.cumsum(np.bincount(owner, minlength=n), out=start[1:])
    return start, values[order].astype(np.int64)


def _gather(start: np.ndarray, values: np.ndarray, rows: np.ndarray) -> tuple[
    np.ndarray, np.ndarray
]:
    """The CSR rows ``rows`` of ``(start, values)``, in that order: ``(start, values)``."""
    import numpy as np

    lengths = start[rows + 1] - start[rows]
    out = np.zeros(rows.size + 1, dtype=np.int64)
    np.cumsum(lengths, out=out[1:])
    return out, values[np.repeat(start[rows], lengths) + _ranges(lengths)]


# -- the plain form of the tables: the standard library's arrays, Python ints as bit sets ---


def _q(values: Iterable[int]) -> array[int]:
    """``values`` as an ``array('q')`` (int64): from a list, which ``array`` reads faster
    than an iterator (0.29 against 0.70 ms for 12,000 ints)."""
    return array("q", values if isinstance(values, list) else list(values))


_LITTLE: Literal["little"] = "little"


def _words(sets: Iterable[int], width: int) -> array[int]:
    """Bit sets (Python ints) of ``width`` words each as uint64 words one after the other:
    bit ``b`` of a set in bit ``b % 64`` of its word ``b // 64``."""
    return _words_each(sets, repeat(width))


def _words_each(sets: Iterable[int], widths: Iterable[int]) -> array[int]:
    """:func:`_words` with a width for each set."""
    out = array("Q")
    out.frombytes(b"".join(map(int.to_bytes, sets, map(mul, widths, repeat(8)),
                               repeat(_LITTLE))))  # fmt: skip
    if sys.byteorder == "big":
        out.byteswap()
    return out


def _zeros(typecode: str, n: int) -> array[int]:
    """``n`` zeros of type ``typecode`` (``q``, ``Q`` or ``B``)."""
    out = array(typecode)
    out.frombytes(bytes(n * out.itemsize))
    return out


def _rows(flat: array[int], cols: int) -> memoryview:
    """A uint64 array seen as rows of ``cols`` words: the kernel reads the row length from
    the buffer's shape (its ``NW`` and ``W``), as from a two-dimensional numpy array."""
    return memoryview(flat).cast("B").cast("Q", [len(flat) // cols, cols])


def _bitset(indices: Iterable[int]) -> int:
    bits = 0
    for i in indices:
        bits |= 1 << i
    return bits


def _bitsets(rows: list[list[int]], n: int) -> list[int]:
    """:func:`_bitset` of each row of indices below ``n``: one digit ``1`` a bit in a string
    of ``0`` read in base 2, as an OR per index grows a long int each time (6x10's cells'
    options, 2,056 bits: 0.59 against 0.89 ms, load 2)."""
    zeros = bytearray(b"0") * n
    out = []
    for row in rows:
        digits = zeros[:]
        for i in row:
            digits[i] = 49  # "1"
        out.append(int(digits[::-1], 2) if n else 0)
    return out


def _csr(rows: list[list[int]], less: int = 0) -> tuple[array[int], array[int]]:
    """Rows of ints, ``less`` taken from each, in compressed-row form: ``(start, values)``."""
    values = list(chain.from_iterable(rows))
    if less:
        values = [v - less for v in values]
    return _q(list(accumulate(map(len, rows), initial=0))), _q(values)


Buffer = Any  # an int64/uint64/uint8 buffer: a numpy array, an ``array`` or a memoryview


class _Tables:
    """The problem as the kernel reads it: options numbered by their first cell in fill
    order, and each item's options as a bit set stored over its run of nonzero words.

    Built in one of two ways that give the same tables (tests/test_bitboard_plain.py):

    * with numpy's array operations: on 6x10 pentominoes the tables take about 2 ms, where
      a loop over the options took 20 ms, longer than the search for a first solution;
    * in plain Python (``plain``: the standard library's ``array``, Python ints as bit
      sets), for the C kernels, which read any buffer: on a small problem that costs less
      than importing numpy (bitboard_fit.plain_path says when, with the numbers).

    They hold every option but ``excluded`` and depend on nothing else, so the searches of
    one problem share them (:func:`tables`); a search leaves out the options its job forces
    or excludes in its first frame (:class:`_Search`)."""

    m: int
    words: int
    n_words: int
    prune: int
    prune_from: int
    uniform: int
    free_copies: int
    rank: Buffer
    adjs: Buffer
    adjv: Buffer
    glo: Buffer
    ghi: Buffer
    cstart: Buffer
    cvals: Buffer
    gstart: Buffer
    gvals: Buffer
    entry: Buffer
    topt: Buffer
    tgs: Buffer
    tgl: Buffer
    ecstart: Buffer
    ecells: Buffer
    tarea: Buffer
    emask: Buffer
    hstart: Buffer
    hvals: Buffer
    clo: Buffer
    chi: Buffer
    cofs: Buffer
    cw: Buffer
    conflicts: Buffer
    gastart: Buffer
    gareas: Buffer
    fareas: Buffer

    def __init__(
        self,
        problem: CoverProblem,
        excluded: set[int],
        prune: int,
        conflict_rows: bool = True,
        plain: bool = False,
    ) -> None:
        global TABLES_BUILT
        TABLES_BUILT += 1
        self.plain = plain
        m = problem.n_graph
        self.m = m
        self.words = (m + 63) // 64
        adj = _neighbours(problem)
        order = fill_order(problem)
        if plain:
            group_of, kept, connected = self._build_plain(problem, adj, order, excluded,
                                                          conflict_rows)  # fmt: skip
        else:
            group_of, kept, connected = self._build_numpy(problem, adj, order, excluded,
                                                          conflict_rows)  # fmt: skip

        # the region test is sound only when an option touching a closed region lies in it
        self.prune = PRUNE_REGIONS if (prune & PRUNE_REGIONS and connected) else 0
        # Near the leaves the fewest-options rule finds a dead region one level later
        # anyway and subtrees are small, so the test only runs while at least 60% of the
        # cells are empty. Half (the rule before, measured with numba's kernel) costs the C
        # kernel more than the nodes it saves: counts of the restricted problems, median of 9
        # (3 for 3x4x5), 2026-12-02, load 0.6-1.0, half -> 60%: pentomino-6x10 139 -> 128 ms,
        # solid pentominoes 2x3x10 24 -> 18 ms, 2x5x6 200 -> 149 ms, 3x4x5 2188 -> 1934 ms
        # (65%: the same within noise; bench/RESULTS.md).
        self.prune_from = (3 * m + 4) // 5
        # sets, not np.unique: numpy 2.4's unique imports numpy.ma (12 ms of every small
        # search's start, issue #23)
        tarea = self.tarea.tolist()
        areas = sorted(set(tarea))
        self.uniform = int(areas[0]) if len(areas) == 1 else 0
        pairs = sorted(set(zip([group_of[k] for k in kept], tarea, strict=True)))
        group_areas: dict[int, set[int]] = {}
        for g, a in pairs:
            if g >= 0:
                group_areas.setdefault(g, set()).add(a)
        free = sorted({a for g, a in pairs if g < 0})
        gastart, gareas = _distinct_areas(group_areas, problem.n_items - m)
        self.gastart, self.gareas, self.fareas = (self._ints(gastart), self._ints(gareas),
                                                  self._ints(free))  # fmt: skip
        self.free_copies = m if free else -1

    def _ints(self, values: list[int]) -> Buffer:
        """``values`` as int64s of this build's kind."""
        if self.plain:
            return _q(values)
        import numpy as np

        return np.array(values, dtype=np.int64)

    def _build_numpy(
        self,
        problem: CoverProblem,
        adj: list[list[int]],
        order: list[int],
        excluded: set[int],
        conflict_rows: bool,
    ) -> tuple[list[int], list[int], bool]:
        """The tables with numpy's array operations; returns each option's group (a counter,
        or -1), the options kept in entry order and whether every option is connected."""
        import numpy as np

        m = self.m
        position = np.zeros(max(m, 1), dtype=np.int64)
        position[np.array(order, dtype=np.int64)] = np.arange(m)
        self.rank = np.array(order, dtype=np.int64)  # the problem's number of each cell
        by_position = [sorted(int(position[y]) for y in adj[x]) for x in order]
        self.adjs = np.zeros(m + 1, dtype=np.int64)
        np.cumsum([len(a) for a in by_position], out=self.adjs[1:])
        self.adjv = np.array([y for a in by_position for y in a], dtype=np.int64)
        n_secondary = problem.n_items - problem.n_primary
        self.glo = np.concatenate([problem.lo[m:], np.zeros(n_secondary, dtype=np.int64)])
        self.ghi = np.concatenate([problem.hi[m:], np.ones(n_secondary, dtype=np.int64)])

        # each option's cells (by fill position) and counters, sorted, as CSR arrays
        n_options = problem.n_options
        items = np.asarray(problem.items, dtype=np.int64)
        owner_all = np.repeat(np.arange(n_options), np.diff(problem.start))
        is_cell = items < m
        self.cstart, self.cvals = _csr_sorted(
            owner_all[is_cell], position[items[is_cell]], n_options
        )
        self.gstart, self.gvals = _csr_sorted(owner_all[~is_cell], items[~is_cell] - m, n_options)
        # the counter that bounds how often an option's size may be used in a region: a
        # primary one if it has one (any true bound is sound; the others are relaxed)
        has_group = self.gstart[1:] > self.gstart[:-1]
        group_of = np.full(n_options, -1, dtype=np.int64)
        group_of[has_group] = self.gvals[self.gstart[:-1][has_group]]
        first_cell = self.cvals[self.cstart[:-1]]
        keep = np.ones(n_options, dtype=bool)
        if excluded:
            keep[np.fromiter(excluded, dtype=np.int64)] = False
        candidates = np.flatnonzero(keep)
        kept = candidates[np.lexsort((group_of[candidates], first_cell[candidates]))]
        n = kept.size
        self.entry = np.full(n_options, -1, dtype=np.int64)  # each option's entry, or -1
        self.entry[kept] = np.arange(n)
        self.n_words = max((n + 63) // 64, 1)
        self.topt = kept.astype(np.int64)
        self.tgs, self.tgl = _gather(self.gstart, self.gvals, kept)
        self.ecstart, self.ecells = _gather(self.cstart, self.cvals, kept)
        self.tarea = np.diff(self.ecstart)
        self.emask = np.zeros((n, self.words), dtype=np.uint64)
        owner = np.repeat(np.arange(n), self.tarea)
        np.bitwise_or.at(
            self.emask,
            (owner, self.ecells >> 6),
            np.left_shift(np.uint64(1), (self.ecells & 63).astype(np.uint64)),
        )

        # each item's options (entries, ascending) as bits over the words from its first to
        # its last option
        n_holders = problem.n_items
        gowner = np.repeat(np.arange(n), np.diff(self.tgs))
        holder = np.concatenate([self.ecells, m + self.tgl])
        entry = np.concatenate([owner, gowner])
        self.hstart, self.hvals = _csr_sorted(holder, entry, n_holders)
        count = np.diff(self.hstart)
        present = count > 0
        self.clo = np.zeros(n_holders, dtype=np.int64)
        self.chi = np.zeros(n_holders, dtype=np.int64)
        self.clo[present] = self.hvals[self.hstart[:-1][present]] >> 6
        self.chi[present] = (self.hvals[self.hstart[1:][present] - 1] >> 6) + 1
        spans = self.chi - self.clo
        self.cofs = np.zeros(n_holders, dtype=np.int64)
        np.cumsum(spans[:-1], out=self.cofs[1:])
        self.cw = np.zeros(int(spans.sum()), dtype=np.uint64)
        hitem = np.repeat(np.arange(n_holders), count)
        np.bitwise_or.at(
            self.cw,
            self.cofs[hitem] + (self.hvals >> 6) - self.clo[hitem],
            np.left_shift(np.uint64(1), (self.hvals & 63).astype(np.uint64)),
        )

        # For a problem small enough, each option's clashing options (sharing a cell, or a
        # counter that allows one option) as one row of bits: placing it is then a single
        # AND over the row instead of one per cell.
        self.conflicts = np.zeros((0, self.n_words), dtype=np.uint64)
        if conflict_rows and 0 < n * self.n_words * 8 <= _MAX_CONFLICT_BYTES:
            dense = np.zeros((n_holders, self.n_words), dtype=np.uint64)
            for i in np.flatnonzero(present).tolist():
                span = self.cw[self.cofs[i] : self.cofs[i] + spans[i]]
                dense[i, self.clo[i] : self.chi[i]] = span
            single = self.ghi[self.tgl] == 1  # counters that allow one option
            rows_owner = np.concatenate([owner, gowner[single]])
            rows_item = np.concatenate([self.ecells, m + self.tgl[single]])
            rstart, rows = _csr_sorted(rows_owner, rows_item, n)
            self.conflicts = np.bitwise_or.reduceat(dense[rows], rstart[:-1], axis=0)
        connected = _all_connected(self.ecells, owner, self.adjs, self.adjv, m)
        return group_of.tolist(), kept.tolist(), connected

    def _build_plain(
        self,
        problem: CoverProblem,
        adj: list[list[int]],
        order: list[int],
        excluded: set[int],
        conflict_rows: bool,
    ) -> tuple[list[int], list[int], bool]:
        """:meth:`_build_numpy` in plain Python, table for table. Measured choices (issue
        #23 item 1, bitboard_fit.PLAIN_MAX_ENTRIES): one ``sorted`` per option of its items
        renumbered by one ``map``; plain loops where ``map``/``reduce`` chains measured
        slower (each item's options, the conflict rows); bit sets over the options from
        strings of digits; the connectivity test per edge for all options at once."""
        m = self.m
        arrays = problem.arrays
        n_holders = problem.n_items
        position = [0] * max(m, 1)
        for i, x in enumerate(order):
            position[x] = i
        self.rank = _q(order)
        by_position = [sorted(position[y] for y in adj[x]) for x in order]
        self.adjs, self.adjv = _csr(by_position)
        n_secondary = problem.n_items - problem.n_primary
        self.glo = _q(arrays.lo[m:].tolist() + [0] * n_secondary)
        ghi = arrays.hi[m:].tolist() + [1] * n_secondary
        self.ghi = _q(ghi)

        # Each item as a *holder*: a cell by its fill position, a counter as m + its number,
        # so that an option's holders sorted are its cells, then its counters.
        n_options = problem.n_options
        start = arrays.start.tolist()
        holder_of = position[:m] + list(range(m, n_holders))
        mapped = list(map(holder_of.__getitem__, arrays.items))
        cells: list[list[int]] = []
        counters: list[list[int]] = []
        for s, e in zip(start, start[1:]):
            hs = sorted(mapped[s:e])
            j = bisect_left(hs, m)
            cells.append(hs[:j])
            counters.append(hs[j:])  # m + each counter's number, till the tables
        self.cstart, self.cvals = _csr(cells)
        self.gstart, self.gvals = _csr(counters, m)
        group_of = [g[0] - m if g else -1 for g in counters]
        # by first cell, then group, then number (np.lexsort is stable, and so is sorted)
        stride = n_holders + 1
        key = [c[0] * stride + g for c, g in zip(cells, group_of, strict=True)]
        kept = sorted((k for k in range(n_options) if k not in excluded) if excluded
                      else range(n_options), key=key.__getitem__)  # fmt: skip
        n = len(kept)
        entry = [-1] * n_options
        for e, k in enumerate(kept):
            entry[k] = e
        self.entry = _q(entry)
        self.n_words = max((n + 63) // 64, 1)
        self.topt = _q(kept)
        ecells = list(map(cells.__getitem__, kept))
        tgl = list(map(counters.__getitem__, kept))
        self.tgs, self.tgl = _csr(tgl, m)
        self.ecstart, self.ecells = _csr(ecells)
        self.tarea = _q(map(len, ecells))
        masks = [_bitset(c) for c in ecells]
        self.emask = array("Q", masks) if self.words == 1 else _words(masks, self.words)

        # each item's options, ascending, and their bits over the words they span
        held: list[list[int]] = [[] for _ in range(n_holders)]
        for e in range(n):
            for c in ecells[e]:
                held[c].append(e)
            for g in tgl[e]:
                held[g].append(e)
        self.hstart, self.hvals = _csr(held)
        clo = [h[0] >> 6 if h else 0 for h in held]
        chi = [(h[-1] >> 6) + 1 if h else 0 for h in held]
        spans = [b - a for a, b in zip(clo, chi, strict=True)]
        self.clo, self.chi = _q(clo), _q(chi)
        self.cofs = _q(list(accumulate(spans[:-1], initial=0)))
        sets = _bitsets(held, n)
        self.cw = _words_each(map(rshift, sets, map(mul, clo, repeat(64))), spans)

        self.conflicts = array("Q")
        if conflict_rows and 0 < n * self.n_words * 8 <= _MAX_CONFLICT_BYTES:
            single = [0] * m + [sets[m + g] if ghi[g] == 1 else 0 for g in range(n_holders - m)]
            rows: list[int] = []
            for e in range(n):
                row = 0
                for c in ecells[e]:
                    row |= sets[c]
                for g in tgl[e]:
                    row |= single[g]  # a counter that allows one option
                rows.append(row)
            self.conflicts = _words(rows, self.n_words)
        first = [c[0] for c in ecells]
        return group_of, kept, _all_connected_plain(first, sets[:m], by_position)

    def reach_sizes(self, limit: int, gcount: Buffer, reach: Buffer) -> None:
        """``reach[s]`` for ``s <= limit``: can options still allowed fill ``s`` cells?"""
        if self.uniform <= 0:
            kernels().reachable_sizes(limit, gcount, self.ghi, self.gastart, self.gareas,
                                      self.fareas, reach)  # fmt: skip
            return
        copies = self.free_copies
        if copies < 0:
            gastart, ghi = self.gastart.tolist(), self.ghi.tolist()
            counts = gcount.tolist()
            copies = sum(ghi[g] - counts[g] for g in range(len(ghi))
                         if gastart[g + 1] > gastart[g])  # fmt: skip
        u = self.uniform
        reach[: limit + 1] = array("B", [s % u == 0 and s // u <= copies
                                         for s in range(limit + 1)])  # fmt: skip

    def left_out(self, option: int, item: int) -> list[int]:
        """The options a branch that placed ``option`` on ``item`` rules out: those before
        it in the branch order (entry order, when splitting). Only a counter that may be
        covered again needs them said; the ones that were not available there conflict with
        the path anyway (the caller drops those that lie on the path)."""
        g = item - self.m
        if g < 0 or self.ghi[g] <= 1:
            return []  # the branch's option already rules its siblings out
        before = int(self.entry[option])
        held = self.hvals[self.hstart[item] : self.hstart[item + 1]].tolist()
        topt = self.topt
        return [int(topt[e]) for e in held if e < before]

    def held_bits(self, item: int) -> int:
        """The entries that hold ``item`` (a cell or a counter), as one bit set: its words
        ``cw`` read back as a Python int."""
        lo, at = int(self.clo[item]), int(self.cofs[item])
        raw = self.cw[at : at + int(self.chi[item]) - lo].tobytes()
        if sys.byteorder == "big":  # native words, least significant first
            swapped = array("Q")
            swapped.frombytes(raw)
            swapped.byteswap()
            raw = swapped.tobytes()
        return int.from_bytes(raw, _LITTLE) << (64 * lo)

    def cells(self, option: int) -> list[int]:
        """The fill positions of an option's cells, ascending."""
        cells: list[int] = self.cvals[self.cstart[option] : self.cstart[option + 1]].tolist()
        return cells

    def counters(self, option: int) -> list[int]:
        """An option's counters (items after the cells, renumbered from 0), ascending."""
        counters: list[int] = self.gvals[self.gstart[option] : self.gstart[option + 1]].tolist()
        return counters


TABLES_BUILT = 0  # tables built by this process: tests count them (one per problem searched)
_tables_kept: PerProblem[_Tables] = PerProblem(4)  # the tables of the last problems used


def tables(problem: CoverProblem, prune: int = PRUNE_REGIONS, conflict_rows: bool = True
           ) -> _Tables:  # fmt: skip
    """The tables of ``problem`` with every option, built once per process and problem.

    A split count starts the engine once per subproblem and part (cover/symmetry.py cuts a
    count into up to 23 parts), all of one problem with other options forced or excluded:
    building the tables each time cost more CPU than a second core gave on the 3x4x5 solid
    pentominoes (114 builds, 1.5 s of a 4.5 s split count; bench/RESULTS.md). They are
    kept while the problem lives, for the last few problems, one set per backend: numba's
    kernels take numpy's arrays only, the C ones either kind (bitboard_fit.plain_path)."""
    def make() -> _Tables:
        return _Tables(problem, set(), prune, conflict_rows, bitboard_fit.plain_path(problem))

    return _tables_kept.get(problem, (prune, conflict_rows, kernel_choice.backend()), make)


class _Search:
    """One resumable walk of the tree: the kernel's mutable state, in arrays (the standard
    library's for plain tables, numpy's otherwise). ``forced`` options are placed before it
    starts, ``excluded`` ones left out of its first frame."""

    def __init__(self, t: _Tables, forced: tuple[int, ...], excluded: Iterable[int] = ()
                 ) -> None:  # fmt: skip
        self.t = t
        if t.plain and kernel_choice.backend() != kernel_choice.C:
            raise RuntimeError("the bitboard engine's plain tables are for the C kernels only; "
                               "numba's take numpy arrays (tables() keeps one set per backend)")
        self.k = kernels()
        m = t.m
        depth = m + 2
        self.plain = t.plain
        self._avail_words: Buffer = self._zeros("Q", depth * t.n_words)
        self._board_words: Buffer = self._zeros("Q", depth * t.words)
        if self.plain:
            self.avail: Buffer = _rows(self._avail_words, t.n_words)
            self.board: Buffer = _rows(self._board_words, t.words)
        else:
            self.avail = self._avail_words.reshape(depth, t.n_words)
            self.board = self._board_words.reshape(depth, t.words)
        self.fempty = self._zeros("q", depth)
        self.fitem = self._zeros("q", depth)
        self.fsel = self._zeros("q", depth)
        self.fsel[:] = self._ints([-1] * depth)
        self.fopts = self._zeros("q", depth)  # options of each frame's item when chosen
        self.gcount = self._zeros("q", len(t.glo))
        self.regs = self._zeros("q", N_REGS)
        self.vis = self._zeros("Q", t.words)
        self.queue = self._zeros("Q", max(m, 1))  # flood: cells in visiting order
        self.lab = self._zeros("Q", max(m, 1))  # flood: each cell's first region
        self.par = self._zeros("Q", max(m, 1))  # flood: union-find of regions
        self.csize = self._zeros("q", max(m, 1))  # flood: cells of each region
        self.pend = self._zeros("q", max(m, 1))  # flood: cells queued, per region
        self.reach = self._zeros("B", m + 1)
        self.out = self._zeros("q", 1)
        self.room = _FIRST_RECORDS  # records the output buffer is made for (see run)
        self.forced_solution = False  # the forced options alone are a solution
        self.regs[R_DEPTH] = -1
        covered: set[int] = set()
        for k in forced:
            cells = t.cells(k)
            if covered.intersection(cells):
                return  # forced options overlap: no solution
            covered.update(cells)
            for g in t.counters(k):
                self.gcount[g] += 1
                if self.gcount[g] > t.ghi[g]:
                    return
        if len(covered) == m:
            self.forced_solution = all(c >= lo for c, lo in zip(self.gcount.tolist(),
                                                                t.glo.tolist(), strict=True))
            return
        if t.prune and not self._regions_fillable(covered):
            return
        if self.plain:
            self._avail_words[: t.n_words] = _words([self._alive_plain(covered, excluded)],
                                                    t.n_words)  # fmt: skip
        else:
            self._avail_words[: t.n_words] = _bits(self._alive_numpy(covered, excluded),
                                                   t.n_words)  # fmt: skip
        self._board_words[: t.words] = self._bits(covered, t.words)
        self.fempty[0] = m - len(covered)
        self.regs[R_DEPTH] = 0
        self.regs[R_ENTER] = 1

    def _zeros(self, typecode: str, n: int) -> Buffer:
        """``n`` zeros of type ``typecode`` (``q``: int64, ``Q``: uint64, ``B``: uint8)."""
        if self.plain:
            return _zeros(typecode, n)
        import numpy as np

        return np.zeros(n, dtype={"q": np.int64, "Q": np.uint64, "B": np.uint8}[typecode])

    def _ints(self, values: list[int]) -> Buffer:
        return self.t._ints(values)

    def _bits(self, indices: Iterable[int], words: int) -> Buffer:
        """The bit set of ``indices`` as ``words`` uint64 words."""
        if self.plain:
            return _words([_bitset(indices)], words)
        return _bits(indices, words)

    def _alive_numpy(self, covered: set[int], excluded: Iterable[int]) -> Buffer:
        """The entries that neither touch a covered cell, nor are excluded, nor need a
        counter already full."""
        import numpy as np

        t = self.t
        n = t.topt.size
        blocked = np.zeros(n, dtype=bool)
        if covered:
            taken = np.zeros(t.m, dtype=bool)
            taken[list(covered)] = True
            owner = np.repeat(np.arange(n), t.tarea)
            blocked[owner[taken[t.ecells]]] = True
        out = t.entry[np.fromiter(excluded, dtype=np.int64)]
        blocked[out[out >= 0]] = True
        full = self.gcount >= t.ghi
        if full.any():
            gowner = np.repeat(np.arange(n), np.diff(t.tgs))
            blocked[gowner[full[t.tgl]]] = True
        alive: Buffer = np.flatnonzero(~blocked)
        return alive

    def _alive_plain(self, covered: set[int], excluded: Iterable[int]) -> int:
        """:meth:`_alive_numpy` in plain Python, as one bit set: the entries held by each
        covered cell and full counter (read off the tables' words of that item's entries, a
        few at C speed) and the excluded ones, cleared from all. Reading each entry of those
        items in Python cost more: the start of a subproblem of the 3x4x5 solid
        pentominoes' split took 0.17 ms so, 0.056 ms now (Bedlam's 0.26 -> 0.052 ms; medians
        of 9, 2026-12-07)."""
        t = self.t
        n = len(t.topt)
        if not n:
            return 0
        entry = t.entry
        blocked = 0
        out = [e for e in map(entry.__getitem__, excluded) if e >= 0]
        if out:
            blocked = _bitsets([out], n)[0]
        full = [t.m + g for g, (c, hi) in enumerate(zip(self.gcount, t.ghi, strict=True))
                if c >= hi]  # fmt: skip
        for h in chain(covered, full):
            blocked |= t.held_bits(h)
        return ((1 << n) - 1) & ~blocked

    def _regions_fillable(self, covered: set[int]) -> bool:
        """Whether every empty region at the start has a size the options can make: the
        search tests only regions that a placement closes, so it needs them right here."""
        t = self.t
        empty = t.m - len(covered)
        t.reach_sizes(empty, self.gcount, self.reach)
        adjs, adjv = t.adjs.tolist(), t.adjv.tolist()
        seen = set(covered)
        for x in range(t.m):
            if x in seen:
                continue
            seen.add(x)
            todo, size = [x], 0
            while todo:
                z = todo.pop()
                size += 1
                for u in adjv[adjs[z] : adjs[z + 1]]:
                    if u not in seen:
                        seen.add(u)
                        todo.append(u)
            if not self.reach[size]:
                return False
        return True

    @property
    def finished(self) -> bool:
        return int(self.regs[R_DEPTH]) < 0

    def walked(self) -> float:
        """The share of the tree searched so far, from the frames on the current path: a
        frame whose item had ``n`` options and has ``r`` left is on its ``n - r``-th branch
        (the current branch's option is out of ``avail`` already)."""
        if self.finished:
            return 1.0
        t = self.t
        top = int(self.regs[R_DEPTH]) - int(self.regs[R_ENTER])  # the frames with an item
        left = self._zeros("q", top + 1)
        self.k.options_left(top, self.fitem, self.avail, t.clo, t.chi, t.cofs, t.cw, left)
        branches = self.fopts[: top + 1].tolist()
        return share_walked(branches, [b - r - 1 for b, r in zip(branches, left.tolist(),
                                                                 strict=True)])  # fmt: skip

    def run(self, mode: int, depth: int, max_records: int, max_nodes: int) -> list[list[int]]:
        """Advance the search; return the option lists it wrote (solutions or paths)."""
        t = self.t
        if mode != M_COUNT:
            want = min(max_records, self.room) * (2 * t.m + 6)  # records of 2 d + 3 at most
            if len(self.out) < want:
                self.out = self._zeros("q", want)
        status = self.k.search(
            t.m, t.rank, t.topt, t.tgs, t.tgl, t.tarea, t.ecstart, t.ecells, t.emask,
            t.conflicts, t.clo, t.chi, t.cofs, t.cw, t.adjs, t.adjv, t.glo, t.ghi, t.prune,
            t.prune_from, t.uniform, t.free_copies, t.gastart, t.gareas, t.fareas, self.avail,
            self.board, self.fempty, self.fitem, self.fsel, self.fopts, self.gcount, self.regs,
            self.vis,
            self.queue, self.lab, self.par, self.csize, self.pend, self.reach, mode, depth,
            max_records, max_nodes, self.out,
        )  # fmt: skip
        if status == S_FULL:
            if self.regs[R_WRITTEN] == 0:
                raise RuntimeError("bitboard engine: a record does not fit its output buffer")
            self.room = min(2 * self.room, _MOST_RECORDS)
        flat = self.out[: int(self.regs[R_WRITTEN])].tolist()
        records: list[list[int]] = []
        w = 0
        while w < len(flat):
            n = flat[w]
            records.append(flat[w + 1 : w + 1 + n])
            w += 1 + n
        return records


_PROBE_NODES = 1 << 14  # nodes per kernel call of the probes, so that a time limit is kept
# Records the output buffer of a search holds at first, doubled each time a call fills it:
# made for 4,096 records at once, the split of the 3x4x5 solid pentominoes (60
# subproblems, three calls) paid for three fresh 4 MB buffers, 9 ms of a 10 ms split in a
# new process (their pages faulted in; 2026-12-07)
_FIRST_RECORDS = 64
_MOST_RECORDS = 1 << 12


class PartSizes:
    """Knuth's plain probes of subproblems of one problem on this engine's own tree (with its
    region pruning), the kernel's tables built once, for a split count's order and time rule
    (parallel/run.py ``largest_first``, ``parts_tree``).

    The compiled engine's probes (engine/estimate.py) walk another tree and need numpy and
    that engine's tables: 0.13-0.17 s in the middle of the 3x4x5 solid pentominoes' count
    split in two, and 0.3 s of Bedlam's, while no subproblem was handed out (#38 item 6;
    0.012 and 0.11 s with these). These need neither. Probe ``p`` of a
    subproblem draws from ``seed`` and the probes before it alone: an estimate is
    reproducible, whatever the kernel calls it takes."""

    def __init__(self, problem: CoverProblem, probes: int = 128, seed: int = 0,
                 max_seconds: float | None = None,
                 clock: Callable[[], float] = time.process_time) -> None:  # fmt: skip
        if probes < 1:
            raise ValueError("probes must be at least 1")
        self.probes = probes
        self.seed = seed
        self.max_seconds = max_seconds
        self.clock = clock
        self._tables = tables(problem)

    def __call__(self, forced: Iterable[int], excluded: Iterable[int]) -> TreeEstimate:
        """The estimate of the subproblem with ``forced`` and ``excluded`` options: of the
        options it would place (the engine's nodes)."""
        began = time.perf_counter()
        _warm_up()
        search = _Search(self._tables, tuple(forced), excluded)
        if search.finished:  # no node at all: the forced options clash, or are a solution
            found = 1.0 if search.forced_solution else 0.0
            return TreeEstimate(0.0, 0.0, found, 0.0, 0, 0.0, time.perf_counter() - began,
                                exact=True)
        seed = self.seed % (1 << 64)
        search.regs[R_RNG] = seed - (1 << 64) if seed >= 1 << 63 else seed  # its 64 bits
        deadline = None if self.max_seconds is None else self.clock() + self.max_seconds
        paths: list[list[int]] = []
        while len(paths) < self.probes:
            paths += search.run(M_PROBE, 0, self.probes - len(paths), _PROBE_NODES)
            if deadline is not None and paths and self.clock() >= deadline:
                break
        return plain_estimate(paths, time.perf_counter() - began, root=0)


def _warm_up() -> float:
    """Seconds spent making the kernels ready: none for the C kernels, built at installation;
    numba's are compiled (or loaded from its cache) once per process."""
    if kernel_choice.backend() == kernel_choice.C:
        return 0.0
    return _warm_up_numba()


@once_per_process
def _warm_up_numba() -> None:
    """Compile (or load from numba's cache) numba's kernel once per process, and time it."""
    from puzzlebox.engine import _bitboard_kernels

    announce("tiling", _bitboard_kernels.search)
    tiny = CoverProblem(
        item_names=("a", "b", "g"),
        n_primary=3,
        lo=[1, 1, 0],
        hi=[1, 1, 2],
        start=[0, 2, 3, 5],
        items=[0, 1, 0, 1, 2],
        colors=[0] * 5,
        labels=(None, None, None),
        adj_start=[0, 1, 2],
        adj_items=[1, 0],
    )
    tables = _Tables(tiny, set(), PRUNE_REGIONS)
    for mode in (M_COUNT, M_SOLUTIONS, M_FRONTIER):
        _Search(tables, ()).run(mode, 1, _NO_LIMIT, _NO_LIMIT)


class BitboardEngine:
    """Enumerates, counts and splits the tilings of a graph-carrying cover problem.

    ``forced`` options are in every solution and ``excluded`` options in none. ``prune=0``
    turns the closed-region test off (to measure what it saves); ``conflict_rows=False``
    makes it place options cell by cell, as it does for problems too big for those rows.
    """

    name = "bitboard"

    def __init__(
        self,
        problem: CoverProblem,
        forced: Iterable[int] = (),
        excluded: Iterable[int] = (),
        *,
        prune: int = PRUNE_REGIONS,
        conflict_rows: bool = True,
        node_budget: int = _NODE_BUDGET,
    ) -> None:
        reason = ineligible(problem)
        if reason is not None:
            raise ValueError(f"the bitboard engine cannot solve this problem: {reason}")
        if node_budget < 1:
            raise ValueError("node_budget must be at least 1")
        self.problem = problem
        self.forced = problem.option_set(forced, "forced")
        self.excluded = problem.option_set(excluded, "excluded")
        self.node_budget = node_budget
        self.stats = SearchStats(engine=self.name)
        self.pruned = 0  # branches the region test ended, in the last search
        self._tables = tables(problem, prune, conflict_rows)

    def _start(self) -> _Search:
        search = _Search(self._tables, self.forced, self.excluded)  # (refuses before compiling)
        self.stats.compile_seconds += _warm_up()
        self.stats.nodes = 0
        self.stats.solutions = 0
        self.stats.search_seconds = 0.0
        self.stats.complete = False
        self.pruned = 0
        return search

    def _advance(
        self, search: _Search, mode: int, depth: int, max_records: int, max_nodes: int
    ) -> list[list[int]]:
        began = time.perf_counter()
        records = search.run(mode, depth, max_records, max_nodes)
        self.stats.search_seconds += time.perf_counter() - began
        self.stats.nodes = int(search.regs[R_NODES])
        self.pruned = int(search.regs[R_PRUNED])
        self.stats.complete = search.finished
        return records

    def _report(self, search: _Search, progress: Progress) -> None:
        self.stats.walked = search.walked()  # only when watched: it loads one more kernel
        progress(self.stats)

    def solutions(
        self, limit: int | None = None, progress: Progress | None = None
    ) -> Iterator[tuple[int, ...]]:
        """Yield solutions lazily as sorted option tuples, at most ``limit`` of them.

        The kernel is asked for 1, 2, 4, ... solutions per call, so the first one costs no
        more search than it needs.
        """
        search = self._start()
        found = 0
        if search.forced_solution and (limit is None or limit > 0):
            found = self.stats.solutions = 1
            yield self.forced
        batch = 1
        while not search.finished and (limit is None or found < limit):
            want = batch if limit is None else min(batch, limit - found)
            for path in self._advance(search, M_SOLUTIONS, 0, want, self.node_budget):
                found += 1
                self.stats.solutions = found
                yield tuple(sorted(self.forced + tuple(path)))
            if progress is not None:
                self._report(search, progress)
            batch = min(2 * batch, _MAX_BATCH)
        self.stats.complete = search.finished

    def count(self, progress: Progress | None = None) -> int:
        """Count the solutions without building them."""
        search = self._start()
        while not search.finished:
            self._advance(search, M_COUNT, 0, _NO_LIMIT, self.node_budget)
            self.stats.solutions = int(search.regs[R_SOLUTIONS])
            if progress is not None:
                self._report(search, progress)
        self.stats.solutions = int(search.regs[R_SOLUTIONS]) + int(search.forced_solution)
        self.stats.complete = True
        return self.stats.solutions

    def first(self) -> tuple[int, ...] | None:
        """One solution, or None when there is none."""
        return next(self.solutions(limit=1), None)

    def subproblems(self, depth: int) -> list[tuple[tuple[int, ...], tuple[int, ...]]]:
        """Split the search at ``depth`` into ``(forced, excluded)`` pairs whose solution sets
        partition this engine's: each is a node at that depth (or a solution above it),
        given by the options placed on its path and the options its path rules out."""
        if depth < 0:
            raise ValueError("depth must be at least 0")
        search = self._start()
        if depth == 0 or search.finished:
            alive = search.forced_solution or not search.finished
            return [(self.forced, self.excluded)] if alive else []
        t = self._tables
        parts = []
        while not search.finished:
            for record in self._advance(search, M_FRONTIER, depth, _NO_LIMIT, _NO_LIMIT):
                path = record[::2]
                left_out: list[int] = []
                for option, item in zip(path, record[1::2], strict=True):
                    left_out += t.left_out(option, item)
                placed = set(self.forced) | set(path)
                parts.append(
                    (
                        tuple(sorted(self.forced + tuple(path))),
                        tuple(sorted((set(self.excluded) | set(left_out)) - placed)),
                    )
                )
        return parts


class BitboardSearch:
    """The step-wise search (engine/search.py) of the bitboard engine: each step is one
    kernel call of at most ``max_nodes`` nodes (1, 2, 4, ... solutions per call when
    enumerating). Its stats carry the share of the tree walked, for a progress bar."""

    def __init__(self, job: Job) -> None:
        reason = ineligible(job.problem)
        if reason is not None:
            raise ValueError(f"the bitboard engine cannot solve this problem: {reason}")
        problem = job.problem
        self.forced = problem.option_set(job.forced, "forced")
        excluded = problem.option_set(job.excluded, "excluded")
        self.stats = SearchStats(engine=BitboardEngine.name)
        self.stats.compile_seconds += _warm_up()
        self._search = _Search(tables(problem), self.forced, excluded)
        self._counting = job.mode is Mode.COUNT
        self._limit = job.limit
        self._batch = 1
        self._found = 0
        self._pending = self._search.forced_solution  # the forced options alone are one
        self._done = self._limit is not None and self._limit <= 0

    def step(self, max_nodes: int) -> Step:
        if self._done:
            return Step(done=True)
        search = self._search
        solutions: list[tuple[int, ...]] = []
        counted = 0
        if self._pending:
            self._pending = False
            counted = 1
            if not self._counting:
                solutions.append(self.forced)
        left = None if self._limit is None else self._limit - self._found - counted
        if not search.finished and (left is None or left > 0):
            began = time.perf_counter()
            before = int(search.regs[R_SOLUTIONS])
            if self._counting:
                search.run(M_COUNT, 0, _NO_LIMIT, max(1, max_nodes))
            else:
                want = self._batch if left is None else min(self._batch, left)
                for path in search.run(M_SOLUTIONS, 0, want, max(1, max_nodes)):
                    solutions.append(tuple(sorted(self.forced + tuple(path))))
                self._batch = min(2 * self._batch, _MAX_BATCH)
            counted += int(search.regs[R_SOLUTIONS]) - before
            self.stats.search_seconds += time.perf_counter() - began
        self._found += counted
        self.stats.nodes = int(search.regs[R_NODES])
        self.stats.solutions = self._found
        self.stats.complete = search.finished
        self.stats.walked = search.walked()
        self._done = search.finished or (self._limit is not None and self._found >= self._limit)
        return Step(solutions=solutions, counted=counted, done=self._done)


def start(job: Job) -> BitboardSearch:
    """The bitboard engine's search of ``job`` (the registry's ``start``)."""
    return BitboardSearch(job)


def frontier(job: Job, depth: int) -> list[Subproblem]:
    """The job's tree cut at ``depth`` (:meth:`BitboardEngine.subproblems`)."""
    return BitboardEngine(job.problem, job.forced, job.excluded).subproblems(depth)
