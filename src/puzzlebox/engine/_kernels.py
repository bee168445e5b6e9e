"""Numba kernels of the compiled engine: exact cover with bounds and colours on bitsets.

Everything here works on flat arrays and keeps no Python objects, so the whole search compiles
to one native loop. The layout (see :mod:`puzzlebox.engine.compiled` for the why):

* the state of a node is one bitset over the *options*, bit ``o`` set while option ``o`` is
  still available: ``nw`` words, one copy per level of the tree (``W``). A branch copies its
  parent's words and works on the copy, so backtracking has nothing to undo;
* hiding one option clears one bit; closing an item hides every option that has it (or, for
  a secondary item taken with a colour, every option that gives it another colour or none):
  one ``&= ~mask`` per word of a *mask* that never changes;
* masks are sparse, in CSR form: mask ``k`` is the words ``mword[mstart[k] : mstart[k + 1]]``
  (in increasing order) with the bits ``mbits[...]`` to clear there. Mask ``j < n_items`` is
  every option of item ``j``; the masks after those are the colour masks of secondary
  items, and ``pmask[m]`` says which mask closes the item of node ``m`` when its option is
  taken;
* the options of item ``j`` still available are ``W & mask j``: counting them is a popcount
  per word of the mask, and listing them reads the option numbers straight off the bits;
* ``act`` lists the items not yet *done*: primary items in ``act[:pact]``, secondary items in
  ``act[n_primary : n_primary + sact]`` (a sparse set, ``apos`` the inverse), so undoing a
  branch is resetting two counts;
* ``need[j] = lo[j] - count`` and ``room[j] = hi[j] - count`` for primary items;
* the options an item branched on go on the ``blist`` stack, which is also where the options a
  path leaves out are read from.

Indices are unsigned on purpose: numba checks a signed index for wraparound at every access,
which in these loops would cost more than the work itself.

The search keeps an explicit stack of frames (``frames[level, F_*]``) and a small register file
(``regs[R_*]``), so :func:`search` can stop after a node budget or a number of solutions and be
called again later with the same arrays to carry on exactly where it stopped.

The same loop walks the tree for Knuth's estimate (mode ``M_PROBE``, read by
:mod:`puzzlebox.engine.estimate`): at each node it chooses the item as the search does, draws
one of the node's branches and sets the frame so that the search's own next step takes it;
below a given depth it searches the subtree in full; then it puts the root back as it was
and starts the next probe. So the estimate is of this tree by construction, and the counting
loop pays one test of the mode per node for it.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt
from llvmlite import ir
from numba import types

from puzzlebox.engine._jit import intrinsic, njit

# The registers, phases, frame fields, kinds, modes and statuses, and the two sentinels: in
# engine/cover_kernels.py, which imports no numba, so that the callers and the C port
# (engine/_ckernels.c) share them without loading this module.
from puzzlebox.engine.cover_kernels import (
    F_BL,
    F_CHOSEN,
    F_DEG,
    F_ITEM,
    F_KIND,
    F_L0,
    F_NOMORE,
    F_PACT,
    F_SACT,
    F_T,
    K_COVER,
    K_KEEP,
    M_COUNT,
    M_FRONTIER,
    M_PROBE,
    N_FIELDS,  # noqa: F401 (bench/kernel_ab.py reads it here)
    N_REGS,  # noqa: F401 (bench/kernel_ab.py reads it here)
    NO_BRANCHES,
    NO_ITEM,
    P_DONE,
    P_ENTER,
    P_NEXT,
    P_RETURN,
    R_LEVEL,
    R_NODES,
    R_PACT,
    R_PHASE,
    R_RNG,
    R_SACT,
    R_SEED,
    R_SOLUTIONS,
    R_SUB0,
    R_SUBSOL,
    S_BUDGET,
    S_DONE,
    S_FULL,
    S_GROW,
    S_SOLUTIONS,
)

# An integer scalar in a kernel: numba compiles Python ints, numpy integers and the elements
# read from arrays (which numpy's stubs type as Any) alike, and the kernels mix them freely, so
# to mypy a scalar is Any; the arrays carry their real dtypes.
Int = Any

Z64 = np.uint64(0)
ONE64 = np.uint64(1)
U1 = np.uint32(1)
U6 = np.uint32(6)
U63 = np.uint32(63)


# SplitMix64 (Steele, Lea and Flood 2014): the probes' random numbers, kept in one register
_GOLDEN = np.uint64(0x9E3779B97F4A7C15)
_MIX1 = np.uint64(0xBF58476D1CE4E5B9)
_MIX2 = np.uint64(0x94D049BB133111EB)
U27 = np.uint64(27)
U30 = np.uint64(30)
U31 = np.uint64(31)
U32 = np.uint64(32)


@intrinsic
def _popcount(typingctx: Any, x: Any) -> Any:
    """Set bits of a uint64 (LLVM ctpop: one instruction)."""
    if x != types.uint64:
        return None

    def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
        return builder.ctpop(args[0])

    return types.uint64(types.uint64), codegen


@intrinsic
def _lowest_bit(typingctx: Any, x: Any) -> Any:
    """Index of the lowest set bit of a nonzero uint64 (LLVM cttz)."""
    if x != types.uint64:
        return None

    def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
        return builder.cttz(args[0], ir.Constant(ir.IntType(1), 1))

    return types.uint64(types.uint64), codegen


@intrinsic
def _highest_bit(typingctx: Any, x: Any) -> Any:
    """Index of the highest set bit of a nonzero uint64 (63 - LLVM ctlz)."""
    if x != types.uint64:
        return None

    def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
        zeros = builder.ctlz(args[0], ir.Constant(ir.IntType(1), 1))
        return builder.sub(ir.Constant(ir.IntType(64), 63), zeros)

    return types.uint64(types.uint64), codegen


@njit(cache=True)
def _mix(z: Int) -> Int:
    """SplitMix64's finaliser: a well-spread uint64 from any uint64."""
    z = (z ^ (z >> U30)) * _MIX1
    z = (z ^ (z >> U27)) * _MIX2
    return z ^ (z >> U31)


