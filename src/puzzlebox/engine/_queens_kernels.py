"""The numba kernels of the n-queens bitmask engine (engine/queens_bitmask.py).

Both are resumable: the whole search state lives in arrays owned by the caller, and a call
runs at most ``budget`` nodes before it returns, so the engine can hand back control between
steps (budgets, progress, Ctrl-C) and pick up exactly where it stopped.
"""

from __future__ import annotations

import numpy as np
from numba import njit


@njit(cache=True, nogil=True)  # released: a split run searches on a thread too
def walk_rows(n, allowed, row0, cols, left, right, free, top, budget):  # pragma: no cover
    """Fill rows ``row0 .. n-1`` one queen per row, from the stack ``cols/left/right/free``
    (index ``d`` is row ``row0 + d``; ``top[0]`` the current depth, -1 once exhausted).

    A row's queen is one bit of ``allowed[row] & ~(cols | left | right)``: the columns still
    free less the squares the queens above attack along their two diagonals (kept as masks
    shifted by one square per row). Returns ``(solutions, nodes)`` of this call."""
    full = (np.int64(1) << n) - 1
    last = n - 1 - row0
    below = allowed[row0:]  # a view: indexing it by depth is a little faster
    d = top[0]
    count = np.int64(0)
    nodes = np.int64(0)
    while d >= 0 and nodes < budget:
        f = free[d]
        if f == 0:
            d -= 1
            continue
        bit = f & -f
        free[d] = f ^ bit
        nodes += 1
        if d == last:
            count += 1
            continue
        nc = cols[d] | bit
        nl = ((left[d] | bit) << 1) & full
        nr = (right[d] | bit) >> 1
        d += 1
        cols[d] = nc
        left[d] = nl
        right[d] = nr
        free[d] = below[d] & ~(nc | nl | nr)
    top[0] = d
    return count, nodes


@njit(cache=True, nogil=True)
def walk_symmetric(
    n, turns, allowed, row, col, rows, cols, diag, anti, top, budget
):  # pragma: no cover
    """Solutions fixed by a rotation of ``turns`` quarter turns (1 or 2), resumably.

    Each queen is placed with its whole orbit under the rotation, every image inside its
    row's ``allowed`` columns. Level ``d`` of the stack fills row ``row[d]`` (the first row
    not yet taken), trying columns from ``col[d]``; ``rows``/``cols`` are the rows and
    columns taken, ``diag``/``anti`` the diagonals ``r + c`` and ``r - c + n - 1``. Returns
    ``(solutions, nodes)`` of this call; ``top[0]`` is -1 once exhausted."""
    images = 4 // turns
    d = top[0]
    count = np.int64(0)
    nodes = np.int64(0)
    while d >= 0 and nodes < budget:
        r = row[d]
        if r == n:
            count += 1
            d -= 1
            continue
        c = col[d]
        if c == n:
            d -= 1
            continue
        col[d] = c + 1
        nodes += 1
        nrows, ncols, ndiag, nanti = rows[d], cols[d], diag[d], anti[d]
        ok = True
        qr, qc = r, c
        for k in range(images):
            if k > 0:
                if turns == 1:
                    qr, qc = qc, n - 1 - qr
                else:
                    qr, qc = n - 1 - qr, n - 1 - qc
                if qr == r and qc == c:
                    break  # the orbit closed early: the centre of an odd board
            d1 = qr + qc
            d2 = qr - qc + n - 1
            if (
                not (allowed[qr] >> qc) & 1
                or (nrows >> qr) & 1
                or (ncols >> qc) & 1
                or (ndiag >> d1) & 1
                or (nanti >> d2) & 1
            ):
                ok = False
                break
            nrows |= np.int64(1) << qr
            ncols |= np.int64(1) << qc
            ndiag |= np.int64(1) << d1
            nanti |= np.int64(1) << d2
        if ok:
            nxt = r + 1
            while nxt < n and (nrows >> nxt) & 1:
                nxt += 1
            d += 1
            row[d] = nxt
            col[d] = 0
            rows[d] = nrows
            cols[d] = ncols
            diag[d] = ndiag
            anti[d] = nanti
    top[0] = d
    return count, nodes
