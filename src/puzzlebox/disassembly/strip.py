"""A disassembly as pictures a designer reads (#35 item 5): every position from the
assembly to the last piece out, drawn isometrically (render/isometric.py), in a grid of
frames that wraps (at most :data:`PER_ROW` a row) under a key from colour to piece name.

In each frame the piece or group that the move moved is drawn in full colour with a dark
outline (``class="moving"``) and the others washed out (``class="faded"``). A move that
takes a part away draws that part once, just clear of the rest (``class="moving
leaving"``); from the next frame on it is gone, and each part is then taken apart on its
own, in the order :meth:`Separation.all_moves` gives the moves (the part left first, then
the part removed, drawn where it was). When most of the moving piece is hidden behind
pieces that stand still (a box or frame around it), those pieces are drawn as a wire frame
(``class="wire"``: their outline, no fill), so the move inside can be seen.

:func:`strip_svg` with ``animate=True`` stacks the frames in one place and steps through
them with SMIL (one ``<animate>`` a frame, one second each, looping): browsers, the
notebook and the docs play it. :func:`sheet_svg` draws assemblies side by side, each with
its caption (``solve --disassemble --format svg``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any
from xml.sax.saxutils import escape, quoteattr

from puzzlebox.disassembly.assemblies import Disassembled
from puzzlebox.disassembly.search import Move, Separation
from puzzlebox.outfile import replacing, write_text
from puzzlebox.render.drawing import pictures
from puzzlebox.render.isometric import piece_edges, visible_faces
from puzzlebox.render.palette import mix, piece_color, shade

Offset = tuple[int, int, int]
Cell3 = tuple[int, int, int]
SCALE = 14.0  # pixels per cell edge
SIDE_SHADE = {"top": 0, "front": 1, "right": 2}  # the top in the colour of the key
PER_ROW = 6  # frames a row at most
FADE = 0.62  # how far a piece that stands still is washed towards white
GAP = 20.0  # between frames
CAPTION = 20.0  # below a frame
KEY_ROW = 18.0


@dataclass
class Frame:
    """One position: the offset of each piece still drawn, which moved to get here, the
    caption; ``leaving`` when the move took ``moving`` away (drawn beside, then gone)."""

    offsets: dict[int, Offset]
    moving: frozenset[int] = frozenset()
    caption: str = ""
    leaving: bool = False


@dataclass
class Polygon:
    """A face on the screen: corners (pixels, y down), fill ("none" for a wire frame),
    outline, its class (moving, faded, still, wire) and the piece's name."""

    points: list[tuple[float, float]]
    fill: str
    stroke: str
    width: float
    kind: str
    piece: str
    dashed: bool = field(default=False)


def _xyz(cell: tuple[int, ...], dims: int) -> Offset:
    return (cell[1], cell[0], 0) if dims == 2 else (cell[2], cell[1], cell[0])


def _cells(done: Disassembled, dims: int) -> list[list[Offset]]:
    return [[_xyz(c, dims) for c in p.cells] for p in done.placements]


def _add(a: Offset, direction: tuple[int, int, int], distance: int) -> Offset:
    return (a[0] + direction[0] * distance, a[1] + direction[1] * distance,
            a[2] + direction[2] * distance)


def positions(done: Disassembled, dims: int) -> list[list[Offset]]:
    """The offset (x, y, z) of every piece after each move, the assembly first, every piece
    in every position (the page animates these): a move that takes a part away slides it
    clear of everything (twice the assembly's size, and one size more for each part taken
    away before), so none lands on another."""
    assert done.separation is not None
    cells = _cells(done, dims)
    span = 1 + max(max(abs(v) for c in piece for v in c) for piece in cells)
    now: list[Offset] = [(0, 0, 0)] * len(cells)
    out = [list(now)]
    removed = 0
    for move in done.separation.all_moves():
        distance = (2 + removed) * span if move.distance is None else move.distance
        now = [_add(o, move.direction, distance) if k in move.pieces else o
               for k, o in enumerate(now)]
        removed += move.distance is None
        out.append(list(now))
    return out


