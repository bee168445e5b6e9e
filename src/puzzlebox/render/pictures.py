"""Pictures of puzzles and solutions, as SVG or PNG, drawn with matplotlib.

matplotlib is an optional extra (``pictures``) and is imported only inside the functions
that draw, so the rest of the package never pays for it. Everything is drawn on one axes
whose unit is one cell (x = column, y = row, y down), so a sheet of many panels is one
coordinate system and font sizes are fractions of a cell.

What a picture shows:

* a polyomino solution: each placed piece as one filled polygon traced around its cells
  (holes inside a piece are part of the same compound path), outlined, coloured from a
  colour-blind-safe palette and labelled with its name; board colours (when the rules match
  colours) as dark squares set into the pieces; holes in the board hatched, the outside blank.
  On the triangle and hexagon lattices the cells are the lattice's own polygons
  (``lattice.polygon``), merged per piece the same way;
* a polycube solution: an isometric view of the assembled solid (the faces the viewer sees,
  shaded by the way they face, each piece in its colour) beside its layers, bottom first,
  each a square grid with the pieces' colours and names;
* an edge-matching solution: each card split by its diagonals into four triangles coloured
  by label (a label and its complement in two shades of one hue), each labelled;
* n-queens: a chessboard with the queens;
* ``show``: the empty board(s) and every piece (or card) with its name and count.

Output is kept reproducible: fixed SVG id salt, no date in the metadata, text as paths.
"""

from __future__ import annotations

import io
import textwrap
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from puzzlebox.geometry.lattice import Cell, Lattice
from puzzlebox.geometry.square import SQUARE
from puzzlebox.render.isometric import piece_edges, view_extent, visible_faces
from puzzlebox.render.labels import paint_labels
from puzzlebox.render.outline import (
    CAP_HEIGHT,
    FPoint,
    LabelSpot,
    cell_loops,
    cell_polygons,
    enclosed_cells,
    extent,
    inner_edges,
    label_spot,
    polygon_label_spot,
    short_names,
)
from puzzlebox.render.text import layer_heading
from puzzlebox.safety import drawn_as_written, file_component

if TYPE_CHECKING:
    import numpy as np
    from matplotlib.axes import Axes
    from matplotlib.figure import Figure

    from puzzlebox.puzzles import (
        EdgeMatchingPuzzle,
        EdgeMatchingSolution,
        PolyominoPuzzle,
        PolyominoSolution,
        Puzzle,
        Solution,
    )
    from puzzlebox.puzzles.polyomino import Piece

FORMATS = ("svg", "png")
DPI = 100
MAX_WIDTH_PX = 1600  # a sheet wider than this at the kind's cell size is scaled down
MARGIN = 0.5  # cells of white space around the sheet
GAP = 0.8  # cells between panels
TITLE_PT = 11.0  # title size at the kind's cell size (scaled with the sheet)
LEGEND_PT = 9.0
MIN_LABEL_PT = 6.5  # below this a piece name is abbreviated and explained in a legend

# Pixels per cell for each kind of drawing, before any scaling down, and the least width (in
# cells) of a row of pieces or cards on a sheet; a panel carries its kind's pair.
POLYOMINO_PX, POLYOMINO_FLOW = 40, 14.0
CARDS_PX, CARDS_FLOW = 96, 6.0
QUEENS_PX, QUEENS_FLOW = 40, 8.0

# Okabe & Ito's colour-blind-safe set (without black), then Paul Tol's muted colours.
PALETTE: tuple[str, ...] = (
    "#E69F00",  # orange
    "#56B4E9",  # sky blue
    "#009E73",  # bluish green
    "#F0E442",  # yellow
    "#0072B2",  # blue
    "#D55E00",  # vermillion
    "#CC79A7",  # reddish purple
    "#882255",  # wine
    "#44AA99",  # teal
    "#999933",  # olive
    "#332288",  # indigo
    "#BBBBBB",  # grey
)
OUTLINE = "#1A1A1A"
HOLE_FILL = "#E4E4E4"
HOLE_HATCH = "#9A9A9A"
BOARD_FILL = "#F7F7F7"
GRID_LINE = "#C8C8C8"
SQUARE_LIGHT = "#F0D9B5"
SQUARE_DARK = "#B58863"
QUEEN = "\u265b"  # black chess queen (DejaVu Sans has it)

_LIGHT_NAMES = set("wWoO-_")
_DARK_NAMES = set("bBkK#xX@*")


# -- colours ---------------------------------------------------------------------------------


def _rgb(color: str) -> tuple[float, float, float]:
    h = color.lstrip("#")
    return (int(h[0:2], 16) / 255, int(h[2:4], 16) / 255, int(h[4:6], 16) / 255)


def _hex(rgb: Iterable[float]) -> str:
    return "#" + "".join(f"{round(max(0.0, min(1.0, v)) * 255):02X}" for v in rgb)


def mix(color: str, other: str, amount: float) -> str:
    """``color`` moved ``amount`` (0..1) of the way towards ``other``."""
    a, b = _rgb(color), _rgb(other)
    return _hex(x + (y - x) * amount for x, y in zip(a, b, strict=True))


def luminance(color: str) -> float:
    """Relative luminance (WCAG), to pick black or white text on a fill."""

    def channel(v: float) -> float:
        return v / 12.92 if v <= 0.04045 else ((v + 0.055) / 1.055) ** 2.4

    r, g, b = (channel(v) for v in _rgb(color))
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def ink_on(fill: str) -> str:
    return "#FFFFFF" if luminance(fill) < 0.22 else "#000000"


def shade(color: str, k: int) -> str:
    """The k-th shade of a hue: the colour itself, then lighter and darker versions."""
    steps = (0.0, 0.45, -0.3, 0.7, -0.5)
    step = steps[k % len(steps)]
    return mix(color, "#FFFFFF", step) if step >= 0 else mix(color, "#000000", -step)


