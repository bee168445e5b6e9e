"""Search engines for cover problems: find one, enumerate lazily, count, with statistics.

Every engine takes a :class:`~puzzlebox.cover.CoverProblem` and offers
``solutions(limit=None)`` (a generator of sorted option-index tuples), ``count()`` and a
``stats`` attribute. :func:`make_engine` picks one by name.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from typing import Protocol

from puzzlebox.cover.problem import CoverProblem
from puzzlebox.engine.reference import ReferenceEngine
from puzzlebox.engine.stats import SearchStats


class Engine(Protocol):
    name: str
    stats: SearchStats

    def solutions(self, limit: int | None = None) -> Iterator[tuple[int, ...]]: ...

    def count(self) -> int: ...


ENGINES: dict[str, Callable[..., Engine]] = {"reference": ReferenceEngine}
DEFAULT_ENGINE = "reference"


def make_engine(
    problem: CoverProblem,
    engine: str = "auto",
    forced: Sequence[int] = (),
    excluded: Sequence[int] = (),
) -> Engine:
    """Build the named engine for ``problem`` ("auto" means the fastest general one).

    ``forced`` options are in every solution and ``excluded`` ones in none: this is how a
    search is split into independent subproblems.
    """
    name = DEFAULT_ENGINE if engine == "auto" else engine
    try:
        factory = ENGINES[name]
    except KeyError:
        known = ", ".join(sorted(ENGINES))
        raise ValueError(f"unknown engine {engine!r} (known: auto, {known})") from None
    return factory(problem, forced=forced, excluded=excluded)


__all__ = ["ENGINES", "Engine", "ReferenceEngine", "SearchStats", "make_engine"]
