"""Solutions and puzzles as plain text: letter grids, piece outlines, card grids, queens.

The functions for one kind are pure and are called by that kind's own drawing methods
(``Puzzle.text_lines``, ``Puzzle.describe_lines``); :func:`solution_lines` and
:func:`describe` ask the puzzle, so nothing here asks which kind a puzzle is.
"""

from __future__ import annotations

import string
from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING

from puzzlebox.geometry.lattice import Cell, Lattice

if TYPE_CHECKING:
    from puzzlebox.puzzles import (
        EdgeMatchingPuzzle,
        EdgeMatchingSolution,
        PolyominoPuzzle,
        PolyominoSolution,
        Puzzle,
        QueensPuzzle,
        QueensSolution,
        Solution,
    )

SYMBOLS = string.ascii_uppercase + string.ascii_lowercase + string.digits
HOLE = "."


def piece_symbols(puzzle: PolyominoPuzzle) -> dict[str, str]:
    """One character per piece: its name when every name is one character, else A, B, ..."""
    names = [p.name for p in puzzle.pieces]
    if all(len(n) == 1 and n not in ". " for n in names):
        return {n: n for n in names}
    return {n: SYMBOLS[i % len(SYMBOLS)] for i, n in enumerate(names)}


def legend(puzzle: PolyominoPuzzle) -> str | None:
    """``A=name B=name`` when the grid does not show piece names themselves."""
    symbols = piece_symbols(puzzle)
    if all(symbols[n] == n for n in symbols):
        return None
    return " ".join(f"{s}={n}" for n, s in symbols.items())


def _extent(cells: set[Cell]) -> tuple[range, range]:
    rows = [r for r, _ in cells]
    cols = [c for _, c in cells]
    return range(min(rows), max(rows) + 1), range(min(cols), max(cols) + 1)


def grid_lines(cells: dict[Cell, str], blank: str = HOLE) -> list[str]:
    """Draw ``{cell: character}`` over its bounding box, ``blank`` elsewhere (square grid)."""
    rows, cols = _extent(set(cells))
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


def copy_symbols(puzzle: PolyominoPuzzle, solution: PolyominoSolution) -> list[str] | None:
    """One character per placement, so that copies of one piece (which a piece's letter
    would draw as one solid block) are told apart: each piece's copies take consecutive
    symbols, in the order of the pieces, each piece's copies from the top left. None when
    there are more placements than symbols."""
    order = {p.name: i for i, p in enumerate(puzzle.pieces)}
    ranked = sorted(range(len(solution.placements)),
                    key=lambda i: (order[solution.placements[i].piece],
                                   min(solution.placements[i].cells)))
    if len(ranked) > len(SYMBOLS):
        return None
    symbols = [""] * len(ranked)
    for symbol, i in zip(SYMBOLS, ranked, strict=False):
        symbols[i] = symbol
    return symbols


def _copies_legend(solution: PolyominoSolution, symbols: list[str]) -> str:
    """``A-J=Y`` for each piece: which symbols are its copies."""
    by_piece: dict[str, list[str]] = {}
    for placement, symbol in zip(solution.placements, symbols, strict=True):
        by_piece.setdefault(placement.piece, []).append(symbol)
    parts = []
    for piece, marks in by_piece.items():
        marks.sort(key=SYMBOLS.index)
        shown = marks[0] if len(marks) == 1 else f"{marks[0]}-{marks[-1]}"
        parts.append((SYMBOLS.index(marks[0]), f"{shown}={piece}"))
    return " ".join(part for _, part in sorted(parts))


def _marks(puzzle: PolyominoPuzzle, solution: PolyominoSolution,
           per_copy: bool) -> tuple[list[str], list[str]] | None:
    """The character of each placement and the lines under the drawing (a legend).

    Each piece its own letter when every piece is placed once and named by one character
    (and ``per_copy`` is not asked for); otherwise each placement its own character and a
    legend line (``A-J=Y``) under the grid, so copies of a piece stay apart. None when there
    are more placements than characters."""
    counts: dict[str, int] = {}
    for p in solution.placements:
        counts[p.piece] = counts.get(p.piece, 0) + 1
    symbols = piece_symbols(puzzle)
    if not per_copy and all(n == 1 for n in counts.values()) and legend(puzzle) is None:
        return [symbols[p.piece] for p in solution.placements], []
    marks = copy_symbols(puzzle, solution)
    if marks is None:
        return None
    return marks, ["", _copies_legend(solution, marks)]


