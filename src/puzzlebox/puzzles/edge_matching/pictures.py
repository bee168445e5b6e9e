"""Edge-matching as pictures: each card split by its diagonals into four triangles coloured
by label (a label and its complement in two shades of one hue), each labelled; the empty
board; every card once (render/pictures.py draws them)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from matplotlib.patches import Circle

from puzzlebox.puzzles.edge_matching.cards import turned
from puzzlebox.render.palette import BOARD_FILL, GRID_LINE, OUTLINE, ink_on, piece_color, shade
from puzzlebox.render.pictures import Canvas, Panel, ink_box

if TYPE_CHECKING:
    from puzzlebox.puzzles.edge_matching.model import EdgeMatchingPuzzle, EdgeMatchingSolution

CARDS_PX, CARDS_FLOW = 96, 6.0  # pixels per card; the least width of a row of panels


def label_colors(puzzle: EdgeMatchingPuzzle) -> dict[str, str]:
    """A hue per family of labels (a label and its complement), a lighter shade for the
    second member, pale grey for the border label."""
    labels = sorted({lab for labs in puzzle.cards.values() for lab in labs})
    parent = {lab: lab for lab in labels}

    def find(a: str) -> str:
        while parent[a] != a:
            a = parent[a]
        return a

    for a, b in puzzle.complements.items():
        if a in parent and b in parent:
            ra, rb = find(a), find(b)
            parent[max(ra, rb)] = min(ra, rb)
    families: dict[str, list[str]] = {}
    for lab in labels:
        if lab != puzzle.border:
            families.setdefault(find(lab), []).append(lab)
    colors = {}
    for hue, root in enumerate(sorted(families)):
        for k, lab in enumerate(sorted(families[root])):
            colors[lab] = shade(piece_color(hue), 3 * k if k < 2 else k)
    if puzzle.border is not None:
        colors[puzzle.border] = "#EEEEEE"
    return colors


def _card(canvas: Canvas, x: float, y: float, name: str, labels: Sequence[str],
          colors: dict[str, str], gid: str) -> None:
    """One card at (x, y): four triangles (top, right, bottom, left), labels, its name."""
    cx, cy = x + 0.5, y + 0.5
    corners = [(x, y), (x + 1, y), (x + 1, y + 1), (x, y + 1)]
    toward = [(0, -1), (1, 0), (0, 1), (-1, 0)]
    thin = canvas.line_width(0.012)
    # Each label runs along its own side (left and right ones read upwards), inside its
    # triangle: at 0.34 of a card from the centre the triangle is 0.68 wide, so a label
    # 0.6 long and 0.12 high fits; long labels get smaller type rather than being cut off.
    widest = max(ink_box(s, "bold")[2] for s in labels)
    label_size = min(0.2, 0.6 / widest, 0.12 / max(ink_box(s, "bold")[3] for s in labels))
    for side in range(4):
        fill = colors[labels[side]]
        canvas.polygon([corners[side], corners[(side + 1) % 4], (cx, cy)], facecolor=fill,
                       edgecolor="#FFFFFF", linewidth=thin, zorder=2,
                       gid=f"{gid}-{side}")
        dx, dy = toward[side]
        canvas.centred(cx + 0.34 * dx, cy + 0.34 * dy, labels[side], label_size,
                       rotation=90 if dx else 0, color=ink_on(fill), fontweight="bold",
                       zorder=4, gid=f"{gid}-label-{side}")
    canvas.rect(x, y, 1, 1, facecolor="none", edgecolor=OUTLINE,
                linewidth=canvas.line_width(0.025), zorder=3)
    name_size = min(0.15, 0.2 / ink_box(name, "normal")[2])
    canvas.ax.add_patch(_circle(cx, cy, 0.13, thin))
    canvas.centred(cx, cy, name, name_size, color="#000000", zorder=5)


def _circle(x: float, y: float, radius: float, width: float) -> Any:
    return Circle((x, y), radius, facecolor="#FFFFFF", edgecolor=OUTLINE, linewidth=width,
                  zorder=4.5)


def cards_solution_panel(puzzle: EdgeMatchingPuzzle, solution: EdgeMatchingSolution,
                         title: str) -> Panel:
    colors = label_colors(puzzle)

    def paint(canvas: Canvas, x0: float, y0: float) -> None:
        for p in solution.placements:
            labels = turned(puzzle.cards[p.card], p.turns)
            _card(canvas, x0 + p.col, y0 + p.row, p.card, labels, colors,
                  canvas.gid(f"card-{p.row}-{p.col}"))
        canvas.rect(x0, y0, puzzle.cols, puzzle.rows, facecolor="none", edgecolor=OUTLINE,
                    linewidth=canvas.line_width(0.05), zorder=4, gid=canvas.gid("board"))

    return Panel("solution", title, float(puzzle.cols), float(puzzle.rows), paint, CARDS_PX,
                 CARDS_FLOW)


def cards_board_panel(puzzle: EdgeMatchingPuzzle, title: str) -> Panel:
    def paint(canvas: Canvas, x0: float, y0: float) -> None:
        canvas.rect(x0, y0, puzzle.cols, puzzle.rows, facecolor=BOARD_FILL, edgecolor="none",
                    zorder=1)
        segs = [((x0 + c, y0), (x0 + c, y0 + puzzle.rows)) for c in range(1, puzzle.cols)]
        segs += [((x0, y0 + r), (x0 + puzzle.cols, y0 + r)) for r in range(1, puzzle.rows)]
        canvas.segments(segs, GRID_LINE, canvas.line_width(0.01), 2)
        canvas.rect(x0, y0, puzzle.cols, puzzle.rows, facecolor="none", edgecolor=OUTLINE,
                    linewidth=canvas.line_width(0.05), zorder=4, gid=canvas.gid("board"))

    if puzzle.border is not None:
        title = f"{title} (border {puzzle.border})"
    return Panel("board", title, float(puzzle.cols), float(puzzle.rows), paint, CARDS_PX,
                 CARDS_FLOW)


def card_panels(puzzle: EdgeMatchingPuzzle) -> list[Panel]:
    colors = label_colors(puzzle)
    panels = []
    for name, labels in puzzle.cards.items():

        def paint(canvas: Canvas, x0: float, y0: float, name: str = name,
                  labels: Sequence[str] = labels) -> None:
            _card(canvas, x0, y0, name, labels, colors, canvas.gid("card"))

        panels.append(Panel("card", name, 1.0, 1.0, paint, CARDS_PX, CARDS_FLOW))
    return panels
