"""The memo engine's layer of states as numpy arrays (engine/memo.py's ``SweepRun``).

Its own module so that the memo engine's choice and its small sweeps import no numpy
(issue #23): only a sweep whose keys fit in an int64 loads this, and numpy with it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

if TYPE_CHECKING:
    from puzzlebox.engine.memo import Sweep

_WAYS_LIMIT = float(1 << 61)
_GROUP_BITS = 8  # the array layer groups states by this many cells after the first
_CHUNK = 11  # bits of a key per lookup table, where symmetries merge states


class ArrayLayer:
    """A sweep's layer as arrays: ``keys`` (the states, sorted, as in the dict: the window's
    mask above ``counter_bits`` bits of counters) and ``ways`` (int64, summed per key).

    A position maps every state at once. A move fits a state when the key has none of the
    move's cells and none of the one-bit counters it fills (one AND for both); its new key is
    the old one plus the move's cells and increments, and the first cell (bit
    ``counter_bits``, now covered in every new key) is dropped. So that a state meets only
    moves that may fit, the empty states are grouped by the next ``_GROUP_BITS`` cells of
    their mask, and each group tries only the moves that avoid those cells. New keys are
    sorted and equal ones merged with their ways added (keys and ways packed in one int64
    for the sort where they fit: a plain sort instead of an indirect one)."""

    def __init__(self, sweep: Sweep, max_candidates: int) -> None:
        self.sweep = sweep
        self.max_candidates = max(1, max_candidates)
        self.keys = np.zeros(1, dtype=np.int64)
        self.ways = np.ones(1, dtype=np.int64)
        self.candidates = 0  # new states before merging, at the last position
        self.cb = sweep.counter_bits
        self.key_bits = sweep.window + sweep.counter_bits  # before the first cell is dropped
        self.group = min(_GROUP_BITS, max(sweep.window - 1, 0))
        self._canon: dict[int, list[np.ndarray]] = {}

    def _tables(self, q: int) -> list[np.ndarray]:
        """The symmetries that merge states at position ``q`` (Sweep.set_symmetries), each
        as lookup tables over ``_CHUNK`` bits of a key: its image is the OR of the tables'
        entries."""
        if q not in self._canon:
            tables = []
            for dest in self.sweep.key_maps(q):
                chunks = (len(dest) + _CHUNK - 1) // _CHUNK
                table = np.zeros((chunks, 1 << _CHUNK), dtype=np.int64)
                v = np.arange(1 << _CHUNK, dtype=np.int64)
                for b, to in enumerate(dest):
                    table[b // _CHUNK] |= ((v >> (b % _CHUNK)) & 1) << to
                tables.append(table)
            self._canon[q] = tables
        return self._canon[q]

    def _canonical(self, k: np.ndarray, q: int) -> np.ndarray:
        """Each key at position ``q`` replaced by the smallest of its images."""
        tables = self._tables(q)
        if not tables:
            return k
        best = k.copy()
        for table in tables:
            image = np.zeros_like(k)
            for c in range(table.shape[0]):
                image |= table[c][(k >> (c * _CHUNK)) & ((1 << _CHUNK) - 1)]
            np.minimum(best, image, out=best)
        return best

    def _moves(self, p: int) -> tuple[list[tuple[int, int, list[tuple[int, int, int]]]],
                                      list[list[int]]]:
        """Position ``p``'s moves as (forbidden key bits, key increment, other checks), and
        for each pattern of the next ``group`` cells the moves that avoid it."""
        cb = self.cb
        moves = []
        low = []
        for m in self.sweep.moves[p]:
            forbid = m.bits << cb
            checks = []
            for s, fm, most in m.checks:
                if fm == 1 and most == 0:
                    forbid |= 1 << s  # a one-bit counter that must still be 0
                elif most < fm:
                    checks.append((s, fm, most))
            moves.append((forbid, (m.bits << cb) + m.add, checks))
            low.append((m.bits >> 1) & ((1 << self.group) - 1))
        if not moves:
            return moves, [[] for _ in range(1 << self.group)]
        lows = np.array(low, dtype=np.int64)
        patterns = np.arange(1 << self.group, dtype=np.int64)
        fits = (patterns[:, None] & lows[None, :]) == 0
        return moves, [np.flatnonzero(row).tolist() for row in fits]

    def safe(self, p: int) -> bool:
        """Whether no way after position ``p`` can reach 2^61: each new state adds ways of
        distinct (state, move) pairs, so the new sum is at most the old one times the
        moves (float arithmetic, with room to spare)."""
        total = float(self.ways.sum(dtype=np.float64))
        return total * max(1, len(self.sweep.moves[p])) < _WAYS_LIMIT

    def advance(self, p: int) -> bool:
        """Sweep position ``p``; False (the layer unchanged) when the new states before
        merging would be more than ``max_candidates``."""
        cb = self.cb
        moves, fitting = self._moves(p)
        keys, ways = self.keys, self.ways
        covered = (keys & (1 << cb)) != 0
        new_keys = [keys[covered]]
        new_ways = [ways[covered]]
        size = new_keys[0].size
        empty = ~covered
        keys, ways = keys[empty], ways[empty]
        del covered, empty
        if moves and keys.size:
            pattern = ((keys >> (cb + 1)) & ((1 << self.group) - 1)).astype(np.uint16)
            order = np.argsort(pattern, kind="stable")  # a radix sort: keys stay in order
            bounds = np.zeros((1 << self.group) + 1, dtype=np.int64)
            np.cumsum(np.bincount(pattern, minlength=1 << self.group), out=bounds[1:])
            del pattern
            keys, ways = keys[order], ways[order]
            del order
            for g in np.flatnonzero(bounds[1:] > bounds[:-1]).tolist():
                gk = keys[bounds[g] : bounds[g + 1]]
                gw = ways[bounds[g] : bounds[g + 1]]
                for j in fitting[g]:
                    forbid, inc, checks = moves[j]
                    fits = (gk & forbid) == 0
                    for s, fm, most in checks:
                        fits &= ((gk >> s) & fm) <= most
                    k = gk[fits]
                    if k.size == 0:
                        continue
                    size += k.size
                    if size > self.max_candidates:
                        self.candidates = size
                        return False
                    k += inc
                    new_keys.append(k)
                    new_ways.append(gw[fits])
        self.candidates = size
        self._merge(new_keys, new_ways, p + 1)
        return True

    def _merge(self, new_keys: list[np.ndarray], new_ways: list[np.ndarray], q: int) -> None:
        """The layer at ``q``: every candidate key less its first cell, mapped to the smallest
        of its images where symmetries merge states, sorted, equal keys merged."""
        cb = self.cb
        k = np.concatenate(new_keys)
        new_keys.clear()
        w = np.concatenate(new_ways)
        new_ways.clear()
        if k.size == 0:
            self.keys, self.ways = k, w
            return
        low = k & ((1 << cb) - 1)
        k >>= cb + 1
        k <<= cb
        k |= low
        del low
        if self.sweep.symmetries:
            k = self._canonical(k, q)
        way_bits = max(int(w.max()).bit_length(), 1)
        if self.key_bits - 1 + way_bits <= 63:  # one int64 each: sort the values themselves
            k <<= way_bits
            k |= w
            del w
            k.sort()
            w = k & ((1 << way_bits) - 1)
            k >>= way_bits
        else:
            order = np.argsort(k)
            k, w = k[order], w[order]
            del order
        head = np.empty(k.size, dtype=bool)
        head[0] = True
        np.not_equal(k[1:], k[:-1], out=head[1:])
        starts = np.flatnonzero(head)
        del head
        if starts.size == k.size:
            self.keys, self.ways = k, w
            return
        self.keys = k[starts]
        csum = np.cumsum(w)
        del w
        ends = np.empty_like(starts)
        ends[:-1] = starts[1:] - 1
        ends[-1] = k.size - 1
        sums = csum[ends]
        sums[1:] -= csum[ends[:-1]]
        self.ways = sums

    def total(self) -> int:
        """Exact covers: the ways of the final states whose counters are within bounds."""
        keys = self.keys
        ok = np.ones(keys.size, dtype=bool)
        for s, fm, lo, hi in self.sweep._fields:
            v = (keys >> s) & fm
            ok &= (v >= lo) & (v <= hi)
        return sum(int(x) for x in self.ways[ok].tolist())
