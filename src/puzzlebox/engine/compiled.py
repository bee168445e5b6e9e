"""The compiled engine: the general cover problem solved by a compiled kernel on flat arrays.

The kernel is engine/_kernels.py, compiled by numba, or its port to C (engine/_ckernels.c,
built at installation), whichever engine/kernel_choice.py says: the same tree node for node
(tests/test_compiled_kernels.py). Where the C kernels run, a search neither imports numba
nor compiles anything.

The tree
--------
The tree is the reference engine's, refined as in Knuth's Algorithm M: each node branches on
the primary item with the fewest branches (minimum remaining values, ties to the smaller item
number), where an item needing ``r`` more of its ``s`` available options has ``s - r + 1``
branches and an item whose lower bound is met has ``s + 1`` (each option, or "no more").
If one more option fills the item, it is covered first and each branch takes one of its
options (Algorithm X); otherwise each branch takes the available option with the highest
number and hides it from the branches after it, and the last branch takes none of them.
Taking an option closes its full primary items and its secondary items; closing hides the
options that clash (a secondary item taken with a colour keeps the options that agree on it,
Algorithm C's purify). Every set of options is reached by one path at most, so each solution
comes out once. A child whose item runs short of options is entered and seen dead there.

The data: one bitset of the options, one copy per level
-------------------------------------------------------
The state of a node is one bit per option, set while the option is still available. Hiding
an option clears its bit; closing an item hides all its options at once with a mask that
never changes (``alive &= ~mask`` for each word the item's options occupy, a few words for a
piece whose options are numbered together, a few dozen for a cell); a secondary item taken
with a colour has a mask of the options that give it another colour. The options an item
has left are ``alive & mask``: counted with a ``popcount`` per word, listed by reading the
option numbers off the bits. The search keeps a copy of the bitset per level of the tree, so
a branch starts from a copy of its parent's words (one word per 64 options) and backtracking
restores nothing; done items live in a sparse set, so undoing a branch is resetting two
counts.

Why this layout: the kernel was written with dancing cells first, then with a bitset per
item, on the same tree (3.6 million nodes for the 9356 tilings of the 6x10 pentominoes).
CPU seconds of ``count()`` there (``time.process_time()``, 2-core AMD EPYC VM, where
``xcover`` 0.2.6, numba dancing cells, takes 4.0 to 4.3 s):

* dancing cells (a sparse set per item, a node hidden by a swap, undone by writing back a
  snapshot of the sizes): 3.7 s. Each hide is a chain of dependent loads and stores;
* dancing links was not written: it hides the same nodes with two pointer writes each and
  relinks every one of them on the way back, the same work as dancing cells and then the
  undo on top, so it was not expected to do better;
* a bitset per item (each option's bit in each of its items, copied per level): 1.65 to
  1.7 s. Taking a piece cleared every other placement of it from each of its five cells,
  bit by bit: most of the time went there;
* one bitset of options, as here: 1.06 to 1.09 s. Closing an item costs a word per 64 of
  its options instead of a bit per option and per cell, and the copy per level is six times
  smaller (a bit per option instead of a bit per option and item).

Choosing the item counts every active primary item in full and keeps the least key
(branches, then item number) with a select rather than a jump; the scan stops early only at
an item with no branch left (the node is dead whatever is chosen, so the tree does not
depend on the order of the scan). Cutting each count short once the item could no longer
win, which this replaced, did less arithmetic and cost more in mispredicted jumps: 13-queens
(1.05 million nodes) went from 0.114 s to 0.082 s, the 6x10 count from 1.07 s to 0.88 s.

Getting tight code out of numba took: unsigned indices (a signed one costs a wraparound test
at every access) and the per-branch work written out in ``_kernels.search`` rather than
called (numba counts references to every array handed to an inlined function: a dozen atomic
operations per node).

The kernel keeps its stack of frames and its registers in arrays and can stop after a number
of solutions or nodes, so :class:`CompiledSearch` advances in steps of a few nodes, hands
back solutions one batch at a time, and :func:`frontier` splits the tree into subproblems
described only by options forced in and options left out.
"""

from __future__ import annotations

import time
from collections.abc import Iterable
from dataclasses import dataclass

import numpy as np

from puzzlebox.cover.problem import CoverBuilder, CoverProblem, ProblemError
from puzzlebox.engine import cover_kernels as K
from puzzlebox.engine import kernel_choice
from puzzlebox.engine.bitboard_fit import PerProblem
from puzzlebox.engine.kernel_cache import announce
from puzzlebox.engine.search import Job, Mode, Step, Subproblem
from puzzlebox.engine.stats import SearchStats, once_per_process