def _clear(base: list[list[Offset]], now: dict[int, Offset], move: Move) -> int:
    """How far the part that ``move`` takes away goes to stand just clear of the rest, one
    cell of air between, along the move's axis."""
    axis = next(a for a in range(3) if move.direction[a])
    sign = move.direction[axis]

    def span(pieces: Sequence[int]) -> tuple[int, int] | None:
        values = [c[axis] + now[k][axis] for k in pieces for c in base[k]]
        return (min(values), max(values)) if values else None

    mine = span([k for k in move.pieces if k in now])
    rest = span([k for k in now if k not in move.pieces])
    if mine is None or rest is None:
        return 1
    far = rest[1] - mine[0] + 2 if sign > 0 else mine[1] - rest[0] + 2
    return max(1, far)


def frames(done: Disassembled, dims: int) -> list[Frame]:
    """The assembly, then one frame a move (:meth:`Separation.all_moves`' order)."""
    base = _cells(done, dims)
    out = [Frame({k: (0, 0, 0) for k in range(len(base))}, caption="0. assembled")]
    names = list(done.names)

    def walk(sep: Separation, start: dict[int, Offset]) -> None:
        now = dict(start)
        for move in sep.moves:
            text = f"{len(out)}. {move.text(names).replace(',', ' ')}"
            if move.distance is None:
                far = _clear(base, now, move)
                shown = {k: _add(v, move.direction, far) if k in move.pieces else v
                         for k, v in now.items()}
                out.append(Frame(shown, frozenset(move.pieces), text, leaving=True))
            else:
                now = {k: _add(v, move.direction, move.distance) if k in move.pieces else v
                       for k, v in now.items()}
                out.append(Frame(dict(now), frozenset(move.pieces), text))
        gone = set(sep.moves[-1].pieces) if sep.moves else set()
        if sep.left is not None:
            walk(sep.left, {k: v for k, v in now.items() if k not in gone})
        if sep.removed is not None:
            walk(sep.removed, {k: v for k, v in now.items() if k in gone})

    if done.separation is not None:
        walk(done.separation, out[0].offsets)
    return out


def colours(names: Sequence[str]) -> dict[str, str]:
    """Each piece name's colour (the names sorted, as every picture of puzzlebox does)."""
    return {name: piece_color(k) for k, name in enumerate(sorted(set(names)))}


def _scene(cells: dict[Cell3, int]) -> list[Any]:
    return visible_faces(list(cells))


def _wire(base: list[list[Offset]], frame: Frame) -> set[int]:
    """The pieces standing still that hide most of the moving piece (a box around it): drawn
    as a wire frame. None when the moving part is mostly in sight, or leaves."""
    if not frame.moving or frame.leaving:
        return set()

    def placed(k: int) -> list[Cell3]:
        ox, oy, oz = frame.offsets[k]
        return [(z + oz, y + oy, x + ox) for x, y, z in base[k]]

    mine: list[Cell3] = [c for k in frame.moving if k in frame.offsets for c in placed(k)]
    alone = len(visible_faces(mine))
    owner: dict[tuple[int, ...], int] = {c: k for k in frame.offsets for c in placed(k)}
    seen = sum(owner[f.cell] in frame.moving for f in visible_faces(list(owner)))
    if alone == 0 or seen * 2 > alone:
        return set()
    wire = set()
    for k in frame.offsets:
        if k in frame.moving:
            continue
        both = mine + placed(k)
        kept = set(mine)
        if sum(f.cell in kept for f in visible_faces(both)) < alone:
            wire.add(k)
    return wire


