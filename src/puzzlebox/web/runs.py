"""What the server keeps for each browser tab: its puzzle, its one search, its solutions.

Searches run in processes, not in the server's threads (#28): each tab has a search
process of its own (and one for the watch mode), forked from web/fairness.py's process
server, that holds the tab's cover problem and its search between requests and sends back
progress, solutions and frames over a pipe. The server keeps only the puzzle, the solutions
found and the progress; a thread of the server follows each running search (waiting on its
pipe, so it holds no interpreter lock). Why: in threads, a search shared the server's
interpreter lock with every other request (a count of one tab slowed another tab's check
and the event loop itself), could be stopped only between two of its steps, and its cover
problem stayed in the server's memory (#28: five watches of parallelogram-7-rotate took the
server to 4 GB). A process is stopped outright (Stop kills it; the next "next" starts a
fresh one, passing over the solutions already kept), is held to a budget, and gives its
memory back when it ends.

The limits, each answered with a line the page shows:

* a request's search runs at most :data:`SEARCH_SECONDS` (``Limits(time=...)``: the
  library's and the command line's own words, ``stopped at the time limit``), a watch
  frame at most :data:`WATCH_SECONDS`;
* a tab's processes hold at most ``memory_per_tab`` resident bytes, all tabs' together
  ``memory_in_all``: past either the search is stopped (its process ended) and says so; a
  puzzle whose cover problem is reckoned over a tab's share is refused before any process;
* a tab runs one search at a time, the server :data:`MAX_RUNNING`; :data:`MAX_TABS` tabs
  are remembered, and a tab idle for :data:`IDLE_SECONDS` is forgotten (its processes end);
* a tab's processes end when the page closes (``POST /api/close``, sent as the page goes
  away) and, whatever other tabs do, once the tab has run nothing and asked for nothing
  for :data:`PROCESS_IDLE_SECONDS`: a thread of the server looks every
  :data:`REAP_SECONDS` (#36 item 5; before, 13 processes of closed tabs stayed until another
  tab opened a puzzle 10 minutes later). The tab keeps its solutions: its next "next"
  starts a fresh process past them, its next watch frame starts the watch over.

A tab's design search (web/design_search.py) is a tab of its own here, opened with no puzzle
(its key: the page's tab and ``-design``): the same process, limits, stream and Stop, its
file sent with each run, its kept designs kept in ``Tab.designs``.

Solutions are found lazily: "next" runs the search until one more solution is found and
keeps those found so far, so that "previous" needs no search and nothing is enumerated
ahead of what the page shows. The watch mode drives the reference engine (plain Python,
engine/reference.py) one node at a time in its process and reads its current path between
steps.
"""

from __future__ import annotations

import contextlib
import copy
import multiprocessing.connection
import signal
import threading
import time
from collections import OrderedDict
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from puzzlebox.cover.problem import build_deadline
from puzzlebox.engine.reference import ReferenceSearch
from puzzlebox.engine.registry import AUTO
from puzzlebox.engine.search import Job, Mode
from puzzlebox.errors import PuzzleboxError
from puzzlebox.formats.reader import read_text
from puzzlebox.parallel.tasks import PuzzleSource
from puzzlebox.puzzles import Puzzle, Solution
from puzzlebox.render.drawing import pictures
from puzzlebox.render.progress import solutions_text
from puzzlebox.run import Limits, OutOfTime, Run, Split, split_run
from puzzlebox.run import Progress as Event
from puzzlebox.run.limits import out_of_time_building
from puzzlebox.web.design_search import DesignSearch, search
from puzzlebox.web.fairness import DEMOTE_AFTER, POLL_SECONDS, _context, _demote, _resident
from puzzlebox.words import duration_text, plural

PROGRESS_SECONDS = 0.2  # the least time between two progress updates of a tab
MAX_RUNNING = 4  # searches running at once in the server
MAX_TABS = 64  # tabs remembered; the oldest idle one is forgotten past this
MAX_KEPT = 10_000  # solutions a tab keeps for "previous"
WATCH_MAX_NODES = 1_000  # nodes one watch frame may advance
SEARCH_SECONDS = 600.0  # the time one request's search may run (Limits(time=...))
WATCH_SECONDS = 30.0  # the time one watch frame may take (its first builds the problem)
GRACE_SECONDS = 5.0  # a search still running this long past its time limit is ended
# Memory (#28: five watch requests of parallelogram-7-rotate took the server to 4 GB): a
# tab's puzzle is reckoned at its cover problem's bound times what building and searching
# take an entry (budget.py: about 240 bytes to build), to refuse one over a tab's share
# before any process starts; the processes themselves are held to the same figures by
# their resident size. A tab idle for IDLE_SECONDS is forgotten (its processes end; its
# next request opens its puzzle again).
BYTES_PER_ENTRY = 240
MEMORY_PER_TAB = 1 << 30
MEMORY_IN_ALL = 2 << 30
IDLE_SECONDS = 600.0
PROCESS_IDLE_SECONDS = 45.0  # a process of a tab that ran and asked nothing this long ends
REAP_SECONDS = 5.0  # how often the server looks for such processes


