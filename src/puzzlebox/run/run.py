"""One run of a search, whatever the door (#22): the library, the command line, the page.

In the manner of OR-Tools' ``CpSolver`` (one solver object, one parameters record, one
callback) and python-chess's ``engine.play(board, Limit(...))``::

    run = Run(puzzle, "count", limits=Limits(time=60), on_progress=print)
    result = run.count()          # a CountResult; Hopeless, OutOfTime, Stopped otherwise

A run decides its engine (run/choice.py), applies every rule (the cover problem's size and
each engine's memory below the engines, engine/memory.py; the time rules, run/limits.py,
with the same words on every door), runs in this process or split into subproblems
(processes, Dask, a checkpoint: parallel/), reports :class:`Progress` events (run/progress.py)
and honours :meth:`Run.stop` between its steps. Each step is sized from the node rate
measured so far to last about :data:`STEP_SECONDS`, so a Stop (or Ctrl-C) lands within a
fraction of a second whatever the engine's speed.
"""

from __future__ import annotations

import contextlib
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from puzzlebox.cover.problem import build_deadline
from puzzlebox.engine.errors import EngineError
from puzzlebox.engine.registry import AUTO, EngineSpec
from puzzlebox.engine.search import Job, Mode, OnStep, Search, Step
from puzzlebox.engine.stats import SearchStats
from puzzlebox.errors import PuzzleboxError
from puzzlebox.formats import PuzzleFile
from puzzlebox.parallel import Interrupted, SplitRun
from puzzlebox.parallel.tasks import COUNT, SOLUTIONS
from puzzlebox.puzzles import Puzzle, Solution
from puzzlebox.reports import CountResult, SplitCountResult
from puzzlebox.run import choice
from puzzlebox.run.limits import NO_LIMIT, Limits, TimeRule, judge_split, out_of_time_building
from puzzlebox.run.progress import Meter, OnProgress, Progress

STEP_SECONDS = 0.05  # the time one step is sized to take: Stop lands within a few of them
FIRST_STEP = 1 << 14  # nodes of the first step, before any rate is measured
STOP_GRACE = 0.1  # seconds a stopped run may take to reach its next step before the stop
# is raised inside it (its setup: building the cover problem, the symmetries, a memo sweep)
LEAST_STEP = 16
MOST_STEP = 1 << 22
REFRESH_SECONDS = 0.25  # the least time between two progress events


class RunError(PuzzleboxError):
    """Options of a run that do not go together (a time limit on a split run...)."""


class BadLimit(RunError, ValueError):
    """A number of solutions to stop after that is not a positive whole number."""


class BadLimits(RunError, TypeError):
    """``limits`` that are not a :class:`Limits` (nor None)."""


def _checked(limit: int | None, limits: Limits | None) -> None:
    """Refuse, in one line, a ``limit`` that would find nothing (0, -1) and ``limits`` of
    another type (``count(limits=5)``), before any work."""
    if limit is not None and (isinstance(limit, bool) or not isinstance(limit, int)
                              or limit < 1):
        raise BadLimit(f"limit={limit!r}: the number of solutions to stop after is a whole "
                       "number from 1 (None: every solution)")
    if limits is not None and not isinstance(limits, Limits):
        raise BadLimits(f"limits={limits!r}: limits takes a puzzlebox.run.Limits (such as "
                        "Limits(time=60)) or None (no time rule), not "
                        f"{type(limits).__name__}")


class Stopped(PuzzleboxError):
    """The run was stopped (:meth:`Run.stop`: the page's Stop, a closed tab) before it ended;
    ``result`` is what a count had so far (None for a search of solutions)."""

    exit_status = 130

    def __init__(self, message: str = "stopped", result: CountResult | None = None) -> None:
        super().__init__(message)
        self.result = result


