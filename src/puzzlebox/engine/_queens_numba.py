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
    n: Int, row0: Int, prefix: Array, cols: Array, last: Int, bit: Int, group: Int
) -> bool:  # pragma: no cover
    """Whether the solution at this leaf is the smallest of its images under the symmetries
    in ``group`` (bit ``g`` for image ``g``, 1..7: all of them for the eight symmetries of
    the square; a board whose holes keep fewer names those it keeps; bit 0, the identity,
    is not compared and makes the mask nonzero), as the tuple of its
    queens' columns, row by row: the one member of its orbit that a split count counts as
    distinct.

    An image's first column is the distance of one border queen from a corner, so the four
    border queens decide almost every leaf; ties compare the images a row at a time."""
    top = n - 1
    s0 = _col_at(n, row0, prefix, cols, last, bit, 0)
    least = n
    if group & 2:
        if top - s0 < s0:
            return False
        least = min(least, top - s0)
    if group & 0x0C:
        sl = _column(bit)
        if group & 4:
            if sl < s0:
                return False
            least = min(least, sl)
        if group & 8:
            if top - sl < s0:
                return False
            least = min(least, top - sl)
    if group & 0x50:
        i0 = _row_of(n, row0, prefix, cols, last, 0)
        if group & 16:
            if i0 < s0:
                return False
            least = min(least, i0)
        if group & 64:
            if top - i0 < s0:
                return False
            least = min(least, top - i0)
    if group & 0xA0:
        il = _row_of(n, row0, prefix, cols, last, top)
        if group & 128:
            if il < s0:
                return False
            least = min(least, il)
        if group & 32:
            if top - il < s0:
                return False
            least = min(least, top - il)
    if s0 < least:
        return True
    for g in range(1, 8):
        if not (group >> g) & 1:
            continue
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
    right: Array, free: Array, top: Array, budget: Int, lead: Int,
) -> tuple[Int, Int, Int]:  # pragma: no cover
    """Fill rows ``row0 .. n-1`` one queen per row, from the stack ``cols/left/right/free``
    (index ``d`` is row ``row0 + d``; ``top[0]`` the current depth, -1 once exhausted);
    ``prefix`` holds the columns of the queens above ``row0``.

    A row's queen is one bit of ``allowed[row] & ~(cols | left | right)``: the columns still
    free less the squares the queens above attack along their two diagonals (kept as masks
    shifted by one square per row). With ``lead`` (a group of images, :func:`_leads`; 0:
    none), each solution that leads its orbit is counted too. Returns
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
            if lead and _leads(n, row0, prefix, cols, last, bit, lead):
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


@njit(cache=True, nogil=True)
def _rot_right(x: Int, k: Int, n: Int, full: Int) -> Int:  # pragma: no cover
    return ((x >> k) | (x << (n - k))) & full if k else x


@njit(cache=True, nogil=True)
def walk_torus(
    n: Int, allowed: Array, board: Array, row0: Int, prefix: Array, cols: Array, left: Array,
    right: Array, free: Array, top: Array, budget: Int, images: Int,
) -> tuple[Int, Int]:  # pragma: no cover
    """:func:`walk_rows` on a torus (#38): the diagonals wrap, so their masks rotate by one
    column a row instead of shifting. No leaders: a torus is counted whole. A leaf counts 1
    (``images`` 0), or the shifts of its solution along the rows (column ``c`` to ``c + b``
    mod n) whose queens all stand on ``board``'s squares (1), and those of its mirror image
    (``c`` to ``-c``) too (2). Returns ``(solutions, nodes)`` of this call."""
    full = (np.int64(1) << n) - 1
    last = n - 1 - row0
    below = allowed[row0:]
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
            if images == 0:
                count += 1
                continue
            fit = full
            mirror = full if images == 2 else np.int64(0)
            for r in range(n):
                if r < row0:
                    q = prefix[r]
                elif r == n - 1:
                    q = _column(bit)
                else:
                    q = _column(cols[r - row0 + 1] ^ cols[r - row0])
                fit &= _rot_right(board[r], q, n, full)
                mirror &= _rot_right(board[r], (n - q) % n, n, full)
            while fit:
                fit &= fit - 1
                count += 1
            while mirror:
                mirror &= mirror - 1
                count += 1
            continue
        lm = left[d] | bit
        rm = right[d] | bit
        nc = cols[d] | bit
        nl = ((lm << 1) | (lm >> (n - 1))) & full
        nr = ((rm >> 1) | (rm << (n - 1))) & full
        d += 1
        cols[d] = nc
        left[d] = nl
        right[d] = nr
        free[d] = below[d] & ~(nc | nl | nr)
    top[0] = d
    return count, nodes


@njit(cache=True, nogil=True)
def _map(n: Int, k: Int, r: Int, c: Int) -> Int:  # pragma: no cover
    """Square ``(r, c)``'s image under symmetry ``k`` of the square (numbered as
    :func:`_image_at`; 0 the identity), as ``row * n + col``."""
    top = n - 1
    if k == 0:
        x, y = r, c
    elif k == 1:
        x, y = r, top - c
    elif k == 2:
        x, y = top - r, c
    elif k == 3:
        x, y = top - r, top - c
    elif k == 4:
        x, y = c, r
    elif k == 5:
        x, y = top - c, top - r
    elif k == 6:
        x, y = c, top - r
    else:
        x, y = top - c, r
    return x * n + y


@njit(cache=True, nogil=True)
def _fixed_one(
    n: Int, torus: Int, allowed: Array, image: Array, cycle: Array, seen: Array
) -> tuple[Int, Int]:  # pragma: no cover
    """The solutions that one map (``image``: square to square) keeps, and the nodes: a
    union of its cycles, each of whose squares share no line, placed whole, the first free
    row filled each time."""
    nn = n * n
    full = (np.int64(1) << n) - 1
    seen[:] = 0
    for s in range(nn):
        if seen[s] or not (allowed[s // n] >> (s % n)) & 1:
            continue
        rows = np.int64(0)
        cols = np.int64(0)
        diag = np.int64(0)
        anti = np.int64(0)
        ok = True
        t = s
        while True:
            r, c = t // n, t % n
            d1 = (r + c) % n if torus else r + c
            d2 = (r - c + n) % n if torus else r - c + n - 1
            br, bc = np.int64(1) << r, np.int64(1) << c
            b1, b2 = np.int64(1) << d1, np.int64(1) << d2
            if (rows & br) or (cols & bc) or (diag & b1) or (anti & b2):
                ok = False
            rows |= br
            cols |= bc
            diag |= b1
            anti |= b2
            seen[t] = 1
            t = image[t]
            if t == s:
                break
        if not ok:
            rows = np.int64(-1)  # a cycle no solution can hold
        while True:
            cycle[t, 0] = rows
            cycle[t, 1] = cols
            cycle[t, 2] = diag
            cycle[t, 3] = anti
            t = image[t]
            if t == s:
                break
    at = np.zeros((n + 1, 4), dtype=np.int64)
    todo = np.zeros(n + 1, dtype=np.int64)
    row = np.zeros(n + 1, dtype=np.int64)
    d = 0
    count = 0
    nodes = 0
    todo[0] = allowed[0] & full
    while d >= 0:
        if todo[d] == 0:
            d -= 1
            continue
        bit = todo[d] & -todo[d]
        todo[d] ^= bit
        nodes += 1
        k = row[d] * n + _column(bit)
        if (cycle[k, 0] < 0 or cycle[k, 0] & at[d, 0] or cycle[k, 1] & at[d, 1]
                or cycle[k, 2] & at[d, 2] or cycle[k, 3] & at[d, 3]):
            continue
        nrows = at[d, 0] | cycle[k, 0]
        if nrows == full:
            count += 1
            continue
        r = 0
        while (nrows >> r) & 1:
            r += 1
        for j in range(4):
            at[d + 1, j] = at[d, j] | cycle[k, j]
        d += 1
        row[d] = r
        todo[d] = allowed[r] & full & ~at[d, 1]
    return count, nodes


@njit(cache=True, nogil=True)
def _classes(n: Int, k: Int, weight: Array) -> None:  # pragma: no cover
    """On a whole torus every shift is in the group, and conjugating ``x -> A x + t`` by
    the shift ``s`` gives ``x -> A x + t + (I - A) s``: maps whose shifts differ by an
    element of the image of ``I - A`` fix equally many solutions. ``weight[t]`` becomes the
    size of t's class for its first shift, 0 for the others."""
    nn = n * n
    o = _map(n, k, 0, 0)
    seen = np.zeros(nn, dtype=np.bool_)
    steps = np.zeros(nn, dtype=np.int64)
    m = 0
    for s in range(nn):
        t = _map(n, k, s // n, s % n)
        x = (s // n - (t // n - o // n)) % n
        y = (s % n - (t % n - o % n)) % n
        v = x * n + y
        if not seen[v]:
            seen[v] = True
            steps[m] = v
            m += 1
    weight[:] = -1
    for t in range(nn):
        if weight[t] >= 0:
            continue
        weight[t] = m
        for j in range(m):
            u = ((t // n + steps[j] // n) % n) * n + (t % n + steps[j] % n) % n
            if u != t:
                weight[u] = 0


@njit(cache=True, nogil=True)
def fixed(n: Int, torus: Int, allowed: Array, state: Array, budget: Int) -> Int:  # pragma: no cover
    """Burnside's sum for a queens board (#38): the solutions fixed by each map of the
    board's group, the identity's left out (they are the raw count). Element ``e`` of
    ``0 .. 8 * T - 1`` (``T = n * n`` on a torus, else 1) is the symmetry ``e // T`` of the
    square (:func:`_map`) shifted by ``((e % T) // n, e % n)`` around a torus; one that does
    not keep the squares in ``allowed`` is not in the group. ``state``: the next element,
    the sum, the group's order so far; stops between elements once ``budget`` nodes are
    spent. On a whole torus one map of each class under the shifts' conjugation is
    searched (:func:`_classes`). Returns the nodes."""
    nn = n * n
    per = nn if torus else 1
    total = 8 * per
    image = np.zeros(nn, dtype=np.int64)
    seen = np.zeros(nn, dtype=np.int64)
    cycle = np.zeros((nn, 4), dtype=np.int64)
    weight = np.zeros(nn, dtype=np.int64)
    full = (np.int64(1) << n) - 1
    whole = bool(torus)
    for r in range(n):
        if allowed[r] & full != full:
            whole = False
    classes_of = -1
    nodes = 0
    e = state[0]
    while e < total and nodes < budget:
        k = e // per
        a = (e % per) // n if torus else 0
        b = e % n if torus else 0
        if whole:
            if classes_of != k:
                _classes(n, k, weight)
                classes_of = k
            state[2] += 1
            e += 1
            if e == 1 or weight[(e - 1) % per] == 0:
                continue
            for s in range(nn):
                t = _map(n, k, s // n, s % n)
                image[s] = ((t // n + a) % n) * n + (t % n + b) % n
            found, searched = _fixed_one(n, torus, allowed, image, cycle, seen)
            state[1] += weight[(e - 1) % per] * found
            nodes += searched
            continue
        keeps = True
        for s in range(nn):
            r, c = s // n, s % n
            t = _map(n, k, r, c)
            x, y = (t // n + a) % n, (t % n + b) % n
            image[s] = x * n + y
            if (allowed[r] >> c) & 1 and not (allowed[x] >> y) & 1:
                keeps = False
        e += 1
        if not keeps:
            continue
        state[2] += 1
        if e == 1:
            continue  # the identity
        found, searched = _fixed_one(n, torus, allowed, image, cycle, seen)
        state[1] += found
        nodes += searched
    state[0] = e
    return nodes
