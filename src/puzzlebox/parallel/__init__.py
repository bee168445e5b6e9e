"""Counting at scale: split a search into independent subproblems and run them on local
processes (``--jobs``) or a Dask cluster (``--cluster``), with a checkpoint that lets an
interrupted run resume without losing or double-counting any subproblem."""

from puzzlebox.parallel.backends import DaskBackend, ProcessBackend, SerialBackend
from puzzlebox.parallel.checkpoint import Checkpoint
from puzzlebox.parallel.errors import (
    CheckpointError,
    ClusterUnavailable,
    SplitError,
    SplitOptionError,
    TaskError,
)
from puzzlebox.parallel.run import Interrupted, SplitRun
from puzzlebox.parallel.split import Subproblem, split
from puzzlebox.parallel.tasks import PuzzleSource, problem_fingerprint, run_task
from puzzlebox.reports import SplitCountResult

__all__ = [
    "Checkpoint",
    "CheckpointError",
    "ClusterUnavailable",
    "DaskBackend",
    "Interrupted",
    "ProcessBackend",
    "PuzzleSource",
    "SerialBackend",
    "SplitCountResult",
    "SplitError",
    "SplitOptionError",
    "SplitRun",
    "Subproblem",
    "TaskError",
    "problem_fingerprint",
    "run_task",
    "split",
]
