"""Watching searches while they run: nodes and solutions so far, for a progress display.

An engine that can report takes a ``progress`` callback on ``count()`` and ``solutions()``
(the compiled engine calls it after each slice of its node budget). Rather than thread a
callback through every layer between the command line and the engine (symmetry breaking
alone runs several searches for one count), :func:`watching` installs a listener, and
:func:`puzzlebox.engine.make_engine` wraps each engine it builds while one is installed, so
that every search started inside the ``with`` block is summed into one :class:`Watch`.
Engines without a ``progress`` argument are still watched: after each solution, and at the end.
"""

from __future__ import annotations

import inspect
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Any

from puzzlebox.engine.stats import SearchStats

Progress = Callable[[SearchStats], None]

REPORT_SECONDS = 0.1  # how often a watched engine with a node budget should report


class Watch:
    """Nodes and solutions of every search run while watching, finished ones and the current."""

    def __init__(self, report: Callable[[Watch], None]) -> None:
        self._report = report
        self.finished_nodes = 0
        self.finished_solutions = 0
        self.searches = 0
        self.engines: set[str] = set()  # the engines that reported
        self._current: SearchStats | None = None

    @property
    def nodes(self) -> int:
        return self.finished_nodes + (self._current.nodes if self._current else 0)

    @property
    def solutions(self) -> int:
        return self.finished_solutions + (self._current.solutions if self._current else 0)

    @property
    def walked(self) -> float | None:
        """The share of the tree walked, while the first search is running and its engine
        can tell (the share of one search says nothing about a sequence of them)."""
        if self.searches or self._current is None:
            return None
        return self._current.walked

    def update(self, stats: SearchStats) -> None:
        """A running search says where it is."""
        self._current = stats
        self.engines.add(stats.engine)
        self._report(self)

    def finish(self, stats: SearchStats) -> None:
        """A search is over; its totals join the finished ones."""
        self.engines.add(stats.engine)
        self.finished_nodes += stats.nodes
        self.finished_solutions += stats.solutions
        self.searches += 1
        self._current = None
        self._report(self)


def share_walked(branches: Sequence[int], finished: Sequence[int]) -> float:
    """The share of a tree searched, read off the current path as Knuth's DLX programs
    report progress: the node at depth ``f`` has ``branches[f]`` subtrees, each counted as an
    equal share of it, of which ``finished[f]`` are searched; the shares behind the path add
    up to a fraction that only grows and is exact when the tree is uniform."""
    walked = 0.0
    share = 1.0
    for n, done in zip(branches, finished, strict=True):
        if n <= 0:
            break
        walked += share * min(max(done, 0), n) / n
        share /= n
    return min(walked, 1.0)


_WATCH: ContextVar[Watch | None] = ContextVar("puzzlebox_watch", default=None)


@contextmanager
def watching(report: Callable[[Watch], None]) -> Iterator[Watch]:
    """Sum every search started in the block into one :class:`Watch`; ``report`` is called
    with it whenever a search reports (often: keep it cheap)."""
    watch = Watch(report)
    token = _WATCH.set(watch)
    try:
        yield watch
    finally:
        _WATCH.reset(token)


def _takes_progress(method: Callable[..., Any]) -> bool:
    try:
        return "progress" in inspect.signature(method).parameters
    except (TypeError, ValueError):
        return False


class _Watched:
    """An engine whose searches report to a :class:`Watch`; everything else passes through."""

    def __init__(self, engine: Any, watch: Watch) -> None:
        self._engine = engine
        self._watch = watch
        self._last = time.perf_counter()
        if hasattr(engine, "node_budget"):  # report soon, then about every REPORT_SECONDS
            engine.node_budget = min(engine.node_budget, 1 << 14)

    def _report(self, stats: SearchStats) -> None:
        """Pass a report on, and size the engine's slices of work so that reports come about
        every REPORT_SECONDS whatever the speed."""
        now = time.perf_counter()
        budget = getattr(self._engine, "node_budget", None)
        if budget is not None and now > self._last:
            scaled = budget * REPORT_SECONDS / (now - self._last)
            self._engine.node_budget = int(min(max(scaled, 1 << 10), 1 << 22))
        self._last = now
        self._watch.update(stats)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._engine, name)

    def count(self) -> int:
        engine = self._engine
        if _takes_progress(engine.count):
            found = engine.count(progress=self._report)
        else:
            found = engine.count()
        self._watch.finish(engine.stats)
        return found

    def solutions(self, limit: int | None = None) -> Iterator[tuple[int, ...]]:
        engine = self._engine
        reports = _takes_progress(engine.solutions)
        found = (
            engine.solutions(limit, progress=self._report)
            if reports
            else engine.solutions(limit)
        )
        try:
            for solution in found:
                if not reports:
                    self._watch.update(engine.stats)
                yield solution
        finally:
            self._watch.finish(engine.stats)


def watched(engine: Any) -> Any:
    """``engine`` itself, or wrapped to report to the watch installed by :func:`watching`."""
    watch = _WATCH.get()
    return engine if watch is None else _Watched(engine, watch)