@dataclass(frozen=True)
class Split:
    """How to split a run into subproblems: ``jobs`` local processes (1: this one), or the
    Dask scheduler at ``cluster``; ``checkpoint`` a JSON file to resume from; ``depth`` a
    fixed split depth (None: about 8 subproblems per worker)."""

    jobs: int = 1
    cluster: str | None = None
    checkpoint: str | Path | None = None
    depth: int | None = None

    @property
    def asked(self) -> bool:
        return self.jobs != 1 or bool(self.cluster) or bool(self.checkpoint) or \
            self.depth is not None


class Steps:
    """Steps of a search sized by the node rate measured so far: each about
    :data:`STEP_SECONDS` (at least :data:`LEAST_STEP`, at most :data:`MOST_STEP` nodes)."""

    def __init__(self, search: Search) -> None:
        self.search = search
        self.size = FIRST_STEP
        self.taken = 0

    def __call__(self) -> Step:
        nodes = self.search.stats.nodes
        began = time.perf_counter()
        step = self.search.step(self.size)
        seconds = time.perf_counter() - began
        done = self.search.stats.nodes - nodes
        self.taken += 1
        if done > 0 and seconds > 0:
            rate = done / seconds
            self.size = round(min(MOST_STEP, max(LEAST_STEP, rate * STEP_SECONDS)))
        elif seconds > STEP_SECONDS:  # a step that reported no nodes yet took long
            self.size = max(LEAST_STEP, self.size // 2)
        return step


class Run:
    """One count or search of solutions of ``puzzle`` (``mode``: "count" or "solutions").

    ``limit``: the most solutions (None: every one); ``distinct``: one of each symmetry
    class; ``seed``: randomise the search; ``engine``: a registered engine or ``auto``;
    ``limits``: :class:`Limits` (None: no time rule, ``--no-limit``); ``split``:
    :class:`Split` (``file``, the puzzle's file, is needed: workers read its text);
    ``on_progress``: :class:`Progress` events, at most every ``every`` seconds and once at
    the end; ``on_note``: one-line notes (a long count's estimate); ``on_step``: the
    search's stats after every step; ``stop_event``: an event that stops the run when set
    (the page's, shared with its Stop button and its event stream); ``splitter``: a split
    run already made for the board's file, and the board (the command line's batch)."""

    def __init__(
        self,
        puzzle: Puzzle,
        mode: str = "count",
        *,
        limit: int | None = None,
        distinct: bool = False,
        seed: int | None = None,
        engine: str = AUTO,
        limits: Limits | None = Limits(),  # noqa: B008 (frozen: shared safely)
        split: Split | None = None,
        file: PuzzleFile | None = None,
        on_progress: OnProgress | None = None,
        on_note: Callable[[str], None] | None = None,
        on_step: OnStep | None = None,
        every: float = REFRESH_SECONDS,
        splitter: tuple[SplitRun, int] | None = None,
        stop_event: threading.Event | None = None,
    ) -> None:
        if mode not in ("count", "solutions"):
            raise ValueError(f"unknown mode {mode!r}: 'count' or 'solutions'")
        _checked(limit, limits)
        self.puzzle = puzzle
        self.mode = mode
        self.limit = limit
        self.distinct = distinct
        self.seed = seed
        self.engine = engine
        self.limits = NO_LIMIT if limits is None else limits
        self.on_progress = on_progress
        self.on_note = on_note
        self.on_step = on_step
        self.every = every
        self.label = puzzle.label
        self.stats = SearchStats()
        self.progress: Progress | None = None  # the last event
        self.reason: str | None = None  # why there is no solution, proved before search
        self.steps_after_stop = 0  # steps begun after stop() was asked (the tests read it)
        self._stop = stop_event if stop_event is not None else threading.Event()
        self._lock = threading.Lock()
        self._first = True  # the next step of a search is its first (its setup: marked)
        self._thread: threading.Thread | None = None  # the thread in the run's setup, if any
        self._interrupting = False  # Stopped has been raised in it from another thread
        self._began = time.perf_counter()
        self._last = -1e9
        choice.check(engine, mode == "count")
        self._split = splitter
        if split is not None and split.asked:
            self._split = (self._split_run(split, file), 0)

    # -- control -----------------------------------------------------------------------------
    def stop(self) -> None:
        """Ask the run to stop: it ends between two steps (:class:`Stopped`). Thread-safe:
        the page's Stop and a closed tab call it from another thread; a run still busy
        :data:`STOP_GRACE` seconds later (in its setup: building a big cover problem, its
        symmetries, a memo sweep's tables, none of which has steps) has :class:`Stopped`
        raised in its thread, at its next line of Python."""
        self._stop.set()
        with self._lock:
            busy = self._thread is not None and self._thread is not threading.current_thread()
        if busy:
            timer = threading.Timer(STOP_GRACE, self._interrupt)
            timer.daemon = True
            timer.start()

    def _interrupt(self) -> None:
        """Raise :class:`Stopped` in the run's thread while it is in its setup, and again
        every :data:`STOP_GRACE` seconds until it has left it: Python drops an exception
        raised while the thread runs a garbage collector's callback (hypothesis installs
        one), printing "Exception ignored", and the setup would go on."""
        with self._lock:
            if self._thread is None or self._thread.ident is None:
                return  # it stopped (or finished) by itself meanwhile
            import ctypes  # here: 1.8-2.4 ms of every run's start-up, for a stop that overruns

            ctypes.pythonapi.PyThreadState_SetAsyncExc(ctypes.c_ulong(self._thread.ident),
                                                       ctypes.py_object(Stopped))
            self._interrupting = True
        again = threading.Timer(STOP_GRACE, self._interrupt)
        again.daemon = True
        again.start()

    @contextlib.contextmanager
    def _working(self) -> Iterator[None]:
        """Mark the run's setup in this thread: work with no steps between which a stop is
        checked, which :meth:`stop` may interrupt. (Steps are not marked: each ends within
        about :data:`STEP_SECONDS`, and the stop is checked after it.)"""
        with self._lock:
            self._thread = threading.current_thread()
        try:
            if self._stop.is_set():
                raise Stopped(f"{self.label}: stopped")
            if self.limits.time is None:
                yield
            else:  # #28: the time limit holds while the problem and its symmetries are built
                with build_deadline(self._check_build):
                    yield
        finally:
            with self._lock:
                self._thread = None
                if self._interrupting:  # one sent and not raised yet is not raised later,
                    # outside the setup (the stop is seen at the next step all the same)
                    self._interrupting = False
                    import ctypes

                    ctypes.pythonapi.PyThreadState_SetAsyncExc(
                        ctypes.c_ulong(threading.get_ident()), None)

    def _check_build(self) -> None:
        """The time limit, looked at while a cover problem is built (cover/problem.py)."""
        seconds = self.limits.time
        if seconds is not None and time.perf_counter() - self._began > seconds:
            raise out_of_time_building(self.label, seconds)

    @property
    def stopping(self) -> bool:
        return self._stop.is_set()

    def _say(self, line: str) -> None:
        if self.on_note is not None:
            self.on_note(line)

    def _split_run(self, split: Split, file: PuzzleFile | None) -> SplitRun:
        if file is None:
            raise RunError("a split run needs the puzzle's file (file=...): workers read it")
        return split_run(file, self.mode, self.engine, split, self.limits, self._say,
                         every=not self.distinct)

    # -- the loop ---------------------------------------------------------------------------
    def _drive(self, search: Search, rule: TimeRule | None, meter: Meter,
               counted: Callable[[Step], int], distinct: Callable[[], int | None]
               ) -> Iterator[Step]:  # fmt: skip
        """Step ``search`` to its end, with the rules, the progress events and Stop between
        steps; yields each step."""
        steps = Steps(search)
        self._first = True
        solutions = 0
        try:
            while True:
                if self._stop.is_set():
                    raise Stopped(f"{self.label}: stopped after {search.stats.nodes:,} nodes")
                if self._first:  # the first step sets the engine up (tables, kernels)
                    self._first = False
                    with self._working():
                        step = steps()
                else:
                    step = steps()
                if self._stop.is_set():
                    self.steps_after_stop += 1
                solutions += counted(step)
                self.stats = search.stats
                if self.on_step is not None:
                    self.on_step(search.stats)
                if rule is not None and not step.done:
                    rule(search.stats)
                self._report(meter, search.stats, solutions, distinct(), step.done)
                yield step
                if step.done:
                    return
        finally:
            meter.close()

    def _report(self, meter: Meter, stats: SearchStats, solutions: int,
                distinct: int | None, done: bool) -> None:  # fmt: skip
        now = time.perf_counter()
        if self.on_progress is None or (not done and now - self._last < self.every):
            return
        self._last = now
        self.progress = meter.event(stats, now - self._began, solutions, distinct, done)
        self.on_progress(self.progress)

    def _proved_first(self) -> bool:
        """Whether a proof settles the puzzle before its cover problem is built: a column of
        cubes with one piece too many took 13 s of placements before the area proof (#28).
        Only the proofs that build nothing run here (``Puzzle.quick_proofs``: area and
        colouring); the rest follow the time rule's refusals. A named engine is asked first
        whether it takes the puzzle, as the command line does."""
        if self.engine != AUTO:
            return False
        self.reason = self.puzzle.impossibility(quick=True)
        return self.reason is not None

    # -- counting -----------------------------------------------------------------------------
    def count(self) -> CountResult:
        """Count every solution, raw and distinct up to symmetry."""
        if self.mode != "count":
            raise ValueError("count() is for a run in mode 'count'")
        self._began = time.perf_counter()
        if self._split is not None:
            splitter, board = self._split
            return splitter.count(board)
        puzzle = self.puzzle
        with self._working():
            if self._proved_first():  # #28: proofs that build nothing come before anything
                self._report(Meter(), SearchStats(complete=True), 0, 0, True)
                return CountResult(0, 0, time.perf_counter() - self._began, SearchStats(),
                                   self.reason)
            rule = TimeRule(puzzle, self.label, self._say, self.limits)
            rule.before(self.engine)
            spec = choice.count_engine(puzzle, self.engine, self.limits.memory)
            self.reason = puzzle.impossibility()
            if self.reason is not None:
                self._report(Meter(), SearchStats(complete=True), 0, 0, True)
                return CountResult(0, 0, time.perf_counter() - self._began, SearchStats(),
                                   self.reason)
            search = choice.count_search(puzzle, self.engine, self.limits.memory)
        raw = 0
        distinct: list[int | None] = [None]

        def counted(step: Step) -> int:
            if step.distinct is not None:
                distinct[0] = step.distinct
            return step.counted

        meter = Meter(puzzle.search_problem)
        try:
            for step in self._drive(search, rule, meter, counted,
                                    lambda: search.stats.distinct):
                raw += step.counted
        except Stopped as stop:
            stop.result = CountResult(raw, search.stats.distinct or 0,
                                      time.perf_counter() - self._began, search.stats)
            raise
        if distinct[0] is None:
            raise EngineError(f"the {spec.name} engine gave no distinct count")
        return CountResult(raw, distinct[0], time.perf_counter() - self._began, search.stats)

    # -- solutions ----------------------------------------------------------------------------
    def solutions(self) -> Iterator[Solution]:
        """The solutions, lazily (none when impossibility() proves there are none)."""
        if self.mode != "solutions":
            raise ValueError("solutions() is for a run in mode 'solutions'")
        self._began = time.perf_counter()
        if self._split is not None:
            splitter, board = self._split
            yield from splitter.solutions(board)
            return
        if choice.local_search(self.engine):
            yield from self._sink()
            return
        with self._working():
            if self._proved_first():  # #28: no placement built for an impossible puzzle
                return
        every = self.limit is None
        rule = TimeRule(self.puzzle, self.label, self._say, self.limits,
                        every=not self.distinct) if every else None
        if rule is not None:
            with self._working():
                rule.before(self.engine)
        if self.distinct:
            yield from self._distinct(rule)
            return
        puzzle = self.puzzle
        with self._working():
            job = Job(puzzle.problem, Mode.SOLUTIONS, limit=self.limit, seed=self.seed,
                      puzzle=puzzle, max_memory=self.limits.memory)
            spec = choice.solutions_spec(job, self.engine)  # a named engine says why not first
            self.reason = puzzle.impossibility()
            if self.reason is not None:
                return
            search = spec.start(job)
        meter = Meter(lambda: puzzle.problem)
        found = [0]

        def counted(step: Step) -> int:
            found[0] += len(step.solutions)
            return len(step.solutions)

        for step in self._drive(search, rule, meter, counted, lambda: None):
            for chosen in step.solutions:
                yield self._decoded(chosen)

    def _decoded(self, chosen: tuple[int, ...]) -> Solution:
        solution = self.puzzle.decode(chosen)
        object.__setattr__(solution, "puzzle", self.puzzle)  # to draw itself (notebooks)
        return solution

    def _distinct(self, rule: TimeRule | None) -> Iterator[Solution]:
        """One solution of each orbit, from the search cut down by symmetry."""
        puzzle = self.puzzle
        with self._working():
            self.reason = puzzle.impossibility()
            if self.reason is not None or (self.limit is not None and self.limit <= 0):
                return
            sb = puzzle.symmetry_breaking
            job = Job(sb.problem, Mode.SOLUTIONS, max_memory=self.limits.memory)
            search = choice.solutions_spec(job, self.engine).start(job)
        if rule is not None:  # its probe judges the search, not the symmetries built (#24)
            rule.began_cpu = time.thread_time()
        found = 0
        for step in self._drive(search, rule, Meter(lambda: sb.problem),
                                lambda s: len(s.solutions), lambda: None):
            # a step's solutions weighed together: one at a time cost 56 us each, 7.5 s of
            # Onega's 133,000 assemblies (the take-apart's whole start, #35 item 2)
            weights = sb.leader_weights(step.solutions, restricted=True)
            for chosen, weight in zip(step.solutions, weights):
                if weight:
                    yield self._decoded(sb.original(chosen))
                    found += 1
                    if self.limit is not None and found >= self.limit:
                        return

    def _sink(self) -> Iterator[Solution]:
        """The sink search's one tiling (a local search: finding none proves nothing)."""
        with self._working():  # it builds the cover problem: a second on a big board
            choice.sink_refusal(self.puzzle, self.seed)
        sink_solutions = getattr(self.puzzle, "sink_solutions")  # noqa: B009 (the kind's own)
        say = None
        if self.on_note is not None:
            def say(line: str) -> None:
                self._say(f"{self.puzzle.name}: {line}")
        with self._working():  # its setup has no steps: Stop lands inside it (STOP_GRACE)
            # its work looks at the stop every few ms, which raises Stopped (#38 item 4)
            found = list(sink_solutions(self.seed, self.stats, progress=say,
                                        stop=self._stopped))  # one at most
        yield from found

    def _stopped(self) -> bool:
        """Raise :class:`Stopped` once the run is asked to stop (a search's own loop looks)."""
        if self._stop.is_set():
            raise Stopped(f"{self.label}: stopped")
        return False

    @property
    def local_search(self) -> bool:
        """Whether this run's search is incomplete (the sink search): none found proves
        nothing."""
        return choice.local_search(self.engine)

    def already_found(self) -> int:
        """Solutions that a resumed split enumeration wrote before (for numbering)."""
        if self._split is None:
            return 0
        splitter, board = self._split
        return splitter.already_found(board)


def split_run(pf: PuzzleFile, mode: str, engine: str, split: Split, limits: Limits,
              say: Callable[[str], None], every: bool = True,
              progress: bool = False, before_record: Callable[[], None] | None = None,
              **options: Any) -> SplitRun:  # fmt: skip
    """The split run of every board of ``pf``, its engines chosen by run/choice.py and its
    plan judged by the time rule (run/limits.py: ``judge_split``) before any subproblem."""
    refused = choice.splits(engine, mode == "count")
    if refused is not None:
        raise RunError(f"{refused}: it cannot be split")
    if limits.time is not None:
        raise RunError("a time limit holds a run in one process: a split run is judged "
                       "once, on its plan (Limits(refuse=False) goes on past that)")
    enumerating = mode != "count" and every

    def judge(board: int, estimate: Any) -> None:
        puzzle = pf.puzzles[board]
        judge_split(puzzle, puzzle.label, estimate, say, limits.go_on, enumerating)

    return SplitRun(pf, "count" if mode == "count" else "solve", engine=engine,
                    jobs=split.jobs, cluster=split.cluster, checkpoint=split.checkpoint,
                    split_depth=split.depth, progress=progress, on_plan=judge,
                    before_record=before_record, choose=choice.split_spec, note=say,
                    **options)


# -- the doors of Puzzle (puzzles/base.py) ---------------------------------------------------
class Doors:
    """``Puzzle.count()``, ``solutions()``, ``solve()``: each one :class:`Run`."""

    def count(self, puzzle: Puzzle, *, engine: str = AUTO, max_memory: int | None = None,
              progress: Callable[[int, int], None] | None = None,
              on_step: OnStep | None = None, limits: Limits | None = Limits(),  # noqa: B008
              **options: Any) -> CountResult:  # fmt: skip
        limits = _with_memory(limits, max_memory)
        if progress is not None:
            on_step = _walked(progress, on_step)
        return Run(puzzle, "count", engine=engine, limits=limits, on_step=on_step,
                   **options).count()

    def solutions(self, puzzle: Puzzle, *, limit: int | None = None, engine: str = AUTO,
                  seed: int | None = None, stats: SearchStats | None = None,
                  on_step: OnStep | None = None, max_memory: int | None = None,
                  limits: Limits | None = Limits(),  # noqa: B008
                  **options: Any) -> Iterator[Solution]:  # fmt: skip
        run = Run(puzzle, "solutions", limit=limit, seed=seed, engine=engine,
                  limits=_with_memory(limits, max_memory), on_step=on_step, **options)
        return _following(run, stats)


    def split_engine(self, puzzle: Puzzle, kind: str, split: bool) -> EngineSpec:
        return choice.split_spec(puzzle, kind, split)


def _following(run: Run, stats: SearchStats | None) -> Iterator[Solution]:
    for solution in run.solutions():
        if stats is not None:
            vars(stats).update(vars(run.stats))
        yield solution
    if stats is not None:
        vars(stats).update(vars(run.stats))


def _with_memory(limits: Limits | None, max_memory: int | None) -> Limits:
    _checked(None, limits)
    limits = NO_LIMIT if limits is None else limits
    return limits if max_memory is None else replace(limits, memory=max_memory)


PROGRESS_STEPS = 10_000  # the resolution of progress(done, total) from a share walked


def _walked(progress: Callable[[int, int], None], on_step: OnStep | None) -> OnStep:
    def step(stats: SearchStats) -> None:
        if on_step is not None:
            on_step(stats)
        if stats.walked is not None:
            progress(round(stats.walked * PROGRESS_STEPS), PROGRESS_STEPS)

    return step


__all__ = ["COUNT", "SOLUTIONS", "BadLimit", "BadLimits", "Doors", "Interrupted", "Run",
           "RunError", "Split", "SplitCountResult", "Steps", "Stopped", "split_run"]
