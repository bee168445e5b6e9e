"""Polyominoes as text: letter grids on any lattice, piece outlines, the board and pieces.

Built on render/text.py's lattice layouts (``layout``, ``layout_lines``), which place each
cell's mark where the lattice draws the cell.
"""

from __future__ import annotations

import string
from typing import TYPE_CHECKING

from puzzlebox.geometry.lattice import Cell
from puzzlebox.render.text import (
    HOLE,
    grid_extent,
    layout,
    layout_lines,
    offset_note,
    side_by_side,
)

if TYPE_CHECKING:
    from puzzlebox.puzzles.polyomino.model import PolyominoPuzzle, PolyominoSolution

SYMBOLS = string.ascii_uppercase + string.ascii_lowercase + string.digits


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
        if puzzle.lattice.unit_squares:
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
    if not puzzle.lattice.unit_squares:
        found = _letters(puzzle, solution, per_copy=True)
        assert found is not None  # _letters falls back to piece letters off squares
        return found[0]
    owner = solution.owner_grid()
    rows, cols = grid_extent(set(puzzle.board))

    def who(r: int, c: int) -> int | None:
        return owner.get((r, c), -1 if (r, c) in puzzle.board else None)

    wrap = puzzle.wrap

    def side(a: Cell, b: Cell, line: str, seam: str) -> str:
        """The side between cells ``a`` and ``b``: ``line`` where it is a wall, blank
        inside a piece; on a seam of a board that wraps (#27), ``seam`` where one piece
        crosses it and ``line`` where two pieces meet there."""
        here, there = who(*a), who(*b)
        if wrap is not None and (here is None) != (there is None):
            off, inside = (a, there) if here is None else (b, here)
            folded = wrap.fold(off)
            if folded != off and folded in puzzle.board:
                return seam if owner.get(folded, -1) == inside else line
        return line if here != there else " "

    lines = ["".join(" " + side((rows.start - 1, c), (rows.start, c), "_", ".")
                     for c in cols) + " "]
    for r in rows:
        out = []
        for c in cols:
            out.append(side((r, c - 1), (r, c), "|", ":"))
            out.append(side((r, c), (r + 1, c), "_", "."))
        out.append(side((r, cols.stop - 1), (r, cols.stop), "|", ":"))
        lines.append("".join(out))
    return lines


def wrap_note(puzzle: PolyominoPuzzle, outline: bool = False) -> list[str]:
    """Under a drawing of a board that wraps: which edges join, and in an outline how the
    seam is marked where a piece crosses it (``:`` on a side, ``.`` on the top or bottom)."""
    if puzzle.wrap is None:
        return []
    marks = {"left-right": ":", "top-bottom": ".", "both": ": and ."}[puzzle.wrap.name]
    how = f"; {marks} on the border: a piece crossing the seam" if outline else ""
    return [f"(wrap: {puzzle.wrap.words}{how})"]


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
    if puzzle.wrap is not None:
        out.append(f"  (wrap = \"{puzzle.wrap.name}\": {puzzle.wrap.words})")
    rules = [
        f"rotate={'yes' if puzzle.rotate else 'no'}",
        f"reflect={'yes' if puzzle.reflect else 'no'}",
    ]
    if puzzle.match_colors:
        rules.append("colours must match")
    if puzzle.match_colors and puzzle.neutral is not None:  # #24
        rules.append(f"{puzzle.neutral} goes with any colour")
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