@njit(cache=True)
def _draw(rng: Int, n: Int) -> tuple[Int, Int]:
    """The next state of a SplitMix64 stream and a number in ``0 .. n - 1`` drawn from it."""
    rng += _GOLDEN
    return rng, np.int64(((_mix(rng) >> U32) * np.uint64(n)) >> U32)


@njit(cache=True, inline="always")
def _hide(o: Int, W: npt.NDArray[np.uint64], base: Int) -> None:
    """Make option ``o`` unavailable: one bit."""
    W[base + (o >> U6)] &= ~(ONE64 << (o & U63))


@njit(cache=True, inline="always")
def _purge(
    k: Int, mstart: npt.NDArray[np.uint32], mword: npt.NDArray[np.uint32],
    mbits: npt.NDArray[np.uint64], W: npt.NDArray[np.uint64], base: Int,
) -> None:
    """Hide every option of mask ``k``: one ``&= ~`` per word of the mask."""
    for t in range(mstart[k], mstart[k + U1]):
        W[base + mword[t]] &= ~mbits[t]


@njit(cache=True, inline="always")
def _size(
    j: Int, mstart: npt.NDArray[np.uint32], mword: npt.NDArray[np.uint32],
    mbits: npt.NDArray[np.uint64], W: npt.NDArray[np.uint64], base: Int,
) -> Int:
    """How many options item ``j`` has left."""
    n = Z64
    for t in range(mstart[j], mstart[j + U1]):
        n += _popcount(W[base + mword[t]] & mbits[t])
    return n


@njit(cache=True, inline="always")
def _deactivate(
    j: Int, n_primary: Int, done: npt.NDArray[np.uint8], act: npt.NDArray[np.uint32],
    apos: npt.NDArray[np.uint32], pact: Int, sact: Int,
) -> tuple[Int, Int]:
    """Mark item ``j`` done (it is not chosen again); returns ``(pact, sact)``."""
    done[j] = 1
    if j < n_primary:
        pact -= 1
        k = pact
    else:
        sact -= 1
        k = n_primary + sact
    a = apos[j]
    last = act[k]
    act[a] = last
    apos[last] = a
    act[k] = j
    apos[j] = k
    return pact, sact


