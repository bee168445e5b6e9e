"""The web application: a Starlette app over puzzlebox's library (extra ``web``).

Routes (all JSON unless said; every POST body is JSON of at most :data:`MAX_BODY` bytes):

* ``GET /``, ``/static/...``: the page (HTML, CSS and JS shipped in the package, no build
  step, nothing fetched from elsewhere);
* ``GET /api/catalog``, ``GET /api/catalog/{name}``: the catalog, and one puzzle's TOML
  (only catalog names: no path from the page ever reaches the file system);
* ``GET /api/lattices``, ``GET /api/cells/{lattice}?rows=&cols=``: the lattices the editor
  draws, and the outlines of a window of cells (geometry/: the page draws no lattice itself);
* ``POST /api/check``: TOML text, or the editor's model turned into TOML (web/model.py),
  read by the TOML reader: the puzzle's picture, the area sums and the impossibility proofs,
  or the reader's one-line error;
* ``POST /api/solve``, ``/api/count``, ``/api/stop``: one search per tab (web/runs.py);
  ``POST /api/close``: the page went away, its tab's processes end;
  ``GET /api/events/{tab}``: its progress as server-sent events (a client that goes away
  stops the search it was following);
* ``GET /api/solution/{tab}/{index}.{svg|png|json}``: a solution found, drawn by render/;
* ``POST /api/watch``: the next frames of the reference engine's search, for the step mode;
* ``GET /api/engines``: the engines a search may be given (the registry's, ``auto`` first);
* the design search (web/design_search.py, issue #34): ``GET /api/designs``,
  ``GET /api/designs/file/{name}``: the catalog's design spaces and one's TOML;
  ``POST /api/designs/run``, ``/api/designs/stop``: a tab's design search, apart from its
  puzzle's search (one of each), in a process as the other searches;
  ``GET /api/designs/events/{tab}``: its progress as server-sent events;
  ``GET /api/designs/table/{tab}``: the ranked table of the designs kept so far;
  ``POST /api/designs/open``: a kept design as its puzzle file, for the editor;
* ``GET /favicon.ico``: the page's icon.

Every answer belongs to one version of the puzzle (#25): the page numbers each change of
its puzzle, and each request carries that number (``version``); the server remembers the
newest number each tab has sent and refuses an older one (HTTP 409, "stale"), and echoes
the number in every answer, so the page can drop an answer to a puzzle no longer on screen.
The progress stream and a solution's picture are asked for with ``?version=``: a tab now
on a newer puzzle answers them 409 too.
"""

from __future__ import annotations

import asyncio
import itertools
import json
import re
import threading
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from importlib import resources
from pathlib import Path
from typing import Any

from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response, StreamingResponse
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from puzzlebox import catalog
from puzzlebox.engine.registry import AUTO, specs
from puzzlebox.engine.search import Capability
from puzzlebox.errors import PuzzleboxError
from puzzlebox.formats import PuzzleFile
from puzzlebox.formats.reader import read_text
from puzzlebox.limits import MAX_FILE_BYTES
from puzzlebox.puzzles import Puzzle
from puzzlebox.render.drawing import picture, pictures
from puzzlebox.render.json_out import solution_json
from puzzlebox.safety import file_component
from puzzlebox.web.design import design_route
from puzzlebox.web.design_search import DESIGN_TEXT, catalog_designs, design_text_work
from puzzlebox.web.fairness import CheckLimits, CheckPool, Refused
from puzzlebox.web.model import (
    ModelError,
    cell_polygons,
    drawn_lattices,
    model_of,
    text_reason,
    to_toml,
)
from puzzlebox.web.runs import Busy, OverBudget, Runs, UnknownTab, watch_frame
from puzzlebox.web.saved import Saved
from puzzlebox.web.solids import draws_solids, meshes

MAX_BODY = 2 * MAX_FILE_BYTES + 65_536  # a puzzle file, or the editor's model of one
TAB_ID = re.compile(r"[A-Za-z0-9_-]{8,64}")
EDITOR_SIZE = 60  # rows or columns of the editor's window of cells
EVENT_SECONDS = 0.2  # how often a progress stream looks for news
DRAW = threading.Lock()  # matplotlib draws one picture at a time
BODY_SECONDS = 10.0  # a request's body must arrive within this (#28: slow senders)
DESIGN_TAB = "-design"  # a tab's design search is kept under its id and this


