"""A piece sheet at real size: every piece's outline, for printing or laser cutting.

``puzzlebox export PUZZLE --sheet out.svg|out.pdf --cell-mm 20`` draws each copy of each
piece once, as one closed path (its outer boundary and the boundary of any hole in it, as
subpaths), stroked and not filled, with ``--margin-mm`` of free space between pieces and
around the page. Pieces are packed in rows ("shelves"), tallest first, on pages of
``--page`` size. Nothing else is drawn: a laser cutter cuts every line it is given.

Why real size: a cell of the lattice is ``cell_mm`` millimetres wide (the unit of
``Lattice.polygon``), and the files say so: the SVG's width and height carry ``mm`` and one
user unit is one millimetre; the PDF's user unit is the point (1/72 inch), so coordinates
are millimetres times 72 / 25.4. An SVG is a single sheet as tall as the rows need (a
cutter's bed is not a printer's page); a PDF has as many pages as the rows fill.

The PDF is written here directly (a dozen objects, vector paths only, standard library),
so no optional dependency is needed to make a cutting file; tests read it back.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from xml.sax.saxutils import escape, quoteattr

from puzzlebox.errors import PuzzleboxError
from puzzlebox.geometry.lattice import Cell
from puzzlebox.outfile import write_bytes, write_text
from puzzlebox.safety import printable

PointF = tuple[float, float]
Loop = list[PointF]

PAGES = {"a4": (210.0, 297.0), "a3": (297.0, 420.0), "letter": (215.9, 279.4)}
STROKE_MM = 0.1  # a hairline: what laser cutters take as "cut here"
POINTS_PER_MM = 72 / 25.4
DIGITS = 9  # corners are rounded to this many decimals so that shared corners coincide
# Cells of all the copies a sheet draws, checked before any outline is made (#28: 10,000
# copies of a large piece ran out of memory). 100,000 cells of 20 mm are 40 square metres
# of material; a cell costs at most a few corners of a few hundred bytes each while drawn.
MAX_SHEET_CELLS = 100_000
MAX_SHEET_PIECES = 25_000  # copies drawn (each costs its own box and path: 25,000 take 3 s)


class ExportError(PuzzleboxError):
    """A puzzle or a size that a sheet or an STL cannot be made from."""


class SolidPieces(ExportError):
    """Pieces that are solids (cube lattice): they have no flat outline, only an STL."""


class ExportTooLarge(ExportError):
    """An export that would draw more than the limits allow (checked before building)."""


class PieceTooLarge(ExportError):
    """A piece that does not fit on the page at the cell size asked for."""


def parse_page(text: str) -> tuple[float, float]:
    """``A4``, ``A3``, ``letter`` or ``WxH`` in millimetres, as (width, height) in mm."""
    key = text.strip().lower()
    if key in PAGES:
        return PAGES[key]
    parts = key.split("x")
    try:
        if len(parts) == 2:
            width, height = float(parts[0]), float(parts[1])
            if 10 <= width <= 10_000 and 10 <= height <= 10_000:
                return width, height
    except ValueError:
        pass
    raise ExportError(f"page {text!r}: use A4, A3, letter or WIDTHxHEIGHT in mm, each "
                      "10 to 10000")


# -- outlines --------------------------------------------------------------------------------


def cell_polygon(lattice: Any, cell: Cell) -> list[PointF]:
    """A cell's polygon in cell units (x right, y down): the lattice's, or the unit square
    on a puzzle that carries no lattice (square cells ``(row, col)``)."""
    if lattice is None:
        r, c = cell
        return [(c, r), (c + 1, r), (c + 1, r + 1), (c, r + 1)]
    polygon = lattice.polygon(cell)
    if polygon is None:
        raise SolidPieces(f"the {lattice.name} lattice's pieces are solids, not flat "
                          "outlines: they are made from STL files")
    return [(float(x), float(y)) for x, y in polygon]


def _area(loop: Sequence[PointF]) -> float:
    """Shoelace area, positive for loops clockwise on screen (y down)."""
    n = len(loop)
    return 0.5 * sum(loop[i][0] * loop[(i + 1) % n][1] - loop[(i + 1) % n][0] * loop[i][1]
                     for i in range(n))


def _key(p: PointF) -> PointF:
    return (round(p[0], DIGITS) + 0.0, round(p[1], DIGITS) + 0.0)


def outline(polygons: Iterable[Sequence[PointF]]) -> list[Loop]:
    """The boundary of the union of cell polygons, as closed loops.

    Every polygon is turned clockwise on screen; an edge shared by two cells then appears
    once in each direction and both copies are dropped, which leaves exactly the boundary
    (outer loops clockwise, holes counter-clockwise). Where two cells of a piece meet only
    at a corner the walk takes the sharpest right turn, so loops never cross. Corners on a
    straight line are dropped."""
    edges: dict[PointF, list[PointF]] = {}
    seen: set[tuple[PointF, PointF]] = set()
    for polygon in polygons:
        points = [_key(p) for p in polygon]
        if _area(points) < 0:
            points.reverse()
        for a, b in zip(points, points[1:] + points[:1], strict=True):
            if (b, a) in seen:
                seen.discard((b, a))
            else:
                seen.add((a, b))
    for a, b in sorted(seen):
        edges.setdefault(a, []).append(b)
    loops = []
    while edges:
        start = min(edges)
        loop = [start]
        came: PointF | None = None
        at = start
        while True:
            ends = edges[at]
            if came is not None and len(ends) > 1:
                dx, dy = at[0] - came[0], at[1] - came[1]

                def turn(e: PointF, dx: float = dx, dy: float = dy, at: PointF = at) -> float:
                    ex, ey = e[0] - at[0], e[1] - at[1]
                    return math.atan2(dx * ey - dy * ex, dx * ex + dy * ey)

                end = max(ends, key=turn)
            else:
                end = ends[0]
            ends.remove(end)
            if not ends:
                del edges[at]
            if end == start:
                break
            loop.append(end)
            came, at = at, end
        loops.append(_straighten(loop))
    return loops


def _straighten(loop: Loop) -> Loop:
    kept = []
    n = len(loop)
    for i, p in enumerate(loop):
        a, b = loop[i - 1], loop[(i + 1) % n]
        cross = (p[0] - a[0]) * (b[1] - p[1]) - (p[1] - a[1]) * (b[0] - p[0])
        if abs(cross) > 1e-9:
            kept.append(p)
    return kept


# -- layout ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class Drawn:
    """One copy of a piece on a page: its loops in millimetres, page coordinates (y down)."""

    name: str
    loops: list[Loop]
    x: float  # the left of its box
    y: float  # the top of its box
    width: float
    height: float


@dataclass(frozen=True)
class Sheet:
    """The pieces laid out: ``pages`` of drawn pieces, each page ``width`` x ``height`` mm
    (an SVG's single page is as tall as its rows: ``heights``)."""

    pages: list[list[Drawn]]
    width: float
    height: float
    heights: list[float]
    cell_mm: float


def piece_copies(puzzle: Any) -> list[tuple[str, list[Loop]]]:
    """Each copy of each piece (a count of n: n copies; a range: its top; ``any``: its
    least, at least one) with its outline in cell units."""
    pieces = puzzle.pieces_to_make()
    if pieces is None:
        raise ExportError(f"{printable(puzzle.name)}: a sheet draws the pieces of a "
                          "polyomino puzzle; this puzzle has none")
    lattice = getattr(puzzle, "lattice", None)
    wanted = [(piece, piece.hi if piece.hi is not None else max(piece.lo, 1))
              for piece in pieces]
    cells = sum(copies * len(piece.shape.cells) for piece, copies in wanted)
    drawn = sum(copies for _, copies in wanted)
    if drawn > MAX_SHEET_PIECES:
        raise ExportTooLarge(f"{printable(puzzle.name)}: the sheet would draw {drawn} "
                             f"pieces; a sheet draws at most {MAX_SHEET_PIECES} (lower the "
                             "pieces' counts)")
    if cells > MAX_SHEET_CELLS:
        raise ExportTooLarge(f"{printable(puzzle.name)}: the sheet would draw {drawn} "
                             f"pieces of {cells} cells in all; a sheet draws at most "
                             f"{MAX_SHEET_CELLS} cells (lower the pieces' counts)")
    out: list[tuple[str, list[Loop]]] = []
    for piece, copies in wanted:
        if copies:
            loops = outline(cell_polygon(lattice, cell) for cell in piece.shape.cells)
            out.extend((piece.name, loops) for _ in range(copies))
    return out


def layout(copies: Sequence[tuple[str, list[Loop]]], cell_mm: float,
           page: tuple[float, float], margin: float) -> Sheet:
    """Shelf packing: pieces by decreasing height (then width, then name), left to right
    in rows ``margin`` apart, a new row when the page width is used up, a new page when
    its height is. Every piece's box is ``margin`` from every other and from the edge."""
    width, height = page
    boxes = []
    for name, loops in copies:
        xs = [x for loop in loops for x, _ in loop]
        ys = [y for loop in loops for _, y in loop]
        x0, y0 = min(xs), min(ys)
        mm = [[((x - x0) * cell_mm, (y - y0) * cell_mm) for x, y in loop] for loop in loops]
        boxes.append((name, mm, (max(xs) - x0) * cell_mm, (max(ys) - y0) * cell_mm))
    for name, _, w, h in boxes:
        if w > width - 2 * margin or h > height - 2 * margin:
            raise PieceTooLarge(
                f"piece {printable(name)} is {w:g} x {h:g} mm with cells of {cell_mm:g} mm: "
                f"larger than the {width:g} x {height:g} mm page less its margins")
    boxes.sort(key=lambda b: (-round(b[3], 6), -round(b[2], 6), b[0]))
    pages: list[list[Drawn]] = [[]]
    heights = []
    x, y, row = margin, margin, 0.0
    for name, loops, w, h in boxes:
        if x + w > width - margin + 1e-9:
            x, y, row = margin, y + row + margin, 0.0
        if y + h > height - margin + 1e-9:
            heights.append(height)
            pages.append([])
            x, y, row = margin, margin, 0.0
        moved = [[(px + x, py + y) for px, py in loop] for loop in loops]
        pages[-1].append(Drawn(name, moved, x, y, w, h))
        x += w + margin
        row = max(row, h)
    heights.append(y + row + margin)
    return Sheet(pages, width, height, heights, cell_mm)


# -- SVG -------------------------------------------------------------------------------------


def _xml_text(text: str) -> str:
    """A name for an SVG attribute or element: control characters escaped (printable),
    and the two noncharacters XML 1.0 forbids as well."""
    return printable(text).replace("\ufffe", "\\ufffe").replace("\uffff", "\\uffff")


def _number(value: float) -> str:
    text = f"{value:.4f}".rstrip("0").rstrip(".")
    return "0" if text in ("-0", "") else text


def _path(loops: Iterable[Loop], point: Any = None) -> str:
    parts = []
    for loop in loops:
        pts = [point(p) if point else p for p in loop]
        parts.append("M " + " L ".join(f"{_number(x)} {_number(y)}" for x, y in pts) + " Z")
    return " ".join(parts)


def svg_text(sheet: Sheet, title: str) -> str:
    """One SVG sheet in millimetres: all pages' rows one below the other."""
    drawn: list[tuple[Drawn, float]] = []
    offset = 0.0
    for page, height in zip(sheet.pages, sheet.heights, strict=True):
        drawn.extend((d, offset) for d in page)
        offset += height
    total = offset
    lines = [
        '<?xml version="1.0" encoding="UTF-8"?>',
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{_number(sheet.width)}mm" '
        f'height="{_number(total)}mm" viewBox="0 0 {_number(sheet.width)} {_number(total)}">',
        f"<title>{escape(_xml_text(title))}</title>",
        f'<g fill="none" stroke="#000000" stroke-width="{STROKE_MM}">',
    ]
    for d, dy in drawn:
        path = _path(d.loops, lambda p, dy=dy: (p[0], p[1] + dy))
        lines.append(f"<path data-piece={quoteattr(_xml_text(d.name))} d=\"{path}\"/>")
    lines += ["</g>", "</svg>"]
    return "\n".join(lines) + "\n"


# -- PDF -------------------------------------------------------------------------------------


def pdf_bytes(sheet: Sheet) -> bytes:
    """A PDF of the pages, paths only: catalog, page tree, one page and one content
    stream per page, a cross-reference table with every object's byte offset."""
    w_pt, h_pt = sheet.width * POINTS_PER_MM, sheet.height * POINTS_PER_MM
    objects: list[bytes] = []
    n_pages = len(sheet.pages)
    page_ids = [3 + 2 * i for i in range(n_pages)]
    objects.append(b"<< /Type /Catalog /Pages 2 0 R >>")
    kids = " ".join(f"{i} 0 R" for i in page_ids)
    objects.append(f"<< /Type /Pages /Kids [{kids}] /Count {n_pages} >>".encode())
    for i, page in enumerate(sheet.pages):
        ops = [f"{_number(STROKE_MM * POINTS_PER_MM)} w", "0 0 0 RG", "1 j"]
        for d in page:
            for loop in d.loops:
                pts = [(x * POINTS_PER_MM, h_pt - y * POINTS_PER_MM) for x, y in loop]
                ops.append(f"{_number(pts[0][0])} {_number(pts[0][1])} m")
                ops.extend(f"{_number(x)} {_number(y)} l" for x, y in pts[1:])
                ops.append("h")
            ops.append("S")
        stream = ("\n".join(ops) + "\n").encode()
        objects.append(
            f"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 {_number(w_pt)} {_number(h_pt)}] "
            f"/Contents {page_ids[i] + 1} 0 R /Resources << >> >>".encode())
        objects.append(b"<< /Length %d >>\nstream\n" % len(stream) + stream + b"endstream")
    out = bytearray(b"%PDF-1.4\n%\xe2\xe3\xcf\xd3\n")
    offsets = []
    for number, body in enumerate(objects, start=1):
        offsets.append(len(out))
        out += b"%d 0 obj\n" % number + body + b"\nendobj\n"
    xref = len(out)
    out += b"xref\n0 %d\n0000000000 65535 f \n" % (len(objects) + 1)
    for offset in offsets:
        out += b"%010d 00000 n \n" % offset
    out += b"trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n" % (
        len(objects) + 1, xref)
    return bytes(out)


# -- the command -----------------------------------------------------------------------------


def sheet_for(puzzles: Sequence[Any], cell_mm: float, page: tuple[float, float],
              margin: float) -> Sheet:
    """The sheet of a puzzle file's pieces (the first board's: a batch shares them)."""
    if not puzzles:
        raise ExportError("the file has no puzzle")
    if not (0 < cell_mm <= 1000) or not math.isfinite(cell_mm):
        raise ExportError(f"a cell of {cell_mm:g} mm: give a size above 0 and at most 1000 mm")
    if not (0 <= margin <= 1000) or not math.isfinite(margin):
        raise ExportError(f"a margin of {margin:g} mm: give 0 to 1000 mm")
    return layout(piece_copies(puzzles[0]), cell_mm, page, margin)


def write_sheet(puzzles: Sequence[Any], out: str | Path, cell_mm: float,
                page: tuple[float, float], margin: float, title: str) -> Sheet:
    """Write the sheet to ``out``; its suffix (``.svg`` or ``.pdf``) says which."""
    suffix = Path(out).suffix.lower()
    if suffix not in (".svg", ".pdf"):
        raise ExportError(f"{printable(str(out))}: a sheet's file name must end in .svg or "
                          ".pdf")
    sheet = sheet_for(puzzles, cell_mm, page, margin)
    if suffix == ".svg":  # whole or not at all (#38 item 5)
        write_text(out, svg_text(sheet, title))
    else:
        write_bytes(out, pdf_bytes(sheet))
    return sheet
