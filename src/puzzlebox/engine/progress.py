"""What a progress display reads off a running search.

A search reports itself through its ``stats`` (engine/search.py), which the caller's loop
over ``step`` reads between steps: nodes and solutions so far and, for engines that can
tell, the share of the tree walked, which :func:`share_walked` computes from the current
path. Callers that want to be told after every step pass an ``on_step`` callback to the
loop (``each_solution``, ``count_all``, ``Puzzle.count``...).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from puzzlebox.engine.stats import SearchStats

Progress = Callable[[SearchStats], None]


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
