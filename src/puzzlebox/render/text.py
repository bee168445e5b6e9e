"""Text drawings: cells laid out on any lattice, blocks side by side, and the two doors.

A kind's own text module (``puzzles/<kind>/text.py``) draws its solutions and its puzzle
with these helpers; :func:`solution_lines` and :func:`describe` ask the puzzle
(``Puzzle.text_lines``, ``Puzzle.describe_lines``), so nothing here knows a kind.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, Any

from puzzlebox.geometry.lattice import Cell, Lattice

if TYPE_CHECKING:
    from puzzlebox.render.drawable import Drawable

HOLE = "."


def grid_extent(cells: set[Cell]) -> tuple[range, range]:
    """The rows and the columns that square-grid cells span."""
    rows = [r for r, _ in cells]
    cols = [c for _, c in cells]
    return range(min(rows), max(rows) + 1), range(min(cols), max(cols) + 1)


def grid_lines(cells: dict[Cell, str], blank: str = HOLE) -> list[str]:
    """Draw ``{cell: character}`` over its bounding box, ``blank`` elsewhere (square grid)."""
    rows, cols = grid_extent(set(cells))
    return ["".join(cells.get((r, c), blank) for c in cols) for r in rows]


# -- any lattice ---------------------------------------------------------------------------
#
# Where a cell's character goes comes from ``lattice.text_position``: the place it had in
# the grid string it was read from, so a letter drawing reads like the file. Two choices:
#
# * hexagon: row r is moved r half-cells to the right and the cells of a row stand two
#   columns apart (``2 * q + r``). Axial rows written flush left shear the picture (a
#   straight line of hexagons down-left looks like a diagonal, one down-right like a
#   column); offset, each character sits where its hexagon's centre is, so the seven-cell
#   hexagon ``.##/###/##.`` prints as `` A A / B A C / B C`` and reads as a hexagon. The
#   price: a drawing is not a grid string to paste into a file (``show`` says so).
# * cube: each layer is drawn as a square grid over the whole board's rows and columns,
#   layers one under another from the bottom one (as a file lists them), each under a
#   ``layer k`` heading, an empty line between.

Place = tuple[int, int, int]


def _offset_rows(lattice: Lattice) -> bool:
    """Whether rows are drawn offset by half a cell per row (hexagon, see above)."""
    return lattice.name == "hexagon"


def offset_note(lattice: Lattice) -> str | None:
    """The line under a drawing of a board with offset rows, which says why the rows do not
    read as the file's grid string; None where rows are drawn as written."""
    if not _offset_rows(lattice):
        return None
    return ("(each row drawn half a cell right of the one above, as the hexagons lie; a file "
            "writes rows flush left)")


def text_places(lattice: Lattice, cells: Iterable[Cell]) -> dict[Cell, Place]:
    """``(layer, line, column)`` of each cell's character, lines and columns counted from
    the cells' smallest ones."""
    places = {cell: lattice.text_position(cell) for cell in cells}
    if _offset_rows(lattice):
        places = {cell: (k, line, 2 * col + line) for cell, (k, line, col) in places.items()}
    line0 = min(p[1] for p in places.values())
    col0 = min(p[2] for p in places.values())
    return {cell: (k, line - line0, col - col0) for cell, (k, line, col) in places.items()}


def layer_heading(layer: int, layers: Sequence[int]) -> str:
    where = " (bottom)" if layer == layers[0] else " (top)" if layer == layers[-1] else ""
    return f"layer {layer}{where if len(layers) > 1 else ''}"


