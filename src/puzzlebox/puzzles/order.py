"""The order of a polyform: the fewest copies of it that tile some rectangle (or box).

Regions are *blocks* of the lattice's coordinates: every cell whose coordinates lie in
``range(n_1) x ... x range(n_d)``. On square these are the rectangles, on cube the boxes,
on hexagon (axial coordinates) the parallelograms, on triangle the blocks of rows and
columns of the file's grid. They are tried by increasing area. Only areas that are
multiples of the piece's area can be tiled, and some orientation of the piece must fit
inside the block; two blocks that a symmetry of the lattice maps onto each other (a 2x3 and
a 3x2 rectangle) are the same question, asked once. Each block is first put to the proofs
of puzzles/proofs.py (the X pentomino cannot cover a corner, the T tetromino breaks the
chessboard balance of a 2x4) and only then searched, on the problem cut down by the
block's symmetries.

A shape that tiles no block up to the bound is reported as such: "no rectangle up to
area N" is a statement about the blocks tried, never a claim that the order is larger.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from itertools import product

from puzzlebox.engine import SearchStats
from puzzlebox.engine.parts import representatives
from puzzlebox.errors import PuzzleboxError
from puzzlebox.geometry.lattice import Cell, GridError, Lattice, Shape
from puzzlebox.geometry.square import SQUARE
from puzzlebox.puzzles.polyomino import Piece, PolyominoPuzzle, PolyominoSolution
from puzzlebox.puzzles.proofs import impossibility_proof

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
    from puzzlebox.geometry.lattice import lattice_named

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


def blocks(
    shape: Shape, max_area: int, lattice: Lattice = SQUARE, reflect: bool = True
) -> Iterator[tuple[int, ...]]:
    """Every block (its extent along each coordinate) that could hold copies of the shape
    exactly, by increasing area, then in lexicographic order of the extents; of blocks
    that a symmetry of the lattice maps onto each other only the first (on square:
    rows <= columns)."""
    size = len(shape)
    fits = {_spans(s.cells) for s in lattice.orientations(shape, True, reflect)}
    seen: dict[tuple[int, ...], list[tuple[int, ...]]] = {}
    for area in range(size, max_area + 1, size):
        for dims in _factorisations(area, lattice.dimensions):
            if not any(all(f <= d for f, d in zip(fit, dims, strict=True)) for fit in fits):
                continue
            # a map of the lattice keeps the lengths of a block's sides: only a block with
            # the same extents in another order can be the same question
            like = seen.setdefault(tuple(sorted(dims)), [])
            if any(_same_block(lattice, dims, other) for other in like):
                continue
            like.append(dims)
            yield dims


def rectangles(shape: Shape, max_area: int) -> Iterator[tuple[int, int]]:
    """Every rectangle (rows <= columns) that could hold copies of the square-grid shape
    exactly, by increasing area, then by fewer rows (:func:`blocks` on square)."""
    for dims in blocks(shape, max_area):
        rows, cols = dims
        yield rows, cols


def block_cells(dims: tuple[int, ...]) -> dict[Cell, str]:
    """Every cell whose coordinates lie in ``range(dims[0]) x range(dims[1]) x ...``."""
    return {cell: "#" for cell in product(*(range(d) for d in dims))}


def _factorisations(area: int, parts: int) -> Iterator[tuple[int, ...]]:
    """Every tuple of ``parts`` positive integers whose product is ``area``, in
    lexicographic order."""
    if parts == 1:
        yield (area,)
        return
    for first in range(1, area + 1):
        if area % first == 0:
            for rest in _factorisations(area // first, parts - 1):
                yield (first, *rest)


def _same_block(lattice: Lattice, dims: tuple[int, ...], other: tuple[int, ...]) -> bool:
    """Whether some map of the lattice's group takes the block ``dims`` onto ``other``
    (up to a translation the lattice allows)."""
    cells = list(block_cells(dims))
    target = set(block_cells(other))
    for turn in lattice.group():
        image = [turn(cell) for cell in cells]
        if _spans(tuple(image)) != other:
            continue
        shift = lattice.normalize_offset(image)
        moved = {tuple(v + d for v, d in zip(cell, shift, strict=True)) for cell in image}
        if moved == target:
            return True
    return False


def _spans(cells: tuple[Cell, ...]) -> tuple[int, ...]:
    return tuple(
        1 + max(cell[i] for cell in cells) - min(cell[i] for cell in cells)
        for i in range(len(cells[0]))
    )


@dataclass
class Attempt:
    """One block tried: how it ended and why (``rows`` and ``cols`` are its last two
    extents; ``dims`` all of them, the layers first on cube)."""

    rows: int
    cols: int
    copies: int
    tiled: bool
    how: str  # the proof's argument, or "search"
    detail: str  # the proof's sentence, or the nodes searched
    seconds: float = 0.0
    dims: tuple[int, ...] = ()

    @property
    def size(self) -> str:
        """``2x3`` (``2x3x4`` on cube)."""
        return "x".join(map(str, self.dims or (self.rows, self.cols)))


@dataclass
class OrderResult:
    shape: Shape
    max_area: int
    order: int | None = None  # None: no rectangle up to max_area
    puzzle: PolyominoPuzzle | None = None  # the rectangle that was tiled
    solution: PolyominoSolution | None = None
    attempts: list[Attempt] = field(default_factory=list)

    lattice: Lattice = SQUARE

    def summary(self) -> str:
        noun = block_noun(self.lattice)
        if self.order is None or self.puzzle is None:
            return f"no {noun} up to area {self.max_area}"
        size = "x".join(map(str, _extent(self.puzzle)))
        copies = "copy" if self.order == 1 else "copies"
        return f"order {self.order}: {self.order} {copies} tile a {size} {noun}"


def block_noun(lattice: Lattice) -> str:
    """What a block is called: a box in 3-D, a rectangle where cells have four sides, a
    block of the lattice's cells elsewhere (a parallelogram of hexagons)."""
    if lattice.dimensions == 3:
        return "box"
    if len(lattice.neighbours((0,) * lattice.dimensions)) == 4:
        return "rectangle"
    return f"block of {lattice.cell_word}s"


