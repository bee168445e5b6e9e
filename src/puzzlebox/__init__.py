"""puzzlebox: solve placement puzzles by exact cover and backtracking.

    puzzle = puzzlebox.load("pentomino-6x10")   # a catalog name, or the path of a .toml file
    print(puzzle)                               # the board and the pieces
    print(puzzle.solve())                       # one solution, drawn with a letter a piece
    print(puzzle.count())                       # 9356 solutions, 2339 distinct (...)
    for solution in puzzle.solutions(limit=3): print(solution)   # lazily, one after another

``puzzlebox.loads(text)`` reads a puzzle from TOML text, ``puzzlebox.catalog.names()`` lists
the built-in puzzles, ``solution.svg()``/``png()`` draw (extra 'pictures'), and every error a
user can cause is a :class:`PuzzleboxError` of one line. docs/api.md walks through it all.

>>> import puzzlebox
>>> puzzle = puzzlebox.load("queens-8")
>>> puzzle.count().solutions
92
>>> puzzle
QueensPuzzle('queens-8')
"""

from __future__ import annotations

TYPE_CHECKING = False  # not typing's: importing the package imports nothing at all
if TYPE_CHECKING:
    from collections.abc import Iterator
    from pathlib import Path
    from typing import Any

    from puzzlebox import catalog
    from puzzlebox.errors import PuzzleboxError
    from puzzlebox.formats import PuzzleFile, PuzzleFileError
    from puzzlebox.puzzles import CountResult, Puzzle, Solution

__version__ = "0.1.0"
_DEFAULT = object()  # design()'s limits when none are given: the run layer's defaults

# Imported on first use (PEP 562), so that importing the package runs nothing (no numpy, no
# numba) and the command line's entry point (puzzlebox._start) can catch Ctrl-C during every
# import (#18). A name maps to the module that defines it; a module maps to itself.
_LAZY = {
    "PuzzleboxError": "puzzlebox.errors",
    "PuzzleFile": "puzzlebox.formats",
    "PuzzleFileError": "puzzlebox.formats",
    "CountResult": "puzzlebox.puzzles",
    "Puzzle": "puzzlebox.puzzles",
    "Solution": "puzzlebox.puzzles",
    "catalog": "puzzlebox.catalog",
}


def __getattr__(name: str) -> Any:
    if name in _LAZY:
        import importlib

        module = importlib.import_module(_LAZY[name])
        return module if module.__name__ == f"puzzlebox.{name}" else getattr(module, name)
    raise AttributeError(f"module 'puzzlebox' has no attribute {name!r}")


def __dir__() -> list[str]:
    """The public names (tab completion finds these, not the module's machinery)."""
    return sorted([*__all__, "__version__"])


def load(name_or_path: str | Path) -> Puzzle:
    """A catalog puzzle or a puzzle file (the first board of a batch: :func:`load_file` has
    them all)."""
    from puzzlebox import catalog

    return catalog.load(name_or_path)


def loads(text: str, name: str = "puzzle") -> Puzzle:
    """A puzzle from the text of a puzzle file (the first board of a batch); errors name
    ``<string>`` and the line, as for a file."""
    from puzzlebox.formats import read_text

    return read_text(text, "<string>", name).puzzles[0]


def load_file(name_or_path: str | Path) -> PuzzleFile:
    """Every board of a catalog puzzle or puzzle file, with the file's title."""
    from puzzlebox import catalog

    return catalog.load_file(name_or_path)


def design(space: Any, limits: Any = _DEFAULT, **options: Any) -> Iterator[Any]:
    """Each kept design of a design space (a design file, a catalog design such as
    ``"calendar-sets"``, or a ``puzzlebox.designs.DesignSpace``) as it is found: the
    ``DesignResult`` of :class:`puzzlebox.designs.DesignRun`, with its limits
    (``limits=None`` for no limit), ``jobs``, ``cluster``, ``checkpoint`` and
    ``on_progress``."""
    from puzzlebox import designs

    if limits is _DEFAULT:
        return designs.design(space, **options)
    return designs.design(space, limits, **options)


__all__ = [
    "CountResult",
    "Puzzle",
    "PuzzleFile",
    "PuzzleFileError",
    "PuzzleboxError",
    "Solution",
    "catalog",
    "design",
    "load",
    "load_file",
    "loads",
]
