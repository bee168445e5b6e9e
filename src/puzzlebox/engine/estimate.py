"""How big is the search tree? Knuth's random-probe estimate, on the compiled engine's tree.

Knuth (1975, "Estimating the efficiency of backtrack programs") walks one random path from
the root: at a node with ``d`` children it multiplies a running product by ``d`` and steps
to one child chosen uniformly. The sum of the products along the path, ``1 + d1 + d1 d2 +
...``, is an unbiased estimate of the number of nodes, and the product at a solution leaf
(0 at a dead end) an unbiased estimate of the number of solutions. Averaging many probes
shrinks the error; the spread of the probes says by how much.

The estimate is only as good as the tree it walks, so it walks the compiled engine's tree,
by the engine's rules (see :mod:`puzzlebox.engine.compiled`), re-stated here on plain arrays
so that the estimator does not depend on how the kernel stores its state:

* the item branched on is the primary item with the fewest branches (an item needing ``r``
  more of its ``s`` available options has ``s - r + 1``; a satisfied item with room has
  ``s + 1``), ties to the smaller item number;
* an item that one more option fills is covered first (its options leave every other item)
  and each branch takes one of its options; an item with room for more takes one option per
  branch, the highest-numbered first, leaves it out of the later branches, and ends with
  "no more" when satisfied;
* taking an option closes its full primary items and its secondary items and hides the
  options that clash with them (Algorithm C's purify).

An engine may enter every branch, or (``lookahead``) leave out the branches it sees dead
while taking them: a hidden option's item left with fewer options than it needs. Both trees
are here; :func:`engine_lookahead` says which one the compiled engine searches.
:func:`exact_tree` walks a whole tree; the tests compare it with the engine's node counts,
node for node.
"""

from __future__ import annotations

import math
import time
from collections.abc import Iterable
from dataclasses import dataclass

import numpy as np
from numba import njit

from puzzlebox.cover.problem import CoverProblem

_COVER = 0  # the item is filled by one more option: each branch takes one of its options
_KEEP = 1  # the item has room for more: each branch takes an option, then leaves it out

# -- the state of a walk, as flat arrays ------------------------------------------------------
#
# ostart/oitems/ocolors: the options (CSR); istart/iopts/icolors: for each item the options
# that contain it and the colour they give it. avail[o]: option o is not hidden. size[j]: the
# available options of item j, kept for items not done (a done item's size is frozen).
# need/room: what primary items still need and allow (need 0 and room 1 for secondaries).
# The trail holds what was done, newest last: o >= 0 hid option o, -1 - j closed item j.


@njit(cache=True)
def _hide(o, ostart, oitems, avail, size, done, trail, tt):
    if avail[o]:
        avail[o] = 0
        for m in range(ostart[o], ostart[o + 1]):
            k = oitems[m]
            if done[k] == 0:
                size[k] -= 1
        trail[tt] = o
        tt += 1
    return tt


@njit(cache=True)
def _close(j, done, trail, tt):
    done[j] = 1
    trail[tt] = -1 - j
    return tt + 1


@njit(cache=True)
def _undo(mark, ostart, oitems, avail, size, done, trail, tt):
    while tt > mark:
        tt -= 1
        v = trail[tt]
        if v >= 0:
            avail[v] = 1
            for m in range(ostart[v], ostart[v + 1]):
                k = oitems[m]
                if done[k] == 0:
                    size[k] += 1
        else:
            done[-1 - v] = 0
    return tt


@njit(cache=True)
def _count(o, sign, n_primary, ostart, oitems, need, room):
    for m in range(ostart[o], ostart[o + 1]):
        k = oitems[m]
        if k < n_primary:
            need[k] -= sign
            room[k] -= sign


@njit(cache=True)
def _purge(j, color, check, ostart, oitems, istart, iopts, icolors, avail, size, done, need,
           trail, tt, mark, stamp):
    """Hide the available options of closed item ``j`` that clash with ``color`` (0: all).

    With ``check``, also says whether one of their items (hidden now, or earlier in the same
    step: ``stamp`` marks those) is left with fewer options than it needs. Returns
    ``(trail top, short)``.
    """
    short = False
    for p in range(istart[j], istart[j + 1]):
        o = iopts[p]
        if color != 0 and icolors[p] == color:
            continue
        if avail[o]:
            tt = _hide(o, ostart, oitems, avail, size, done, trail, tt)
            stamp[o] = mark
        elif stamp[o] != mark:
            continue  # hidden before this step: the engine no longer sees it in j's set
        if check:
            for m in range(ostart[o], ostart[o + 1]):
                k = oitems[m]
                if done[k] == 0 and size[k] < need[k]:
                    short = True
    return tt, short


