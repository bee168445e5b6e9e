"""All designs of a pool found together: one search of the pool instead of one per design.

Where only the pieces vary (one board, no holes, no labels to sweep), every design's
assemblies are the solutions of one puzzle: the base with each pool piece allowed its whole
range of copies (BurrTools' piece ranges). Its solutions up to its symmetries, grouped by the
pieces they use, are each design's assemblies up to that design's own symmetries (a solution
of a design and its mirror image lie in the same orbit; the orbits that hold a design's
solutions are that design's assemblies, by the orbit-stabiliser argument), and the group of
a design's mirror set is the same as its own. So the space of 593,775 six-piece burrs of
the 25 notchable sticks is one search of about a second (docs/design-search.md), where one search
a design would take an hour. Designs with no assembly are never seen: they are dropped
without a line of their own (the summary counts them as tried).

The pool puzzle's symmetries may be fewer than the space's: where some pool piece's mirror
image is no pool piece (Siegel's Starter Burr Set, whose 23 sticks hold 4 mirror pairs, 9
sticks their own mirror images and 6 sticks without theirs), the pool puzzle has no mirror,
while a design of mirror-closed pieces has one, and a design and its mirror set are one
design of the space. Its solutions are then found once per orbit of the rotations only, and
:class:`_Orbits` keeps one per orbit of the space's maps: a solution of a design that is not
the first of its class is dropped (its mirror image is found in the first), and of a
solution and its mirror image in a design that is its own mirror set, the one with the least
form up to rotation is kept.
"""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Iterator
from typing import Any

from puzzlebox.designs.evaluate import DesignResult, Improper, judge_assemblies
from puzzlebox.designs.space import Design, DesignSpace, Symmetry
from puzzlebox.formats.reader import read_text
from puzzlebox.formats.toml_out import dumps
from puzzlebox.geometry.lattice import Cell
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


Form = tuple[tuple[str, tuple[Cell, ...]], ...]


class _Orbits:
    """Which solutions of the pool puzzle to keep where the space has maps the pool puzzle
    lacks (see the module's docstring). It applies where the pool puzzle's own maps send
    every piece to itself (pieces that turn freely), so that they keep every design; in any
    other case every solution is kept, as each orbit of the pool puzzle's maps is then one
    of the space's."""

    def __init__(self, space: DesignSpace, puzzle: Puzzle) -> None:
        board = space.boards[0]
        cells = sorted(board.cells)
        own = getattr(puzzle, "grid_symmetries", lambda: None)()
        self.active = False
        self.proper: list[dict[Cell, Cell]] = []
        self.extra: list[tuple[Symmetry, dict[Cell, Cell]]] = []
        if not own or any(any(a != b for a, b in goes.items()) for _, _, goes in own):
            return
        covered = set()
        for turn, shift, _ in own:
            table = {c: tuple(v + d for v, d in zip(turn(c), shift, strict=True))
                     for c in cells}
            self.proper.append(table)
            covered.add(tuple(table[c] for c in cells))
        for symmetry in board.symmetries:
            table = {c: symmetry.cells(c) for c in cells}
            if tuple(table[c] for c in cells) not in covered:
                self.extra.append((symmetry, table))
        self.active = bool(self.extra)

    def keep(self, solution: Solution, raw: Design, design: Design) -> bool:
        """Whether ``solution`` (of the design ``raw``, first of its class ``design``) is
        the one of its orbit under the space's maps that is kept."""
        if not self.active:
            return True
        if raw.pieces != design.pieces:
            return False  # its mirror image is a solution of the class's first design
        used = dict(raw.pieces)
        mirrors = [(s, table) for s, table in self.extra if s.fixes(used)]
        if not mirrors:
            return True
        placed = [(p.piece, p.cells) for p in getattr(solution, "placements", ())]

        def form(table: dict[Cell, Cell], goes: dict[str, str] | None) -> Form:
            return tuple(sorted(((goes or {}).get(n, n), tuple(sorted(table[c] for c in cs)))
                                for n, cs in placed))

        mine = min(form(table, None) for table in self.proper)
        return mine <= min(form(table, s.pieces) for s, table in mirrors)


def together(space: DesignSpace, limits: Limits | None,
             on_found: Any = None) -> Iterator[DesignResult]:
    """Each design that has an assembly, in the space's order, judged by the wanted rules
    (``on_found(n)`` hears of the assemblies found so far while the search runs)."""
    puzzle = pool_puzzle(space)
    began, cpu = time.perf_counter(), time.thread_time()
    pool = set(space.pool)
    low, high = space.take
    found: dict[int, tuple[Design, list[Solution]]] = {}
    orbits = _Orbits(space, puzzle)
    for n, solution in enumerate(puzzle.distinct_solutions(limits=limits), 1):
        used = Counter(p.piece for p in getattr(solution, "placements", ())
                       if p.piece in pool)
        if not low <= sum(used.values()) <= high:
            continue
        pieces = tuple((name, used[name]) for name in space.pool if used[name])
        raw = Design(-1, 0, pieces)
        design = space.canonical_form(space.index_of(raw))
        if not orbits.keep(solution, raw, design):
            continue
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