def layout(lattice: Lattice, marks: dict[Cell, str], blank: str = HOLE,
           headings: bool = True) -> tuple[list[str], list[list[Cell | None]]]:
    """``{cell: character}`` drawn as lines of text on its lattice, and for each line the
    cell under each character (None for a blank, a spacer or a heading).

    Positions inside the drawing that are not cells of ``marks`` get ``blank``; on hexagon
    the positions between two cells of a row are spaces, and trailing spaces are cut. On
    cube each layer gets a ``layer k`` heading when ``headings``."""
    places = text_places(lattice, marks)
    at = {place: cell for cell, place in places.items()}
    layers = sorted({p[0] for p in places.values()})
    lines_n = 1 + max(p[1] for p in places.values())
    cols_n = 1 + max(p[2] for p in places.values())
    offset = _offset_rows(lattice)
    parity = {(p[1] + p[2]) % 2 for p in places.values()}.pop() if offset else 0
    text: list[str] = []
    owners: list[list[Cell | None]] = []
    solid = lattice.dimensions == 3
    for n, layer in enumerate(layers):
        if solid:
            if n:
                text.append("")
                owners.append([])
            if headings:
                heading = layer_heading(layer, layers)
                text.append(heading)
                owners.append([None] * len(heading))
        for line in range(lines_n):
            chars: list[str] = []
            cells: list[Cell | None] = []
            for col in range(cols_n):
                cell = at.get((layer, line, col))
                cells.append(cell)
                if cell is not None:
                    chars.append(marks[cell])
                elif offset and (line + col) % 2 != parity:
                    chars.append(" ")
                else:
                    chars.append(blank)
            if offset:
                while chars and chars[-1] == " ":
                    chars.pop()
                    cells.pop()
            text.append("".join(chars))
            owners.append(cells)
    return text, owners


def layout_lines(lattice: Lattice, marks: dict[Cell, str], blank: str = HOLE,
                 headings: bool = True) -> list[str]:
    """The lines of :func:`layout`."""
    return layout(lattice, marks, blank, headings)[0]


def table_lines(lattice: Lattice, marks: dict[Cell, str], cells: Iterable[Cell],
                blank: str = HOLE) -> list[str]:
    """``{cell: text}`` with texts of any width (a sweep's counts) drawn as :func:`layout`
    places cells, over the extent of ``cells`` (a board): each text right-aligned in a field
    as wide as the widest, fields a space apart, ``blank`` for a place with no text.

    On hexagon a row still sits half a cell right of the one above (half a field, rounded
    up, so that cells of a row stay a space apart), so a map of answers reads as the
    hexagons lie, as a solution's letters do; on cube, layers under ``layer k`` headings
    with an empty line between, as :func:`layout` draws them."""
    places = text_places(lattice, {*cells, *marks})
    width = max([len(blank), *(len(text) for text in marks.values())])
    offset = _offset_rows(lattice)
    unit = -(-(width + 1) // 2) if offset else width + 1  # characters per column of places
    at = {place: cell for cell, place in places.items()}
    layers = sorted({p[0] for p in places.values()})
    lines_n = 1 + max(p[1] for p in places.values())
    cols_n = 1 + max(p[2] for p in places.values())
    parity = {(p[1] + p[2]) % 2 for p in places.values()}.pop() if offset else 0
    out: list[str] = []
    for n, layer in enumerate(layers):
        if lattice.dimensions == 3:
            out += [""] if n else []
            out.append(layer_heading(layer, layers))
        for line in range(lines_n):
            text = ""
            for col in range(cols_n):
                cell = at.get((layer, line, col))
                if cell is None and offset and (line + col) % 2 != parity:
                    continue  # between two hexagons of a row: no place
                shown = blank if cell is None else marks.get(cell, blank)
                text = text.ljust(col * unit) + shown.rjust(width)
            out.append(text.rstrip())
    return out


def solution_lines(puzzle: Drawable, solution: Any, style: str = "text") -> list[str]:
    """A solution as lines of text; ``style`` is ``text`` or ``outline`` (polyominoes)."""
    return puzzle.text_lines(solution, style)


def side_by_side(blocks: list[list[str]], per_row: int = 5, gap: int = 3) -> list[str]:
    """Lay out several drawings in rows of ``per_row``, like a puzzle-hunt page."""
    lines: list[str] = []
    for start in range(0, len(blocks), per_row):
        group = blocks[start : start + per_row]
        height = max(len(b) for b in group)
        widths = [max((len(line) for line in b), default=0) for b in group]
        if lines:
            lines.append("")
        for i in range(height):
            parts = [(b[i] if i < len(b) else "").ljust(w) for b, w in zip(group, widths)]
            lines.append((" " * gap).join(parts).rstrip())
    return lines


def describe(puzzle: Drawable) -> list[str]:
    """The puzzle itself: board and pieces (or cards, or the queens' board size)."""
    return puzzle.describe_lines()