class Busy(PuzzleboxError):
    """Too many searches are running in the server, or this tab already runs one."""


class OverBudget(PuzzleboxError):
    """A watch frame that passed the page's time or memory limit (its process is ended)."""


class UnknownTab(PuzzleboxError):
    """A tab that has no puzzle (the server restarted, or it was forgotten)."""


@dataclass
class Progress:
    """What the page shows while a search runs (sent as server-sent events)."""

    state: str = "idle"  # idle | running | stopped | done | error
    mode: str = ""
    nodes: int = 0
    solutions: int = 0
    solutions_text: str = ""
    seconds: float = 0.0
    left: str = ""
    share: float | None = None  # of the tree, where the engine can tell or estimate
    engine: str = ""
    message: str = ""
    result: dict[str, Any] = field(default_factory=dict)
    design: dict[str, Any] = field(default_factory=dict)  # a design search's counts


class Worker:
    """One process of a tab (its search, or its watch) and the server's end of its pipe.
    Not thread-safe by itself: the tab's thread or request that uses it holds it alone."""

    def __init__(self, puzzle: Puzzle | None) -> None:
        context = _context()
        self.conn, child = context.Pipe(duplex=True)
        self.process = context.Process(target=_serve, args=(child, puzzle), daemon=True,
                                       name="puzzlebox-search")
        self.process.start()
        child.close()
        self.demoted = False  # its priority lowered (web/fairness.py), for good

    @property
    def alive(self) -> bool:
        return bool(self.process.is_alive())

    def resident(self) -> int:
        pid = self.process.pid
        return (_resident(pid) or 0) if pid is not None and self.alive else 0

    def send(self, message: tuple[Any, ...]) -> None:
        self.conn.send(message)

    def receive(self, seconds: float) -> tuple[Any, ...] | None:
        """The next message within ``seconds``, else None; ``("gone",)`` when the process
        ended without one."""
        try:
            if not self.conn.poll(seconds):
                return None if self.alive else ("gone",)
            message: tuple[Any, ...] = self.conn.recv()
            return message
        except (EOFError, OSError):
            return ("gone",)

    def end(self) -> None:
        """Stop the process outright (a Stop, a limit passed, a tab forgotten)."""
        with contextlib.suppress(OSError, ValueError):
            if self.process.is_alive():
                self.process.kill()
            self.process.join(5)
        with contextlib.suppress(OSError):
            self.conn.close()


class Tab:
    """One browser tab's puzzle, its processes, and what they found; or (``puzzle`` None)
    a tab's design search, whose file comes with each run (``designs``)."""

    def __init__(self, puzzle: Puzzle | None, memory: int = 0) -> None:
        self.puzzle = puzzle
        self.memory = memory  # bytes reckoned for its problem and searches (Runs.open)
        self.touched = time.monotonic()  # the last request that asked for it
        self.lock = threading.Lock()
        self.progress = Progress()
        self.version = 0  # bumped at each change of progress, so streams send only news
        self.stop = threading.Event()
        self.thread: threading.Thread | None = None
        self.worker: Worker | None = None  # the search's process, kept between "next"s
        self.watcher: Worker | None = None  # the watch mode's process
        self.watch_lock = threading.Lock()
        self.found: list[Solution] = []
        self.exhausted = False
        self.watch: Any = None  # None: the next watch frame starts the watch over
        self.watch_solutions = 0
        self.owner: Runs | None = None  # the Runs that opened it (its limits)
        self.designs: DesignSearch | None = None  # its design search (Runs.design)

    def halt(self) -> None:
        """Stop the tab's search: the thread following it ends its process at once."""
        self.stop.set()

    @property
    def running(self) -> bool:
        return self.thread is not None and self.thread.is_alive()

    def resident(self) -> int:
        """The resident bytes of the tab's processes together."""
        return sum(w.resident() for w in (self.worker, self.watcher) if w is not None)

    def close(self) -> None:
        """End the tab's processes (it is forgotten, or its puzzle replaced)."""
        self.halt()
        for worker in (self.worker, self.watcher):
            if worker is not None:
                worker.end()
        self.worker = self.watcher = None

    def update(self, **fields: Any) -> None:
        with self.lock:
            for key, value in fields.items():
                setattr(self.progress, key, value)
            self.version += 1

    def snapshot(self) -> tuple[int, dict[str, Any]]:
        with self.lock:
            return self.version, dict(vars(self.progress))


