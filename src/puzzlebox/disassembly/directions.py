"""The directions pieces slide along, per lattice: which axes, and the cells a slide passes.

The search (search.py) works on cells written ``(x, y, z)`` and moves a group of pieces
``k`` units along an axis, both ways. ``dims`` names the set of axes (the number of them):

* 2, square: x (the columns) and y (the rows), one cell a unit;
* 3, cube: x, y and z (the layers), one cell a unit;
* 4 (:data:`PRISM`), triangular prisms in layers (#37): cells are written ``x = col``,
  ``y = -row``, ``z = layer`` (y counts up the picture, as BurrTools' grid type 1 does), a
  prism points up when ``x + y`` is even. The axes are the layers and the three directions
  of the triangle lattice's edges, in BurrTools' order: ``z``, ``(0, 0, 1)``; ``x`` along a
  row, the unit ``(2, 0, 0)``; ``u`` up to the right at 60 degrees, ``(1, 1, 0)``; ``v`` up
  to the left at 120 degrees, ``(-1, 1, 0)``. A unit move in the plane takes a prism to the next
  prism pointing its way: it passes through the two triangles of its strip ahead of it
  (the one pointing the other way, then the one it lands on), so a slide of ``k`` units
  needs the next ``2k`` cells of the strip free. BurrTools moves prisms the same four
  ways (its movement cache for grid type 1), and the search tries them in its order, so
  that it meets the separation BurrTools meets first.

Each axis cuts the cells into *lines* (a row, a strip at 60 or 120 degrees, a column of
layers): :func:`line` gives a cell's line and its place along it, counted so that the
cells a slide passes are the next places of the line; :func:`cells_per_unit` says how many
places a unit is. Translations of the lattice move lines onto lines, so two pieces' free
distance depends only on their offset (the blocking cache's key).

The compiled searches (C and numba) know only the axis-aligned sets (2 and 3); the prism's
runs on the Python reference of the step (:func:`compiled`).
"""

from __future__ import annotations

Cell = tuple[int, int, int]

PRISM = 4

_VECTORS: dict[int, tuple[Cell, ...]] = {
    2: ((1, 0, 0), (0, 1, 0)),
    3: ((1, 0, 0), (0, 1, 0), (0, 0, 1)),
    PRISM: ((0, 0, 1), (2, 0, 0), (1, 1, 0), (-1, 1, 0)),
}
_NAMES: dict[int, str] = {2: "xy", 3: "xyz", PRISM: "zxuv"}


def known(dims: int) -> bool:
    return dims in _VECTORS


def vectors(dims: int) -> tuple[Cell, ...]:
    """One unit step along each axis, in the search's ``(x, y, z)``."""
    return _VECTORS[dims]


def compiled(dims: int) -> bool:
    """Whether the compiled searches handle these axes (the axis-aligned ones)."""
    return dims in (2, 3)


def cells_per_unit(dims: int, axis: int) -> int:
    """How many cells of its line a unit move passes: 2 in the prism's plane, else 1."""
    return 2 if dims == PRISM and axis > 0 else 1


def line(dims: int, axis: int, cell: Cell) -> tuple[tuple[int, int], int]:
    """The line of ``axis`` that ``cell`` lies on (a key) and its place along the line."""
    x, y, z = cell
    if dims != PRISM or axis == 0:
        a = axis if dims != PRISM else 2
        return (cell[(a + 1) % 3], cell[(a + 2) % 3]), cell[a]
    down = (x + y) & 1
    if axis == 1:
        return (y, z), x
    if axis == 2:  # (1, 1): up, its right neighbour (down), the up one above that, ...
        return (x - y - down, z), x + y
    return (x + y + down, z), y - x  # (-1, 1): up, its left neighbour, the up one above


def direction_name(vector: tuple[int, int, int]) -> tuple[str, int]:
    """The axis letter of a unit step and its sign (+1 or -1), for the move's words."""
    for dims, steps in _VECTORS.items():
        for axis, step in enumerate(steps):
            for sign in (1, -1):
                if tuple(sign * v for v in step) == tuple(vector):
                    return _NAMES[dims][axis], sign
    raise ValueError(f"no axis has the step {vector}")


def to_search(cell: tuple[int, ...], dims: int) -> Cell:
    """A lattice cell (``[row, col]`` or ``[layer, row, col]``) as the search writes it."""
    if dims == 2:
        return (cell[1], cell[0], 0)
    if dims == PRISM:
        return (cell[2], -cell[1], cell[0])
    return (cell[2], cell[1], cell[0])


def to_lattice(vector: tuple[int, int, int], dims: int) -> list[int]:
    """A step of the search's ``(x, y, z)`` in the lattice's coordinates."""
    x, y, z = vector
    if dims == 2:
        return [y, x]
    if dims == PRISM:
        return [z, -y, x]
    return [z, y, x]
