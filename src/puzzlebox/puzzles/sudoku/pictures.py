"""A sudoku as a picture: thin cell lines, thick lines around each box or jigsaw region,
givens in black, the digits a solution adds in blue (render/pictures.py lays it out)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from puzzlebox.render.pictures import Panel, ink_box

if TYPE_CHECKING:
    from puzzlebox.puzzles.sudoku.model import SudokuPuzzle

SUDOKU_PX, SUDOKU_FLOW = 40, 9.0  # pixels per cell; the least width of a row of panels
INK = "#1A1A1A"
FILLED = "#1F5FAF"  # digits a solution adds
THIN = "#B0B0B0"
PAPER = "#FFFFFF"


def grid_panel(puzzle: SudokuPuzzle, digits: Sequence[Sequence[int]] | None, title: str,
               kind: str) -> Panel:
    """The grid with its givens, and the solution's digits when ``digits`` is given."""
    n = puzzle.n
    regions = puzzle.regions
    Seg = tuple[tuple[float, float], tuple[float, float]]

    def paint(canvas: Any, x0: float, y0: float) -> None:
        canvas.rect(x0, y0, n, n, facecolor=PAPER, edgecolor="none", zorder=1)
        thin: list[Seg] = []
        thick: list[Seg] = []
        for r in range(n):
            for c in range(1, n):  # the line left of (r, c)
                seg = ((x0 + c, y0 + r), (x0 + c, y0 + r + 1))
                (thick if regions[r][c] != regions[r][c - 1] else thin).append(seg)
        for r in range(1, n):
            for c in range(n):  # the line above (r, c)
                seg = ((x0 + c, y0 + r), (x0 + c + 1, y0 + r))
                (thick if regions[r][c] != regions[r - 1][c] else thin).append(seg)
        canvas.segments(thin, THIN, canvas.line_width(0.02), 2)
        canvas.segments(thick, INK, canvas.line_width(0.06), 3)
        canvas.rect(x0, y0, n, n, facecolor="none", edgecolor=INK,
                    linewidth=canvas.line_width(0.08), zorder=3, gid=canvas.gid("board"))
        size = 0.6 / max(ink_box(s, "bold")[3] for s in puzzle.symbols)
        for r in range(n):
            for c in range(n):
                given = puzzle.givens.get((r, c))
                d = given if given is not None else (None if digits is None else digits[r][c])
                if d is None:
                    continue
                canvas.centred(x0 + c + 0.5, y0 + r + 0.5, puzzle.symbols[d], size,
                               color=INK if given is not None else FILLED,
                               fontweight="bold" if given is not None else "normal",
                               zorder=4)

    return Panel(kind, title, float(n), float(n), paint, SUDOKU_PX, SUDOKU_FLOW)
