"""Read a ``kind = "sudoku"`` file: the grid of givens, and optionally its symbols, its box
shape or its jigsaw regions. Every bad value is one error naming the file and the line.

    kind = "sudoku"
    grid = '''
    53..7....
    6..195...
    ...
    '''
    symbols = "123456789"   # optional: the grid's n symbols (default 1-9, then A-Z)
    box = [3, 3]            # optional: rows and columns of a box (default: square root)
    regions = '''           # optional, instead of box: one letter per cell, n regions of n
    AAABBBCCC
    ...
    '''

In ``grid``, ``.`` (and ``0`` when 0 is not a symbol) is an empty cell; spaces and ``|``
inside a row, and rows made only of ``-``, ``+``, ``|`` and spaces, are ignored, so the
text drawing (``puzzlebox show``) can be pasted back.
"""

from __future__ import annotations

import math
from typing import Any, Protocol

from puzzlebox.puzzles.sudoku import model  # a module: model.py imports this one at its top

KEYS = {"kind", "title", "notes", "grid", "symbols", "box", "regions"}
RULE_CHARACTERS = set("-+|= ")
SEPARATORS = set(" \t|")
EMPTY = "."
SHOWN = 40


class FileReader(Protocol):
    """What this reader asks of formats/reader.py's reader (the checks and the error that
    names the file and the line)."""

    source: str

    def fail(self, path: tuple[Any, ...], message: str,
             text_line: int | None = None) -> Exception: ...

    def check_keys(self, table: dict[str, Any], allowed: set[str], path: tuple[Any, ...]
                   ) -> None: ...


def _shown(value: Any) -> str:
    if isinstance(value, dict):
        return "a table"
    if isinstance(value, list):
        return "an array"
    text = repr(value)
    return text if len(text) <= SHOWN else text[: SHOWN - 3] + "..."


def _rows(r: FileReader, value: Any, key: str) -> list[str]:
    """A grid string as rows of cells: separators and rule lines dropped."""
    if not isinstance(value, str):
        raise r.fail((key,), f"must be a string of rows, not {_shown(value)}")
    if len(value) > 4 * model.MAX_SIZE * model.MAX_SIZE:
        raise r.fail((key,), f"a grid of {len(value)} characters; the largest sudoku read "
                     f"is {model.MAX_SIZE} x {model.MAX_SIZE}")
    text = value.replace("\r\n", "\n")
    lines = text.split("\n") if "\n" in text else text.split("/")
    rows = []
    for line in lines:
        if set(line) <= RULE_CHARACTERS:
            continue
        rows.append("".join(ch for ch in line if ch not in SEPARATORS))
    if not rows:
        raise r.fail((key,), "the grid has no rows")
    return rows


def _row_lines(value: str) -> list[int | None]:
    """The line of ``value`` (from 0) that holds each row :func:`_rows` keeps, so an error
    points at the file's line of its row (#38 item 9); None each for a grid on one line."""
    text = value.replace("\r\n", "\n")
    one_line = "\n" not in text
    lines = text.split("/") if one_line else text.split("\n")
    return [None if one_line else k for k, line in enumerate(lines)
            if not set(line) <= RULE_CHARACTERS]


def _square(r: FileReader, rows: list[str], key: str, n: int | None = None,
            lines: list[int | None] | None = None) -> int:
    """Check that ``rows`` make an n x n square (n: the number of rows, unless given)."""
    size = len(rows) if n is None else n
    if size > model.MAX_SIZE:
        raise r.fail((key,), f"has {size} rows; the largest sudoku read is "
                     f"{model.MAX_SIZE} x {model.MAX_SIZE}")
    if len(rows) != size:
        raise r.fail((key,), f"has {len(rows)} rows; the grid has {size}")
    if n is None and len({len(row) for row in rows}) == 1 and len(rows[0]) != size:
        rows_word = "row" if size == 1 else "rows"
        raise r.fail((key,), f"has {size} {rows_word} of {len(rows[0])} cells; a sudoku "
                     "grid is square (n rows of n cells)")
    for i, row in enumerate(rows):  # rows and columns from 0, as the contract counts them
        if len(row) != size:
            raise r.fail((key,), f"row {i} has {len(row)} cells; a {size} x {size} grid "
                         f"needs {size} in every row", None if lines is None else lines[i])
    return size


