"""Polyomino packing: pieces of any shape, with copies, placed on a board of any shape.

Items: one per board cell (covered exactly once) and one per piece whose count limits it
(covered ``lo..hi`` times). Options: every distinct orientation of every piece at every
position where it lies on board cells (of matching colours, when colours matter).
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np

from puzzlebox.cover.problem import CoverBuilder, CoverProblem
from puzzlebox.engine.memo import SweepPlan
from puzzlebox.engine.registry import EngineSpec, register
from puzzlebox.engine.search import Capability, Job, Mode, Search
from puzzlebox.engine.stats import SearchStats
from puzzlebox.geometry import SYMMETRIES, Shape, Symmetry, normalize, orientations
from puzzlebox.geometry.lattice import Cell
from puzzlebox.geometry.square import SQUARE
from puzzlebox.puzzles.base import SINK, Puzzle, Solution, register_kind
from puzzlebox.puzzles.givens import Given, around_givens, keeping_givens, piece_rules
from puzzlebox.puzzles.labels import Labels
from puzzlebox.puzzles.proofs import Proof

if TYPE_CHECKING:
    from puzzlebox.render.pictures import Panel


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


@register_kind
class PolyominoPuzzle(Puzzle):
    """Pieces packed into a board, optionally matching the board's colours."""

    kind = "polyomino"

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
    ) -> None:
        super().__init__(name, title, notes)
        self.board = dict(board)
        self.pieces = list(pieces)
        self.rotate = rotate
        self.reflect = reflect
        self.match_colors = match_colors
        self.board_name = board_name
        self.givens = tuple(givens)  # pieces fixed in place (puzzles/givens.py)
        self.labels = labels  # named cells and groups of cells (puzzles/labels.py)

    # -- placements ------------------------------------------------------------------------
    def _plain(self, shape: Shape) -> Shape:
        """The shape as the rules see it: colours only count when they must match."""
        return shape if self.match_colors else Shape(shape.cells, ("#",) * len(shape))

    def piece_orientations(self, piece: Piece) -> list[Shape]:
        rotate, reflect = piece_rules(self, piece)
        return orientations(self._plain(piece.shape), rotate, reflect)

    def placements_of(self, piece: Piece) -> list[tuple[Cell, ...]]:
        """Every set of board cells the piece can cover, each once."""
        board = self.board
        rows = [r for r, _ in board]
        cols = [c for _, c in board]
        found: dict[tuple[Cell, ...], None] = {}
        for shape in self.piece_orientations(piece):
            for dr in range(min(rows), max(rows) - shape.height + 2):
                for dc in range(min(cols), max(cols) - shape.width + 2):
                    cells = tuple((r + dr, c + dc) for r, c in shape.cells)
                    if all(
                        cell in board and (not self.match_colors or board[cell] == color)
                        for cell, color in zip(cells, shape.colors)
                    ):
                        found.setdefault(cells, None)
        return list(found)

    def build_problem(self) -> CoverProblem:
        builder = CoverBuilder()
        area = len(self.board)
        for cell in sorted(self.board):
            builder.primary(("cell", *cell))
            r, c = cell
            near = [(r - 1, c), (r, c - 1), (r, c + 1), (r + 1, c)]
            builder.neighbours(("cell", *cell), [("cell", *n) for n in near if n in self.board])
        limited = set()
        for piece in self.pieces:
            hi = piece.max_copies(area)
            if piece.lo > 0 or (piece.hi is not None and piece.hi < area // len(piece.shape)):
                builder.primary(("piece", piece.name), piece.lo, max(hi, piece.lo))
                limited.add(piece.name)
        for piece in self.pieces:
            head = [("piece", piece.name)] if piece.name in limited else []
            for cells in around_givens(self, piece, self.placements_of(piece)):
                builder.option(head + [("cell", *c) for c in cells], (piece.name, cells))
        return builder.build()

    def decode(self, chosen: tuple[int, ...]) -> PolyominoSolution:
        labels = self.problem.labels
        placements = [Placement(*labels[k]) for k in chosen]
        return PolyominoSolution(tuple(sorted(placements, key=lambda p: (p.cells, p.piece))))

    def option_labels(self, solution: Solution) -> list[Hashable]:
        assert isinstance(solution, PolyominoSolution)
        return [(p.piece, p.cells) for p in solution.placements]

    # -- symmetry --------------------------------------------------------------------------
    def grid_symmetries(self) -> list[tuple[Symmetry, Cell, dict[str, str]]]:
        """The grid symmetries that are symmetries of the whole puzzle, the identity first,
        each with the offset that puts the moved cells back in place and where each piece
        goes (its own name, or the piece it exchanges with): what :meth:`build_symmetries`
        turns into option permutations, the one form everything else uses.

        A map is a symmetry when it keeps the board (and its colours, when they must match)
        and sends each piece's set of allowed orientations onto the set of a piece with the
        same count: the piece itself where it can, otherwise the one differently named piece
        whose set it is. So a mirror exchanges a one-sided piece and its mirror image, and a
        quarter turn exchanges ``h = "##"`` and ``v = "#/#"`` under ``rotate = false``; two
        differently named pieces of one shape are never exchanged (puzzle-format.md).
        """
        colored = self.board if self.match_colors else {c: "#" for c in self.board}
        home = normalize(colored)
        r0 = min(r for r, _ in self.board)
        c0 = min(c for _, c in self.board)
        sets = {p.name: frozenset(self.piece_orientations(p)) for p in self.pieces}
        counts = {p.name: (p.lo, p.hi) for p in self.pieces}
        result: list[tuple[Symmetry, Cell, dict[str, str]]] = []
        for sym in SYMMETRIES:
            moved = {sym(cell): color for cell, color in colored.items()}
            if normalize(moved) != home:
                continue
            goes: dict[str, str] = {}
            for name, orients in sets.items():
                turn = SQUARE.group()[SYMMETRIES.index(sym)]
                image = frozenset(SQUARE.transformed(s, turn) for s in orients)
                if image == orients:
                    goes[name] = name
                    continue
                others = [q for q in sets if sets[q] == image and counts[q] == counts[name]]
                if len(others) != 1:
                    break
                goes[name] = others[0]
            else:
                if len(set(goes.values())) == len(goes):
                    r1 = min(r for r, _ in moved)
                    c1 = min(c for _, c in moved)
                    result.append((sym, (r0 - r1, c0 - c1), goes))
        return keeping_givens(self, result)

    def build_symmetries(self) -> np.ndarray:
        """Each board symmetry moved onto placements as whole arrays: a placement is its
        piece and its items, and its image is the placement of the image piece on the moved
        cells (cover/symmetry.py: options_by_items)."""
        from puzzlebox.cover.symmetry import options_by_items

        problem = self.problem
        index = {name: i for i, name in enumerate(problem.item_names)}
        number = {p.name: i for i, p in enumerate(self.pieces)}
        tags = np.array([number[label[0]] for label in problem.labels], dtype=np.int64)
        perms = []
        for sym, (dr, dc), goes in self.grid_symmetries():
            item_perm = np.arange(problem.n_items)
            for cell in self.board:
                r, c = sym(cell)
                item_perm[index[("cell", *cell)]] = index[("cell", r + dr, c + dc)]
            for name, image in goes.items():
                if ("piece", name) in index:  # a piece with the same count is limited alike
                    item_perm[index[("piece", name)]] = index[("piece", image)]
            tag_perm = np.array([number[goes[p.name]] for p in self.pieces], dtype=np.int64)
            perms.append(options_by_items(problem, item_perm, tags, tag_perm))
        return np.array(perms, dtype=np.int64).reshape(len(perms), problem.n_options)

    def board_maps(self) -> list[dict[Cell, Cell]]:
        """The non-identity symmetries as maps of the board's cells, derived from the
        option permutations (what a sweep of uncovered cells needs)."""
        index = {name: i for i, name in enumerate(self.problem.item_names)}
        cell_at = {i: cell for cell in self.board for i in [index[("cell", *cell)]]}
        maps = []
        for items, _ in self.symmetry_pairs():
            maps.append({cell: cell_at[items[i]] for i, cell in cell_at.items()})
        return maps

    # -- counting by sweeping --------------------------------------------------------------
    def sweep_plan(self) -> SweepPlan:
        """Cells along the board's long side, so the sweep's frontier is its short side; the
        symmetries as (item, option) permutations."""
        problem = self.problem
        index = {name: i for i, name in enumerate(problem.item_names)}
        rows = [r for r, _ in self.board]
        cols = [c for _, c in self.board]
        tall = max(rows) - min(rows) > max(cols) - min(cols)
        cells = sorted(self.board) if tall else sorted(self.board, key=lambda rc: rc[::-1])
        order = tuple(index[("cell", *cell)] for cell in cells)
        return SweepPlan(order, self.symmetry_pairs)

    # -- proofs ----------------------------------------------------------------------------
    def proofs(self) -> Iterator[Proof]:
        from puzzlebox.puzzles.proofs import polyomino_proofs

        return polyomino_proofs(self)

    # -- drawing ---------------------------------------------------------------------------
    def text_lines(self, solution: Solution, style: str = "text") -> list[str]:
        """Letters (``text``) or piece outlines (``outline``)."""
        from puzzlebox.render.labels import open_label_lines
        from puzzlebox.render.text import letter_lines, outline_lines

        assert isinstance(solution, PolyominoSolution)
        if style == "outline":
            return outline_lines(self, solution) + open_label_lines(self, solution)
        return letter_lines(self, solution) + open_label_lines(self, solution)

    def cover_entries_bound(self) -> int:
        """Each orientation of a piece lies at most once on each board cell (by where its
        first cell goes), and at most once per shift of its bounding box inside the board's;
        each placement lists its cells and the piece. Exact for a rectangle without holes."""
        cells = len(self.board)
        rows = {cell[0] for cell in self.board}
        cols = {cell[-1] for cell in self.board}
        height = max(rows) - min(rows) + 1
        width = max(cols) - min(cols) + 1
        total = 0
        for piece in self.pieces:
            size = len(piece.shape)
            for shape in self.piece_orientations(piece):
                shifts = min(
                    cells - size + 1,
                    max(height - shape.height + 1, 0) * max(width - shape.width + 1, 0),
                )
                total += max(shifts, 0) * (size + 1)
        return total

    def text_owners(self, solution: Solution) -> list[list[int | None]] | None:
        assert isinstance(solution, PolyominoSolution)
        owner = solution.owner_grid()
        rows = range(min(r for r, _ in self.board), max(r for r, _ in self.board) + 1)
        cols = range(min(c for _, c in self.board), max(c for _, c in self.board) + 1)
        return [[owner.get((r, c)) for c in cols] for r in rows]

    def describe_lines(self) -> list[str]:
        from puzzlebox.render.labels import designer_lines
        from puzzlebox.render.text import describe_polyomino

        return describe_polyomino(self) + designer_lines(self)

    def solution_panel(self, solution: Solution, title: str) -> Panel:
        from puzzlebox.render.pictures import polyomino_solution_panel

        assert isinstance(solution, PolyominoSolution)
        return polyomino_solution_panel(self, solution, title)

    def puzzle_panels(self, title: str) -> tuple[Panel, list[Panel]]:
        from puzzlebox.render.pictures import polyomino_board_panel, polyomino_piece_panels

        return polyomino_board_panel(self, title), polyomino_piece_panels(self)

    # -- one tiling by local search --------------------------------------------------------
    def sink_solutions(
        self,
        seed: int | None = None,
        stats: SearchStats | None = None,
        time_limit: float | None = None,
        progress: Callable[[str], None] | None = None,
    ) -> Iterator[PolyominoSolution]:
        """One tiling of the board by sink and exact finish
        (:func:`puzzlebox.puzzles.repair_tiling.tile_by_sink`), or nothing within
        ``time_limit`` seconds (default :data:`SINK_SECONDS`). Built for big boards of many
        distinct pieces, where backtracking is hopeless (``parallelogram-7``); nothing found
        proves nothing."""
        from puzzlebox.engine.errors import EngineError
        from puzzlebox.puzzles.repair_tiling import tile_by_sink

        if self.impossibility() is not None:
            return
        try:
            solution, report = tile_by_sink(
                self,
                seed=seed or 0,
                time_limit=SINK_SECONDS if time_limit is None else time_limit,
                progress=progress,
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


# -- the kind's own search, in the engine registry ----------------------------------------------


def _sink_accepts(job: Job) -> str | None:
    from puzzlebox.puzzles.repair_tiling import sink_takes

    puzzle = job.puzzle
    if not isinstance(puzzle, PolyominoPuzzle) or job.problem is not puzzle.problem:
        return "the sink search tiles polyomino boards only"
    if job.mode is not Mode.SOLUTIONS or job.limit != 1:
        return "the sink search finds one tiling: use 'solve' (one solution)"
    if job.forced or job.excluded:
        return "the sink search tiles whole boards, not subproblems"
    if not sink_takes(puzzle):
        return "the sink search needs pieces with exact counts that fill the board"
    return None


def _sink_start(job: Job) -> Search:
    from puzzlebox.puzzles.repair_tiling import start_sink

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
