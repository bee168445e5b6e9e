"""A journal of results: a JSON-lines file that a long run appends to as each result ends.

The design search (designs/checkpoint.py) and the split take-apart (disassembly/split.py)
keep their checkpoints this way. The first line names what the file belongs to (``kind``,
a version and a fingerprint of the run); each further line is one result with an
HMAC-SHA256 of its JSON under the user's checkpoint key (the key a count's checkpoint is
signed with, parallel/checkpoint.py). Each line is flushed and synced as it is written, so a
kill loses at most the results being made at that moment.

Reading: a file of another kind, version or run is refused in one line, and so is a damaged
line (its signature does not match, or the caller's ``parse`` refuses it), except the last:
a line cut short there is what a kill leaves. It is dropped (its result is made again) and
cut off the file before the next line is appended, so that a second resume reads a whole
file. What the signatures protect against: accidents (a line cut short by a kill or a full
disk, a bit flipped, a file of another run) and an edit by anyone who cannot read the key
file (a result changed and a plain SHA-256 recomputed is refused); not the user's own
account, which holds the key.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import os
from collections.abc import Callable
from pathlib import Path
from typing import IO, Any, Generic, TypeVar

from puzzlebox.errors import PuzzleboxError
from puzzlebox.parallel.checkpoint import signing_key

T = TypeVar("T")


def sign(payload: str) -> str:
    return hmac.new(signing_key(), payload.encode("utf-8"), hashlib.sha256).hexdigest()


class Journal(Generic[T]):
    """The entries already in ``path`` (``entries``: each line's result as ``parse`` makes
    it), and the file to append new ones to (:meth:`append`). ``what`` names the run in
    the refusals (``"design search"``), ``other`` what another run's file belongs to
    (``"design space"``); ``error`` is the error they raise."""

    def __init__(self, path: str | Path, kind: str, version: int, fingerprint: str,
                 parse: Callable[[dict[str, Any]], T], error: type[PuzzleboxError],
                 what: str, other: str) -> None:
        self.path = Path(path)
        self.kind, self.version, self.fingerprint = kind, version, fingerprint
        self.parse, self.error, self.what, self.other = parse, error, what, other
        self.entries: list[T] = []
        self._handle: IO[str] | None = None
        self._keep: int | None = None  # bytes to keep before appending (a cut line dropped)
        if self.path.exists() and self.path.stat().st_size > 0:
            self._read()

    def _read(self) -> None:
        name = str(self.path)
        try:
            lines = self.path.read_text(encoding="utf-8").split("\n")
        except (OSError, UnicodeDecodeError) as error:
            raise self.error(f"{name}: cannot read the checkpoint: {error}") from None
        try:
            head = json.loads(lines[0])
        except ValueError:
            head = None
        if not isinstance(head, dict) or head.get("checkpoint") != self.kind:
            raise self.error(f"{name}: not a {self.what}'s checkpoint")
        if head.get("version") != self.version:
            raise self.error(f"{name}: a {self.what}'s checkpoint of another version of "
                             f"puzzlebox (format {head.get('version')!r}, this one writes "
                             f"{self.version}): give a new file to start afresh")
        if head.get("run") != self.fingerprint:
            raise self.error(f"{name}: the checkpoint of another {self.other}: give a new "
                             "file to start afresh")
        last = len(lines) - 1
        while last > 0 and not lines[last]:
            last -= 1
        for number, line in enumerate(lines[1:], start=2):
            if not line:
                continue
            entry = self._entry(line)
            if entry is None:
                if number - 1 == last:  # cut short by a kill: made again, and cut off
                    self._keep = len("\n".join(lines[:number - 1]).encode("utf-8")) + 1
                    continue
                raise self.error(f"{name}:{number}: a damaged line (its signature does not "
                                 "match): the checkpoint cannot be used")
            self.entries.append(entry)

    def _entry(self, line: str) -> T | None:
        try:
            entry = json.loads(line)
            payload = json.dumps(entry["result"], sort_keys=True)
            if not isinstance(entry["result"], dict) or entry.get("check") != sign(payload):
                return None
            return self.parse(entry["result"])
        except (ValueError, KeyError, TypeError, AttributeError, IndexError):
            return None

    def _open(self) -> IO[str]:
        if self._handle is None:
            fresh = not self.path.exists() or self.path.stat().st_size == 0
            try:
                if self._keep is not None:
                    os.truncate(self.path, self._keep)
                    self._keep = None
                self._handle = self.path.open("a", encoding="utf-8")
            except OSError as error:
                raise self.error(f"cannot write the checkpoint {self.path}: "
                                 f"{error.strerror or error}") from None
            if fresh:
                self._write(json.dumps({"checkpoint": self.kind, "version": self.version,
                                        "run": self.fingerprint}))
        return self._handle

    def _write(self, line: str) -> None:
        assert self._handle is not None
        try:
            self._handle.write(line + "\n")
            self._handle.flush()
            os.fsync(self._handle.fileno())
        except OSError as error:
            raise self.error(f"cannot write the checkpoint {self.path}: "
                             f"{error.strerror or error}") from None

    def start(self) -> None:
        """Write the first line of a new file (and cut off a line cut short at the end)."""
        self._open()

    def append(self, result: dict[str, Any]) -> None:
        """Append one result (JSON data), signed, flushed and synced."""
        self._open()
        payload = json.dumps(result, sort_keys=True)
        self._write(json.dumps({"result": result, "check": sign(payload)}))

    def close(self) -> None:
        if self._handle is not None:
            self._handle.close()
            self._handle = None
