"""The built-in puzzles: TOML files in the same format users write, shipped in the package."""

from __future__ import annotations

import difflib
from importlib import resources
from pathlib import Path
from typing import TYPE_CHECKING

from puzzlebox.formats import PuzzleFile, PuzzleFileError, read_file

if TYPE_CHECKING:
    from puzzlebox.puzzles import Puzzle

_FOLDER = "puzzles"


def catalog_dir() -> Path:
    return Path(str(resources.files(__package__).joinpath(_FOLDER)))


def names() -> list[str]:
    """Every catalog puzzle's name, sorted."""
    return sorted(p.stem for p in catalog_dir().glob("*.toml"))


def path_of(name: str) -> Path:
    return catalog_dir() / f"{name}.toml"


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
    raise UnknownPuzzle(text, None, "no such file or catalog puzzle" + _did_you_mean(text))


def suggestions(name: str, most: int = 3) -> list[str]:
    """The catalog names nearest to ``name`` (difflib's ratio, at least 0.6), nearest first."""

    return difflib.get_close_matches(name, names(), n=most, cutoff=0.6)


def _did_you_mean(name: str) -> str:
    near = suggestions(name) if len(name) <= 100 else []  # a long name is no typo
    if not near:
        return ""
    listed = near[0] if len(near) == 1 else ", ".join(near[:-1]) + " or " + near[-1]
    return f"; did you mean {listed}?"


class UnknownPuzzle(PuzzleFileError):
    """A name that is neither a puzzle file nor a catalog puzzle."""