NAME = "compiled"  # the engine's name in the registry and in its statistics
_MAX_BATCH = 1 << 12  # solutions per kernel call when enumerating
_NO_LIMIT = 1 << 62
_INT32_MAX = np.iinfo(np.int32).max


def _u32(values: np.ndarray) -> np.ndarray:
    return np.ascontiguousarray(values, dtype=np.uint32)


def _i32(values: Iterable[int] | np.ndarray) -> np.ndarray:
    return np.ascontiguousarray(np.asarray(values, dtype=np.int64).astype(np.int32))


def _word_masks(item_of: np.ndarray, option_of: np.ndarray, n_words: int) -> tuple[
    np.ndarray, np.ndarray, np.ndarray
]:
    """Group (mask, option) pairs, sorted by mask then option, into sparse word masks.

    Returns ``(runs per mask entry, words, bits)``: one run per (mask, word) pair."""
    word = option_of >> 6
    key = item_of * n_words + word
    if key.size == 0:
        return np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.int64), np.zeros(0, np.uint64)
    first = np.flatnonzero(np.r_[True, key[1:] != key[:-1]])
    bits = np.left_shift(np.uint64(1), (option_of & 63).astype(np.uint64))
    return item_of[first], word[first], np.bitwise_or.reduceat(bits, first)


