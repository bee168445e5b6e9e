"""n-queens as a picture: a chessboard with the queens (render/pictures.py draws it)."""

from __future__ import annotations

from collections.abc import Collection, Sequence

from puzzlebox.render.palette import OUTLINE
from puzzlebox.render.pictures import Canvas, Panel, ink_box

QUEENS_PX, QUEENS_FLOW = 40, 8.0  # pixels per square; the least width of a row of panels
SQUARE_LIGHT = "#F0D9B5"
SQUARE_DARK = "#B58863"
HOLE = "#4A4A4A"  # a square no queen may take
QUEEN = "\u265b"  # black chess queen (DejaVu Sans has it)


def queens_panel(n: int, queens: Sequence[tuple[int, int]], title: str,
                 kind: str, holes: Collection[tuple[int, int]] = ()) -> Panel:
    """The board with ``queens`` on it (none: the empty board) and its holes, as one
    panel."""

    def paint(canvas: Canvas, x0: float, y0: float) -> None:
        canvas.rect(x0, y0, n, n, facecolor=SQUARE_LIGHT, edgecolor="none", zorder=1)
        dark = [
            [(c, r), (c + 1, r), (c + 1, r + 1), (c, r + 1)]
            for r in range(n)
            for c in range(n)
            if (r + c) % 2 == 1
        ]
        canvas.loops(dark, x0, y0, facecolor=SQUARE_DARK, edgecolor="none", zorder=1.5)  # type: ignore[arg-type]
        if holes:
            blank = [[(c, r), (c + 1, r), (c + 1, r + 1), (c, r + 1)] for r, c in sorted(holes)]
            canvas.loops(blank, x0, y0, facecolor=HOLE, edgecolor="none", zorder=2)  # type: ignore[arg-type]
        canvas.rect(x0, y0, n, n, facecolor="none", edgecolor=OUTLINE,
                    linewidth=canvas.line_width(0.05), zorder=3, gid=canvas.gid("board"))
        size = 0.72 / ink_box(QUEEN, "normal")[3]
        for i, (r, c) in enumerate(queens):
            canvas.centred(x0 + c + 0.5, y0 + r + 0.5, QUEEN, size, color="#000000",
                           fontweight="normal", zorder=4, gid=canvas.gid(f"queen-{i}"))

    return Panel(kind, title, float(n), float(n), paint, QUEENS_PX, QUEENS_FLOW)
