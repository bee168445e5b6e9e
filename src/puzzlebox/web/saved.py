"""Searches of the page that survive (#36 item 4): a count saved as it goes, resumed later.

A count started with *save progress* runs as the command line's ``count --checkpoint FILE``
does (parallel/: a split run whose every finished subproblem is recorded, signed with the
user's checkpoint key, in a file replaced atomically), so that Stop, the page's time limit,
a closed tab or a stopped server lose at most the subproblem being searched, and the same
count started again (the same puzzle text, board and engine) resumes where it stood and
ends with the same total as one count from the start.

The files are the server's own: a folder given by ``puzzlebox serve --state DIR`` or, by
default, ``$XDG_STATE_HOME/puzzlebox/web`` (``~/.local/state/puzzlebox/web``), made 0700.
A request never names a path: a saved search is named by its key, a digest of what it
counts, and its two files are ``KEY.checkpoint.json`` (the checkpoint) and ``KEY.json``
(the puzzle's text, name, board and engine, so that a reopened tab can list it, open it and
resume it). Where a saved count stands is read from its checkpoint with the checkpoint's own
checks (its checksums and its key): a damaged or foreign file is listed with its one line,
never trusted.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import re
import time
from pathlib import Path
from typing import Any

from puzzlebox.designs.checkpoint import KIND, DesignCheckpointError
from puzzlebox.designs.checkpoint import VERSION as DESIGN_VERSION
from puzzlebox.designs.evaluate import DesignResult
from puzzlebox.disassembly.split import DisassemblyCheckpoint
from puzzlebox.errors import PuzzleboxError
from puzzlebox.outfile import replacing
from puzzlebox.parallel.checkpoint import FORMAT, VERSION, check_boards, check_sums, key_id
from puzzlebox.parallel.journal import Journal

KEY = re.compile(r"[0-9a-f]{24}")
MOST_SAVED = 100  # saved searches listed (the newest first)


class SavedError(PuzzleboxError):
    """A saved search that cannot be kept, read or found (one line)."""


def default_dir() -> Path:
    """``$XDG_STATE_HOME/puzzlebox/web``, or ``~/.local/state/puzzlebox/web`` where that is
    unset, empty or not absolute (the XDG rule)."""
    base = os.environ.get("XDG_STATE_HOME", "")
    if not os.path.isabs(base):
        try:
            base = str(Path.home() / ".local" / "state")
        except RuntimeError:
            raise SavedError("saved searches are kept in $XDG_STATE_HOME/puzzlebox/web, and "
                             "neither it nor a home folder is set: give serve --state DIR") \
                from None
    return Path(base) / "puzzlebox" / "web"


def standing(path: Path, board: int) -> dict[str, Any]:
    """Where the count recorded in the checkpoint at ``path`` stands on ``board``:
    ``{"done", "total", "solutions", "distinct"}`` (``total`` None before its plan is
    made), or ``{"error": line}`` for a file the checkpoint's checks refuse."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return {"done": 0, "total": None, "solutions": 0, "distinct": 0}
    except (OSError, UnicodeDecodeError, json.JSONDecodeError, RecursionError):
        return {"error": "its checkpoint cannot be read"}
    if not isinstance(data, dict) or data.get("format") != FORMAT \
            or data.get("version") != VERSION:
        return {"error": "its checkpoint is not one of this puzzlebox"}
    if data.get("key") != key_id():
        return {"error": "its checkpoint was signed with another key"}
    boards = data.get("boards")
    wrong = None
    if isinstance(boards, list) and 0 <= board < len(boards):
        wrong = check_boards(boards, len(boards), str(data.get("command"))) or check_sums(data)
    else:
        wrong = "it has no such board"
    if wrong is not None:
        return {"error": f"its checkpoint is not usable: {wrong}"}
    assert isinstance(boards, list)  # checked above
    entry = boards[board]
    done = list(entry["done"].values())
    subs = entry["subproblems"]
    return {"done": len(done), "total": None if subs is None else len(subs),
            "solutions": sum(e[0] for e in done), "distinct": sum(e[1] for e in done)}


def design_standing(path: Path) -> dict[str, Any]:
    """Where a saved design search stands: ``{"tried", "kept"}`` from its checkpoint (the
    design search's journal, every line's signature checked), or ``{"error": line}``."""
    if not path.exists():
        return {"tried": 0, "kept": 0}
    try:
        head = json.loads(path.read_text(encoding="utf-8").split("\n", 1)[0])
        run = head["run"] if isinstance(head, dict) else None
        if not isinstance(run, str):
            return {"error": "its checkpoint is not a design search's"}
        journal = Journal(path, KIND, DESIGN_VERSION, run, DesignResult.from_json,
                          DesignCheckpointError, "design search", "design space")
    except (OSError, UnicodeDecodeError, ValueError, RecursionError):
        return {"error": "its checkpoint cannot be read"}
    except PuzzleboxError as error:
        return {"error": f"its checkpoint is not usable: {str(error).split(': ', 1)[-1]}"}
    results = {result.design.index: result for result in journal.entries}
    return {"tried": len(results), "kept": sum(r.kept for r in results.values())}


