"""A disassembly as a strip of pictures: every position from the assembly to the last piece
out, drawn isometrically (render/isometric.py), each piece in its colour.

Moves are replayed on the whole assembly in the order :meth:`Separation.all_moves` gives
them; a move that takes a part away slides it clear of everything (the assembly's size plus
one), so the later pictures show the parts apart.
"""

from __future__ import annotations

from pathlib import Path
from xml.sax.saxutils import escape

from puzzlebox.disassembly.assemblies import Disassembled
from puzzlebox.disassembly.search import Move
from puzzlebox.render.isometric import visible_faces
from puzzlebox.render.pictures import piece_color, shade

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
    for move in done.separation.all_moves():
        now = _apply(now, move, 2 * span)
        out.append(list(now))
    return out


def _xyz(cell: tuple[int, ...], dims: int) -> Offset:
    return (cell[1], cell[0], 0) if dims == 2 else (cell[2], cell[1], cell[0])


def _apply(now: list[Offset], move: Move, away: int) -> list[Offset]:
    distance = away if move.distance is None else move.distance
    dx, dy, dz = (v * distance for v in move.direction)
    return [(x + dx, y + dy, z + dz) if k in move.pieces else (x, y, z)
            for k, (x, y, z) in enumerate(now)]


def strip_svg(done: Disassembled, dims: int) -> str:
    """An SVG of every position side by side, numbered by the move that led to it."""
    pieces = done.placements
    base = [[_xyz(c, dims) for c in p.cells] for p in pieces]
    names = sorted(set(done.names))
    colour = {name: piece_color(k) for k, name in enumerate(names)}
    panels: list[tuple[list[str], float, float, float, float]] = []
    moves = done.separation.all_moves() if done.separation else []
    for step, offsets in enumerate(positions(done, dims)):
        owner: dict[tuple[int, ...], int] = {}
        for k, piece in enumerate(base):
            ox, oy, oz = offsets[k]
            for x, y, z in piece:
                owner[(z + oz, y + oy, x + ox)] = k  # (layer, row, col) for the projection
        shapes = []
        xs: list[float] = []
        ys: list[float] = []
        for face in visible_faces(list(owner)):
            fill = shade(colour[done.names[owner[face.cell]]], SIDE_SHADE.get(face.side, 0))
            pts = " ".join(f"{x * SCALE:.1f},{y * SCALE:.1f}" for x, y in face.corners)
            xs += [x * SCALE for x, _ in face.corners]
            ys += [y * SCALE for _, y in face.corners]
            shapes.append(f'<polygon points="{pts}" fill="{fill}" stroke="#333" '
                          'stroke-width="0.6"/>')
        caption = "assembled" if step == 0 else \
            escape(moves[step - 1].text(list(done.names)).replace(",", " "))
        shapes.append(f'<text x="{min(xs):.1f}" y="{max(ys) + 14:.1f}" font-size="11" '
                      f'font-family="sans-serif">{step}. {caption}</text>')
        panels.append((shapes, min(xs), min(ys), max(xs), max(ys) + 18))
    parts = []
    x_at = 10.0
    height = max(p[4] - p[2] for p in panels) + 20
    for shapes, x0, y0, x1, _y1 in panels:
        parts.append(f'<g transform="translate({x_at - x0:.1f},{10 - y0:.1f})">'
                     + "".join(shapes) + "</g>")
        x_at += (x1 - x0) + 20
    title = escape(f"level {done.level}")
    return (f'<svg xmlns="http://www.w3.org/2000/svg" width="{x_at:.0f}" height="{height:.0f}" '
            f'viewBox="0 0 {x_at:.0f} {height:.0f}"><title>{title}</title>'
            + "".join(parts) + "</svg>\n")


def write_strip(done: Disassembled, dims: int, out: str) -> None:
    Path(out).write_text(strip_svg(done, dims), encoding="utf-8")
