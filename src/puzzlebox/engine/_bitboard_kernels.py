"""The bitboard engine's kernels, compiled by numba: the fallback where the C kernels
(engine/_ckernels.c, built when puzzlebox is installed) are missing, and the reference they are
tested against (tests/test_bitboard.py runs both). engine/bitboard.py imports this module
only when it needs it, so that a search with the C kernels never imports numba.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt
from llvmlite import ir
from numba import types

from puzzlebox.engine._jit import intrinsic, njit
from puzzlebox.engine._kernels import _draw
from puzzlebox.engine.bitboard import (
    M_COUNT,
    M_FRONTIER,
    M_PROBE,
    M_SOLUTIONS,
    PRUNE_REGIONS,
    R_DEPTH,
    R_ENTER,
    R_NODES,
    R_PRUNED,
    R_RNG,
    R_SOLUTIONS,
    R_WRITTEN,
    S_BUDGET,
    S_DONE,
    S_FULL,
    S_RECORDS,
)

# An integer scalar in a kernel: numba compiles Python ints, numpy integers and the elements
# read from arrays (which numpy's stubs type as Any) alike, and the kernels mix them freely, so
# to mypy a scalar is Any; the arrays carry their real dtypes.
Int = Any

@intrinsic
def _popcount(typingctx: Any, x: Any) -> Any:
    """Bits set in a ``uint64`` (one machine instruction)."""
    sig = types.uint64(types.uint64)

    def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
        return builder.ctpop(args[0])

    return sig, codegen


@intrinsic
def _lowest(typingctx: Any, x: Any) -> Any:
    """Index of the lowest set bit of a ``uint64`` (64 for zero)."""
    sig = types.uint64(types.uint64)

    def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
        return builder.cttz(args[0], ir.Constant(ir.IntType(1), 0))

    return sig, codegen


@njit(cache=True)
def _reachable_sizes(
    limit: Int, gcount: npt.NDArray[np.int64], ghi: npt.NDArray[np.int64],
    gastart: npt.NDArray[np.int64], gareas: npt.NDArray[np.int64], fareas: npt.NDArray[np.int64],
    reach: npt.NDArray[np.uint8],
) -> None:
    """``reach[s]``: can ``s`` cells be filled by options still allowed (counters bound)?"""
    for s in range(limit + 1):
        reach[s] = 0
    reach[0] = 1
    for g in range(gcount.shape[0]):
        room = ghi[g] - gcount[g]
        a0 = gastart[g]
        a1 = gastart[g + 1]
        if a1 == a0 or room <= 0:
            continue
        room = min(room, limit // gareas[a0])  # gareas are sorted: a0 is the smallest
        for _ in range(room):
            for s in range(limit, -1, -1):
                if reach[s]:
                    for k in range(a0, a1):
                        t = s + gareas[k]
                        if t <= limit:
                            reach[t] = 1
    for s in range(limit + 1):
        if reach[s]:
            for k in range(fareas.shape[0]):
                t = s + fareas[k]
                if t <= limit:
                    reach[t] = 1


@njit(cache=True, inline="always")
def _write(
    mode: Int, c: Int, topt: npt.NDArray[np.int64], fsel: npt.NDArray[np.int64],
    fitem: npt.NDArray[np.int64], out: npt.NDArray[np.int64], w: Int,
) -> Int:
    """Write the path of ``c`` frames at ``out[w]``: its options, each followed by the item
    its frame branched on in frontier mode; return the new end."""
    if mode == M_FRONTIER:
        out[w] = 2 * c
        for f in range(c):
            out[w + 1 + 2 * f] = topt[fsel[f]]
            out[w + 2 + 2 * f] = fitem[f]
        return w + 2 * c + 1
    out[w] = c
    for f in range(c):
        out[w + 1 + f] = topt[fsel[f]]
    return w + c + 1


@njit(cache=True, inline="always")
def _probe_end(
    c: Int, solved: Int, fopts: npt.NDArray[np.int64], fsel: npt.NDArray[np.int64],
    tgs: npt.NDArray[np.int64], tgl: npt.NDArray[np.int64], gcount: npt.NDArray[np.int64],
    out: npt.NDArray[np.int64], w: Int,
) -> Int:
    """The end of a probe whose path placed ``c`` options: its record at ``out[w]`` (the
    options each frame's item had, then 1 when the leaf is a solution, else 0), the counters
    of the options on the path given back and their frames cleared, so that the next probe
    starts at the root; return the new end."""
    out[w] = c + 1
    for f in range(c):
        s = fsel[f]
        out[w + 1 + f] = fopts[f]
        for q in range(tgs[s], tgs[s + 1]):
            gcount[tgl[q]] -= 1
        fsel[f] = -1
    out[w + 1 + c] = solved
    return w + c + 2


@njit(cache=True)
def _options_left(
    top: Int, fitem: npt.NDArray[np.int64], avail: npt.NDArray[np.uint64],
    clo: npt.NDArray[np.int64], chi: npt.NDArray[np.int64], cofs: npt.NDArray[np.int64],
    cw: npt.NDArray[np.uint64], left: npt.NDArray[np.int64],
) -> None:
    """``left[f]``: the options frame ``f``'s item still has to try, for frames 0..top."""
    for f in range(top + 1):
        i = fitem[f]
        fu = np.uint64(f)
        lo = np.uint64(clo[i])
        ofs = np.uint64(cofs[i])
        n = np.int64(0)
        for k in range(np.uint64(chi[i] - clo[i])):
            n += np.int64(_popcount(avail[fu, lo + k] & cw[ofs + k]))
        left[f] = n


@njit(cache=True, nogil=True)  # released: a split run searches on a thread too
def search(
    m: Int, rank: npt.NDArray[np.int64], topt: npt.NDArray[np.int64], tgs: npt.NDArray[np.int64],
    tgl: npt.NDArray[np.int64], tarea: npt.NDArray[np.int64], ecstart: npt.NDArray[np.int64],
    ecells: npt.NDArray[np.int64], emask: npt.NDArray[np.uint64], conflicts: npt.NDArray[np.uint64],
    clo: npt.NDArray[np.int64], chi: npt.NDArray[np.int64], cofs: npt.NDArray[np.int64],
    cw: npt.NDArray[np.uint64], adjs: npt.NDArray[np.int64], adjv: npt.NDArray[np.int64],
    glo: npt.NDArray[np.int64], ghi: npt.NDArray[np.int64], prune: Int, prune_from: Int,
    uniform: Int, free_copies: Int, gastart: npt.NDArray[np.int64], gareas: npt.NDArray[np.int64],
    fareas: npt.NDArray[np.int64], avail: npt.NDArray[np.uint64], board: npt.NDArray[np.uint64],
    fempty: npt.NDArray[np.int64], fitem: npt.NDArray[np.int64], fsel: npt.NDArray[np.int64],
    fopts: npt.NDArray[np.int64], gcount: npt.NDArray[np.int64], regs: npt.NDArray[np.int64],
    vis: npt.NDArray[np.uint64], queue: npt.NDArray[np.uint64], lab: npt.NDArray[np.uint64],
    par: npt.NDArray[np.uint64], csize: npt.NDArray[np.int64], pend: npt.NDArray[np.int64],
    reach: npt.NDArray[np.uint8], mode: Int, depth_limit: Int, max_records: Int, max_nodes: Int,
    out: npt.NDArray[np.int64],
) -> Int:
    """Advance the search from the state in the arrays; return a status ``S_*``.

    Frame ``d`` owns ``avail[d]`` (options still allowed), ``board[d]`` (covered cells) and
    ``fempty[d]``; ``fitem[d]`` is the item it branches on and ``fsel[d]`` the option its
    current branch placed (-1: none). Taking a branch clears the option from ``avail[d]``,
    so later branches exclude it and every solution is reached once. At the top of the loop
    the arrays describe a node.
    """
    W = board.shape[1]
    NW = avail.shape[1]
    G = gcount.shape[0]
    has_conflicts = conflicts.shape[0] > 0
    d = regs[R_DEPTH]
    enter = regs[R_ENTER]
    nodes = regs[R_NODES]
    solutions = regs[R_SOLUTIONS]
    pruned = regs[R_PRUNED]
    rng = np.uint64(regs[R_RNG])
    node_stop = nodes + max_nodes
    w_out = 0
    records = 0
    out_cap = out.shape[0]
    status = S_DONE
    ended = -1  # M_PROBE: the options placed by a probe just ended
    solved = 0
    while d >= 0:
        if mode == M_PROBE and ended >= 0:  # its record, then the root again
            w_out = _probe_end(ended, solved, fopts, fsel, tgs, tgl, gcount, out, w_out)
            ended = -1
            d = 0
            enter = 1
            records += 1
            if records >= max_records:
                status = S_RECORDS
                break
        if mode != M_COUNT and w_out + 2 * d + 5 > out_cap:
            status = S_FULL
            break
        if enter:
            enter = 0
            # The item with the fewest options left: cells, then counters. Ties go to the
            # first in the fill order, or in the problem's order (``rank``) when listing
            # solutions, so that they come in the reference engine's order.
            # (Unsigned indices spare numba's negative-index checks, so the counting
            # loops compile to straight AND/POPCNT runs.)
            du = np.uint64(d)
            best = np.int64(1) << 62
            bi: Int = -1
            bopts = np.int64(0)  # the options of the item chosen
            for w in range(W):
                free = ~board[d, w]
                while free and best > 0:
                    x: Int = w * 64 + np.int64(_lowest(free))
                    if x >= m:
                        break
                    free &= free - np.uint64(1)
                    lo = np.uint64(clo[x])
                    ofs = np.uint64(cofs[x])
                    cnt = np.uint64(0)
                    for k in range(np.uint64(chi[x] - clo[x])):
                        cnt += _popcount(avail[du, lo + k] & cw[ofs + k])
                    tie = np.int64(cnt) == best and mode == M_SOLUTIONS and rank[x] < rank[bi]
                    if np.int64(cnt) < best or tie:
                        best = np.int64(cnt)
                        bi = x
                        bopts = best
            # A counter that needs r more of its s options has s - r + 1 branches (after
            # s - r of them are ruled out the rest must all be taken), and none if s < r.
            # One that needs a single option is only worth counting while no cell is forced.
            for g in range(G):
                need = glo[g] - gcount[g]
                if need > 1 or (need == 1 and best > 1):
                    x = m + g
                    lo = np.uint64(clo[x])
                    ofs = np.uint64(cofs[x])
                    cnt = np.uint64(0)
                    for k in range(np.uint64(chi[x] - clo[x])):
                        cnt += _popcount(avail[du, lo + k] & cw[ofs + k])
                    branches = max(np.int64(cnt) - need + 1, 0)
                    if branches < best:
                        best = branches
                        bi = x
                        bopts = np.int64(cnt)
                        if best == 0:
                            break
            if best == 0:
                if mode == M_PROBE:  # a dead end: the probe ends here
                    ended = d
                    solved = 0
                    continue
                d -= 1
                continue
            fitem[d] = bi
            fopts[d] = bopts
            fsel[d] = -1
        s = fsel[d]
        if s >= 0:  # back from the branch that placed s
            for q in range(tgs[s], tgs[s + 1]):
                gcount[tgl[q]] -= 1
            fsel[d] = -1
        # The next branch: when listing solutions, the item's available option that comes
        # first in the problem's own order (as in the reference engine, so the first
        # solution is found alike); when counting or splitting, where the order does not
        # matter, simply the lowest numbered one.
        i = fitem[d]
        du = np.uint64(d)
        lo = np.uint64(clo[i])
        ofs = np.uint64(cofs[i])
        e: Int = -1
        first = np.int64(1) << 62
        span = np.uint64(chi[i] - clo[i])
        if mode == M_PROBE:  # one of the item's options, uniformly at random
            rng, pick = _draw(rng, fopts[d])
            for k in range(span):
                bits = avail[du, lo + k] & cw[ofs + k]
                n = np.int64(_popcount(bits))
                if pick >= n:
                    pick -= n
                    continue
                while pick > 0:
                    bits &= bits - np.uint64(1)
                    pick -= 1
                e = np.int64((lo + k) * np.uint64(64) + _lowest(bits))
                break
        else:
            for k in range(span):
                bits = avail[du, lo + k] & cw[ofs + k]
                while bits:
                    cand = np.int64((lo + k) * np.uint64(64) + _lowest(bits))
                    bits &= bits - np.uint64(1)
                    if mode != M_SOLUTIONS:
                        e = cand
                        break
                    if topt[cand] < first:
                        first = topt[cand]
                        e = cand
                if e >= 0 and mode != M_SOLUTIONS:
                    break
        if e < 0:
            d -= 1
            continue
        if mode != M_PROBE:  # a probe takes one branch: its frame is the root's next time
            avail[d, e >> 6] &= ~(np.uint64(1) << np.uint64(e & 63))
        # place option e: the child's frame starts from this one's, less what e rules out
        fsel[d] = e
        nodes += 1
        c = d + 1
        du = np.uint64(d)
        cu = np.uint64(c)
        if has_conflicts:  # one pass: e's precomputed row of clashing options
            eu = np.uint64(e)
            for k in range(np.uint64(NW)):
                avail[cu, k] = avail[du, k] & ~conflicts[eu, k]
        else:
            for k in range(np.uint64(NW)):
                avail[cu, k] = avail[du, k]
            for t in range(ecstart[e], ecstart[e + 1]):
                x = ecells[t]
                lo = np.uint64(clo[x])
                ofs = np.uint64(cofs[x])
                for k in range(np.uint64(chi[x] - clo[x])):
                    avail[cu, lo + k] &= ~cw[ofs + k]
        for q in range(tgs[e], tgs[e + 1]):
            g = tgl[q]
            gcount[g] += 1
            if gcount[g] >= ghi[g] and (ghi[g] > 1 or not has_conflicts):  # full
                x = m + g
                lo = np.uint64(clo[x])
                ofs = np.uint64(cofs[x])
                for k in range(np.uint64(chi[x] - clo[x])):
                    avail[cu, lo + k] &= ~cw[ofs + k]
        for w in range(W):
            board[c, w] = board[d, w] | emask[e, w]
        fempty[c] = fempty[d] - tarea[e]
        if fempty[c] == 0:
            complete = True
            for h in range(G):
                if gcount[h] < glo[h]:
                    complete = False
                    break
            if complete:
                solutions += 1
                if mode != M_COUNT and mode != M_PROBE:  # a solution is a record
                    w_out = _write(mode, c, topt, fsel, fitem, out, w_out)
                    records += 1
                    if records >= max_records:
                        status = S_RECORDS
                        break
            if mode == M_PROBE:  # a leaf: the probe ends here
                ended = c
                solved = 1 if complete else 0
            continue
        if prune & PRUNE_REGIONS and fempty[c] >= prune_from:
            # Measure each empty region next to e by a flood fill; one whose size is not a
            # sum of the sizes of options still allowed cannot be filled. (Written inline:
            # a call that passes arrays costs more than a small flood.)
            copies = free_copies  # how many more options fit at most (uniform areas only)
            if uniform > 0 and copies < 0:
                copies = 0
                for h in range(G):
                    if gastart[h + 1] > gastart[h]:
                        copies += ghi[h] - gcount[h]
            # Flood the empty cells from all the empty neighbours of e at once (one queue,
            # breadth first, each seed's region labelled and merged with union-find when
            # two meet). A region with nothing left to grow is closed: its size is checked.
            # Once only one region is still growing it is the rest of the old region, whose
            # size is right whenever the closed ones are (sizes were right before e), so the
            # flood stops: a small closed region costs about its own size, not the board's.
            one = np.uint64(1)
            six = np.uint64(6)
            low = np.uint64(63)
            for w in range(W):
                vis[w] = board[c, w]  # cells seen (covered ones count as seen)
            tail = np.uint64(0)
            for t in range(ecstart[e], ecstart[e + 1]):
                x = np.uint64(ecells[t])
                for a in range(np.uint64(adjs[x]), np.uint64(adjs[x + one])):
                    y = np.uint64(adjv[a])
                    bit = one << (y & low)
                    if not vis[y >> six] & bit:
                        vis[y >> six] |= bit
                        lab[y] = tail
                        par[tail] = tail
                        csize[tail] = 1
                        pend[tail] = 1
                        queue[tail] = y
                        tail += one
            growing = np.int64(tail)
            head = np.uint64(0)
            reach_ready = False
            dead = False
            while head < tail and growing > 1 and not dead:
                z = queue[head]
                head += one
                r = lab[z]
                while par[r] != r:
                    r = par[r]
                pend[r] -= 1
                for b in range(np.uint64(adjs[z]), np.uint64(adjs[z + one])):
                    u = np.uint64(adjv[b])
                    bit = one << (u & low)
                    if not vis[u >> six] & bit:
                        vis[u >> six] |= bit
                        lab[u] = r
                        csize[r] += 1
                        pend[r] += 1
                        queue[tail] = u
                        tail += one
                    elif not board[c, u >> six] & bit:  # an empty cell reached before
                        q = lab[u]
                        while par[q] != q:
                            q = par[q]
                        if q != r:  # two regions meet: they are one
                            par[q] = r
                            csize[r] += csize[q]
                            pend[r] += pend[q]
                            growing -= 1
                if pend[r] == 0:  # nothing left to grow: a closed region
                    growing -= 1
                    area = csize[r]
                    if uniform > 0:
                        dead = area % uniform != 0 or area // uniform > copies
                    else:
                        if not reach_ready:
                            _reachable_sizes(fempty[c], gcount, ghi, gastart, gareas, fareas,
                                             reach)  # fmt: skip
                            reach_ready = True
                        dead = reach[area] == 0
            if dead:
                pruned += 1
                if mode == M_PROBE:  # a region no option can fill: the probe ends
                    ended = c
                    solved = 0
                continue
        if mode == M_FRONTIER and c >= depth_limit:
            w_out = _write(mode, c, topt, fsel, fitem, out, w_out)
            records += 1
            continue
        d = c
        enter = 1
        if nodes >= node_stop:
            status = S_BUDGET
            break
    regs[R_DEPTH] = d
    regs[R_ENTER] = enter
    regs[R_NODES] = nodes
    regs[R_SOLUTIONS] = solutions
    regs[R_PRUNED] = pruned
    regs[R_WRITTEN] = w_out
    regs[R_RNG] = np.int64(rng)
    return status