def piece_color(index: int) -> str:
    """The colour of the ``index``-th piece: the palette, then its shades when it runs out."""
    return shade(PALETTE[index % len(PALETTE)], index // len(PALETTE))


def color_darkness(colors: Iterable[str]) -> dict[str, float]:
    """How dark to draw each board colour character (0 = not drawn, 1 = near black).

    Characters that name a light colour (``w``, ``o``) come first and characters that name a
    dark one (``b``, ``k``, ``#``) last; others keep their sorted order in between.
    """

    def rank(ch: str) -> tuple[int, str]:
        return (0 if ch in _LIGHT_NAMES else 2 if ch in _DARK_NAMES else 1, ch)

    ordered = sorted(set(colors), key=rank)
    if len(ordered) < 2:
        return {ch: 0.0 for ch in ordered}
    return {ch: i / (len(ordered) - 1) for i, ch in enumerate(ordered)}


def _grey(darkness: float) -> str:
    v = 1.0 - 0.88 * darkness
    return _hex((v, v, v))


_INK: dict[tuple[str, str], tuple[float, float, float, float]] = {}


def ink_box(text: str, weight: str = "bold") -> tuple[float, float, float, float]:
    """The inked box of ``text`` at a font size of one: (x0, y0, width, height) from the
    start of the baseline, y up. Measured with the font matplotlib draws with."""
    key = (text, weight)
    if key not in _INK:
        from matplotlib.font_manager import FontProperties
        from matplotlib.textpath import TextPath, text_to_path

        prop = FontProperties(weight=weight)
        shown = drawn_as_written(text)  # #18: no mathtext
        if len(text_to_path.get_text_path(prop, shown)[0]) == 0:
            _INK[key] = (0.0, 0.0, 1e-3, 1e-3)  # no ink ("", " "): TextPath raises (#28)
        else:
            box = TextPath((0, 0), shown, size=1, prop=prop).get_extents()
            _INK[key] = (box.x0, box.y0, max(box.width, 1e-3), max(box.height, 1e-3))
    return _INK[key]


# -- panels and sheets ---------------------------------------------------------------------


@dataclass
class Panel:
    """One titled drawing on a sheet; ``paint`` draws it with its top-left at (x0, y0).

    A puzzle kind's drawing methods return panels made by this module's functions for that
    kind; a sheet takes its scale (``cell_px``, ``flow_width``) from its first panel.
    """

    kind: str  # board | solution | piece | card: names the panel in the SVG
    title: str
    width: float
    height: float
    paint: Callable[[_Canvas, float, float], None]
    cell_px: int  # pixels per cell before any scaling down
    flow_width: float  # the least width (in cells) of a row of pieces or cards


_Panel = Panel


class _Canvas:
    """One matplotlib figure whose axes unit is one cell; names elements for the SVG."""

    def __init__(self, width: float, height: float, cell_px: float) -> None:
        from matplotlib.figure import Figure

        w_px = max(1, round(width * cell_px))
        h_px = max(1, round(height * cell_px))
        self.size_px = (w_px, h_px)
        self.figure: Figure = Figure(figsize=(w_px / DPI, h_px / DPI), dpi=DPI)
        self.figure.patch.set_facecolor("#FFFFFF")
        ax: Axes = self.figure.add_axes((0.0, 0.0, 1.0, 1.0))
        ax.set_axis_off()
        ax.set_xlim(0, w_px / cell_px)
        ax.set_ylim(h_px / cell_px, 0)
        self.ax = ax
        self.pt = cell_px * 72 / DPI  # points per cell
        self.panel_no = -1  # the panel being painted, for element ids

    def gid(self, what: str) -> str:
        return f"p{self.panel_no}-{what}"

    def loops(
        self, loops: list[list[FPoint]], x0: float, y0: float, gid: str | None = None, **style: Any
    ) -> None:
        """One compound path of all ``loops`` (outer boundaries and holes together)."""
        from matplotlib.patches import PathPatch
        from matplotlib.path import Path as MplPath

        verts: list[tuple[float, float]] = []
        codes: list[np.uint8] = []  # matplotlib's path codes are numpy bytes
        for loop in loops:
            for i, (x, y) in enumerate(loop):
                verts.append((x + x0, y + y0))
                codes.append(MplPath.MOVETO if i == 0 else MplPath.LINETO)
            verts.append((loop[0][0] + x0, loop[0][1] + y0))
            codes.append(MplPath.CLOSEPOLY)
        if not verts:
            return
        style.setdefault("joinstyle", "miter")
        patch = PathPatch(MplPath(verts, codes), gid=gid, clip_on=False, **style)
        self.ax.add_patch(patch)

    def polygon(self, points: Sequence[tuple[float, float]], **style: Any) -> None:
        from matplotlib.patches import Polygon

        style.setdefault("joinstyle", "miter")
        self.ax.add_patch(Polygon(points, closed=True, clip_on=False, **style))

    def rect(self, x: float, y: float, w: float, h: float, **style: Any) -> None:
        from matplotlib.patches import Rectangle

        self.ax.add_patch(Rectangle((x, y), w, h, clip_on=False, **style))

    def segments(self, segs: list[tuple[tuple[float, float], tuple[float, float]]],
                 color: str, width: float, zorder: float) -> None:
        """Line segments (cell lines) as one path: one element in the SVG, not one each."""
        from matplotlib.patches import PathPatch
        from matplotlib.path import Path as MplPath

        if not segs:
            return
        verts = [point for seg in segs for point in seg]
        codes = [MplPath.MOVETO, MplPath.LINETO] * len(segs)
        self.ax.add_patch(PathPatch(MplPath(verts, codes), facecolor="none", edgecolor=color,
                                    linewidth=width, zorder=zorder, clip_on=False))

    def text(self, x: float, y: float, s: str, size: float, **style: Any) -> None:
        """Text centred on (x, y); ``size`` is the font size in cells."""
        style.setdefault("ha", "center")
        style.setdefault("va", "center")
        self.ax.text(x, y, drawn_as_written(s), fontsize=size * self.pt, clip_on=False, **style)

    def centred(self, x: float, y: float, s: str, size: float, rotation: int = 0,
                **style: Any) -> None:
        """Text whose inked box is centred on (x, y), upright or turned a quarter; ``size``
        is the font size in cells. Centring the ink (not the line box) puts a capital
        letter in the middle of its cell."""
        ink = ink_box(s, style.get("fontweight", "normal"))
        cu, cv = ink[0] + ink[2] / 2, ink[1] + ink[3] / 2
        if rotation == 90:  # reads upwards: the baseline runs up the screen
            ox, oy = x + cv * size, y + cu * size
        else:
            ox, oy = x - cu * size, y + cv * size
        self.ax.text(ox, oy, drawn_as_written(s), fontsize=size * self.pt, rotation=rotation,
                     rotation_mode="anchor", ha="left", va="baseline", clip_on=False, **style)

    def line_width(self, cells: float, least: float = 0.6) -> float:
        return max(cells * self.pt, least)


def _title_size(cell_px: int) -> float:
    return TITLE_PT / (cell_px * 72 / DPI)


def _sheet(sections: list[tuple[list[_Panel], int | None]], caption: str = "") -> _Canvas:
    """Lay out panels and paint them, under ``caption`` (the puzzle's title, wrapped to the
    sheet's width) when there is one.

    Each section is a list of panels and a number per row: with a number the panels sit on
    a grid of equal slots (a batch of boards), without one they flow in rows as wide as the
    widest other section (a sheet of pieces).
    """
    first = next(p for panels, _ in sections for p in panels)
    base_px = first.cell_px
    title_h = _title_size(base_px) * 1.8
    grid_width = 0.0
    slot: float | None  # a grid row's slot width; None for a flowing row
    for panels, per_row in sections:
        if per_row is not None and panels:
            slot = max(p.width for p in panels)
            grid_width = max(grid_width, min(per_row, len(panels)) * (slot + GAP) - GAP)
    flow_width = max(grid_width, first.flow_width)
    ordered: list[tuple[list[_Panel], float | None]] = []
    for panels, per_row in sections:
        if not panels:
            continue
        if per_row is not None:
            slot = max(p.width for p in panels)
            ordered += [(panels[i : i + per_row], slot) for i in range(0, len(panels), per_row)]
            continue
        row: list[_Panel] = []
        used = 0.0
        for p in panels:
            if row and used + GAP + p.width > flow_width:
                ordered.append((row, None))
                row, used = [], 0.0
            used += (GAP if row else 0.0) + p.width
            row.append(p)
        if row:
            ordered.append((row, None))

    def row_width(row: list[_Panel], slot: float | None) -> float:
        return sum((slot if slot is not None else p.width) for p in row) + GAP * (len(row) - 1)

    def band(row: list[_Panel]) -> float:  # room for titles, where the row has any
        return title_h if any(p.title for p in row) else 0.0

    width = max(row_width(r, s) for r, s in ordered) + 2 * MARGIN
    title_size = _title_size(base_px)
    # about 0.55 em per character of the sans-serif font: wrap the caption to the sheet
    per_line = max(12, int((width - 2 * MARGIN) / (title_size * 0.55)))
    caption_lines = textwrap.wrap(caption, per_line) if caption else []
    caption_h = len(caption_lines) * title_h * 0.8 + (GAP / 2 if caption_lines else 0.0)
    height = 2 * MARGIN + caption_h
    height += sum(max(p.height for p in r) + band(r) for r, _ in ordered)
    height += GAP * (len(ordered) - 1)
    cell_px = base_px * min(1.0, MAX_WIDTH_PX / (width * base_px))
    canvas = _Canvas(width, height, cell_px)
    for k, line in enumerate(caption_lines):
        canvas.text(width / 2, MARGIN + (k + 0.5) * title_h * 0.8, line, title_size,
                    color="#000000", fontweight="bold", gid=f"caption-{k}")
    y = MARGIN + caption_h
    number = 0
    for row, slot in ordered:
        x = MARGIN
        top = band(row)
        for p in row:
            w = slot if slot is not None else p.width
            px = x + (w - p.width) / 2
            canvas.panel_no = number
            canvas.rect(px, y, p.width, top + p.height, facecolor="none",
                        edgecolor="none", gid=f"panel-{number}-{p.kind}")
            if p.title:
                canvas.text(px + p.width / 2, y + top * 0.45, p.title, title_size,
                            color="#222222")
            p.paint(canvas, px, y + top)
            number += 1
            x += w + GAP
        y += max(p.height for p in row) + top + GAP
    return canvas


# -- polyominoes, on any lattice ---------------------------------------------------------------
#
# Flat lattices (square, triangle, hexagon) draw each cell as ``lattice.polygon(cell)`` and
# each placed piece as the merged outline of its cells' polygons (render/outline.py); the
# picture's unit is the lattice's picture unit, about one cell across. The cube lattice is
# drawn as an isometric view of the solid beside its layers (further below).


def _frame(lattice: Lattice, cells: Iterable[Cell]) -> tuple[float, float, float, float]:
    """``(x0, y0, width, height)`` of the cells' picture, in picture units."""
    return extent(lattice, cells)


def _moved(loops: list[list[FPoint]], fx: float, fy: float) -> list[list[FPoint]]:
    return [[(x - fx, y - fy) for x, y in loop] for loop in loops]


def _inner_segments(lattice: Lattice, cells: Iterable[Cell], x0: float,
                    y0: float) -> list[tuple[FPoint, FPoint]]:
    """Sides shared by two cells of the set (cell lines inside a shape), moved by (x0, y0)."""
    return [((x + x0, y + y0), (u + x0, v + y0)) for (x, y), (u, v) in inner_edges(lattice, cells)]


def _spot(lattice: Lattice, cells: list[Cell], text: str) -> LabelSpot:
    """Where a name goes. Squares: the centres of squares of cells and straight runs, text
    may turn a quarter (render/outline.py's :func:`label_spot`, as before lattices came);
    triangles and hexagons: the point farthest inside, text upright."""
    _, _, width, height = ink_box(text)
    if lattice.name == "square":
        return label_spot(cells, width, max(height, CAP_HEIGHT))
    return polygon_label_spot(cell_polygons(lattice, cells), width, max(height, CAP_HEIGHT))


class _Labeller:
    """Piece names inside pieces: full names where they fit, short ones and a legend if not."""

    def __init__(self, names: list[str], cell_px: int, lattice: Lattice) -> None:
        self.short = short_names(names)
        self.least = MIN_LABEL_PT / (cell_px * 72 / DPI)  # smallest readable size, in cells
        self.used_short: dict[str, str] = {}
        self.lattice = lattice

    def place(self, name: str, cells: Iterable[Cell]) -> tuple[str, float, float, int, float]:
        cells = list(cells)
        spot = _spot(self.lattice, cells, name)
        text = name
        if spot.size < self.least and self.short[name] != name:
            text = self.short[name]
            self.used_short[name] = text
            spot = _spot(self.lattice, cells, text)
        return text, spot.x, spot.y, spot.rotation, max(spot.size, self.least)

    def legend(self) -> list[str]:
        return [f"{s} = {n}" for n, s in sorted(self.used_short.items(), key=lambda kv: kv[1])]


def _copy_shades(puzzle: PolyominoPuzzle, solution: PolyominoSolution) -> list[int]:
    """A shade per placement so that touching copies of one piece never look the same."""
    owner = solution.owner_grid()
    shades: list[int] = []
    for i, p in enumerate(solution.placements):
        taken = set()
        for cell in p.cells:
            for n in puzzle.lattice.neighbours(cell):
                j = owner.get(n)
                if j is not None and j < i and solution.placements[j].piece == p.piece:
                    taken.add(shades[j])
        k = 0
        while k in taken:
            k += 1
        shades.append(k)
    return shades


def _piece_index(puzzle: PolyominoPuzzle) -> dict[str, int]:
    return {piece.name: i for i, piece in enumerate(puzzle.pieces)}


def _color_tints(canvas: _Canvas, lattice: Lattice, colored: dict[Cell, str],
                 darkness: dict[str, float], x0: float, y0: float, fx: float,
                 fy: float, name: str = "color") -> None:
    """Board (or piece) colours as a dark veil over the cells of each darker colour: the
    piece keeps its hue, and the board's pattern shows through as light and dark."""
    for number, (color, dark) in enumerate(sorted(darkness.items())):
        cells = [cell for cell, ch in colored.items() if ch == color]
        if dark <= 0 or not cells:
            continue
        canvas.loops(_moved(cell_loops(lattice, cells), fx, fy), x0, y0,
                     gid=canvas.gid(f"{name}-{number}"), facecolor="#000000",
                     alpha=0.5 * dark, edgecolor="none", linewidth=0, zorder=3)


def _holes(canvas: _Canvas, lattice: Lattice, board: Iterable[Cell], x0: float, y0: float,
           fx: float, fy: float) -> None:
    holes = enclosed_cells(lattice, board)
    if holes:
        canvas.loops(_moved(cell_loops(lattice, holes), fx, fy), x0, y0,
                     gid=canvas.gid("holes"), facecolor=HOLE_FILL, edgecolor=HOLE_HATCH,
                     hatch="///", linewidth=0, zorder=1)


def _label(canvas: _Canvas, text: str, x: float, y: float, rot: int, size: float, fill: str,
           boxed: bool) -> None:
    """A piece's name: black or white by its fill; on a fill of several shades (colour-matched
    boards), black on a small pale box, which reads on any of them."""
    if boxed:
        _, _, w, h = ink_box(text)
        w, h = w * size + 0.14, max(h, CAP_HEIGHT) * size + 0.14
        if rot == 90:
            w, h = h, w
        canvas.rect(x - w / 2, y - h / 2, w, h, facecolor="#FFFFFF", alpha=0.8,
                    edgecolor="none", zorder=4.5)
    color = "#000000" if boxed else ink_on(fill)
    canvas.centred(x, y, text, size, rot, color=color, fontweight="bold", zorder=5)


def _placement_fills(puzzle: PolyominoPuzzle, solution: PolyominoSolution) -> list[str]:
    """Each placement's colour: its piece's, in a shade of its own where copies touch."""
    index = _piece_index(puzzle)
    shades = _copy_shades(puzzle, solution)
    return [shade(piece_color(index[p.piece]), shades[i])
            for i, p in enumerate(solution.placements)]


def polyomino_solution_panel(puzzle: PolyominoPuzzle, solution: PolyominoSolution,
                              title: str) -> _Panel:
    lattice = puzzle.lattice
    if lattice.dimensions == 3:
        return solid_solution_panel(puzzle, solution, title)
    fx, fy, w, h = _frame(lattice, puzzle.board)
    labeller = _Labeller([p.name for p in puzzle.pieces], POLYOMINO_PX, lattice)
    spots = [labeller.place(p.piece, p.cells) for p in solution.placements]
    legend = labeller.legend()
    legend_h = _title_size(POLYOMINO_PX) * 1.6 if legend else 0.0

    def paint(canvas: _Canvas, x0: float, y0: float) -> None:
        lw = canvas.line_width(0.06)
        _holes(canvas, lattice, puzzle.board, x0, y0, fx, fy)
        fills = _placement_fills(puzzle, solution)
        for i, (p, fill) in enumerate(zip(solution.placements, fills, strict=True)):
            canvas.loops(_moved(cell_loops(lattice, p.cells), fx, fy), x0, y0,
                         gid=canvas.gid(f"piece-{i}"), facecolor=fill, edgecolor=OUTLINE,
                         linewidth=lw, zorder=2)
        if puzzle.match_colors:
            _color_tints(canvas, lattice, puzzle.board, color_darkness(puzzle.board.values()),
                         x0, y0, fx, fy)
        canvas.loops(_moved(cell_loops(lattice, puzzle.board), fx, fy), x0, y0,
                     gid=canvas.gid("board"), facecolor="none", edgecolor=OUTLINE,
                     linewidth=2 * lw, zorder=4)
        for (text, x, y, rot, size), fill in zip(spots, fills, strict=True):
            _label(canvas, text, x0 + x - fx, y0 + y - fy, rot, size, fill, puzzle.match_colors)
        paint_labels(canvas, puzzle, x0 - fx, y0 - fy, open_only=True)  # render/labels.py
        if legend:
            canvas.text(x0 + w / 2, y0 + h + legend_h * 0.55, ",  ".join(legend),
                        LEGEND_PT / TITLE_PT * _title_size(POLYOMINO_PX),
                        color="#333333")

    return _Panel("solution", title, w, h + legend_h, paint, POLYOMINO_PX, POLYOMINO_FLOW)


def polyomino_board_panel(puzzle: PolyominoPuzzle, title: str) -> _Panel:
    lattice = puzzle.lattice
    if lattice.dimensions == 3:
        return solid_board_panel(puzzle, title)
    fx, fy, w, h = _frame(lattice, puzzle.board)

    def paint(canvas: _Canvas, x0: float, y0: float) -> None:
        lw = canvas.line_width(0.06)
        _holes(canvas, lattice, puzzle.board, x0, y0, fx, fy)
        loops = _moved(cell_loops(lattice, puzzle.board), fx, fy)
        canvas.loops(loops, x0, y0, gid=canvas.gid("board-fill"), facecolor=BOARD_FILL,
                     edgecolor="none", zorder=1)
        if puzzle.match_colors:
            darkness = color_darkness(puzzle.board.values())
            for color, dark in sorted(darkness.items()):
                cells = [cell for cell, ch in puzzle.board.items() if ch == color]
                if dark > 0:
                    canvas.loops(_moved(cell_loops(lattice, cells), fx, fy), x0, y0,
                                 facecolor=_grey(dark), edgecolor="none", zorder=1.5)
        segs = _inner_segments(lattice, puzzle.board, x0 - fx, y0 - fy)
        canvas.segments(segs, GRID_LINE, canvas.line_width(0.02), 2)
        canvas.loops(loops, x0, y0, gid=canvas.gid("board"), facecolor="none",
                     edgecolor=OUTLINE, linewidth=2 * lw, zorder=4)
        paint_labels(canvas, puzzle, x0 - fx, y0 - fy, open_only=False)  # render/labels.py

    return _Panel("board", title, w, h, paint, POLYOMINO_PX, POLYOMINO_FLOW)


def count_text(piece: Piece) -> str:
    """How many copies, as a title suffix: nothing for exactly one."""
    if piece.hi is None:
        return f"{piece.lo}+" if piece.lo else "any"
    if piece.lo == piece.hi:
        return "" if piece.lo == 1 else f"\u00d7{piece.lo}"
    return f"{piece.lo}\u2013{piece.hi}"


def polyomino_piece_panels(puzzle: PolyominoPuzzle) -> list[_Panel]:
    lattice = puzzle.lattice
    if lattice.dimensions == 3:
        return solid_piece_panels(puzzle)
    panels = []
    title_cells_per_char = _title_size(POLYOMINO_PX) * 0.62
    labeller = _Labeller([p.name for p in puzzle.pieces], POLYOMINO_PX, lattice)
    darkness = color_darkness(
        list(puzzle.board.values()) + [ch for p in puzzle.pieces for ch in p.shape.colors]
    )
    for index, piece in enumerate(puzzle.pieces):
        cells = list(piece.shape.cells)
        fx, fy, w, h = _frame(lattice, cells)
        spot = labeller.place(piece.name, cells)
        # the label inside names the piece; the title adds how many, and the full name
        # when the label had to be shortened
        named = f"{piece.name} " if spot[0] != piece.name else ""
        title = f"{named}{count_text(piece)}".strip()
        width = max(w, len(title) * title_cells_per_char)

        def paint(canvas: _Canvas, x0: float, y0: float, piece: Piece = piece, cells=cells,
                  w: float = w, width: float = width, spot=spot, index: int = index,
                  fx: float = fx, fy: float = fy) -> None:
            x0 += (width - w) / 2
            fill = piece_color(index)
            canvas.loops(_moved(cell_loops(lattice, cells), fx, fy), x0, y0,
                         gid=canvas.gid("shape"), facecolor=fill, edgecolor=OUTLINE,
                         linewidth=canvas.line_width(0.06), zorder=2)
            segs = _inner_segments(lattice, cells, x0 - fx, y0 - fy)
            canvas.segments(segs, mix(fill, OUTLINE, 0.35), canvas.line_width(0.015), 2.5)
            if puzzle.match_colors:
                _color_tints(canvas, lattice, piece.shape.color_map(), darkness, x0, y0, fx, fy)
            text, x, y, rot, size = spot
            _label(canvas, text, x0 + x - fx, y0 + y - fy, rot, size, fill, puzzle.match_colors)

        panels.append(_Panel("piece", title, width, h, paint, POLYOMINO_PX, POLYOMINO_FLOW))
    return panels


# -- polycubes: an isometric view and the layers -------------------------------------------
#
# A solid is hard to read from one picture: the view shows its outside (render/isometric.py
# finds the faces the viewer sees; each is shaded by the way it faces, top lightest), and the
# layers beside it, bottom first as a file writes them, show every cube with its piece's
# colour and name, inside ones too.

ISO_SCALE = 1.3  # the view's cube edge, in cells of the layer grids
PIECE_ISO_SCALE = 0.8  # the same in a piece's panel (a sheet of pieces stays small)
SIDE_SHADE = {"top": 0.35, "front": 0.0, "right": -0.28}  # towards white (+) or black (-)
SOLID_BOARD = "#D6D6D6"


def _face_fill(color: str, side: str) -> str:
    amount = SIDE_SHADE[side]
    return mix(color, "#FFFFFF", amount) if amount >= 0 else mix(color, "#000000", -amount)


def _iso_size(cells: Iterable[Cell],
              scale: float = ISO_SCALE) -> tuple[float, float, float, float]:
    vx, vy, vw, vh = view_extent(cells)
    return vx * scale, vy * scale, vw * scale, vh * scale


def _paint_iso(canvas: _Canvas, groups: Sequence[tuple[Sequence[Cell], str]], x0: float,
               y0: float, gid: str, scale: float = ISO_SCALE) -> None:
    """The solid made of ``groups`` (cells and a colour each) seen from the front right and
    above, its visible faces drawn back to front, each face outlined thinly and each group's
    outline as seen drawn bold; ``gid-i-k`` names the k-th face of group i."""
    color_of: dict[Cell, tuple[int, str]] = {}
    for i, (cells, color) in enumerate(groups):
        for cell in cells:
            color_of[cell] = (i, color)
    if not color_of:  # nothing placed yet (the web page's watch, at its first frame)
        return
    vx, vy, _, _ = _iso_size(color_of, scale)
    counts: dict[int, int] = {}
    thin = canvas.line_width(0.025)
    for face in visible_faces(color_of):
        i, color = color_of[face.cell]
        k = counts.get(i, 0)
        counts[i] = k + 1
        points = [(x0 + x * scale - vx, y0 + y * scale - vy) for x, y in face.corners]
        canvas.polygon(points, facecolor=_face_fill(color, face.side), edgecolor=OUTLINE,
                       linewidth=thin, joinstyle="round", zorder=2,
                       gid=canvas.gid(f"{gid}-{i}-{k}"))
    groups_of = {cell: i for cell, (i, _) in color_of.items()}
    segs = [((x0 + ax * scale - vx, y0 + ay * scale - vy), (x0 + bx * scale - vx,
                                                           y0 + by * scale - vy))
            for (ax, ay), (bx, by) in piece_edges(groups_of)]
    canvas.segments(segs, OUTLINE, canvas.line_width(0.07), 3)


def _components(cells: Iterable[tuple[int, int]]) -> list[list[tuple[int, int]]]:
    """Groups of square cells that touch by a side."""
    todo = set(cells)
    parts = []
    while todo:
        start = min(todo)
        todo.discard(start)
        part, stack = [start], [start]
        while stack:
            r, c = stack.pop()
            for near in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)):
                if near in todo:
                    todo.discard(near)
                    part.append(near)
                    stack.append(near)
        parts.append(sorted(part))
    return parts