class BadRequest(PuzzleboxError):
    """A request the page should never send (wrong shape, too large, unknown tab), answered
    with ``status``: 400, or 413 for a body too large and 408 for one too slow (every route,
    the designer's too: #38 item 9)."""

    def __init__(self, message: str, status: int = 400) -> None:
        super().__init__(message)
        self.status = status


class Stale(PuzzleboxError):
    """A request made for an older version of the tab's puzzle than one already asked for
    (the page has moved on: its answer would be dropped, or worse, shown for the wrong
    puzzle)."""


def _static_dir() -> str:
    return str(resources.files("puzzlebox.web").joinpath("static"))


def error(message: str, status: int = 400) -> JSONResponse:
    return JSONResponse({"error": message}, status_code=status)


async def body_json(request: Request) -> dict[str, Any]:
    """The request's JSON object, read up to :data:`MAX_BODY` bytes (more is refused
    before it is all read)."""
    declared = request.headers.get("content-length")
    # isascii: "²".isdigit() is true, but int() refuses it
    if declared and declared.isascii() and declared.isdigit() and int(declared) > MAX_BODY:
        raise BadRequest(f"the request is larger than {MAX_BODY} bytes", 413)
    chunks = []

    async def read() -> None:
        size = 0
        async for chunk in request.stream():
            size += len(chunk)
            if size > MAX_BODY:
                raise BadRequest(f"the request is larger than {MAX_BODY} bytes", 413)
            chunks.append(chunk)

    try:
        await asyncio.wait_for(read(), BODY_SECONDS)
    except TimeoutError:
        raise BadRequest(f"the request's body did not arrive within {BODY_SECONDS:g} s",
                         408) from None
    try:
        value = json.loads(b"".join(chunks) or b"{}")
    except ValueError:
        raise BadRequest("the request is not JSON") from None
    except RecursionError:  # json's decoder recurses: 100,000 nested "[" fit in MAX_BODY
        raise BadRequest("the request is nested too deeply") from None
    if not isinstance(value, dict):
        raise BadRequest("the request must be a JSON object")
    return value


def _tab_id(value: Any) -> str:
    if not isinstance(value, str) or not TAB_ID.fullmatch(value):
        raise BadRequest("a tab id is 8 to 64 letters, digits, '-' or '_'")
    return value


def _text(body: dict[str, Any]) -> tuple[str, str]:
    """The TOML text of a request (given, or written from the editor's model) and its name."""
    name = body.get("name") or "puzzle"
    if not isinstance(name, str):
        raise BadRequest("name must be text")
    name = file_component(name)[:60] or "puzzle"
    if body.get("model") is not None:
        return to_toml(body["model"]), name
    text = body.get("toml")
    if not isinstance(text, str):
        raise BadRequest("give the puzzle as TOML text or as the editor's model")
    return text, name


def _read(body: dict[str, Any]) -> tuple[PuzzleFile, str, Puzzle]:
    """Read the request's puzzle with the reader (the only parser of uploaded text)."""
    text, name = _text(body)
    pf = read_text(text, f"{name}.toml", name)
    board = body.get("board", 0)
    if isinstance(board, bool) or not isinstance(board, int) or not 0 <= board < len(pf.puzzles):
        raise BadRequest(f"board must be 0 to {len(pf.puzzles) - 1}")
    return pf, text, pf.puzzles[board]


def _version(body: dict[str, Any]) -> int | None:
    """The version of the page's puzzle a request was made for (None: not said)."""
    version = body.get("version")
    if version is None:
        return None
    if isinstance(version, bool) or not isinstance(version, int) or version < 0:
        raise BadRequest("version must be a number from 0")
    return version


def _engine(body: dict[str, Any]) -> str:
    engine = body.get("engine", AUTO)
    if not isinstance(engine, str) or engine not in engine_names():
        raise BadRequest(f"engine must be one of {', '.join(engine_names())}")
    return engine


