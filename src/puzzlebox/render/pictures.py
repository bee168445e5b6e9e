"""Pictures of puzzles and solutions, as SVG or PNG, drawn with matplotlib: the sheet.

matplotlib is an optional extra (``pictures``): this module imports it, and is itself
imported only on demand (render/drawing.py, render/notebook.py, and each kind's pictures
module, which the kind's model loads when asked to draw), so the rest of the package never
pays for it. Everything is drawn on one axes whose unit is one cell (x = column, y = row,
y down), so a sheet of many panels is one coordinate system and font sizes are fractions
of a cell.

Each kind draws its own panels (``Puzzle.solution_panel``, ``Puzzle.puzzle_panels``, in
``puzzles/<kind>/pictures.py``) on a :class:`Canvas`, in the colours of render/palette.py;
this module lays the panels out on a sheet under their titles and writes the file.

Output is kept reproducible: fixed SVG id salt, no date in the metadata, text as paths.
"""

from __future__ import annotations

import io
import textwrap
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

import matplotlib
from matplotlib.axes import Axes
from matplotlib.figure import Figure
from matplotlib.font_manager import FontProperties
from matplotlib.patches import PathPatch, Polygon, Rectangle
from matplotlib.path import Path as MplPath
from matplotlib.textpath import TextPath, text_to_path

from puzzlebox.outfile import replacing
from puzzlebox.render.drawable import Drawable
from puzzlebox.render.outline import (
    FPoint,
)
from puzzlebox.render.palette import (
    HOLE_HATCH,
)
from puzzlebox.safety import drawn_as_written, file_component

if TYPE_CHECKING:
    import numpy as np


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
# -- colours ---------------------------------------------------------------------------------


_INK: dict[tuple[str, str], tuple[float, float, float, float]] = {}