LAYER_GAP = 0.6  # cells between two layers


def _layers_size(board: Iterable[Cell]) -> tuple[int, int, list[int], float, float]:
    """Rows and columns of a layer, the layers (bottom first), and the width and height of
    the row of layers with their headings."""
    cells = list(board)
    rows = 1 + max(c[1] for c in cells) - min(c[1] for c in cells)
    cols = 1 + max(c[2] for c in cells) - min(c[2] for c in cells)
    layers = sorted({c[0] for c in cells})
    width = len(layers) * _layer_slot(cols, layers) + (len(layers) - 1) * LAYER_GAP
    return rows, cols, layers, width, rows + _title_size(POLYOMINO_PX) * 1.4


def _layer_slot(cols: int, layers: list[int]) -> float:
    """The width given to one layer: its columns, or its heading where that is wider
    (about 0.55 em per character)."""
    size = LEGEND_PT / TITLE_PT * _title_size(POLYOMINO_PX)
    longest = max(len(layer_heading(layer, layers)) for layer in layers)
    return max(float(cols), longest * size * 0.55)


def _paint_layers(canvas: _Canvas, board: Iterable[Cell],
                  groups: Sequence[tuple[Sequence[Cell], str, str | None]], x0: float,
                  y0: float, labeller: _Labeller | None,
                  colors: dict[Cell, str] | None = None) -> None:
    """Each layer of the board as a square grid, bottom layer first, left to right: each
    group's cells in that layer as one outlined shape (gid ``layerK-piece-i``) in its
    colour, named inside where a group has a name; ``colors`` (a colour-matched board) as
    a dark veil over the darker colours' cells, as on flat boards."""
    board = list(board)
    darkness = color_darkness(colors.values()) if colors else {}
    _, cols, layers, _, _ = _layers_size(board)
    r0 = min(c[1] for c in board)
    c0 = min(c[2] for c in board)
    head = _title_size(POLYOMINO_PX) * 1.4
    lw = canvas.line_width(0.06)
    slot = _layer_slot(cols, layers)
    for n, layer in enumerate(layers):
        lx = x0 + n * (slot + LAYER_GAP) + (slot - cols) / 2
        heading = layer_heading(layer, layers)
        canvas.text(lx + cols / 2, y0 + head * 0.45, heading,
                    LEGEND_PT / TITLE_PT * _title_size(POLYOMINO_PX), color="#333333")
        ly = y0 + head
        flat = [(c[1], c[2]) for c in board if c[0] == layer]
        _holes(canvas, SQUARE, flat, lx, ly, c0, r0)
        for i, (cells, color, name) in enumerate(groups):
            mine = [(c[1], c[2]) for c in cells if c[0] == layer]
            if not mine:
                continue
            canvas.loops(_moved(cell_loops(SQUARE, mine), c0, r0), lx, ly,
                         gid=canvas.gid(f"layer{layer}-piece-{i}"), facecolor=color,
                         edgecolor=OUTLINE, linewidth=lw, zorder=2)
            segs = _inner_segments(SQUARE, mine, lx - c0, ly - r0)
            canvas.segments(segs, mix(color, OUTLINE, 0.35), canvas.line_width(0.015), 2.5)
            if name is None or labeller is None:
                continue
            for part in _components(mine):
                text, x, y, rot, size = labeller.place(name, part)
                _label(canvas, text, lx + x - c0, ly + y - r0, rot, size, color,
                       colors is not None)
        if colors:
            tints: dict[Cell, str] = {(c[1], c[2]): ch for c, ch in colors.items()
                                      if c[0] == layer}
            _color_tints(canvas, SQUARE, tints, darkness, lx, ly, c0, r0,
                         f"layer{layer}-color")
        canvas.loops(_moved(cell_loops(SQUARE, flat), c0, r0), lx, ly,
                     gid=canvas.gid(f"layer{layer}-board"), facecolor="none",
                     edgecolor=OUTLINE, linewidth=2 * lw, zorder=4)


