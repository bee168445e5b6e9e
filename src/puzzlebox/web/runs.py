"""What the server keeps for each browser tab: its puzzle, its one search, its solutions.

Searches run in worker threads, each one :class:`puzzlebox.run.Run` (the same engine
choice, limits and progress as the command line and the library), whose steps are sized
to a fraction of a second from the measured node rate, so that a Stop (or a tab that goes
away) lands between two steps and really stops the search. A tab holds at most one search
at a time; :data:`MAX_RUNNING` searches run at once in the whole server (more would only
share the same cores), and :data:`MAX_TABS` tabs are remembered (the oldest is forgotten).

Solutions are found lazily: "next" runs the search until one more solution is found and
keeps those found so far, so that "previous" needs no search and nothing is enumerated
ahead of what the page shows. The watch mode drives the reference engine (plain Python,
engine/reference.py) one node at a time and reads its current path between steps.
"""

from __future__ import annotations

import threading
import time
from collections import OrderedDict
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from puzzlebox.engine.reference import ReferenceSearch
from puzzlebox.engine.registry import AUTO
from puzzlebox.engine.search import Job, Mode
from puzzlebox.errors import PuzzleboxError
from puzzlebox.puzzles import Puzzle, Solution
from puzzlebox.render.drawing import pictures
from puzzlebox.render.progress import solutions_text
from puzzlebox.run import Limits, Run, Stopped
from puzzlebox.run import Progress as Event
from puzzlebox.words import duration_text, plural

if TYPE_CHECKING:
    pass

PROGRESS_SECONDS = 0.2  # the least time between two progress updates of a tab
MAX_RUNNING = 4  # searches running at once in the server
MAX_TABS = 64  # tabs remembered; the oldest idle one is forgotten past this
MAX_KEPT = 10_000  # solutions a tab keeps for "previous"
WATCH_MAX_NODES = 1_000  # nodes one watch frame may advance
# Memory (#28: five watch requests of parallelogram-7-rotate took the server to 4 GB): a
# tab's puzzle is reckoned at its cover problem's bound times what building and searching
# take an entry (budget.py: about 240 bytes to build); a tab may hold MEMORY_PER_TAB, all
# tabs together MEMORY_IN_ALL, and a tab idle for IDLE_SECONDS is forgotten (its problem
# and search go; its next request opens its puzzle again).
BYTES_PER_ENTRY = 240
MEMORY_PER_TAB = 1 << 30
MEMORY_IN_ALL = 2 << 30
IDLE_SECONDS = 600.0


class Busy(PuzzleboxError):
    """Too many searches are running in the server, or this tab already runs one."""


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


class Tab:
    """One browser tab's puzzle and its search."""

    def __init__(self, puzzle: Puzzle, memory: int = 0) -> None:
        self.puzzle = puzzle
        self.memory = memory  # bytes reckoned for its problem and searches (Runs.open)
        self.touched = time.monotonic()  # the last request that asked for it
        self.lock = threading.Lock()
        self.progress = Progress()
        self.version = 0  # bumped at each change of progress, so streams send only news
        self.stop = threading.Event()
        self.thread: threading.Thread | None = None
        # the run of solutions, kept between "next"s: (run, its solutions, how many of them
        # to pass over: those kept before a Stop ended an earlier run)
        self.search: tuple[Run, Iterator[Solution], int] | None = None
        self.found: list[Solution] = []
        self.run: Run | None = None  # the run in progress (Stop reaches it)
        self.exhausted = False
        self.watch: Any = None  # the reference search of the watch mode
        self.watch_solutions = 0

    def halt(self) -> None:
        """Stop the tab's search: its run ends between two steps, or (in a long setup) has
        the stop raised inside it (:meth:`puzzlebox.run.Run.stop`)."""
        self.stop.set()
        run = self.run
        if run is not None:
            run.stop()

    @property
    def running(self) -> bool:
        return self.thread is not None and self.thread.is_alive()

    def update(self, **fields: Any) -> None:
        with self.lock:
            for key, value in fields.items():
                setattr(self.progress, key, value)
            self.version += 1

    def snapshot(self) -> tuple[int, dict[str, Any]]:
        with self.lock:
            return self.version, dict(vars(self.progress))


