"""A specialised solver for edge-matching puzzles: scan-row backtracking in a numba kernel.

The general cover engine pays for its generality on edge-matching: every placement updates
sets for a cell, a card and up to four edges. Filling the board in reading order instead
needs only two facts at each position, the label to the left and the label above, so the
oriented cards are tabled by *(left key, top key)* and the branches at a position are one
table row, filtered by which cards are still unused (and, on the last row and column, by
the border label). A node costs a few array reads, so tens of millions of nodes a second.

Keys: an oriented card is listed under the keys its left and top sides can meet: the
label that must face them (its complement, when complements are given), a wildcard for a
side with no neighbour and no border label, and a border key when the side carries the
border label. Randomised runs shuffle every table row; with a seed, :class:`EdgeSearch` restarts
with a fresh shuffle after Luby-growing node budgets (see ``engine/restarts.py``).

Answers are returned as option indices of the puzzle's own cover problem and checked with
``CoverProblem.is_solution``, so this solver is held to the same arbiter as every engine.
"""

from __future__ import annotations

import time

import numpy as np
from numba import njit

from puzzlebox.engine.errors import EngineError
from puzzlebox.engine.kernel_cache import announce
from puzzlebox.engine.progress import share_walked
from puzzlebox.engine.restarts import luby
from puzzlebox.engine.search import Job, Mode, Step
from puzzlebox.engine.stats import SearchStats
from puzzlebox.puzzles.edge_matching.cards import turned
from puzzlebox.puzzles.edge_matching.model import CUT_DOWN, EdgeMatchingPuzzle

# registers
R_DEPTH = 0
R_ENTER = 1  # 1: the position at R_DEPTH is entered fresh (its row of the table is chosen)
R_NODES = 2
R_SOLUTIONS = 3
R_DONE = 4
N_REGS = 5

S_DONE = 0
S_FOUND = 1
S_BUDGET = 2


@njit(cache=True)
def _search(rows, cols, border, wild, bkey, nkeys, tstart, tlist, card, raw, right_need,
            bottom_need, used, placed, first, ptr, hi, regs, max_nodes, max_solutions,
            out):  # fmt: skip
    """Advance the scan-row search; returns a status, solutions go to ``out`` (npos each)."""
    npos = rows * cols
    d = regs[R_DEPTH]
    enter = regs[R_ENTER]
    nodes = regs[R_NODES]
    found = 0
    stop_nodes = nodes + max_nodes
    while True:
        if d < 0:
            regs[R_DONE] = 1
            status = S_DONE
            break
        if enter == 1:
            if d == npos:
                for i in range(npos):
                    out[found * npos + i] = placed[i]
                found += 1
                regs[R_SOLUTIONS] += 1
                d -= 1
                used[card[placed[d]]] = 0
                enter = 0
                if found >= max_solutions:
                    status = S_FOUND
                    break
                continue
            r = d // cols
            c = d - r * cols
            if c > 0:
                lk = right_need[placed[d - 1]]
            elif border >= 0:
                lk = bkey
            else:
                lk = wild
            if r > 0:
                tk = bottom_need[placed[d - cols]]
            elif border >= 0:
                tk = bkey
            else:
                tk = wild
            row = lk * nkeys + tk
            first[d] = tstart[row]
            ptr[d] = tstart[row]
            hi[d] = tstart[row + 1]
            enter = 0
        # try the next branch at depth d
        r = d // cols
        c = d - r * cols
        advanced = False
        while ptr[d] < hi[d]:
            k = tlist[ptr[d]]
            ptr[d] += 1
            if used[card[k]] == 1:
                continue
            if border >= 0:
                if c == cols - 1 and raw[k, 1] != border:
                    continue
                if r == rows - 1 and raw[k, 2] != border:
                    continue
            nodes += 1
            used[card[k]] = 1
            placed[d] = k
            d += 1
            enter = 1
            advanced = True
            break
        if advanced:
            if nodes >= stop_nodes:
                status = S_BUDGET
                break
            continue
        d -= 1
        if d >= 0:
            used[card[placed[d]]] = 0
    regs[R_DEPTH] = d
    regs[R_ENTER] = enter
    regs[R_NODES] = nodes
    return status, found