@njit(cache=True, inline="always")
def _reactivate(
    n_primary: Int, act: npt.NDArray[np.uint32], done: npt.NDArray[np.uint8], pact: Int, sact: Int,
    old_pact: Int, old_sact: Int,
) -> None:
    """Undo the deactivations since ``pact, sact`` were ``old_pact, old_sact``."""
    for k in range(pact, old_pact):
        done[act[k]] = 0
    for k in range(n_primary + sact, n_primary + old_sact):
        done[act[k]] = 0


@njit(cache=True)
def _include(
    o: Int, hide_it: bool, n_primary: Int, ostart: npt.NDArray[np.uint32],
    items: npt.NDArray[np.uint32], pmask: npt.NDArray[np.uint32], mstart: npt.NDArray[np.uint32],
    mword: npt.NDArray[np.uint32], mbits: npt.NDArray[np.uint64], W: npt.NDArray[np.uint64],
    base: Int, done: npt.NDArray[np.uint8], need: npt.NDArray[np.int32],
    room: npt.NDArray[np.int32], act: npt.NDArray[np.uint32], apos: npt.NDArray[np.uint32],
    pact: Int, sact: Int,
) -> tuple[Int, Int]:
    """Put option ``o`` into the partial solution and commit each of its items.

    ``hide_it`` is False when ``o`` is hidden already (it was an option of the item covered
    by the frame). Its full primary items and its secondary items are closed: their masks
    hide the options that clash. Returns ``(pact, sact)``.
    """
    if hide_it:
        _hide(o, W, base)
    a = ostart[o]
    b = ostart[o + U1]
    for m in range(a, b):
        j = items[m]
        if j < n_primary:
            need[j] -= 1
            room[j] -= 1
    for m in range(a, b):
        j = items[m]
        if done[j] == 0 and (j >= n_primary or room[j] == 0):
            pact, sact = _deactivate(j, n_primary, done, act, apos, pact, sact)
            _purge(pmask[m], mstart, mword, mbits, W, base)
    return pact, sact


@njit(cache=True, inline="always")
def _uncount(
    o: Int, n_primary: Int, ostart: npt.NDArray[np.uint32], items: npt.NDArray[np.uint32],
    need: npt.NDArray[np.int32], room: npt.NDArray[np.int32],
) -> None:
    for m in range(ostart[o], ostart[o + U1]):
        j = items[m]
        if j < n_primary:
            need[j] += 1
            room[j] += 1


@njit(cache=True, inline="always")
def _copy_level(W: npt.NDArray[np.uint64], src: Int, dst: Int, nw: Int) -> None:
    for k in range(nw):
        W[dst + k] = W[src + k]


@njit(cache=True, nogil=True)  # released: a split run searches on a thread too
def setup(
    n_primary: Int, ostart: npt.NDArray[np.uint32], items: npt.NDArray[np.uint32],
    pmask: npt.NDArray[np.uint32], mstart: npt.NDArray[np.uint32], mword: npt.NDArray[np.uint32],
    mbits: npt.NDArray[np.uint64], W: npt.NDArray[np.uint64], done: npt.NDArray[np.uint8],
    need: npt.NDArray[np.int32], room: npt.NDArray[np.int32], act: npt.NDArray[np.uint32],
    apos: npt.NDArray[np.uint32], regs: npt.NDArray[np.int64], excluded: npt.NDArray[np.int32],
    forced: npt.NDArray[np.int32],
) -> Int:
    """Put the fresh state in its starting position: ``excluded`` hidden, ``forced`` included.

    Items whose upper bound is 0 are closed. Returns False when the forced options cannot all
    be chosen together (the subproblem has no solution).
    """
    base = Z64
    pact = np.int64(n_primary)
    sact = np.int64(done.shape[0]) - pact
    for k in range(excluded.shape[0]):
        _hide(np.uint32(excluded[k]), W, base)
    for j in range(n_primary):
        if room[j] == 0 and done[j] == 0:
            pact, sact = _deactivate(np.uint32(j), n_primary, done, act, apos, pact, sact)
            _purge(np.uint32(j), mstart, mword, mbits, W, base)
    ok = True
    for k in range(forced.shape[0]):
        o = np.uint32(forced[k])
        # An option is available while its bit is set: closing any of its items, or taking a
        # secondary item of it with another colour, clears it.
        if (W[o >> U6] >> (o & U63)) & ONE64 == Z64:
            ok = False
            break
        pact, sact = _include(o, True, n_primary, ostart, items, pmask, mstart, mword, mbits,
                              W, base, done, need, room, act, apos, pact, sact)
    regs[R_LEVEL] = 0
    regs[R_PHASE] = P_ENTER if ok else P_DONE
    regs[R_PACT] = pact
    regs[R_SACT] = sact
    regs[R_NODES] = 0
    regs[R_SOLUTIONS] = 0
    return ok


