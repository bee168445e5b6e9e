"""What a kind's reader asks of the file it reads: checked values, and errors that name a line.

Each kind reads its own part of a puzzle file (``Puzzle.read``, in the kind's package).
formats/reader.py parses the TOML, guards its size and nesting, and hands the kind a
:class:`FileReader`: typed getters that check every value before it is used and an error
that names the file and the line. formats/ sits a layer above the kinds (docs/DESIGN.md),
so the kinds see it through this interface, which formats/reader.py implements.
"""

from __future__ import annotations

from typing import Any, Protocol

from puzzlebox.geometry.lattice import Cell, Lattice

COMMON_KEYS = {"kind", "title", "notes"}  # keys every kind's file may have
SHOWN = 40  # characters of a value or key quoted in an error message


def shown(value: Any) -> str:
    """A value as an error message quotes it: short, one line, never a deep repr."""
    if isinstance(value, dict):
        return "a table"
    if isinstance(value, list):
        return "an array"
    if isinstance(value, int) and not isinstance(value, bool) and abs(value) >= 10**12:
        return f"an integer of {len(str(abs(value)))} digits"
    text = repr(value)
    return text if len(text) <= SHOWN else text[: SHOWN - 3] + "..."


class FileReader(Protocol):
    """The checks a kind's reader makes through formats/reader.py. A ``path`` is the keys
    (and array indices) from the top of the file to a value: ``("pieces", "F", "count")``."""

    source: str  # the file's name, as errors give it

    def fail(self, path: tuple[Any, ...], message: str,
             text_line: int | None = None) -> Exception:
        """The error to raise for the value at ``path``, placed at its line; with
        ``text_line`` (a line of the value's text, from 0: a grid's row) at the line of the
        file that shows it, where the value is a multi-line string."""
        ...

    def check_keys(self, table: dict[str, Any], allowed: set[str], path: tuple[Any, ...]
                   ) -> None:
        """Refuse a key of ``table`` that is not ``allowed``."""
        ...

    def names(self, table: dict[str, Any], what: str, most: int, path: tuple[Any, ...]
              ) -> None:
        """Refuse a table of more than ``most`` entries, or with a name too long to show."""
        ...

    def table(self, doc: dict[str, Any], key: str, path: tuple[Any, ...]) -> dict[str, Any]:
        """``doc[key]``, which must be a table."""
        ...

    def boolean(self, table: dict[str, Any], key: str, default: bool, path: tuple[Any, ...]
                ) -> bool:
        """``table[key]`` (``default`` when absent), which must be true or false."""
        ...

    def integer(self, table: dict[str, Any], key: str, path: tuple[Any, ...], least: int,
                most: int) -> int:
        """``table[key]``, which must be an integer from ``least`` to ``most``."""
        ...

    def text_value(self, table: dict[str, Any], key: str, path: tuple[Any, ...]) -> str:
        """``table[key]`` ("" when absent), which must be a string."""
        ...

    def grid(self, value: Any, path: tuple[Any, ...], lattice: Lattice) -> dict[Cell, str]:
        """A board or piece grid read on ``lattice``, its size checked before any cell is
        made."""
        ...