@dataclass(frozen=True)
class _Tables:
    """The problem as the kernel reads it, plus the starting values of the mutable arrays."""

    n_primary: int
    ostart: np.ndarray
    items: np.ndarray
    pmask: np.ndarray
    mstart: np.ndarray
    mword: np.ndarray
    mbits: np.ndarray
    words: np.ndarray
    need: np.ndarray
    room: np.ndarray
    max_depth: int
    out_capacity: int

    @staticmethod
    def build(problem: CoverProblem) -> _Tables:
        start = np.asarray(problem.start, dtype=np.int64)
        items = np.asarray(problem.items, dtype=np.int64)
        colors = np.asarray(problem.colors, dtype=np.int64)
        nnz = int(start[-1])
        n_items = problem.n_items
        n_options = problem.n_options
        n_primary = problem.n_primary
        n_words = max(1, (n_options + 63) // 64)
        if max(nnz + 1, n_options, 64 * n_words) >= _INT32_MAX:
            raise ProblemError("cover problem too large for the compiled engine's 32-bit arrays")
        option_of = np.repeat(np.arange(n_options, dtype=np.int64), np.diff(start))
        # mask j < n_items: every option of item j
        by_item = np.argsort(items, kind="stable")  # nodes by item, options in order
        owner, mword, mbits = _word_masks(items[by_item], option_of[by_item], n_words)
        # a secondary item taken with colour c hides the options that give it another colour
        # or none: one more mask per (item, colour) pair that occurs
        pmask = items.copy()
        coloured = np.flatnonzero((items >= n_primary) & (colors > 0))
        pairs = sorted({(int(items[m]), int(colors[m])) for m in coloured})
        mask_of = {pair: n_items + k for k, pair in enumerate(pairs)}
        for m in coloured:
            pmask[m] = mask_of[(int(items[m]), int(colors[m]))]
        owners, words_, bits_ = [owner], [mword], [mbits]
        if pairs:
            item_sorted = items[by_item]
            first = np.searchsorted(item_sorted, np.arange(n_items + 1))
            for k, (j, c) in enumerate(pairs):
                nodes = by_item[first[j] : first[j + 1]]
                keep = nodes[colors[nodes] != c]
                o, w, b = _word_masks(np.full(keep.size, n_items + k), option_of[keep], n_words)
                owners.append(o)
                words_.append(w)
                bits_.append(b)
        owner = np.concatenate(owners)
        n_masks = n_items + len(pairs)
        mstart = np.zeros(n_masks + 1, dtype=np.int64)
        mstart[1:] = np.cumsum(np.bincount(owner, minlength=n_masks))
        words = np.zeros(n_words, dtype=np.uint64)
        if n_options:
            every = np.arange(n_options, dtype=np.int64)
            np.bitwise_or.at(
                words, every >> 6, np.left_shift(np.uint64(1), (every & 63).astype(np.uint64))
            )
        # A count never exceeds the options of the item, so clipping keeps the meaning of a
        # bound and keeps it inside int32.
        total = np.bincount(items, minlength=n_items).astype(np.int64)
        cap = total[:n_primary] + 1
        need = np.zeros(n_items, dtype=np.int64)  # 0 for secondary items
        need[:n_primary] = np.minimum(np.asarray(problem.lo, dtype=np.int64), cap)
        room = np.minimum(np.asarray(problem.hi, dtype=np.int64), cap)
        return _Tables(
            n_primary=n_primary,
            ostart=_u32(start),
            items=_u32(items),
            pmask=_u32(pmask),
            mstart=_u32(mstart),
            mword=_u32(np.concatenate(words_)),
            mbits=np.ascontiguousarray(np.concatenate(bits_), dtype=np.uint64),
            words=words,
            need=_i32(need),
            room=_i32(room),
            max_depth=n_primary + n_options + 1,
            out_capacity=2 * (n_options + 2) + (1 << 16),
        )


_tables_kept: PerProblem[_Tables] = PerProblem(4)  # the tables of the last problems used


def tables(problem: CoverProblem) -> _Tables:
    """The kernel's tables of ``problem``, built once per process and problem: a split count
    starts a search for each subproblem, all of one problem (building them each time, a
    subproblem of tetrasticks-6x6 took 0.34 ms to start; 0.024 ms so, medians of 9,
    2026-12-07). A search copies what it changes."""
    return _tables_kept.get(problem, (), lambda: _Tables.build(problem))


class _Search:
    """One resumable walk of the tree: all of the kernel's mutable state, in arrays."""

    def __init__(self, t: _Tables, excluded: np.ndarray, forced: np.ndarray) -> None:
        self.t = t
        self.kernels = K.kernels()  # the backend in use when the search starts, to its end
        n_items = t.need.shape[0]
        self.nw = max(1, t.words.shape[0])  # words per level (at least one, to keep levels apart)
        self.levels = np.zeros(self.nw * 16, dtype=np.uint64)
        self.levels[: t.words.shape[0]] = t.words
        self.done = np.zeros(n_items, dtype=np.uint8)
        self.need = t.need.copy()
        self.room = t.room.copy()
        self.act = np.arange(n_items, dtype=np.uint32)
        self.apos = np.arange(n_items, dtype=np.uint32)
        self.blist = np.zeros(2 * t.max_depth, dtype=np.int64)  # each option once, at most
        self.frames = np.zeros((t.max_depth, K.N_FIELDS), dtype=np.int64)
        self.regs = np.zeros(K.N_REGS, dtype=np.int64)
        self.out = np.zeros(t.out_capacity, dtype=np.int64)
        # forced options that cannot all be chosen leave the search finished before it starts
        self.kernels.setup(
            t.n_primary, t.ostart, t.items, t.pmask, t.mstart, t.mword, t.mbits, self.levels,
            self.done, self.need, self.room, self.act, self.apos, self.regs, excluded, forced,
        )

    @property
    def nodes(self) -> int:
        return int(self.regs[K.R_NODES])

    @property
    def found(self) -> int:
        return int(self.regs[K.R_SOLUTIONS])

    @property
    def finished(self) -> bool:
        return int(self.regs[K.R_PHASE]) == K.P_DONE

    def run(self, mode: int, depth: int, max_records: int, max_nodes: int) -> list[list[int]]:
        """Advance the search; return the length-prefixed segments it wrote.

        A solution is one segment (its options on the path); a frontier record is two (the
        options chosen on the path, then the options it leaves out). When the search goes
        deeper than the levels allocated, their number is doubled and the kernel carries on.
        """
        t = self.t
        segments: list[list[int]] = []
        record_stop = self.found + max_records
        node_stop = self.nodes + max_nodes
        while True:
            status, written = self.kernels.search(
                t.n_primary, t.ostart, t.items, t.pmask, t.mstart, t.mword, t.mbits,
                self.levels, self.nw, self.done, self.need, self.room, self.act,
                self.apos, self.blist, self.frames, self.regs, mode, depth,
                record_stop - self.found, node_stop - self.nodes, self.out,
            )
            if status == K.S_FULL and written == 0:
                raise RuntimeError("compiled engine: a record does not fit its output buffer")
            flat = self.out[:written].tolist()
            w = 0
            while w < written:
                n = flat[w]
                segments.append(flat[w + 1 : w + 1 + n])
                w += 1 + n
            if status != K.S_GROW:
                return segments
            self.levels = np.concatenate([self.levels, np.zeros_like(self.levels)])


def _warm_up() -> float:
    """Seconds spent making the kernels ready: none for the C kernels, built at installation;
    numba's are compiled (or loaded from its cache) once per process."""
    if kernel_choice.backend() == kernel_choice.C:
        return 0.0
    return _warm_up_numba()


@once_per_process
def _warm_up_numba() -> None:
    """Compile (or load from numba's cache) numba's kernels once, on a tiny problem, and time
    it."""
    from puzzlebox.engine import _kernels

    announce("exact-cover", _kernels.search)
    b = CoverBuilder()  # a little of everything: slack, a colour, "no more" branches
    b.primary("a")
    b.primary("b", 0, 2)
    b.secondary("c")
    b.option(["a", "c"], 0, [None, "red"])
    b.option(["b", "c"], 1, [None, "red"])
    b.option(["b"], 2)
    tables = _Tables.build(b.build())
    none = np.zeros(0, dtype=np.int32)
    for mode in (K.M_COUNT, K.M_SOLUTIONS, K.M_FRONTIER):
        _Search(tables, none, none).run(mode, 1, _NO_LIMIT, _NO_LIMIT)


class CompiledSearch:
    """The step-wise search (engine/search.py) of the compiled engine: each step is one
    kernel call of at most ``max_nodes`` nodes. Enumeration asks the kernel for 1, 2, 4, ...
    solutions per call (up to a batch), so a first solution costs no more than it needs."""

    def __init__(self, job: Job) -> None:
        problem = job.problem
        self.job = job
        self.forced = problem.option_set(job.forced, "forced")
        excluded = problem.option_set(job.excluded, "excluded")
        self.stats = SearchStats(engine=NAME)
        self.stats.compile_seconds += _warm_up()
        self._search = _Search(tables(problem), _i32(excluded), _i32(self.forced))
        self._counting = job.mode is Mode.COUNT
        self._batch = 1
        self._found = 0
        self._limit = job.limit
        self.stats.complete = self._search.finished
        self._done = self._search.finished or (self._limit is not None and self._limit <= 0)

    def step(self, max_nodes: int) -> Step:
        if self._done:
            return Step(done=True)
        search = self._search
        began = time.perf_counter()
        before = search.found
        if self._counting:
            search.run(K.M_COUNT, 0, _NO_LIMIT, max(1, max_nodes))
            found: list[tuple[int, ...]] = []
        else:
            left = None if self._limit is None else self._limit - self._found
            want = self._batch if left is None else min(self._batch, left)
            paths = search.run(K.M_SOLUTIONS, 0, want, max(1, max_nodes))
            found = [tuple(sorted(self.forced + tuple(path))) for path in paths]
            self._batch = min(2 * self._batch, _MAX_BATCH)
        self.stats.search_seconds += time.perf_counter() - began
        self._found += search.found - before
        self.stats.nodes = search.nodes
        self.stats.solutions = self._found
        self.stats.complete = search.finished
        self._done = search.finished or (self._limit is not None and self._found >= self._limit)
        return Step(solutions=found, counted=search.found - before, done=self._done)


def start(job: Job) -> CompiledSearch:
    """The compiled engine's search of ``job`` (the registry's ``start``)."""
    return CompiledSearch(job)


def frontier(job: Job, depth: int) -> list[Subproblem]:
    """The job's tree cut at ``depth`` (the registry's ``frontier``).

    Each pair is a node of the search tree at that depth (or a solution found above it),
    given by the options chosen on its path and the options its path leaves out. Their
    solution sets partition the job's: a search of ``Job(problem, forced=f, excluded=e)``
    for every pair finds each solution exactly once in all.
    """
    if depth < 0:
        raise ValueError("depth must be at least 0")
    problem = job.problem
    forced = problem.option_set(job.forced, "forced")
    excluded = problem.option_set(job.excluded, "excluded")
    _warm_up()
    search = _Search(tables(problem), _i32(excluded), _i32(forced))
    parts: list[Subproblem] = []
    while not search.finished:
        segments = search.run(K.M_FRONTIER, depth, _NO_LIMIT, _NO_LIMIT)
        for path, left_out in zip(segments[::2], segments[1::2], strict=True):
            parts.append(
                (tuple(sorted(forced + tuple(path))), tuple(sorted(excluded + tuple(left_out))))
            )
    return parts
