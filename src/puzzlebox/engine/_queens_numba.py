"""The numba kernels of the n-queens bitmask engine (engine/queens_bitmask.py), the fallback
where the C kernels (engine/_ckernels.c) are not built; engine/_queens_kernels.py chooses.

Both are resumable: the whole search state lives in arrays owned by the caller, and a call
runs at most ``budget`` nodes before it returns, so the engine can hand back control between
steps (budgets, progress, Ctrl-C) and pick up exactly where it stopped.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt

from puzzlebox.engine._jit import njit

Array = npt.NDArray[np.int64]  # annotations for the reader and mypy; numba ignores them
# An integer scalar in a kernel: the engine passes np.int64 (one compiled specialisation),
# the kernels pass each other Python ints and array elements, which numpy's stubs type as
# Any; numba compiles them all alike, so to mypy a scalar is Any.
Int = Any

# the column of a one-bit mask: 2**k mod 67 differs for every k < 66 (2 is a primitive root)
_COLUMN = np.zeros(67, dtype=np.int64)
for _k in range(64):
    _COLUMN[(1 << _k) % 67] = _k


@njit(cache=True, nogil=True)
def _column(bit: Int) -> Int:  # pragma: no cover
    return _COLUMN[bit % 67]


@njit(cache=True, nogil=True)
def _row_of(
    n: Int, row0: Int, prefix: Array, cols: Array, last: Int, c: Int
) -> Int:  # pragma: no cover
    """At a leaf: the row whose queen stands in column ``c``. ``cols[d]`` holds the columns
    of the rows above ``row0 + d``, so it only grows with ``d``: a binary search finds it."""
    m = np.int64(1) << c
    if cols[0] & m:
        for r in range(row0):
            if prefix[r] == c:
                return r
    if not cols[last] & m:
        return n - 1
    lo, hi = 1, last
    while lo < hi:
        mid = (lo + hi) // 2
        if cols[mid] & m:
            hi = mid
        else:
            lo = mid + 1
    return row0 + lo - 1


@njit(cache=True, nogil=True)
def _col_at(
    n: Int, row0: Int, prefix: Array, cols: Array, last: Int, bit: Int, k: Int
) -> Int:  # pragma: no cover
    """At a leaf: the column of row ``k``'s queen."""
    if k < row0:
        return prefix[k]
    if k == n - 1:
        return _column(bit)
    d = k - row0
    return _column(cols[d + 1] ^ cols[d])


@njit(cache=True, nogil=True)
def _image_at(
    n: Int, row0: Int, prefix: Array, cols: Array, last: Int, bit: Int, g: Int, k: Int
) -> Int:  # pragma: no cover
    """At a leaf: the column of row ``k`` in the solution's image under symmetry ``g``
    (1..7: the mirror, the flip, the half turn, the transpose, the other diagonal's mirror,
    and the two quarter turns), from the columns and the inverse (the row of a column)."""
    top = n - 1
    if g == 1:
        return top - _col_at(n, row0, prefix, cols, last, bit, k)
    if g == 2:
        return _col_at(n, row0, prefix, cols, last, bit, top - k)
    if g == 3:
        return top - _col_at(n, row0, prefix, cols, last, bit, top - k)
    if g == 4:
        return _row_of(n, row0, prefix, cols, last, k)
    if g == 5:
        return top - _row_of(n, row0, prefix, cols, last, top - k)
    if g == 6:
        return top - _row_of(n, row0, prefix, cols, last, k)
    return _row_of(n, row0, prefix, cols, last, top - k)


@njit(cache=True, nogil=True)
def _leads(
    n: Int, row0: Int, prefix: Array, cols: Array, last: Int, bit: Int
) -> bool:  # pragma: no cover
    """Whether the solution at this leaf is the smallest of its images under the eight
    symmetries of the square (as the tuple of its queens' columns, row by row): the one
    member of its orbit that a split count counts as distinct.

    An image's first column is the distance of one border queen from a corner, so the four
    border queens decide almost every leaf; ties compare the images a row at a time."""
    top = n - 1
    s0 = _col_at(n, row0, prefix, cols, last, bit, 0)
    if top - s0 < s0:
        return False
    sl = _column(bit)
    if sl < s0 or top - sl < s0:
        return False
    i0 = _row_of(n, row0, prefix, cols, last, 0)
    if i0 < s0 or top - i0 < s0:
        return False
    il = _row_of(n, row0, prefix, cols, last, top)
    if il < s0 or top - il < s0:
        return False
    if s0 < min(top - s0, sl, top - sl, i0, top - i0, il, top - il):
        return True
    for g in range(1, 8):
        for k in range(n):
            a = _col_at(n, row0, prefix, cols, last, bit, k)
            b = _image_at(n, row0, prefix, cols, last, bit, g, k)
            if a < b:
                break
            if a > b:
                return False
    return True


@njit(cache=True, nogil=True)  # released: a split run searches on a thread too
def walk_rows(
    n: Int, allowed: Array, row0: Int, prefix: Array, cols: Array, left: Array,
    right: Array, free: Array, top: Array, budget: Int, lead: bool,
) -> tuple[Int, Int, Int]:  # pragma: no cover
    """Fill rows ``row0 .. n-1`` one queen per row, from the stack ``cols/left/right/free``
    (index ``d`` is row ``row0 + d``; ``top[0]`` the current depth, -1 once exhausted);
    ``prefix`` holds the columns of the queens above ``row0``.

    A row's queen is one bit of ``allowed[row] & ~(cols | left | right)``: the columns still
    free less the squares the queens above attack along their two diagonals (kept as masks
    shifted by one square per row). With ``lead``, each solution that leads its orbit
    (:func:`_leads`) is counted too. Returns
    ``(solutions, nodes, leaders)`` of this call."""
    full = (np.int64(1) << n) - 1
    last = n - 1 - row0
    below = allowed[row0:]  # a view: indexing it by depth is a little faster
    d = top[0]
    count = np.int64(0)
    nodes = np.int64(0)
    leaders = np.int64(0)
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
            if lead and _leads(n, row0, prefix, cols, last, bit):
                leaders += 1
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
    return count, nodes, leaders


@njit(cache=True, nogil=True)
def walk_symmetric(
    n: Int, turns: Int, allowed: Array, row: Array, col: Array, rows: Array, cols: Array,
    diag: Array, anti: Array, top: Array, budget: Int,
) -> tuple[Int, Int]:  # pragma: no cover
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
