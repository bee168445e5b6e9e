"""A drawn grid's text: its rows (:func:`grid_rows`), and the characters it may not hold,
the invisible ones (issue #26).

A grid is drawn with visible characters, one a cell, and ``.`` or space for no cell. A tab
(an editor's indentation), a no-break space or a zero-width character looks like a hole or
like nothing at all, yet would be read as a cell of its own colour, and the count then
fails far from the cause ("the areas do not add up"). Every grid's text passes here before
it is read (``parse_grid``), so the refusal names the line and column where it stands.
"""

from __future__ import annotations

import unicodedata

# Control, format (zero-width), surrogate, and every space or separator but the plain one
_INVISIBLE = frozenset({"Cc", "Cf", "Cs", "Zs", "Zl", "Zp"})
_NAMES = {"\t": "a tab", "\r": "a carriage return", "\u00a0": "a no-break space",
          "\u200b": "a zero-width space", "\ufeff": "a byte-order mark"}


def _lines(text: str) -> list[str]:
    """The grid's lines before blank ones are dropped: one a line, or split by ``/``."""
    text = text.replace("\r\n", "\n")
    return text.split("\n") if "\n" in text else text.split("/")


def _leading_blank(lines: list[str]) -> int:
    """How many blank lines come before the grid's row 0 (``grid_rows`` drops them)."""
    blank = 0
    while blank < len(lines) and not lines[blank].strip():
        blank += 1
    return blank


def row_line(text: str, row: int) -> int | None:
    """The line of ``text`` (from 0, as the string splits at its newlines) that holds the
    grid's ``row`` (from 0, as the contract counts); None for a grid written on one line
    (rows split by ``/``), where every row is on the line of its key (#38 item 9)."""
    if "\n" not in text:
        return None
    return _leading_blank(_lines(text)) + row


def where_in_grid(text: str, line: int, column: int) -> str:
    """``row R, column C`` of the grid as the contract counts them (from 0, blank lines
    above the grid not counted), for the character at ``line`` and ``column`` (from 0) of
    ``text``'s lines."""
    lines = _lines(text)
    first = _leading_blank(lines)
    last = len(lines) - _leading_blank(lines[::-1]) - 1
    if line < first:
        return "a blank line above the grid's row 0"
    if line > last:
        return "a blank line below the grid's last row"
    return f"row {line - first}, column {column}"


def invisible_character(text: str) -> tuple[str, int | None] | None:
    """Why ``text`` cannot be read as a grid (the first invisible character, its row and
    column as the contract counts them, from 0), with the line of ``text`` it stands on
    (from 0; None for a grid on one line); None when it can be read."""
    for number, line in enumerate(_lines(text)):
        for column, ch in enumerate(line):
            if ch != " " and unicodedata.category(ch) in _INVISIBLE:
                name = _NAMES.get(ch) or f"an invisible character ({_name(ch)})"
                return (
                    f"{name} (U+{ord(ch):04X}) at {where_in_grid(text, number, column)} of "
                    "the grid (counted from 0): draw cells with visible characters and holes "
                    "with '.' or spaces", number if "\n" in text else None)
    return None


def _name(ch: str) -> str:
    return unicodedata.name(ch, "unnamed").lower()


def grid_rows(text: str) -> list[str]:
    """The rows of a grid as the contract writes them: one a line, or on one line split by
    ``/``; leading and trailing blank rows dropped (a row of ``.`` is a row)."""
    rows = _lines(text)
    while rows and not rows[0].strip():
        rows.pop(0)
    while rows and not rows[-1].strip():
        rows.pop()
    return rows