def _solid_panel(kind: str, title: str, board: Sequence[Cell],
                 groups: Sequence[tuple[Sequence[Cell], str, str | None]],
                 names: list[str], colors: dict[Cell, str] | None = None) -> _Panel:
    """The isometric view of ``groups`` on the left, the board's layers on the right."""
    _, _, iso_w, iso_h = _iso_size(board)
    _, _, _, layers_w, layers_h = _layers_size(board)
    labeller = _Labeller(names, POLYOMINO_PX, SQUARE) if names else None
    gap = 2 * GAP
    width = iso_w + gap + layers_w
    height = max(iso_h, layers_h)

    def paint(canvas: _Canvas, x0: float, y0: float) -> None:
        _paint_iso(canvas, [(cells, color) for cells, color, _ in groups], x0,
                   y0 + (height - iso_h) / 2, "iso")
        _paint_layers(canvas, board, groups, x0 + iso_w + gap, y0 + (height - layers_h) / 2,
                      labeller, colors)

    return _Panel(kind, title, width, height, paint, POLYOMINO_PX, POLYOMINO_FLOW)


def solid_solution_panel(puzzle: PolyominoPuzzle, solution: PolyominoSolution,
                         title: str) -> _Panel:
    """A polycube solution: the assembled solid, each piece in its colour, and its layers
    with every cube in its piece's colour and name."""
    fills = _placement_fills(puzzle, solution)
    groups = [(p.cells, fill, p.piece)
              for p, fill in zip(solution.placements, fills, strict=True)]
    return _solid_panel("solution", title, list(puzzle.board), groups,
                        [p.name for p in puzzle.pieces],
                        puzzle.board if puzzle.match_colors else None)


