"""What a search reports about itself."""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass


@dataclass
class SearchStats:
    """Counters every engine fills in; times are wall-clock seconds."""

    engine: str = ""
    nodes: int = 0
    solutions: int = 0
    compile_seconds: float = 0.0
    search_seconds: float = 0.0
    complete: bool = False  # True once the whole tree has been searched
    # the share of the tree searched, read off the current path (engines that can tell);
    # a progress display turns it into a bar and a time left
    walked: float | None = None
    # a count up to symmetry (engine/parts.py): the raw and distinct solutions so far, as its
    # final line reports them (``solutions`` counts the solutions of the cut-down searches)
    raw: int | None = None
    distinct: int | None = None


def once_per_process(load: Callable[[], None]) -> Callable[[], float]:
    """``load`` (a run of an engine's kernels on a tiny problem, which compiles them or loads
    them from numba's cache) made to run once per process: the function returned runs it the
    first time and returns the seconds it took, then returns 0.0, so that the compile time
    is charged to the first search's ``compile_seconds`` alone."""
    seconds: float | None = None

    def warm_up() -> float:
        nonlocal seconds
        if seconds is not None:
            return 0.0
        began = time.perf_counter()
        load()
        seconds = time.perf_counter() - began
        return seconds

    warm_up.__doc__ = load.__doc__
    return warm_up
