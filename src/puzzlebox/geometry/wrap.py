"""Boards that wrap: a tube (one pair of opposite edges joined) or a torus (both pairs).

A wrapped board is still written as a flat grid; its cells keep their flat coordinates, and
a coordinate that runs past a joined edge comes back in at the other side (``fold``). That
is all the cover problem needs: a placement is a piece's flat cells folded (a piece may
cross the seam), the neighbours of a cell are folded, and the board's symmetries are the
lattice maps and translations that fold the board onto itself (a tube's turns about its
axis are the translations along the joined direction). The puzzle file says which edges
join (``[board] wrap``, puzzle-format.md "Boards that wrap").

Only flat lattices wrap, and only where the period is a translation of the lattice (on
triangle an up triangle must meet a down one across the seam: an even period). A board
whose joined direction is shorter than a piece just leaves that piece fewer placements:
a placement that would cover a cell twice is no placement.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from puzzlebox.geometry.lattice import Cell, Lattice, Point, Transform

# the notation of the file, each with the coordinates it joins (row = 0, col = 1) and words
WRAPS: dict[str, tuple[tuple[int, ...], str]] = {
    "left-right": ((1,), "the left edge joins the right edge (a tube)"),
    "top-bottom": ((0,), "the top edge joins the bottom edge (a tube)"),
    "both": ((0, 1), "left joins right and top joins bottom (a torus)"),
}


class WrapError(ValueError):
    """A wrap that this board or lattice cannot take; the message is one line."""


@dataclass(frozen=True)
class Wrap:
    """Which coordinates of a flat board are taken modulo a period, and from where.

    ``periods[i]`` is None for a coordinate that does not wrap; otherwise the board's extent
    along it (from its least to its greatest value, both included), and ``low[i]`` the least.
    """

    name: str  # "left-right", "top-bottom" or "both", as written in the file
    periods: tuple[int | None, ...]
    low: tuple[int, ...]

    @property
    def words(self) -> str:
        return WRAPS[self.name][1]

    def fold(self, cell: Cell) -> Cell:
        """The board cell that ``cell`` is on the wrapped board (itself off the seams)."""
        return tuple(
            v if p is None else lo + (v - lo) % p
            for v, p, lo in zip(cell, self.periods, self.low, strict=True)
        )

    def place(self, cells: Iterable[Cell]) -> tuple[Cell, ...] | None:
        """A piece's flat cells folded onto the board, sorted; None where two of them land on
        one cell (the piece is longer than the board is round)."""
        folded = [self.fold(cell) for cell in cells]
        if len(set(folded)) != len(folded):
            return None
        return tuple(sorted(folded))

    def neighbours(self, lattice: Lattice, cell: Cell) -> tuple[Cell, ...]:
        """The cells sharing a side with ``cell`` on the wrapped board (each once; a cell
        of a board one cell round is not its own neighbour)."""
        found: dict[Cell, None] = {}
        for near in lattice.neighbours(cell):
            near = self.fold(near)
            if near != cell:
                found.setdefault(near, None)
        return tuple(found)

    def period_vectors(self) -> list[Cell]:
        """One translation per joined direction: moving by it is the identity on the board."""
        vectors = []
        for i, p in enumerate(self.periods):
            if p is not None:
                vectors.append(tuple(p if j == i else 0 for j in range(len(self.periods))))
        return vectors

    def symmetries(self, lattice: Lattice, board: Mapping[Cell, str]
                   ) -> list[tuple[Transform, Cell]]:
        """Every map of the wrapped board onto itself as (point map, translation), the
        identity first: each point map of the lattice, followed by each translation (a
        lattice translation, folded) that puts the moved board back on the board with the
        same characters, where the map is well defined on the wrapped board (moving a cell
        by a period before or after mapping lands on the same cell). A tube has its turns
        about the axis among them, a torus its translations."""
        cells = sorted(board)
        vectors = self.period_vectors()
        colours = [board[cell] for cell in cells]
        result: list[tuple[Transform, Cell]] = []
        for turn in lattice.group():
            moved = [turn(cell) for cell in cells]
            # well defined: a cell and the cell a period away go to cells a whole number of
            # periods apart, whatever translation follows (it moves both alike)
            if any(self.fold(turn(tuple(v + d for v, d in zip(c, vec, strict=True))))
                   != self.fold(m) for c, m in zip(cells, moved, strict=True)
                   for vec in vectors):
                continue
            for shift in self._shifts(lattice, moved, cells):
                images = [self.fold(tuple(v + d for v, d in zip(m, shift, strict=True)))
                          for m in moved]
                if any(board.get(image) != colour
                       for image, colour in zip(images, colours, strict=True)):
                    continue
                if len(set(images)) == len(images):
                    result.append((turn, shift))
        return result

    def _shifts(self, lattice: Lattice, moved: list[Cell], cells: list[Cell]) -> list[Cell]:
        """Candidate translations after a point map: on a coordinate that does not wrap, the
        one that puts the moved board's least value back on the board's; on one that wraps,
        every residue of its period. Only translations of the lattice."""
        options: list[list[int]] = []
        for i, p in enumerate(self.periods):
            back = min(c[i] for c in cells) - min(m[i] for m in moved)
            options.append([back] if p is None else [back + k for k in range(p)])
        shifts: list[Cell] = [()]
        for values in options:
            shifts = [s + (v,) for s in shifts for v in values]
        return [s for s in shifts if lattice.can_translate(s)]

    def seam_edges(self, lattice: Lattice, board: Iterable[Cell]) -> list[tuple[Point, Point]]:
        """The sides on the flat drawing's border that the wrap joins to another board cell,
        in picture units: where a drawing marks the seam."""
        cells = set(board)
        edges = []
        for cell in sorted(cells):
            mine = lattice.polygon(cell)
            if mine is None:
                continue
            for near in lattice.neighbours(cell):
                if near in cells or self.fold(near) not in cells:
                    continue
                theirs = lattice.polygon(near) or []
                shared = [p for p in mine if any(_close(p, q) for q in theirs)]
                if len(shared) == 2:
                    edges.append((shared[0], shared[1]))
        return edges


def _close(p: Point, q: Point) -> bool:
    return abs(p[0] - q[0]) < 1e-9 and abs(p[1] - q[1]) < 1e-9


def make_wrap(name: str, lattice: Lattice, board: Iterable[Cell]) -> Wrap:
    """The wrap called ``name`` for ``board`` on ``lattice``; WrapError (one line) where the
    name is unknown, the lattice is not flat, or the period is no translation of it."""
    if name not in WRAPS:
        known = ", ".join(f'"{n}"' for n in WRAPS)
        raise WrapError(f"unknown wrap {name!r} (known: {known})")
    if lattice.dimensions != 2 or lattice.polygon((0, 0)) is None:
        raise WrapError(f"boards wrap on flat lattices only (square, triangle, hexagon), "
                        f"not on {lattice.name}")
    cells = list(board)
    axes = WRAPS[name][0]
    low = tuple(min(c[i] for c in cells) for i in range(2))
    periods: list[int | None] = [None, None]
    for i in axes:
        period = 1 + max(c[i] for c in cells) - low[i]
        periods[i] = period
        vector = tuple(period if j == i else 0 for j in range(2))
        if not lattice.can_translate(vector):
            what = "rows" if i == 0 else "columns"
            raise WrapError(f"a {lattice.name} board wraps only where it is an even number "
                            f"of {what} round (an up {lattice.cell_word} must meet a down "
                            f"one across the seam); this one is {period}")
    return Wrap(name, tuple(periods), low)
