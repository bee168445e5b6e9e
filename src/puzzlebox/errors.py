"""The one root of every error puzzlebox reports to a user.

Every error a user can cause (a malformed file, an engine that cannot take a puzzle, an
unreachable cluster, a checkpoint from another puzzle) derives from :class:`PuzzleboxError`.
Its message is one line meant for the user and its ``exit_status`` is what the command line
exits with, so the command line needs one ``except`` for all of them. Bugs are not
PuzzleboxErrors: they keep their tracebacks.
"""

from __future__ import annotations

from typing import ClassVar

EXIT_BAD_INPUT = 2  # the input (a file, an option, a choice of engine) cannot be used


class PuzzleboxError(Exception):
    """Something the user can fix; ``str(error)`` is one line, ``exit_status`` the code."""

    exit_status: ClassVar[int] = EXIT_BAD_INPUT
