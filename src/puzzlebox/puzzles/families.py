"""Families of pieces defined by a rule rather than drawn one by one.

Parallelogram polyominoes
-------------------------
A parallelogram polyomino is the region between two lattice paths made of north and east
unit steps that start at the same point, end at the same point and meet nowhere else. Its
*semiperimeter* is half its perimeter, which is the number of steps of each path (its width
plus its height). There are Catalan(``sp - 1``) of them for semiperimeter ``sp`` (14, 42,
132 for 5, 6, 7), and their areas add up to ``4 ** (sp - 2)``, the area of a square of side
``2 ** (sp - 2)``: whether they tile that square is the question the catalog asks.

Here a parallelogram polyomino is built column by column: the columns are intervals
``[bottom, top]`` (heights measured upwards), the bottoms and the tops never go down from one
column to the next, and each column overlaps the one before it. That is the same region as
the one between the two paths: the upper path is the tops' staircase, the lower path the
bottoms', and they only meet at the corners because neighbouring columns overlap.

Polyforms
---------
Every polyform of ``n`` cells on a lattice (polyominoes, polyiamonds, polyhexes,
polycubes), grown cell by cell through the lattice's neighbours and told apart up to its
group (:func:`polyforms`): the 12 hexiamonds, the 7 tetrahexes, the 8 one-sided tetracubes
of which the Soma cube's six are made. Only the lattice interface is asked.
"""

from __future__ import annotations

from collections.abc import Iterator
from math import comb

from puzzlebox.geometry import Cell, Shape, normalize
from puzzlebox.geometry.lattice import Lattice


def catalan(n: int) -> int:
    """The n-th Catalan number (1, 1, 2, 5, 14, 42, 132, ...)."""
    return comb(2 * n, n) // (n + 1)


def _column_stacks(
    columns: list[tuple[int, int]], steps_left: int
) -> Iterator[list[tuple[int, int]]]:
    """Every way to finish a column stack whose semiperimeter budget is ``steps_left``.

    ``steps_left`` counts the unit steps still to spend: one per new column, plus one per
    unit the overall top rises.
    """
    if steps_left == 0:
        yield list(columns)
        return
    bottom, top = columns[-1]
    # a new column: bottom in [bottom, top] (overlap), top at least the old top
    for new_bottom in range(bottom, top + 1):
        for new_top in range(top, top + steps_left):
            rise = new_top - top
            columns.append((new_bottom, new_top))
            yield from _column_stacks(columns, steps_left - 1 - rise)
            columns.pop()


def parallelogram_polyominoes(semiperimeter: int) -> list[Shape]:
    """Every parallelogram polyomino of the given semiperimeter, as shapes (row 0 on top).

    Sorted by area (largest first), then by their drawing, so the order is stable.
    """
    if semiperimeter < 2:
        raise ValueError("a parallelogram polyomino has semiperimeter at least 2")
    shapes: list[Shape] = []
    # the first column is [0, h-1]: it spends one step for its width and h for its height
    for first_height in range(1, semiperimeter):
        for stack in _column_stacks([(0, first_height - 1)], semiperimeter - 1 - first_height):
            top = stack[-1][1]
            cells: dict[Cell, str] = {
                (top - y, x): "#"
                for x, (bottom, upper) in enumerate(stack)
                for y in range(bottom, upper + 1)
            }
            shapes.append(normalize(cells))
    shapes.sort(key=lambda s: (-len(s), s.to_text()))
    return shapes


def family_board_side(semiperimeter: int) -> int:
    """The side of the square whose area equals the family's total area."""
    return 2 ** (semiperimeter - 2)


def polyforms(lattice: Lattice, size: int, reflect: bool = True) -> list[Shape]:
    """Every polyform of ``size`` cells on ``lattice``, one per class under its rotations
    (and mirror images with ``reflect``: free; without: one-sided), each in the least of its
    orientations, sorted by their cells. Grown from one cell, a neighbour at a time: each
    polyform of ``size`` cells is a polyform of ``size - 1`` cells and one neighbour."""
    if size < 1:
        raise ValueError("a polyform has at least one cell")
    origin: Cell = (0,) * lattice.dimensions
    grown = {lattice.normalize({origin: "#"})}
    for _ in range(size - 1):
        bigger: set[Shape] = set()
        for shape in grown:
            cells = set(shape.cells)
            for cell in cells:
                for near in lattice.neighbours(cell):
                    if near not in cells:
                        bigger.add(lattice.normalize(dict.fromkeys(cells | {near}, "#")))
        grown = {_least(lattice, shape, reflect) for shape in bigger}
    return sorted(grown, key=lambda shape: shape.cells)


def _least(lattice: Lattice, shape: Shape, reflect: bool) -> Shape:
    return min(lattice.orientations(shape, True, reflect), key=lambda s: s.cells)
