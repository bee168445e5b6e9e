"""Search engines for cover problems: find one, enumerate lazily, count, with statistics.

Every engine takes a :class:`~puzzlebox.cover.CoverProblem` and offers
``solutions(limit=None)`` (a generator of sorted option-index tuples), ``count()`` and a
``stats`` attribute. :func:`make_engine` picks one by name.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Protocol

from puzzlebox.cover.problem import CoverProblem
from puzzlebox.engine.reference import ReferenceEngine
from puzzlebox.engine.stats import SearchStats


class Engine(Protocol):
    name: str
    stats: SearchStats

    def solutions(self, limit: int | None = None) -> Iterator[tuple[int, ...]]: ...

    def count(self) -> int: ...


ENGINES: dict[str, Callable[[CoverProblem], Engine]] = {"reference": ReferenceEngine}
DEFAULT_ENGINE = "reference"


def make_engine(problem: CoverProblem, engine: str = "auto") -> Engine:
    """Build the named engine for ``problem`` ("auto" means the fastest general one)."""
    name = DEFAULT_ENGINE if engine == "auto" else engine
    try:
        factory = ENGINES[name]
    except KeyError:
        known = ", ".join(sorted(ENGINES))
        raise ValueError(f"unknown engine {engine!r} (known: auto, {known})") from None
    return factory(problem)


__all__ = ["ENGINES", "Engine", "ReferenceEngine", "SearchStats", "make_engine"]
