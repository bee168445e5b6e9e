"""A design search's checkpoint: every design tried, one signed JSON line each, appended as
it ends (parallel/journal.py: the first line names the space, a line cut short by a kill is
dropped and tried again, a damaged one elsewhere refused). A resumed run reads the lines,
skips the designs they hold and tries the rest, so nothing is lost and nothing is counted
twice (a design whose line appears twice, as after a resume of a resume that raced, counts
once). The space is named by a digest of the design file's text and of the wanted rules.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

from puzzlebox.designs.evaluate import DesignResult
from puzzlebox.errors import PuzzleboxError
from puzzlebox.parallel.journal import Journal

KIND = "puzzlebox design checkpoint"
VERSION = 2  # 2: the shared journal's first line ("run", was "space")


class DesignCheckpointError(PuzzleboxError):
    """A checkpoint that cannot be used: another space, damaged, or not one at all."""


def space_fingerprint(text: str, wanted: dict[str, Any]) -> str:
    blob = text + "\0" + json.dumps(wanted, sort_keys=True)
    return hashlib.sha256(blob.encode("utf-8")).hexdigest()


class DesignCheckpoint:
    """The results kept in ``path`` (read at once) and the file to append new ones to."""

    def __init__(self, path: str | Path, fingerprint: str) -> None:
        self.journal = Journal(path, KIND, VERSION, fingerprint, DesignResult.from_json,
                               DesignCheckpointError, "design search",
                               "design space (or of other wanted rules)")
        self.results: dict[int, DesignResult] = {}
        for result in self.journal.entries:
            self.results.setdefault(result.design.index, result)

    def record(self, result: DesignResult) -> None:
        """Append ``result`` (a design already recorded is not written again)."""
        if result.design.index in self.results:
            return
        data = result.to_json()
        data.pop("file", None)
        self.journal.append(data)
        self.results[result.design.index] = result

    def close(self) -> None:
        self.journal.close()
