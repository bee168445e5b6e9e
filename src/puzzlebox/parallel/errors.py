"""What can go wrong in a split run, each as one line for the user and an exit status."""

from __future__ import annotations

from puzzlebox.errors import PuzzleboxError


class SplitError(PuzzleboxError):
    """A split run that cannot go on; ``str()`` is the one line printed on stderr."""

    exit_status = 1


class CheckpointError(SplitError):
    """A checkpoint that cannot be used here (unreadable, or made for another run)."""

    exit_status = 2


class ClusterUnavailable(SplitError):
    """The ``cluster`` extra is missing, or the scheduler cannot be reached."""

    exit_status = 2


class TaskError(SplitError):
    """A subproblem failed on a worker (or kept killing its workers)."""


class SplitOptionError(SplitError):
    """Options that a split run cannot honour (an engine that takes no subproblems)."""

    exit_status = 2
