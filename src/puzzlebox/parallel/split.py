"""Split one search into independent subproblems, with the engine's own frontier.

A subproblem is plain data, ``(forced, excluded)``: option numbers of the job's cover
problem that are in every solution of the subproblem, and option numbers that are in none.
It is small to send to another process or machine, and the engine that cut it counts it.

The cut is the engine's: :attr:`EngineSpec.frontier` cuts its own search tree at a depth into
subproblems whose solutions partition the job's, so a split search runs the same tree, on the
same engine, as one search would (the queens bitmask cuts rows into mirror-closed pairs of
columns, the general engines branch on an item). This module only decides where to cut: to a
fixed depth, or by expanding the subproblem expected to be largest until there are enough.
"""

from __future__ import annotations

import dataclasses
import heapq
from collections.abc import Callable

from puzzlebox.engine.registry import EngineSpec
from puzzlebox.engine.search import Capability, Job, Subproblem

Weight = Callable[[Subproblem], float]


def _children(spec: EngineSpec, job: Job, sub: Subproblem) -> list[Subproblem] | None:
    """The subproblems one level below ``sub``: None when the engine cannot cut it further
    (its frontier hands back the subproblem itself), an empty list when it has no solution."""
    assert spec.frontier is not None
    forced, excluded = sub
    kids = spec.frontier(dataclasses.replace(job, forced=forced, excluded=excluded), 1)
    if len(kids) == 1 and _same(kids[0], sub):
        return None
    return kids


def _same(a: Subproblem, b: Subproblem) -> bool:
    return tuple(sorted(a[0])) == tuple(sorted(b[0])) and tuple(sorted(a[1])) == tuple(
        sorted(b[1])
    )


def split(
    spec: EngineSpec,
    job: Job,
    depth: int | None = None,
    target: int = 1,
    weight: Weight | None = None,
) -> list[Subproblem]:
    """Subproblems of ``job`` cut by ``spec``'s frontier, whose solutions partition the job's,
    in the order to run them: the largest expected first.

    With ``depth``, the engine cuts its tree at that depth. Without it, the subproblem
    expected to be largest is cut one level deeper until there are at least ``target`` or
    none can be cut further; ``weight`` estimates a subproblem's tree size (default: the
    shallower the larger), which keeps the pieces balanced when a good estimate exists.
    An engine that cannot split gives the job whole.
    """
    root: Subproblem = (tuple(sorted(job.forced)), tuple(sorted(job.excluded)))
    if spec.frontier is None or not spec.does(Capability.SPLIT):
        return [root]
    if depth is not None:
        if depth < 0:
            raise ValueError(f"split depth must be at least 0, not {depth}")
        return spec.frontier(job, depth)

    def priority(sub: Subproblem, level: int, order: int) -> tuple[float, int, int]:
        size = weight(sub) if weight is not None else -level
        return (-size, level, order)

    counter = 0
    heap: list[tuple[tuple[float, int, int], int, Subproblem]] = [(priority(root, 0, 0), 0, root)]
    whole: list[tuple[tuple[float, int, int], int, Subproblem]] = []  # cannot be cut further
    while heap and len(heap) + len(whole) < target:
        rank, level, sub = heapq.heappop(heap)
        kids = _children(spec, job, sub)
        if kids is None:
            whole.append((rank, level, sub))
            continue
        for kid in kids:
            counter += 1
            heapq.heappush(heap, (priority(kid, level + 1, counter), level + 1, kid))
    # largest expected first: longest processing time first balances a pool best
    return [sub for _, _, sub in sorted(heap + whole)]