def solid_board_panel(puzzle: PolyominoPuzzle, title: str) -> _Panel:
    """An empty polycube board: its solid in grey and its layers."""
    board = list(puzzle.board)
    return _solid_panel("board", title, board, [(board, SOLID_BOARD, None)], [],
                        puzzle.board if puzzle.match_colors else None)


def solid_piece_panels(puzzle: PolyominoPuzzle) -> list[_Panel]:
    """Each polycube piece as a small isometric view in its colour, titled with its name
    and count (there is no room for a name on a cube's face)."""
    panels = []
    title_cells_per_char = _title_size(POLYOMINO_PX) * 0.62
    for index, piece in enumerate(puzzle.pieces):
        cells = list(piece.shape.cells)
        _, _, w, h = _iso_size(cells, PIECE_ISO_SCALE)
        title = f"{piece.name} {count_text(piece)}".strip()
        width = max(w, len(title) * title_cells_per_char)

        def paint(canvas: _Canvas, x0: float, y0: float, cells: list[Cell] = cells,
                  w: float = w, width: float = width, index: int = index) -> None:
            _paint_iso(canvas, [(cells, piece_color(index))], x0 + (width - w) / 2, y0,
                       "shape", PIECE_ISO_SCALE)

        panels.append(_Panel("piece", title, width, h, paint, POLYOMINO_PX, POLYOMINO_FLOW))
    return panels


