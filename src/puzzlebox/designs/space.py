"""A space of designs: the ``[design]`` table of a puzzle file, read and enumerated.

A design file is a puzzle file (its base: the board or boards, the pieces, the rules) with a
``[design]`` table that says what varies and what is wanted (docs/puzzle-format.md, "Design
spaces"). What varies:

* ``pool``, ``take``: the pieces a design chooses from and how many copies in all; a pool
  piece's ``count`` bounds its own copies (``n``: 0 to n, ``[lo, hi]``, ``"any"``);
* ``holes``, ``hole_cells``: how many board cells a design cuts out, and where they may be;
* ``optional``, ``optional_cells``: how many board cells a design lets stay empty, and where;
* ``[[boards]]``: with several boards, each design uses one of them.

A design is one choice of each (:class:`Design`); the space is their product, enumerated in
a fixed order so that a design's ``index`` names it in every run, split or resumed. Designs
that a symmetry of the base puzzle maps onto each other (a set of one-sided pieces and its
mirror set, a hole and its mirror image) are the same puzzle seen in a mirror: only the
first of each class in that order is tried (:meth:`DesignSpace.canonical`). Each design is
written as the puzzle file it is (:meth:`DesignSpace.design_text`): the base file's own
text for everything that does not vary, so that the file a design search writes out reads
back exactly as the design that was tried.
"""

from __future__ import annotations

import copy
import math
import tomllib
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from itertools import combinations
from typing import Any

from puzzlebox.errors import PuzzleboxError
from puzzlebox.formats.reader import PuzzleFile, read_text, table_reader
from puzzlebox.formats.toml_out import dumps
from puzzlebox.geometry.grid_text import grid_rows
from puzzlebox.geometry.lattice import Cell, Lattice
from puzzlebox.puzzles import Puzzle
from puzzlebox.puzzles.reading import FileReader, shown

# The wanted rules and rankings, each named once (the contract's words).
RANKS = {
    "level": "the highest level first",
    "moves": "the most moves to take the best assembly apart first",
    "hardest-label": "the fewest solutions on the hardest label first",
    "solutions": "the fewest solutions (up to symmetry) first",
    "assemblies": "the fewest assemblies first",
}
DESIGN_KEYS = {"pool", "take", "holes", "hole_cells", "optional", "optional_cells", "unique",
               "comes_apart", "level", "every_label", "rank", "strategy"}
# How the designs are tried: one search each, or all together in one search of the pool
STRATEGIES = ("each", "together")
# Designs above which a pool is searched together by default: one search per design costs a
# few milliseconds at the least (reading it, building its problem), so 600,000 six-piece
# burrs would take an hour one by one, where their assemblies are all found in about a
# second together (docs/design-search.md); below it, one search each stops early where it can
TOGETHER_FROM = 1000
MOST_CHOICES = 10_000  # cells a hole or an optional cell may be chosen among (a board's limit)


@dataclass(frozen=True)
class Design:
    """One design: ``board`` (an index into the file's boards), the pool's pieces it uses
    with their copies (in the pool's order, none with 0), and the board cells it cuts out
    (``holes``) or lets stay empty (``optional``), sorted."""

    index: int
    board: int
    pieces: tuple[tuple[str, int], ...]
    holes: tuple[Cell, ...] = ()
    optional: tuple[Cell, ...] = ()

    def to_json(self) -> dict[str, Any]:
        return {"design": self.index, "board": self.board,
                "pieces": {name: copies for name, copies in self.pieces},
                "holes": [list(c) for c in self.holes],
                "optional": [list(c) for c in self.optional]}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Design:
        return cls(int(data["design"]), int(data["board"]),
                   tuple((str(k), int(v)) for k, v in data["pieces"].items()),
                   tuple(tuple(int(v) for v in c) for c in data["holes"]),
                   tuple(tuple(int(v) for v in c) for c in data["optional"]))


@dataclass(frozen=True)
class Wanted:
    """What a design must have to be kept, and how the kept ones are ranked. With no rule
    at all a design is kept when it has a solution."""

    unique: bool = False
    comes_apart: bool = False
    level: tuple[int, ...] | None = None
    every_label: bool = False
    rank: tuple[str, ...] = ()

    @property
    def takes_apart(self) -> bool:
        return self.comes_apart or self.level is not None or bool(
            {"level", "moves", "assemblies"} & set(self.rank))

    def to_json(self) -> dict[str, Any]:
        return {"unique": self.unique, "comes_apart": self.comes_apart,
                "level": ".".join(map(str, self.level)) if self.level else None,
                "every_label": self.every_label, "rank": list(self.rank)}