def read_sudoku(r: FileReader, doc: dict[str, Any], name: str, title: str, notes: str
                ) -> model.SudokuPuzzle:
    """The puzzle of a parsed sudoku file, every value checked."""
    r.check_keys(doc, KEYS, ())
    if "grid" not in doc:
        raise r.fail(("grid",), "is missing")
    rows = _rows(r, doc["grid"], "grid")
    lines = _row_lines(doc["grid"])
    n = _square(r, rows, "grid", lines=lines)

    symbols = doc.get("symbols")
    if symbols is None:
        if n > len(model.DEFAULT_SYMBOLS):
            raise r.fail(("grid",), f"a {n} x {n} grid needs its symbols named (symbols)")
        symbols = model.DEFAULT_SYMBOLS[:n]
    elif not isinstance(symbols, str):
        raise r.fail(("symbols",), f"must be a string of {n} characters, not "
                     f"{_shown(symbols)}")
    else:
        bad = [ch for ch in symbols if ch in SEPARATORS or ch in RULE_CHARACTERS or ch == EMPTY]
        if bad:
            raise r.fail(("symbols",), f"{bad[0]!r} cannot be a symbol (it is read as a "
                         "separator or an empty cell)")
        if len(symbols) != n or len(set(symbols)) != n:
            raise r.fail(("symbols",), f"must be {n} different characters for a {n} x {n} "
                         f"grid, not {_shown(symbols)}")
    empty = {EMPTY} | ({"0"} if "0" not in symbols else set())

    givens: dict[tuple[int, int], int] = {}
    for i, row in enumerate(rows):
        for j, ch in enumerate(row):
            if ch in empty:
                continue
            d = symbols.find(ch)
            if d < 0:
                raise r.fail(("grid",), f"row {i}, column {j}: {ch!r} is not a symbol of "
                             f"this grid ({symbols}; '.' for an empty cell)", lines[i])
            givens[i, j] = d

    if "regions" in doc and "box" in doc:
        raise r.fail(("regions",), "give either box or regions, not both")
    box: tuple[int, int] | None = None
    names = None
    if "regions" in doc:
        regions, names = _regions(r, doc["regions"], n)
    else:
        box = _box(r, doc, n)
        regions = model.box_regions(n, *box)
    return model.SudokuPuzzle(name, n, givens, regions, symbols, box, title, notes, names)


def _box(r: FileReader, doc: dict[str, Any], n: int) -> tuple[int, int]:
    """``box = [rows, cols]``, or the square root of n when absent."""
    if "box" not in doc:
        root = math.isqrt(n)
        if root * root != n:
            raise r.fail(("grid",), f"a {n} x {n} grid has no square boxes: give box = "
                         "[rows, cols] or regions")
        return root, root
    value = doc["box"]
    if not (isinstance(value, list) and len(value) == 2 and all(
            isinstance(v, int) and not isinstance(v, bool) and v >= 1 for v in value)):
        raise r.fail(("box",), f"must be [rows, cols], two positive integers, not "
                     f"{_shown(value)}")
    rows, cols = value
    if rows * cols != n:
        raise r.fail(("box",), f"boxes of {rows} x {cols} hold {rows * cols} cells; a "
                     f"{n} x {n} grid needs boxes of {n}")
    return rows, cols


def _regions(r: FileReader, value: Any, n: int) -> tuple[tuple[tuple[int, ...], ...], str]:
    """A grid of region letters: n regions of n cells each, numbered in reading order, and
    the letter of each number."""
    rows = _rows(r, value, "regions")
    lines = _row_lines(value)
    _square(r, rows, "regions", n, lines)
    number: dict[str, int] = {}
    for i, row in enumerate(rows):
        for j, ch in enumerate(row):
            if ch == EMPTY:
                raise r.fail(("regions",), f"row {i}, column {j}: every cell needs a "
                             "region letter, not '.'", lines[i])
            number.setdefault(ch, len(number))
    if len(number) != n:
        raise r.fail(("regions",), f"has {len(number)} regions; a {n} x {n} grid needs {n}")
    sizes = {ch: sum(row.count(ch) for row in rows) for ch in number}
    for ch, size in sizes.items():
        if size != n:
            raise r.fail(("regions",), f"region {ch!r} has {size} cells; each needs {n}")
    return tuple(tuple(number[ch] for ch in row) for row in rows), "".join(number)