@njit(cache=True)
def _include(o, hidden, n_primary, ostart, oitems, ocolors, istart, iopts, icolors, avail,
             size, done, need, room, dcolor, trail, tt, stamp, step):
    """Take option ``o``; ``hidden``: it is already hidden (in a covered item's set).

    Returns ``(trail top, dead)``: dead when the engine would see the branch fail at once.
    """
    _count(o, 1, n_primary, ostart, oitems, need, room)
    if not hidden:
        tt = _hide(o, ostart, oitems, avail, size, done, trail, tt)
    first = tt
    for m in range(ostart[o], ostart[o + 1]):
        k = oitems[m]
        if done[k] == 0 and (k >= n_primary or room[k] == 0):
            dcolor[k] = ocolors[m]
            tt = _close(k, done, trail, tt)
    closed_end = tt
    dead = False
    for t in range(first, closed_end):
        k = -1 - trail[t]
        tt, short = _purge(k, dcolor[k] if k >= n_primary else 0, True, ostart, oitems, istart,
                           iopts, icolors, avail, size, done, need, trail, tt, step, stamp)
        dead = dead or short
    return tt, dead


@njit(cache=True)
def _choose(n_primary, size, done, need):
    """The engine's item: fewest branches, then smallest number. Returns (item, branches);
    item -1: every bound is met (a solution)."""
    best = 1 << 30
    bi = -1
    for j in range(n_primary):
        if done[j]:
            continue
        r = need[j]
        sz = size[j]
        if r > 0:
            th = sz - r + 1
        elif sz == 0:
            continue
        else:
            th = sz + 1
        if th < best:
            best = th
            bi = j
            if th <= 0:
                break
    return bi, best


@njit(cache=True)
def _last_option(j, istart, iopts, avail):
    for p in range(istart[j + 1] - 1, istart[j] - 1, -1):
        if avail[iopts[p]]:
            return iopts[p]
    return -1


@njit(cache=True)
def _expand(bi, n_primary, ostart, oitems, ocolors, istart, iopts, icolors, avail, size, done,
            need, room, dcolor, trail, tt, stamp, step, seq, kids, lookahead):
    """The branches of a node that branches on ``bi``: ``seq[s]`` is the option of branch
    ``s`` (-1: "no more"), ``kids[:n]`` the branches the engine enters: all of them, or with
    ``lookahead`` those it does not see dead while taking them. Leaves the state as it found
    it. Returns ``(kind, n, step)``."""
    mark = tt
    n = 0
    ns = 0
    if room[bi] == 1:
        kind = _COVER
        for p in range(istart[bi], istart[bi + 1]):
            o = iopts[p]
            if avail[o]:
                seq[ns] = o
                ns += 1
        if lookahead:
            tt = _close(bi, done, trail, tt)
            step += 1
            tt, short = _purge(bi, 0, False, ostart, oitems, istart, iopts, icolors, avail,
                               size, done, need, trail, tt, step, stamp)
        for s in range(ns):
            dead = False
            if lookahead:
                m2 = tt
                step += 1
                tt, dead = _include(seq[s], True, n_primary, ostart, oitems, ocolors, istart,
                                    iopts, icolors, avail, size, done, need, room, dcolor,
                                    trail, tt, stamp, step)
                tt = _undo(m2, ostart, oitems, avail, size, done, trail, tt)
                _count(seq[s], -1, n_primary, ostart, oitems, need, room)
            if not dead:
                kids[n] = s
                n += 1
        if need[bi] <= 0:
            seq[ns] = -1
            kids[n] = ns
            n += 1
            ns += 1
    else:
        kind = _KEEP
        while size[bi] > 0 and size[bi] >= need[bi]:
            o = _last_option(bi, istart, iopts, avail)
            dead = False
            if lookahead:
                m2 = tt
                step += 1
                tt, dead = _include(o, False, n_primary, ostart, oitems, ocolors, istart, iopts,
                                    icolors, avail, size, done, need, room, dcolor, trail, tt,
                                    stamp, step)
                tt = _undo(m2, ostart, oitems, avail, size, done, trail, tt)
                _count(o, -1, n_primary, ostart, oitems, need, room)
            seq[ns] = o
            if not dead:
                kids[n] = ns
                n += 1
            ns += 1
            tt = _hide(o, ostart, oitems, avail, size, done, trail, tt)
        if need[bi] <= 0:
            # every option has been left out by now, so closing the item hides nothing
            seq[ns] = -1
            kids[n] = ns
            n += 1
            ns += 1
    tt = _undo(mark, ostart, oitems, avail, size, done, trail, tt)
    return kind, n, step


