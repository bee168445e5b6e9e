"""The disassembly search's inner step, compiled: from one position, every move and every
separation, in one pass over the pieces (issue #24, item 5).

The Python search (search.py) asks, for each position it meets, which groups can leave for
good and which moves keep the pieces together. Here that is one call:

1. **Blocking matrix in one pass.** The pieces are drawn into a grid of piece numbers over
   their bounding box; each cell of each piece looks along its line, in each direction, to
   the edge of the box, and the first cell of every other piece it meets bounds how far the
   piece can slide past that piece (``free[d, i, j]``: :data:`FREE` when it never meets it).
   A look stops at the piece's own next cell, which looks on from nearer, so each line is
   walked about once per piece.
   This replaces a cache of pair offsets: a pass costs about as much as a few cache look-ups
   made from Python, and needs no memory that grows with the search.
2. **Movement analysis** (after Bill Cutler and BurrTools): the bottleneck closure of that
   matrix gives, for each piece and direction, the least distance at which it drags each
   other piece along; each group so formed can move every distance up to where it would
   outgrow half the pieces, and unions of groups moving the same distance move too.
3. The new positions are returned ready to hash, relative to the first piece again.

It does the same thing, in the same order, as the reference in search.py
(``_Part.reach``, ``separations``, ``moves``, ``shifted``), which runs instead for a part of
more than :data:`MAX_PIECES` pieces (masks are 64-bit here); tests/test_disassembly.py checks
that both give the same moves on the BurrTools examples' assemblies.
"""

from __future__ import annotations

import numpy as np

from puzzlebox.engine._jit import njit

FREE = 1 << 30  # as blocking.FREE: "never blocked"
MAX_PIECES = 62  # a group is a bit mask in an int64


@njit(cache=True)
def _grow(table: np.ndarray, used: int) -> np.ndarray:
    """The table with twice the rows, the first ``used`` kept."""
    bigger = np.empty((2 * table.shape[0], table.shape[1]), dtype=table.dtype)
    bigger[:used] = table[:used]
    return bigger


@njit(cache=True)
def blocking(voxels: np.ndarray, starts: np.ndarray, fronts: np.ndarray, pos: np.ndarray,
             dims: int) -> np.ndarray:
    """``reach[d, i, j]``: the least distance at which sliding piece ``i`` along direction
    ``d`` (``2 * axis`` up, ``2 * axis + 1`` down) drags piece ``j`` along; piece ``k``'s
    cells are ``voxels[starts[k]:starts[k + 1]]`` shifted by ``pos[3k:3k + 3]``; the rows
    (piece, voxel, direction) of ``fronts`` are the cells with no cell of their own piece
    next to them that way (:func:`front_cells`): only they look along their lines."""
    n = starts.shape[0] - 1
    lo = np.full(3, 1 << 40, dtype=np.int64)
    hi = np.full(3, -(1 << 40), dtype=np.int64)
    for k in range(n):
        for v in range(starts[k], starts[k + 1]):
            for a in range(3):
                c = voxels[v, a] + pos[3 * k + a]
                if c < lo[a]:
                    lo[a] = c
                if c > hi[a]:
                    hi[a] = c
    size = hi - lo + 1
    stride = np.array([size[1] * size[2], size[2], 1], dtype=np.int64)
    grid = np.full(size[0] * size[1] * size[2], -1, dtype=np.int32)  # flat, x slowest
    for k in range(n):
        for v in range(starts[k], starts[k + 1]):
            grid[(voxels[v, 0] + pos[3 * k] - lo[0]) * stride[0]
                 + (voxels[v, 1] + pos[3 * k + 1] - lo[1]) * stride[1]
                 + voxels[v, 2] + pos[3 * k + 2] - lo[2]] = k
    reach = np.full((2 * dims, n, n), FREE, dtype=np.int64)
    for d in range(2 * dims):
        for i in range(n):
            reach[d, i, i] = 0
    for f in range(fronts.shape[0]):
        i, v, d = fronts[f, 0], fronts[f, 1], fronts[f, 2]
        axis = d >> 1
        index = 0
        for a in range(3):
            index += (voxels[v, a] + pos[3 * i + a] - lo[a]) * stride[a]
        here = voxels[v, axis] + pos[3 * i + axis] - lo[axis]
        if d & 1:
            step, ahead = -stride[axis], here  # cells left before the edge of the box
        else:
            step, ahead = stride[axis], size[axis] - 1 - here
        for t in range(ahead):
            index += step
            other = grid[index]
            if other == i:
                break  # that cell of mine looks on from nearer
            if other >= 0 and t < reach[d, i, other]:
                reach[d, i, other] = t
    # the bottleneck closure: what i drags, drags on in turn
    for m in range(n):
        for d in range(2 * dims):
            for i in range(n):
                via = reach[d, i, m]
                if via >= FREE:
                    continue
                for j in range(n):
                    step = reach[d, m, j]
                    if step < via:
                        step = via
                    if step < reach[d, i, j]:
                        reach[d, i, j] = step
    return reach


