"""A JSON checkpoint of a split run: the subproblems of each board and the results so far.

The file is replaced atomically after every finished subproblem (write a temporary file
beside it, flush, fsync, rename), so it always holds a consistent state, whatever kills the
process. It stores the subproblems themselves, so a resumed run solves exactly the pieces
that were missing, however the split would be made today. A fingerprint of the puzzle and of
the options that change the answer guards against resuming someone else's run.

A checkpoint is data from outside, like a puzzle file: on opening, every field is checked
(:func:`check_boards`: its shape, counts non-negative whole numbers, subproblem numbers in
range, each recorded result of the right length, distinct never above raw, no subproblem
twice), so a file edited by hand or damaged is refused with one line instead of a traceback
or a wrong total. What is well-formed but changed (#28: a count raised by one, a forced option
changed, a subproblem deleted, the plan replaced) is caught by checksums: one over each
board's subproblems and one over each recorded result, each taken with the run's fingerprint,
the board and the subproblem, so a result cannot be moved to another subproblem, board or
run either. Since version 3 (#38 item 12) each checksum is an HMAC-SHA256 under a key kept
beside the user's configuration (:func:`key_path`: ``$XDG_CONFIG_HOME/puzzlebox/
checkpoint.key``, made 0600 on first use), so an edit whose plain SHA-256 is recomputed
does not match either: only someone who can read that key can make a checkpoint that
resumes. A checkpoint records which key signed it (``key``: a digest of the key, not the
key), so one written under another user's or machine's key is refused as such.
"""

from __future__ import annotations

import contextlib
import json
import math
import os
from pathlib import Path
from typing import Any

from puzzlebox.outfile import replacing
from puzzlebox.parallel.errors import CheckpointError
from puzzlebox.parallel.split import Subproblem

FORMAT = "puzzlebox-checkpoint"
VERSION = 3  # 2: with checksums (#28); 3: signed (#38); an older file is refused, never trusted
KEY_FILE = "checkpoint.key"
_KEYS: dict[Path, bytes] = {}  # each key file read once a process
ENTRY_FIELDS = {  # a finished subproblem's recorded result, by command
    "count": ("raw", "distinct", "nodes", "seconds"),
    "solve": ("raw", "nodes", "seconds"),
}


def _count(value: Any) -> bool:
    """A JSON number that a count can be: a whole number, not negative (true is not one)."""
    return isinstance(value, int) and not isinstance(value, bool) and value >= 0


def _problem(where: str, what: str) -> str:
    return f"{where}: {what}"


def check_boards(boards: Any, count: int, command: str) -> str | None:
    """What is wrong with a checkpoint's ``boards`` for a run of ``command`` over ``count``
    boards, as a phrase; None when nothing is. Checked as data, never trusted."""
    if not isinstance(boards, list) or len(boards) != count:
        return "the checkpoint's boards do not match the puzzle"
    fields = ENTRY_FIELDS.get(command)
    for b, board in enumerate(boards):
        where = f"board {b}"
        if not isinstance(board, dict) or set(board) != {"subproblems", "done"}:
            return _problem(where, "must hold exactly 'subproblems' and 'done'")
        subs, done = board["subproblems"], board["done"]
        if subs is not None:
            if not isinstance(subs, list) or not subs:
                return _problem(where, "'subproblems' must be null or a non-empty list")
            for i, sub in enumerate(subs):
                if not (
                    isinstance(sub, list)
                    and len(sub) == 2
                    and all(isinstance(part, list) and all(map(_count, part)) for part in sub)
                ):
                    return _problem(
                        where, f"subproblem {i} must be [forced, excluded], two lists of "
                        "option numbers"
                    )
            seen: dict[str, int] = {}
            for i, sub in enumerate(subs):
                forced, excluded = sub
                if len(set(forced) | set(excluded)) != len(forced) + len(excluded):
                    return _problem(where, f"subproblem {i} names an option twice")
                key_of = json.dumps(sub)
                if key_of in seen:
                    return _problem(where, f"subproblem {i} repeats subproblem "
                                    f"{seen[key_of]} (a subproblem counted twice)")
                seen[key_of] = i
        if not isinstance(done, dict):
            return _problem(where, "'done' must be an object")
        total = 0 if subs is None else len(subs)
        for key, entry in done.items():
            if not (key.isascii() and key.isdigit() and key == str(int(key))) or int(key) >= total:
                return _problem(
                    where, f"'done' names subproblem {key[:20]!r}, not one of 0..{total - 1}"
                    if total else f"'done' names subproblem {key[:20]!r} before any were planned"
                )
            if fields is None or not isinstance(entry, list) or len(entry) != len(fields):
                return _problem(where, f"the result of subproblem {key} must be "
                                f"[{', '.join(fields or ())}]")
            *whole, seconds = entry
            if not all(map(_count, whole)) or not (
                isinstance(seconds, int | float) and not isinstance(seconds, bool)
                and math.isfinite(seconds) and seconds >= 0
            ):
                return _problem(where, f"the result of subproblem {key} must hold whole "
                                "numbers and seconds, none negative")
            if command == "count" and entry[1] > entry[0]:
                return _problem(where, f"subproblem {key} has more distinct solutions "
                                f"({entry[1]}) than solutions ({entry[0]})")
    return None