def polygons(done: Disassembled, dims: int, frame: Frame,
             colour: dict[str, str]) -> list[Polygon]:
    """The frame's faces in painter's order, then the wire frames over them."""
    base = _cells(done, dims)
    wire = _wire(base, frame)
    solid: dict[Cell3, int] = {}
    hollow: dict[int, list[Cell3]] = {}
    for k, (ox, oy, oz) in frame.offsets.items():
        for x, y, z in base[k]:
            cell = (z + oz, y + oy, x + ox)  # (layer, row, col) for the projection
            if k in wire:
                hollow.setdefault(k, []).append(cell)
            else:
                solid[cell] = k
    out: list[Polygon] = []
    for face in _scene(solid):
        k = solid[face.cell]
        name = done.names[k]
        fill = shade(colour[name], SIDE_SHADE.get(face.side, 0))
        points = [(x * SCALE, y * SCALE) for x, y in face.corners]
        if not frame.moving:
            out.append(Polygon(points, fill, "#333333", 0.6, "still", name))
        elif k in frame.moving:
            kind = "moving leaving" if frame.leaving else "moving"
            out.append(Polygon(points, fill, "#000000", 1.2, kind, name))
        else:
            out.append(Polygon(points, mix(fill, "#FFFFFF", FADE), "#A0A0A0", 0.5, "faded",
                               name))
    for k, cells in sorted(hollow.items()):
        name = done.names[k]  # the piece's outline as seen on its own: no cell grid
        for a, b in piece_edges({cell: k for cell in cells}):
            out.append(Polygon([(a[0] * SCALE, a[1] * SCALE), (b[0] * SCALE, b[1] * SCALE)],
                               "none", shade(colour[name], 2), 0.9, "wire", name,
                               dashed=True))
    return out


# -- layout --------------------------------------------------------------------------------

@dataclass
class Placed:
    """A frame's polygons, caption, where it stands (``dx, dy`` added to its points) and its
    place in the grid."""

    shapes: list[Polygon]
    caption: str
    dx: float
    dy: float
    row: int
    col: int
    step: int
    moving: list[str]


def _box(shapes: list[Polygon]) -> tuple[float, float, float, float]:
    xs = [x for p in shapes for x, _ in p.points] or [0.0]
    ys = [y for p in shapes for _, y in p.points] or [0.0]
    return min(xs), min(ys), max(xs), max(ys)


def _key_entries(names: Sequence[str], width: float) -> tuple[list[tuple[str, float, float]],
                                                            float]:
    """Where each name of the key stands (x, y of its swatch) within ``width``; the key's
    height."""
    entries = []
    x, y = 10.0, 10.0
    for name in sorted(set(names)):
        wide = 14 + 7 * len(name) + 18
        if x + wide > width - 10 and x > 10:
            x, y = 10.0, y + KEY_ROW
        entries.append((name, x, y))
        x += wide
    return entries, y + KEY_ROW + 6


def _grid(items: list[tuple[list[Polygon], str, list[str]]], names: Sequence[str],
          per_row: int = PER_ROW) -> tuple[list[Placed], list[tuple[str, float, float]],
                                           float, float]:
    """Frames in rows of at most ``per_row``, under the key: the frames, the key, the size."""
    boxes = [_box(shapes) for shapes, _, _ in items]
    cell_w = max(b[2] - b[0] for b in boxes) + GAP
    cell_w = max(cell_w, 130.0)
    across = max(1, min(per_row, len(items)))
    width = 10 + across * cell_w
    key, top = _key_entries(names, width)
    rows = (len(items) + across - 1) // across
    # each row as tall as its tallest frame; frames stand on the row's caption line
    tall = [max(b[3] - b[1] for b in boxes[r * across:(r + 1) * across]) for r in range(rows)]
    placed = []
    for step, ((shapes, caption, moving), box) in enumerate(zip(items, boxes, strict=True)):
        row, col = divmod(step, across)
        dx = 10 + col * cell_w + (cell_w - GAP - (box[2] - box[0])) / 2 - box[0]
        below = top + sum(tall[:row]) + row * (CAPTION + GAP) + tall[row]
        placed.append(Placed(shapes, caption, dx, below - box[3], row, col, step, moving))
    return placed, key, width, top + sum(tall) + rows * (CAPTION + GAP)


def _items(done: Disassembled, dims: int) -> list[tuple[list[Polygon], str, list[str]]]:
    colour = colours(done.names)
    return [(polygons(done, dims, f, colour), f.caption,
             sorted({done.names[k] for k in f.moving})) for f in frames(done, dims)]


# -- SVG -----------------------------------------------------------------------------------

