"""Polysticks as a picture: the board's sticks as thin grey lines with a dot at each grid
point, and each piece as thick round-capped line segments in its colour (render/pictures.py
lays the panels out). A grid point of the drawing is half a cell's step of the doubled
coordinates (geometry.py), so a unit stick is one cell long."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from puzzlebox.puzzles.polysticks.geometry import Stick, ends
from puzzlebox.render.palette import GRID_LINE, OUTLINE, piece_color
from puzzlebox.render.pictures import Canvas, Panel

STICKS_PX, STICKS_FLOW = 40, 8.0  # pixels per unit stick; the least width of a row of panels
MARGIN = 0.5  # cells of paper around the outermost points
BOARD_WIDTH = 0.06  # the board's sticks, in cells
PIECE_WIDTH = 0.22  # a piece's sticks, in cells
POINT_SIZE = 0.07  # the dots at the grid points, in cells

Segment = tuple[tuple[float, float], tuple[float, float]]


def sticks_panel(board: Iterable[Stick], pieces: Sequence[tuple[int, Sequence[Stick]]],
                 title: str, kind: str) -> Panel:
    """The board's sticks, and each piece (its colour number and its sticks) drawn on it."""
    board = sorted(board)
    points = {p for s in board for p in ends(s)}
    y0 = min(y for y, _ in points)
    x0 = min(x for _, x in points)
    width = (max(x for _, x in points) - x0) / 2 + 2 * MARGIN
    height = (max(y for y, _ in points) - y0) / 2 + 2 * MARGIN

    def segment(stick: Stick, ox: float, oy: float) -> Segment:
        a, b = ends(stick)
        return ((ox + (a[1] - x0) / 2, oy + (a[0] - y0) / 2),
                (ox + (b[1] - x0) / 2, oy + (b[0] - y0) / 2))

    def paint(canvas: Canvas, px: float, py: float) -> None:
        ox, oy = px + MARGIN, py + MARGIN
        canvas.segments([segment(s, ox, oy) for s in board], GRID_LINE,
                        canvas.line_width(BOARD_WIDTH), 2, gid=canvas.gid("board"))
        for y, x in sorted(points):
            canvas.rect(ox + (x - x0) / 2 - POINT_SIZE / 2, oy + (y - y0) / 2 - POINT_SIZE / 2,
                        POINT_SIZE, POINT_SIZE, facecolor=OUTLINE, edgecolor="none",
                        zorder=2.5)
        for i, (color, sticks) in enumerate(pieces):
            canvas.segments([segment(s, ox, oy) for s in sticks], piece_color(color),
                            canvas.line_width(PIECE_WIDTH), 3 + i * 1e-3, capstyle="round",
                            gid=canvas.gid(f"piece-{i}"))

    return Panel(kind, title, width, height, paint, STICKS_PX, STICKS_FLOW)