class Runs:
    """Every tab's state and the worker threads; thread-safe."""

    def __init__(self, max_running: int = MAX_RUNNING, max_tabs: int = MAX_TABS,
                 memory_per_tab: int = MEMORY_PER_TAB, memory_in_all: int = MEMORY_IN_ALL,
                 idle_seconds: float = IDLE_SECONDS) -> None:
        self.max_running = max_running
        self.max_tabs = max_tabs
        self.memory_per_tab = memory_per_tab
        self.memory_in_all = memory_in_all
        self.idle_seconds = idle_seconds
        self._tabs: OrderedDict[str, Tab] = OrderedDict()
        self._lock = threading.Lock()

    # -- tabs ----------------------------------------------------------------------------
    def open(self, tab_id: str, puzzle: Puzzle) -> Tab:
        """Give ``tab_id`` a new puzzle (stopping the search it had), within the memory
        limits: idle tabs are forgotten, oldest first, to make room; :class:`Busy` when the
        puzzle alone is over a tab's share or the running searches leave no room."""
        need = memory_of(puzzle)
        if need > self.memory_per_tab:
            raise Busy(f"this puzzle's cover problem may take {need >> 20} MB, more than the "
                       f"{self.memory_per_tab >> 20} MB the page gives one tab (the command "
                       "line has no such limit)")
        old = self.get(tab_id)
        if old is not None:
            self.stop(tab_id, wait=True)
        tab = Tab(puzzle, need)
        with self._lock:
            self._forget_idle()
            self._tabs.pop(tab_id, None)
            held = sum(t.memory for t in self._tabs.values())
            while held + need > self.memory_in_all:
                oldest = next((k for k, t in self._tabs.items() if not t.running), None)
                if oldest is None:
                    raise Busy(f"the server holds {held >> 20} MB for other tabs' searches; "
                               f"this puzzle's {need >> 20} MB more would pass its "
                               f"{self.memory_in_all >> 20} MB: try again when one ends")
                held -= self._tabs.pop(oldest).memory
            self._tabs[tab_id] = tab
            while len(self._tabs) > self.max_tabs:
                oldest = next((k for k, t in self._tabs.items() if not t.running), None)
                if oldest is None:
                    break
                del self._tabs[oldest]
        return tab

    def _forget_idle(self) -> None:
        """Forget every tab that runs nothing and was not asked for in ``idle_seconds``
        (called with the lock held): its problem and searches go with it."""
        now = time.monotonic()
        for key in [k for k, t in self._tabs.items()
                    if not t.running and now - t.touched > self.idle_seconds]:
            del self._tabs[key]

    def held(self) -> int:
        """The bytes reckoned for every tab's puzzle together."""
        with self._lock:
            return sum(t.memory for t in self._tabs.values())

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
        """Stop the tab's search (it ends within one slice); True when one was running."""
        tab = self.get(tab_id)
        if tab is None or not tab.running:
            return False
        tab.halt()
        if wait and tab.thread is not None:
            tab.thread.join(timeout=10)
        return True

    def stop_all(self, wait: bool = True) -> None:
        """Stop every search (``wait``: until their threads have ended)."""
        with self._lock:
            tabs = list(self._tabs.values())
        for tab in tabs:
            tab.halt()
        for tab in tabs if wait else ():
            if tab.thread is not None:
                tab.thread.join(timeout=10)

    # -- starting searches ---------------------------------------------------------------
    def _start(self, tab: Tab, mode: str, target: Any) -> None:
        with self._lock:
            if tab.running:
                raise Busy("this tab already runs a search: stop it first")
            running = sum(1 for t in self._tabs.values() if t.running)
            if running >= self.max_running:
                raise Busy(f"{running} searches are running, the most this server runs at "
                           "once: stop one or wait")
            tab.stop.clear()
            tab.update(state="running", mode=mode, message="", result={}, left="", share=None)
            tab.thread = threading.Thread(target=_guarded, args=(tab, target), daemon=True,
                                          name=f"puzzlebox-web-{mode}")
            tab.thread.start()

    def next_solution(self, tab_id: str, index: int, engine: str = AUTO,
                      distinct: bool = False) -> None:
        """Search on until solution number ``index`` (0-based) is found or there is none
        (``distinct``: one solution of each symmetry class; the tab's kept search is of the
        first ``engine`` and ``distinct`` asked: the page opens the tab again to change them)."""
        tab = self._tab(tab_id)
        if index < len(tab.found) or tab.exhausted:
            return
        self._start(tab, "solve", lambda t: _solve(t, index, engine, distinct))

    def count(self, tab_id: str, engine: str = AUTO) -> None:
        tab = self._tab(tab_id)
        self._start(tab, "count", lambda t: _count(t, engine))

    def _tab(self, tab_id: str) -> Tab:
        tab = self.get(tab_id)
        if tab is None:
            raise UnknownTab("open a puzzle first")
        return tab


def memory_of(puzzle: Puzzle) -> int:
    """The bytes reckoned for a tab's puzzle: its cover problem's bound times
    :data:`BYTES_PER_ENTRY` (a kind that gives no bound: none reckoned)."""
    return (puzzle.cover_entries_bound() or 0) * BYTES_PER_ENTRY


