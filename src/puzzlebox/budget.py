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
    """An upper bound on the entries of the puzzle's cover problem, from the puzzle alone
    (each kind bounds its own: ``Puzzle.cover_entries_bound``); None where a kind gives none."""
    return puzzle.cover_entries_bound()


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
