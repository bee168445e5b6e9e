"""Refuse, before building it, a cover problem that would not fit (#18).

A file within the limits of formats/limits.py can still describe a cover problem of
billions of entries: 1,000 pieces of 50 cells on a 100 x 100 board would have up to four
billion. Building it took all the memory before any search began, and said nothing.
:func:`check_cover_size` bounds the problem's size from the puzzle alone (no placement is
made) and refuses a puzzle over :data:`MAX_ENTRIES` with one line and exit status 3.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from puzzlebox.errors import PuzzleboxError

if TYPE_CHECKING:
    from puzzlebox.puzzles import Puzzle

EXIT_TOO_BIG = 3  # the input is well formed but too big to work on here
MAX_ENTRIES = 8_000_000  # cells listed by all the options of a cover problem
BYTES_PER_ENTRY = 240  # measured while building: a 60 x 60 board and the 12 pentominoes,
# 1,062,980 entries, 365 MB peak resident size (110 MB of it before building)


class TooBig(PuzzleboxError):
    """A puzzle whose cover problem would not fit; ``str()`` says how big, and the limit."""

    exit_status = EXIT_TOO_BIG


def cover_entries_bound(puzzle: Puzzle) -> int | None:
    """An upper bound on the entries (cells listed by every option, and the piece) of the
    puzzle's cover problem, computed without making a placement; None for kinds it does
    not bound.

    Each orientation of a piece lies at most once on each board cell (by where its first
    cell goes), and on a square grid at most once per shift of its bounding box inside the
    board's; so a piece has at most ``orientations x min(those)`` placements. The bound is
    exact for a rectangle without holes. An edge-matching card lies at most once per place
    and turn, each option listing its place, its card and up to four edges."""
    from puzzlebox.puzzles import EdgeMatchingPuzzle, PolyominoPuzzle

    if isinstance(puzzle, EdgeMatchingPuzzle):
        places = puzzle.rows * puzzle.cols
        return sum(len(puzzle.turns_of(card)) for card in puzzle.cards) * places * 6
    if not isinstance(puzzle, PolyominoPuzzle):
        return None
    cells = len(puzzle.board)
    rows = {cell[0] for cell in puzzle.board}
    cols = {cell[-1] for cell in puzzle.board}
    height = max(rows) - min(rows) + 1
    width = max(cols) - min(cols) + 1
    total = 0
    for piece in puzzle.pieces:
        size = len(piece.shape)
        for shape in puzzle.piece_orientations(piece):
            shifts = cells - size + 1
            h, w = getattr(shape, "height", None), getattr(shape, "width", None)
            if isinstance(h, int) and isinstance(w, int):
                shifts = min(shifts, max(height - h + 1, 0) * max(width - w + 1, 0))
            total += max(shifts, 0) * (size + 1)
    return total


def check_cover_size(puzzle: Puzzle, label: str, most: int = MAX_ENTRIES) -> None:
    """Raise :class:`TooBig` when the puzzle's cover problem could list more than ``most``
    entries: refused at once, before a placement is made."""
    bound = cover_entries_bound(puzzle)
    if bound is None or bound <= most:
        return
    megabytes = bound * BYTES_PER_ENTRY >> 20
    raise TooBig(
        f"{label}: the cover problem could have up to {bound:,} entries (what each placement "
        f"covers; about {megabytes:,} MB to build); the limit is {most:,}: use a smaller "
        "board, or fewer or smaller pieces or cards"
    )
