"""A designer's keys drawn: labelled cells, a piece's own rules, givens (#17).

Kept apart from the kind's text.py and pictures.py so that those only call in: each
function here takes a polyomino puzzle and returns lines of text, or paints on a picture's
canvas.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from puzzlebox.geometry.lattice import Cell
from puzzlebox.puzzles.labels import _lattice

if TYPE_CHECKING:
    from puzzlebox.puzzles.polyomino.model import PolyominoPuzzle, PolyominoSolution

LABEL_INK = "#333333"


def label_grid_lines(cells: dict[Cell, str], board: set[Cell]) -> list[str]:
    """The board with each labelled cell written as its label, columns padded to the
    longest label: ``#`` a board cell without a label, ``.`` no cell."""
    shown = dict.fromkeys(board, "#") | cells
    width = max(len(text) for text in shown.values())
    rows = [r for r, _ in shown]
    cols = [c for _, c in shown]
    return [
        " ".join(shown.get((r, c), ".").ljust(width)
                 for c in range(min(cols), max(cols) + 1)).rstrip()
        for r in range(min(rows), max(rows) + 1)
    ]  # fmt: skip


def designer_lines(puzzle: PolyominoPuzzle) -> list[str]:
    """What ``show`` adds for a designer's keys: each piece's own rules, the givens, the
    labels (the board drawn with them) and the declared sweep. Nothing for a file without."""
    out: list[str] = []
    own = [p for p in puzzle.pieces if p.rotate is not None or p.reflect is not None]
    if own:
        parts = []
        for p in own:
            rules = [f"{word}={'yes' if value else 'no'}"
                     for word, value in (("rotate", p.rotate), ("reflect", p.reflect))
                     if value is not None]
            parts.append(f"{p.name} ({', '.join(rules)})")
        out.append("own rules: " + "; ".join(parts))
    for given in puzzle.givens:
        out.append(f"given: {given.piece} on " + " ".join(str(list(c)) for c in given.cells))
    labels = puzzle.labels
    if labels is not None:
        out.append(f"labels ({', '.join(labels.groups)}):")
        texts = labels.cell_texts()
        if all(len(cell) == 2 for cell in puzzle.board):
            out += ["  " + line for line in label_grid_lines(texts, set(puzzle.board))]
        else:  # a solid board: each label with its cell
            out += [f"  {list(cell)} {text}" for cell, text in sorted(texts.items())]
        if labels.uncover:
            many = len(labels.combinations(labels.uncover))
            out.append(f"sweep: one label of each of {', '.join(labels.uncover)} left open "
                       f"({many} combinations)")
    return out


def open_label_lines(puzzle: PolyominoPuzzle, solution: PolyominoSolution) -> list[str]:
    """Under a solution's drawing: the labelled cells it leaves open (off its board)."""
    labels = puzzle.labels
    if labels is None:
        return []
    open_cells = sorted(set(labels.cell_texts()) - set(puzzle.board))
    texts = labels.cell_texts()
    if not open_cells:
        return []
    return ["open: " + ", ".join(f"{texts[c]} {list(c)}" for c in open_cells)]


def paint_labels(canvas: Any, puzzle: PolyominoPuzzle, ox: float, oy: float,
                 open_only: bool) -> None:
    """Each label written in its cell, at the centre of the cell's outline on the puzzle's
    lattice moved by (``ox``, ``oy``): on the empty board every board cell's, and on a
    solution (``open_only``) the open cells' (labelled cells off its board) that lie within
    the board's extent. The text shrinks to fit a cell."""
    labels = puzzle.labels
    if labels is None:
        return
    lattice = _lattice(puzzle)
    outline = [lattice.polygon(cell) for cell in puzzle.board]
    points = [p for polygon in outline if polygon for p in polygon]
    if not points:
        return  # a lattice not drawn flat (cube)
    left, right = min(x for x, _ in points), max(x for x, _ in points)
    top, bottom = min(y for _, y in points), max(y for _, y in points)
    for cell, text in sorted(labels.cell_texts().items()):
        polygon = lattice.polygon(cell)
        if polygon is None or (cell in puzzle.board) == open_only:
            continue
        cx = sum(x for x, _ in polygon) / len(polygon)
        cy = sum(y for _, y in polygon) / len(polygon)
        if not (left <= cx <= right and top <= cy <= bottom):
            continue
        size = min(0.36, 0.75 / max(len(text), 1))
        canvas.text(ox + cx, oy + cy, text, size, color=LABEL_INK, zorder=6,
                    fontweight="bold" if open_only else "normal")
