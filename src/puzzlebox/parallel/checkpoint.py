"""A JSON checkpoint of a split run: the subproblems of each board and the results so far.

The file is replaced atomically after every finished subproblem (write a temporary file
beside it, flush, fsync, rename), so it always holds a consistent state, whatever kills the
process. It stores the subproblems themselves, so a resumed run solves exactly the pieces
that were missing, however the split would be made today. A fingerprint of the puzzle and of
the options that change the answer guards against resuming someone else's run.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import tempfile
from pathlib import Path
from typing import Any

from puzzlebox.parallel.errors import CheckpointError
from puzzlebox.parallel.split import Subproblem

FORMAT = "puzzlebox-checkpoint"
VERSION = 1


def run_fingerprint(command: str, split: str, boards: list[str]) -> str:
    """What a run's answer depends on: the command, the split setting and every board's
    problem fingerprint (never the engine, the number of jobs or the cluster)."""
    blob = json.dumps({"command": command, "split": split, "boards": boards})
    return hashlib.sha256(blob.encode()).hexdigest()


class Checkpoint:
    """The state of one run, kept in memory and mirrored to ``path`` after every change."""

    def __init__(self, path: Path, data: dict[str, Any]) -> None:
        self.path = path
        self.data = data

    @classmethod
    def open(
        cls, path: str | Path, fingerprint: str, puzzle: str, command: str, split: str,
        boards: int,
    ) -> Checkpoint:
        """Resume the checkpoint at ``path``, or start a new one when there is no file."""
        path = Path(path)
        if not path.exists():
            data = {
                "format": FORMAT,
                "version": VERSION,
                "puzzle": puzzle,
                "command": command,
                "split": split,
                "fingerprint": fingerprint,
                "boards": [{"subproblems": None, "done": {}} for _ in range(boards)],
            }
            checkpoint = cls(path, data)
            checkpoint.save()
            return checkpoint
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, UnicodeDecodeError, json.JSONDecodeError) as error:
            raise CheckpointError(f"{path}: not a readable checkpoint ({error})") from None
        if not isinstance(data, dict) or data.get("format") != FORMAT:
            raise CheckpointError(f"{path}: not a puzzlebox checkpoint")
        if data.get("version") != VERSION:
            raise CheckpointError(
                f"{path}: checkpoint version {data.get('version')!r} is not {VERSION}"
            )
        if data.get("fingerprint") != fingerprint:
            made = f"'{data.get('command')} {data.get('puzzle')}' with split {data.get('split')}"
            raise CheckpointError(
                f"{path}: this checkpoint was made for another puzzle or other options "
                f"({made}); use another file or delete it"
            )
        if not isinstance(data.get("boards"), list) or len(data["boards"]) != boards:
            raise CheckpointError(f"{path}: the checkpoint's boards do not match the puzzle")
        return cls(path, data)

    def plan(self, board: int) -> list[Subproblem] | None:
        """The subproblems of ``board`` when they were already chosen."""
        subs = self.data["boards"][board]["subproblems"]
        if subs is None:
            return None
        return [(tuple(forced), tuple(excluded)) for forced, excluded in subs]

    def set_plan(self, board: int, subproblems: list[Subproblem]) -> None:
        self.data["boards"][board]["subproblems"] = [[list(f), list(e)] for f, e in subproblems]
        self.save()

    def done(self, board: int) -> dict[int, list[Any]]:
        """Finished subproblems of ``board``: index -> the result recorded for it."""
        return {int(k): v for k, v in self.data["boards"][board]["done"].items()}

    def record(self, board: int, index: int, result: list[Any]) -> None:
        self.data["boards"][board]["done"][str(index)] = result
        self.save()

    def save(self) -> None:
        """Replace the file atomically: a crash leaves either the old or the new state."""
        folder = self.path.parent
        try:
            fd, temp = tempfile.mkstemp(prefix=f".{self.path.name}.", suffix=".tmp", dir=folder)
        except OSError as error:
            raise CheckpointError(f"{self.path}: cannot write: {error.strerror}") from None
        try:
            with os.fdopen(fd, "w", encoding="utf-8") as handle:
                json.dump(self.data, handle, separators=(",", ":"))
                handle.flush()
                os.fsync(handle.fileno())
            os.replace(temp, self.path)
        except BaseException as error:
            with contextlib.suppress(OSError):
                os.unlink(temp)
            if isinstance(error, OSError):
                raise CheckpointError(f"{self.path}: cannot write: {error.strerror}") from None
            raise
        with contextlib.suppress(OSError):  # make the rename itself durable where we can
            dir_fd = os.open(folder, os.O_RDONLY)
            try:
                os.fsync(dir_fd)
            finally:
                os.close(dir_fd)