def _piece_marks(puzzle: PolyominoPuzzle, solution: PolyominoSolution) -> tuple[list[str],
                                                                                 list[str]]:
    """Each placement drawn by its piece's character (copies look alike), with the legend
    of piece characters where they are not the names."""
    symbols = piece_symbols(puzzle)
    said = legend(puzzle)
    return [symbols[p.piece] for p in solution.placements], ["", said] if said else []


def _letters(puzzle: PolyominoPuzzle, solution: PolyominoSolution, per_copy: bool
             ) -> tuple[list[str], list[list[Cell | None]]] | None:
    found = _marks(puzzle, solution, per_copy)
    if found is None:
        if puzzle.lattice.name == "square":
            return None
        found = _piece_marks(puzzle, solution)
    marks, below = found
    cells = {cell: mark for p, mark in zip(solution.placements, marks, strict=True)
             for cell in p.cells}
    for cell in puzzle.board:
        cells.setdefault(cell, "?")  # a cell left uncovered (cannot happen in a solution)
    text, owners = layout(puzzle.lattice, cells)
    return text + below, owners


def letter_lines(puzzle: PolyominoPuzzle, solution: PolyominoSolution) -> list[str]:
    """The board with each cell drawn by the character of the placement covering it, on
    its lattice (:func:`layout`).

    Each piece its own letter when every piece is placed once and named by one character;
    otherwise each placement its own character and a legend line (``A-J=Y``) under the grid,
    so copies of a piece stay apart. With more placements than characters: the outlines on
    squares; elsewhere each piece's character for all its copies (there is no outline
    drawing there, see :func:`outline_lines`)."""
    found = _letters(puzzle, solution, per_copy=False)
    if found is None:
        return outline_lines(puzzle, solution)
    return found[0]


def letter_owners(puzzle: PolyominoPuzzle,
                  solution: PolyominoSolution) -> list[list[int | None]] | None:
    """Which placement each character of :func:`letter_lines`'s drawing shows (None for
    blanks, spacers, headings), line by line; None when the drawing is the outlines."""
    found = _letters(puzzle, solution, per_copy=False)
    if found is None:
        return None
    owner = solution.owner_grid()
    return [[None if cell is None else owner.get(cell) for cell in line] for line in found[1]]


def outline_lines(puzzle: PolyominoPuzzle, solution: PolyominoSolution) -> list[str]:
    """Piece boundaries drawn with ``_`` and ``|``, two characters per cell, on squares.

    On other lattices there is no such drawing: triangles and hexagons have slanted sides
    that ``/`` and ``\\`` draw only at a size where a piece no longer reads as a whole, and
    a solid's layers are squares whose pieces run across layers. What an outline is for,
    seeing where each placed piece ends, is given there by letters: each placement its own
    character (``A-J=Y`` under the drawing), even when every piece is placed once."""
    if puzzle.lattice.name != "square":
        found = _letters(puzzle, solution, per_copy=True)
        assert found is not None  # _letters falls back to piece letters off squares
        return found[0]
    owner = solution.owner_grid()
    rows, cols = _extent(set(puzzle.board))

    def who(r: int, c: int) -> int | None:
        return owner.get((r, c), -1 if (r, c) in puzzle.board else None)

    def wall(a: int | None, b: int | None) -> bool:
        return a != b

    lines = [
        "".join(" " + ("_" if who(rows.start, c) is not None else " ") for c in cols) + " "
    ]
    for r in rows:
        out = []
        for c in cols:
            out.append("|" if wall(who(r, c - 1), who(r, c)) else " ")
            out.append("_" if wall(who(r, c), who(r + 1, c)) else " ")
        out.append("|" if who(r, cols.stop - 1) is not None else " ")
        lines.append("".join(out))
    return lines


