"""The unit of work a worker runs, as plain data, and the worker side that runs it.

A task carries the puzzle's file text (never a pickled puzzle: a worker rebuilds the puzzle
by reading the text, exactly as the command line does, and keeps it for the next task), the
board, the engine that cut the subproblem (never "auto": the worker runs the very engine the
client split with), one subproblem and the fingerprint of the problem the client split. A
worker whose rebuilt problem has another fingerprint (another version of puzzlebox, a file
changed on the way) refuses the task instead of counting something else. A local run's
tasks carry none (:data:`LOCAL`): its workers run this installation.
"""

from __future__ import annotations

import contextlib
import json
import os
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from puzzlebox.cover.problem import CoverProblem
from puzzlebox.cover.symmetry import perms_bytes
from puzzlebox.engine import SearchStats, registry
from puzzlebox.engine.registry import EngineSpec
from puzzlebox.engine.search import Capability, Job, Mode, count_all, each_solution
from puzzlebox.formats import PuzzleFile
from puzzlebox.formats.reader import read_text
from puzzlebox.puzzles import Puzzle

COUNT = "count"
SOLUTIONS = "solutions"


@dataclass(frozen=True)
class PuzzleSource:
    """The text of a puzzle file and the names it was read under: what workers rebuild from."""

    text: str
    source: str  # the path, as errors name it
    name: str  # the puzzle's name (the catalog name or the file's stem)

    @classmethod
    def of(cls, pf: PuzzleFile) -> PuzzleSource:
        """The source of a file already read (catalog entries and user files alike)."""
        text = Path(pf.source).read_bytes().decode("utf-8")
        return cls(text, pf.source, pf.name)

    def read(self) -> PuzzleFile:
        return read_text(self.text, self.source, self.name)

    @property
    def digest(self) -> str:
        import hashlib  # here: 2.6-4.0 ms of every search's start-up, for a split run alone

        return hashlib.sha256(self.text.encode("utf-8")).hexdigest()


STEP_NODES = 1 << 22  # nodes per step of a task's search: a few ms, Ctrl-C stays prompt


def task_problem(puzzle: Puzzle, kind: str, spec: EngineSpec | None = None) -> CoverProblem:
    """The problem a task of this kind searches: an enumeration, and a count by an engine
    that counts distinct solutions itself (``Capability.DISTINCT``), search the puzzle's
    whole problem; other counts search the problem cut down by symmetry
    (``search_problem``). Subproblems are option numbers of this problem."""
    if kind == COUNT and (spec is None or not spec.does(Capability.DISTINCT)):
        return puzzle.search_problem()
    return puzzle.problem


def task_job(
    puzzle: Puzzle,
    kind: str,
    spec: EngineSpec,
    forced: tuple[int, ...] = (),
    excluded: tuple[int, ...] = (),
) -> Job:
    """The job a task runs (and that the client cuts into subproblems)."""
    mode = Mode.COUNT if kind == COUNT else Mode.SOLUTIONS
    return Job(task_problem(puzzle, kind, spec), mode, tuple(forced), tuple(excluded),
               puzzle=puzzle)


def problem_fingerprint(puzzle: Puzzle, kind: str = COUNT, spec: EngineSpec | None = None) -> str:
    """A hash of what the answer depends on: the problem searched (which depends on whether
    the engine counts distinct solutions itself, see :func:`task_problem`), what its options
    mean and the puzzle's symmetries; not the file's comments or title."""
    import hashlib  # (as in PuzzleSource.digest)

    problem = task_problem(puzzle, kind, spec)
    h = hashlib.sha256()
    head = {
        "task": kind,
        "kind": puzzle.kind,
        "board": getattr(puzzle, "board_name", None),
        "n_primary": problem.n_primary,
        "n_items": problem.n_items,
        "symmetries": hashlib.sha256(perms_bytes(puzzle.symmetries)).hexdigest(),
    }
    h.update(json.dumps(head, sort_keys=True).encode())
    for array in (problem.lo, problem.hi, problem.start, problem.items, problem.colors):
        h.update(array.astype("<i8").tobytes())
        h.update(b"|")
    h.update(repr(problem.labels).encode())
    return h.hexdigest()


class Cancelled(Exception):
    """A task stopped between two steps of its search: its answer came from elsewhere."""


_watch = threading.local()


@contextlib.contextmanager
def stoppable(
    event: threading.Event, on_step: Callable[[SearchStats], None] | None = None
) -> Iterator[None]:
    """The task this thread runs inside the block stops (raises :class:`Cancelled`) at the
    end of the step of its search during which ``event`` is set: this process drops its copy
    of a subproblem that a worker answered first (parallel/backends.py). ``on_step`` sees
    the search's stats after every step (and may raise to stop it).

    They are this process's: a worker forked inside the block (the count tried whole starts
    its workers from its ``on_step``) inherits this thread's watch, and ran the count's time
    rule on every subproblem it counted, a second estimate of the whole tree (0.13-0.18 s of
    a worker's CPU on tetrasticks-6x6, #38 item 6) and its note said twice."""
    _watch.event, _watch.on_step, _watch.pid = event, on_step, os.getpid()
    try:
        yield
    finally:
        _watch.event, _watch.on_step, _watch.pid = None, None, None


def _check(stats: SearchStats) -> None:
    if getattr(_watch, "pid", None) != os.getpid():
        return  # no watch, or the one of the process this worker was forked from
    on_step = getattr(_watch, "on_step", None)
    if on_step is not None:
        on_step(stats)
    event = getattr(_watch, "event", None)
    if event is not None and event.is_set():
        raise Cancelled