@njit(cache=True)
def _excluded_range(frames: npt.NDArray[np.int64], f: Int) -> tuple[Int, Int]:
    """The options frame ``f``'s current branch leaves out, as a range of ``blist``."""
    base = frames[f, F_BL]
    if frames[f, F_KIND] == K_COVER:
        # taking one option fills the item, so the others are out anyway
        return base, base + (frames[f, F_L0] if frames[f, F_CHOSEN] < 0 else 0)
    return base, base + frames[f, F_T]


@njit(cache=True)
def _record_length(mode: Int, level: Int, frames: npt.NDArray[np.int64]) -> Int:
    """How many ints the record of the node at depth ``level`` takes in ``out``."""
    n = 1
    for f in range(level):
        if frames[f, F_CHOSEN] >= 0:
            n += 1
    if mode == M_FRONTIER:
        n += 1
        for f in range(level):
            a, b = _excluded_range(frames, f)
            n += b - a
    return n


@njit(cache=True)
def _write_record(
    mode: Int, level: Int, frames: npt.NDArray[np.int64], blist: npt.NDArray[np.int64],
    out: npt.NDArray[np.int64], w: Int,
) -> Int:
    """Write the chosen options of the path (and, in frontier mode, the excluded ones)."""
    h = w
    w += 1
    for f in range(level):
        o = frames[f, F_CHOSEN]
        if o >= 0:
            out[w] = o
            w += 1
    out[h] = w - h - 1
    if mode == M_FRONTIER:
        h = w
        w += 1
        for f in range(level):
            a, b = _excluded_range(frames, f)
            for k in range(a, b):
                out[w] = blist[k]
                w += 1
        out[h] = w - h - 1
    return w


@njit(cache=True)
def _probe_branch(
    f: Int, i: Int, pick: Int, mstart: npt.NDArray[np.uint32], mword: npt.NDArray[np.uint32],
    mbits: npt.NDArray[np.uint64], W: npt.NDArray[np.uint64], base: Int,
    blist: npt.NDArray[np.int64], frames: npt.NDArray[np.int64],
) -> None:
    """Set frame ``f`` (just pushed, on item ``i``) so that P_NEXT takes its branch ``pick``.

    The branches are the ones the search takes in turn, so a node's degree is the ``best``
    of the item choice: a covered item (room 1) has one branch per option it had, plus "no
    more" when it is satisfied; an item with room more has ``s - r + 1`` (each taking the
    highest option left and leaving it out of the later ones) or, satisfied, ``s + 1`` (the
    last one "no more"). Branch ``pick`` of a covered item is its ``pick``-th option on
    ``blist`` (or "no more" after them); of an item with room, it is what is left after the
    ``pick`` highest options are left out, as the search leaves them out after their turns.
    """
    if frames[f, F_KIND] == K_COVER:
        frames[f, F_T] = pick
        return
    b = frames[f, F_BL]
    for q in range(pick):
        u = mstart[i + U1] - U1
        while (W[base + mword[u]] & mbits[u]) == Z64:
            u -= U1
        x = W[base + mword[u]] & mbits[u]
        o = np.int64(mword[u]) * 64 + np.int64(_highest_bit(x))
        blist[b + q] = o
        _hide(np.uint32(o), W, base)
    frames[f, F_T] = pick


@njit(cache=True)
def _probe_record(
    out: npt.NDArray[np.int64], w: Int, frames: npt.NDArray[np.int64], level: Int, sub_nodes: Int,
    sub_solutions: Int,
) -> Int:
    """Write a probe's record at ``out[w]``: the degrees of frames ``0 .. level - 1``, then
    the nodes and solutions of the subtree where it stopped. Returns the new end, or -1
    when ``out`` cannot hold it."""
    if w + level + 3 > out.shape[0]:
        return -1
    out[w] = level + 2
    for f in range(level):
        out[w + 1 + f] = frames[f, F_DEG]
    out[w + 1 + level] = sub_nodes
    out[w + 2 + level] = sub_solutions
    return w + level + 3


