"""Reading the catalog's puzzles (and puzzle files named on the command line): the part of
the catalog that builds puzzles, so it loads the kinds (and numpy). The catalog's package
itself only names and lists its files, which needs neither (issue #23: ``puzzlebox list``)."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from puzzlebox.catalog import did_you_mean, path_of
from puzzlebox.formats import PuzzleFile, PuzzleFileError, read_file

if TYPE_CHECKING:
    from puzzlebox.puzzles import Puzzle


class UnknownPuzzle(PuzzleFileError):
    """A name that is neither a puzzle file nor a catalog puzzle."""


def load(name_or_path: str | Path) -> Puzzle:
    """A catalog puzzle or a puzzle file, as ``puzzlebox.load`` returns it: the puzzle (the
    first board of a batch; :func:`load_file` has them all)."""
    return load_file(name_or_path).puzzles[0]


def load_file(name_or_path: str | Path) -> PuzzleFile:
    """Every board of a catalog puzzle or a puzzle file, with the file's title."""
    text = str(name_or_path)
    path = Path(text)
    if path.suffix == ".toml" or path.exists() or "/" in text:
        if not path.exists():
            raise PuzzleFileError(text, None, "no such file")
        return read_file(path)
    if path_of(text).exists():
        return read_file(path_of(text), name=text)
    raise UnknownPuzzle(text, None, "no such file or catalog puzzle" + did_you_mean(text))
