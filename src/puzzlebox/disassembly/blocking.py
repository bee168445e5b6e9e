"""How far one piece can slide along an axis before it touches another (the blocking relation).

Pieces are sets of unit cells on the cube lattice (the square lattice is its one-layer case).
Sliding a piece along an axis by ``k`` units passes through every cell between, so the piece
is free to move ``k`` units against another piece exactly when every cell of it has no cell
of the other piece among the next ``k`` cells of its line. The largest such ``k`` depends
only on the two pieces and their relative offset, so it is computed once per pair and offset
and kept (:class:`BlockingCache`); a search meets the same offsets again and again.
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Callable, Iterable, Sequence
from typing import Any

Cell = tuple[int, int, int]
Offset = tuple[int, int, int]

FREE = 1 << 30  # "never blocked": the piece can slide away for ever in that direction


def _lines(cells: Iterable[Cell], axis: int) -> dict[tuple[int, int], list[int]]:
    """The piece's cells along ``axis``, grouped by the line they lie on (the other two
    coordinates), each line's coordinates sorted."""
    lines: dict[tuple[int, int], list[int]] = {}
    for cell in cells:
        key = (cell[(axis + 1) % 3], cell[(axis + 2) % 3])
        lines.setdefault(key, []).append(cell[axis])
    for values in lines.values():
        values.sort()
    return lines


def _gap_ahead(mine: list[int], theirs: list[int], shift: int) -> int:
    """The most units ``mine`` can move up its line before meeting ``theirs`` (shifted by
    ``shift``): the smallest distance from one of my cells to the next of theirs, less one."""
    best = FREE
    top = theirs[-1] + shift
    for value in mine:
        if value >= top:
            continue
        index = bisect_right(theirs, value - shift)
        gap = theirs[index] + shift - value - 1
        if gap < best:
            best = gap
            if gap == 0:
                return 0
    return best


class BlockingCache:
    """Free distances between pairs of pieces, computed once per pair and relative offset.

    Directions are numbered ``2 * axis`` (up the axis) and ``2 * axis + 1`` (down it), for
    the ``dims`` axes the pieces may slide along (2 on the square lattice, 3 on the cube).
    """

    def __init__(self, pieces: Sequence[Iterable[Cell]], dims: int = 3) -> None:
        self.dims = dims
        self.lines = [[_lines(piece, axis) for axis in range(dims)] for piece in pieces]
        self._cache: dict[tuple[int, int, int, int, int], tuple[int, ...]] = {}
        self._pairs: dict[tuple[int, int, int, int, int],
                          tuple[tuple[int, ...], tuple[int, ...]]] = {}
        self.computed = 0  # pairs and offsets worked out (the cache's misses), for bench/

    def pair(self, i: int, j: int, dx: int, dy: int, dz: int
             ) -> tuple[tuple[int, ...], tuple[int, ...]]:
        """:meth:`free` both ways at once: ``i`` past ``j`` at offset (dx, dy, dz), and
        ``j`` past ``i`` (the search's inner loop asks for both)."""
        key = (i, j, dx, dy, dz)
        found = self._pairs.get(key)
        if found is None:
            found = (self.free(i, j, (dx, dy, dz)), self.free(j, i, (-dx, -dy, -dz)))
            self._pairs[key] = found
        return found

    def free(self, i: int, j: int, offset: Offset) -> tuple[int, ...]:
        """How far piece ``i`` can slide in each direction while piece ``j``, at ``offset``
        relative to ``i``, stays put (:data:`FREE` when it never meets ``j``)."""
        key = (i, j, offset[0], offset[1], offset[2])
        found = self._cache.get(key)
        if found is not None:
            return found
        self.computed += 1
        result: list[int] = []
        for axis in range(self.dims):
            up = down = FREE
            along = offset[axis]
            across = (offset[(axis + 1) % 3], offset[(axis + 2) % 3])
            theirs_lines = self.lines[j][axis]
            for (u, v), mine in self.lines[i][axis].items():
                theirs = theirs_lines.get((u - across[0], v - across[1]))
                if theirs is None:
                    continue
                if up:
                    up = min(up, _gap_ahead(mine, theirs, along))
                if down:
                    # moving down is moving up in the mirrored line
                    down = min(down, _gap_ahead(
                        [-x for x in reversed(mine)], [-x for x in reversed(theirs)], -along))
            result.extend((up, down))
        value = tuple(result)
        self._cache[key] = value
        # the same pair seen from j: j moving up is i moving down, and back
        mirrored = tuple(value[d ^ 1] for d in range(len(value)))
        self._cache[(j, i, -offset[0], -offset[1], -offset[2])] = mirrored
        return value


Step = tuple[int, int, int]