# -- edge-matching cards ----------------------------------------------------------------------


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


def _card(canvas: _Canvas, x: float, y: float, name: str, labels: Sequence[str],
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
    from matplotlib.patches import Circle

    return Circle((x, y), radius, facecolor="#FFFFFF", edgecolor=OUTLINE, linewidth=width,
                  zorder=4.5)


def cards_solution_panel(puzzle: EdgeMatchingPuzzle, solution: EdgeMatchingSolution,
                          title: str) -> _Panel:
    from puzzlebox.puzzles.edge_matching import turned

    colors = label_colors(puzzle)

    def paint(canvas: _Canvas, x0: float, y0: float) -> None:
        for p in solution.placements:
            labels = turned(puzzle.cards[p.card], p.turns)
            _card(canvas, x0 + p.col, y0 + p.row, p.card, labels, colors,
                  canvas.gid(f"card-{p.row}-{p.col}"))
        canvas.rect(x0, y0, puzzle.cols, puzzle.rows, facecolor="none", edgecolor=OUTLINE,
                    linewidth=canvas.line_width(0.05), zorder=4, gid=canvas.gid("board"))

    return _Panel("solution", title, float(puzzle.cols), float(puzzle.rows), paint, CARDS_PX,
                  CARDS_FLOW)


def cards_board_panel(puzzle: EdgeMatchingPuzzle, title: str) -> _Panel:
    def paint(canvas: _Canvas, x0: float, y0: float) -> None:
        canvas.rect(x0, y0, puzzle.cols, puzzle.rows, facecolor=BOARD_FILL, edgecolor="none",
                    zorder=1)
        segs = [((x0 + c, y0), (x0 + c, y0 + puzzle.rows)) for c in range(1, puzzle.cols)]
        segs += [((x0, y0 + r), (x0 + puzzle.cols, y0 + r)) for r in range(1, puzzle.rows)]
        canvas.segments(segs, GRID_LINE, canvas.line_width(0.01), 2)
        canvas.rect(x0, y0, puzzle.cols, puzzle.rows, facecolor="none", edgecolor=OUTLINE,
                    linewidth=canvas.line_width(0.05), zorder=4, gid=canvas.gid("board"))

    if puzzle.border is not None:
        title = f"{title} (border {puzzle.border})"
    return _Panel("board", title, float(puzzle.cols), float(puzzle.rows), paint, CARDS_PX,
                  CARDS_FLOW)


def card_panels(puzzle: EdgeMatchingPuzzle) -> list[_Panel]:
    colors = label_colors(puzzle)
    panels = []
    for name, labels in puzzle.cards.items():

        def paint(canvas: _Canvas, x0: float, y0: float, name: str = name,
                  labels: Sequence[str] = labels) -> None:
            _card(canvas, x0, y0, name, labels, colors, canvas.gid("card"))

        panels.append(_Panel("card", name, 1.0, 1.0, paint, CARDS_PX, CARDS_FLOW))
    return panels


# -- queens ----------------------------------------------------------------------------------


def queens_panel(n: int, queens: Sequence[tuple[int, int]], title: str,
                  kind: str) -> _Panel:
    def paint(canvas: _Canvas, x0: float, y0: float) -> None:
        canvas.rect(x0, y0, n, n, facecolor=SQUARE_LIGHT, edgecolor="none", zorder=1)
        dark = [
            [(c, r), (c + 1, r), (c + 1, r + 1), (c, r + 1)]
            for r in range(n)
            for c in range(n)
            if (r + c) % 2 == 1
        ]
        canvas.loops(dark, x0, y0, facecolor=SQUARE_DARK, edgecolor="none", zorder=1.5)  # type: ignore[arg-type]
        canvas.rect(x0, y0, n, n, facecolor="none", edgecolor=OUTLINE,
                    linewidth=canvas.line_width(0.05), zorder=3, gid=canvas.gid("board"))
        size = 0.72 / ink_box(QUEEN, "normal")[3]
        for i, (r, c) in enumerate(queens):
            canvas.centred(x0 + c + 0.5, y0 + r + 0.5, QUEEN, size, color="#000000",
                           fontweight="normal", zorder=4, gid=canvas.gid(f"queen-{i}"))

    return _Panel(kind, title, float(n), float(n), paint, QUEENS_PX, QUEENS_FLOW)


# -- what the rest of the package calls ------------------------------------------------------


def default_title(puzzle: Puzzle) -> str:
    return puzzle.label


def solutions_figure(items: Sequence[tuple[str, Puzzle, Solution]], per_row: int = 5) -> Figure:
    """Several solutions on one sheet, ``per_row`` to a row, each with its title, under the
    first puzzle's ``title`` (a file's own words, where it has them)."""
    if not items:
        raise ValueError("no solutions to draw")
    panels = [puzzle.solution_panel(solution, title) for title, puzzle, solution in items]
    return _sheet([(panels, per_row)], items[0][1].title).figure


def solution_figure(puzzle: Puzzle, solution: Solution, title: str | None = None) -> Figure:
    """One solution, titled with the puzzle's name unless told otherwise, and captioned
    with the puzzle's ``title``."""
    return solutions_figure([(default_title(puzzle) if title is None else title, puzzle,
                              solution)])


def puzzle_figure(puzzles: Sequence[Puzzle], per_row: int = 5) -> Figure:
    """The empty board of every puzzle (a batch: ``per_row`` to a row), then every piece
    or card once, with its name and how many copies there are."""
    if not puzzles:
        raise ValueError("no puzzle to draw")
    many = len(puzzles) > 1
    boards: list[_Panel] = []
    pieces: list[_Panel] = []
    for k, puzzle in enumerate(puzzles):
        title = (puzzle.board_name or puzzle.name) if many else puzzle.name
        board, drawn = puzzle.puzzle_panels(title)
        boards.append(board)
        if k == 0:
            pieces = drawn
    sections: list[tuple[list[_Panel], int | None]] = [(boards, per_row)]
    if pieces:
        sections.append((pieces, None))
    return _sheet(sections, puzzles[0].title).figure


_METADATA: dict[str, dict[str, Any]] = {
    "svg": {"Date": None, "Creator": "puzzlebox"},
    "png": {"Software": "puzzlebox"},
}


@dataclass(frozen=True)
class Resolution:
    """How large a PNG is: ``dpi`` dots per inch (100: the sheet's natural size, 40 px a
    polyomino cell), or ``width`` pixels across (the height follows). An SVG is vector and
    scales without loss, so neither applies to it."""

    dpi: float | None = None
    width: int | None = None

    def dpi_for(self, figure: Figure) -> float:
        if self.width is not None:
            return self.width / figure.get_figwidth()
        return DPI if self.dpi is None else self.dpi


NATURAL = Resolution()


def _save(figure: Figure, target: Any, fmt: str, resolution: Resolution = NATURAL) -> None:
    import matplotlib

    if fmt not in FORMATS:
        raise ValueError(f"unknown picture format {fmt!r} (known: {', '.join(FORMATS)})")
    with matplotlib.rc_context({"svg.hashsalt": "puzzlebox", "svg.fonttype": "path",
                                "hatch.color": HOLE_HATCH}):
        figure.savefig(target, format=fmt, dpi=resolution.dpi_for(figure),
                       metadata=_METADATA[fmt])


def write_figure(figure: Figure, path: str | Path, fmt: str,
                 resolution: Resolution = NATURAL) -> None:
    """Save as ``fmt`` (svg or png) at ``path``, making its folder if need be."""
    Path(path).parent.mkdir(parents=True, exist_ok=True)
    with open(path, "wb") as out:
        _save(figure, out, fmt, resolution)


def figure_bytes(figure: Figure, fmt: str) -> bytes:
    buffer = io.BytesIO()
    _save(figure, buffer, fmt)
    return buffer.getvalue()


def solution_svg(puzzle: Puzzle, solution: Solution) -> str:
    """One solution as SVG text (what a notebook shows)."""
    return figure_bytes(solution_figure(puzzle, solution), "svg").decode("utf-8")


def puzzle_svg(puzzle: Puzzle) -> str:
    """A puzzle's board and pieces as SVG text (what a notebook shows)."""
    return figure_bytes(puzzle_figure([puzzle]), "svg").decode("utf-8")


def is_folder(out: str | Path) -> bool:
    """``--out DIR/`` (or an existing folder) asks for one file per solution."""
    text = str(out)
    return text.endswith(("/", "\\")) or Path(text).is_dir()


def save_solutions(
    found: Iterable[tuple[Puzzle, Solution]], fmt: str, out: str | Path, name: str,
    resolution: Resolution = NATURAL,
) -> list[Path]:
    """Write pictures of solutions and return the files written.

    Into a folder: one file per solution, ``name-0001.svg`` and on (``name-board-0001.svg``
    for the boards of a batch), each drawn and written as it arrives. Into a file: one
    sheet of all of them, titled by puzzle, board or number.
    """
    if fmt not in FORMATS:
        raise ValueError(f"unknown picture format {fmt!r} (known: {', '.join(FORMATS)})")
    if is_folder(out):
        folder = Path(out)
        folder.mkdir(parents=True, exist_ok=True)
        written = []
        numbers: dict[str | None, int] = {}
        for puzzle, solution in found:
            board = puzzle.board_name
            numbers[board] = numbers.get(board, 0) + 1
            stem = file_component(f"{name}-{board}" if board else name)  # #18: no path from a file
            path = folder / f"{stem}-{numbers[board]:04d}.{fmt}"
            write_figure(solution_figure(puzzle, solution), path, fmt, resolution)
            written.append(path)
        return written
    pairs = list(found)
    if not pairs:
        return []
    boards = [puzzle.board_name for puzzle, _ in pairs]
    items = []
    for k, (puzzle, solution) in enumerate(pairs):
        if len(pairs) == 1:
            title = default_title(puzzle)
        elif boards[k] and boards.count(boards[k]) == 1:
            title = str(boards[k])
        elif boards[k]:
            title = f"{boards[k]} #{boards[:k].count(boards[k]) + 1}"
        else:
            title = f"solution {k + 1}"
        items.append((title, puzzle, solution))
    write_figure(solutions_figure(items), out, fmt, resolution)
    return [Path(out)]
