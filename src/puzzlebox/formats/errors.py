"""The one error a user sees for a bad puzzle file: file, place, what is wrong."""

from __future__ import annotations

from puzzlebox.errors import PuzzleboxError
from puzzlebox.safety import printable


class PuzzleFileError(PuzzleboxError):
    """A malformed puzzle file. ``str()`` is the single line printed on stderr.

    Keys and values quoted from the file may hold any character: they are escaped
    (:func:`puzzlebox.safety.printable`), so the line is one line and sends nothing but
    text to the terminal."""

    def __init__(self, source: str, place: str | None, message: str) -> None:
        self.source = source
        self.place = place
        self.message = message
        super().__init__(str(self))

    def __str__(self) -> str:
        where = f"{self.source}:{self.place}" if self.place else self.source
        return printable(f"{where}: {self.message}")