@njit(cache=True)
def front_cells(voxels: np.ndarray, starts: np.ndarray, dims: int) -> np.ndarray:
    """Rows (piece, voxel, direction): the cells of each piece that face out that way.
    Moving does not change them, so a search works them out once per piece."""
    rows = np.empty((voxels.shape[0] * 2 * dims, 3), dtype=np.int64)
    used = 0
    for k in range(starts.shape[0] - 1):
        lo = np.full(3, 1 << 40, dtype=np.int64)
        hi = np.full(3, -(1 << 40), dtype=np.int64)
        for v in range(starts[k], starts[k + 1]):
            for a in range(3):
                lo[a] = min(lo[a], voxels[v, a])
                hi[a] = max(hi[a], voxels[v, a])
        size = hi - lo + 3  # a border of empty cells all round
        grid = np.zeros((size[0], size[1], size[2]), dtype=np.bool_)
        for v in range(starts[k], starts[k + 1]):
            x, y, z = voxels[v, 0] - lo[0] + 1, voxels[v, 1] - lo[1] + 1, voxels[v, 2] - lo[2] + 1
            grid[x, y, z] = True
        for v in range(starts[k], starts[k + 1]):
            x, y, z = voxels[v, 0] - lo[0] + 1, voxels[v, 1] - lo[1] + 1, voxels[v, 2] - lo[2] + 1
            for d in range(2 * dims):
                step = -1 if d & 1 else 1
                if d < 2:
                    ahead = grid[x + step, y, z]
                elif d < 4:
                    ahead = grid[x, y + step, z]
                else:
                    ahead = grid[x, y, z + step]
                if not ahead:
                    rows[used, 0] = k
                    rows[used, 1] = v
                    rows[used, 2] = d
                    used += 1
    return rows[:used].copy()


@njit(cache=True)
def _movable(mask: np.int64, full: np.int64, fixed: int) -> bool:
    return not ((mask & fixed) != 0 and ((full ^ mask) & fixed) != 0)


@njit(cache=True)
def separations(reach: np.ndarray, fixed: int) -> np.ndarray:
    """Rows (moving mask, direction) of the groups that can leave for good: single pieces
    first, then groups, each by direction then piece (as ``_Part.separations``)."""
    dirs, n = reach.shape[0], reach.shape[1]
    half = n // 2
    full = (np.int64(1) << n) - 1
    found = np.empty((dirs * n, 3), dtype=np.int64)
    used = 0
    for d in range(dirs):
        for p in range(n):
            count = 0
            mask = np.int64(0)
            for j in range(n):
                if reach[d, p, j] < FREE:
                    count += 1
                    mask |= np.int64(1) << j
            if count > half:
                continue
            moving, direction = mask, d
            if mask & fixed:
                moving, direction = full ^ mask, d ^ 1
            if moving & fixed:
                continue
            split = min(moving, full ^ moving)
            seen = False
            for r in range(used):
                if min(found[r, 1], full ^ found[r, 1]) == split:
                    seen = True
                    break
            if seen:
                continue
            single = 0
            if moving & (moving - 1) == 0:
                single = 1
            found[used, 0] = single
            found[used, 1] = moving
            found[used, 2] = direction
            used += 1
    out = np.empty((used, 2), dtype=np.int64)
    k = 0
    for want in (1, 0):  # single pieces first, each kind in the order met
        for r in range(used):
            if found[r, 0] == want:
                out[k, 0] = found[r, 1]
                out[k, 1] = found[r, 2]
                k += 1
    return out


