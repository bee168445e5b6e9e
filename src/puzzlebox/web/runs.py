"""What the server keeps for each browser tab: its puzzle, its one search, its solutions.

Searches run in worker threads, each a plain loop over ``Search.step(max_nodes)``
(engine/search.py) in slices of :data:`SLICE_NODES`, so that a Stop (or a tab that goes
away) lands between two slices and really stops the search. A tab holds at most one search
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
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from puzzlebox.engine.registry import AUTO, get, resolve
from puzzlebox.engine.search import Capability, Job, Mode, Search
from puzzlebox.engine.stats import SearchStats
from puzzlebox.errors import PuzzleboxError
from puzzlebox.progress import duration_text, left_text, solutions_text
from puzzlebox.puzzles import Puzzle, Solution
from puzzlebox.words import plural

if TYPE_CHECKING:
    from puzzlebox.cover.problem import CoverProblem

SLICE_NODES = 20_000  # nodes per step: a Stop lands within one slice (milliseconds)
MAX_RUNNING = 4  # searches running at once in the server
MAX_TABS = 64  # tabs remembered; the oldest idle one is forgotten past this
MAX_KEPT = 10_000  # solutions a tab keeps for "previous"
WATCH_MAX_NODES = 1_000  # nodes one watch frame may advance
ESTIMATE_PROBES = 2000
# Memory (#28: five watch requests of parallelogram-7-rotate took the server to 4 GB): a
# tab's puzzle is reckoned at its cover problem's bound times what building and searching
# take an entry (budget.py: about 240 bytes to build); a tab may hold MEMORY_PER_TAB, all
# tabs together MEMORY_IN_ALL, and a tab idle for IDLE_SECONDS is forgotten (its problem
# and search go; its next request opens its puzzle again).
BYTES_PER_ENTRY = 240
MEMORY_PER_TAB = 1 << 30
MEMORY_IN_ALL = 2 << 30
IDLE_SECONDS = 600.0
ESTIMATE_SECONDS = 1.0


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
        self.search: Search | None = None  # the solutions search, kept between "next"s
        self.found: list[Solution] = []
        self.solve_estimate: _Estimate | None = None  # of the solutions search's tree
        self.solve_seconds = 0.0  # spent stepping it by the "next"s before this one
        self.exhausted = False
        self.watch: Any = None  # the reference search of the watch mode
        self.watch_solutions = 0

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
        tab.stop.set()
        if wait and tab.thread is not None:
            tab.thread.join(timeout=10)
        return True

    def stop_all(self, wait: bool = True) -> None:
        """Stop every search (``wait``: until their threads have ended)."""
        with self._lock:
            tabs = list(self._tabs.values())
        for tab in tabs:
            tab.stop.set()
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

    def next_solution(self, tab_id: str, index: int) -> None:
        """Search on until solution number ``index`` (0-based) is found or there is none."""
        tab = self._tab(tab_id)
        if index < len(tab.found) or tab.exhausted:
            return
        self._start(tab, "solve", lambda t: _solve(t, index))

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
    except PuzzleboxError as error:
        tab.update(state="error", message=str(error))
    except Exception as error:  # a bug: the page says so in one line, the server goes on
        tab.update(state="error", message=f"internal error: {type(error).__name__}: {error}")


class UnknownTab(PuzzleboxError):
    """A tab that has no puzzle (the server restarted, or it was forgotten)."""


def _report(tab: Tab, stats: SearchStats, began: float, extra: dict[str, Any]) -> None:
    elapsed = time.perf_counter() - began
    fields: dict[str, Any] = {"nodes": stats.nodes, "solutions": stats.solutions,
                              "engine": stats.engine, "solutions_text": solutions_text(stats),
                              "seconds": round(elapsed, 2)}
    fields.update(extra)
    tab.update(**fields)


def _solve(tab: Tab, index: int) -> None:
    """Step the tab's solutions search until ``index`` solutions are known, or it ends.

    Its progress carries the share of the tree walked and the time left, as a count's does
    (:class:`_Estimate`), of the tree this search walks: the whole one (every solution, no
    symmetry cut), over all the "next"s so far. The time left is to the end of that tree,
    which bounds the wait for the next solution (if there is one, it comes sooner)."""
    puzzle = tab.puzzle
    began = time.perf_counter()
    try:
        if tab.search is None:
            job = Job(puzzle.problem, Mode.SOLUTIONS, puzzle=puzzle)
            spec = resolve(job)
            if puzzle.impossibility() is not None:
                tab.exhausted = True
                tab.update(state="done", message=f"no solution: {puzzle.impossibility()}")
                return
            tab.search = spec.start(job)
            tab.solve_estimate = _Estimate(lambda: puzzle.problem)
            tab.solve_seconds = 0.0
        search = tab.search
        estimate = tab.solve_estimate
        while len(tab.found) <= index:
            if tab.stop.is_set():
                tab.update(state="stopped", message="stopped")
                return
            step = search.step(SLICE_NODES)
            for chosen in step.solutions:
                if len(tab.found) < MAX_KEPT:
                    solution = puzzle.decode(chosen)
                    object.__setattr__(solution, "puzzle", puzzle)
                    tab.found.append(solution)
            extra: dict[str, Any] = {"solutions": len(tab.found),
                                     "solutions_text": plural(len(tab.found), "solution")}
            if estimate is not None:
                spent = tab.solve_seconds + time.perf_counter() - began
                share = estimate.fields(search.stats, spent)
                if share.get("left"):
                    share["left"] += " to the end of the tree"
                extra.update(share)
            _report(tab, search.stats, began, extra)
            if step.done:
                tab.exhausted = True
                if search.stats.complete:
                    tab.update(share=1.0, left="")
                break
        found = len(tab.found)
        message = (f"all {found} solutions found" if tab.exhausted and search.stats.complete
                   else f"{found} solution{'s' if found != 1 else ''} so far")
        if tab.exhausted and found == 0:
            message = "no solution (the whole tree was searched)"
        tab.update(state="done", message=message,
                   result={"found": found, "exhausted": tab.exhausted})
    except PuzzleboxError as error:
        tab.update(state="error", message=str(error))
    finally:
        tab.solve_seconds += time.perf_counter() - began


def _count(tab: Tab, engine: str) -> None:
    """Count every solution, raw and distinct, step by step (as Puzzle.count does)."""
    puzzle = tab.puzzle
    began = time.perf_counter()
    try:
        job = Job(puzzle.problem, Mode.COUNT, puzzle=puzzle)
        spec = resolve(job, engine)
        reason = puzzle.impossibility()
        if reason is not None:
            tab.update(state="done", message=f"0 solutions: {reason}",
                       result={"solutions": 0, "distinct": 0, "reason": reason})
            return
        if spec.does(Capability.DISTINCT):
            search: Search = spec.start(job)
        else:
            from puzzlebox.engine.parts import count_puzzle_search

            search = count_puzzle_search(puzzle, engine)
        estimate = _Estimate(puzzle.search_problem)
        total = 0
        distinct: int | None = None
        while True:
            if tab.stop.is_set():
                tab.update(state="stopped", message=f"stopped after {total} solutions")
                return
            step = search.step(SLICE_NODES)
            total += step.counted
            if step.distinct is not None:
                distinct = step.distinct
            stats = search.stats
            _report(tab, stats, began, estimate.fields(stats, time.perf_counter() - began))
            if step.done:
                break
        tab.update(state="done", left="", share=1.0,
                   message=f"{total} solutions, {distinct} distinct",
                   result={"solutions": total, "distinct": distinct,
                           "seconds": round(time.perf_counter() - began, 3)})
    except PuzzleboxError as error:
        tab.update(state="error", message=str(error))


class _Estimate:
    """The share done and the time left, as the command line's progress line gives them
    (progress.py): the share walked where the engine reports it (no time left: it was not
    measured good enough to predict one), else nodes over Knuth's estimate of the compiled
    engine's tree of ``problem()`` (the problem the search walks: a count's symmetry-cut
    one, a solve's whole one), computed in a thread beside the search."""

    def __init__(self, problem: Callable[[], CoverProblem]) -> None:
        self.problem = problem
        self.result: Any = None
        self.thread: threading.Thread | None = None

    def fields(self, stats: SearchStats, elapsed: float) -> dict[str, Any]:
        if stats.walked is not None:
            return {"share": round(stats.walked, 4), "left": left_text("walked", elapsed,
                                                                      stats.walked)}
        if not _probes(stats.engine):
            return {}
        if self.thread is None:
            self.thread = threading.Thread(target=self._run, daemon=True)
            self.thread.start()
        if self.result is None or self.result.nodes <= 0:
            return {}
        share = stats.nodes / self.result.nodes
        if share >= 1:
            return {"share": None, "left": ""}
        return {"share": round(share, 4), "left": left_text("estimated", elapsed, share)}

    def _run(self) -> None:
        from puzzlebox.engine.estimate import estimate_tree

        try:
            self.result = estimate_tree(self.problem(), probes=ESTIMATE_PROBES,
                                        max_seconds=ESTIMATE_SECONDS)
        except Exception:  # no estimate: the page shows no time left, the search goes on
            self.result = None


