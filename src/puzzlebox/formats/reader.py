"""Read a puzzle file (TOML) into a puzzle model, checking everything on the way.

Files are data: ``tomllib`` parses them and nothing is ever evaluated. Every problem is
reported as one :class:`PuzzleFileError` naming the file, the place and what is wrong.
Files are also hostile until read: the size and nesting are checked before the parser runs
(formats/guard.py), every value's type before it is used, and every size against
puzzlebox/limits.py before anything is built from it. The file's ``kind`` picks the
registered kind (``puzzles.KINDS``), whose own reader (``Puzzle.read``, in the kind's
package) reads the rest through this module's checks.
"""

from __future__ import annotations

import re
import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from puzzlebox import limits
from puzzlebox.formats.errors import PuzzleFileError
from puzzlebox.formats.guard import nesting_problem
from puzzlebox.formats.locate import key_line, value_line
from puzzlebox.geometry.lattice import Cell, GridError, Lattice
from puzzlebox.puzzles import KINDS, Puzzle
from puzzlebox.puzzles.reading import SHOWN, FileReader, shown

__all__ = ["PuzzleFile", "read_bytes", "read_file", "read_text", "shown"]

def _part(key: Any) -> str:
    text = str(key)
    return text if len(text) <= SHOWN else text[: SHOWN - 3] + "..."


@dataclass
class PuzzleFile:
    """What one file holds: a single puzzle, or a batch of boards sharing one piece set."""

    name: str
    title: str
    puzzles: list[Puzzle] = field(default_factory=list)
    batch: bool = False
    source: str = ""


class _Reader:
    """Walks a parsed TOML document; knows the text so errors can name a line. Each kind's
    reader (``Puzzle.read``) sees it as a ``puzzles.reading.FileReader``."""

    def __init__(self, source: str, text: str) -> None:
        self.source = source
        self.text = text

    def fail(self, path: tuple[Any, ...], message: str,
             text_line: int | None = None) -> PuzzleFileError:
        """The error for ``path``, placed at its line (or its table's, when it is missing);
        with ``text_line`` (a line of the value's text, from 0: a grid's row) at the line of
        the file that shows it, where the value is a multi-line string (#38 item 9).

        An error with no line says why: the whole file is at fault, or the key is missing
        from a file that has no table to point at."""
        line = key_line(self.text, tuple(str(p) for p in path)) if path else None
        if line is not None and text_line is not None:
            line = value_line(self.text, line, text_line) or line
        dotted = ".".join(_part(p) for p in path)
        if line is None:
            message += " (no line: " + (
                "the file has no such key)" if "missing" in message else "about the whole file)"
            )
        place = f"{line}" if line else None
        return PuzzleFileError(self.source, place, f"{dotted}: {message}" if dotted else message)

    def check_keys(self, table: dict[str, Any], allowed: set[str], path: tuple[Any, ...]) -> None:
        for key in table:
            if key not in allowed:
                known = ", ".join(sorted(allowed))
                raise self.fail(path + (key,), f"unknown key (expected one of: {known})")

    def names(self, table: dict[str, Any], what: str, most: int, path: tuple) -> None:
        """Refuse a table of more than ``most`` entries, or with a name too long to show."""
        if len(table) > most:
            raise self.fail(path, f"has {len(table)} {what}; the limit is {most}")
        for key in table:
            if len(key) > limits.MAX_NAME:
                raise self.fail(
                    path + (key,), f"a name of {len(key)} characters; the limit is "
                    f"{limits.MAX_NAME}"
                )

    def table(self, doc: dict[str, Any], key: str, path: tuple[Any, ...]) -> dict[str, Any]:
        value = doc.get(key)
        if not isinstance(value, dict):
            what = "is missing" if value is None else "must be a table"
            raise self.fail(path + (key,), what)
        return value

    def boolean(self, table: dict[str, Any], key: str, default: bool, path: tuple) -> bool:
        value = table.get(key, default)
        if not isinstance(value, bool):
            raise self.fail(path + (key,), f"must be true or false, not {shown(value)}")
        return value

    def integer(
        self, table: dict[str, Any], key: str, path: tuple, least: int, most: int
    ) -> int:
        if key not in table:
            raise self.fail(path + (key,), "is missing")
        value = table[key]
        if isinstance(value, bool) or not isinstance(value, int):
            raise self.fail(path + (key,), f"must be an integer, not {shown(value)}")
        if value < least:
            raise self.fail(path + (key,), f"must be at least {least}, not {shown(value)}")
        if value > most:
            raise self.fail(path + (key,), f"must be at most {most}, not {shown(value)}")
        return value

    def text_value(self, table: dict[str, Any], key: str, path: tuple) -> str:
        value = table.get(key, "")
        if not isinstance(value, str):
            raise self.fail(path + (key,), f"must be a string, not {shown(value)}")
        return value

    def grid(self, value: Any, path: tuple, lattice: Lattice) -> dict[Cell, str]:
        """A board or piece grid read on ``lattice`` (``lattice.parse``): a string of rows,
        or on cube a list of layers from the bottom up (a plain string there is one layer).
        Its size is checked before any cell is made."""
        if isinstance(value, list):
            size = sum(_cell_count(layer) for layer in value if isinstance(layer, str))
        elif isinstance(value, str):
            size = _cell_count(value)
        else:
            raise self.fail(path, f"a grid must be a string of rows, not {shown(value)}")
        if size > limits.MAX_CELLS:
            raise self.fail(
                path, f"the grid has {size} cells; the limit is {limits.MAX_CELLS}"
            )
        try:
            cells = lattice.parse(value)
        except GridError as error:
            raise self.fail(path, str(error), error.text_line) from None
        if not cells:
            raise self.fail(path, "the grid has no cells (only '.', spaces or nothing)")
        return cells