def ink_box(text: str, weight: str = "bold") -> tuple[float, float, float, float]:
    """The inked box of ``text`` at a font size of one: (x0, y0, width, height) from the
    start of the baseline, y up. Measured with the font matplotlib draws with."""
    key = (text, weight)
    if key not in _INK:

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

    A puzzle kind's drawing methods return panels made by its own pictures module; a sheet
    takes its scale (``cell_px``, ``flow_width``) from its first panel.
    """

    kind: str  # board | solution | piece | card: names the panel in the SVG
    title: str
    width: float
    height: float
    paint: Callable[[Canvas, float, float], None]
    cell_px: int  # pixels per cell before any scaling down
    flow_width: float  # the least width (in cells) of a row of pieces or cards




class Canvas:
    """One matplotlib figure whose axes unit is one cell; names elements for the SVG."""

    def __init__(self, width: float, height: float, cell_px: float) -> None:

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

        style.setdefault("joinstyle", "miter")
        self.ax.add_patch(Polygon(points, closed=True, clip_on=False, **style))

    def rect(self, x: float, y: float, w: float, h: float, **style: Any) -> None:
        self.ax.add_patch(Rectangle((x, y), w, h, clip_on=False, **style))

    def segments(self, segs: list[tuple[tuple[float, float], tuple[float, float]]],
                 color: str, width: float, zorder: float, capstyle: str = "butt",
                 dashed: bool = False, gid: str | None = None) -> None:
        """Line segments (cell lines; a polystick's sticks, with round caps) as one path:
        one element in the SVG, not one each. ``dashed`` for a line that is no wall (the
        seam of a board that wraps)."""

        if not segs:
            return
        verts = [point for seg in segs for point in seg]
        codes = [MplPath.MOVETO, MplPath.LINETO] * len(segs)
        style: dict[str, Any] = {} if capstyle == "butt" else {"capstyle": capstyle}
        patch = PathPatch(MplPath(verts, codes), facecolor="none", edgecolor=color,
                          linewidth=width, zorder=zorder, clip_on=False,
                          linestyle="--" if dashed else "-", **style)
        if gid is not None:
            patch.set_gid(gid)
        self.ax.add_patch(patch)

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


def title_height(cell_px: int) -> float:
    """A panel title's size in cells, at the kind's pixels per cell."""
    return TITLE_PT / (cell_px * 72 / DPI)


def _sheet(sections: list[tuple[list[Panel], int | None]], caption: str = "") -> Canvas:
    """Lay out panels and paint them, under ``caption`` (the puzzle's title, wrapped to the
    sheet's width) when there is one.

    Each section is a list of panels and a number per row: with a number the panels sit on
    a grid of equal slots (a batch of boards), without one they flow in rows as wide as the
    widest other section (a sheet of pieces).
    """
    first = next(p for panels, _ in sections for p in panels)
    base_px = first.cell_px
    title_h = title_height(base_px) * 1.8
    grid_width = 0.0
    slot: float | None  # a grid row's slot width; None for a flowing row
    for panels, per_row in sections:
        if per_row is not None and panels:
            slot = max(p.width for p in panels)
            grid_width = max(grid_width, min(per_row, len(panels)) * (slot + GAP) - GAP)
    flow_width = max(grid_width, first.flow_width)
    ordered: list[tuple[list[Panel], float | None]] = []
    for panels, per_row in sections:
        if not panels:
            continue
        if per_row is not None:
            slot = max(p.width for p in panels)
            ordered += [(panels[i : i + per_row], slot) for i in range(0, len(panels), per_row)]
            continue
        row: list[Panel] = []
        used = 0.0
        for p in panels:
            if row and used + GAP + p.width > flow_width:
                ordered.append((row, None))
                row, used = [], 0.0
            used += (GAP if row else 0.0) + p.width
            row.append(p)
        if row:
            ordered.append((row, None))

    def row_width(row: list[Panel], slot: float | None) -> float:
        return sum((slot if slot is not None else p.width) for p in row) + GAP * (len(row) - 1)

    def band(row: list[Panel]) -> float:  # room for titles, where the row has any
        return title_h if any(p.title for p in row) else 0.0

    width = max(row_width(r, s) for r, s in ordered) + 2 * MARGIN
    title_size = title_height(base_px)
    # about 0.55 em per character of the sans-serif font: wrap the caption to the sheet
    per_line = max(12, int((width - 2 * MARGIN) / (title_size * 0.55)))
    caption_lines = textwrap.wrap(caption, per_line) if caption else []
    caption_h = len(caption_lines) * title_h * 0.8 + (GAP / 2 if caption_lines else 0.0)
    height = 2 * MARGIN + caption_h
    height += sum(max(p.height for p in r) + band(r) for r, _ in ordered)
    height += GAP * (len(ordered) - 1)
    cell_px = base_px * min(1.0, MAX_WIDTH_PX / (width * base_px))
    canvas = Canvas(width, height, cell_px)
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


# -- what the rest of the package calls ------------------------------------------------------


def default_title(puzzle: Drawable) -> str:
    return puzzle.label


def solutions_figure(items: Sequence[tuple[str, Drawable, Any]], per_row: int = 5) -> Figure:
    """Several solutions on one sheet, ``per_row`` to a row, each with its title, under the
    first puzzle's ``title`` (a file's own words, where it has them)."""
    if not items:
        raise ValueError("no solutions to draw")
    panels = [puzzle.solution_panel(solution, title) for title, puzzle, solution in items]
    return _sheet([(panels, per_row)], items[0][1].title).figure


def solution_figure(puzzle: Drawable, solution: Any, title: str | None = None) -> Figure:
    """One solution, titled with the puzzle's name unless told otherwise, and captioned
    with the puzzle's ``title``."""
    return solutions_figure([(default_title(puzzle) if title is None else title, puzzle,
                              solution)])


def puzzle_figure(puzzles: Sequence[Drawable], per_row: int = 5) -> Figure:
    """The empty board of every puzzle (a batch: ``per_row`` to a row), then every piece
    or card once, with its name and how many copies there are."""
    if not puzzles:
        raise ValueError("no puzzle to draw")
    many = len(puzzles) > 1
    boards: list[Panel] = []
    pieces: list[Panel] = []
    for k, puzzle in enumerate(puzzles):
        title = (puzzle.board_name or puzzle.name) if many else puzzle.name
        board, drawn = puzzle.puzzle_panels(title)
        boards.append(board)
        if k == 0:
            pieces = drawn
    sections: list[tuple[list[Panel], int | None]] = [(boards, per_row)]
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
    with replacing(path) as out:  # whole or not at all (#38 item 5)
        _save(figure, out, fmt, resolution)


def figure_bytes(figure: Figure, fmt: str) -> bytes:
    buffer = io.BytesIO()
    _save(figure, buffer, fmt)
    return buffer.getvalue()


def solution_svg(puzzle: Drawable, solution: Any) -> str:
    """One solution as SVG text (what a notebook shows)."""
    return figure_bytes(solution_figure(puzzle, solution), "svg").decode("utf-8")


def puzzle_svg(puzzle: Drawable) -> str:
    """A puzzle's board and pieces as SVG text (what a notebook shows)."""
    return figure_bytes(puzzle_figure([puzzle]), "svg").decode("utf-8")


def is_folder(out: str | Path) -> bool:
    """``--out DIR/`` (or an existing folder) asks for one file per solution."""
    text = str(out)
    return text.endswith(("/", "\\")) or Path(text).is_dir()


def save_solutions(
    found: Iterable[tuple[Drawable, Any]], fmt: str, out: str | Path, name: str,
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
