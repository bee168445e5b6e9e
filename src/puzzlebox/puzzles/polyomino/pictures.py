"""Polyominoes as pictures, on any lattice: solutions, the empty board, the pieces.

* a solution on a flat lattice: each placed piece as one filled polygon traced around its
  cells (holes inside a piece are part of the same compound path), outlined, coloured from
  the palette and labelled with its name; board colours (when the rules match colours) as
  dark squares set into the pieces; holes in the board hatched, the outside blank. On the
  triangle and hexagon lattices the cells are the lattice's own polygons
  (``lattice.polygon``), merged per piece the same way;
* a polycube solution: an isometric view of the assembled solid (the faces the viewer sees,
  shaded by the way they face, each piece in its colour) beside its layers, bottom first,
  each a square grid with the pieces' colours and names;
* ``show``: the empty board(s) and every piece with its name and count.

render/pictures.py lays the panels out on a sheet and writes the file.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import TYPE_CHECKING

from puzzlebox.geometry.lattice import Cell, Lattice, lattice_named
from puzzlebox.geometry.square import SQUARE
from puzzlebox.puzzles.polyomino.designer_drawing import paint_labels
from puzzlebox.render.isometric import piece_edges, view_extent, visible_faces
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
from puzzlebox.render.palette import (
    BOARD_FILL,
    GRID_LINE,
    HOLE_FILL,
    HOLE_HATCH,
    OUTLINE,
    color_darkness,
    grey,
    ink_on,
    mix,
    piece_color,
    shade,
)
from puzzlebox.render.pictures import (
    DPI,
    GAP,
    LEGEND_PT,
    MIN_LABEL_PT,
    TITLE_PT,
    Canvas,
    Panel,
    ink_box,
    title_height,
)
from puzzlebox.render.solid3d import Patch, ball_patches, patches_extent, polyhedra_patches
from puzzlebox.render.text import layer_heading

if TYPE_CHECKING:
    from puzzlebox.puzzles.polyomino.model import Piece, PolyominoPuzzle, PolyominoSolution

POLYOMINO_PX, POLYOMINO_FLOW = 40, 14.0  # pixels per cell; the least width of a row of panels


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
    if lattice.unit_squares:
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


def _color_tints(canvas: Canvas, lattice: Lattice, colored: dict[Cell, str],
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


def _holes(canvas: Canvas, lattice: Lattice, board: Iterable[Cell], x0: float, y0: float,
           fx: float, fy: float) -> None:
    holes = enclosed_cells(lattice, board)
    if holes:
        canvas.loops(_moved(cell_loops(lattice, holes), fx, fy), x0, y0,
                     gid=canvas.gid("holes"), facecolor=HOLE_FILL, edgecolor=HOLE_HATCH,
                     hatch="///", linewidth=0, zorder=1)


def _label(canvas: Canvas, text: str, x: float, y: float, rot: int, size: float, fill: str,
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
                              title: str) -> Panel:
    lattice = puzzle.lattice
    if lattice.dimensions == 3:
        return solid_solution_panel(puzzle, solution, title)
    fx, fy, w, h = _frame(lattice, puzzle.board)
    labeller = _Labeller([p.name for p in puzzle.pieces], POLYOMINO_PX, lattice)
    spots = [labeller.place(p.piece, p.cells) for p in solution.placements]
    legend = labeller.legend()
    legend_h = title_height(POLYOMINO_PX) * 1.6 if legend else 0.0

    def paint(canvas: Canvas, x0: float, y0: float) -> None:
        lw = canvas.line_width(0.06)
        _holes(canvas, lattice, puzzle.board, x0, y0, fx, fy)
        empty = puzzle.optional - {c for p in solution.placements for c in p.cells}
        if empty:  # optional cells left empty (#24): hatched, inside the board's outline
            canvas.loops(_moved(cell_loops(lattice, empty), fx, fy), x0, y0,
                         gid=canvas.gid("empty"), facecolor="#F4F4F4", edgecolor=HOLE_HATCH,
                         hatch="..", linewidth=0, zorder=1)
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
        _seam(canvas, puzzle, x0 - fx, y0 - fy, lw)
        for (text, x, y, rot, size), fill in zip(spots, fills, strict=True):
            _label(canvas, text, x0 + x - fx, y0 + y - fy, rot, size, fill, puzzle.match_colors)
        paint_labels(canvas, puzzle, x0 - fx, y0 - fy, open_only=True)  # designer_drawing.py
        if legend:
            canvas.text(x0 + w / 2, y0 + h + legend_h * 0.55, ",  ".join(legend),
                        LEGEND_PT / TITLE_PT * title_height(POLYOMINO_PX),
                        color="#333333")

    return Panel("solution", title, w, h + legend_h, paint, POLYOMINO_PX, POLYOMINO_FLOW)


def polyomino_board_panel(puzzle: PolyominoPuzzle, title: str) -> Panel:
    lattice = puzzle.lattice
    if lattice.dimensions == 3:
        return solid_board_panel(puzzle, title)
    fx, fy, w, h = _frame(lattice, puzzle.board)

    def paint(canvas: Canvas, x0: float, y0: float) -> None:
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
                                 facecolor=grey(dark), edgecolor="none", zorder=1.5)
        segs = _inner_segments(lattice, puzzle.board, x0 - fx, y0 - fy)
        canvas.segments(segs, GRID_LINE, canvas.line_width(0.02), 2)
        canvas.loops(loops, x0, y0, gid=canvas.gid("board"), facecolor="none",
                     edgecolor=OUTLINE, linewidth=2 * lw, zorder=4)
        _seam(canvas, puzzle, x0 - fx, y0 - fy, lw)
        paint_labels(canvas, puzzle, x0 - fx, y0 - fy, open_only=False)  # designer_drawing.py

    return Panel("board", title, w, h, paint, POLYOMINO_PX, POLYOMINO_FLOW)


SEAM_COLOR = "#D62728"  # the seam of a board that wraps: dashed, over the board's outline


def _seam(canvas: Canvas, puzzle: PolyominoPuzzle, dx: float, dy: float, lw: float) -> None:
    """The sides a tube or torus joins (#27), dashed over the flat board's outline, so the
    drawing says where the board closes up (a piece across it is drawn in two parts)."""
    if puzzle.wrap is None:
        return
    edges = puzzle.wrap.seam_edges(puzzle.lattice, puzzle.board)
    segs = [((x + dx, y + dy), (u + dx, v + dy)) for (x, y), (u, v) in edges]
    canvas.segments(segs, SEAM_COLOR, 2 * lw, 5, dashed=True, gid=canvas.gid("seam"))


def count_text(piece: Piece) -> str:
    """How many copies, as a title suffix: nothing for exactly one."""
    if piece.hi is None:
        return f"{piece.lo}+" if piece.lo else "any"
    if piece.lo == piece.hi:
        return "" if piece.lo == 1 else f"\u00d7{piece.lo}"
    return f"{piece.lo}\u2013{piece.hi}"


def polyomino_piece_panels(puzzle: PolyominoPuzzle) -> list[Panel]:
    lattice = puzzle.lattice
    if lattice.dimensions == 3:
        return solid_piece_panels(puzzle)
    panels = []
    title_cells_per_char = title_height(POLYOMINO_PX) * 0.62
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

        def paint(canvas: Canvas, x0: float, y0: float, piece: Piece = piece, cells=cells,
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

        panels.append(Panel("piece", title, width, h, paint, POLYOMINO_PX, POLYOMINO_FLOW))
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


def _paint_iso(canvas: Canvas, groups: Sequence[tuple[Sequence[Cell], str]], x0: float,
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


def _components(lattice: Lattice, cells: Iterable[Cell]) -> list[list[Cell]]:
    """Groups of a flat lattice's cells that touch by a side."""
    todo = set(cells)
    parts = []
    while todo:
        start = min(todo)
        todo.discard(start)
        part, stack = [start], [start]
        while stack:
            for near in lattice.neighbours(stack.pop()):
                if near in todo:
                    todo.discard(near)
                    part.append(near)
                    stack.append(near)
        parts.append(sorted(part))
    return parts


LAYER_GAP = 0.6  # cells between two layers


def flat_of(lattice: Lattice) -> Lattice:
    """The flat lattice each layer of a lattice in layers is drawn with (cube: squares,
    prism: triangles); squares, the positions of its grid, on a 3-D lattice not in layers
    (tetra-octa: BurrTools' positions, as its files write them)."""
    return lattice_named(lattice.layer_lattice or "square")


def _cubes(lattice: Lattice) -> bool:
    """Whether the cells are unit cubes, which the isometric view draws."""
    return lattice.unit_cubes


def _layers_size(board: Iterable[Cell], flat: Lattice = SQUARE
                 ) -> tuple[tuple[float, float, float, float], list[int], float, float]:
    """The frame of one layer (all layers' cells seen from above, as :func:`_frame`
    gives it), the layers (bottom first), and the width and height of the row of layers
    with their headings."""
    cells = list(board)
    frame = _frame(flat, {(c[1], c[2]) for c in cells})
    layers = sorted({c[0] for c in cells})
    width = len(layers) * _layer_slot(frame[2], layers) + (len(layers) - 1) * LAYER_GAP
    return frame, layers, width, frame[3] + title_height(POLYOMINO_PX) * 1.4


def _layer_slot(width: float, layers: list[int]) -> float:
    """The width given to one layer: its picture's, or its heading's where that is wider
    (about 0.55 em per character)."""
    size = LEGEND_PT / TITLE_PT * title_height(POLYOMINO_PX)
    longest = max(len(layer_heading(layer, layers)) for layer in layers)
    return max(float(width), longest * size * 0.55)


def _paint_layers(canvas: Canvas, board: Iterable[Cell],
                  groups: Sequence[tuple[Sequence[Cell], str, str | None]], x0: float,
                  y0: float, labeller: _Labeller | None,
                  colors: dict[Cell, str] | None = None, flat: Lattice = SQUARE) -> None:
    """Each layer of the board as a flat grid (``flat``'s cells: squares on cube, triangles
    on prism), bottom layer first, left to right: each group's cells in that layer as one
    outlined shape (gid ``layerK-piece-i``) in its colour, named inside where a group has a
    name; ``colors`` (a colour-matched board) as a dark veil over the darker colours'
    cells, as on flat boards."""
    board = list(board)
    darkness = color_darkness(colors.values()) if colors else {}
    (fx, fy, w, _), layers, _, _ = _layers_size(board, flat)
    head = title_height(POLYOMINO_PX) * 1.4
    lw = canvas.line_width(0.06)
    slot = _layer_slot(w, layers)
    for n, layer in enumerate(layers):
        lx = x0 + n * (slot + LAYER_GAP) + (slot - w) / 2
        heading = layer_heading(layer, layers)
        canvas.text(lx + w / 2, y0 + head * 0.45, heading,
                    LEGEND_PT / TITLE_PT * title_height(POLYOMINO_PX), color="#333333")
        ly = y0 + head
        cells_here = [(c[1], c[2]) for c in board if c[0] == layer]
        _holes(canvas, flat, cells_here, lx, ly, fx, fy)
        for i, (cells, color, name) in enumerate(groups):
            mine = [(c[1], c[2]) for c in cells if c[0] == layer]
            if not mine:
                continue
            canvas.loops(_moved(cell_loops(flat, mine), fx, fy), lx, ly,
                         gid=canvas.gid(f"layer{layer}-piece-{i}"), facecolor=color,
                         edgecolor=OUTLINE, linewidth=lw, zorder=2)
            segs = _inner_segments(flat, mine, lx - fx, ly - fy)
            canvas.segments(segs, mix(color, OUTLINE, 0.35), canvas.line_width(0.015), 2.5)
            if name is None or labeller is None:
                continue
            for part in _components(flat, mine):
                text, x, y, rot, size = labeller.place(name, part)
                _label(canvas, text, lx + x - fx, ly + y - fy, rot, size, color,
                       colors is not None)
        if colors:
            tints: dict[Cell, str] = {(c[1], c[2]): ch for c, ch in colors.items()
                                      if c[0] == layer}
            _color_tints(canvas, flat, tints, darkness, lx, ly, fx, fy,
                         f"layer{layer}-color")
        canvas.loops(_moved(cell_loops(flat, cells_here), fx, fy), lx, ly,
                     gid=canvas.gid(f"layer{layer}-board"), facecolor="none",
                     edgecolor=OUTLINE, linewidth=2 * lw, zorder=4)


def _polyhedra_view(lattice: Lattice, groups: Sequence[tuple[Sequence[Cell], str]],
                    scale: float = ISO_SCALE
                    ) -> tuple[float, float, Callable[[Canvas, float, float, str], None]]:
    """The view of cells that are polyhedra of their own (``Lattice.solid_faces``: prisms,
    tetrahedra and octahedron eighths) from where cubes are seen (render/solid3d.py): its
    width and height, and what paints it (``gid-i-k`` names group i's k-th face)."""
    patches = polyhedra_patches([[f for cell in cells for f in lattice.solid_faces(cell) or ()]
                                 for cells, _ in groups])
    vx, vy, vw, vh = patches_extent(patches) if patches else (0.0, 0.0, 0.0, 0.0)

    colors = [color for _, color in groups]

    def paint(canvas: Canvas, x0: float, y0: float, gid: str) -> None:
        _paint_patches(canvas, patches, colors, x0 - vx * scale, y0 - vy * scale, scale, gid)

    return vw * scale, vh * scale, paint


def _paint_patches(canvas: Canvas, patches: Sequence[Patch], colors: Sequence[str],
                   ox: float, oy: float, scale: float, gid: str) -> None:
    """The faces of a 3-D view, each in its group's colour lit by its slant, at
    ``(ox + x * scale, oy + y * scale)``; ``gid-i-k`` names group i's k-th face."""
    thin = canvas.line_width(0.025)
    counts: dict[int, int] = {}
    for patch in patches:
        color = colors[patch.group]
        k = counts.get(patch.group, 0)
        counts[patch.group] = k + 1
        fill = mix(color, "#FFFFFF", 0.35 * patch.light) if patch.light >= 0 else \
            mix(color, "#000000", -0.3 * patch.light)
        points = [(ox + x * scale, oy + y * scale) for x, y in patch.points]
        canvas.polygon(points, facecolor=fill, edgecolor=OUTLINE, linewidth=thin,
                       joinstyle="round", zorder=2, gid=canvas.gid(f"{gid}-{patch.group}-{k}"))


def _solid_panel(kind: str, title: str, board: Sequence[Cell],
                 groups: Sequence[tuple[Sequence[Cell], str, str | None]],
                 names: list[str], colors: dict[Cell, str] | None = None,
                 lattice: Lattice | None = None) -> Panel:
    """The view of ``groups`` on the left (unit cubes: render/isometric.py; polyhedra of
    their own, prisms and tetrahedra: render/solid3d.py; none for other cells), the board's
    layers on the right, each drawn with the cells of its flat lattice. A lattice that is
    not in layers of a flat one (tetra-octa: BurrTools' positions, mostly no cell) gets its
    view alone, with the pieces' names under it."""
    flat = SQUARE if lattice is None else flat_of(lattice)
    cubes = lattice is None or lattice.unit_cubes
    layered = lattice is None or lattice.layer_lattice is not None
    polyhedra = None
    if cubes:
        _, _, iso_w, iso_h = _iso_size(board)
    elif lattice is not None and lattice.solid_faces(board[0]) is not None:
        iso_w, iso_h, polyhedra = _polyhedra_view(lattice, [(c, k) for c, k, _ in groups])
    else:
        iso_w = iso_h = 0.0
    if not layered and polyhedra is None:
        layered = True  # nothing else draws it
    if layered:
        _, _, layers_w, layers_h = _layers_size(board, flat)
    else:  # a line of the pieces' names under the view
        layers_w = 0.0
        layers_h = title_height(POLYOMINO_PX) * 1.6 if names else 0.0
    labeller = _Labeller(names, POLYOMINO_PX, flat) if names else None
    gap = 2 * GAP if iso_w and layered else 0.0
    width = iso_w + gap + layers_w
    height = max(iso_h, layers_h) if layered else iso_h + layers_h

    def paint(canvas: Canvas, x0: float, y0: float) -> None:
        if cubes:
            _paint_iso(canvas, [(cells, color) for cells, color, _ in groups], x0,
                       y0 + (height - iso_h) / 2, "iso")
        elif polyhedra is not None:
            polyhedra(canvas, x0, y0 + ((height - iso_h) / 2 if layered else 0.0), "iso")
        if layered:
            _paint_layers(canvas, board, groups, x0 + iso_w + gap,
                          y0 + (height - layers_h) / 2, labeller, colors, flat)
        elif names:
            shown = [name for _, _, name in groups if name]
            if shown:
                canvas.text(x0 + width / 2, y0 + iso_h + layers_h * 0.55, ",  ".join(shown),
                            LEGEND_PT / TITLE_PT * title_height(POLYOMINO_PX),
                            color="#333333")

    return Panel(kind, title, width, height, paint, POLYOMINO_PX, POLYOMINO_FLOW)


# -- tetrahedra and balls (#37): the view alone -----------------------------------------------
#
# A rhombic or sphere puzzle's layers are BurrTools' voxel layers (most of a block empty, or
# a checkerboard of balls): drawn as squares they would read as cubes that are not there,
# so these puzzles are drawn as the view of the solid (render/solid3d.py), with a key of
# the pieces' colours under it.


def _patches(lattice: Lattice, groups: Sequence[Sequence[Cell]]) -> list[Patch]:
    if lattice.ball_radius is not None:
        return ball_patches(groups, lattice.ball_radius)
    return polyhedra_patches([[f for cell in cells for f in lattice.solid_faces(cell) or ()]
                              for cells in groups])


def _view_alone(lattice: Lattice) -> bool:
    """Whether a solid is drawn as its 3-D view alone: a lattice that is not in layers of
    flat cells (rhombic, sphere, tetra-octa; cube and prism show their layers too)."""
    return not lattice.unit_cubes and lattice.layer_lattice is None


def _view_panel(kind: str, title: str, lattice: Lattice,
                groups: Sequence[tuple[Sequence[Cell], str, str | None]],
                scale: float = ISO_SCALE) -> Panel:
    """The solid made of ``groups`` (cells, colour, name) seen from the front right and
    above, and a line naming each group's colour; ``iso-i-k`` names group i's k-th face."""
    patches = _patches(lattice, [cells for cells, _, _ in groups])
    vx, vy, vw, vh = patches_extent(patches) if patches else (0.0, 0.0, 1.0, 1.0)
    names = [name for _, _, name in groups if name]
    key_h = title_height(POLYOMINO_PX) * 1.6 if names else 0.0
    width, height = vw * scale, vh * scale

    colors = [color for _, color, _ in groups]

    def paint(canvas: Canvas, x0: float, y0: float) -> None:
        _paint_patches(canvas, patches, colors, x0 - vx * scale, y0 - vy * scale, scale, "iso")
        if names:
            canvas.text(x0 + width / 2, y0 + height + key_h * 0.55, ",  ".join(names),
                        LEGEND_PT / TITLE_PT * title_height(POLYOMINO_PX), color="#333333")

    return Panel(kind, title, width, height + key_h, paint, POLYOMINO_PX, POLYOMINO_FLOW)


def solid_solution_panel(puzzle: PolyominoPuzzle, solution: PolyominoSolution,
                         title: str) -> Panel:
    """A polycube solution: the assembled solid, each piece in its colour, and its layers
    with every cube in its piece's colour and name."""
    fills = _placement_fills(puzzle, solution)
    groups = [(p.cells, fill, p.piece)
              for p, fill in zip(solution.placements, fills, strict=True)]
    if _view_alone(puzzle.lattice):
        return _view_panel("solution", title, puzzle.lattice, groups)
    return _solid_panel("solution", title, list(puzzle.board), groups,
                        [p.name for p in puzzle.pieces],
                        puzzle.board if puzzle.match_colors else None, puzzle.lattice)


def solid_board_panel(puzzle: PolyominoPuzzle, title: str) -> Panel:
    """An empty polycube board: its solid in grey and its layers."""
    board = list(puzzle.board)
    if _view_alone(puzzle.lattice):
        return _view_panel("board", title, puzzle.lattice, [(board, SOLID_BOARD, None)])
    return _solid_panel("board", title, board, [(board, SOLID_BOARD, None)], [],
                        puzzle.board if puzzle.match_colors else None, puzzle.lattice)


def solid_piece_panels(puzzle: PolyominoPuzzle) -> list[Panel]:
    """Each polycube piece as a small isometric view in its colour, titled with its name
    and count (there is no room for a name on a cube's face); on a lattice whose layers
    are not squares (prism), the piece's layers side by side in its colour."""
    panels = []
    title_cells_per_char = title_height(POLYOMINO_PX) * 0.62
    if _view_alone(puzzle.lattice):
        return [_view_panel("piece", f"{piece.name} {count_text(piece)}".strip(),
                            puzzle.lattice, [(list(piece.shape.cells), piece_color(index),
                                              None)], PIECE_ISO_SCALE)
                for index, piece in enumerate(puzzle.pieces)]
    flat = flat_of(puzzle.lattice)
    for index, piece in enumerate(puzzle.pieces):
        cells = list(piece.shape.cells)
        if not _cubes(puzzle.lattice) and puzzle.lattice.solid_faces(cells[0]) is not None:
            vw, vh, view = _polyhedra_view(puzzle.lattice, [(cells, piece_color(index))],
                                           PIECE_ISO_SCALE)
            title = f"{piece.name} {count_text(piece)}".strip()
            width = max(vw, len(title) * title_cells_per_char)

            def paint_view(canvas: Canvas, x0: float, y0: float,
                           view: Callable[[Canvas, float, float, str], None] = view,
                           w: float = vw, width: float = width) -> None:
                view(canvas, x0 + (width - w) / 2, y0, "shape")

            panels.append(Panel("piece", title, width, vh, paint_view, POLYOMINO_PX,
                                POLYOMINO_FLOW))
            continue
        if not _cubes(puzzle.lattice):
            _, _, lw_, lh = _layers_size(cells, flat)
            title = f"{piece.name} {count_text(piece)}".strip()
            width = max(lw_, len(title) * title_cells_per_char)

            def paint_layers(canvas: Canvas, x0: float, y0: float, cells: list[Cell] = cells,
                             w: float = lw_, width: float = width, index: int = index) -> None:
                _paint_layers(canvas, cells, [(cells, piece_color(index), None)],
                              x0 + (width - w) / 2, y0, None, None, flat)

            panels.append(Panel("piece", title, width, lh, paint_layers, POLYOMINO_PX,
                                POLYOMINO_FLOW))
            continue
        _, _, w, h = _iso_size(cells, PIECE_ISO_SCALE)
        title = f"{piece.name} {count_text(piece)}".strip()
        width = max(w, len(title) * title_cells_per_char)

        def paint(canvas: Canvas, x0: float, y0: float, cells: list[Cell] = cells,
                  w: float = w, width: float = width, index: int = index) -> None:
            _paint_iso(canvas, [(cells, piece_color(index))], x0 + (width - w) / 2, y0,
                       "shape", PIECE_ISO_SCALE)

        panels.append(Panel("piece", title, width, h, paint, POLYOMINO_PX, POLYOMINO_FLOW))
    return panels