@njit(cache=True)
def _restore_root(
    level: Int, n_primary: Int, ostart: npt.NDArray[np.uint32], items: npt.NDArray[np.uint32],
    W: npt.NDArray[np.uint64], done: npt.NDArray[np.uint8], need: npt.NDArray[np.int32],
    room: npt.NDArray[np.int32], act: npt.NDArray[np.uint32], blist: npt.NDArray[np.int64],
    frames: npt.NDArray[np.int64], pact: Int, sact: Int,
) -> tuple[Int, Int]:
    """Undo a probe that took the branches of frames ``0 .. level - 1``: the root as it was.

    Each level below the root has its own copy of the words, so only the root's words need
    mending (its frame, which exists, hid the options it put on ``blist``); the counts of the
    options taken are given back and the items closed since the root are reopened. Returns
    ``(pact, sact)``.
    """
    for f in range(level):
        o = frames[f, F_CHOSEN]
        if o >= 0:
            _uncount(np.uint32(o), n_primary, ostart, items, need, room)
    cover = frames[0, F_KIND] == K_COVER
    # a covered root item was closed when its frame was pushed, before F_PACT was taken
    root_pact = frames[0, F_PACT] + (1 if cover else 0)
    root_sact = frames[0, F_SACT]
    _reactivate(n_primary, act, done, pact, sact, root_pact, root_sact)
    b = frames[0, F_BL]
    for k in range(b, b + (frames[0, F_L0] if cover else frames[0, F_T])):
        o = np.uint32(blist[k])
        W[o >> U6] |= ONE64 << (o & U63)
    return root_pact, root_sact