def _along(cell: Cell, step: Step) -> tuple[Cell, int]:
    """The line through ``cell`` along ``step`` (the cell moved back to where the step's
    first non-zero coordinate is smallest but not negative, the same for every cell of the
    line) and how many steps along it the cell is."""
    axis = next(a for a in range(3) if step[a])
    k = cell[axis] // step[axis]
    return (cell[0] - k * step[0], cell[1] - k * step[1], cell[2] - k * step[2]), k


class SweptBlockingCache(BlockingCache):
    """:class:`BlockingCache` for a lattice whose pieces slide along steps that are not unit
    steps of the axes (rhombic dodecahedra, #37): a cell sliding one step passes through
    the inside of several cells, ``swept(cell, step)`` names them, and sliding ``k`` steps
    passes through those of each step, moved along. So piece ``i`` can slide ``k`` steps
    past ``j`` when no cell that a cell of ``i`` sweeps in its first step, moved by fewer
    than ``k`` steps, is a cell of ``j``. Directions are the ``steps`` in the order given,
    each followed by its opposite, as the search numbers them (``d ^ 1`` is ``d``'s
    opposite). Its pairs are kept as :class:`BlockingCache` keeps them (its ``pair``); only
    how a distance is worked out (``free``) differs."""

    def __init__(self, pieces: Sequence[Iterable[Cell]], steps: Sequence[Step],
                 swept: Callable[[Cell, Step], Iterable[Cell]]) -> None:
        import numpy as np  # the search that makes this cache has it loaded already

        self.steps = list(steps)
        self._np = np
        # per piece and direction: its cells as sorted codes of (line, position) (for it
        # as the one that blocks), and the cells it sweeps in one step less its own (for
        # it as the one that moves), rows of x y z
        self.codes: list[list[Any]] = []
        self.sweeps: list[list[Any]] = []
        for piece in pieces:
            cells = list(piece)
            own = set(cells)
            mine = np.array(cells, dtype=np.int64).reshape(-1, 3)
            codes, sweeps = [], []
            for step in self.steps:
                codes.append(np.sort(self._encode(mine, step)))
                swept_cells = sorted({s for cell in cells for s in swept(cell, step)} - own)
                sweeps.append(np.array(swept_cells, dtype=np.int64).reshape(-1, 3))
            self.codes.append(codes)
            self.sweeps.append(sweeps)
        self._pairs: dict[tuple[int, int, int, int, int],
                          tuple[tuple[int, ...], tuple[int, ...]]] = {}
        self.computed = 0

    def _encode(self, cells: Any, step: Step) -> Any:
        """Each cell's line along ``step`` and position on it (:func:`_along`) as one int64,
        ordered by line, then position: 15 bits a coordinate of the line's key and 16 of the
        position, offset to be non-negative (:data:`SPAN` bounds them)."""
        np = self._np
        axis = next(a for a in range(3) if step[a])
        k = np.floor_divide(cells[:, axis], step[axis])
        key = cells - k[:, None] * np.array(step, dtype=np.int64)
        if len(cells) and (np.abs(key).max() >= SPAN or np.abs(k).max() >= SPAN):
            raise ValueError("cells too far from the origin for the swept search's codes")
        line = ((key[:, 0] + SPAN) * (2 * SPAN) + key[:, 1] + SPAN) * (2 * SPAN) + key[:, 2] + SPAN
        return (line << 16) | (k + SPAN)

    def free(self, i: int, j: int, offset: Step) -> tuple[int, ...]:
        """How many steps piece ``i`` can slide in each direction while ``j``, at ``offset``
        relative to ``i``, stays put (:data:`FREE` when it never meets ``j``): each cell
        ``i`` sweeps, moved by ``-offset`` into ``j``'s frame, finds by its code the first
        cell of ``j`` on its line at or past it (a sorted search), and the least distance
        to one is the answer."""
        np = self._np
        self.computed += 1
        shift = np.array(offset, dtype=np.int64)
        result = []
        for d, step in enumerate(self.steps):
            theirs = self.codes[j][d]
            swept = self.sweeps[i][d]
            if not len(theirs) or not len(swept):
                result.append(FREE)
                continue
            codes = self._encode(swept - shift, step)
            at = np.searchsorted(theirs, codes)
            inside = at < len(theirs)
            found = theirs[np.minimum(at, len(theirs) - 1)]
            same = inside & ((found >> 16) == (codes >> 16))
            if not same.any():
                result.append(FREE)
                continue
            result.append(int(((found & 0xFFFF) - (codes & 0xFFFF))[same].min()))
        return tuple(result)


SPAN = 1 << 14  # |coordinate| of a line's key, and |position|, below this (see _encode)
