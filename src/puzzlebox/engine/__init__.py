"""Search engines for cover problems: find one, enumerate lazily, count, with statistics.

Every engine takes a :class:`~puzzlebox.cover.CoverProblem` and offers
``solutions(limit=None)`` (a generator of sorted option-index tuples), ``count()`` and a
``stats`` attribute. :func:`make_engine` picks one by name.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from typing import Protocol

from puzzlebox.cover.problem import CoverProblem
from puzzlebox.engine.bitboard import BitboardEngine, ineligible
from puzzlebox.engine.compiled import CompiledEngine
from puzzlebox.engine.progress import watched
from puzzlebox.engine.reference import ReferenceEngine
from puzzlebox.engine.sat import SatEngine
from puzzlebox.engine.stats import SearchStats


class Engine(Protocol):
    name: str
    stats: SearchStats

    def solutions(self, limit: int | None = None) -> Iterator[tuple[int, ...]]: ...

    def count(self) -> int: ...


ENGINES: dict[str, Callable[..., Engine]] = {
    "reference": ReferenceEngine,
    "compiled": CompiledEngine,  # the general engine (engine/compiled.py)
}
DEFAULT_ENGINE = "compiled"
ENGINES["sat"] = SatEngine  # OR-Tools CP-SAT, imported only when built (extra "sat")
ENGINES["bitboard"] = BitboardEngine  # tilings of a graph (engine/bitboard.py)


def auto_engine(problem: CoverProblem) -> str:
    """The engine "auto" means for ``problem``: the bitboard fast path when the problem is a
    tiling it can take, else the fastest general engine."""
    return "bitboard" if ineligible(problem) is None else DEFAULT_ENGINE


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
    name = auto_engine(problem) if engine == "auto" else engine
    try:
        factory = ENGINES[name]
    except KeyError:
        known = ", ".join(sorted(ENGINES))
        raise ValueError(f"unknown engine {engine!r} (known: auto, {known})") from None
    # watched: reports nodes to a progress display when one is installed (engine/progress.py)
    return watched(factory(problem, forced=forced, excluded=excluded))


__all__ = [
    "ENGINES",
    "CompiledEngine",
    "Engine",
    "ReferenceEngine",
    "SearchStats",
    "make_engine",
]
