"""Searches of the registry's engines run to the end, for tests that hold one engine against
another: by default the reference engine, the plain recursive search that the others are
checked by. Started as every caller starts them, through the registry."""

from __future__ import annotations

from collections.abc import Iterable, Iterator

from puzzlebox.cover.problem import CoverProblem
from puzzlebox.engine import registry
from puzzlebox.engine.search import Job, Mode, count_all, each_solution


def reference_solutions(
    problem: CoverProblem,
    forced: Iterable[int] = (),
    excluded: Iterable[int] = (),
    *,
    limit: int | None = None,
    engine: str = "reference",
) -> Iterator[tuple[int, ...]]:
    """The solutions holding every ``forced`` option and no ``excluded`` one, lazily."""
    job = Job(problem, forced=tuple(forced), excluded=tuple(excluded), limit=limit)
    return each_solution(registry.get(engine).start(job))


def reference_count(
    problem: CoverProblem,
    forced: Iterable[int] = (),
    excluded: Iterable[int] = (),
    *,
    engine: str = "reference",
) -> int:
    """How many solutions hold every ``forced`` option and no ``excluded`` one."""
    job = Job(problem, Mode.COUNT, tuple(forced), tuple(excluded))
    return count_all(registry.get(engine).start(job))[0]