def _cell_count(text: str) -> int:
    """The cells ``parse_grid`` would make of ``text``, counted without making them."""
    text = text.replace("\r\n", "\n")
    rows = "\n" if "\n" in text else "/"
    return len(text) - text.count(rows) - text.count(".") - text.count(" ")


def read_text(text: str, source: str, name: str, *, design: bool = False) -> PuzzleFile:
    """Parse and check puzzle TOML text; ``source`` names it in errors.

    A file with a ``[design]`` table describes a space of puzzles, not one puzzle: it is
    refused in one line that names the command that reads it, unless ``design`` (the design
    search reads the rest of the file as its base puzzle, lines and all, so its errors name
    the user's lines)."""
    if len(text) > limits.MAX_FILE_BYTES:
        raise PuzzleFileError(
            source, None, f"the file has {len(text)} characters; the limit is "
            f"{limits.MAX_FILE_BYTES} (no line: about the whole file)"
        )
    deep = nesting_problem(text)
    if deep is not None:
        line, column, what = deep
        raise PuzzleFileError(source, f"{line}:{column}", f"not read: {what}")
    try:
        doc = tomllib.loads(text)
    except RecursionError:  # the scan above should have caught it; never a traceback
        raise PuzzleFileError(
            source, None, "not read: nested too deeply (no line: the parser gave up)"
        ) from None
    except ValueError as error:  # TOMLDecodeError, or an integer of over 4,300 digits
        if not isinstance(error, tomllib.TOMLDecodeError):
            long = re.search(r"[0-9_]{4300}", text)
            where = f"{text.count(chr(10), 0, long.start()) + 1}" if long else None
            raise PuzzleFileError(
                source, where, "not valid TOML: a number too long to read" + (
                    "" if long else " (no line: the parser does not say where)")
            ) from None
        message = str(error)
        match = re.search(r"\(at line (\d+), column (\d+)\)", message)
        place = f"{match.group(1)}:{match.group(2)}" if match else None
        if "(at end of document)" in message:
            place = f"{text.count(chr(10)) + 1}"
        message = re.sub(r"\s*\(at (line \d+, column \d+|end of document)\)", "", message)
        raise PuzzleFileError(source, place, f"not valid TOML: {message}") from None
    reader = _Reader(source, text)
    if "design" in doc:
        if not design:
            raise reader.fail(("design",), "this file is a space of designs: 'puzzlebox design "
                              "FILE' tries them (each design it keeps is a puzzle file)")
        doc = {key: value for key, value in doc.items() if key != "design"}
    kind = doc.get("kind", "polyomino")
    if not isinstance(kind, str):
        raise reader.fail(("kind",), f"must be a string ({', '.join(KINDS)}), not {shown(kind)}")
    if kind not in KINDS:
        raise reader.fail(("kind",), f"unknown kind {shown(kind)} (known: {', '.join(KINDS)})")
    title = reader.text_value(doc, "title", ())
    notes = reader.text_value(doc, "notes", ())
    puzzles = KINDS[kind].read(reader, doc, name, title, notes)
    batch = any(puzzle.board_name is not None for puzzle in puzzles)  # [[boards]]
    return PuzzleFile(name, title, puzzles, batch=batch, source=source)


def file_text(path: str | Path) -> str:
    """A puzzle file's text, held to the file limits (size, UTF-8) before it is parsed."""
    path = Path(path)
    try:
        with path.open("rb") as handle:
            raw = handle.read(limits.MAX_FILE_BYTES + 1)
    except OSError as error:
        raise PuzzleFileError(
            str(path), None, f"cannot read: {error.strerror or error}"
        ) from None
    return decode_bytes(raw, str(path))


def read_file(path: str | Path, name: str | None = None) -> PuzzleFile:
    """Read a puzzle file from disk."""
    path = Path(path)
    return read_text(file_text(path), str(path), name or path.stem)


def decode_bytes(raw: bytes, source: str) -> str:
    """A file's bytes as text, its size and UTF-8 checked (errors name the line)."""
    if len(raw) > limits.MAX_FILE_BYTES:
        raise PuzzleFileError(
            source, None, f"the file is larger than {limits.MAX_FILE_BYTES} bytes, the "
            "limit for a puzzle file (no line: about the whole file)"
        )
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as error:
        line = raw.count(b"\n", 0, error.start) + 1
        column = error.start - (raw.rfind(b"\n", 0, error.start) + 1) + 1
        raise PuzzleFileError(
            source, f"{line}:{column}", f"not UTF-8 text (byte {raw[error.start]:#04x})"
        ) from None


def read_bytes(raw: bytes, source: str, name: str, *, design: bool = False) -> PuzzleFile:
    """Check and decode a file's bytes (size, UTF-8), then read them as :func:`read_text`."""
    return read_text(decode_bytes(raw, source), source, name, design=design)


def table_reader(source: str, text: str) -> FileReader:
    """The checks a kind's reader uses (typed getters, errors at the key's line in ``text``),
    for a part of the file that no kind reads (the design search's ``[design]``)."""
    return _Reader(source, text)
