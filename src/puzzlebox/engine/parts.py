"""A count made of several searches, run as one step-wise search.

Counting distinct solutions by symmetry breaking (cover/symmetry.py) cuts the problem into
parts (:class:`CountPart`): some are counted, each solution standing for ``order`` raw
solutions and one distinct; the others are enumerated and each solution weighed on its own
orbit. :class:`PartsCount` runs them one after the other with the engine chosen for each,
summing nodes and solutions in its stats, so a progress display, a time limit or a node
budget sees one search. Which engine runs a part is the registry's rule (``choose_part``).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterator, Sequence
from typing import Any

from puzzlebox.cover.problem import CoverProblem
from puzzlebox.cover.symmetry import CountPart, SymmetryBreaking
from puzzlebox.engine import registry  # a cycle: registry imports this module (resolved: only

# registry's functions are used here, at call time)
from puzzlebox.engine.search import (
    Job,
    Mode,
    OnStep,
    Search,
    Solution,
    Step,
    each_solution,
)
from puzzlebox.engine.stats import SearchStats

# the raw weights of a step's solutions, one each; 0: the solution stands for nothing
Weigh = Callable[[Sequence[Solution]], Sequence[int]]


class PartsCount:
    """Raw and distinct counts of ``problem`` over ``parts``, step-wise (engine/search.py):
    ``counted`` of each step is raw solutions, ``distinct`` comes with the last step.

    ``engine`` names the engine of every part (``auto``: the registry chooses for each)."""

    def __init__(
        self,
        problem: CoverProblem,
        parts: Sequence[CountPart],
        order: int,
        weigh: Weigh,
        engine: str = "auto",
        puzzle: Any = None,
        max_memory: int | None = None,
    ) -> None:
        self.max_memory = max_memory  # each part's engine is held to it (engine/memory.py)
        self.problem = problem
        self.parts = list(parts)
        self.order = order
        self.weigh = weigh
        self.engine = engine
        self.puzzle = puzzle
        self.raw = 0
        self.distinct = 0
        self.stats = SearchStats(complete=True)
        self._index = 0
        self._current: Search | None = None
        self._finished = SearchStats(complete=True)  # the parts done, summed

    def _start(self, part: CountPart) -> Search:
        mode = Mode.SOLUTIONS if part.weighed else Mode.COUNT
        job = Job(self.problem, mode, part.forced, part.excluded, puzzle=self.puzzle,
                  max_memory=self.max_memory)  # fmt: skip
        spec = (registry.choose_part(job) if self.engine == registry.AUTO
                else registry.resolve(job, self.engine))
        if not self.stats.engine:
            self.stats.engine = spec.name
        return spec.start(job)

    def step(self, max_nodes: int) -> Step:
        if self._index >= len(self.parts):
            return self._end()
        part = self.parts[self._index]
        if self._current is None:
            self._current = self._start(part)
        search = self._current
        step = search.step(max_nodes)
        raw_before = self.raw
        if part.weighed:
            if step.solutions:  # weighed together, per step (cover/symmetry.py)
                weights = self.weigh(step.solutions)
                self.raw += int(sum(weights))
                self.distinct += sum(1 for w in weights if w > 0)
        else:
            self.raw += self.order * step.counted
            self.distinct += step.counted
        self._sum(search.stats)
        if step.done:
            _add(self._finished, search.stats)
            self._index += 1
            self._current = None
            if self._index >= len(self.parts):
                end = self._end()
                return Step(counted=self.raw - raw_before, done=True, distinct=end.distinct)
        return Step(counted=self.raw - raw_before)

    def _sum(self, current: SearchStats | None) -> None:
        total = SearchStats(engine=self.stats.engine, complete=self._finished.complete)
        _add(total, self._finished)
        if current is not None:
            _add(total, current)
            total.complete = False
            # the share walked of the first search says something; of a later one, nothing
            total.walked = current.walked if self._index == 0 else None
        total.raw, total.distinct = self.raw, self.distinct
        self.stats = total

    def _end(self) -> Step:
        self._sum(None)
        self.stats.complete = self._finished.complete
        return Step(done=True, distinct=self.distinct)


def _add(total: SearchStats, part: SearchStats) -> None:
    total.engine = total.engine or part.engine
    total.nodes += part.nodes
    total.solutions += part.solutions
    total.compile_seconds += part.compile_seconds
    total.search_seconds += part.search_seconds
    total.complete = total.complete and part.complete


def count_parts(
    sb: SymmetryBreaking,
    engine: str = "auto",
    forced: Sequence[int] = (),
    excluded: Sequence[int] = (),
    puzzle: Any = None,
    max_memory: int | None = None,
) -> PartsCount:
    """The raw and distinct count of a problem cut down by symmetry, as one step-wise
    search over its parts; ``forced``/``excluded`` are options of the restricted problem
    (a split search's unit), ``puzzle`` goes into each part's job."""
    return PartsCount(
        sb.problem,
        sb.parts(forced, excluded),
        sb.order,
        lambda found: sb.leader_weights(found, restricted=True),
        engine,
        puzzle,
        max_memory,
    )


def count_puzzle_search(
    puzzle: Any, engine: str | None, forced: Sequence[int] = (), excluded: Sequence[int] = (),
    max_memory: int | None = None,
) -> PartsCount:
    """The count of ``puzzle`` by its symmetry breaking's parts (cover/symmetry.py), each
    part's engine within ``max_memory`` bytes (engine/memory.py)."""
    return count_parts(puzzle.symmetry_breaking, engine or "auto", forced, excluded, puzzle,
                       max_memory)  # fmt: skip


def representatives(
    sb: SymmetryBreaking,
    engine: str = "auto",
    limit: int | None = None,
    stats: SearchStats | None = None,
    on_step: OnStep | None = None,
) -> Iterator[Solution]:
    """One solution of each orbit (options of the unrestricted problem), lazily, from the
    search of the restricted problem; ``stats``, when given, follows the search at each
    solution and at the end; ``on_step`` hears it after every step."""
    if limit is not None and limit <= 0:
        return
    found = 0
    _, search = registry.start(Job(sb.problem), engine)
    for chosen in each_solution(search, on_step=on_step):
        solution = sb.original(chosen)
        if sb.leader_weight(solution):
            if stats is not None:
                _copy(stats, search.stats)
            yield solution
            found += 1
            if limit is not None and found >= limit:
                return
    if stats is not None:
        _copy(stats, search.stats)


def _copy(target: SearchStats, source: SearchStats) -> None:
    for f in dataclasses.fields(SearchStats):
        setattr(target, f.name, getattr(source, f.name))
