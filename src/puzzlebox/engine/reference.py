"""The reference engine: plain Python, simple enough to be obviously right.

It decides options one at a time, each either in or out of the solution, so every set of
options is reached by exactly one path and no solution can be found twice. To keep the tree
small it branches on the primary item that still needs cover and has the fewest options left
(minimum remaining values), trying that item's options in order and excluding each one from
the branches after it, which is the same tree dancing links walks.

It is the oracle that the compiled engine and the fast paths are tested against.
"""

from __future__ import annotations

from collections.abc import Iterator

from puzzlebox.cover.problem import FREE, apply_option, option_fits
from puzzlebox.engine.search import Job, Mode, Step
from puzzlebox.engine.stats import SearchStats


class ReferenceSearch:
    """The reference engine's step-wise search (engine/search.py): the recursive walk below
    runs as a generator that pauses at every node, so a step stops after ``max_nodes``."""

    def __init__(self, job: Job) -> None:
        self.job = job
        p = self.problem = job.problem
        self.forced = tuple(sorted(set(job.forced)))
        self.excluded = frozenset(job.excluded)
        self.stats = SearchStats(engine="reference")
        self._options = [p.option(k) for k in range(p.n_options)]
        self._lo = p.lo.tolist()
        self._hi = p.hi.tolist()
        self._limit = job.limit
        self._found = 0
        self._walk = self._start()
        self._done = self._limit is not None and self._limit <= 0
        # the current partial solution, read between steps by trace(): the options on the
        # search's stack and, for each, the item its level branched on
        self._chosen: list[int] = []
        self._items: list[int | None] = []

    def trace(self) -> list[tuple[int | None, int]]:
        """The search's current path, root first: one ``(item, option)`` pair per level, the
        option placed there and the primary item that level branched on (None for a forced
        option, or where every bound was already met). Read between two steps, for example
        after ``step(1)``, it is what a "watch the search" display draws: a longer path
        placed a piece, a shorter or changed one undid a dead end."""
        return list(zip(self._items, self._chosen))

    def step(self, max_nodes: int) -> Step:
        if self._done:
            return Step(done=True)
        solutions: list[tuple[int, ...]] = []
        stop = self.stats.nodes + max(1, max_nodes)
        for found in self._walk:
            if found is not None:
                self._found += 1
                self.stats.solutions = self._found
                solutions.append(found)
                if self._limit is not None and self._found >= self._limit:
                    self._done = True
                    break
            if self.stats.nodes >= stop:
                break
        else:
            self._done = self.stats.complete = True
        counted = len(solutions)
        if self.job.mode is Mode.COUNT:
            solutions = []
        return Step(solutions=solutions, counted=counted, done=self._done)

    def _start(self) -> Iterator[tuple[int, ...] | None]:
        p = self.problem
        counts = [0] * p.n_primary
        sec_color = [FREE] * (p.n_items - p.n_primary)
        chosen = self._chosen
        for k in self.forced:
            if k in self.excluded or not self._fits(k, counts, sec_color):
                return  # the forced options contradict each other: no solution
            apply_option(self._options[k], p.n_primary, counts, sec_color)
            chosen.append(k)
            self._items.append(None)
        alive = [
            k
            for k in range(p.n_options)
            if k not in self.excluded and k not in chosen and self._fits(k, counts, sec_color)
        ]
        yield from self._search(chosen, alive, counts, sec_color)

    def _fits(self, k: int, counts: list[int], sec_color: list[int]) -> bool:
        return option_fits(self._options[k], self.problem.n_primary, self._hi, counts, sec_color)

    def _search(
        self, chosen: list[int], alive: list[int], counts: list[int], sec_color: list[int]
    ) -> Iterator[tuple[int, ...] | None]:
        """Yields None at each node (so that a step can stop there) and each solution."""
        self.stats.nodes += 1
        yield None
        n_primary = self.problem.n_primary
        options_of: dict[int, list[int]] = {
            i: [] for i in range(n_primary) if counts[i] < self._lo[i]
        }
        for k in alive:
            for item, _ in self._options[k]:
                if item in options_of:
                    options_of[item].append(k)
        branching: int | None = None  # the item this node branches on (trace() shows it)
        if options_of:
            branching = min(options_of, key=lambda i: (len(options_of[i]), i))
            branches = options_of[branching]
            if not branches:
                return  # an item that needs more cover has no option left
        else:
            # every bound is met: this set is a solution, and so may be any superset of it
            yield tuple(sorted(chosen))
            branches = list(alive)

        excluded: set[int] = set()
        for k in branches:
            # include k; the options tried before it at this node are out of this branch
            apply_option(self._options[k], n_primary, counts, sec_color)
            chosen.append(k)
            self._items.append(branching)
            rest = [
                j
                for j in alive
                if j != k and j not in excluded and self._fits(j, counts, sec_color)
            ]
            yield from self._search(chosen, rest, counts, sec_color)
            chosen.pop()
            self._items.pop()
            for it, _ in self._options[k]:
                if it < n_primary:
                    counts[it] -= 1
            self._restore_secondary(chosen, sec_color)
            excluded.add(k)

    def _restore_secondary(self, chosen: list[int], sec_color: list[int]) -> None:
        """Recompute secondary colours from the options still chosen (simple, obviously right)."""
        n_primary = self.problem.n_primary
        for s in range(len(sec_color)):
            sec_color[s] = FREE
        for k in chosen:
            for it, color in self._options[k]:
                if it >= n_primary:
                    sec_color[it - n_primary] = color


def start(job: Job) -> ReferenceSearch:
    """The reference engine's search of ``job`` (the registry's ``start``)."""
    return ReferenceSearch(job)
