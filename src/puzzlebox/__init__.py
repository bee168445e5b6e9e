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

TYPE_CHECKING = False  # not typing's: importing the package imports nothing at all
if TYPE_CHECKING:
    from pathlib import Path
    from typing import Any

    from puzzlebox.errors import PuzzleboxError
    from puzzlebox.formats import PuzzleFile, PuzzleFileError
    from puzzlebox.puzzles import CountResult, Puzzle, Solution

# Imported on first use (PEP 562), so that importing the package runs nothing and the
# command line's entry point (puzzlebox._start) can catch Ctrl-C during every import (#18).
_LAZY = {
    "PuzzleboxError": "puzzlebox.errors",
    "PuzzleFile": "puzzlebox.formats",
    "PuzzleFileError": "puzzlebox.formats",
    "CountResult": "puzzlebox.puzzles",
    "Puzzle": "puzzlebox.puzzles",
    "Solution": "puzzlebox.puzzles",
}


def __getattr__(name: str) -> Any:
    if name in _LAZY:
        import importlib

        return getattr(importlib.import_module(_LAZY[name]), name)
    raise AttributeError(f"module 'puzzlebox' has no attribute {name!r}")

__version__ = "0.1.0"


def load(name_or_path: str | Path) -> Puzzle:
    """Load a catalog puzzle or a puzzle file (the first board of a batch)."""
    return load_file(name_or_path).puzzles[0]


def loads(text: str, name: str = "puzzle") -> Puzzle:
    """A puzzle from the text of a puzzle file (the first board of a batch); errors name
    ``<string>`` and the line, as for a file."""
    from puzzlebox.formats import read_text

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
