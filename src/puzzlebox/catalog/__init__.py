"""The built-in puzzles: TOML files in the same format users write, shipped in the package.

Naming and listing them reads only the files (tomllib), so that ``puzzlebox list`` loads no
kind and no numpy (issue #23: under 0.15 s of CPU); reading a puzzle is catalog/files.py's,
loaded on first use.
"""

from __future__ import annotations

import importlib
import tomllib
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from puzzlebox.catalog.files import UnknownPuzzle as UnknownPuzzle
    from puzzlebox.formats import PuzzleFile
    from puzzlebox.puzzles import Puzzle

_FOLDER = "puzzles"


def catalog_dir() -> Path:
    """The catalog's folder, beside this module (installed as package data; importing
    importlib.resources to find it cost 13 ms of every command's start, issue #23)."""
    return Path(__file__).resolve().parent / _FOLDER


def names() -> list[str]:
    """Every catalog puzzle's name, sorted."""
    return sorted(p.stem for p in catalog_dir().glob("*.toml"))


def path_of(name: str) -> Path:
    return catalog_dir() / f"{name}.toml"


def design_dir() -> Path:
    """The catalog's design spaces (puzzle files with a ``[design]`` table), which
    ``puzzlebox design`` reads: kept apart, since no other command reads them."""
    return Path(__file__).resolve().parent / "designs"


def design_names() -> list[str]:
    return sorted(p.stem for p in design_dir().glob("*.toml"))


def design_path_of(name: str) -> Path:
    return design_dir() / f"{name}.toml"


def titles() -> dict[str, str]:
    """Every catalog puzzle's title by name, in name order: the file's top-level ``title``
    (what :func:`load_file` gives as ``PuzzleFile.title``), read without building a puzzle."""
    found: dict[str, str] = {}
    for name in names():
        title = tomllib.loads(path_of(name).read_text(encoding="utf-8")).get("title", "")
        found[name] = title if isinstance(title, str) else ""
    return found


def load(name_or_path: str | Path) -> Puzzle:
    """A catalog puzzle or a puzzle file, as ``puzzlebox.load`` returns it: the puzzle (the
    first board of a batch; :func:`load_file` has them all)."""
    from puzzlebox.catalog import files

    return files.load(name_or_path)


def load_file(name_or_path: str | Path) -> PuzzleFile:
    """Every board of a catalog puzzle or a puzzle file, with the file's title."""
    from puzzlebox.catalog import files

    return files.load_file(name_or_path)


def suggestions(name: str, most: int = 3) -> list[str]:
    """The catalog names nearest to ``name`` (difflib's ratio, at least 0.6), nearest first."""
    import difflib  # here: 0.5-0.6 ms of every catalog puzzle's start-up, for a misspelt name


    return difflib.get_close_matches(name, names(), n=most, cutoff=0.6)


def did_you_mean(name: str) -> str:
    """``"; did you mean X?"`` for a name near catalog names, else nothing."""
    near = suggestions(name) if len(name) <= 100 else []  # a long name is no typo
    if not near:
        return ""
    listed = near[0] if len(near) == 1 else ", ".join(near[:-1]) + " or " + near[-1]
    return f"; did you mean {listed}?"


def __getattr__(name: str) -> Any:
    """``UnknownPuzzle`` (an error of reading, so of catalog/files.py), on first use."""
    if name == "UnknownPuzzle":
        return importlib.import_module("puzzlebox.catalog.files").UnknownPuzzle
    raise AttributeError(f"module 'puzzlebox.catalog' has no attribute {name!r}")