# (kind, source, board index, engine, forced, excluded, fingerprint)
Task = tuple[str, PuzzleSource, int, str, tuple[int, ...], tuple[int, ...], str]
# the fingerprint of a local run's tasks: none to check (its workers are this installation,
# forked ones this very process: parallel/run.py)
LOCAL = ""

_CACHE: dict[tuple[str, str, str], tuple[PuzzleFile, dict[tuple[int, str], str]]] = {}
_CACHE_SIZE = 4
# puzzle files this process read for its tasks, and boards' problems it fingerprinted: a
# worker does each at most once a puzzle, and a worker forked from the client never (it has
# the client's, remember()); the tests count them
BUILT = {"read": 0, "fingerprinted": 0}


class FingerprintMismatch(RuntimeError):
    """A worker built a different problem from the same file than the client did."""


def _view(kind: str, spec: EngineSpec) -> str:
    return f"{kind}:{spec.does(Capability.DISTINCT)}"


def remember(source: PuzzleSource, pf: PuzzleFile, kind: str, specs: list[EngineSpec],
             fingerprints: list[str]) -> None:
    """Hand this process's tasks the file the client read from ``source`` and the boards'
    fingerprints it made: its own share of a split run then does not read and build every
    board again (0.1-0.3 s of CPU for the bigger catalog puzzles)."""
    key = (source.digest, source.source, source.name)
    if key not in _CACHE:
        if len(_CACHE) >= _CACHE_SIZE:
            _CACHE.pop(next(iter(_CACHE)))
        _CACHE[key] = (pf, {})
    cached, checked = _CACHE[key]
    if cached is pf:
        for board, (spec, fingerprint) in enumerate(zip(specs, fingerprints)):
            if fingerprint != LOCAL:
                checked[board, _view(kind, spec)] = fingerprint


def _puzzle(
    source: PuzzleSource, board: int, kind: str, spec: EngineSpec, fingerprint: str
) -> Puzzle:
    key = (source.digest, source.source, source.name)
    if key not in _CACHE:
        if len(_CACHE) >= _CACHE_SIZE:
            _CACHE.pop(next(iter(_CACHE)))
        _CACHE[key] = (source.read(), {})
        BUILT["read"] += 1
    pf, checked = _CACHE[key]
    puzzle = pf.puzzles[board]
    if fingerprint == LOCAL:
        return puzzle
    view = _view(kind, spec)
    if (board, view) not in checked:
        checked[board, view] = problem_fingerprint(puzzle, kind, spec)
        BUILT["fingerprinted"] += 1
    if checked[board, view] != fingerprint:
        raise FingerprintMismatch(
            f"{source.source}: this worker builds another problem from the file than the "
            "client (is the same puzzlebox version installed everywhere?)"
        )
    return puzzle


def count_subproblem(
    puzzle: Puzzle, spec: EngineSpec, forced: tuple[int, ...], excluded: tuple[int, ...]
) -> tuple[int, int, int]:
    """``(solutions, distinct, nodes)`` of one subproblem, on ``spec``'s engine.

    An engine that counts distinct solutions itself runs its own search (the queens bitmask:
    the leaders of the orbits in the subproblem); another one counts the problem cut down by
    symmetry, each solution weighed on its orbit (cover/symmetry.py), which adds up over any
    partition of it."""
    if spec.does(Capability.DISTINCT):
        search = spec.start(task_job(puzzle, COUNT, spec, forced, excluded))
        raw, distinct = count_all(search, STEP_NODES, on_step=_check)
        if distinct is None:
            raise RuntimeError(f"engine {spec.name} gave no distinct count for a subproblem")
        return raw, distinct, search.stats.nodes
    raw, distinct, stats = puzzle.count_search(spec.name, forced, excluded, on_step=_check)
    return raw, distinct, stats.nodes


def worker_name() -> str:
    """Which worker ran a task: the process, and the thread (this process's own share runs
    on a thread of its own)."""
    return f"{os.getpid()}/{threading.current_thread().name}"


def run_task(task: Task) -> tuple[Any, ...]:
    """Solve one subproblem on the engine named in the task. A count returns
    ``(raw, distinct, nodes, seconds, engine, cpu, worker)``; an enumeration returns
    ``(raw, solutions, nodes, seconds, engine, cpu, worker)`` with each solution a sorted
    tuple of option numbers for the client to decode. ``cpu`` is the CPU seconds of the
    thread that ran the task, ``worker`` names it (:func:`worker_name`)."""
    kind, source, board, engine, forced, excluded, fingerprint = task
    spec = registry.get(engine)
    puzzle = _puzzle(source, board, kind, spec, fingerprint)
    began = time.perf_counter()
    cpu = time.thread_time()
    if kind == COUNT:
        raw, distinct, nodes = count_subproblem(puzzle, spec, tuple(forced), tuple(excluded))
        return (raw, distinct, nodes, time.perf_counter() - began, spec.name,
                time.thread_time() - cpu, worker_name())
    if kind == SOLUTIONS:
        search = spec.start(task_job(puzzle, SOLUTIONS, spec, forced, excluded))
        found = list(each_solution(search, STEP_NODES, on_step=_check))
        return (len(found), found, search.stats.nodes, time.perf_counter() - began, spec.name,
                time.thread_time() - cpu, worker_name())
    raise ValueError(f"unknown task kind {kind!r}")