def engine_names() -> list[str]:
    return [AUTO] + [spec.name for spec in specs()]


def _engines() -> list[dict[str, Any]]:
    """The registry's engines as the page offers them: what each is for and can do."""
    out: list[dict[str, Any]] = [{"name": AUTO, "summary": "chosen for the puzzle and the "
                                  "question (the command line's default)",
                                  "solve": True, "count": True}]
    for spec in specs():
        out.append({"name": spec.name, "summary": spec.summary,
                    "solve": spec.does(Capability.SOLVE), "count": spec.does(Capability.COUNT)})
    return out


def _svg_of(puzzle: Puzzle) -> str:
    with DRAW:
        return str(pictures().puzzle_svg(puzzle))


def _area(model: dict[str, Any] | None) -> str:
    """The area check of an editor model: the board's cells (those that must be covered,
    and the optional ones that may be) against what the pieces cover."""
    if model is None:
        return ""
    board = len(model["board"])
    lo = hi = 0
    unbounded = False
    for piece in model["pieces"]:
        size = len(piece["cells"])
        count = piece["count"]
        if count == "any":
            unbounded = True
        elif isinstance(count, list):
            lo += size * count[0]
            hi += size * count[1]
        else:
            lo += size * count
            hi += size * count
    covers = (f"{lo} or more" if unbounded and lo else "any number of") if unbounded else (
        f"{lo}" if lo == hi else f"{lo} to {hi}")
    # optional cells may stay empty: the pieces cover all the others and at most all
    optional = len(model.get("optional") or ())
    fits = (lo <= board and (unbounded or board - optional <= hi))
    verdict = "the areas can add up" if fits else "the areas cannot add up"
    cells = f"{board} cells, {optional} of them optional" if optional else f"{board} cells"
    return f"board: {cells}; pieces: {covers} cells ({verdict})"


def _drawn_count(puzzle: Puzzle) -> int:
    """The pieces (or cards) a picture of the puzzle draws, one panel each."""
    for attribute in ("pieces", "cards"):
        found = getattr(puzzle, attribute, None)
        if found is not None:
            return len(found)
    return 0


def _check(body: dict[str, Any], limits: CheckLimits | None = None) -> dict[str, Any]:
    """The answer to /api/check; runs in a process of its own (web/fairness.py), its work
    bounded before it is done: placements are built for the proofs only up to
    ``limits.entries`` entries, the picture drawn only up to ``limits.drawn_pieces``
    pieces; what was left out is said in ``notes``."""
    limits = limits or CheckLimits()
    pf, text, puzzle = _read(body)
    model = model_of(pf)
    notes = []
    model_note = text_reason(pf)  # why the grid editor does not draw it ("" when it does)
    if model is not None:
        # a cell is [r, c, ch] on the flat lattices and [layer, r, c, ch] on cube
        extent = max((max(cell[:-1]) for cell in model["board"]), default=0) + 1
        if extent > EDITOR_SIZE:
            model = None
            model_note = (f"the board spans {extent} rows or columns; the grid editor draws "
                          f"{EDITOR_SIZE} x {EDITOR_SIZE} at most: it is edited as text")
    bound = puzzle.cover_entries_bound()
    if bound is None or bound <= limits.entries:
        found = list(puzzle.proofs())
    else:
        found = list(puzzle.quick_proofs())
        notes.append(f"proofs that place pieces were not tried: the puzzle has up to {bound:,} "
                     f"placement entries, the page's check builds {limits.entries:,} at most "
                     "(solve and count still try them)")
    proofs = [{"argument": p.argument, "sentence": p.sentence} for p in found]
    drawn = _drawn_count(puzzle)
    if drawn <= limits.drawn_pieces:
        svg = _svg_of(puzzle)
    else:
        svg = ""
        notes.append(f"the puzzle is not drawn: it has {drawn} pieces, the page draws "
                     f"{limits.drawn_pieces} at most (puzzlebox show FILE --format svg "
                     "draws it)")
    return {
        "toml": text,
        "name": pf.name,
        "title": pf.title,
        "kind": puzzle.kind,
        "boards": [p.board_name or pf.name for p in pf.puzzles],
        "model": model,
        "area": _area(model),
        "proofs": proofs,
        "svg": svg,
        "notes": notes,
        "model_note": model_note,
        "version": _version(body),
    }