def _extent(puzzle: PolyominoPuzzle) -> tuple[int, ...]:
    dimensions = puzzle.lattice.dimensions
    return tuple(1 + max(cell[i] for cell in puzzle.board) for i in range(dimensions))


def block_puzzle(
    shape: Shape, dims: tuple[int, ...], reflect: bool = True, lattice: Lattice = SQUARE
) -> PolyominoPuzzle:
    """Copies of the shape, as many as fill it, in the block ``dims``."""
    board = block_cells(dims)
    copies = len(board) // len(shape)
    size = "x".join(map(str, dims))
    return PolyominoPuzzle(
        f"order-{size}",
        board,
        [Piece("A", shape, copies, copies)],
        rotate=True,
        reflect=reflect,
        title=f"{copies} copies in a {size} {block_noun(lattice)}",
        lattice=lattice,
    )


def rectangle_puzzle(shape: Shape, rows: int, cols: int, reflect: bool = True) -> PolyominoPuzzle:
    """Copies of the shape, as many as fill it, in a rows x cols rectangle."""
    return block_puzzle(shape, (rows, cols), reflect)


def polyomino_order(
    shape: Shape,
    max_area: int = DEFAULT_MAX_AREA,
    engine: str = "auto",
    reflect: bool = True,
    progress: Callable[[Attempt], None] | None = None,
    lattice: Lattice = SQUARE,
) -> OrderResult:
    """Search blocks by increasing area for the first that copies of ``shape`` tile."""
    import time

    result = OrderResult(shape, max_area, lattice=lattice)
    for dims in blocks(shape, max_area, lattice, reflect):
        began = time.perf_counter()
        puzzle = block_puzzle(shape, dims, reflect, lattice)
        copies = len(puzzle.board) // len(shape)
        rows, cols = dims[-2:]
        proof = impossibility_proof(puzzle)
        if proof is not None:
            attempt = Attempt(rows, cols, copies, False, proof.argument, proof.sentence,
                              dims=dims)
        else:
            stats = SearchStats()
            found = representatives(puzzle.symmetry_breaking, engine, limit=1, stats=stats)
            chosen = next(found, None)
            solution = None if chosen is None else puzzle.decode(chosen)
            if solution is not None:
                assert isinstance(solution, PolyominoSolution)
                result.order, result.puzzle, result.solution = copies, puzzle, solution
            attempt = Attempt(
                rows, cols, copies, solution is not None, "search", f"{stats.nodes} nodes",
                dims=dims,
            )
        attempt.seconds = time.perf_counter() - began
        result.attempts.append(attempt)
        if progress is not None:
            progress(attempt)
        if result.order is not None:
            return result
    return result
