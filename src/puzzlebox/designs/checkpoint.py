"""A design search's checkpoint: every design tried, one JSON line each, appended as it ends.

The file's first line names the space it belongs to (a digest of the design file's text and
of the wanted rules); each further line is one design's result with an HMAC-SHA256 of that
result's JSON under the user's checkpoint key (the key a count's checkpoint is signed with,
parallel/checkpoint.py: ``$XDG_CONFIG_HOME/puzzlebox/checkpoint.key``). A run appends and
flushes a line per design, so a kill loses at most the
designs being tried at that moment; a resumed run reads the lines, skips the designs they
hold and tries the rest, so nothing is lost and nothing is counted twice (a design whose
line appears twice, as after a resume of a resume that raced, counts once).

What the signatures protect against: accidents (a line cut short by a kill or a full disk,
a bit flipped, a file from another space) and an edit by anyone who cannot read the key
file (a result changed and its SHA-256 recomputed is refused); not the user's own account,
which holds the key.
A line cut short at the very end is what a kill leaves: it is dropped and its design tried
again; a damaged line anywhere else is refused in one line.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import os
from pathlib import Path
from typing import IO, Any

from puzzlebox.designs.evaluate import DesignResult
from puzzlebox.errors import PuzzleboxError
from puzzlebox.parallel.checkpoint import signing_key

MAGIC = "puzzlebox design checkpoint"
VERSION = 1


class DesignCheckpointError(PuzzleboxError):
    """A checkpoint that cannot be used: another space, damaged, or not one at all."""


def _check(payload: str) -> str:
    return hmac.new(signing_key(), payload.encode("utf-8"), hashlib.sha256).hexdigest()


def space_fingerprint(text: str, wanted: dict[str, Any]) -> str:
    blob = text + "\0" + json.dumps(wanted, sort_keys=True)
    return hashlib.sha256(blob.encode("utf-8")).hexdigest()


class DesignCheckpoint:
    """The results kept in ``path`` (read at once) and the file to append new ones to."""

    def __init__(self, path: str | Path, fingerprint: str) -> None:
        self.path = Path(path)
        self.fingerprint = fingerprint
        self.results: dict[int, DesignResult] = {}
        self._handle: IO[str] | None = None
        self._good_bytes: int | None = None  # where a line cut short by a kill begins
        if self.path.exists() and self.path.stat().st_size > 0:
            self._read()

    def _read(self) -> None:
        name = str(self.path)
        try:
            lines = self.path.read_text(encoding="utf-8").split("\n")
        except (OSError, UnicodeDecodeError) as error:
            raise DesignCheckpointError(f"{name}: cannot read the checkpoint: {error}") from None
        try:
            head = json.loads(lines[0])
        except ValueError:
            head = None
        if not isinstance(head, dict) or head.get("checkpoint") != MAGIC:
            raise DesignCheckpointError(f"{name}: not a design search's checkpoint")
        if head.get("version") != VERSION or head.get("space") != self.fingerprint:
            raise DesignCheckpointError(
                f"{name}: the checkpoint of another design space (or of other wanted rules): "
                "give a new file to start afresh")
        last = len(lines) - 1
        while last > 0 and not lines[last]:
            last -= 1
        for number, line in enumerate(lines[1:], start=2):
            if not line:
                continue
            entry = self._entry(line)
            if entry is None:
                if number - 1 == last:  # cut short by a kill: tried again, and cut off
                    self._good_bytes = len("\n".join(lines[:last]).encode("utf-8")) + 1
                    continue
                raise DesignCheckpointError(f"{name}:{number}: a damaged line (its signature "
                                            "does not match): the checkpoint cannot be used")
            result = DesignResult.from_json(entry)
            self.results.setdefault(result.design.index, result)

    @staticmethod
    def _entry(line: str) -> dict[str, Any] | None:
        try:
            entry = json.loads(line)
            payload = json.dumps(entry["result"], sort_keys=True)
        except (ValueError, KeyError, TypeError):
            return None
        if not isinstance(entry.get("result"), dict) or entry.get("check") != _check(payload):
            return None
        try:
            DesignResult.from_json(entry["result"])
        except (KeyError, TypeError, ValueError):
            return None
        result: dict[str, Any] = entry["result"]
        return result

    def _open(self) -> IO[str]:
        if self._handle is None:
            if self._good_bytes is not None:  # a line cut short: what follows starts afresh
                try:
                    os.truncate(self.path, self._good_bytes)
                except OSError as error:
                    raise DesignCheckpointError(
                        f"cannot write the checkpoint {self.path}: {error.strerror or error}"
                    ) from None
                self._good_bytes = None
            fresh = not self.path.exists() or self.path.stat().st_size == 0
            try:
                self._handle = self.path.open("a", encoding="utf-8")
            except OSError as error:
                raise DesignCheckpointError(
                    f"cannot write the checkpoint {self.path}: {error.strerror or error}"
                ) from None
            if fresh:
                self._write(json.dumps({"checkpoint": MAGIC, "version": VERSION,
                                        "space": self.fingerprint}))
        return self._handle

    def _write(self, line: str) -> None:
        assert self._handle is not None
        try:
            self._handle.write(line + "\n")
            self._handle.flush()
            os.fsync(self._handle.fileno())
        except OSError as error:
            raise DesignCheckpointError(
                f"cannot write the checkpoint {self.path}: {error.strerror or error}"
            ) from None

    def record(self, result: DesignResult) -> None:
        """Append ``result`` (a design already recorded is not written again)."""
        if result.design.index in self.results:
            return
        self._open()
        data = result.to_json()
        data.pop("file", None)
        payload = json.dumps(data, sort_keys=True)
        self._write(json.dumps({"result": data, "check": _check(payload)}))
        self.results[result.design.index] = result

    def close(self) -> None:
        if self._handle is not None:
            self._handle.close()
            self._handle = None