def _probes(engine: str) -> bool:
    from puzzlebox.engine.registry import UnknownEngine

    try:
        return get(engine).does(Capability.PROBE)
    except UnknownEngine:
        return False


# -- watching the search ---------------------------------------------------------------------


def watch_frame(tab: Tab, nodes: int) -> dict[str, Any]:
    """Advance the tab's reference search by ``nodes`` nodes and describe where it is: the
    options on its stack (root first), the item each level branched on, what was placed and
    undone since the last frame, and the partial placement drawn by the kind's SVG."""
    from puzzlebox.engine.reference import ReferenceSearch

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
    levels = [{"item": _item_text(names[item]) if item is not None else None,
               "option": _option_text(problem.labels[k])} for item, k in path]
    chosen = tuple(sorted(after))
    shown = step.solutions[-1] if step.solutions else chosen
    return {
        "nodes": search.stats.nodes,
        "depth": len(path),
        "levels": levels,
        "placed": [_option_text(problem.labels[k]) for k in after[common:]],
        "undone": [_option_text(problem.labels[k]) for k in before[common:]],
        "solutions": tab.watch_solutions,
        "solved": bool(step.solutions),
        "done": step.done,
        "svg": partial_svg(puzzle, shown),
    }


def partial_svg(puzzle: Puzzle, chosen: tuple[int, ...]) -> str:
    """The options ``chosen`` drawn as the kind draws a solution (render/), or the empty
    board and pieces when none is chosen yet."""
    from puzzlebox.render.drawing import pictures

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


def _item_text(name: Any) -> str:
    if isinstance(name, tuple):
        head, *rest = name
        if head == "cell" and rest:
            return "cell " + ",".join(str(v) for v in rest)
        return " ".join(str(v) for v in name)
    return str(name)


def _option_text(label: Any) -> str:
    if isinstance(label, tuple) and len(label) == 2 and isinstance(label[1], tuple):
        piece, cells = label
        if cells and all(isinstance(c, tuple) for c in cells):
            return f"{piece} at " + " ".join(",".join(str(v) for v in c) for c in cells)
    return str(label)


__all__ = ["Busy", "Runs", "Tab", "UnknownTab", "duration_text", "watch_frame"]