class Runs:
    """Every tab's state and processes; thread-safe."""

    def __init__(self, max_running: int = MAX_RUNNING, max_tabs: int = MAX_TABS,
                 memory_per_tab: int = MEMORY_PER_TAB, memory_in_all: int = MEMORY_IN_ALL,
                 idle_seconds: float = IDLE_SECONDS, search_seconds: float = SEARCH_SECONDS,
                 watch_seconds: float = WATCH_SECONDS,
                 process_idle_seconds: float = PROCESS_IDLE_SECONDS) -> None:
        self.max_running = max_running
        self.process_idle_seconds = process_idle_seconds
        self.max_tabs = max_tabs
        self.memory_per_tab = memory_per_tab
        self.memory_in_all = memory_in_all
        self.idle_seconds = idle_seconds
        self.search_seconds = search_seconds
        self.watch_seconds = watch_seconds
        self._tabs: OrderedDict[str, Tab] = OrderedDict()
        self._lock = threading.Lock()
        self._reaper: threading.Thread | None = None  # started with the first tab opened
        self._quit = threading.Event()

    # -- tabs ----------------------------------------------------------------------------
    def open(self, tab_id: str, puzzle: Puzzle | None) -> Tab:
        """Give ``tab_id`` a new puzzle (stopping the search it had), within the memory
        limits: idle tabs are forgotten, oldest first, to make room; :class:`Busy` when the
        puzzle alone is over a tab's share or the running searches leave no room. ``None``:
        a tab for a design search (web/design_search.py), held by its processes' size."""
        need = memory_of(puzzle) if puzzle is not None else 0
        if need > self.memory_per_tab:
            raise Busy(f"this puzzle's cover problem may take {need >> 20} MB, more than the "
                       f"{self.memory_per_tab >> 20} MB the page gives one tab (the command "
                       "line has no such limit)")
        self._watch_idle()
        old = self.get(tab_id)
        if old is not None:
            self.stop(tab_id, wait=True)
        tab = Tab(puzzle, need)
        tab.owner = self
        gone: list[Tab] = [] if old is None else [old]
        try:
            with self._lock:
                gone += self._forget_idle()
                self._tabs.pop(tab_id, None)
                held = sum(t.memory for t in self._tabs.values())
                while held + need > self.memory_in_all:
                    oldest = next((k for k, t in self._tabs.items() if not t.running), None)
                    if oldest is None:
                        raise Busy(f"the server holds {held >> 20} MB for other tabs' "
                                   f"searches; this puzzle's {need >> 20} MB more would pass "
                                   f"its {self.memory_in_all >> 20} MB: try again when one "
                                   "ends")
                    forgotten = self._tabs.pop(oldest)
                    gone.append(forgotten)
                    held -= forgotten.memory
                self._tabs[tab_id] = tab
                while len(self._tabs) > self.max_tabs:
                    oldest = next((k for k, t in self._tabs.items() if not t.running), None)
                    if oldest is None:
                        break
                    gone.append(self._tabs.pop(oldest))
        finally:
            for forgotten in gone:  # outside the lock: ending a process takes a moment
                forgotten.close()
        return tab

    def _forget_idle(self) -> list[Tab]:
        """Forget every tab that runs nothing and was not asked for in ``idle_seconds``
        (called with the lock held); the tabs forgotten, whose processes the caller ends."""
        now = time.monotonic()
        keys = [k for k, t in self._tabs.items()
                if not t.running and now - t.touched > self.idle_seconds]
        return [self._tabs.pop(k) for k in keys]

    def _watch_idle(self) -> None:
        """Start the thread that ends idle processes (once; again after :meth:`stop_all`)."""
        with self._lock:
            if self._reaper is not None and self._reaper.is_alive():
                return
            self._quit.clear()
            self._reaper = threading.Thread(target=self._reap_loop, daemon=True,
                                            name="puzzlebox-web-reaper")
            self._reaper.start()

    def _reap_loop(self) -> None:
        while not self._quit.wait(REAP_SECONDS):
            with contextlib.suppress(Exception):  # never a dead reaper
                self.reap()

    def reap(self) -> None:
        """End the processes of every tab that runs nothing and was not asked for in
        ``process_idle_seconds`` (the tab and its solutions stay), and forget the tabs idle
        for ``idle_seconds``, whatever other tabs do."""
        now = time.monotonic()
        ending: list[Worker] = []
        with self._lock:
            gone = self._forget_idle()
            for tab in self._tabs.values():
                if tab.running or now - tab.touched <= self.process_idle_seconds:
                    continue
                if tab.worker is not None:  # no search can start while the lock is held
                    ending.append(tab.worker)
                    tab.worker = None
                if tab.watcher is not None and tab.watch_lock.acquire(blocking=False):
                    try:  # not while a frame is being drawn (that request touched it)
                        ending.append(tab.watcher)
                        tab.watcher = None
                        tab.watch = None
                    finally:
                        tab.watch_lock.release()
        for forgotten in gone:  # outside the lock: ending a process takes a moment
            forgotten.close()
        for worker in ending:
            worker.end()

    def close(self, tab_id: str) -> bool:
        """The page of ``tab_id`` went away: its search stops, its processes end, the tab
        is forgotten; True when there was one."""
        with self._lock:
            tab = self._tabs.pop(tab_id, None)
        if tab is None:
            return False
        tab.close()
        return True

    def processes(self) -> int:
        """The processes of every tab alive now."""
        with self._lock:
            tabs = list(self._tabs.values())
        return sum(1 for t in tabs for w in (t.worker, t.watcher) if w is not None and w.alive)

    def held(self) -> int:
        """The bytes reckoned for every tab's puzzle together."""
        with self._lock:
            return sum(t.memory for t in self._tabs.values())

    def resident(self) -> int:
        """The resident bytes of every tab's processes together (measured)."""
        with self._lock:
            tabs = list(self._tabs.values())
        return sum(t.resident() for t in tabs)

    def get(self, tab_id: str) -> Tab | None:
        with self._lock:
            tab = self._tabs.get(tab_id)
            if tab is not None:
                tab.touched = time.monotonic()
                self._tabs.move_to_end(tab_id)  # the oldest idle one is forgotten first
            return tab

    def running_count(self) -> int:
        with self._lock:
            return sum(1 for t in self._tabs.values() if t.running)

    def stop(self, tab_id: str, wait: bool = False) -> bool:
        """Stop the tab's search (its process is ended); True when one was running."""
        tab = self.get(tab_id)
        if tab is None or not tab.running:
            return False
        tab.halt()
        if wait and tab.thread is not None:
            tab.thread.join(timeout=10)
        return True

    def stop_all(self, wait: bool = True) -> None:
        """Stop every search (``wait``: until their threads have ended, and end every
        tab's processes)."""
        self._quit.set()
        with self._lock:
            tabs = list(self._tabs.values())
        for tab in tabs:
            tab.halt()
        for tab in tabs if wait else ():
            if tab.thread is not None:
                tab.thread.join(timeout=10)
            tab.close()

    # -- starting searches ---------------------------------------------------------------
    def _start(self, tab: Tab, mode: str, command: tuple[Any, ...],
               designs: DesignSearch | None = None) -> None:
        with self._lock:
            if tab.running:
                raise Busy("this tab already runs a search: stop it first")
            running = sum(1 for t in self._tabs.values() if t.running)
            if running >= self.max_running:
                raise Busy(f"{running} searches are running, the most this server runs at "
                           "once: stop one or wait")
            tab.stop.clear()
            if designs is not None:
                tab.designs = designs
            tab.update(state="running", mode=mode, message="", result={}, left="", share=None,
                       design={})
            tab.thread = threading.Thread(target=self._follow, args=(tab, command),
                                          daemon=True, name=f"puzzlebox-web-{mode}")
            tab.thread.start()

    def next_solution(self, tab_id: str, index: int, engine: str = AUTO,
                      distinct: bool = False) -> None:
        """Search on until solution number ``index`` (0-based) is found or there is none
        (``distinct``: one solution of each symmetry class; the tab's kept search is of the
        first ``engine`` and ``distinct`` asked: the page opens the tab again to change them)."""
        tab = self._tab(tab_id)
        if index < len(tab.found) or tab.exhausted:
            return
        self._start(tab, "solve", ("next", index, len(tab.found), self.search_seconds, engine,
                                   distinct))

    def count(self, tab_id: str, engine: str = AUTO,
              saved: tuple[str, str, str, int] | None = None) -> None:
        """Count the tab's puzzle; ``saved``: (checkpoint file, puzzle text, name, board) of
        a count saved as it goes, resumed from that file (web/saved.py)."""
        tab = self._tab(tab_id)
        self._start(tab, "count", ("count", engine, self.search_seconds, saved))

    def design(self, tab_id: str, text: str, name: str, run: int,
               checkpoint: str | None = None) -> DesignSearch:
        """Start the design search of the space in ``text`` in the tab's process (a tab
        opened with no puzzle); what it keeps comes back into the tab's ``designs``.
        ``checkpoint``: the file of a search saved as it goes (web/saved.py), resumed."""
        tab = self._tab(tab_id)
        search = DesignSearch(text, name, run)
        self._start(tab, "design", ("design", text, name, self.search_seconds, checkpoint),
                    search)
        return search

    def _tab(self, tab_id: str) -> Tab:
        tab = self.get(tab_id)
        if tab is None:
            raise UnknownTab("open a puzzle first")
        return tab

    # -- following a search ----------------------------------------------------------------
    def _follow(self, tab: Tab, command: tuple[Any, ...]) -> None:
        """Run ``command`` in the tab's search process and apply what it sends, until it
        ends, the tab's Stop, or a limit; whatever goes wrong ends as the tab's error,
        never a dead thread that leaves the page waiting."""
        try:
            self._drive(tab, command)
        except Exception as error:  # a bug: the page says so in one line, the server goes on
            _end(tab, "worker")
            tab.update(state="error", message=f"internal error: {type(error).__name__}: "
                       f"{error}")

    def _drive(self, tab: Tab, command: tuple[Any, ...]) -> None:
        if tab.worker is None or not tab.worker.alive:
            _end(tab, "worker")
            tab.worker = Worker(tab.puzzle)
        worker = tab.worker
        worker.send(command)
        began = time.monotonic()
        deadline = began + self.search_seconds + GRACE_SECONDS
        while True:
            if not worker.demoted and time.monotonic() - began > DEMOTE_AFTER:
                worker.demoted = True  # a long search yields the cores to small requests
                _demote(worker.process.pid)
            if tab.stop.is_set():
                _end(tab, "worker")  # the next "next" starts over past what was kept
                tab.update(state="stopped", message=_stopped(command[0], tab.snapshot()[1]))
                return
            over = self._over(tab) or (
                f"the search took more than {self.search_seconds:g} s, the page's limit "
                "for one search" if time.monotonic() > deadline else None)
            if over is not None:
                _end(tab, "worker")
                line = "puzzlebox design FILE" if command[0] == "design" \
                    else "puzzlebox count FILE"
                saved = command[3] if command[0] == "count" else \
                    command[4] if command[0] == "design" else None
                kept = ("; its progress is saved: run it again with save progress to go on "
                        "from there") if saved else ""
                tab.update(state="error", message=f"{over} (the command line has none: "
                           f"{line}){kept}")
                return
            message = worker.receive(POLL_SECONDS)
            if message is None:
                continue
            kind = message[0]
            if kind == "update":
                tab.update(**message[1])
            elif kind == "found":
                solution = message[1]
                object.__setattr__(solution, "puzzle", tab.puzzle)
                tab.found.append(solution)
            elif kind == "exhausted":
                tab.exhausted = True
            elif kind == "space" and tab.designs is not None:
                tab.designs.info = message[1]
            elif kind == "kept" and tab.designs is not None:
                tab.designs.add(message[1], message[2])
            elif kind == "end":
                return
            elif not tab.stop.is_set():  # "gone": ended without a word (killed from outside)
                _end(tab, "worker")
                tab.update(state="error", message="the search's process ended unexpectedly "
                           f"(exit status {worker.process.exitcode})")
                return

    def _over(self, tab: Tab) -> str | None:
        """Which memory limit the tab's processes pass (a phrase), or None."""
        mine = tab.resident()
        if mine > self.memory_per_tab:
            return (f"the search used more than {self.memory_per_tab >> 20} MB, the page's "
                    "limit for one tab")
        if mine and self.resident() > self.memory_in_all:
            return (f"the page's searches together used more than {self.memory_in_all >> 20}"
                    " MB, its limit for all tabs")
        return None

    # -- watching ------------------------------------------------------------------------
    def frame(self, tab: Tab, nodes: int) -> dict[str, Any]:
        """The tab's next watch frame, from its watch process (started on first use, or
        when ``tab.watch`` was reset to start over); :class:`OverBudget` past a limit."""
        with tab.watch_lock:
            restart = tab.watch is None
            if tab.watcher is None or not tab.watcher.alive:
                _end(tab, "watcher")
                tab.watcher = Worker(tab.puzzle)
                restart = True
            watcher = tab.watcher
            watcher.send(("watch", max(1, min(nodes, WATCH_MAX_NODES)), restart))
            tab.watch = True
            deadline = time.monotonic() + self.watch_seconds
            while True:
                over = self._over(tab) or (
                    f"the watch frame took more than {self.watch_seconds:g} s, the page's "
                    "limit for one frame" if time.monotonic() > deadline else None)
                if over is not None:
                    _end(tab, "watcher")
                    raise OverBudget(over)
                message = watcher.receive(POLL_SECONDS)
                if message is None:
                    continue
                if message[0] == "frame":
                    frame: dict[str, Any] = message[1]
                    tab.watch_solutions = frame["solutions"]
                    return frame
                if message[0] == "error":
                    raise PuzzleboxError(message[1])
                if message[0] == "gone":
                    _end(tab, "watcher")
                    raise OverBudget("the watch's process ended unexpectedly (exit status "
                                     f"{watcher.process.exitcode})")