@dataclass(frozen=True)
class Symmetry:
    """A map of the lattice that keeps a board and every piece outside the pool: where it
    sends cells, where it sends the pool pieces it keeps in the pool (a pool piece whose
    moved orientations are no pool piece's is missing), and whether it mirrors."""

    cells: Callable[[Cell], Cell]
    pieces: dict[str, str]
    proper: bool

    def moves(self, pieces: Mapping[str, int], ranges: Mapping[str, Any]) -> bool:
        """Whether it maps a design of ``pieces`` onto a design of the space (every piece
        kept in the pool, onto a piece of the same range)."""
        return all(n in self.pieces and ranges[self.pieces[n]] == ranges[n] for n in pieces)

    def fixes(self, pieces: Mapping[str, int]) -> bool:
        """Whether it maps the design of ``pieces`` onto itself (a symmetry of that puzzle)."""
        return (all(n in self.pieces for n in pieces)
                and {self.pieces[n]: m for n, m in pieces.items()} == dict(pieces))


@dataclass(frozen=True)
class _Board:
    """One board of the base file: its cells, where holes and optional cells may go, and
    the symmetries of the base puzzle on it as (cell map, piece map)."""

    name: str | None
    cells: frozenset[Cell]
    hole_choices: tuple[Cell, ...]
    optional_choices: tuple[Cell, ...]
    symmetries: tuple[Symmetry, ...]


def _choose(n: int, k: int) -> int:
    return math.comb(n, k) if 0 <= k <= n else 0


def _combination_rank(items: Sequence[Cell], chosen: Sequence[Cell]) -> int:
    """The combinations of ``len(chosen)`` of ``items`` that ``itertools.combinations``
    lists before ``chosen``."""
    where = {cell: k for k, cell in enumerate(items)}
    picks = sorted(where[c] for c in chosen)
    n, k = len(items), len(picks)
    rank, start = 0, 0
    for slot, pick in enumerate(picks):
        for skipped in range(start, pick):
            rank += _choose(n - skipped - 1, k - slot - 1)
        start = pick + 1
    return rank


def _combinations(items: Sequence[Cell], k: int) -> Iterator[tuple[Cell, ...]]:
    return combinations(items, k)