class _Tables:
    """The oriented cards of a puzzle, keyed for the kernel."""

    def __init__(self, puzzle: EdgeMatchingPuzzle) -> None:
        self.puzzle = puzzle
        labels = sorted(  # labels and complements (which may be other hashables)
            {lab for sides in puzzle.cards.values() for lab in sides}
            | {puzzle.complement(lab) for sides in puzzle.cards.values() for lab in sides}
            | ({puzzle.border} if puzzle.border is not None else set()),
            key=repr,
        )
        lid = {lab: i for i, lab in enumerate(labels)}
        self.wild = len(labels)
        self.bkey = len(labels) + 1
        self.nkeys = len(labels) + 2
        self.border = lid[puzzle.border] if puzzle.border is not None else -1
        self.cards = list(puzzle.cards)
        # the option of the cover problem for (card, row, col, turns)
        self.option_of = {
            (p.card, p.row, p.col, p.turns): k for k, p in enumerate(puzzle.problem.labels)
        }
        oriented = [(i, t) for i, name in enumerate(self.cards) for t in puzzle.turns_of(name)]
        self.oriented = oriented
        n = len(oriented)
        self.card = np.array([i for i, _ in oriented], dtype=np.int64)
        self.raw = np.zeros((n, 4), dtype=np.int64)
        self.right_need = np.zeros(n, dtype=np.int64)  # key its right neighbour must list
        self.bottom_need = np.zeros(n, dtype=np.int64)
        rows_of: dict[int, list[int]] = {}
        for k, (i, t) in enumerate(oriented):
            top, right, bottom, left = turned(puzzle.cards[self.cards[i]], t)
            self.raw[k] = [lid[top], lid[right], lid[bottom], lid[left]]
            self.right_need[k] = lid[right]
            self.bottom_need[k] = lid[bottom]
            left_keys = {lid[puzzle.complement(left)], self.wild}
            top_keys = {lid[puzzle.complement(top)], self.wild}
            if left == puzzle.border:
                left_keys.add(self.bkey)
            if top == puzzle.border:
                top_keys.add(self.bkey)
            for lk in left_keys:
                for tk in top_keys:
                    rows_of.setdefault(lk * self.nkeys + tk, []).append(k)
        self.rows_of = rows_of

    def table(self, rng: np.random.Generator | None) -> tuple[np.ndarray, np.ndarray]:
        """The table in compressed-row form, each row shuffled when ``rng`` is given."""
        n_rows = self.nkeys * self.nkeys
        start = np.zeros(n_rows + 1, dtype=np.int64)
        flat: list[int] = []
        for row in range(n_rows):
            members = self.rows_of.get(row, [])
            if rng is not None and len(members) > 1:
                members = [members[j] for j in rng.permutation(len(members))]
            flat.extend(members)
            start[row + 1] = len(flat)
        return start, np.array(flat, dtype=np.int64)

    def options(self, placed: np.ndarray) -> tuple[int, ...]:
        cols = self.puzzle.cols
        chosen = []
        for d, k in enumerate(placed.tolist()):
            i, t = self.oriented[k]
            chosen.append(self.option_of[(self.cards[i], d // cols, d % cols, t)])
        return tuple(sorted(chosen))


class _Run:
    """One resumable scan-row search over one (possibly shuffled) table."""

    def __init__(self, t: _Tables, rng: np.random.Generator | None) -> None:
        self.t = t
        self.tstart, self.tlist = t.table(rng)
        npos = t.puzzle.rows * t.puzzle.cols
        self.used = np.zeros(len(t.cards), dtype=np.int64)
        self.placed = np.zeros(npos + 1, dtype=np.int64)
        self.first = np.zeros(npos + 1, dtype=np.int64)  # each depth's candidates begin here
        self.ptr = np.zeros(npos + 1, dtype=np.int64)
        self.hi = np.zeros(npos + 1, dtype=np.int64)
        self.regs = np.zeros(N_REGS, dtype=np.int64)
        self.regs[R_ENTER] = 1
        self.npos = npos

    @property
    def nodes(self) -> int:
        return int(self.regs[R_NODES])

    @property
    def done(self) -> bool:
        return bool(self.regs[R_DONE])

    def walked(self) -> float:
        """The share of the tree searched, from the path: each depth's candidate cards
        (those that fail the border or are in use count as subtrees finished at once)."""
        if self.done:
            return 1.0
        d = int(self.regs[R_DEPTH])
        top = d - 1 if self.regs[R_ENTER] else d  # the depths on a branch, and d itself
        branches = (self.hi[: top + 1] - self.first[: top + 1]).tolist()
        finished = (self.ptr[: top + 1] - self.first[: top + 1] - 1).tolist()
        if top >= 0 and not self.regs[R_ENTER]:
            finished[top] += 1  # stopped after a solution below its current card: all tried
        return share_walked(branches, finished)

    def advance(self, max_nodes: int, max_solutions: int) -> list[np.ndarray]:
        t = self.t
        out = np.zeros(max(max_solutions, 1) * self.npos, dtype=np.int64)
        _, found = _search(
            t.puzzle.rows, t.puzzle.cols, t.border, t.wild, t.bkey, t.nkeys, self.tstart,
            self.tlist, t.card, t.raw, t.right_need, t.bottom_need, self.used, self.placed,
            self.first, self.ptr, self.hi, self.regs, max_nodes, max_solutions, out,
        )
        return [out[i * self.npos : (i + 1) * self.npos] for i in range(found)]


DEFAULT_BASE_BUDGET = 1 << 16


class EdgeSearch:
    """The solver's step-wise search (engine/search.py) of ``job.puzzle``.

    Without a seed: one deterministic run in the cards' order, complete (no solution found
    means none exists), whose stats carry the share of the tree walked. With a seed:
    shuffled runs restarted after ``base_budget`` times Luby's sequence nodes; the first
    run that finds a solution goes on for the rest.
    """

    def __init__(self, job: Job, base_budget: int = DEFAULT_BASE_BUDGET) -> None:
        puzzle = job.puzzle
        if not isinstance(puzzle, EdgeMatchingPuzzle):  # the registry's reason (#38 item 9)
            raise EngineError(CUT_DOWN if puzzle is None else
                              "the edges solver solves edge-matching puzzles only")
        self.puzzle = puzzle
        self.base_budget = base_budget
        self.restarts = 0
        self.stats = SearchStats(engine="edges")
        announce("edge-matching", _search)  # numba only: its first run compiles
        began = time.perf_counter()
        self._tables = _Tables(puzzle)
        self.stats.compile_seconds = time.perf_counter() - began
        self._rng = None if job.seed is None else np.random.default_rng(job.seed)
        self._limit = job.limit
        self._counting = job.mode is Mode.COUNT
        self._found = 0
        self._before = 0  # nodes of the abandoned runs
        self._attempt = 1
        self._run = _Run(self._tables, self._rng)
        self._done = self._limit is not None and self._limit <= 0

    def _budget(self) -> int | None:
        return None if self._rng is None else self.base_budget * luby(self._attempt)

    def step(self, max_nodes: int) -> Step:
        if self._done:
            return Step(done=True)
        run, limit = self._run, self._limit
        budget = self._budget()
        nodes = max(1, max_nodes)
        if budget is not None and not self._found:
            nodes = max(1, min(nodes, budget - run.nodes))
        want = 64 if limit is None else min(64, limit - self._found)
        began = time.perf_counter()
        batch = run.advance(nodes, want)
        self.stats.search_seconds += time.perf_counter() - began
        self.stats.nodes = self._before + run.nodes
        self.stats.walked = run.walked() if self._rng is None else None
        found = [self._check(self._tables.options(placed)) for placed in batch]
        self._found += len(found)
        self.stats.solutions = self._found
        if run.done or (limit is not None and self._found >= limit):
            self.stats.complete = run.done
            self._done = True
        elif budget is not None and not self._found and run.nodes >= budget:
            self.restarts += 1
            self._before += run.nodes
            self._attempt += 1
            self._run = _Run(self._tables, self._rng)
        return Step(solutions=[] if self._counting else found, counted=len(found),
                    done=self._done)  # fmt: skip

    def _check(self, chosen: tuple[int, ...]) -> tuple[int, ...]:
        if not self.puzzle.problem.is_solution(chosen):
            raise EngineError("the edge-matching solver's answer failed verification")
        return chosen


def start(job: Job) -> EdgeSearch:
    """The edges solver's search of ``job`` (the registry's ``start``)."""
    return EdgeSearch(job)