class App:
    """The routes, around one :class:`Runs` (every tab's puzzle and search)."""

    def __init__(self, runs: Runs | None = None, checks: CheckLimits | None = None,
                 saved: Saved | None = None) -> None:
        self.runs = runs or Runs()
        self.saved = saved or Saved()  # the server's folder of saved searches (web/saved.py)
        self.checks = CheckPool(checks)
        self.closing = False
        self._sources: dict[str, str] = {}  # tab -> the text and board its puzzle came from
        self._versions: dict[str, int] = {}  # tab -> the newest version of its puzzle asked
        self._opened: dict[str, int | None] = {}  # tab -> the version its search is of
        self._solving: dict[str, str] = {}  # tab -> the engine and distinct of its solutions
        self._design_runs = itertools.count(1)  # the number of each design search started
        self._lock = threading.Lock()

    def _current(self, tab_id: str, version: int | None) -> None:
        """Refuse a request for an older version than the newest this tab asked for
        (:class:`Stale`); remember a newer one."""
        if version is None:
            return
        with self._lock:
            newest = self._versions.get(tab_id, -1)
            if version < newest:
                raise Stale(f"stale: an answer for version {version} of the puzzle, and the "
                            f"page has moved on to version {newest}")
            self._versions[tab_id] = version
            if len(self._versions) > 4 * self.runs.max_tabs:  # forget the oldest tabs
                for key in list(self._versions)[: len(self._versions) // 2]:
                    del self._versions[key]

    def _open(self, body: dict[str, Any], solving: str | None = None) -> str:
        """The tab of the request, opened on the request's puzzle when it changed (or, for a
        search of solutions, when ``solving``, its engine and distinct choice, did: the
        solutions kept were found by the other)."""
        tab_id = _tab_id(body.get("tab"))
        version = _version(body)
        self._current(tab_id, version)
        text, _ = _text(body)
        source = f"{body.get('board', 0)}\n{text}"
        changed = solving is not None and self._solving.get(tab_id, solving) != solving
        if self.runs.get(tab_id) is None or self._sources.get(tab_id) != source or changed:
            _, _, puzzle = _read(body)
            self.runs.open(tab_id, puzzle)
            self._sources[tab_id] = source
            self._solving.pop(tab_id, None)
            if len(self._sources) > 2 * self.runs.max_tabs:  # forget the tabs Runs forgot
                self._sources = {k: v for k, v in self._sources.items() if self.runs.get(k)}
                self._solving = {k: v for k, v in self._solving.items() if k in self._sources}
                self._opened = {k: v for k, v in self._opened.items() if k in self._sources}
        if solving is not None:
            self._solving[tab_id] = solving
        self._opened[tab_id] = version
        return tab_id

    # -- the routes ------------------------------------------------------------------------
    async def index(self, request: Request) -> Response:
        return FileResponse(f"{_static_dir()}/index.html")

    async def catalog_list(self, request: Request) -> Response:
        return JSONResponse(await run_in_threadpool(_catalog_entries))

    async def catalog_one(self, request: Request) -> Response:
        name = request.path_params["name"]
        if name not in catalog.names():
            return error("no such catalog puzzle", 404)
        return JSONResponse({"name": name, "toml": catalog.path_of(name).read_text("utf-8")})

    async def engines(self, request: Request) -> Response:
        return JSONResponse(_engines())

    async def favicon(self, request: Request) -> Response:
        return FileResponse(f"{_static_dir()}/favicon.svg", media_type="image/svg+xml")

    async def lattices(self, request: Request) -> Response:
        return JSONResponse(drawn_lattices())

    async def cells(self, request: Request) -> Response:
        """The outlines of a window of cells of a lattice the editor draws."""
        name = request.path_params["lattice"]
        if name not in drawn_lattices():
            return error("the editor draws the lattices " + ", ".join(drawn_lattices()), 404)
        try:
            rows = int(request.query_params.get("rows", "8"))
            cols = int(request.query_params.get("cols", "8"))
        except ValueError:
            return error("rows and cols are numbers")
        if not (1 <= rows <= EDITOR_SIZE and 1 <= cols <= EDITOR_SIZE):
            return error(f"rows and cols are 1 to {EDITOR_SIZE}")
        return JSONResponse(cell_polygons(name, rows, cols))

    async def check(self, request: Request) -> Response:
        """Checked in a process of its own within the page's limits (web/fairness.py), so
        that one tab's heavy check never holds up another tab's small one."""
        try:
            body = await body_json(request)
        except BadRequest as failure:
            return error(str(failure), failure.status)
        tab = body.get("tab")
        tab = tab if isinstance(tab, str) and TAB_ID.fullmatch(tab) else None
        try:
            if tab is not None:
                self._current(tab, _version(body))
            return JSONResponse(await run_in_threadpool(self.checks.run, _check, body, tab))
        except Refused as failure:
            return error(str(failure), failure.status)
        except Stale as failure:
            return error(str(failure), 409)
        except BadRequest as failure:
            return error(str(failure), failure.status)

    async def solve(self, request: Request) -> Response:
        def run(body: dict[str, Any]) -> dict[str, Any]:
            engine = _engine(body)
            distinct = body.get("distinct", False)
            if not isinstance(distinct, bool):
                raise BadRequest("distinct must be true or false")
            tab_id = self._open(body, f"{engine} {distinct}")
            index = body.get("index", 0)
            if isinstance(index, bool) or not isinstance(index, int) or index < 0:
                raise BadRequest("index must be a number from 0")
            if not body.get("peek"):  # peek: where the search stands, without searching
                self.runs.next_solution(tab_id, index, engine, distinct)
            return self._state(tab_id, index)

        return await self._json(request, run)

    async def count(self, request: Request) -> Response:
        """A count; with ``save: true`` saved as it goes in the server's folder and resumed
        from there when the same count (text, board, engine) was saved before (#36)."""
        def run(body: dict[str, Any]) -> dict[str, Any]:
            engine = _engine(body)
            save = body.get("save", False)
            if not isinstance(save, bool):
                raise BadRequest("save must be true or false")
            tab_id = self._open(body)
            kept = None
            if save:
                text, name = _text(body)
                board = body.get("board", 0)
                if isinstance(board, bool) or not isinstance(board, int) or board < 0:
                    raise BadRequest("board must be a number from 0")
                key = self.saved.keep("count", text, name, board, engine)
                kept = (str(self.saved.checkpoint(key)), text, name, board)
            self.runs.count(tab_id, engine, kept)
            return self._state(tab_id)

        return await self._json(request, run)

    async def saved_list(self, request: Request) -> Response:
        """``GET /api/saved``: every saved search and where it stands (its checkpoint read
        with the checkpoint's own checks), for a tab opened again."""
        listing = await run_in_threadpool(self.saved.listing)
        return JSONResponse({"saved": listing})

    async def saved_forget(self, request: Request) -> Response:
        """``POST /api/saved/forget {"key"}``: a saved search's files deleted."""
        def run(body: dict[str, Any]) -> dict[str, Any]:
            return {"forgotten": self.saved.forget(body.get("key"))}

        return await self._json(request, run)

    async def stop(self, request: Request) -> Response:
        def run(body: dict[str, Any]) -> dict[str, Any]:
            tab_id = _tab_id(body.get("tab"))
            stopped = self.runs.stop(tab_id, wait=True)
            return {"stopped": stopped}

        return await self._json(request, run)

    async def close(self, request: Request) -> Response:
        """The page went away (sent as it hides): its tab's searches, the puzzle's and the
        design search's, stop and their processes end (#36 item 5)."""
        def run(body: dict[str, Any]) -> dict[str, Any]:
            tab_id = _tab_id(body.get("tab"))
            closed = self.runs.close(tab_id)
            closed = self.runs.close(self._design_tab(tab_id)) or closed
            return {"closed": closed}

        return await self._json(request, run)

    async def watch(self, request: Request) -> Response:
        def run(body: dict[str, Any]) -> dict[str, Any]:
            self._current(_tab_id(body.get("tab")), _version(body))
            if body.get("restart"):
                tab = self.runs.get(_tab_id(body.get("tab")))
                if tab is not None:
                    tab.watch = None
                    tab.watch_solutions = 0
            tab_id = self._open(body)
            tab = self.runs.get(tab_id)
            assert tab is not None
            nodes = body.get("nodes", 1)
            if isinstance(nodes, bool) or not isinstance(nodes, int) or nodes < 1:
                raise BadRequest("nodes must be a number from 1")
            frame = watch_frame(tab, nodes)  # drawn in the tab's watch process (web/runs.py)
            frame["version"] = self._opened.get(tab_id)
            return frame

        return await self._json(request, run)

    def _stale_view(self, request: Request, tab_id: str) -> Response | None:
        """409 when ``?version=`` names another version than the tab's search is of."""
        asked = request.query_params.get("version")
        if asked is None:
            return None
        if not (asked.isascii() and asked.isdigit()):
            return error("version must be a number from 0")
        if self._opened.get(tab_id) != int(asked):
            return error(f"stale: the tab's search is not of version {asked} of the puzzle",
                         409)
        return None

    async def events(self, request: Request) -> Response:
        tab_id = request.path_params["tab"]
        if not TAB_ID.fullmatch(tab_id) or self.runs.get(tab_id) is None:
            return error("no such tab: open a puzzle first", 404)
        stale = self._stale_view(request, tab_id)
        if stale is not None:
            return stale
        return StreamingResponse(self._stream(tab_id), media_type="text/event-stream",
                                 headers={"Cache-Control": "no-store"})

    async def _stream(self, tab_id: str) -> AsyncIterator[str]:
        """The tab's progress until its search ends; if the client goes away first (a closed
        tab, a dropped connection), the search it followed is stopped."""
        tab = self.runs.get(tab_id)
        assert tab is not None
        last = -1
        finished = False
        try:
            while not self.closing:
                version, snapshot = tab.snapshot()
                if version != last:
                    last = version
                    yield f"data: {json.dumps(snapshot)}\n\n"
                if snapshot["state"] != "running" and not tab.running:
                    finished = True
                    yield "event: end\ndata: {}\n\n"
                    return
                await asyncio.sleep(EVENT_SECONDS)
        finally:
            if not finished and tab.running:
                tab.halt()

    async def solution(self, request: Request) -> Response:
        tab_id = request.path_params["tab"]
        tab = self.runs.get(tab_id) if TAB_ID.fullmatch(tab_id) else None
        if tab is None:
            return error("no such tab: open a puzzle first", 404)
        stale = self._stale_view(request, tab_id)
        if stale is not None:
            return stale
        index = request.path_params["index"]
        fmt = request.path_params["fmt"]
        if fmt not in ("svg", "png", "json"):
            return error("a solution is downloaded as svg, png or json", 404)
        if index >= len(tab.found) or tab.puzzle is None:
            return error("that solution has not been found (yet)", 404)
        puzzle, found = tab.puzzle, tab.found[index]
        filename = f"{file_component(puzzle.name)}-{index + 1}.{fmt}"
        headers = {"Content-Disposition": f'attachment; filename="{filename}"'} \
            if request.query_params.get("download") else {}
        if fmt == "json":
            lattice = getattr(puzzle, "lattice", None)
            if request.query_params.get("mesh") and lattice is not None \
                    and draws_solids(lattice):
                # the placements of prisms, tetrahedra or balls as the 3-D view draws them
                answer = json.loads(solution_json(puzzle, found))
                answer["solid"] = meshes(lattice, [[tuple(cell) for cell in placement["cells"]]
                                                   for placement in answer["placements"]])
                return JSONResponse(answer)
            return Response(solution_json(puzzle, found) + "\n", media_type="application/json",
                            headers=headers)

        def draw() -> bytes:
            with DRAW:
                return picture(puzzle, found, fmt)

        try:
            data = await run_in_threadpool(draw)
        except PuzzleboxError as failure:
            return error(str(failure), 500)
        media = "image/svg+xml" if fmt == "svg" else "image/png"
        return Response(data, media_type=media, headers=headers)

    # -- the design search (web/design_search.py) ------------------------------------------
    async def designs_list(self, request: Request) -> Response:
        return JSONResponse(await run_in_threadpool(catalog_designs))

    async def designs_file(self, request: Request) -> Response:
        name = request.path_params["name"]
        if name not in catalog.design_names():
            return error("no such catalog design", 404)
        return JSONResponse({"name": name,
                             "toml": catalog.design_path_of(name).read_text("utf-8")})

    def _design_tab(self, tab: Any) -> str:
        """The key of a tab's design search among the searches (apart from its puzzle's)."""
        return f"{_tab_id(tab)}{DESIGN_TAB}"

    async def designs_run(self, request: Request) -> Response:
        def run(body: dict[str, Any]) -> dict[str, Any]:
            key = self._design_tab(body.get("tab"))
            text, name = _text(body)
            old = self.runs.get(key)
            if old is not None and old.running:
                raise Busy("this tab already runs a design search: stop it first")
            save = body.get("save", False)
            if not isinstance(save, bool):
                raise BadRequest("save must be true or false")
            checkpoint = None
            if save:  # saved as it goes in the server's folder (web/saved.py), resumed
                checkpoint = str(self.saved.checkpoint(
                    self.saved.keep("design", text, name, 0, AUTO)))
            self.runs.open(key, None)
            number = next(self._design_runs)
            self.runs.design(key, text, name, number, checkpoint)
            return self._design_state(key)

        return await self._json(request, run)

    async def designs_stop(self, request: Request) -> Response:
        def run(body: dict[str, Any]) -> dict[str, Any]:
            return {"stopped": self.runs.stop(self._design_tab(body.get("tab")), wait=True)}

        return await self._json(request, run)

    def _design_state(self, key: str) -> dict[str, Any]:
        tab = self.runs.get(key)
        if tab is None or tab.designs is None:
            raise UnknownTab("no design search in this tab: open a design file and run it")
        _, snapshot = tab.snapshot()
        snapshot["run"] = tab.designs.run
        return snapshot

    def _searched(self, request: Request) -> tuple[str, Any] | Response:
        """The design search a GET names (its tab, and ``?run=``: 409 for another run)."""
        tab = request.path_params["tab"]
        if not TAB_ID.fullmatch(tab):
            return error("no such tab", 404)
        key = self._design_tab(tab)
        found = self.runs.get(key)
        if found is None or found.designs is None:
            return error("no design search in this tab: open a design file and run it", 404)
        asked = request.query_params.get("run")
        if asked is not None and asked != str(found.designs.run):
            return error(f"stale: the tab's design search is not run {asked}", 409)
        return key, found

    async def designs_events(self, request: Request) -> Response:
        found = self._searched(request)
        if isinstance(found, Response):
            return found
        return StreamingResponse(self._stream(found[0]), media_type="text/event-stream",
                                 headers={"Cache-Control": "no-store"})

    async def designs_table(self, request: Request) -> Response:
        found = self._searched(request)
        if isinstance(found, Response):
            return found
        designs = found[1].designs
        answer = await run_in_threadpool(designs.table)
        answer["state"] = found[1].snapshot()[1]["state"]
        return JSONResponse(answer)

    async def designs_open(self, request: Request) -> Response:
        """A kept design as its puzzle file (``--out`` writes the same), written in a check
        process: the page opens it in the editor as if it were a file."""
        def run(body: dict[str, Any]) -> dict[str, Any]:
            tab = self.runs.get(self._design_tab(body.get("tab")))
            if tab is None or tab.designs is None:
                raise UnknownTab("no design search in this tab: open a design file and run it")
            number = body.get("design")
            if isinstance(number, bool) or not isinstance(number, int):
                raise BadRequest("design must be the number of a kept design")
            kept = tab.designs.find(number)
            if kept is None:
                raise BadRequest(f"design {number} is not among the kept designs")
            work = {"toml": tab.designs.text, "name": tab.designs.name,
                    "design": kept.design.to_json()}
            try:
                return self.checks.run(design_text_work, work, None, DESIGN_TEXT)
            except Refused as failure:
                raise BadRequest(str(failure), failure.status) from None

        return await self._json(request, run)

    # -- helpers ---------------------------------------------------------------------------
    def _state(self, tab_id: str, index: int | None = None) -> dict[str, Any]:
        tab = self.runs.get(tab_id)
        assert tab is not None
        _, snapshot = tab.snapshot()
        snapshot["found"] = len(tab.found)
        snapshot["exhausted"] = tab.exhausted
        snapshot["version"] = self._opened.get(tab_id)
        return snapshot

    async def _json(self, request: Request,
                    handler: Callable[[dict[str, Any]], dict[str, Any]]) -> Response:
        try:
            body = await body_json(request)
        except BadRequest as failure:
            return error(str(failure), failure.status)
        try:
            return JSONResponse(await run_in_threadpool(handler, body))
        except Busy as failure:
            return error(str(failure), 429)
        except OverBudget as failure:  # a watch frame past the page's limits
            return error(str(failure), 422)
        except UnknownTab as failure:
            return error(str(failure), 404)
        except Stale as failure:
            return error(str(failure), 409)
        except BadRequest as failure:
            return error(str(failure), failure.status)
        except (PuzzleboxError, ModelError) as failure:
            # the reader's one line (file, line, what is wrong), or a model or request at fault
            return error(str(failure), 400)




def _catalog_entries() -> list[dict[str, str]]:
    entries = []
    for name in catalog.names():
        try:
            pf = catalog.load_file(name)
        except PuzzleboxError:
            continue
        entries.append({"name": name, "title": pf.title, "kind": pf.puzzles[0].kind})
    return entries


def create_app(runs: Runs | None = None, checks: CheckLimits | None = None,
               state: Path | str | None = None) -> Starlette:
    """The application (``runs``: the tabs' state, a fresh one by default; ``checks``: the
    limits of one check, web/fairness.py's by default; ``state``: the folder of saved
    searches, web/saved.py's default when None)."""
    app = App(runs, checks, Saved(state))

    @asynccontextmanager
    async def lifespan(_: Starlette) -> AsyncIterator[None]:
        await run_in_threadpool(app.checks.warm)  # the first check need not wait for it
        yield
        app.closing = True  # streams end, searches stop: Ctrl-C leaves nothing running
        app.runs.stop_all()
        app.checks.close()  # the spare check process

    routes = [
        Route("/", app.index),
        Route("/api/catalog", app.catalog_list),
        Route("/api/catalog/{name}", app.catalog_one),
        Route("/api/lattices", app.lattices),
        Route("/api/engines", app.engines),
        Route("/favicon.ico", app.favicon),
        Route("/api/cells/{lattice}", app.cells),
        Route("/api/check", app.check, methods=["POST"]),
        Route("/api/solve", app.solve, methods=["POST"]),
        Route("/api/count", app.count, methods=["POST"]),
        Route("/api/saved", app.saved_list),  # saved searches: web/saved.py
        Route("/api/saved/forget", app.saved_forget, methods=["POST"]),
        Route("/api/stop", app.stop, methods=["POST"]),
        Route("/api/close", app.close, methods=["POST"]),
        Route("/api/watch", app.watch, methods=["POST"]),
        Route("/api/events/{tab}", app.events),
        Route("/api/solution/{tab}/{index:int}.{fmt:str}", app.solution),
        Route("/api/design/{action}", design_route, methods=["GET", "POST"]),  # web/design.py
        Route("/api/designs", app.designs_list),  # the design search: web/design_search.py
        Route("/api/designs/file/{name}", app.designs_file),
        Route("/api/designs/run", app.designs_run, methods=["POST"]),
        Route("/api/designs/stop", app.designs_stop, methods=["POST"]),
        Route("/api/designs/open", app.designs_open, methods=["POST"]),
        Route("/api/designs/events/{tab}", app.designs_events),
        Route("/api/designs/table/{tab}", app.designs_table),
        Mount("/static", StaticFiles(directory=_static_dir()), name="static"),
    ]
    starlette = Starlette(routes=routes, lifespan=lifespan)
    starlette.state.app = app
    return starlette
