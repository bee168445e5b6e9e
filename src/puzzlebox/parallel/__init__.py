"""Counting at scale: split a search into independent subproblems and run them on local
processes (``--jobs``) or a Dask cluster (``--cluster``), with a checkpoint that lets an
interrupted run resume without losing or double-counting any subproblem."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

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

if TYPE_CHECKING:
    from puzzlebox.parallel.backends import DaskBackend, ProcessBackend, SerialBackend

# The backends load on first use: multiprocessing, subprocess, socket and uuid cost 15-21 ms
# that a run of one process (nearly every count) need not pay (issue #23).
_BACKENDS = ("DaskBackend", "ProcessBackend", "SerialBackend")

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


def __getattr__(name: str) -> Any:
    if name in _BACKENDS:
        from puzzlebox.parallel import backends

        return getattr(backends, name)
    raise AttributeError(f"module 'puzzlebox.parallel' has no attribute {name!r}")
