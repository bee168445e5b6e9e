"""Errors an engine raises when it cannot do what was asked (not bugs, not bad puzzle files)."""

from __future__ import annotations

from puzzlebox.errors import PuzzleboxError


class EngineError(PuzzleboxError):
    """An engine is missing (an extra not installed), cannot do an operation (a SAT count of
    many solutions), or produced an answer that failed verification. The message is one line
    meant for the user."""


class EngineDeclined(EngineError):
    """A named engine cannot take this job (the message says why, in one line)."""