def card_lines(puzzle: EdgeMatchingPuzzle, solution: EdgeMatchingSolution) -> list[str]:
    """Each card as a small box: its turned labels around its name."""
    at = {(p.row, p.col): p for p in solution.placements}
    width = max(
        [len(label) for labels in puzzle.cards.values() for label in labels]
        + [len(name) for name in puzzle.cards]
    )
    from puzzlebox.puzzles.edge_matching import turned

    names = max(len(name) for name in puzzle.cards) + (3 if puzzle.rotate else 0)
    cell = 2 * width + names + 2
    lines = []
    for r in range(puzzle.rows):
        top, mid, bottom = [], [], []
        for c in range(puzzle.cols):
            p = at[(r, c)]
            t, right, b, left = turned(puzzle.cards[p.card], p.turns)
            top.append(t.center(cell))
            name = p.card + ("'" * p.turns)
            mid.append(f"{left.rjust(width)} {name.center(names)} {right.ljust(width)}")
            bottom.append(b.center(cell))
        lines += ["|".join(top), "|".join(mid), "|".join(bottom), "-" * ((cell + 1) * puzzle.cols)]
    lines[-1:] = ["", CARD_KEY] if puzzle.rotate else []
    return lines


CARD_KEY = ("each card: its name, its edge labels around it as placed; a ' after the name "
            "for each quarter turn clockwise it was given")


def queens_lines(puzzle: QueensPuzzle, solution: QueensSolution) -> list[str]:
    queens = set(solution.queens)
    return [
        " ".join("Q" if (r, c) in queens else "." for c in range(puzzle.n))
        for r in range(puzzle.n)
    ]


def solution_lines(puzzle: Puzzle, solution: Solution, style: str = "text") -> list[str]:
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


def describe(puzzle: Puzzle) -> list[str]:
    """The puzzle itself: board and pieces (or cards, or the queens' board size)."""
    return puzzle.describe_lines()


def describe_polyomino(puzzle: PolyominoPuzzle) -> list[str]:
    """A polyomino puzzle's board, its rules and its pieces with their counts."""
    label = f"board {puzzle.board_name}" if puzzle.board_name else "board"
    marks = sorted(set(puzzle.board.values()))
    cover = f"{', '.join(marks)}: a cell to cover" + (", by colour" if len(marks) > 1 else "")
    lattice = puzzle.lattice
    out = [f"{label} ({len(puzzle.board)} cells):"]
    out += [("  " + line).rstrip() for line in layout_lines(lattice, puzzle.board)]
    out.append(f"  ({cover}; {HOLE}: no cell)")
    note = offset_note(lattice)
    if note is not None:
        out.append(f"  {note}")
    rules = [
        f"rotate={'yes' if puzzle.rotate else 'no'}",
        f"reflect={'yes' if puzzle.reflect else 'no'}",
    ]
    if puzzle.match_colors:
        rules.append("colours must match")
    out.append(f"pieces ({', '.join(rules)}):")
    blocks = []
    for piece in puzzle.pieces:
        if piece.hi is None:
            count = f"{piece.lo}+" if piece.lo else "any"
        elif piece.lo == piece.hi:
            count = str(piece.lo)
        else:
            count = f"{piece.lo}-{piece.hi}"
        shape = piece.shape.color_map()
        headings = len({lattice.text_position(cell)[0] for cell in shape}) > 1
        blocks.append([f"{piece.name} x{count}"] + layout_lines(lattice, shape,
                                                                headings=headings))
    out += [("  " + line).rstrip() for line in side_by_side(blocks, per_row=6)]
    return out


def describe_cards(puzzle: EdgeMatchingPuzzle) -> list[str]:
    """An edge-matching puzzle's board, its cards, complements and rules."""
    out = [f"board {puzzle.rows} x {puzzle.cols}" + (
        f", border label {puzzle.border!r}" if puzzle.border is not None else ""
    )]  # fmt: skip
    out.append("cards (top right bottom left):")
    out += [f"  {name}: {' '.join(labels)}" for name, labels in puzzle.cards.items()]
    if puzzle.complements:
        pairs = sorted({tuple(sorted(p)) for p in puzzle.complements.items()})
        out.append("complements: " + ", ".join(f"{a}<->{b}" for a, b in pairs))
    out.append(f"cards may turn: {'yes' if puzzle.rotate else 'no'}")
    return out
