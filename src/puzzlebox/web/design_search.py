"""The page's design search (issue #34 item 6): a design file opened in the page, every
design tried by the library's :class:`puzzlebox.designs.DesignRun` in a process of the tab's
(web/runs.py: the same process, limits, progress stream and Stop as the page's counts),
and the ranked table of the kept designs as it grows; a row opens that design in the editor.

* :func:`search` runs in the tab's search process: it reads the space (the reader's one line
  for a mistake), refuses a space too large to try in the command line's own line, and sends
  the server each kept design (its JSON and its description) and the run's progress;
* :class:`DesignSearch` is what the server keeps of one run: the kept designs, ranked and
  tabulated on request by the library's ranking and table (designs/table.py: the command
  line's columns);
* :func:`design_text_work` writes a kept design as its puzzle file
  (``DesignSpace.design_text``), in a process of the page's check pool (web/fairness.py):
  reading a space is reading a file, which the server never does in its own threads.

The search is the command line's ``puzzlebox design FILE`` with its defaults (one process,
the run layer's refusals, no time limit of the run's own: ``Limits()``), so the page keeps
what the command line and the library keep; the page's time for one search
(web/runs.py's ``search_seconds``) is held by the progress hook, as a count's is.
"""

from __future__ import annotations

import threading
import time
import tomllib
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from puzzlebox import catalog
from puzzlebox.cli.common import error_line
from puzzlebox.designs import DesignProgress, DesignResult, DesignRun, DesignSpace, describe
from puzzlebox.designs.evaluate import rank_key
from puzzlebox.designs.space import Design
from puzzlebox.designs.table import ranking, summary_line, table
from puzzlebox.errors import PuzzleboxError
from puzzlebox.run.limits import Limits, OutOfTime
from puzzlebox.web.fairness import CheckLimits
from puzzlebox.words import duration_text

Send = Callable[..., None]


class DesignSearchError(PuzzleboxError):
    """A design search's one line, as the command line prints it (its program name left
    out, as every line of the page)."""


def page_line(error: PuzzleboxError) -> str:
    """The command line's line for ``error`` (with its hint: a space too large names
    ``--no-limit`` and ``--max-time``), without the leading ``puzzlebox:``."""
    return error_line(error).removeprefix("puzzlebox: ")


def source_of(name: str) -> str:
    """The file name a space's errors name (the page's file, as its checks name it)."""
    return f"{name}.toml"


# -- the tab's process ------------------------------------------------------------------------


def search(send: Send, text: str, name: str, seconds: float,
           checkpoint: str | None = None) -> None:
    """Try every design of the space in ``text`` here (the tab's search process), sending
    ``("space", info)`` once it is read, ``("kept", result, what)`` for each kept design as
    it is found, and ``("update", fields)`` for the progress; the summary ends it. A
    mistake in the file, a space too large, or the page's time passed: one line
    (:class:`DesignSearchError`). ``checkpoint``: the command line's ``design --checkpoint
    FILE`` (a search saved as it goes, web/saved.py): the designs it holds come back first
    and are not tried again."""
    deadline = time.perf_counter() + seconds
    try:
        space = DesignSpace(text, source_of(name), name)
        tried = [0]

        def progress(event: DesignProgress) -> None:
            tried[0] = event.tried
            send("update", _shown(event))
            if time.perf_counter() > deadline and not event.done:
                raise OutOfTime(f"{space.name}: the design search stopped at the page's time "
                                f"limit ({seconds:g} s) after {event.tried:,} designs")

        run = DesignRun(space, Limits(), on_progress=progress, checkpoint=checkpoint)
        run.check()  # a space too large: refused before anything is sent
        send("space", {"name": space.name, "title": space.base.title,
                       "designs": space.size(), "rank": list(space.wanted.rank),
                       "order": ranking(space.wanted.rank)})
        for result in run.results():
            if result.kept:
                send("kept", result.to_json(), describe(space, result.design))
    except PuzzleboxError as error:
        raise DesignSearchError(page_line(error)) from None
    summary = run.summary
    assert summary is not None
    send("update", {"state": "done", "share": 1.0, "left": "",
                    "message": summary_line(space.name, summary),
                    "result": summary.to_json(),
                    "design": {"tried": summary.tried, "total": summary.tried,
                               "kept": summary.kept, "undecided": summary.undecided,
                               "rate": round(summary.tried / summary.seconds, 2)
                               if summary.seconds > 0 else 0.0}})


def _shown(event: DesignProgress) -> dict[str, Any]:
    """One progress event of a design search, as the page shows it (the command line's
    progress line: tried of total, kept, a second, and a time left where measured)."""
    return {"seconds": round(event.elapsed, 2),
            "share": None if event.share is None else round(event.share, 4),
            "left": "" if event.eta is None or event.done
            else f"{duration_text(event.eta)} left",
            "design": {"tried": event.tried, "total": event.total, "kept": event.kept,
                       "undecided": event.undecided, "rate": round(event.rate, 2)}}


# -- what the server keeps --------------------------------------------------------------------


@dataclass
class DesignSearch:
    """One design search of a tab, as the server keeps it: the file it searches (to write a
    kept design back), what its process said of the space, and the kept designs."""

    text: str
    name: str
    run: int  # the page's number for this run (its answers carry it)
    info: dict[str, Any] = field(default_factory=dict)
    kept: list[DesignResult] = field(default_factory=list)
    what: dict[int, str] = field(default_factory=dict)  # design number -> in words
    lock: threading.Lock = field(default_factory=threading.Lock)

    def add(self, data: dict[str, Any], what: str) -> None:
        result = DesignResult.from_json(data)
        with self.lock:
            self.kept.append(result)
            self.what[result.design.index] = what

    def ranked(self) -> list[DesignResult]:
        """The kept designs so far, best first by the space's ranking (the library's)."""
        rank = tuple(self.info.get("rank", ()))
        with self.lock:
            kept = list(self.kept)
        return sorted(kept, key=lambda r: rank_key(rank, r))

    def table(self) -> dict[str, Any]:
        """The ranked table as the page shows it: the command line's header and cells."""
        ranked = self.ranked()
        header, rows = table(ranked, lambda r: self.what.get(r.design.index, ""))
        return {"run": self.run, "name": self.info.get("name", self.name),
                "order": self.info.get("order", ""), "header": header, "rows": rows}

    def find(self, index: int) -> DesignResult | None:
        with self.lock:
            return next((r for r in self.kept if r.design.index == index), None)


# -- a kept design as a puzzle file -----------------------------------------------------------

# writing one design back reads its space again: a check's time and memory
DESIGN_TEXT = CheckLimits(name="design's file", command="puzzlebox design FILE --out DIR")


def design_text_work(body: dict[str, Any], limits: CheckLimits) -> dict[str, Any]:
    """A kept design as the puzzle file it is (``--out`` writes the same text), in a check
    process: ``body`` holds the space's text and name and the design's JSON (the server's
    own, from the search that kept it)."""
    name = body["name"]
    space = DesignSpace(body["toml"], source_of(name), name)
    design = Design.from_json(body["design"])
    return {"name": space.design_name(design), "toml": space.design_text(design),
            "design": design.index}


def catalog_designs() -> list[dict[str, str]]:
    """The catalog's design spaces (``puzzlebox design --list``), with their titles."""
    entries = []
    for name in catalog.design_names():
        text = catalog.design_path_of(name).read_text("utf-8")
        title = tomllib.loads(text).get("title", "")
        entries.append({"name": name, "title": title if isinstance(title, str) else ""})
    return entries