def _polygon_svg(p: Polygon, dx: float, dy: float) -> str:
    points = " ".join(f"{x + dx:.1f},{y + dy:.1f}" for x, y in p.points)
    dash = ' stroke-dasharray="3,2"' if p.dashed else ""
    element = "polyline" if len(p.points) == 2 else "polygon"  # a wire frame's edge
    return (f'<{element} class="{p.kind}" data-piece={quoteattr(p.piece)} points="{points}" '
            f'fill="{p.fill}" stroke="{p.stroke}" stroke-width="{p.width}"{dash}/>')


def _key_svg(key: list[tuple[str, float, float]], colour: dict[str, str]) -> str:
    parts = ['<g class="key">']
    for name, x, y in key:
        parts.append(f'<rect class="swatch" data-piece={quoteattr(name)} x="{x:.1f}" '
                     f'y="{y:.1f}" width="12" height="12" fill="{colour[name]}" '
                     'stroke="#333"/>')
        parts.append(f'<text x="{x + 16:.1f}" y="{y + 10:.1f}" font-size="11" '
                     f'font-family="sans-serif">{escape(name)}</text>')
    return "".join(parts) + "</g>"


def _svg(width: float, height: float, title: str, body: list[str]) -> str:
    return (f'<svg xmlns="http://www.w3.org/2000/svg" width="{width:.0f}" '
            f'height="{height:.0f}" viewBox="0 0 {width:.0f} {height:.0f}"><title>'
            f"{escape(title)}</title>" + "".join(body) + "</svg>\n")


def _frame_svg(f: Placed, extra: str = "", caption_at: tuple[float, float] | None = None
               ) -> str:
    left, _, _, low = _box(f.shapes)
    x, y = caption_at if caption_at else (left + f.dx, low + f.dy + 14)
    moving = quoteattr(" ".join(f.moving))
    return (f'<g class="frame" data-step="{f.step}" data-row="{f.row}" data-col="{f.col}" '
            f'data-moving={moving}{extra}>'
            + "".join(_polygon_svg(p, f.dx, f.dy) for p in f.shapes)
            + f'<text x="{x:.1f}" y="{y:.1f}" font-size="11" font-family="sans-serif">'
            f"{escape(f.caption)}</text></g>")


def strip_svg(done: Disassembled, dims: int, animate: bool = False,
              per_row: int = PER_ROW) -> str:
    """An SVG of every position in a grid (or, ``animate``, one after another in one place),
    each captioned with the move that led to it, under a key."""
    items = _items(done, dims)
    colour = colours(done.names)
    title = f"level {done.level}"
    if animate:
        return _animated(items, done.names, colour, title)
    placed, key, width, height = _grid(items, done.names, per_row)
    return _svg(width, height, title, [_key_svg(key, colour)] + [_frame_svg(f) for f in placed])


def _animated(items: list[tuple[list[Polygon], str, list[str]]], names: Sequence[str],
              colour: dict[str, str], title: str, seconds: float = 1.0) -> str:
    """Every frame in one place (one origin for all, so the pieces slide), each shown for
    ``seconds`` in turn by a discrete SMIL animation of its visibility, looping."""
    boxes = [_box(shapes) for shapes, _, _ in items]
    x0, y0 = min(b[0] for b in boxes), min(b[1] for b in boxes)
    x1, y1 = max(b[2] for b in boxes), max(b[3] for b in boxes)
    width = max(x1 - x0 + 20, 200.0)
    key, top = _key_entries(names, width)
    height = top + (y1 - y0) + CAPTION + 10
    n = len(items)
    total = n * seconds
    body = [_key_svg(key, colour)]
    for step, (shapes, caption, moving) in enumerate(items):
        f = Placed(shapes, caption, 10 - x0, top - y0, 0, 0, step, moving)
        # discrete: each value holds from its key time to the next (the last to the end)
        shown = [(0.0, "hidden")] if step else []
        shown.append((step / n, "visible"))
        if step + 1 < n:
            shown.append(((step + 1) / n, "hidden"))
        times = ";".join(f"{t:.6g}" for t, _ in shown)
        values = ";".join(v for _, v in shown)
        smil = (f'<animate attributeName="visibility" calcMode="discrete" values="{values}" '
                f'keyTimes="{times}" dur="{total:g}s" repeatCount="indefinite"/>')
        text = _frame_svg(f, ' visibility="hidden"' if step else "",
                          (10.0, height - 8))
        body.append(text[:-len("</g>")] + smil + "</g>")
    return _svg(width, height, title + " (animated)", body)


