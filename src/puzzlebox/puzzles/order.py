"""The order of a polyomino: the fewest copies of it that tile some rectangle.

Rectangles are tried by increasing area. Only areas that are multiples of the piece's area
can be tiled, and a rectangle must be at least as large as the piece's bounding box in both
directions (the smaller side at least the piece's smaller extent, the larger side at least
its larger one). Each rectangle is first put to the proofs of puzzles/proofs.py (the X
pentomino cannot cover a corner, the T tetromino breaks the chessboard balance of a 2x4)
and only then searched, on the problem cut down by the rectangle's symmetries.

A shape that tiles no rectangle up to the bound is reported as such: "no rectangle up to
area N" is a statement about the rectangles tried, never a claim that the order is larger.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from math import isqrt

from puzzlebox.engine import SearchStats
from puzzlebox.engine.parts import representatives
from puzzlebox.errors import PuzzleboxError
from puzzlebox.geometry import Cell, Shape, parse_grid
from puzzlebox.puzzles.polyomino import Piece, PolyominoPuzzle, PolyominoSolution
from puzzlebox.puzzles.proofs import components, impossibility_proof

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


def parse_shape(text: str) -> Shape:
    """A pentomino letter, or a grid like ``"####/.#.."`` (rows split by ``/`` or newlines),
    as a shape; it must be one piece (cells joined by their sides)."""
    letter = text.strip()
    if len(letter) == 1 and letter.isalpha():
        if letter.upper() not in PENTOMINOES:
            known = ", ".join(PENTOMINOES)
            raise ShapeError(f"{letter!r} is not a pentomino letter (one of {known})")
        text = PENTOMINOES[letter.upper()]
    grid = text
    cells, _ = parse_grid(grid)
    if not cells:
        raise ShapeError(f"shape {text!r} has no cells (use '#' for cells, '.' for gaps)")
    shape = Shape.from_cells(set(cells))
    if len(components(set(shape.cells))) != 1:
        raise ShapeError(f"shape {text!r} is not one piece: its cells must touch by their sides")
    return shape


def rectangles(shape: Shape, max_area: int) -> Iterator[tuple[int, int]]:
    """Every rectangle (rows <= columns) that could hold copies of the shape exactly, by
    increasing area, then by fewer rows."""
    small, large = sorted((shape.height, shape.width))
    size = len(shape)
    for area in range(size, max_area + 1, size):
        for rows in range(small, isqrt(area) + 1):
            if area % rows == 0 and area // rows >= large:
                yield rows, area // rows


@dataclass
class Attempt:
    """One rectangle tried: how it ended and why."""

    rows: int
    cols: int
    copies: int
    tiled: bool
    how: str  # the proof's argument, or "search"
    detail: str  # the proof's sentence, or the nodes searched
    seconds: float = 0.0


@dataclass
class OrderResult:
    shape: Shape
    max_area: int
    order: int | None = None  # None: no rectangle up to max_area
    puzzle: PolyominoPuzzle | None = None  # the rectangle that was tiled
    solution: PolyominoSolution | None = None
    attempts: list[Attempt] = field(default_factory=list)

    def summary(self) -> str:
        if self.order is None or self.puzzle is None:
            return f"no rectangle up to area {self.max_area}"
        rows, cols = _extent(self.puzzle)
        copies = "copy" if self.order == 1 else "copies"
        return f"order {self.order}: {self.order} {copies} tile a {rows}x{cols} rectangle"


def _extent(puzzle: PolyominoPuzzle) -> tuple[int, int]:
    return 1 + max(r for r, _ in puzzle.board), 1 + max(c for _, c in puzzle.board)


def rectangle_puzzle(shape: Shape, rows: int, cols: int, reflect: bool = True) -> PolyominoPuzzle:
    """Copies of the shape, as many as fill it, in a rows x cols rectangle."""
    copies = rows * cols // len(shape)
    board: dict[Cell, str] = {(r, c): "#" for r in range(rows) for c in range(cols)}
    return PolyominoPuzzle(
        f"order-{rows}x{cols}",
        board,
        [Piece("A", shape, copies, copies)],
        rotate=True,
        reflect=reflect,
        title=f"{copies} copies in a {rows}x{cols} rectangle",
    )


def polyomino_order(
    shape: Shape,
    max_area: int = DEFAULT_MAX_AREA,
    engine: str = "auto",
    reflect: bool = True,
    progress: Callable[[Attempt], None] | None = None,
) -> OrderResult:
    """Search rectangles by increasing area for the first that copies of ``shape`` tile."""
    import time

    result = OrderResult(shape, max_area)
    for rows, cols in rectangles(shape, max_area):
        began = time.perf_counter()
        puzzle = rectangle_puzzle(shape, rows, cols, reflect)
        copies = rows * cols // len(shape)
        proof = impossibility_proof(puzzle)
        if proof is not None:
            attempt = Attempt(rows, cols, copies, False, proof.argument, proof.sentence)
        else:
            stats = SearchStats()
            found = representatives(puzzle.symmetry_breaking, engine, limit=1, stats=stats)
            chosen = next(found, None)
            solution = None if chosen is None else puzzle.decode(chosen)
            if solution is not None:
                assert isinstance(solution, PolyominoSolution)
                result.order, result.puzzle, result.solution = copies, puzzle, solution
            attempt = Attempt(
                rows, cols, copies, solution is not None, "search", f"{stats.nodes} nodes"
            )
        attempt.seconds = time.perf_counter() - began
        result.attempts.append(attempt)
        if progress is not None:
            progress(attempt)
        if result.order is not None:
            return result
    return result
