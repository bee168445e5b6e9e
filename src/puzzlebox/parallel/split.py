"""Split one search into independent subproblems: the partial solutions at a shallow depth.

A subproblem is plain data, ``(forced, excluded)``: option indices of the cover problem that
are in every solution of the subproblem, and option indices that are in none. It is small to
send to another process or machine, and any engine solves it through ``make_engine``.

The split walks the top of the same tree as the reference engine: at a node it branches on
the primary item that still needs cover and has the fewest options left (ties: the lowest
item), and branch ``j`` takes that item's ``j``-th option while excluding the options tried
before it. Every solution below the node contains at least one of those options and the
first one it contains picks its branch, so the branches are disjoint and together hold every
solution of the node: solving all subproblems gives exactly the count and the solutions of
one search. A node where every bound is already met (no needy item) is kept whole, as is a
node at the requested depth; a node whose needy item has no option left has no solution and
is dropped.
"""

from __future__ import annotations

import heapq
from collections.abc import Callable
from dataclasses import dataclass

from puzzlebox.cover.problem import FREE, CoverProblem, apply_option, option_fits

Subproblem = tuple[tuple[int, ...], tuple[int, ...]]  # (forced, excluded), both sorted
Weight = Callable[[Subproblem], float]

@dataclass(frozen=True)
class Node:
    """A subproblem with where it sits in the tree (``path``: branch numbers from the root)."""

    forced: tuple[int, ...]
    excluded: tuple[int, ...]
    path: tuple[int, ...] = ()

    @property
    def depth(self) -> int:
        return len(self.path)

    @property
    def subproblem(self) -> Subproblem:
        return (tuple(sorted(self.forced)), tuple(sorted(self.excluded)))


class Splitter:
    """Expands nodes of the search tree of one cover problem."""

    def __init__(self, problem: CoverProblem) -> None:
        self.problem = problem
        p = problem
        self._options = [p.option(k) for k in range(p.n_options)]
        self._lo = p.lo.tolist()
        self._hi = p.hi.tolist()

    def children(self, node: Node) -> list[Node] | None:
        """The branches below ``node``: None when it cannot be split (every bound is met),
        an empty list when it provably has no solution."""
        p = self.problem
        n_primary = p.n_primary
        counts = [0] * n_primary
        sec_color = [FREE] * (p.n_items - n_primary)
        excluded = set(node.excluded)
        forced = set(node.forced)
        for k in node.forced:
            if k in excluded or not self._fits(k, counts, sec_color):
                return []
            self._apply(k, counts, sec_color)
        needy = {i: [] for i in range(n_primary) if counts[i] < self._lo[i]}
        if not needy:
            return None
        for k in range(p.n_options):
            if k in forced or k in excluded or not self._fits(k, counts, sec_color):
                continue
            for item, _ in self._options[k]:
                if item in needy:
                    needy[item].append(k)
        item = min(needy, key=lambda i: (len(needy[i]), i))
        branches = needy[item]
        result = []
        for j, k in enumerate(branches):
            result.append(
                Node(node.forced + (k,), node.excluded + tuple(branches[:j]), node.path + (j,))
            )
        return result

    def _fits(self, k: int, counts: list[int], sec_color: list[int]) -> bool:
        return option_fits(self._options[k], self.problem.n_primary, self._hi, counts, sec_color)

    def _apply(self, k: int, counts: list[int], sec_color: list[int]) -> None:
        apply_option(self._options[k], self.problem.n_primary, counts, sec_color)


def split(
    problem: CoverProblem,
    depth: int | None = None,
    target: int = 1,
    weight: Weight | None = None,
    forced: tuple[int, ...] = (),
    excluded: tuple[int, ...] = (),
) -> list[Subproblem]:
    """Subproblems whose solutions partition those of ``problem`` (under ``forced`` and
    ``excluded``), in the order to run them: the largest expected first.

    With ``depth``, every node is expanded down to that depth. Without it, the node expected
    to be largest is expanded until there are at least ``target`` subproblems or none can be
    split further; ``weight`` estimates a subproblem's tree size (default: shallower nodes are
    larger), which keeps the pieces balanced when a good estimate exists.
    """
    splitter = Splitter(problem)
    root = Node(tuple(forced), tuple(excluded))

    def priority(node: Node) -> tuple[float, tuple[int, ...]]:
        size = weight(node.subproblem) if weight is not None else -node.depth
        return (-size, node.path)

    if depth is not None:
        if depth < 0:
            raise ValueError(f"split depth must be at least 0, not {depth}")
        layer, final = [root], []
        for _ in range(depth):
            deeper = []
            for node in layer:
                kids = splitter.children(node)
                if kids is None:
                    final.append(node)
                else:
                    deeper.extend(kids)
            layer = deeper
        ranked = sorted((priority(node), node) for node in final + layer)
        return [node.subproblem for _, node in ranked]

    heap = [(priority(root), root)]
    whole: list[tuple[tuple[float, tuple[int, ...]], Node]] = []  # cannot be split further
    while heap and len(heap) + len(whole) < target:
        rank, node = heapq.heappop(heap)
        kids = splitter.children(node)
        if kids is None:
            whole.append((rank, node))
            continue
        for kid in kids:
            heapq.heappush(heap, (priority(kid), kid))
    # largest expected first: longest processing time first balances a pool best
    return [node.subproblem for _, node in sorted(heap + whole)]