@njit(cache=True)
def moves(reach: np.ndarray, fixed: int) -> np.ndarray:
    """Rows (mask, direction, distance) of the moves that keep the part together, in the
    order of ``_Part.moves``."""
    dirs, n = reach.shape[0], reach.shape[1]
    half = n // 2
    full = (np.int64(1) << n) - 1
    result = np.empty((64, 3), dtype=np.int64)
    used = 0
    ranked = np.empty(n, dtype=np.int64)
    for d in range(dirs):
        first = used  # the rows of this direction: known[k] is those at distance k
        for p in range(n):
            row = reach[d, p]
            for j in range(n):  # insertion sort, stable: ties by piece
                value = row[j]
                at = j
                while at > 0 and row[ranked[at - 1]] > value:
                    ranked[at] = ranked[at - 1]
                    at -= 1
                ranked[at] = j
            most = row[ranked[half]] if half < n else 0
            if most >= FREE:
                most = 0
                for j in range(n):
                    if row[j] < FREE and row[j] > most:
                        most = row[j]
            mask = np.int64(0)
            at = 0
            for k in range(1, most + 1):
                while at < n and row[ranked[at]] < k:
                    mask |= np.int64(1) << ranked[at]
                    at += 1
                known = False
                for r in range(first, used):
                    if result[r, 2] == k and result[r, 0] == mask:
                        known = True
                        break
                if known or not _movable(mask, full, fixed):
                    continue
                if used == result.shape[0]:
                    result = _grow(result, used)
                result[used, 0] = mask
                result[used, 1] = d
                result[used, 2] = k
                used += 1
                for r in range(used - 2, first - 1, -1):  # the newest first (_Part.moves)
                    if result[r, 2] != k:
                        continue
                    other = result[r, 0]
                    union = other | mask
                    if union == other or union == mask or union == full:  # noqa: SIM109 (numba: plain compares)
                        continue
                    if not _movable(union, full, fixed):
                        continue
                    dup = False
                    for s in range(first, used):
                        if result[s, 2] == k and result[s, 0] == union:
                            dup = True
                            break
                    if dup:
                        continue
                    if used == result.shape[0]:
                        result = _grow(result, used)
                    result[used, 0] = union
                    result[used, 1] = d
                    result[used, 2] = k
                    used += 1
    return result[:used].copy()


@njit(cache=True)
def shifted(pos: np.ndarray, table: np.ndarray) -> np.ndarray:
    """The position after each move of ``table``, relative to the first piece again."""
    n = pos.shape[0] // 3
    out = np.empty((table.shape[0], pos.shape[0]), dtype=np.int64)
    for r in range(table.shape[0]):
        mask, direction, distance = table[r, 0], table[r, 1], table[r, 2]
        axis = direction >> 1
        step = -distance if direction & 1 else distance
        out[r] = pos
        for k in range(n):
            if (mask >> k) & 1:
                out[r, 3 * k + axis] += step
        base = out[r, axis]
        if base != 0:
            for k in range(n):
                out[r, 3 * k + axis] -= base
    return out


@njit(cache=True)
def expand(voxels: np.ndarray, starts: np.ndarray, fronts: np.ndarray, pos: np.ndarray,
           dims: int, fixed: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """One position's separations, and, when there are none, its moves and the positions
    they lead to (as ``_Part.search`` uses them)."""
    reach = blocking(voxels, starts, fronts, pos, dims)
    splits = separations(reach, fixed)
    if splits.shape[0]:
        empty = np.empty((0, 3), dtype=np.int64)
        return splits, empty, np.empty((0, pos.shape[0]), dtype=np.int64)
    table = moves(reach, fixed)
    return splits, table, shifted(pos, table)
