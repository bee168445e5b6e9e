"""The order of a polyform: the fewest copies of it that tile some rectangle (or box, or
parallelogram, triangle or hexagon on the grids that have them).

The regions are the lattice's own (geometry/regions.py): rectangles on square, boxes on
cube, parallelograms and hexagons on hexagon, parallelograms, triangles and hexagons on
triangle, each once per congruence class (a 2x3 rectangle, never also a 3x2). They are
tried by increasing area. Only areas that are multiples of the piece's area can be tiled,
and some orientation of the piece must fit inside the region's extent. Each region is
first put to the proofs of puzzles/proofs.py (the X pentomino cannot cover a corner, the T
tetromino breaks the chessboard balance of a 2x4) and only then searched, on the problem
cut down by the region's symmetries.

A shape that tiles no region up to the bound is reported as such: "no rectangle up to
area N" is a statement about the regions tried, never a claim that the order is larger.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator

from puzzlebox.engine import SearchStats
from puzzlebox.engine.parts import representatives
from puzzlebox.errors import PuzzleboxError
from puzzlebox.geometry.lattice import Cell, GridError, Lattice, Shape, lattice_named
from puzzlebox.geometry.regions import Region, block, regions
from puzzlebox.geometry.square import SQUARE
from puzzlebox.puzzles.polyomino import Piece, PolyominoPuzzle
from puzzlebox.puzzles.proofs import impossibility_proof
from puzzlebox.reports import Attempt, OrderResult

# The twelve pentominoes, by their usual letters.
PENTOMINOES: dict[str, str] = {
    "F": ".##/##./.#.",
    "I": "#####",
    "L": "####/#...",
    "N": "##../.###",
    "P": "##/##/#.",
    "T": "###/.#./.#.",
    "U": "#.#/###",
    "V": "#../#../###",
    "W": "#../##./.##",
    "X": ".#./###/.#.",
    "Y": "####/.#..",
    "Z": "##./.#./.##",
}
DEFAULT_MAX_AREA = 120


class ShapeError(PuzzleboxError):
    """A shape given on the command line that is not a polyomino."""


def read_lattice(name: str) -> Lattice:
    """The lattice named on the command line; ShapeError (one line) names the known ones."""
    try:
        return lattice_named(name)
    except KeyError as error:
        raise ShapeError(str(error.args[0])) from None


def parse_shape(text: str, lattice: Lattice = SQUARE) -> Shape:
    """A pentomino letter, or a grid like ``"####/.#.."`` (rows split by ``/`` or newlines;
    layers split by ``|`` on cube, bottom first), as a shape on ``lattice``; it must be one
    piece (cells joined by their sides, or faces). A letter is a flat pentomino, read as
    its grid on the lattice: on square and cube the pentomino itself."""
    letter = text.strip()
    if len(letter) == 1 and letter.isalpha():
        if letter.upper() not in PENTOMINOES:
            known = ", ".join(PENTOMINOES)
            raise ShapeError(f"{letter!r} is not a pentomino letter (one of {known})")
        text = PENTOMINOES[letter.upper()]
    layers = text.split("|")
    try:
        cells = lattice.parse(layers if len(layers) > 1 else text)
    except GridError as error:
        raise ShapeError(f"shape {text!r}: {error}") from None
    if not cells:
        raise ShapeError(f"shape {text!r} has no cells (use '#' for cells, '.' for gaps)")
    if not lattice.is_connected(cells):
        raise ShapeError(f"shape {text!r} is not one piece: its cells must touch by their sides")
    return lattice.normalize({cell: "#" for cell in cells})


def regions_to_try(
    shape: Shape, max_area: int, lattice: Lattice = SQUARE, reflect: bool = True
) -> Iterator[Region]:
    """Every region of the lattice (geometry/regions.py: rectangles, boxes, parallelograms,
    triangles, hexagons) that could hold copies of the shape exactly, by increasing area:
    its area a multiple of the shape's, and some orientation of the shape inside the
    region's extent along every coordinate."""
    size = len(shape)
    fits = {_spans(tuple(s.cells)) for s in lattice.orientations(shape, True, reflect)}
    for area in range(size, max_area + 1, size):
        for region in regions(lattice, area):
            extent = _spans(tuple(region.cells))
            if any(all(f <= d for f, d in zip(fit, extent, strict=True)) for fit in fits):
                yield region


