"""How far one piece can slide along an axis before it touches another (the blocking relation).

Pieces are sets of cells: unit cubes (the square lattice is their one-layer case) or
triangular prisms (directions.py says how each lattice's cells lie on the lines of its axes).
Sliding a piece along an axis by ``k`` units passes through every cell between, so the piece
is free to move ``k`` units against another piece exactly when every cell of it has no cell
of the other piece among the next ``k`` cells of its line (``2k`` on the prism's plane).
The largest such ``k`` depends only on the two pieces and their relative offset, so it is
computed once per pair and offset and kept (:class:`BlockingCache`); a search meets the
same offsets again and again.
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Iterable, Sequence

from puzzlebox.disassembly.directions import cells_per_unit, line, vectors

Cell = tuple[int, int, int]
Offset = tuple[int, int, int]

FREE = 1 << 30  # "never blocked": the piece can slide away for ever in that direction


def _lines(cells: Iterable[Cell], dims: int, axis: int
           ) -> dict[tuple[int, int], list[int]]:  # fmt: skip
    """The piece's cells along ``axis``, grouped by the line they lie on (directions.py),
    each line's places sorted."""
    lines: dict[tuple[int, int], list[int]] = {}
    for cell in cells:
        key, place = line(dims, axis, cell)
        lines.setdefault(key, []).append(place)
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
    the axes the pieces may slide along (directions.py: ``dims`` 2 on the square lattice,
    3 on the cube, 4 for prisms in layers). Distances are in units of the axis (on the
    prism's plane a unit passes two cells).
    """

    def __init__(self, pieces: Sequence[Iterable[Cell]], dims: int = 3) -> None:
        self.dims = dims
        self.axes = len(vectors(dims))
        pieces = [list(piece) for piece in pieces]
        self.lines = [[_lines(piece, dims, axis) for axis in range(self.axes)]
                      for piece in pieces]
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
        for axis in range(self.axes):
            up = down = FREE
            across, along = line(self.dims, axis, offset)  # translations move lines whole
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
            unit = cells_per_unit(self.dims, axis)
            if unit > 1:  # free cells to whole units
                up = up if up >= FREE else up // unit
                down = down if down >= FREE else down // unit
            result.extend((up, down))
        value = tuple(result)
        self._cache[key] = value
        # the same pair seen from j: j moving up is i moving down, and back
        mirrored = tuple(value[d ^ 1] for d in range(len(value)))
        self._cache[(j, i, -offset[0], -offset[1], -offset[2])] = mirrored
        return value