@njit(cache=True)
def _enter(bi, kind, s, n_primary, ostart, oitems, ocolors, istart, iopts, icolors, avail, size,
           done, need, room, dcolor, trail, tt, stamp, step, seq):
    """Put the state in branch ``s`` of the node, as :func:`_expand` listed it.
    Returns ``(trail top, step)``."""
    o = seq[s]
    if kind == _COVER:
        tt = _close(bi, done, trail, tt)
        step += 1
        tt, short = _purge(bi, 0, False, ostart, oitems, istart, iopts, icolors, avail, size,
                           done, need, trail, tt, step, stamp)
        if o >= 0:
            step += 1
            tt, dead = _include(o, True, n_primary, ostart, oitems, ocolors, istart, iopts,
                                icolors, avail, size, done, need, room, dcolor, trail, tt,
                                stamp, step)
        return tt, step
    for q in range(s):
        tt = _hide(seq[q], ostart, oitems, avail, size, done, trail, tt)
    if o >= 0:
        step += 1
        tt, dead = _include(o, False, n_primary, ostart, oitems, ocolors, istart, iopts, icolors,
                            avail, size, done, need, room, dcolor, trail, tt, stamp, step)
    else:
        tt = _close(bi, done, trail, tt)
    return tt, step


@njit(cache=True, nogil=True)
def _probe(n_probes, seeds, n_primary, ostart, oitems, ocolors, istart, iopts, icolors, avail,
           size, done, need, room, dcolor, trail, stamp, step, seq, kids, chosen, lookahead,
           out_nodes, out_solutions, out_depth):
    """Walk ``n_probes`` random root-to-leaf paths from the state given (its trail empty);
    write each one's estimates. Probe ``p`` draws from its own seed, so the results do not
    depend on how probes are batched. ``step`` only grows (it tells this step's hidden
    options from older ones): returns its new value."""
    for p in range(n_probes):
        np.random.seed(seeds[p])
        tt = 0
        nchosen = 0
        nodes = 1.0
        weight = 1.0
        solutions = 0.0
        depth = 0
        while True:
            bi, best = _choose(n_primary, size, done, need)
            if bi < 0:
                solutions = weight
                break
            if best <= 0:
                break
            kind, n, step = _expand(bi, n_primary, ostart, oitems, ocolors, istart, iopts,
                                    icolors, avail, size, done, need, room, dcolor, trail, tt,
                                    stamp, step, seq, kids, lookahead)
            if n == 0:
                break
            weight *= n
            nodes += weight
            s = kids[np.random.randint(n)]
            tt, step = _enter(bi, kind, s, n_primary, ostart, oitems, ocolors, istart, iopts,
                              icolors, avail, size, done, need, room, dcolor, trail, tt, stamp,
                              step, seq)
            if seq[s] >= 0:
                chosen[nchosen] = seq[s]
                nchosen += 1
            depth += 1
        tt = _undo(0, ostart, oitems, avail, size, done, trail, tt)
        for c in range(nchosen):
            _count(chosen[c], -1, n_primary, ostart, oitems, need, room)
        out_nodes[p] = nodes
        out_solutions[p] = solutions
        out_depth[p] = depth
    return step


