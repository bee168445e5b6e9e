"""puzzlebox: solve placement puzzles by exact cover and backtracking.

>>> import puzzlebox
>>> puzzle = puzzlebox.load("queens-8")
>>> puzzle.count().solutions
92
>>> puzzle
QueensPuzzle('queens-8')
>>> print(puzzle.solve())  # the board, one Q per queen  # doctest: +SKIP
"""

from __future__ import annotations

from pathlib import Path

from puzzlebox.errors import PuzzleboxError
from puzzlebox.formats import PuzzleFile, PuzzleFileError, read_text
from puzzlebox.puzzles import CountResult, Puzzle, Solution

__version__ = "0.1.0"


def load(name_or_path: str | Path) -> Puzzle:
    """Load a catalog puzzle or a puzzle file (the first board of a batch)."""
    return load_file(name_or_path).puzzles[0]


def loads(text: str, name: str = "puzzle") -> Puzzle:
    """A puzzle from the text of a puzzle file (the first board of a batch); errors name
    ``<string>`` and the line, as for a file."""
    return read_text(text, "<string>", name).puzzles[0]


def load_file(name_or_path: str | Path) -> PuzzleFile:
    """Load every board of a catalog puzzle or puzzle file."""
    from puzzlebox import catalog

    return catalog.load(name_or_path)


__all__ = [
    "CountResult",
    "Puzzle",
    "PuzzleFile",
    "PuzzleFileError",
    "PuzzleboxError",
    "Solution",
    "load",
    "load_file",
    "loads",
]
