"""n-queens counted with bitmasks: the classic fast path, in numba.

A row is filled by choosing one bit of ``~(cols | left | right)``: the columns still free,
less the squares the queens above attack along their two diagonals (kept as masks shifted by
one square per row). The count uses the board's left-right mirror: a solution and its mirror
image put the first row's queen in mirrored columns, so only the left half of the first row
is searched and counted twice; for odd ``n`` the middle column is its own mirror and is
searched once, with the same trick one row down (the second row's queen is never in the
middle column then, so the halves of the second row are mirror images).

Solutions up to the eight symmetries of the square come from Burnside's lemma: the number of
orbits is the mean number of solutions each symmetry fixes. For ``n > 1`` no solution is
fixed by a reflection (a mirror in a side would put two queens on a row or column, a mirror
in a diagonal two queens on the other diagonal), so it is ``(Q + F180 + 2 F90) / 8`` with
``F180`` and ``F90`` the solutions fixed by a half and a quarter turn, counted by a search
that places the whole orbit of each queen at once.
"""

from __future__ import annotations

import time

import numpy as np
from numba import njit

from puzzlebox.engine.stats import SearchStats

MAX_N = 31  # diagonals of the symmetric search fit in one int64 (2n - 1 bits)


@njit(cache=True, nogil=True)  # released: a split run searches on a thread too
def _complete(n, row, cols, left, right):
    """Ways to fill rows ``row .. n-1`` given the masks of the rows above, and the queens
    placed on the way (search nodes)."""
    full = (np.int64(1) << n) - 1
    rows = n - row
    if rows == 0:
        return np.int64(1), np.int64(0)
    c = np.zeros(rows, dtype=np.int64)
    lft = np.zeros(rows, dtype=np.int64)
    rgt = np.zeros(rows, dtype=np.int64)
    free = np.zeros(rows, dtype=np.int64)
    c[0] = cols
    lft[0] = left
    rgt[0] = right
    free[0] = full & ~(cols | left | right)
    last = rows - 1
    count = np.int64(0)
    nodes = np.int64(0)
    d = 0
    while d >= 0:
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
        nc = c[d] | bit
        nl = ((lft[d] | bit) << 1) & full
        nr = (rgt[d] | bit) >> 1
        d += 1
        c[d] = nc
        lft[d] = nl
        rgt[d] = nr
        free[d] = full & ~(nc | nl | nr)
    return count, nodes


@njit(cache=True)
def _place(n, r, c, cols, left, right):
    """The masks after a queen at ``(r, c)``, shifted down to row ``r + 1``."""
    bit = np.int64(1) << c
    full = (np.int64(1) << n) - 1
    return cols | bit, ((left | bit) << 1) & full, (right | bit) >> 1


@njit(cache=True, nogil=True)  # released: a split run searches on a thread too
def count_queens(n):
    """``(solutions, nodes)``: the ways to place ``n`` non-attacking queens on an ``n x n``
    board, and the queens the search placed."""
    if n == 1:
        return np.int64(1), np.int64(1)
    total = np.int64(0)
    nodes = np.int64(0)
    for c in range(n // 2):  # left half of the first row, counted twice
        cols, left, right = _place(n, 0, c, 0, 0, 0)
        found, walked = _complete(n, 1, cols, left, right)
        total += 2 * found
        nodes += 1 + walked
    if n % 2 == 1:  # the middle column: mirror the second row instead
        mid = n // 2
        cols, left, right = _place(n, 0, mid, 0, 0, 0)
        nodes += 1
        for c in range(mid):
            bit = np.int64(1) << c
            if bit & (cols | left | right):
                continue
            c2, l2, r2 = _place(n, 1, c, cols, left, right)
            found, walked = _complete(n, 2, c2, l2, r2)
            total += 2 * found
            nodes += 1 + walked
    return total, nodes


@njit(cache=True, nogil=True)  # released: a split run searches on a thread too
def _symmetric(n, turns, r, rows, cols, diag, anti):
    """Solutions fixed by a rotation of ``turns`` quarter turns (1 or 2), rows from ``r``.

    Each queen is placed with its whole orbit under the rotation; ``rows``/``cols`` are the
    rows and columns taken, ``diag``/``anti`` the diagonals ``r + c`` and ``r - c + n - 1``.
    """
    while r < n and (rows >> r) & 1:
        r += 1
    if r == n:
        return np.int64(1)
    total = np.int64(0)
    images = 4 // turns
    for c in range(n):
        nrows, ncols, ndiag, nanti = rows, cols, diag, anti
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
            if (nrows >> qr) & 1 or (ncols >> qc) & 1 or (ndiag >> d1) & 1 or (nanti >> d2) & 1:
                ok = False
                break
            nrows |= np.int64(1) << qr
            ncols |= np.int64(1) << qc
            ndiag |= np.int64(1) << d1
            nanti |= np.int64(1) << d2
        if ok:
            total += _symmetric(n, turns, r + 1, nrows, ncols, ndiag, nanti)
    return total


def fixed_by_rotation(n: int, turns: int) -> int:
    """Solutions that a rotation by ``turns`` quarter turns (1 or 2) maps onto themselves."""
    if turns not in (1, 2):
        raise ValueError("turns must be 1 (a quarter turn) or 2 (a half turn)")
    if not 1 <= n <= MAX_N:
        raise ValueError(f"n must lie in 1..{MAX_N}")
    z = np.int64(0)
    return int(_symmetric(np.int64(n), np.int64(turns), np.int64(0), z, z, z, z))


_compile_seconds: float | None = None


def _warm_up() -> float:
    """Compile (or load from numba's cache) the kernels once per process, and time it."""
    global _compile_seconds
    if _compile_seconds is not None:
        return 0.0
    began = time.perf_counter()
    count_queens(np.int64(5))
    fixed_by_rotation(5, 1)
    _compile_seconds = time.perf_counter() - began
    return _compile_seconds


def queens_counts(n: int) -> tuple[int, int, SearchStats]:
    """``(all solutions, solutions up to the board's eight symmetries, statistics)`` for
    ``n`` queens."""
    if not 1 <= n <= MAX_N:
        raise ValueError(f"n must lie in 1..{MAX_N}")
    stats = SearchStats(engine="queens-bitmask", compile_seconds=_warm_up())
    began = time.perf_counter()
    raw, nodes = (int(v) for v in count_queens(np.int64(n)))
    orbits = 1
    if n > 1:
        twice = fixed_by_rotation(n, 2)
        quarter = fixed_by_rotation(n, 1)
        orbits, rest = divmod(raw + twice + 2 * quarter, 8)
        if rest:
            raise ArithmeticError(f"Burnside's count for {n} queens is not whole: a bug")
    stats.search_seconds = time.perf_counter() - began
    stats.nodes = nodes
    stats.solutions = raw
    stats.complete = True
    return raw, orbits, stats