def key_path() -> Path:
    """Where the signing key is kept: ``$XDG_CONFIG_HOME/puzzlebox/checkpoint.key``, or
    ``~/.config/puzzlebox/checkpoint.key`` when that is unset, empty or not absolute (the
    XDG rule)."""
    base = os.environ.get("XDG_CONFIG_HOME", "")
    if not os.path.isabs(base):
        try:
            base = str(Path.home() / ".config")
        except RuntimeError:  # no home to find
            raise CheckpointError("a checkpoint is signed with a key kept in "
                                  "$XDG_CONFIG_HOME/puzzlebox/, and neither it nor a home "
                                  "folder is set") from None
    return Path(base) / "puzzlebox" / KEY_FILE


def _read_key(path: Path) -> bytes:
    try:
        text = path.read_text(encoding="ascii").strip()
        return bytes.fromhex(text) if len(text) == 64 else b""
    except (UnicodeDecodeError, ValueError):
        return b""


def _new_key(path: Path) -> None:
    """Make ``path`` a new key, 0600, in a folder made 0700; a key another process made
    first is kept (the new one is written aside and linked in, never half-written)."""
    path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
    temp = path.with_name(f".{KEY_FILE}.{os.getpid()}.{os.urandom(4).hex()}")
    fd = os.open(temp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    try:
        with os.fdopen(fd, "w", encoding="ascii") as handle:
            handle.write(os.urandom(32).hex() + "\n")
        with contextlib.suppress(FileExistsError):
            os.link(temp, path)
    finally:
        with contextlib.suppress(OSError):
            os.unlink(temp)


def signing_key() -> bytes:
    """The user's checkpoint key (32 random bytes), made on first use."""
    path = key_path()
    if path in _KEYS:
        return _KEYS[path]
    try:
        if not path.exists():
            _new_key(path)
        key = _read_key(path)
    except OSError as error:
        raise CheckpointError(f"{path}: the checkpoint key cannot be read or made: "
                              f"{error.strerror or error}") from None
    if not key:
        raise CheckpointError(f"{path}: not a checkpoint key (64 hex digits); delete it to "
                              "make a new one (the checkpoints it signed are then refused)")
    _KEYS[path] = key
    return key


def key_id() -> str:
    """Which key signs (a digest of the key, which says nothing of the key itself)."""
    return _digest("key")[:16]


def _digest(*parts: Any) -> str:
    import hashlib  # here: 2.6-4.0 ms of every search's start-up, for a checkpoint alone
    import hmac  # (as hashlib)

    blob = json.dumps(parts, separators=(",", ":"), sort_keys=True)
    return hmac.new(signing_key(), blob.encode(), hashlib.sha256).hexdigest()


def plan_sum(fingerprint: str, board: int, subproblems: Any) -> str:
    """The checksum of ``board``'s subproblems in a run of ``fingerprint``."""
    return _digest("plan", fingerprint, board, subproblems)


def result_sum(fingerprint: str, board: int, index: int, subproblem: Any, entry: Any) -> str:
    """The checksum of the result recorded for subproblem ``index`` of ``board``."""
    return _digest("result", fingerprint, board, index, subproblem, entry)


def _is_sum(value: Any) -> bool:
    return isinstance(value, str) and len(value) == 64 and all(
        c in "0123456789abcdef" for c in value)


def check_sums(data: dict[str, Any]) -> str | None:
    """What does not match its checksum in a checkpoint that :func:`check_boards` passed,
    as a phrase naming it; None when everything does."""
    sums = data.get("checksums")
    boards = data["boards"]
    if not isinstance(sums, list) or len(sums) != len(boards):
        return "'checksums' must be a list of one object a board"
    fingerprint = data["fingerprint"]
    for b, (board, kept) in enumerate(zip(boards, sums, strict=True)):
        where = f"board {b}"
        if not (isinstance(kept, dict) and set(kept) == {"plan", "done"}
                and (kept["plan"] is None or _is_sum(kept["plan"]))
                and isinstance(kept["done"], dict)
                and all(_is_sum(v) for v in kept["done"].values())):
            return _problem(where, "its checksums must be {'plan': a checksum or null, "
                            "'done': {subproblem: checksum}}")
        subs = board["subproblems"]
        if (subs is None) != (kept["plan"] is None):
            return _problem(where, "its subproblems were " + (
                "removed after they were planned" if subs is None else
                "added by hand (they have no checksum)"))
        if subs is not None and kept["plan"] != plan_sum(fingerprint, b, subs):
            return _problem(where, f"its {len(subs)} subproblems do not match their checksum "
                            "(changed after puzzlebox wrote them: one changed, added, "
                            "dropped or reordered)")
        for key, entry in board["done"].items():
            if key not in kept["done"]:
                return _problem(where, f"subproblem {key} is marked done by hand (its result "
                                "has no checksum)")
            assert subs is not None  # check_boards: no result before a plan
            if kept["done"][key] != result_sum(fingerprint, b, int(key), subs[int(key)],
                                               entry):
                return _problem(where, f"the result of subproblem {key} ({entry}) does not "
                                "match its checksum (changed after puzzlebox wrote it)")
    return None


def run_fingerprint(command: str, split: str, boards: list[str]) -> str:
    """What a run's answer depends on: the command, the split setting and every board's
    problem fingerprint (never the engine, the number of jobs or the cluster)."""
    import hashlib  # (as in _digest)

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
                "checksums": [{"plan": None, "done": {}} for _ in range(boards)],
                "key": key_id(),
            }
            checkpoint = cls(path, data)
            checkpoint.save()
            return checkpoint
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, UnicodeDecodeError, json.JSONDecodeError) as error:
            raise CheckpointError(f"{path}: not a readable checkpoint ({error})") from None
        except RecursionError:
            raise CheckpointError(
                f"{path}: not a readable checkpoint (nested too deeply)"
            ) from None
        if not isinstance(data, dict) or data.get("format") != FORMAT:
            raise CheckpointError(f"{path}: not a puzzlebox checkpoint")
        if data.get("version") != VERSION:
            version = data.get("version")
            shown = repr(version) if isinstance(version, int) else repr(str(version)[:20])
            raise CheckpointError(
                f"{path}: checkpoint version {shown} is not {VERSION} (made by another "
                "puzzlebox: delete it to count again)"
            )
        if data.get("fingerprint") != fingerprint:
            made = f"'{data.get('command')} {data.get('puzzle')}' with split {data.get('split')}"
            raise CheckpointError(
                f"{path}: this checkpoint was made for another puzzle or other options "
                f"({made}); use another file or delete it"
            )
        fields = {"format", "version", "puzzle", "command", "split", "fingerprint", "boards",
                  "checksums", "key"}
        if set(data) != fields:
            extra = sorted(set(data) ^ fields)
            what = f"its fields must be exactly {', '.join(sorted(fields))} " \
                f"({', '.join(repr(k[:20]) for k in extra[:3])} differs)"
            raise CheckpointError(f"{path}: not a usable checkpoint: {what}")
        if data["key"] != key_id():
            raise CheckpointError(
                f"{path}: not a usable checkpoint: it was signed with another key than "
                f"{key_path()} (another user's or machine's; copy that key here to resume)")
        wrong = check_boards(data.get("boards"), boards, command) or check_sums(data)
        if wrong is not None:
            raise CheckpointError(f"{path}: not a usable checkpoint: {wrong}")
        return cls(path, data)

    def plan(self, board: int, options: int | None = None) -> list[Subproblem] | None:
        """The subproblems of ``board`` when they were already chosen; with ``options``
        (the number of options of the problem searched) each option number is checked to
        be one of them."""
        subs = self.data["boards"][board]["subproblems"]
        if subs is None:
            return None
        if options is not None:
            for i, sub in enumerate(subs):
                if any(k >= options for part in sub for k in part):
                    raise CheckpointError(
                        f"{self.path}: not a usable checkpoint: board {board} subproblem {i} "
                        f"names an option beyond the problem's {options}"
                    )
        return [(tuple(forced), tuple(excluded)) for forced, excluded in subs]

    def set_plan(self, board: int, subproblems: list[Subproblem]) -> None:
        subs = [[list(f), list(e)] for f, e in subproblems]
        self.data["boards"][board]["subproblems"] = subs
        self.data["checksums"][board] = {
            "plan": plan_sum(self.data["fingerprint"], board, subs), "done": {}}
        self.save()

    def done(self, board: int) -> dict[int, list[Any]]:
        """Finished subproblems of ``board``: index -> the result recorded for it."""
        return {int(k): v for k, v in self.data["boards"][board]["done"].items()}

    def record(self, board: int, index: int, result: list[Any]) -> None:
        result = json.loads(json.dumps(result))  # as it will read back (tuples are lists)
        subs = self.data["boards"][board]["subproblems"]
        self.data["boards"][board]["done"][str(index)] = result
        self.data["checksums"][board]["done"][str(index)] = result_sum(
            self.data["fingerprint"], board, index, subs[index], result)
        self.save()

    def save(self) -> None:
        """Replace the file atomically: a crash leaves either the old or the new state
        (outfile.py, as every file puzzlebox writes, synced to disk)."""
        try:
            with replacing(self.path, binary=False, durable=True) as handle:
                json.dump(self.data, handle, separators=(",", ":"))
        except OSError as error:
            raise CheckpointError(f"{self.path}: cannot write: {error.strerror}") from None