def apart_standing(path: Path) -> dict[str, Any]:
    """Where a saved take-apart stands: ``{"taken", "apart"}`` (assemblies taken apart so
    far, and how many of them come apart) from its checkpoint (disassembly/split.py's
    journal, every line's signature checked), or ``{"error": line}``."""
    if not path.exists():
        return {"taken": 0, "apart": 0}
    try:
        head = json.loads(path.read_text(encoding="utf-8").split("\n", 1)[0])
        run = head.get("run") if isinstance(head, dict) else None
        if not isinstance(run, str):
            return {"error": "its checkpoint is not a take-apart's"}
        book = DisassemblyCheckpoint(path, run)
    except (OSError, UnicodeDecodeError, ValueError, RecursionError):
        return {"error": "its checkpoint cannot be read"}
    except PuzzleboxError as error:
        return {"error": f"its checkpoint is not usable: {str(error).split(': ', 1)[-1]}"}
    return {"taken": len(book.results),
            "apart": sum(1 for s in book.results.values() if s is not None)}


class Saved:
    """The server's folder of saved searches."""

    def __init__(self, folder: Path | str | None = None) -> None:
        self.folder = Path(folder) if folder is not None else default_dir()

    def _ready(self) -> None:
        try:
            self.folder.mkdir(mode=0o700, parents=True, exist_ok=True)
        except OSError as error:
            raise SavedError(f"{self.folder}: cannot keep saved searches there: "
                             f"{error.strerror or error}") from None

    @staticmethod
    def key_of(kind: str, text: str, board: int, engine: str) -> str:
        """The name of the saved search of ``kind`` over this text, board and engine: the
        same count asked again finds its checkpoint."""
        blob = json.dumps([kind, text, board, engine])
        return hashlib.sha256(blob.encode("utf-8")).hexdigest()[:24]

    def checkpoint(self, key: str) -> Path:
        return self.folder / f"{self._checked(key)}.checkpoint.json"

    def _about(self, key: str) -> Path:
        return self.folder / f"{self._checked(key)}.json"

    @staticmethod
    def _checked(key: Any) -> str:
        if not isinstance(key, str) or not KEY.fullmatch(key):
            raise SavedError("a saved search is named by its key (24 hex digits)")
        return key

    def keep(self, kind: str, text: str, name: str, board: int, engine: str) -> str:
        """Note a search about to be saved (its puzzle, to list and reopen it); its key."""
        self._ready()
        key = self.key_of(kind, text, board, engine)
        about = {"key": key, "kind": kind, "name": name, "board": board, "engine": engine,
                 "toml": text, "started": round(time.time())}
        try:
            with replacing(self._about(key), binary=False, durable=True) as handle:
                json.dump(about, handle)
        except OSError as error:
            raise SavedError(f"{self.folder}: cannot write: {error.strerror or error}") \
                from None
        return key

    def listing(self) -> list[dict[str, Any]]:
        """Every saved search, the newest first, each with where it stands."""
        found = []
        with contextlib.suppress(OSError):
            for path in self.folder.glob("*.json"):
                if path.name.endswith(".checkpoint.json") or not KEY.fullmatch(path.stem):
                    continue
                try:
                    about = json.loads(path.read_text(encoding="utf-8"))
                except (OSError, UnicodeDecodeError, json.JSONDecodeError, RecursionError):
                    continue
                if not (isinstance(about, dict) and about.get("key") == path.stem
                        and isinstance(about.get("board"), int)
                        and isinstance(about.get("toml"), str)):
                    continue
                where = self.checkpoint(path.stem)
                kind = about.get("kind")
                about["standing"] = design_standing(where) if kind == "design" \
                    else apart_standing(where) if kind == "take-apart" \
                    else standing(where, about["board"])
                found.append(about)
        found.sort(key=lambda a: a.get("started", 0) if isinstance(a.get("started"), int)
                   else 0, reverse=True)
        return found[:MOST_SAVED]

    def one(self, key: str) -> dict[str, Any]:
        for about in self.listing():
            if about["key"] == key:
                return about
        raise SavedError("no such saved search (deleted, or kept by another server)")

    def forget(self, key: Any) -> bool:
        """Delete a saved search's files; whether there were any."""
        gone = False
        for path in (self.checkpoint(key), self._about(key)):
            with contextlib.suppress(FileNotFoundError):
                path.unlink()
                gone = True
        return gone