def blocks(
    shape: Shape, max_area: int, lattice: Lattice = SQUARE, reflect: bool = True
) -> Iterator[tuple[int, ...]]:
    """The measures of :func:`regions_to_try`: (rows, cols) of each rectangle on square,
    (layers, rows, cols) of each box on cube."""
    for region in regions_to_try(shape, max_area, lattice, reflect):
        yield region.measures


def rectangles(shape: Shape, max_area: int) -> Iterator[tuple[int, int]]:
    """Every rectangle (rows <= columns) that could hold copies of the square-grid shape
    exactly, by increasing area, then by fewer rows (:func:`regions_to_try` on square)."""
    for dims in blocks(shape, max_area):
        rows, cols = dims
        yield rows, cols


def block_cells(dims: tuple[int, ...]) -> dict[Cell, str]:
    """Every cell whose coordinates lie in ``range(dims[0]) x range(dims[1]) x ...``."""
    return dict.fromkeys(block(dims), "#")


def _spans(cells: tuple[Cell, ...]) -> tuple[int, ...]:
    return tuple(
        1 + max(cell[i] for cell in cells) - min(cell[i] for cell in cells)
        for i in range(len(cells[0]))
    )


def region_puzzle(
    shape: Shape, region: Region, reflect: bool = True, lattice: Lattice = SQUARE
) -> PolyominoPuzzle:
    """Copies of the shape, as many as fill it, in ``region`` (moved to the lattice's normal
    position, as a file's grid would place it)."""
    normal = lattice.normalize(dict.fromkeys(region.cells, "#"))
    board = dict.fromkeys(normal.cells, "#")
    copies = len(board) // len(shape)
    return PolyominoPuzzle(
        f"order-{region.label.replace(' ', '-')}",
        board,
        [Piece("A", shape, copies, copies)],
        rotate=True,
        reflect=reflect,
        title=f"{copies} copies in a {region.label}",
        lattice=lattice,
    )


def rectangle_puzzle(shape: Shape, rows: int, cols: int, reflect: bool = True) -> PolyominoPuzzle:
    """Copies of the shape, as many as fill it, in a rows x cols rectangle."""
    dims = (rows, cols)
    return region_puzzle(shape, Region("rectangle", dims, block(dims)), reflect)


def polyomino_order(
    shape: Shape,
    max_area: int = DEFAULT_MAX_AREA,
    engine: str = "auto",
    reflect: bool = True,
    progress: Callable[[Attempt], None] | None = None,
    lattice: Lattice = SQUARE,
) -> OrderResult:
    """Search regions by increasing area for the first that copies of ``shape`` tile."""
    result = OrderResult(shape, max_area, lattice=lattice)
    for region in regions_to_try(shape, max_area, lattice, reflect):
        began = time.perf_counter()
        puzzle = region_puzzle(shape, region, reflect, lattice)
        copies = len(puzzle.board) // len(shape)
        rows, cols = _spans(tuple(region.cells))[-2:]
        dims, name = region.measures, region.size
        proof = impossibility_proof(puzzle)
        if proof is not None:
            attempt = Attempt(rows, cols, copies, False, proof.argument, proof.sentence,
                              dims=dims, name=name)
        else:
            stats = SearchStats()
            found = representatives(puzzle.symmetry_breaking, engine, limit=1, stats=stats)
            chosen = next(found, None)
            solution = None if chosen is None else puzzle.decode(chosen)
            if solution is not None:
                result.order, result.puzzle, result.solution = copies, puzzle, solution
                result.region = region
            attempt = Attempt(
                rows, cols, copies, solution is not None, "search", f"{stats.nodes} nodes",
                dims=dims, name=name,
            )
        attempt.seconds = time.perf_counter() - began
        result.attempts.append(attempt)
        if progress is not None:
            progress(attempt)
        if result.order is not None:
            return result
    return result