class DesignSpace:
    """The designs of one design file (see the module's docstring).

    ``DesignSpace.from_text(text, source, name)`` reads and checks it (every error names the
    user's file and line); :meth:`designs` enumerates the designs in their fixed order;
    :meth:`size` counts them without enumerating; :meth:`design_text` writes one as a
    puzzle file; :meth:`puzzle_file` reads that back as puzzles."""

    def __init__(self, text: str, source: str, name: str) -> None:
        self.text = text
        self.source = source
        self.name = name
        r = table_reader(source, text)
        base = read_text(text, source, name, design=True)  # the file's errors, at its lines
        doc = tomllib.loads(text)
        table = doc.get("design")
        if not isinstance(table, dict):
            raise r.fail(("design",), "must be a table")
        r.check_keys(table, DESIGN_KEYS, ("design",))
        self.doc = {key: value for key, value in doc.items() if key != "design"}
        self.base = base
        self.pool, self.ranges = self._read_pool(r, table)
        self.take = self._read_take(r, table)
        self.wanted = self._read_wanted(r, table)
        self.holes = r.integer(table, "holes", ("design",), 0, 64) if "holes" in table else 0
        self.optional = (r.integer(table, "optional", ("design",), 0, 64)
                         if "optional" in table else 0)
        if self.wanted.every_label and not self._declares_sweep():
            raise r.fail(("design", "every_label"),
                         "needs the sweep the file declares ([sweep] uncover = [...])")
        self.strategy = self._read_strategy(r, table)
        self._completions: dict[tuple[int, int], int] = {}  # _set_rank's counts, kept
        self.boards = [self._read_board(r, table, k, puzzle)
                       for k, puzzle in enumerate(base.puzzles)]
        if self.strategy == "together" and self.together_possible() is not None:
            raise r.fail(("design", "strategy"), f"\"together\" searches a pool of pieces "
                         f"only: here {self.together_possible()}")
        if not self.pool and not self.holes and not self.optional and len(self.boards) < 2:
            raise r.fail(("design",), "varies nothing: give a pool of pieces (pool = [...]), "
                         "holes, optional cells, or several boards ([[boards]])")

    @classmethod
    def from_text(cls, text: str, source: str, name: str) -> DesignSpace:
        return cls(text, source, name)

    # -- reading ---------------------------------------------------------------------------
    def _read_pool(self, r: FileReader, table: dict[str, Any]
                   ) -> tuple[tuple[str, ...], dict[str, tuple[int, int | None]]]:
        pool = table.get("pool", [])
        if not isinstance(pool, list) or not all(isinstance(p, str) for p in pool):
            raise r.fail(("design", "pool"), f"must be a list of piece names, not {shown(pool)}")
        pieces = self.doc.get("pieces", {})
        ranges: dict[str, tuple[int, int | None]] = {}
        for name in pool:
            if name not in pieces:
                raise r.fail(("design", "pool"), f"names {shown(name)}, which is not a piece "
                             f"of [pieces]")
            if name in ranges:
                raise r.fail(("design", "pool"), f"names {shown(name)} twice")
            entry = pieces[name]
            count = entry.get("count", 1) if isinstance(entry, dict) else 1
            if isinstance(entry, dict) and "at" in entry:
                raise r.fail(("pieces", name, "at"), "a piece given in place cannot be in the "
                             "design's pool (every design would need it)")
            if count == "any":
                ranges[name] = (0, None)
            elif isinstance(count, list):
                ranges[name] = (int(count[0]), int(count[1]))
            else:
                ranges[name] = (0, int(count))
        for k, given in enumerate(self.doc.get("givens", [])):
            if isinstance(given, dict) and given.get("piece") in ranges:
                raise r.fail(("givens", k, "piece"), "a given piece cannot be in the design's "
                             "pool (every design would need it)")
        fixed = self.doc.get("disassembly", {}).get("fixed", [])
        for name in fixed if isinstance(fixed, list) else []:
            if name in ranges:
                raise r.fail(("disassembly", "fixed"), f"{shown(name)} is fixed and in the "
                             "design's pool: a fixed piece is in every design")
        return tuple(pool), ranges

    def _read_take(self, r: FileReader, table: dict[str, Any]) -> tuple[int, int]:
        top = sum(hi if hi is not None else 10_000 for _, hi in self.ranges.values())
        low = sum(lo for lo, _ in self.ranges.values())
        value = table.get("take")
        path = ("design", "take")
        if value is None:
            return low, top
        if not self.pool:
            raise r.fail(path, "needs a pool of pieces (pool = [...])")
        if isinstance(value, int) and not isinstance(value, bool):
            lo = hi = value
        elif (isinstance(value, list) and len(value) == 2
              and all(isinstance(v, int) and not isinstance(v, bool) for v in value)):
            lo, hi = value
        else:
            raise r.fail(path, f"must be a number of copies or [lo, hi], not {shown(value)}")
        if lo < 0 or hi < lo:
            raise r.fail(path, f"must be 0 or more, lo <= hi, not {shown(value)}")
        return max(lo, low), min(hi, top)

    def _read_wanted(self, r: FileReader, table: dict[str, Any]) -> Wanted:
        path = ("design",)
        level = table.get("level")
        parsed: tuple[int, ...] | None = None
        if level is not None:
            text = str(level) if isinstance(level, (int, str)) and not isinstance(
                level, bool) else ""
            try:
                parsed = tuple(int(part) for part in text.split("."))
            except ValueError:
                parsed = None
            if not parsed or any(v < 0 for v in parsed):
                raise r.fail(path + ("level",), "must be a level in BurrTools' notation (5, "
                             f"or \"5.2\"), not {shown(level)}")
        rank = table.get("rank", [])
        rank = [rank] if isinstance(rank, str) else rank
        if not isinstance(rank, list) or not all(isinstance(v, str) for v in rank):
            raise r.fail(path + ("rank",), f"must be a ranking or a list of them, not "
                         f"{shown(rank)}")
        for name in rank:
            if name not in RANKS:
                raise r.fail(path + ("rank",), f"unknown ranking {shown(name)} (known: "
                             f"{', '.join(RANKS)})")
        wanted = Wanted(unique=r.boolean(table, "unique", False, path),
                        comes_apart=r.boolean(table, "comes_apart", False, path),
                        level=parsed, every_label=r.boolean(table, "every_label", False, path),
                        rank=tuple(rank))
        if "hardest-label" in wanted.rank and not wanted.every_label:
            raise r.fail(path + ("rank",), "\"hardest-label\" ranks by the file's sweep: "
                         "it needs every_label = true")
        if wanted.takes_apart:
            from puzzlebox.disassembly.assemblies import check_slides

            for puzzle in self.base.puzzles:
                try:
                    check_slides(puzzle, puzzle.label)
                except PuzzleboxError as error:  # another lattice, another kind
                    raise r.fail(path, str(error)) from None
        return wanted

    def _read_strategy(self, r: FileReader, table: dict[str, Any]) -> str | None:
        value = table.get("strategy")
        if value is None:
            return None
        if value not in STRATEGIES:
            raise r.fail(("design", "strategy"), f"must be one of {', '.join(STRATEGIES)}, "
                         f"not {shown(value)}")
        return str(value)

    def together_possible(self) -> str | None:
        """Why the designs cannot be found together in one search (None: they can): only
        the pieces may vary, and no label sweep may be wanted."""
        if self.holes or self.optional or len(self.boards) > 1:
            return "holes, optional cells or several boards vary"
        if self.wanted.every_label:
            return "every label is wanted (a sweep for each design)"
        if not self.pool:
            return "no pool of pieces"
        return None

    def together(self) -> bool:
        """Whether a search finds all designs' assemblies in one search of the pool (see
        design/together.py): where the file says so, else where it is possible and the
        space has more than :data:`TOGETHER_FROM` designs (below that, one search per
        design stops each at its second solution where uniqueness is wanted)."""
        why_not = self.together_possible()
        if self.strategy is not None:
            return self.strategy == "together"
        return why_not is None and self.size() > TOGETHER_FROM

    def _declares_sweep(self) -> bool:
        labels = getattr(self.base.puzzles[0], "labels", None)
        return bool(labels is not None and labels.uncover)

    def _read_board(self, r: FileReader, table: dict[str, Any], k: int, puzzle: Puzzle
                    ) -> _Board:
        board: dict[Cell, str] | None = getattr(puzzle, "board", None)
        lattice: Lattice | None = getattr(puzzle, "lattice", None)
        varies = self.holes or self.optional
        if varies and (board is None or lattice is None or getattr(puzzle, "wrap", None)):
            raise r.fail(("design",), "holes and optional cells are cut in a flat or solid "
                         "board of cells that does not wrap")
        cells = frozenset(board or {})
        labelled: set[Cell] = set()
        labels = getattr(puzzle, "labels", None)
        if labels is not None:
            labelled = {c for group in labels.groups.values() for cs in group.values()
                        for c in cs}
        optional_now = frozenset(getattr(puzzle, "optional", ()) or ())
        givens = {c for g in getattr(puzzle, "givens", ()) for c in getattr(g, "cells", ())}
        holes = self._choices(r, table, "hole_cells", k, lattice, cells,
                              cells - labelled - givens, labelled | givens) if self.holes else ()
        optional = self._choices(r, table, "optional_cells", k, lattice, cells,
                                 cells - labelled - givens - optional_now,
                                 labelled | givens | optional_now) if self.optional else ()
        return _Board(getattr(puzzle, "board_name", None), cells, holes, optional,
                      self._symmetries(puzzle, labels is not None))

    def _choices(self, r: FileReader, table: dict[str, Any], key: str, k: int,
                 lattice: Lattice | None, cells: frozenset[Cell], default: frozenset[Cell],
                 taken: set[Cell]) -> tuple[Cell, ...]:
        path = ("design", key)
        if key not in table:
            return tuple(sorted(default))
        if k > 0 or len(self.base.puzzles) > 1:
            raise r.fail(path, "is for a single board ([board]); with [[boards]] every cell of "
                         "each board may be chosen")
        assert lattice is not None
        marked = r.grid(table[key], path, lattice)
        for cell in sorted(marked):
            if cell not in cells:
                raise r.fail(path, f"marks {list(cell)}, which is not a cell of the board")
            if cell in taken:
                raise r.fail(path, f"marks {list(cell)}, which is labelled, given or already "
                             "optional")
        return tuple(sorted(marked))

    def _symmetries(self, puzzle: Puzzle, labelled: bool) -> tuple[Symmetry, ...]:
        """The maps of the lattice that map the board onto itself (its colours where they
        must match, its optional cells) and every piece outside the pool onto itself or
        another of the same count, each with where it sends the pool's pieces: a pool piece
        whose image (the set of its allowed orientations, moved) is no pool piece is left
        out of the map, and a design that uses it is not moved by it. A
        labelled board, a board with givens or one that wraps keeps only the identity (a
        map that moves labels would relate designs whose sweeps differ)."""
        lattice: Lattice | None = getattr(puzzle, "lattice", None)
        board: dict[Cell, str] | None = getattr(puzzle, "board", None)
        orientations = getattr(puzzle, "piece_orientations", None)
        givens: tuple[Any, ...] = tuple(getattr(puzzle, "givens", ()))
        if (labelled or lattice is None or board is None or orientations is None
                or givens or getattr(puzzle, "wrap", None) is not None):
            return ()
        colored = board if getattr(puzzle, "match_colors", False) else dict.fromkeys(board, "#")
        optional = getattr(puzzle, "optional", ()) or ()
        colored = {c: ("?" if c in optional else "") + v for c, v in colored.items()}
        home, back = lattice.normalize(colored), lattice.normalize_offset(colored)
        pieces = list(getattr(puzzle, "pieces", ()))
        sets = {p.name: frozenset(orientations(p)) for p in pieces}
        counts = {p.name: (p.lo, p.hi) for p in pieces}
        result = []
        for turn in lattice.group()[1:]:  # the identity first
            moved = {turn(cell): colour for cell, colour in colored.items()}
            if lattice.normalize(moved) != home:
                continue
            there = lattice.normalize_offset(moved)
            shift = tuple(t - h for t, h in zip(there, back, strict=True))
            goes: dict[str, str] = {}
            fits = True
            for name, orients in sets.items():
                image = frozenset(lattice.transformed(o, turn) for o in orients)
                if image == orients:
                    goes[name] = name
                    continue
                same = ([q for q in self.pool if sets[q] == image] if name in self.ranges
                        else [q for q in sets if q not in self.ranges and sets[q] == image
                              and counts[q] == counts[name]])
                if len(same) == 1:
                    goes[name] = same[0]
                elif name not in self.ranges:
                    fits = False  # a piece of every design would not be kept
                    break
            if fits:

                def cell_map(cell: Cell, turn: Any = turn, shift: Cell = shift) -> Cell:
                    return tuple(v + d for v, d in zip(turn(cell), shift, strict=True))

                result.append(Symmetry(cell_map, goes, turn.proper))
        return tuple(result)

    # -- enumerating -----------------------------------------------------------------------
    def _bounds(self) -> list[tuple[str, int, int]]:
        top = self.take[1]
        return [(name, lo, top if hi is None else min(hi, top))
                for name, (lo, hi) in ((n, self.ranges[n]) for n in self.pool)]

    def _piece_sets(self) -> Iterator[tuple[tuple[str, int], ...]]:
        bounds = self._bounds()
        lo_total, hi_total = self.take
        rest_lo = [sum(b[1] for b in bounds[k:]) for k in range(len(bounds) + 1)]
        rest_hi = [sum(b[2] for b in bounds[k:]) for k in range(len(bounds) + 1)]

        def walk(k: int, used: int, chosen: list[tuple[str, int]]
                 ) -> Iterator[tuple[tuple[str, int], ...]]:
            if k == len(bounds):
                if lo_total <= used <= hi_total:
                    yield tuple(chosen)
                return
            name, lo, hi = bounds[k]
            for copies in range(hi, lo - 1, -1):  # the most copies first: F I L N... first
                total = used + copies
                if total + rest_lo[k + 1] > hi_total:
                    continue
                if total + rest_hi[k + 1] < lo_total:
                    break
                if copies:
                    chosen.append((name, copies))
                yield from walk(k + 1, total, chosen)
                if copies:
                    chosen.pop()

        yield from walk(0, 0, [])

    def piece_sets(self) -> int:
        """How many choices of pieces the pool allows (counted, not listed)."""
        ways = {0: 1}
        for _, lo, hi in self._bounds():
            nxt: dict[int, int] = {}
            for used, n in ways.items():
                for copies in range(lo, hi + 1):
                    if used + copies <= self.take[1]:
                        nxt[used + copies] = nxt.get(used + copies, 0) + n
            ways = nxt
        return sum(n for used, n in ways.items() if self.take[0] <= used <= self.take[1])

    def size(self) -> int:
        """The number of designs, before symmetric ones are set aside."""
        sets = self.piece_sets()
        return sum(sets * _choose(len(b.hole_choices), self.holes)
                   * _choose(len(b.optional_choices), self.optional) for b in self.boards)

    def designs(self) -> Iterator[Design]:
        """Every design, in the fixed order (board, pieces, holes, optional cells)."""
        index = 0
        for k, board in enumerate(self.boards):
            for pieces in self._piece_sets():
                for holes in _combinations(board.hole_choices, self.holes):
                    for optional in _combinations(board.optional_choices, self.optional):
                        yield Design(index, k, pieces, tuple(holes), tuple(optional))
                        index += 1

    def _key(self, pieces: Mapping[str, int], holes: Sequence[Cell],
             optional: Sequence[Cell]) -> tuple[Any, ...]:
        rank = {name: k for k, name in enumerate(self.pool)}
        return (tuple(sorted((rank[n], m) for n, m in pieces.items())),
                tuple(sorted(holes)), tuple(sorted(optional)))

    def canonical_form(self, design: Design) -> Design:
        """The first design of ``design``'s class (the one a search tries)."""
        pieces = dict(design.pieces)
        best = (self._key(pieces, design.holes, design.optional), design)
        for symmetry in self.boards[design.board].symmetries:
            if not symmetry.moves(pieces, self.ranges):
                continue  # a piece this map does not keep in the pool
            moved = {symmetry.pieces[n]: m for n, m in pieces.items()}
            holes = tuple(sorted(map(symmetry.cells, design.holes)))
            optional = tuple(sorted(map(symmetry.cells, design.optional)))
            key = self._key(moved, holes, optional)
            if key < best[0]:
                ordered = tuple((n, moved[n]) for n in self.pool if n in moved)
                best = (key, Design(-1, design.board, ordered, holes, optional))
        found = best[1]
        return found if found.index >= 0 else self.index_of(found)

    def index_of(self, design: Design) -> Design:
        """``design`` with its index in the space's order, reckoned without listing the
        space: the designs before it, counted (the order is board, pieces, holes, optional
        cells, as :meth:`designs` walks them)."""
        board = self.boards[design.board]
        holes = _choose(len(board.hole_choices), self.holes)
        optional = _choose(len(board.optional_choices), self.optional)
        per_set = holes * optional
        index = sum(self.piece_sets() * _choose(len(b.hole_choices), self.holes)
                    * _choose(len(b.optional_choices), self.optional)
                    for b in self.boards[:design.board])
        index += self._set_rank(dict(design.pieces)) * per_set
        index += _combination_rank(board.hole_choices, design.holes) * optional
        index += _combination_rank(board.optional_choices, design.optional)
        return Design(index, design.board, design.pieces, design.holes, design.optional)

    def _set_rank(self, pieces: Mapping[str, int]) -> int:
        """The piece sets listed before ``pieces`` (copies from the most down, pool order)."""
        bounds = self._bounds()
        low, high = self.take
        ways = self._completions

        def completions(k: int, used: int) -> int:
            if k == len(bounds):
                return 1 if low <= used <= high else 0
            if (k, used) not in ways:
                _, lo, hi = bounds[k]
                ways[(k, used)] = sum(completions(k + 1, used + c) for c in range(lo, hi + 1)
                                      if used + c <= high)
            return ways[(k, used)]

        rank = used = 0
        for k, (name, _, hi) in enumerate(bounds):
            mine = pieces.get(name, 0)
            rank += sum(completions(k + 1, used + c) for c in range(hi, mine, -1)
                        if used + c <= high)
            used += mine
        return rank

    def canonical(self, design: Design) -> bool:
        """Whether ``design`` is the first of its class under the base puzzle's symmetries
        (the one tried; the others are the same puzzle, turned or mirrored)."""
        pieces = dict(design.pieces)
        key = self._key(pieces, design.holes, design.optional)
        for symmetry in self.boards[design.board].symmetries:
            if not symmetry.moves(pieces, self.ranges):
                continue  # a piece this map does not keep in the pool
            image = self._key({symmetry.pieces[n]: m for n, m in pieces.items()},
                              [symmetry.cells(c) for c in design.holes],
                              [symmetry.cells(c) for c in design.optional])
            if image < key:
                return False
        return True

    # -- one design as a puzzle file -------------------------------------------------------
    def design_doc(self, design: Design) -> dict[str, Any]:
        """The base document with the design's choices made."""
        doc = copy.deepcopy(self.doc)
        chosen = dict(design.pieces)
        pieces = doc.get("pieces", {})
        for name in self.pool:
            if name not in chosen:
                del pieces[name]
                continue
            entry = pieces[name]
            pieces[name] = ({**entry, "count": chosen[name]} if isinstance(entry, dict)
                            else {"shape": entry, "count": chosen[name]})
        groups = doc.get("disassembly", {}).get("groups")
        if isinstance(groups, list):
            kept = [[n for n in g if n in pieces] for g in groups]
            doc["disassembly"]["groups"] = [g for g in kept if len(g) > 1]
        board = doc["board"] if "board" in doc else doc["boards"][design.board]
        if "boards" in doc:
            doc["boards"] = [board]
        lattice: Lattice | None = getattr(self.base.puzzles[design.board], "lattice", None)
        if design.holes:
            assert lattice is not None
            board["grid"] = _cut(board["grid"], lattice, design.holes)
        if design.optional:
            assert lattice is not None
            now = getattr(self.base.puzzles[design.board], "optional", ()) or ()
            board["optional"] = _marks(lattice, set(now) | set(design.optional))
        notes = doc.get("notes", "")
        doc["notes"] = (notes.rstrip("\n") + "\n\n" if notes else "") + (
            f"Design {design.index} of {self.name}: {describe(self, design)}.")
        return doc

    def design_text(self, design: Design) -> str:
        return dumps(self.design_doc(design))

    def design_name(self, design: Design) -> str:
        return f"{self.name}-design-{design.index}"

    def puzzle_file(self, design: Design) -> PuzzleFile:
        """The design read back as puzzles by the same reader as any file."""
        return read_text(self.design_text(design), f"{self.source} (design {design.index})",
                         self.design_name(design))


