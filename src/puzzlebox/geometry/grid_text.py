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


def invisible_character(text: str) -> str | None:
    """Why ``text`` cannot be read as a grid (the first invisible character, its line and
    column, counting from 1, lines as ``parse_grid`` splits them), or None when it can."""
    text = text.replace("\r\n", "\n")
    newline = "\n" if "\n" in text else "/"
    line, column = 1, 0
    for ch in text:
        if ch == newline:
            line, column = line + 1, 0
            continue
        column += 1
        if ch != " " and unicodedata.category(ch) in _INVISIBLE:
            name = _NAMES.get(ch) or f"an invisible character ({_name(ch)})"
            return (
                f"{name} (U+{ord(ch):04X}) at line {line}, column {column} of the grid: draw "
                "cells with visible characters and holes with '.' or spaces"
            )
    return None


def _name(ch: str) -> str:
    return unicodedata.name(ch, "unnamed").lower()


def grid_rows(text: str) -> list[str]:
    """The rows of a grid as the contract writes them: one a line, or on one line split by
    ``/``; leading and trailing blank rows dropped (a row of ``.`` is a row)."""
    text = text.replace("\r\n", "\n")
    rows = text.split("\n") if "\n" in text else text.split("/")
    while rows and not rows[0].strip():
        rows.pop(0)
    while rows and not rows[-1].strip():
        rows.pop()
    return rows
