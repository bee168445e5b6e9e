"""Polyomino packing: pieces of any shape, with copies, placed on a board of any shape.

Items: one per board cell (covered exactly once) and one per piece whose count limits it
(covered ``lo..hi`` times). Options: every distinct orientation of every piece at every
position where it lies on board cells (of matching colours, when colours matter).

The cells stand on a lattice (``puzzle.lattice``: square by default, or triangle, hexagon,
cube; geometry/lattice.py). Everything here asks the lattice, never its name (#14): which
cells touch, which maps are symmetries, which translations keep the grid.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Hashable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from operator import itemgetter, mul, sub
from typing import TYPE_CHECKING, Any, cast

from puzzlebox.cover.problem import CoverBuilder
from puzzlebox.engine.errors import EngineError
from puzzlebox.engine.registry import EngineSpec, register
from puzzlebox.engine.search import Capability, Job, Mode, Search
from puzzlebox.engine.stats import SearchStats
from puzzlebox.geometry.lattice import Cell, Lattice, Shape, Transform
from puzzlebox.geometry.square import SQUARE
from puzzlebox.geometry.wrap import Wrap
from puzzlebox.puzzles.base import SINK, Puzzle, Solution, register_kind
from puzzlebox.puzzles.givens import Given, around_givens, keeping_givens, piece_rules
from puzzlebox.puzzles.polyomino import reader
from puzzlebox.puzzles.polyomino.designer_drawing import designer_lines, open_label_lines
from puzzlebox.puzzles.polyomino.disassembly_rules import DisassemblyRules
from puzzlebox.puzzles.polyomino.optional import optional_lines
from puzzlebox.puzzles.polyomino.text import (
    describe_polyomino,
    letter_lines,
    letter_owners,
    outline_lines,
    wrap_note,
)
from puzzlebox.puzzles.proofs import Proof, polyomino_proofs, proof_without_placements
from puzzlebox.puzzles.reading import FileReader

if TYPE_CHECKING:
    from puzzlebox.cover.problem import CoverProblem
    from puzzlebox.cover.symmetry import Perms
    from puzzlebox.engine.memo import SweepPlan
    from puzzlebox.puzzles.labels import Labels
    from puzzlebox.render.pictures import Panel


# Every piece's orientations, kept for the process (a design search's worker tries design
# after design of the same pieces); cleared past this many shapes, far above any file's
_ORIENTATIONS: dict[Hashable, list[Shape]] = {}
_ORIENTATIONS_KEPT = 20_000


@dataclass(frozen=True)
class Piece:
    """A named piece; ``hi is None`` means as many copies as fit."""

    name: str
    shape: Shape
    lo: int = 1
    hi: int | None = 1
    rotate: bool | None = None  # the piece's own rule (puzzles/givens.py); None: [rules]
    reflect: bool | None = None

    def max_copies(self, board_area: int) -> int:
        fit = board_area // len(self.shape)
        return fit if self.hi is None else min(self.hi, fit)


@dataclass(frozen=True)
class Placement:
    piece: str
    cells: tuple[Cell, ...]


@dataclass(frozen=True)
class PolyominoSolution(Solution):
    placements: tuple[Placement, ...]

    def placements_json(self) -> list[dict[str, Any]]:
        return [{"piece": p.piece, "cells": [list(c) for c in p.cells]} for p in self.placements]

    def key(self) -> tuple[Hashable, ...]:
        return tuple(sorted((p.piece, p.cells) for p in self.placements))

    def owner_grid(self) -> dict[Cell, int]:
        """Which placement covers each cell (index into ``placements``)."""
        return {cell: i for i, p in enumerate(self.placements) for cell in p.cells}


SINK_SECONDS = 600.0  # how long it looks before it gives up


_first = itemgetter(0)  # decode's sort key: a placement's first cell


@register_kind
class PolyominoPuzzle(Puzzle):
    """Pieces packed into a board, optionally matching the board's colours."""

    kind = "polyomino"
    grid_editable = True
    sweepable = True
    slides_apart = True

    def __init__(
        self,
        name: str,
        board: dict[Cell, str],
        pieces: list[Piece],
        *,
        rotate: bool = True,
        reflect: bool = True,
        match_colors: bool = False,
        givens: tuple[Given, ...] = (),
        labels: Labels | None = None,
        title: str = "",
        notes: str = "",
        board_name: str | None = None,
        lattice: Lattice = SQUARE,
        optional: frozenset[Cell] = frozenset(),
        disassembly: DisassemblyRules | None = None,
        wrap: Wrap | None = None,
        neutral: str | None = None,
    ) -> None:
        super().__init__(name, title, notes)
        self.wrap = wrap  # [board] wrap: a tube or a torus (geometry/wrap.py)
        if wrap is not None:  # a piece across the seam cannot slide out of a flat board
            self.slides_apart = False  # type: ignore[misc]
        self.neutral = neutral  # [rules] neutral: a colour that matches any colour (#24)
        self.optional = frozenset(optional)  # board cells that may stay empty (#24)
        self.disassembly = disassembly  # [disassembly]: fixed pieces, groups (#24)
        self.lattice = lattice
        self.board = dict(board)
        self.pieces = list(pieces)
        self.rotate = rotate
        self.reflect = reflect
        self.match_colors = match_colors
        self.board_name = board_name
        self.givens = tuple(givens)  # pieces fixed in place (puzzles/givens.py)
        self.labels = labels  # named cells and groups of cells (puzzles/labels.py)
        # decode's placements, made once: option index to (first cell, placement)
        self._made: dict[int, tuple[Cell | tuple[()], Placement]] = {}
        self._made_labels: tuple[Any, ...] = ()

    # -- placements ------------------------------------------------------------------------
    @classmethod
    def read(cls, r: FileReader, doc: dict[str, Any], name: str, title: str, notes: str
             ) -> list[Puzzle]:
        return list(reader.read_polyomino(r, doc, name, title, notes))

    def _plain(self, shape: Shape) -> Shape:
        """The shape as the rules see it: colours only count when they must match."""
        return shape if self.match_colors else Shape(shape.cells, ("#",) * len(shape))

    def piece_orientations(self, piece: Piece) -> list[Shape]:
        """The piece's distinct orientations under its rules, the identity's first. Kept
        once worked out (placements and symmetries each ask for every piece's: 48 maps a
        piece on cube), under everything they depend on, for every puzzle of the process:
        a design search reads thousands of puzzles made of the same pieces (#34)."""
        rotate, reflect = piece_rules(self, piece)
        key = (piece.shape, rotate, reflect, self.match_colors, self.lattice.name)
        if key not in _ORIENTATIONS:
            if len(_ORIENTATIONS) >= _ORIENTATIONS_KEPT:
                _ORIENTATIONS.clear()
            _ORIENTATIONS[key] = self.lattice.orientations(self._plain(piece.shape), rotate,
                                                           reflect)
        return list(_ORIENTATIONS[key])

    def placements_of(self, piece: Piece) -> list[tuple[Cell, ...]]:
        """Every set of board cells the piece can cover, each once: each orientation moved so
        that its first cell lands on each board cell, where the lattice allows that
        translation (on triangle an up triangle must stay up). Board cells in sorted order
        make the translations, and so the options, come in a stable order. On a board that
        wraps the moved cells are folded onto it (geometry/wrap.py), so a piece may cross
        the seam; one that would cover a cell twice is not placed."""
        if self.wrap is not None:
            return self._wrapped_placements(piece)
        board = self.board
        can_translate = self.lattice.can_translate
        targets = sorted(board)
        orientations = self.piece_orientations(piece)
        if not targets:
            return []
        # cells as integers, coordinate i times base**i: moving a cell by a vector adds its
        # number, and every cell a placement tries (a board cell moved by the difference of
        # two cells of a shape) has its coordinates within (-reach, reach), where the numbers
        # (balanced digits in base 2 reach + 1) are distinct; so one addition and one set
        # look-up test a cell (issue #23)
        reach = 1 + max(max(map(abs, cell)) for cell in targets) + \
            2 * max(max(map(abs, cell)) for shape in orientations for cell in shape.cells)
        powers = [(2 * reach + 1) ** i for i in range(len(targets[0]))]

        def number(cell: Cell) -> int:
            return sum(map(mul, cell, powers))

        cell_of = {number(cell): cell for cell in targets}
        numbers = list(cell_of)  # in the targets' (sorted) order
        found: dict[tuple[Cell, ...], None] = {}
        for shape in orientations:
            anchor = shape.cells[0]
            steps = [(number(tuple(map(sub, cell, anchor))), color)
                     for cell, color in zip(shape.cells, shape.colors, strict=True)]
            # the targets where every cell of the shape lands on the board (with a colour it
            # may lie on), one cell at a time over the targets left: most fail at once (a box
            # piece of 200 cells fits one target of 512: #24)
            fits = numbers
            for step, color in steps:
                if self.match_colors:
                    fits = [k for k in fits if (moved := cell_of.get(k + step)) is not None
                            and self._fits(board[moved], color)]
                else:
                    fits = [k for k in fits if k + step in cell_of]
            for k in fits:
                if can_translate(tuple(map(sub, cell_of[k], anchor))):
                    found.setdefault(tuple(cell_of[k + step] for step, _ in steps), None)
        return list(found)

    def _wrapped_placements(self, piece: Piece) -> list[tuple[Cell, ...]]:
        """:meth:`placements_of` on a board that wraps: folded onto the tube or torus,
        colours alongside."""
        board = self.board
        can_translate = self.lattice.can_translate
        wrap = self.wrap
        assert wrap is not None
        found: dict[tuple[Cell, ...], None] = {}
        for shape in self.piece_orientations(piece):
            anchor = shape.cells[0]
            for target in sorted(board):
                shift = tuple(t - a for t, a in zip(target, anchor, strict=True))
                if not can_translate(shift):
                    continue
                moved_cells = (tuple(v + d for v, d in zip(cell, shift, strict=True))
                               for cell in shape.cells)
                folded = [wrap.fold(cell) for cell in moved_cells]
                if len(set(folded)) != len(folded):
                    continue  # the piece would cover a cell twice
                pairs = sorted(zip(folded, shape.colors, strict=True))
                if all(cell in board and self._fits(board[cell], color)
                       for cell, color in pairs):
                    found.setdefault(tuple(cell for cell, _ in pairs), None)
        return list(found)

    def _fits(self, board_colour: str, colour: str) -> bool:
        """Whether a piece cell of ``colour`` may lie on a board cell of ``board_colour``."""
        return (not self.match_colors or board_colour == colour
                or self.neutral in (board_colour, colour))

    def build_problem(self) -> CoverProblem:

        builder = CoverBuilder()
        area = len(self.board)
        optional = self.optional  # secondary items: covered at most once (#24)
        for cell in sorted(self.board):
            if cell in optional:
                builder.secondary(("cell", *cell))
                continue
            builder.primary(("cell", *cell))
            near = (self.lattice.neighbours(cell) if self.wrap is None
                    else self.wrap.neighbours(self.lattice, cell))
            builder.neighbours(("cell", *cell), [("cell", *n) for n in near
                                                 if n in self.board and n not in optional])
        limited = set()
        for piece in self.pieces:
            hi = piece.max_copies(area)
            if piece.lo > 0 or (piece.hi is not None and piece.hi < area // len(piece.shape)) \
                    or optional:  # a placement on optional cells alone covers its piece's item
                builder.primary(("piece", piece.name), piece.lo, max(hi, piece.lo))
                limited.add(piece.name)
        item = {cell: ("cell", *cell) for cell in self.board}  # each name made once
        for piece in self.pieces:
            head = [("piece", piece.name)] if piece.name in limited else []
            for cells in around_givens(self, piece, self.placements_of(piece)):
                builder.option(head + [item[c] for c in cells], (piece.name, cells))
        return builder.build()

    def decode(self, chosen: tuple[int, ...]) -> PolyominoSolution:
        """The solution of options ``chosen``, its placements in the order of their cells.

        Each option's :class:`Placement` is made once and kept (a frozen value, shared by
        every solution that uses it): making 14 of them for each of Onega's 133,000
        assemblies was 2.5 s of the 5 s it took to list them. The placements of one
        solution share no cell, so the order of their cells is the order of their first
        cells: a short key, where comparing whole cell tuples cost another 1.3 s."""
        made = self._made
        if not made:
            self._made_labels = self.problem.labels
        labels = self._made_labels
        got = []
        for k in chosen:
            found = made.get(k)
            if found is None:
                piece, cells = labels[k]
                found = made[k] = (cells[0] if cells else (), Placement(piece, cells))
            got.append(found)
        got.sort(key=_first)
        return PolyominoSolution(tuple(placement for _, placement in got))

    def option_labels(self, solution: Solution) -> list[Hashable]:
        assert isinstance(solution, PolyominoSolution)
        return [(p.piece, p.cells) for p in solution.placements]

    def move_words(self, label: Hashable) -> str:
        piece, cells = cast(Any, label)
        return f"{piece} at " + " ".join(",".join(str(v) for v in cell) for cell in cells)

    def item_words(self, name: Hashable) -> str:
        what, *rest = cast(Any, name)
        return ("cell " + ",".join(str(v) for v in rest)) if what == "cell" else \
            " ".join(str(v) for v in cast(Any, name))

    def drawn_ids(self, solution: Solution, labels: Sequence[Hashable]) -> list[str]:
        """The elements that draw the placements ``labels`` (pictures.py's ids): on flat
        lattices the i-th placement's shape ``piece-i``; on cube its faces in the isometric
        view (``iso-i``, which names ``iso-i-k``, its k-th face) and its cells in each layer
        it has cubes in (``layerL-piece-i``), so the page marks a solid's move too."""
        assert isinstance(solution, PolyominoSolution)
        wanted = set(labels)
        ids: list[str] = []
        for i, p in enumerate(solution.placements):
            if (p.piece, p.cells) not in wanted:
                continue
            if self.lattice.dimensions == 2:
                ids.append(f"piece-{i}")
            else:
                ids.append(f"iso-{i}")
                ids += [f"layer{layer}-piece-{i}" for layer in sorted({c[0] for c in p.cells})]
        return ids

    # -- symmetry --------------------------------------------------------------------------
    def grid_symmetries(self) -> list[tuple[Transform, Cell, dict[str, str]]]:
        """The lattice's symmetries that are symmetries of the whole puzzle, the identity
        first, each with the translation that puts the moved cells back in place and where
        each piece goes (its own name, or the piece it exchanges with): what
        :meth:`build_symmetries` turns into option permutations, the one form everything
        else uses. The maps are the lattice's whole point group (8 on square, 12 on
        triangle and hexagon, 48 on cube), mirrors included whatever the rules say.

        A map is a symmetry when it keeps the board (and its colours, when they must match)
        and sends each piece's set of allowed orientations onto the set of a piece with the
        same count: the piece itself where it can, otherwise the one differently named piece
        whose set it is. So a mirror exchanges a one-sided piece and its mirror image (and
        the two chiral pieces of the Soma cube), and a quarter turn exchanges ``h = "##"``
        and ``v = "#/#"`` under ``rotate = false``; two differently named pieces of one shape
        are never exchanged (puzzle-format.md).
        """
        lattice = self.lattice
        colored = self.board if self.match_colors else {c: "#" for c in self.board}
        if self.optional:  # a symmetry keeps the cells that may stay empty apart
            colored = {c: ("?" if c in self.optional else "") + v for c, v in colored.items()}
        home = lattice.normalize(colored)
        back = lattice.normalize_offset(colored)
        firsts = {p.name: self.piece_orientations(p)[0] for p in self.pieces}
        sets = {p.name: frozenset(self.piece_orientations(p)) for p in self.pieces}
        counts = {p.name: (p.lo, p.hi) for p in self.pieces}
        rules = {p.name: piece_rules(self, p) for p in self.pieces}
        candidates: list[tuple[Transform, Transform, Cell]] = []  # point map, board map, shift
        if self.wrap is None:
            for turn in lattice.group():
                moved = {turn(cell): color for cell, color in colored.items()}
                if lattice.normalize(moved) != home:
                    continue
                there = lattice.normalize_offset(moved)
                shift = tuple(t - h for t, h in zip(there, back, strict=True))
                candidates.append((turn, turn, shift))
        else:  # a tube or torus: point maps and turns about the axis, folded (#27)
            zero = (0,) * lattice.dimensions
            candidates = [(turn, _folded(self.wrap, turn, shift), zero)
                          for turn, shift in self.wrap.symmetries(lattice, colored)]
        result: list[tuple[Transform, Cell, dict[str, str]]] = []
        for turn, board_map, shift in candidates:
            goes: dict[str, str] = {}
            for name, orients in sets.items():
                image = _image(lattice, turn, name, firsts, sets, rules)
                if image == orients:
                    goes[name] = name
                    continue
                others = [q for q in sets if sets[q] == image and counts[q] == counts[name]]
                if len(others) != 1:
                    break
                goes[name] = others[0]
            else:
                if len(set(goes.values())) == len(goes):
                    result.append((board_map, shift, goes))
        return keeping_givens(self, result)

    def build_symmetries(self) -> Perms:
        """Each board symmetry moved onto placements: a placement is its piece and its
        items, and its image is the placement of the image piece on the moved cells
        (cover/symmetry.py: options_by_items_all, in plain Python or numpy as it chooses)."""
        from puzzlebox.cover.symmetry import options_by_items_all

        problem = self.problem
        index = {name: i for i, name in enumerate(problem.item_names)}
        number = {p.name: i for i, p in enumerate(self.pieces)}
        tags = [number[label[0]] for label in problem.labels]
        item_perms: list[list[int]] = []
        tag_perms: list[list[int]] = []
        for turn, shift, goes in self.grid_symmetries():
            item_perm = list(range(problem.n_items))
            for cell in self.board:
                image = tuple(v + d for v, d in zip(turn(cell), shift, strict=True))
                item_perm[index[("cell", *cell)]] = index[("cell", *image)]
            for name, image_piece in goes.items():
                if ("piece", name) in index:  # a piece with the same count is limited alike
                    item_perm[index[("piece", name)]] = index[("piece", image_piece)]
            item_perms.append(item_perm)
            tag_perms.append([number[goes[p.name]] for p in self.pieces])
        if not item_perms:
            return []
        return options_by_items_all(problem, item_perms, tags, tag_perms)

    def board_maps(self) -> list[dict[Cell, Cell]]:
        """The non-identity symmetries as maps of the board's cells, derived from the
        option permutations (what a sweep of uncovered cells needs)."""
        index = {name: i for i, name in enumerate(self.problem.item_names)}
        cell_at = {i: cell for cell in self.board for i in [index[("cell", *cell)]]}
        maps = []
        for items, _ in self._symmetry_pairs():
            maps.append({cell: cell_at[items[i]] for i, cell in cell_at.items()})
        return maps

    # -- counting by sweeping --------------------------------------------------------------
    def sweep_plan(self) -> SweepPlan:
        """Cells along the board's longest axis, so the sweep's frontier is a cross-section
        (the short side of a rectangle, the smallest face of a box); the symmetries as
        (item, option) permutations. Ties go to the later axis (columns before rows)."""
        from puzzlebox.engine.memo import SweepPlan

        problem = self.problem
        index = {name: i for i, name in enumerate(problem.item_names)}
        spans = _spans(self.board)
        axes = sorted(range(len(spans)), key=lambda i: (-spans[i], -i))
        cells = sorted(self.board, key=lambda cell: tuple(cell[i] for i in axes))
        order = tuple(index[("cell", *cell)] for cell in cells)
        return SweepPlan(order, self._symmetry_pairs)

    # -- proofs ----------------------------------------------------------------------------
    def proofs(self) -> Iterator[Proof]:
        return polyomino_proofs(self)

    def quick_proofs(self) -> Iterator[Proof]:
        """Area and colouring: the proofs that place no piece (with optional cells, the area
        range alone, as :meth:`proofs` gives)."""
        if self.optional:
            return polyomino_proofs(self)
        proof = proof_without_placements(self)
        return iter(() if proof is None else (proof,))

    # -- drawing ---------------------------------------------------------------------------
    def text_lines(self, solution: Solution, style: str = "text") -> list[str]:
        """Letters (``text``) or piece outlines (``outline``)."""
        assert isinstance(solution, PolyominoSolution)
        if style == "outline":
            return (outline_lines(self, solution) + open_label_lines(self, solution)
                    + wrap_note(self, outline=True))
        return letter_lines(self, solution) + open_label_lines(self, solution) + wrap_note(self)

    def cover_entries_bound(self) -> int:
        """Each orientation of a piece lies at most once on each board cell (by where its
        first cell goes), and at most once per shift of its bounding box inside the board's
        (coordinate by coordinate, on any lattice, by the lattice's period: whole blocks on
        rhombic); each placement lists its cells and the piece. Exact for a rectangle or a
        box without holes; on a board that wraps, once per board cell."""
        cells = len(self.board)
        spans = _spans(self.board)
        period = self.lattice.period
        total = 0
        for piece in self.pieces:
            size = len(piece.shape)
            for shape in self.piece_orientations(piece):
                boxes = 1
                for board_span, shape_span in zip(spans, _spans(shape.cells), strict=True):
                    boxes *= max((board_span - shape_span) // period + 1, 0)
                if self.wrap is not None:  # across the seam too: once per board cell
                    total += cells * (size + 1)
                    continue
                total += max(min(cells - size + 1, boxes), 0) * (size + 1)
        return total

    def log_solutions_lower_bound(self) -> float | None:
        """Where every piece is one cell with an exact count, no cell is given and colours
        are not matched, the count is exact: a solution exists when the copies fill the
        board, and the number of solutions is the multinomial ``n! / (c1! c2! ...)`` (the
        ``n`` cells shared out among the pieces, copies of a piece interchangeable), as
        ``lgamma``. Any other puzzle: None (no cheap proof that a solution exists)."""
        if self.givens or self.match_colors or self.labels is not None or self.optional:
            return None
        counts = []
        for piece in self.pieces:
            if len(piece.shape) != 1 or piece.hi is None or piece.lo != piece.hi:
                return None
            counts.append(piece.lo)
        if sum(counts) != len(self.board):
            return None
        return math.lgamma(len(self.board) + 1) - sum(math.lgamma(c + 1) for c in counts)

    def pieces_to_make(self) -> list[Piece]:
        return self.pieces

    def text_owners(self, solution: Solution) -> list[list[int | None]] | None:
        """The owner of each character of the letter drawing, as render/text.py lays it out
        on this puzzle's lattice (offset hexagon rows, cube layers under headings)."""
        assert isinstance(solution, PolyominoSolution)
        return letter_owners(self, solution)

    def describe_lines(self) -> list[str]:
        return describe_polyomino(self) + optional_lines(self) + designer_lines(self)

    def solution_panel(self, solution: Solution, title: str) -> Panel:
        from puzzlebox.puzzles.polyomino.pictures import polyomino_solution_panel  # matplotlib

        assert isinstance(solution, PolyominoSolution)
        return polyomino_solution_panel(self, solution, title)

    def puzzle_panels(self, title: str) -> tuple[Panel, list[Panel]]:
        from puzzlebox.puzzles.polyomino.pictures import (  # matplotlib
            polyomino_board_panel,
            polyomino_piece_panels,
        )

        return polyomino_board_panel(self, title), polyomino_piece_panels(self)

    # -- one tiling by local search --------------------------------------------------------
    def sink_solutions(
        self,
        seed: int | None = None,
        stats: SearchStats | None = None,
        time_limit: float | None = None,
        progress: Callable[[str], None] | None = None,
        stop: Callable[[], bool] | None = None,
    ) -> Iterator[PolyominoSolution]:
        """One tiling of the board by sink and exact finish
        (:func:`puzzlebox.puzzles.polyomino.repair_tiling.tile_by_sink`), or nothing within
        ``time_limit`` seconds (default :data:`SINK_SECONDS`). Built for big boards of many
        distinct pieces, where backtracking is hopeless (``parallelogram-7``); nothing found
        proves nothing. ``stop`` is looked at every few ms of its work; when it says so the
        search raises ``repair_tiling.SinkStopped``."""
        from puzzlebox.puzzles.polyomino.repair_tiling import tile_by_sink  # numba

        if self.impossibility() is not None:
            return
        try:
            solution, report = tile_by_sink(
                self,
                seed=seed or 0,
                time_limit=SINK_SECONDS if time_limit is None else time_limit,
                progress=progress,
                stop=stop,
            )
        except ValueError as error:
            raise EngineError(f"{self.name}: the sink search cannot take it: {error}") from None
        if stats is not None:
            stats.engine = SINK
            stats.nodes = report.nodes
            stats.search_seconds = report.seconds
            stats.solutions = int(solution is not None)
            stats.complete = False
        if solution is not None:
            object.__setattr__(solution, "puzzle", self)
            yield solution


def _image(lattice: Lattice, turn: Transform, name: str, firsts: dict[str, Shape],
           sets: dict[str, frozenset[Shape]], rules: dict[str, tuple[bool, bool]]
           ) -> frozenset[Shape]:  # fmt: skip
    """The set of orientations of piece ``name`` moved by ``turn``. Where the piece's rules
    allow a normal subgroup H of the point group (all of it, its rotations, or only the
    identity: not the identity and one mirror), the image of its set H s is H (turn s): the
    set, among the pieces' sets under the same rules, that holds the one shape ``turn s``
    (sets of one H are its orbits, equal or disjoint). So one shape is moved, not the
    24 orientations of a solid piece under 48 maps (issue #23); else every one is."""
    rotate, reflect = rules[name]
    if rotate or not reflect:
        moved = lattice.transformed(firsts[name], turn)
        for other, orients in sets.items():
            if rules[other] == rules[name] and moved in orients:
                return orients
    return frozenset(lattice.transformed(s, turn) for s in sets[name])


def _folded(wrap: Wrap, turn: Transform, shift: Cell) -> Transform:
    """A point map followed by a translation, folded onto a wrapped board: one map of the
    board's cells (named by both, so that each is unique)."""

    def apply(cell: Cell) -> Cell:
        return wrap.fold(tuple(v + d for v, d in zip(turn(cell), shift, strict=True)))

    return Transform(f"{turn.name}+{shift}", turn.proper, apply)


def _spans(cells: Iterable[Cell]) -> list[int]:
    """How many values each coordinate takes between its least and greatest (the extent of
    the bounding box, axis by axis)."""
    cells = list(cells)
    return [
        1 + max(cell[i] for cell in cells) - min(cell[i] for cell in cells)
        for i in range(len(cells[0]))
    ]


# -- the kind's own search, in the engine registry ----------------------------------------------


def _sink_accepts(job: Job) -> str | None:
    from puzzlebox.puzzles.polyomino.repair_tiling import sink_takes

    puzzle = job.puzzle
    if not isinstance(puzzle, PolyominoPuzzle) or job.problem is not puzzle.problem:
        return "the sink search tiles polyomino boards only"
    if job.mode is not Mode.SOLUTIONS or job.limit != 1:
        return "the sink search finds one tiling: use 'solve' (one solution)"
    if job.forced or job.excluded:
        return "the sink search tiles whole boards, not subproblems"
    if puzzle.lattice.dimensions != 2:
        return "the sink search re-packs windows of rows and columns: flat boards only"
    if puzzle.wrap is not None:
        return "the sink search re-packs windows of a flat board: not boards that wrap"
    if not sink_takes(puzzle):
        return "the sink search needs pieces with exact counts that fill the board"
    return None


def _sink_start(job: Job) -> Search:
    from puzzlebox.puzzles.polyomino.repair_tiling import start_sink

    return start_sink(job)


register(EngineSpec(
    name=SINK,
    summary="one tiling of a big board of many distinct pieces by local search (pack all but "
    "a corner, finish the corner exactly); `solve` only, it never proves there is none",
    can=frozenset({Capability.SOLVE}),
    start=_sink_start,
    accepts=_sink_accepts,
    seeded=True,
))  # fmt: skip
