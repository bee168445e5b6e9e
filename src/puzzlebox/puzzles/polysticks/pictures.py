"""Polysticks as a picture: the board's sticks as thin grey lines with a dot at each grid
point, and each piece as thick round-capped line segments in its colour (render/pictures.py
lays the panels out). The grid (geometry.py) says where each point is drawn; a unit stick
is one cell long on squares and triangles alike."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence

from puzzlebox.puzzles.polysticks.geometry import SQUARE, Point, Stick, StickGrid
from puzzlebox.render.palette import GRID_LINE, OUTLINE, piece_color
from puzzlebox.render.pictures import Canvas, Panel, title_height

STICKS_PX, STICKS_FLOW = 40, 8.0  # pixels per unit stick; the least width of a row of panels
MARGIN = 0.5  # cells of paper around the outermost points
BOARD_WIDTH = 0.06  # the board's sticks, in cells
PIECE_WIDTH = 0.22  # a piece's sticks, in cells
POINT_SIZE = 0.07  # the dots at the grid points, in cells
TITLE_EM = 0.6  # a title character's width, in title heights
GAP = 0.16  # a piece's free ends stop short of their points, so that pieces stand apart

Segment = tuple[tuple[float, float], tuple[float, float]]


def sticks_panel(board: Iterable[Stick], pieces: Sequence[tuple[int, Sequence[Stick]]],
                 title: str, kind: str, grid: StickGrid = SQUARE) -> Panel:
    """The board's sticks, and each piece (its colour number and its sticks) drawn on it."""
    board = sorted(board)
    points = {p for s in board for p in grid.ends(s)}
    where = {p: grid.plane(p) for p in points}
    x0 = min(x for x, _ in where.values())
    y0 = min(y for _, y in where.values())
    drawn = max(x for x, _ in where.values()) - x0 + 2 * MARGIN
    height = max(y for _, y in where.values()) - y0 + 2 * MARGIN
    # wide enough for the title (a catalog name is long beside a small grid), the sticks
    # centred under it
    width = max(drawn, TITLE_EM * title_height(STICKS_PX) * len(title))
    inset = (width - drawn) / 2

    def segment(stick: Stick, ox: float, oy: float, free: frozenset[Point] = frozenset()
                ) -> Segment:
        """A stick from point to point; an end in ``free`` (where its piece stops) pulled
        in by GAP, toward the stick's middle."""
        a, b = grid.ends(stick)
        (ax, ay), (bx, by) = grid.plane(a), grid.plane(b)
        ax, ay, bx, by = ax - x0, ay - y0, bx - x0, by - y0
        ux, uy = bx - ax, by - ay  # a unit step from a to b
        if a in free:
            ax, ay = ax + GAP * ux, ay + GAP * uy
        if b in free:
            bx, by = bx - GAP * ux, by - GAP * uy
        return (ox + ax, oy + ay), (ox + bx, oy + by)

    def free_ends(sticks: Sequence[Stick]) -> frozenset[Point]:
        """The points where a piece ends: one of its sticks reaches them."""
        seen = Counter(p for s in sticks for p in grid.ends(s))
        return frozenset(p for p, k in seen.items() if k == 1)

    def paint(canvas: Canvas, px: float, py: float) -> None:
        ox, oy = px + inset + MARGIN, py + MARGIN
        canvas.segments([segment(s, ox, oy) for s in board], GRID_LINE,
                        canvas.line_width(BOARD_WIDTH), 2, gid=canvas.gid("board"))
        for p in sorted(points):
            x, y = where[p]
            canvas.rect(ox + x - x0 - POINT_SIZE / 2, oy + y - y0 - POINT_SIZE / 2,
                        POINT_SIZE, POINT_SIZE, facecolor=OUTLINE, edgecolor="none",
                        zorder=2.5)
        for i, (color, sticks) in enumerate(pieces):
            free = free_ends(sticks)
            canvas.segments([segment(s, ox, oy, free) for s in sticks], piece_color(color),
                            canvas.line_width(PIECE_WIDTH), 3 + i * 1e-3, capstyle="round",
                            gid=canvas.gid(f"piece-{i}"))

    return Panel(kind, title, width, height, paint, STICKS_PX, STICKS_FLOW)
