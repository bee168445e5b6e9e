"""All designs of a pool found together: one search of the pool instead of one per design.

Where only the pieces vary (one board, no holes, no labels to sweep), every design's
assemblies are the solutions of one puzzle: the base with each pool piece allowed its whole
range of copies (BurrTools' piece ranges). Its solutions up to its symmetries, grouped by the
pieces they use, are each design's assemblies up to that design's own symmetries (a solution
of a design and its mirror image lie in the same orbit; the orbits that hold a design's
solutions are that design's assemblies, by the orbit-stabiliser argument), and the group of
a design's mirror set is the same as its own. So the space of 593,775 six-piece burrs of
the 25 notchable sticks is one search of about a second (docs/design.md), where one search
a design would take an hour. Designs with no assembly are never seen: they are dropped
without a line of their own (the summary counts them as tried).
"""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Iterator
from typing import Any

from puzzlebox.designs.evaluate import DesignResult, Improper, judge_assemblies
from puzzlebox.designs.space import Design, DesignSpace
from puzzlebox.formats.reader import read_text
from puzzlebox.formats.toml_out import dumps
from puzzlebox.puzzles import Puzzle, Solution
from puzzlebox.run.limits import Limits


def pool_puzzle(space: DesignSpace) -> Puzzle:
    """The base puzzle with every pool piece allowed its range of copies."""
    doc: dict[str, Any] = {**space.doc, "pieces": dict(space.doc.get("pieces", {}))}
    pieces = doc["pieces"]
    for name in space.pool:
        lo, hi = space.ranges[name]
        top = space.take[1] if hi is None else min(hi, space.take[1])
        entry = pieces[name]
        count: Any = [lo, top]
        pieces[name] = ({**entry, "count": count} if isinstance(entry, dict)
                        else {"shape": entry, "count": count})
    return read_text(dumps(doc), f"{space.source} (the pool)", f"{space.name}-pool").puzzles[0]


def together(space: DesignSpace, limits: Limits | None,
             on_found: Any = None) -> Iterator[DesignResult]:
    """Each design that has an assembly, in the space's order, judged by the wanted rules
    (``on_found(n)`` hears of the assemblies found so far while the search runs)."""
    puzzle = pool_puzzle(space)
    began, cpu = time.perf_counter(), time.thread_time()
    pool = set(space.pool)
    low, high = space.take
    found: dict[int, tuple[Design, list[Solution]]] = {}
    for n, solution in enumerate(puzzle.distinct_solutions(limits=limits), 1):
        used = Counter(p.piece for p in getattr(solution, "placements", ())
                       if p.piece in pool)
        if not low <= sum(used.values()) <= high:
            continue
        pieces = tuple((name, used[name]) for name in space.pool if used[name])
        design = space.canonical_form(space.index_of(Design(-1, 0, pieces)))
        found.setdefault(design.index, (design, []))[1].append(solution)
        if on_found is not None:
            on_found(n)
    search, search_cpu = time.perf_counter() - began, time.thread_time() - cpu
    symmetries = space.boards[0].symmetries

    def mirrors(solution: Solution) -> list[Improper]:
        """The maps that mirror the assembly's own design onto itself."""
        used = Counter(p.piece for p in getattr(solution, "placements", ()))
        return [(s.cells, s.pieces) for s in symmetries
                if not s.proper and s.fixes({n: m for n, m in used.items() if n in pool})]

    total = sum(len(s) for _, s in found.values()) or 1
    for index in sorted(found):
        design, assemblies = found[index]
        began, cpu = time.perf_counter(), time.thread_time()
        result = DesignResult(design, kept=False)
        if judge_assemblies(puzzle, assemblies, space.wanted, result, limits, mirrors):
            result.kept = True
        # the search's time shared out by assemblies, and the design's own take-apart
        result.seconds = search * len(assemblies) / total + time.perf_counter() - began
        result.cpu = search_cpu * len(assemblies) / total + time.thread_time() - cpu
        yield result