class _Walker:
    """The root of a (sub)problem's tree, in the arrays the walk works on."""

    def __init__(
        self, problem: CoverProblem, forced: Iterable[int], excluded: Iterable[int]
    ) -> None:
        p = problem
        n_items, n_options = p.n_items, p.n_options
        self.n_primary = p.n_primary
        self.ostart = np.asarray(p.start, dtype=np.int64)
        self.oitems = np.asarray(p.items, dtype=np.int64)
        self.ocolors = np.asarray(p.colors, dtype=np.int64)
        order = np.argsort(self.oitems, kind="stable")  # entries grouped by item, options in order
        self.iopts = np.repeat(np.arange(n_options), np.diff(self.ostart))[order]
        self.icolors = self.ocolors[order]
        counts = np.bincount(self.oitems, minlength=n_items)
        self.istart = np.concatenate(([0], np.cumsum(counts))).astype(np.int64)
        self.avail = np.ones(n_options, dtype=np.int8)
        self.size = counts.astype(np.int64)
        self.done = np.zeros(n_items, dtype=np.int8)
        # bounds clipped as the engine clips them: a count never exceeds the item's options
        cap = counts[: p.n_primary] + 1
        self.need = np.zeros(n_items, dtype=np.int64)
        self.need[: p.n_primary] = np.minimum(np.asarray(p.lo, dtype=np.int64), cap)
        self.room = np.ones(n_items, dtype=np.int64)
        self.room[: p.n_primary] = np.minimum(np.asarray(p.hi, dtype=np.int64), cap)
        self.dcolor = np.zeros(n_items, dtype=np.int64)
        self.trail = np.zeros(n_options + n_items + 1, dtype=np.int64)
        self.stamp = np.zeros(n_options, dtype=np.int64)
        self.seq = np.zeros(n_options + 2, dtype=np.int64)
        self.kids = np.zeros(n_options + 2, dtype=np.int64)
        self.chosen = np.zeros(n_options + 1, dtype=np.int64)
        self.step = 0  # numbers the steps, for ``stamp``: only ever grows
        self.feasible = self._setup(sorted(set(forced)), sorted(set(excluded)))

    def arrays(self) -> tuple:
        """What the kernels take, from ``n_primary`` to ``trail``."""
        return (self.n_primary, self.ostart, self.oitems, self.ocolors, self.istart, self.iopts,
                self.icolors, self.avail, self.size, self.done, self.need, self.room,
                self.dcolor, self.trail)

    def _setup(self, forced: list[int], excluded: list[int]) -> bool:
        """The engine's start: excluded options hidden, items allowing none closed, forced
        options taken. False when the forced options cannot all be taken (no tree at all)."""
        a = self.arrays()
        ostart, oitems, istart, iopts, icolors = a[1], a[2], a[4], a[5], a[6]
        avail, size, done, need, trail = a[7], a[8], a[9], a[10], a[13]
        tt = 0
        for o in excluded:
            tt = _hide(o, ostart, oitems, avail, size, done, trail, tt)
        for j in range(self.n_primary):
            if self.room[j] == 0 and not done[j]:
                tt = _close(j, done, trail, tt)
                self.step += 1
                tt, _ = _purge(j, 0, False, ostart, oitems, istart, iopts, icolors, avail, size,
                               done, need, trail, tt, self.step, self.stamp)
        for o in forced:
            primary = oitems[ostart[o] : ostart[o + 1]]
            if not avail[o] or any(done[k] for k in primary[primary < self.n_primary]):
                return False
            self.step += 1
            tt, dead = _include(o, False, *a[:13], trail, tt, self.stamp, self.step)
            if dead:
                return False
        # the root's own changes are never undone: start the walks from an empty trail
        self.trail[:] = 0
        return True


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

    def seconds_at(self, nodes_per_second: float) -> float:
        """How long the engine would take for the whole tree at that speed."""
        return self.nodes / nodes_per_second if nodes_per_second > 0 else math.inf


def estimate_tree(
    problem: CoverProblem,
    probes: int = 1000,
    seed: int = 0,
    forced: Iterable[int] = (),
    excluded: Iterable[int] = (),
    max_seconds: float | None = None,
    lookahead: bool | None = None,
) -> TreeEstimate:
    """Estimate the engine's tree for ``problem`` (with ``forced``/``excluded`` options) from
    ``probes`` random paths, stopping early after ``max_seconds`` (at least one probe).

    ``lookahead``: whether branches seen dead while being taken are left out of the tree;
    None asks the compiled engine which tree it searches (:func:`engine_lookahead`).
    """
    if probes < 1:
        raise ValueError("probes must be at least 1")
    if lookahead is None:
        lookahead = engine_lookahead()
    walker = _Walker(problem, forced, excluded)
    if not walker.feasible:  # the engine enters no node at all
        return TreeEstimate(0.0, 0.0, 0.0, 0.0, probes, 0.0, 0.0)
    nodes = np.zeros(probes, dtype=np.float64)
    sols = np.zeros(probes, dtype=np.float64)
    depth = np.zeros(probes, dtype=np.int64)
    seeds = np.random.default_rng(seed).integers(1 << 31, size=probes)
    scratch = (walker.seq, walker.kids, walker.chosen)
    # compile (or load from numba's cache) before the clock starts: zero probes
    _probe(0, seeds, *walker.arrays(), walker.stamp, walker.step, *scratch, lookahead, nodes,
           sols, depth)
    began = time.perf_counter()
    done = 0
    chunk = 4
    while done < probes:
        n = min(chunk, probes - done)
        t0 = time.perf_counter()
        walker.step = _probe(n, seeds[done:], *walker.arrays(), walker.stamp, walker.step,
                             *scratch, lookahead, nodes[done:], sols[done:], depth[done:])
        done += n
        now = time.perf_counter()
        if max_seconds is not None and now - began >= max_seconds:
            break
        # slices of about 50 ms, so that a time limit is kept closely
        per_probe = max((now - t0) / n, 1e-7)
        chunk = int(min(max(0.05 / per_probe, 1), 4096))
    nodes, sols, depth = nodes[:done], sols[:done], depth[:done]

    def error(values: np.ndarray) -> float:
        return float(values.std(ddof=1) / math.sqrt(len(values))) if len(values) > 1 else math.inf

    return TreeEstimate(
        nodes=float(nodes.mean()),
        nodes_error=error(nodes),
        solutions=float(sols.mean()),
        solutions_error=error(sols),
        probes=done,
        mean_depth=float(depth.mean()),
        seconds=time.perf_counter() - began,
    )