def _stopped(command: str, progress: dict[str, Any]) -> str:
    """What a stopped search says: how far it went."""
    if command == "next":
        return "stopped"
    if command == "design":
        counts = progress.get("design") or {}
        return (f"stopped after {plural(counts.get('tried', 0), 'design')} tried, "
                f"{counts.get('kept', 0):,} kept")
    return f"stopped after {plural(progress['solutions'], 'solution')}"


def _end(tab: Tab, which: str) -> None:
    """End one of the tab's processes (``worker`` or ``watcher``), if it has one."""
    worker = getattr(tab, which)
    if worker is not None:
        worker.end()
        setattr(tab, which, None)


def memory_of(puzzle: Puzzle) -> int:
    """The bytes reckoned for a tab's puzzle: its cover problem's bound times
    :data:`BYTES_PER_ENTRY` (a kind that gives no bound: none reckoned)."""
    return (puzzle.cover_entries_bound() or 0) * BYTES_PER_ENTRY


# -- the process of a tab ---------------------------------------------------------------------


class _State:
    """What a tab's process keeps between two requests: its search of solutions (and how
    many it has yielded), and its watch."""

    def __init__(self, puzzle: Puzzle, conn: multiprocessing.connection.Connection) -> None:
        self.puzzle = puzzle
        self.conn = conn
        self.run: Run | None = None
        self.solutions: Iterator[Solution] | None = None
        self.produced = 0  # solutions the search yielded so far
        self.watch: ReferenceSearch | None = None
        self.watch_solutions = 0

    def send(self, *message: Any) -> None:
        self.conn.send(message)

    def update(self, **fields: Any) -> None:
        self.send("update", fields)