def describe(space: DesignSpace, design: Design) -> str:
    """A design in words: ``pieces F I L N P T U, holes [0, 3]``."""
    parts = []
    if len(space.boards) > 1:
        parts.append(f"board {space.boards[design.board].name}")
    if space.pool:
        parts.append("pieces " + " ".join(name if m == 1 else f"{name}x{m}"
                                           for name, m in design.pieces) if design.pieces
                     else "no pool piece")
    if design.holes:
        parts.append("holes " + " ".join(str(list(c)) for c in design.holes))
    if design.optional:
        parts.append("optional " + " ".join(str(list(c)) for c in design.optional))
    return ", ".join(parts)


def _position(lattice: Lattice, cell: Cell) -> tuple[int, int, int]:
    return lattice.text_position(cell)


def _cut(grid: Any, lattice: Lattice, holes: Sequence[Cell]) -> Any:
    """A grid value (a string, or on cube a list of layers) with ``holes`` drawn as '.'."""
    layers = [grid] if isinstance(grid, str) else list(grid)
    rows = [[list(row) for row in grid_rows(layer)] for layer in layers]
    for cell in holes:
        layer, line, column = _position(lattice, cell)
        rows[layer][line][column] = "."
    written = ["\n".join("".join(row) for row in layer_rows) for layer_rows in rows]
    return written[0] if isinstance(grid, str) else written


def _marks(lattice: Lattice, cells: set[Cell]) -> Any:
    """An ``optional`` grid marking ``cells`` with '+' (on cube a list of layers)."""
    places = [_position(lattice, c) for c in cells]
    depth = 1 + max(p[0] for p in places)
    lines = 1 + max(p[1] for p in places)
    columns = 1 + max(p[2] for p in places)
    grid = [[["."] * columns for _ in range(lines)] for _ in range(depth)]
    for layer, line, column in places:
        grid[layer][line][column] = "+"
    written = ["\n".join("".join(row) for row in layer) for layer in grid]
    return written if lattice.dimensions == 3 else written[0]