def _guarded(tab: Tab, target: Any) -> None:
    """Run a search's loop; whatever goes wrong ends as the tab's error, never a dead
    thread that leaves the page waiting."""
    try:
        target(tab)
    except Stopped:  # raised inside a long setup by Stop (Run.stop)
        tab.search = None
        tab.update(state="stopped", message="stopped")
    except PuzzleboxError as error:
        tab.update(state="error", message=str(error))
    except Exception as error:  # a bug: the page says so in one line, the server goes on
        tab.update(state="error", message=f"internal error: {type(error).__name__}: {error}")


class UnknownTab(PuzzleboxError):
    """A tab that has no puzzle (the server restarted, or it was forgotten)."""


def _show(tab: Tab, event: Event, extra: dict[str, Any] | None = None) -> None:
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
    tab.update(**fields)


def _solve(tab: Tab, index: int, engine: str = AUTO, distinct: bool = False) -> None:
    """Run the tab's search of solutions until ``index`` solutions are known, or it ends.

    The search is one :class:`puzzlebox.run.Run` of every solution (up to :data:`MAX_KEPT`),
    kept between the "next"s; a Stop ends it (between two steps), and the next "next" runs
    it again, passing over the solutions already kept."""
    puzzle = tab.puzzle
    try:
        if tab.search is None:
            run = Run(puzzle, "solutions", limit=MAX_KEPT, limits=Limits(), engine=engine,
                      distinct=distinct,
                      on_progress=lambda e: _show(tab, e, {"solutions": len(tab.found),
                                                            "solutions_text": plural(
                                                                len(tab.found), "solution")}),
                      stop_event=tab.stop, every=PROGRESS_SECONDS)
            tab.search = (run, run.solutions(), len(tab.found))
        run, solutions, skip = tab.search
        tab.run = run
        while len(tab.found) <= index:
            solution = next(solutions, None)
            if solution is None:
                tab.exhausted = True
                break
            if skip:
                skip -= 1
                tab.search = (run, solutions, skip)
                continue
            tab.found.append(solution)
        found = len(tab.found)
        complete = tab.exhausted and found < MAX_KEPT
        message = (f"all {found} solutions found" if complete
                   else f"{found} solution{'s' if found != 1 else ''} so far")
        if tab.exhausted and found == 0:
            reason = run.reason
            message = (f"no solution: {reason}" if reason
                       else "no solution (the whole tree was searched)")
        tab.update(state="done", message=message, share=1.0 if complete else None, left="",
                   result={"found": found, "exhausted": tab.exhausted})
    except Stopped:
        tab.search = None  # the next "next" runs it again past the solutions kept
        tab.update(state="stopped", message="stopped")


def _count(tab: Tab, engine: str) -> None:
    """Count every solution, raw and distinct: one :class:`puzzlebox.run.Run`, held to the
    same limits as ``puzzlebox count`` and ``Puzzle.count()`` (a hopeless count is refused
    in the same words)."""
    run = Run(tab.puzzle, "count", engine=engine, limits=Limits(),
              on_progress=lambda e: _show(tab, e), stop_event=tab.stop,
              every=PROGRESS_SECONDS)
    tab.run = run
    try:
        result = run.count()
    except Stopped as stop:
        solutions = stop.result.solutions if stop.result is not None else 0
        tab.update(state="stopped", message=f"stopped after {plural(solutions, 'solution')}")
        return
    if result.reason is not None:
        tab.update(state="done", message=f"0 solutions: {result.reason}",
                   result={"solutions": 0, "distinct": 0, "reason": result.reason})
        return
    tab.update(state="done", left="", share=1.0,
               message=f"{result.solutions} solutions, {result.distinct} distinct",
               result={"solutions": result.solutions, "distinct": result.distinct,
                       "seconds": round(result.seconds, 3)})


# -- watching the search ---------------------------------------------------------------------


def watch_frame(tab: Tab, nodes: int) -> dict[str, Any]:
    """Advance the tab's reference search by ``nodes`` nodes and describe where it is: the
    options on its stack (root first), the item each level branched on, what was placed and
    undone since the last frame, and the partial placement drawn by the kind's SVG."""

    puzzle = tab.puzzle
    problem = puzzle.problem
    if tab.watch is None:
        tab.watch = ReferenceSearch(Job(problem, Mode.SOLUTIONS, puzzle=puzzle))
    search = tab.watch
    before = [k for _, k in search.trace()]
    step = search.step(max(1, min(nodes, WATCH_MAX_NODES)))
    path = search.trace()
    after = [k for _, k in path]
    common = 0
    while common < min(len(before), len(after)) and before[common] == after[common]:
        common += 1
    tab.watch_solutions += len(step.solutions)
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
        "solutions": tab.watch_solutions,
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


__all__ = ["Busy", "Runs", "Tab", "UnknownTab", "duration_text", "watch_frame"]