def _assembled(shown: list[tuple[Disassembled, str]], dims: int, colour: dict[str, str]
               ) -> list[tuple[list[Polygon], str, list[str]]]:
    """Each assembly as it stands, with its caption."""
    return [(polygons(done, dims, Frame({k: (0, 0, 0) for k in range(len(done.names))}),
                      colour), caption, []) for done, caption in shown]


def sheet_svg(shown: list[tuple[Disassembled, str]], dims: int) -> str:
    """Assemblies side by side (rows of :data:`PER_ROW`), each with its caption, under a key."""
    names = [n for done, _ in shown for n in done.names]
    colour = colours(names)
    placed, key, width, height = _grid(_assembled(shown, dims, colour), names)
    return _svg(width, height, "assemblies that come apart",
                [_key_svg(key, colour)] + [_frame_svg(f) for f in placed])


# -- PNG -----------------------------------------------------------------------------------

def _png(placed: list[Placed], key: list[tuple[str, float, float]], colour: dict[str, str],
         width: float, height: float, out: Any) -> None:
    pictures()  # a one-line refusal when matplotlib is missing
    import matplotlib

    matplotlib.use("Agg")
    from matplotlib.collections import LineCollection, PolyCollection
    from matplotlib.figure import Figure
    from matplotlib.patches import Rectangle

    dpi = 100
    figure = Figure(figsize=(width / dpi, height / dpi), dpi=dpi)
    axes = figure.add_axes((0, 0, 1, 1))
    axes.set_xlim(0, width)
    axes.set_ylim(height, 0)
    axes.axis("off")
    for name, x, y in key:
        axes.add_patch(Rectangle((x, y), 12, 12, facecolor=colour[name], edgecolor="#333333",
                                 linewidth=0.6))
        axes.text(x + 16, y + 10, name, fontsize=8, family="sans-serif")
    for f in placed:  # one collection a frame (a patch a face took 20 s for 108 moves)
        faces = [p for p in f.shapes if len(p.points) > 2]
        axes.add_collection(PolyCollection(
            [[(x + f.dx, y + f.dy) for x, y in p.points] for p in faces],
            facecolors=[p.fill for p in faces], edgecolors=[p.stroke for p in faces],
            linewidths=[p.width * 0.7 for p in faces]))
        lines = [p for p in f.shapes if len(p.points) == 2]
        if lines:
            axes.add_collection(LineCollection(
                [[(x + f.dx, y + f.dy) for x, y in p.points] for p in lines],
                colors=[p.stroke for p in lines], linewidths=0.8, linestyles="--"))
        left, _, _, low = _box(f.shapes)
        axes.text(left + f.dx, low + f.dy + 13, f.caption, fontsize=8, family="sans-serif")
    figure.savefig(out, format="png", dpi=dpi)


def strip_png(done: Disassembled, dims: int, out: Any, per_row: int = PER_ROW) -> None:
    """The same grid as a PNG (matplotlib, the ``pictures`` extra)."""
    placed, key, width, height = _grid(_items(done, dims), done.names, per_row)
    _png(placed, key, colours(done.names), width, height, out)


def sheet_png(shown: list[tuple[Disassembled, str]], dims: int, out: Any) -> None:
    names = [n for done, _ in shown for n in done.names]
    colour = colours(names)
    placed, key, width, height = _grid(_assembled(shown, dims, colour), names)
    _png(placed, key, colour, width, height, out)


def write_strip(done: Disassembled, dims: int, out: str, fmt: str = "svg",
                animate: bool = False) -> None:
    if fmt == "png":  # whole or not at all (#38 item 5)
        with replacing(out) as handle:
            strip_png(done, dims, handle)
    else:
        write_text(out, strip_svg(done, dims, animate))


def write_sheet(shown: list[tuple[Disassembled, str]], dims: int, out: str,
                fmt: str = "svg") -> None:
    if fmt == "png":
        with replacing(out) as handle:
            sheet_png(shown, dims, handle)
    else:
        write_text(out, sheet_svg(shown, dims))
