"""The one interface every engine offers: a search that advances in steps.

A search is started for a :class:`Job` (a cover problem, what to do with it, the options
forced in and left out, and the puzzle it came from for engines that a puzzle kind
contributes) and is then driven by its caller, one :meth:`Search.step` at a time::

    search = spec.start(job)
    while True:
        step = search.step(max_nodes=100_000)
        ...                       # use step.solutions / step.counted, report search.stats
        if step.done:
            break

Everything that used to reach inside an engine is a plain loop over ``step``: node budgets
(stop calling), hedged restarts (call two searches in turns), progress displays and time
limits (look at ``search.stats`` between steps), Ctrl-C (it lands between two steps, and no
step runs for long). No callbacks, no proxies, no exceptions as control flow.

The contract of ``step(max_nodes)``:

* it runs about ``max_nodes`` nodes of the search tree at most (an engine may overshoot by
  the work of one node, and may stop earlier to hand back solutions);
* in :attr:`Mode.SOLUTIONS` it returns the solutions found during the step (each a sorted
  tuple of option numbers of ``job.problem``, forced options included), never more than
  ``job.limit`` in all; in :attr:`Mode.COUNT` it returns no solutions, only how many it
  counted (``counted``), and an engine with :attr:`Capability.DISTINCT` also says how many
  of them are distinct up to the puzzle's symmetry (``distinct``, set on the last step);
* ``done`` is True once the tree is exhausted or the limit reached; after that every step
  returns an empty, done Step. ``search.stats.complete`` tells the two apart (complete: the
  whole tree was searched, so "no more solutions" is a proof).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from enum import Enum
from typing import TYPE_CHECKING, Any, Protocol

from puzzlebox.engine.stats import SearchStats

if TYPE_CHECKING:
    from puzzlebox.cover.problem import CoverProblem

Subproblem = tuple[tuple[int, ...], tuple[int, ...]]  # (forced, excluded), both sorted
Solution = tuple[int, ...]  # sorted option numbers

DEFAULT_STEP_NODES = 1 << 16  # nodes per step when the caller has no reason to choose
FIRST_STEP_NODES = 1 << 12  # count_all's first step: about a millisecond


class Mode(Enum):
    """What a search is for."""

    SOLUTIONS = "solutions"  # hand back every solution found, up to the job's limit
    COUNT = "count"  # count them without building them


class Capability(Enum):
    """What an engine can do; the registry lists each engine's set."""

    SOLVE = "solve"  # finds solutions (Mode.SOLUTIONS)
    COUNT = "count"  # counts solutions as placed (Mode.COUNT)
    DISTINCT = "distinct"  # counts distinct solutions itself, by the puzzle's symmetry
    SPLIT = "split"  # cuts its own tree into subproblems (a frontier at a depth)
    PROBE = "probe"  # random root-to-leaf probes of its own tree (Knuth's estimate)
    PROVE = "prove"  # an exhausted search proves there are no (more) solutions


@dataclass(frozen=True)
class Job:
    """What to search: the solutions of ``problem`` that hold every ``forced`` option and no
    ``excluded`` one. ``puzzle`` is the puzzle the problem was built from (engines that a
    puzzle kind contributes read it; the general engines never look at it)."""

    problem: CoverProblem
    mode: Mode = Mode.SOLUTIONS
    forced: tuple[int, ...] = ()
    excluded: tuple[int, ...] = ()
    limit: int | None = None
    seed: int | None = None
    puzzle: Any = None
    max_memory: int | None = None  # bytes an engine that memoises may hold (memo)


@dataclass
class Step:
    """What one step found."""

    solutions: list[Solution] = field(default_factory=list)
    counted: int = 0  # solutions found or counted during this step
    done: bool = False
    distinct: int | None = None  # Capability.DISTINCT engines, on their last step


class Search(Protocol):
    """A search in progress: advance it with :meth:`step`, read :attr:`stats` between steps
    (nodes and solutions so far, ``walked`` where the engine can tell, ``complete``)."""

    stats: SearchStats

    def step(self, max_nodes: int) -> Step: ...


OnStep = Callable[[SearchStats], None]


def each_solution(
    search: Search, max_nodes: int = DEFAULT_STEP_NODES, on_step: OnStep | None = None
) -> Iterator[Solution]:
    """The solutions of a search, lazily; ``on_step`` sees the stats after every step."""
    while True:
        step = search.step(max_nodes)
        if on_step is not None:
            on_step(search.stats)
        yield from step.solutions
        if step.done:
            return


def count_all(
    search: Search, max_nodes: int = DEFAULT_STEP_NODES, on_step: OnStep | None = None
) -> tuple[int, int | None]:
    """Run a counting search to the end: ``(solutions, distinct or None)``. The steps
    start at :data:`FIRST_STEP_NODES` and double up to ``max_nodes``, so that ``on_step``
    looks early (a split count tries the whole count for 16,384 nodes before it is split,
    parallel/run.py ``TRY_NODES``; with steps of 65,536 it searched four times that)."""
    total = 0
    distinct: int | None = None
    nodes = min(FIRST_STEP_NODES, max_nodes)
    while True:
        step = search.step(nodes)
        nodes = min(2 * nodes, max_nodes)
        total += step.counted
        if step.distinct is not None:
            distinct = step.distinct
        if on_step is not None:
            on_step(search.stats)
        if step.done:
            return total, distinct


class Chain:
    """Searches run one after the other while none has found a solution: an incomplete
    search (a local search) first, a complete one after it. Each is started only when its
    turn comes; the stats are those of the search running."""

    def __init__(self, starts: list[Callable[[], Search]]) -> None:
        self._starts = list(starts)
        self._current = self._starts.pop(0)()
        self.stats = self._current.stats
        self._found = 0

    def step(self, max_nodes: int) -> Step:
        step = self._current.step(max_nodes)
        self._found += step.counted
        if step.done and not self._found and self._starts:
            self._current = self._starts.pop(0)()
            self.stats = self._current.stats
            return Step(done=False)
        self.stats = self._current.stats
        return step


class Race:
    """Searches of the same job run in turns, each turn to the one that has used the least
    CPU time so far, until one of them finds a solution or proves there is none: it then
    runs alone (the others are dropped, so no solution comes twice). Whatever the race is
    won by, it costs about as many times the winner's time as there are runners."""

    def __init__(self, starts: list[Callable[[], Search]]) -> None:
        self._starts = list(starts)
        self._runners: list[Search | None] = [None] * len(starts)
        self._cpu = [0.0] * len(starts)
        self._winner: Search | None = None
        self.stats = SearchStats()

    def step(self, max_nodes: int) -> Step:
        if self._winner is not None:
            step = self._winner.step(max_nodes)
            self.stats = self._winner.stats
            return step
        k = min(range(len(self._cpu)), key=lambda i: self._cpu[i])
        began = time.process_time()
        runner = self._runners[k]
        if runner is None:
            runner = self._runners[k] = self._starts[k]()
        step = runner.step(max_nodes)
        self._cpu[k] += time.process_time() - began
        self.stats = runner.stats
        if step.solutions or step.counted or step.done:
            self._winner = runner
            self._runners = []
        return step