@njit(cache=True, nogil=True)  # released: a split run searches on a thread too
def search(
    n_primary: Int, ostart: npt.NDArray[np.uint32], items: npt.NDArray[np.uint32],
    pmask: npt.NDArray[np.uint32], mstart: npt.NDArray[np.uint32], mword: npt.NDArray[np.uint32],
    mbits: npt.NDArray[np.uint64], W: npt.NDArray[np.uint64], nw: Int, done: npt.NDArray[np.uint8],
    need: npt.NDArray[np.int32], room: npt.NDArray[np.int32], act: npt.NDArray[np.uint32],
    apos: npt.NDArray[np.uint32], blist: npt.NDArray[np.int64], frames: npt.NDArray[np.int64],
    regs: npt.NDArray[np.int64], mode: Int, depth: Int, max_records: Int, max_nodes: Int,
    out: npt.NDArray[np.int64],
) -> tuple[Int, Int]:
    """Run the search from the state in the arrays until it finishes or must stop.

    Stops after ``max_records`` solutions (or frontier records, or probes), after entering
    ``max_nodes`` nodes, when ``out`` cannot hold the next record, or when ``W`` has no room
    for one more level. ``depth``: where frontier mode cuts the tree, and below which probe
    mode searches subtrees in full (a depth beyond the tree: plain probes, to a leaf).
    Returns ``(status, ints written to out)``.
    """
    nw = np.uint64(nw)
    level = regs[R_LEVEL]
    phase = regs[R_PHASE]
    pact = regs[R_PACT]
    sact = regs[R_SACT]
    nodes = regs[R_NODES]
    found = regs[R_SOLUTIONS]
    node_stop = nodes + max_nodes
    found_stop = found + max_records
    seed = _mix(np.uint64(regs[R_SEED]))
    rng = np.uint64(regs[R_RNG])
    sub0 = regs[R_SUB0]
    subsol = regs[R_SUBSOL]
    w = 0
    status = S_DONE
    while True:
        if phase == P_ENTER:
            if nodes >= node_stop:
                status = S_BUDGET
                break
            nodes += 1
            base = np.uint64(level) * nw
            # choose the item with the fewest branches (minimum remaining values), the
            # smallest number of a tie: the least key (branches << 32 | item). Each count is
            # made in full and kept by a select, not a jump: cutting a count short costs
            # more in mispredicted jumps than it saves.
            key = NO_ITEM
            for k in range(pact):
                j = act[k]
                r: Int = np.int64(need[j])  # Int: compared with Python ints below
                sz = np.int64(0)
                for t in range(mstart[j], mstart[j + U1]):
                    sz += np.int64(_popcount(W[base + mword[t]] & mbits[t]))
                # r > 0: choose r of sz; else each option or none, and no branch at all for
                # an item satisfied with nothing left to add
                th = sz - r + 1 if r > 0 else (sz + 1 if sz > 0 else NO_BRANCHES)
                kj = (th << 32) | np.int64(j)
                key = min(key, kj)
                if th <= 0:
                    if k > 0:
                        # an item short of options is likely short again in the next
                        # sibling: move it to the front, where the next scan starts
                        first = act[0]
                        act[0] = j
                        apos[j] = 0
                        act[k] = first
                        apos[first] = k
                    break
            if key == NO_ITEM:
                bi = np.int64(-1)
                best = NO_BRANCHES
            else:
                bi = key & np.int64(0xFFFFFFFF)
                best = key >> 32
            if bi >= 0 and best <= 0 and (mode != M_PROBE or level > depth):
                phase = P_RETURN  # an item that needs more cover has too few options
                continue
            # a solution (every lower bound met, no option left), a subproblem to hand out, or
            # the leaf (a solution or a dead end) that ends a probe
            if bi < 0 or best <= 0 or (mode == M_FRONTIER and level == depth):
                if mode == M_PROBE:
                    if level > depth:  # a solution in the subtree searched in full
                        subsol += 1
                        phase = P_RETURN
                        continue
                    # the leaf's subtree: itself, a solution or not
                    w2 = _probe_record(out, w, frames, level, 1, 1 if bi < 0 else 0)
                    if w2 < 0:
                        nodes -= 1
                        status = S_FULL
                        break
                    w = w2
                    found += 1
                    if level > 0:
                        pact, sact = _restore_root(level, n_primary, ostart, items, W, done,
                                                   need, room, act, blist, frames, pact, sact)
                        level = 0
                    phase = P_ENTER
                    if found >= found_stop:
                        status = S_SOLUTIONS
                        break
                    continue
                if mode != M_COUNT:
                    need_w = _record_length(mode, level, frames)
                    if w + need_w > out.shape[0]:
                        nodes -= 1
                        status = S_FULL
                        break
                    w = _write_record(mode, level, frames, blist, out, w)
                found += 1
                phase = P_RETURN
                if found >= found_stop:
                    status = S_SOLUTIONS
                    break
                continue
            f = level
            level += 1
            i = np.uint32(bi)
            frames[f, F_ITEM] = bi
            frames[f, F_T] = 0
            if f == 0:
                frames[f, F_BL] = 0
            else:
                g = f - 1
                used = frames[g, F_L0] if frames[g, F_KIND] == K_COVER else frames[g, F_T] + 1
                frames[f, F_BL] = frames[g, F_BL] + used
            if room[i] == 1:
                # record the item's options, then cover it: they leave the bitset
                frames[f, F_KIND] = K_COVER
                frames[f, F_NOMORE] = 1 if need[i] <= 0 else 0
                b = frames[f, F_BL]
                for t in range(mstart[i], mstart[i + U1]):
                    x = W[base + mword[t]] & mbits[t]
                    k0 = np.int64(mword[t]) * 64
                    while x != Z64:
                        blist[b] = k0 + np.int64(_lowest_bit(x))
                        b += 1
                        x &= x - ONE64
                    W[base + mword[t]] &= ~mbits[t]
                frames[f, F_L0] = b - frames[f, F_BL]
                pact, sact = _deactivate(i, n_primary, done, act, apos, pact, sact)
            else:
                frames[f, F_KIND] = K_KEEP
                frames[f, F_NOMORE] = 0
                frames[f, F_L0] = 0
            if mode == M_PROBE:
                if f < depth:
                    # the node has ``best`` children (see _probe_branch): go down one of them
                    if f == 0:
                        rng = _mix(seed + np.uint64(found) * _GOLDEN)  # probe ``found``'s own
                    rng, pick = _draw(rng, best)
                    frames[f, F_DEG] = best
                    _probe_branch(f, i, pick, mstart, mword, mbits, W, base, blist, frames)
                elif f == depth:
                    sub0 = nodes - 1  # search this node's subtree in full
                    subsol = 0
            phase = P_NEXT
        elif phase == P_NEXT:
            f = level - 1
            base = np.uint64(f) * nw
            i = np.uint32(frames[f, F_ITEM])
            kind = frames[f, F_KIND]
            t = frames[f, F_T]
            branch: Int = -2  # -2: none left, -1: "no more", else the option to include
            if kind == K_COVER:
                if t < frames[f, F_L0]:
                    branch = blist[frames[f, F_BL] + t]
                elif t == frames[f, F_L0] and frames[f, F_NOMORE] == 1:
                    branch = -1
            else:
                r = np.int64(need[i])
                if np.int64(_size(i, mstart, mword, mbits, W, base)) >= max(r, 1):
                    # the available option with the highest number
                    u = mstart[i + U1] - U1
                    while (W[base + mword[u]] & mbits[u]) == Z64:
                        u -= U1
                    x = W[base + mword[u]] & mbits[u]
                    branch = np.int64(mword[u]) * 64 + np.int64(_highest_bit(x))
                    blist[frames[f, F_BL] + t] = branch
                elif r <= 0 and frames[f, F_NOMORE] == 0:
                    branch = -1
            if branch == -2:
                if mode == M_PROBE and f == depth:
                    # the subtree at the probe's depth is searched: the probe is over
                    w2 = _probe_record(out, w, frames, f, nodes - sub0, subsol)
                    if w2 < 0:
                        status = S_FULL
                        break
                    w = w2
                    found += 1
                    pact, sact = _restore_root(f, n_primary, ostart, items, W, done, need,
                                               room, act, blist, frames, pact, sact)
                    level = 0
                    phase = P_ENTER
                    if found >= found_stop:
                        status = S_SOLUTIONS
                        break
                    continue
                level -= 1  # the parent's branch undo covers this frame too
                phase = P_RETURN
                continue
            child = base + nw
            if child + nw > W.shape[0]:
                status = S_GROW
                break
            _copy_level(W, base, child, nw)
            frames[f, F_CHOSEN] = branch
            frames[f, F_PACT] = pact
            frames[f, F_SACT] = sact
            if kind == K_COVER:
                frames[f, F_T] = t + 1
            if branch >= 0:
                # _include, written out: numba would count references to each array it is
                # handed at every call, a dozen atomic operations per node
                o = np.uint32(branch)
                if kind == K_KEEP:
                    _hide(o, W, child)  # a covered item's options are hidden already
                a = ostart[o]
                b = ostart[o + U1]
                for m in range(a, b):
                    j = items[m]
                    if j < n_primary:
                        need[j] -= 1
                        room[j] -= 1
                for m in range(a, b):
                    j = items[m]
                    if done[j] == 0 and (j >= n_primary or room[j] == 0):
                        pact, sact = _deactivate(j, n_primary, done, act, apos, pact, sact)
                        _purge(pmask[m], mstart, mword, mbits, W, child)
            elif kind == K_KEEP:
                frames[f, F_NOMORE] = 1
                pact, sact = _deactivate(i, n_primary, done, act, apos, pact, sact)
                _purge(i, mstart, mword, mbits, W, child)
            phase = P_ENTER
        elif phase == P_RETURN:
            if level == 0:
                phase = P_DONE
                status = S_DONE
                break
            f = level - 1
            old_pact = frames[f, F_PACT]
            old_sact = frames[f, F_SACT]
            _reactivate(n_primary, act, done, pact, sact, old_pact, old_sact)
            pact = old_pact
            sact = old_sact
            o = frames[f, F_CHOSEN]
            if o >= 0:
                _uncount(np.uint32(o), n_primary, ostart, items, need, room)
                if frames[f, F_KIND] == K_KEEP:
                    # later branches of this frame leave o out
                    _hide(np.uint32(o), W, np.uint64(f) * nw)
                    frames[f, F_T] += 1
            phase = P_NEXT
        else:
            status = S_DONE
            break
    regs[R_LEVEL] = level
    regs[R_PHASE] = phase
    regs[R_PACT] = pact
    regs[R_SACT] = sact
    regs[R_NODES] = nodes
    regs[R_SOLUTIONS] = found
    regs[R_RNG] = np.int64(rng)
    regs[R_SUB0] = sub0
    regs[R_SUBSOL] = subsol
    return status, w
