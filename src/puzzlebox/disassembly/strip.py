"""A disassembly as a strip of pictures: every position from the assembly to the last piece
out, drawn isometrically (render/isometric.py), each piece in its colour.

Moves are replayed on the whole assembly in the order :meth:`Separation.all_moves` gives
them; a move that takes a part away slides it clear of everything (twice the assembly's
size, and one size more for each part taken away before), so the later pictures show the
parts apart.
"""

from __future__ import annotations

from typing import Any
from xml.sax.saxutils import escape

from puzzlebox.disassembly.assemblies import Disassembled
from puzzlebox.disassembly.search import Move
from puzzlebox.outfile import replacing, write_text
from puzzlebox.render.drawing import pictures
from puzzlebox.render.isometric import visible_faces
from puzzlebox.render.palette import piece_color, shade

Offset = tuple[int, int, int]
SCALE = 14.0  # pixels per cell edge
SIDE_SHADE = {"top": 2, "front": 0, "right": -2}


def positions(done: Disassembled, dims: int) -> list[list[Offset]]:
    """The offset (x, y, z) of every piece after each move, the assembly first."""
    assert done.separation is not None
    cells = [[_xyz(c, dims) for c in p.cells] for p in done.placements]
    span = 1 + max(max(abs(v) for c in piece for v in c) for piece in cells)
    now: list[Offset] = [(0, 0, 0)] * len(cells)
    out = [list(now)]
    removed = 0
    for move in done.separation.all_moves():
        # each part taken away goes further than the one before, so none lands on another
        now = _apply(now, move, (2 + removed) * span)
        removed += move.distance is None
        out.append(list(now))
    return out


def _xyz(cell: tuple[int, ...], dims: int) -> Offset:
    return (cell[1], cell[0], 0) if dims == 2 else (cell[2], cell[1], cell[0])


def _apply(now: list[Offset], move: Move, away: int) -> list[Offset]:
    distance = away if move.distance is None else move.distance
    dx, dy, dz = (v * distance for v in move.direction)
    return [(x + dx, y + dy, z + dz) if k in move.pieces else (x, y, z)
            for k, (x, y, z) in enumerate(now)]


Polygon = tuple[list[tuple[float, float]], str]  # corners (pixels, y down) and fill


def panels(done: Disassembled, dims: int) -> list[tuple[list[Polygon], str]]:
    """Each position's visible faces (in painter's order) and its caption."""
    base = [[_xyz(c, dims) for c in p.cells] for p in done.placements]
    names = sorted(set(done.names))
    colour = {name: piece_color(k) for k, name in enumerate(names)}
    moves = done.separation.all_moves() if done.separation else []
    out: list[tuple[list[Polygon], str]] = []
    for step, offsets in enumerate(positions(done, dims)):
        owner: dict[tuple[int, ...], int] = {}
        for k, piece in enumerate(base):
            ox, oy, oz = offsets[k]
            for x, y, z in piece:
                owner[(z + oz, y + oy, x + ox)] = k  # (layer, row, col) for the projection
        polygons: list[Polygon] = []
        for face in visible_faces(list(owner)):
            fill = shade(colour[done.names[owner[face.cell]]], SIDE_SHADE.get(face.side, 0))
            polygons.append(([(x * SCALE, y * SCALE) for x, y in face.corners], fill))
        caption = "assembled" if step == 0 else \
            moves[step - 1].text(list(done.names)).replace(",", " ")
        out.append((polygons, f"{step}. {caption}"))
    return out


def _layout(done: Disassembled, dims: int
            ) -> tuple[list[tuple[list[Polygon], str, float, float]], float, float]:
    """Panels side by side: each with the shift that places it, and the strip's size."""
    placed = []
    x_at = 10.0
    height = 0.0
    for polygons, caption in panels(done, dims):
        xs = [x for pts, _ in polygons for x, _ in pts]
        ys = [y for pts, _ in polygons for _, y in pts]
        placed.append((polygons, caption, x_at - min(xs), 10 - min(ys)))
        height = max(height, max(ys) - min(ys) + 38)
        x_at += max(xs) - min(xs) + 20
    return placed, x_at, height


def strip_svg(done: Disassembled, dims: int) -> str:
    """An SVG of every position side by side, captioned with the move that led to it."""
    placed, width, height = _layout(done, dims)
    parts = []
    for polygons, caption, dx, dy in placed:
        shapes = [f'<polygon points="{" ".join(f"{x:.1f},{y:.1f}" for x, y in pts)}" '
                  f'fill="{fill}" stroke="#333" stroke-width="0.6"/>' for pts, fill in polygons]
        low = max(y for pts, _ in polygons for _, y in pts)
        left = min(x for pts, _ in polygons for x, _ in pts)
        shapes.append(f'<text x="{left:.1f}" y="{low + 14:.1f}" font-size="11" '
                      f'font-family="sans-serif">{escape(caption)}</text>')
        parts.append(f'<g transform="translate({dx:.1f},{dy:.1f})">' + "".join(shapes) + "</g>")
    title = escape(f"level {done.level}")
    return (f'<svg xmlns="http://www.w3.org/2000/svg" width="{width:.0f}" '
            f'height="{height:.0f}" viewBox="0 0 {width:.0f} {height:.0f}"><title>{title}'
            "</title>" + "".join(parts) + "</svg>\n")


def strip_png(done: Disassembled, dims: int, out: Any) -> None:
    """The same strip as a PNG (matplotlib, the ``pictures`` extra)."""

    pictures()  # a one-line refusal when matplotlib is missing
    import matplotlib

    matplotlib.use("Agg")
    from matplotlib.figure import Figure
    from matplotlib.patches import Polygon as Patch

    placed, width, height = _layout(done, dims)
    dpi = 100
    figure = Figure(figsize=(width / dpi, height / dpi), dpi=dpi)
    axes = figure.add_axes((0, 0, 1, 1))
    axes.set_xlim(0, width)
    axes.set_ylim(height, 0)
    axes.axis("off")
    for polygons, caption, dx, dy in placed:
        for pts, fill in polygons:
            axes.add_patch(Patch([(x + dx, y + dy) for x, y in pts], closed=True,
                                 facecolor=fill, edgecolor="#333333", linewidth=0.4))
        low = max(y for pts, _ in polygons for _, y in pts) + dy
        left = min(x for pts, _ in polygons for x, _ in pts) + dx
        axes.text(left, low + 12, caption, fontsize=8, family="sans-serif")
    figure.savefig(out, format="png", dpi=dpi)


def write_strip(done: Disassembled, dims: int, out: str, fmt: str = "svg") -> None:
    if fmt == "png":  # whole or not at all (#38 item 5)
        with replacing(out) as handle:
            strip_png(done, dims, handle)
    else:
        write_text(out, strip_svg(done, dims))