def exact_tree(
    problem: CoverProblem,
    forced: Iterable[int] = (),
    excluded: Iterable[int] = (),
    lookahead: bool | None = None,
) -> tuple[int, int]:
    """(nodes, solutions) of the tree the estimator walks, by visiting all of it.

    Slow (a Python recursion over the compiled steps), for small problems: it is the check
    that the estimator's notion of a node is the engine's.
    """
    if lookahead is None:
        lookahead = engine_lookahead()
    w = _Walker(problem, forced, excluded)
    if not w.feasible:
        return 0, 0
    a = w.arrays()
    n_primary, ostart, oitems = a[0], a[1], a[2]
    avail, size, done, need, room, trail = a[7], a[8], a[9], a[10], a[11], a[13]
    step = [w.step]

    def visit(tt: int) -> tuple[int, int]:
        bi, best = _choose(n_primary, size, done, need)
        if bi < 0:
            return 1, 1
        if best <= 0:
            return 1, 0
        seq = np.zeros_like(w.seq)
        kids = np.zeros_like(w.kids)
        kind, n, step[0] = _expand(bi, *a, tt, w.stamp, step[0], seq, kids, lookahead)
        nodes, solutions = 1, 0
        for k in range(n):
            s = int(kids[k])
            tt2, step[0] = _enter(bi, kind, s, *a, tt, w.stamp, step[0], seq)
            more, found = visit(int(tt2))
            nodes += more
            solutions += found
            _undo(tt, ostart, oitems, avail, size, done, trail, tt2)
            if seq[s] >= 0:
                _count(int(seq[s]), -1, n_primary, ostart, oitems, need, room)
        return nodes, solutions

    return visit(0)


def engine_lookahead() -> bool:
    """Whether the compiled engine leaves out of its tree the branches it sees dead while
    taking them (an item left short of options), or enters every branch: the engine declares
    it (:data:`puzzlebox.engine.compiled.LOOKAHEAD`), and the tests hold it to that by
    counting its nodes against :func:`exact_tree` under both rules."""
    from puzzlebox.engine.compiled import LOOKAHEAD

    return LOOKAHEAD


class _Enough(Exception):
    """Stops the timing run once it has run long enough."""


def engine_speed(
    problem: CoverProblem,
    seconds: float = 0.25,
    forced: Iterable[int] = (),
    excluded: Iterable[int] = (),
) -> tuple[float, int | None]:
    """Nodes per second of the compiled engine on this problem, from a short run of it.

    Returns ``(speed, nodes)``: ``nodes`` is the whole tree's size when the run finished it,
    else None.
    """
    from puzzlebox.engine.compiled import CompiledEngine

    engine = CompiledEngine(problem, forced, excluded, node_budget=1 << 12)
    began = time.perf_counter()

    def stop_when_enough(stats: object) -> None:
        if time.perf_counter() - began >= seconds:
            raise _Enough
        engine.node_budget = min(engine.node_budget * 2, 1 << 20)

    try:
        engine.count(progress=stop_when_enough)
        finished = True
    except _Enough:
        finished = False
    spent = max(engine.stats.search_seconds, 1e-9)
    return engine.stats.nodes / spent, (engine.stats.nodes if finished else None)