def _serve(conn: multiprocessing.connection.Connection, puzzle: Puzzle) -> None:
    """A tab's process: runs each command the server sends, sending back what it finds,
    until the server ends it or closes the pipe; Ctrl-C is the server's to handle."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    state = _State(puzzle, conn)
    while True:
        try:
            command = conn.recv()
        except (EOFError, OSError):
            return
        _command(state, command)


def _command(state: _State, command: tuple[Any, ...]) -> None:
    """One command, its errors as the tab's one line, and ``end`` after it (a watch
    answers with its frame or its error instead)."""
    watching = command[0] == "watch"
    try:
        if watching:
            state.send("frame", _frame(state, command[1], command[2]))
            return
        if command[0] == "next":
            _solve(state, *command[1:])  # index, known, seconds[, engine, distinct]
        elif command[0] == "count":
            if command[3] is not None:
                _saved_count(state, command[1], *command[3])
            else:
                _count(state, command[1], command[2])
        elif command[0] == "design":
            search(state.send, command[1], command[2], command[3], command[4])
        else:
            raise ValueError(f"unknown command {command[0]!r}")
    except PuzzleboxError as error:
        _failed(state, watching, str(error))
    except MemoryError:
        _failed(state, watching, "the search ran out of memory")
    except RecursionError:
        _failed(state, watching, "the search nested too deeply")
    except Exception as error:  # a bug: one line, and the process goes on
        _failed(state, watching, f"internal error: {type(error).__name__}: {error}")
    if not watching:
        state.send("end")


def _failed(state: _State, watching: bool, line: str) -> None:
    if watching:
        state.send("error", line)
    else:
        state.solutions = state.run = None  # the next "next" starts the search over
        state.update(state="error", message=line)


def _shown(event: Event, extra: dict[str, Any] | None = None) -> dict[str, Any]:
    """One progress event of the run layer (run/progress.py), as the page shows it: the
    same share (None where unknown) and time left (only where measured) as every door."""
    fields: dict[str, Any] = {
        "nodes": event.nodes, "solutions": event.solutions, "engine": event.engine,
        "solutions_text": solutions_text(event.solutions, event.distinct),
        "seconds": round(event.elapsed, 2),
        "share": None if event.share is None else round(event.share, 4),
        "left": "" if event.eta is None or event.done else f"{duration_text(event.eta)} left",
    }
    fields.update(extra or {})
    return fields


def _plain(solution: Solution) -> Solution:
    """The solution without the puzzle it was given to draw itself (the server gives it the
    tab's own): what is sent is its placements only."""
    plain = copy.copy(solution)
    if "puzzle" in vars(plain):
        object.__delattr__(plain, "puzzle")
    return plain


class _Clock:
    """The time of one request's search, in the words of the time limit of every door
    (run/limits.py): :meth:`event` between steps (a progress hook), :meth:`build` while its
    cover problem is built (cover/problem.py's deadline). The page's searches keep the
    library's refusal of a hopeless count (``Limits()``), which a time limit of the run
    itself would lift, so the request's time is held here; the server ends a process still
    busy :data:`GRACE_SECONDS` later (a setup with no step and no build)."""

    def __init__(self, label: str, seconds: float) -> None:
        self.label = label
        self.seconds = seconds
        self.deadline = time.perf_counter() + seconds

    def event(self, event: Event) -> None:
        if time.perf_counter() > self.deadline and not event.done:
            raise OutOfTime(f"{self.label}: stopped at the time limit of {self.seconds:g} s "
                            f"after {event.nodes:,} nodes, unfinished")

    def build(self) -> None:
        if time.perf_counter() > self.deadline:
            raise out_of_time_building(self.label, self.seconds)


def _solve(state: _State, index: int, known: int, seconds: float, engine: str = AUTO,
           distinct: bool = False) -> None:
    """Run the search of solutions until ``index + 1`` solutions are known, or it ends;
    each solution past the ``known`` ones the server keeps is sent (``distinct``: one
    solution of each symmetry class; the process's kept search is of the first ``engine``
    and ``distinct`` asked: the page opens the tab again to change them).

    The search is one :class:`puzzlebox.run.Run` of every solution (up to :data:`MAX_KEPT`),
    kept in this process between the "next"s; each request's part of it is held to
    ``seconds``."""
    clock = _Clock(state.puzzle.label, seconds)

    def progress(event: Event) -> None:
        found = max(state.produced, known)
        state.update(**_shown(event, {"solutions": found,
                                      "solutions_text": plural(found, "solution")}))
        clock.event(event)

    if state.solutions is None or state.run is None:
        state.run = Run(state.puzzle, "solutions", limit=MAX_KEPT, limits=Limits(),
                        engine=engine, distinct=distinct, every=PROGRESS_SECONDS)
        state.solutions, state.produced = state.run.solutions(), 0
    state.run.on_progress = progress  # read at each event: this request's hook
    exhausted = False
    while max(state.produced, known) <= index:
        with build_deadline(clock.build):
            solution = next(state.solutions, None)
        if solution is None:
            exhausted = True
            state.send("exhausted")
            break
        state.produced += 1
        if state.produced > known:
            state.send("found", _plain(solution))
    found = max(state.produced, known)
    complete = exhausted and found < MAX_KEPT
    message = (f"all {found} solutions found" if complete
               else f"{found} solution{'s' if found != 1 else ''} so far")
    if exhausted and found == 0:
        reason = state.run.reason
        message = (f"no solution: {reason}" if reason
                   else "no solution (the whole tree was searched)")
    state.update(state="done", message=message, share=1.0 if complete else None, left="",
                 result={"found": found, "exhausted": exhausted})


def _count(state: _State, engine: str, seconds: float) -> None:
    """Count every solution, raw and distinct: one :class:`puzzlebox.run.Run`, held to the
    same limits as ``puzzlebox count`` and ``Puzzle.count()`` (a hopeless count is refused
    in the same words), and to ``seconds``, the page's time for one request."""
    clock = _Clock(state.puzzle.label, seconds)

    def progress(event: Event) -> None:
        state.update(**_shown(event))
        clock.event(event)

    run = Run(state.puzzle, "count", engine=engine, limits=Limits(), on_progress=progress,
              every=PROGRESS_SECONDS)
    with build_deadline(clock.build):
        result = run.count()
    if result.reason is not None:
        state.update(state="done", message=f"0 solutions: {result.reason}",
                     result={"solutions": 0, "distinct": 0, "reason": result.reason})
        return
    state.update(state="done", left="", share=1.0,
                 message=f"{result.solutions} solutions, {result.distinct} distinct",
                 result={"solutions": result.solutions, "distinct": result.distinct,
                         "seconds": round(result.seconds, 3)})


def _saved_count(state: _State, engine: str, checkpoint: str, text: str, name: str,
                 board: int) -> None:
    """A count saved as it goes (web/saved.py): the command line's ``count --checkpoint
    FILE`` in this process (run.split_run, one job, the same time rule), resumed from the
    file where it has one; its progress is the subproblems done of the plan's."""
    pf = read_text(text, f"{name}.toml", name)
    if not 0 <= board < len(pf.puzzles):
        raise PuzzleboxError(f"{name} has no board {board}")
    began = time.monotonic()
    last = [0.0]

    def note(line: str) -> None:
        state.update(note=line)

    # the tasks read the puzzle from its text (the page's puzzle is no file on disk)
    source = PuzzleSource(text, f"{name}.toml", name)
    splitter = split_run(pf, "count", engine, Split(checkpoint=checkpoint), Limits(), note,
                         source=source)
    resumed = len(splitter.checkpoint.done(board)) if splitter.checkpoint else 0

    def recorded(at: int, index: int, result: tuple[Any, ...]) -> None:
        now = time.monotonic()
        if now - last[0] < PROGRESS_SECONDS or splitter.checkpoint is None:
            return
        last[0] = now
        done = splitter.checkpoint.done(at)
        total = len(splitter.checkpoint.data["boards"][at]["subproblems"] or ())
        raw = sum(entry[0] for entry in done.values())
        distinct = sum(entry[1] for entry in done.values())
        state.update(solutions=raw, solutions_text=solutions_text(raw, distinct),
                     nodes=sum(entry[2] for entry in done.values()),
                     seconds=round(now - began, 2), engine=engine,
                     share=round(len(done) / total, 4) if total else None,
                     parts=f"{len(done)} of {total} parts done (saved)",
                     resumed=resumed)

    splitter.on_result = recorded
    try:
        run = Run(pf.puzzles[board], "count", engine=engine, limits=Limits(),
                  splitter=(splitter, board))
        result = run.count()
    finally:
        splitter.close()
    if result.reason is not None:
        state.update(state="done", message=f"0 solutions: {result.reason}",
                     result={"solutions": 0, "distinct": 0, "reason": result.reason})
        return
    done = getattr(result, "done", None)
    total = getattr(result, "total", None)
    state.update(state="done", left="", share=1.0,
                 message=f"{result.solutions} solutions, {result.distinct} distinct",
                 parts=f"{done} of {total} parts done (saved)" if total else "",
                 resumed=resumed,
                 result={"solutions": result.solutions, "distinct": result.distinct,
                         "seconds": round(result.seconds, 3), "resumed": resumed})


# -- watching the search ---------------------------------------------------------------------


def watch_frame(tab: Tab, nodes: int) -> dict[str, Any]:
    """Advance the tab's watch by ``nodes`` nodes in its watch process, within the limits
    of the :class:`Runs` that opened the tab (:meth:`Runs.frame`)."""
    if tab.owner is None:
        raise UnknownTab("open a puzzle first")
    return tab.owner.frame(tab, nodes)


def _frame(state: _State, nodes: int, restart: bool) -> dict[str, Any]:
    """Advance the process's reference search by ``nodes`` nodes and describe where it is:
    the options on its stack (root first), the item each level branched on, what was placed
    and undone since the last frame, and the partial placement drawn by the kind's SVG."""
    puzzle = state.puzzle
    problem = puzzle.problem
    if restart or state.watch is None:
        state.watch = ReferenceSearch(Job(problem, Mode.SOLUTIONS, puzzle=puzzle))
        state.watch_solutions = 0
    search = state.watch
    before = [k for _, k in search.trace()]
    step = search.step(nodes)
    path = search.trace()
    after = [k for _, k in path]
    common = 0
    while common < min(len(before), len(after)) and before[common] == after[common]:
        common += 1
    state.watch_solutions += len(step.solutions)
    names = problem.item_names
    words = puzzle.move_words
    levels = [{"item": puzzle.item_words(names[item]) if item is not None else None,
               "option": words(problem.labels[k])} for item, k in path]
    chosen = tuple(sorted(after))
    shown = step.solutions[-1] if step.solutions else chosen
    placed, undone = after[common:], before[common:]
    # the moves just undone stay drawn (marked) where they cover nothing placed since
    taken = {item for k in shown for item, _ in problem.option(k)}
    ghosts = tuple(k for k in undone if not any(i in taken for i, _ in problem.option(k)))
    return {
        "nodes": search.stats.nodes,
        "depth": len(path),
        "levels": levels,
        "placed": [words(problem.labels[k]) for k in placed],
        "undone": [words(problem.labels[k]) for k in undone],
        "solutions": state.watch_solutions,
        "solved": bool(step.solutions),
        "done": step.done,
        "svg": partial_svg(puzzle, tuple(sorted(shown + ghosts))),
        "marks": _marks(puzzle, tuple(sorted(shown + ghosts)), placed, ghosts),
    }


def _marks(puzzle: Puzzle, drawn: tuple[int, ...], placed: list[int],
           undone: tuple[int, ...]) -> dict[str, list[str]]:
    """The SVG ids of the moves just made (the kind's :meth:`Puzzle.drawn_ids`)."""
    if not drawn or not (placed or undone):
        return {"placed": [], "undone": []}
    solution = _decoded(puzzle, drawn)
    labels = puzzle.problem.labels
    return {"placed": puzzle.drawn_ids(solution, [labels[k] for k in placed]),
            "undone": puzzle.drawn_ids(solution, [labels[k] for k in undone])}


def partial_svg(puzzle: Puzzle, chosen: tuple[int, ...]) -> str:
    """The options ``chosen`` drawn as the kind draws a solution (render/), or the empty
    board and pieces when none is chosen yet."""

    draw = pictures()
    if not chosen:
        return str(draw.solution_svg(puzzle, _decoded(puzzle, ()))) if _draws_empty(puzzle) \
            else str(draw.puzzle_svg(puzzle))
    return str(draw.solution_svg(puzzle, _decoded(puzzle, chosen)))


def _draws_empty(puzzle: Puzzle) -> bool:
    try:
        _decoded(puzzle, ())
        return True
    except Exception:
        return False


def _decoded(puzzle: Puzzle, chosen: tuple[int, ...]) -> Solution:
    solution = puzzle.decode(chosen)
    object.__setattr__(solution, "puzzle", puzzle)
    return solution


__all__ = ["Busy", "OverBudget", "Runs", "Tab", "UnknownTab", "duration_text", "watch_frame"]
