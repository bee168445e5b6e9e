"""Find one tiling of a big board by repairing a packing with holes (large neighbourhood search).

A backtracking search for one tiling of a board with many distinct pieces commits to its
early choices and then exhausts the end game, where a fixed set of leftover pieces must fit
the last holes. Repair works the other way round: keep a packing that covers most of the
board, free a window around the holes (its holes and the pieces lying wholly inside it), and
re-pack that window with its own pieces and the pieces not placed yet, leaving fewer holes
or as many no farther from the centre of all holes. Holes so drift together and shrink;
when they all fit in one window, a re-pack that leaves none is a tiling of the whole board.

Each re-pack is a small exact search (:func:`_pack_window`, a numba kernel): the window's
free cells are filled in a fixed order, the first empty cell is covered by a placement whose
first cell it is or, where allowed and while the hole allowance lasts, left empty. Placements
are tried in a random order (seeded), so equal moves drift. A node budget bounds each call.

When the last holes are single cells far apart this stalls (it does on parallelogram-7).
:func:`tile_by_sink` keeps the holes in one corner instead and finishes that corner with the
compiled engine; it found the tiling of parallelogram-7 kept in docs/solutions/

Both are incomplete by design: they find tilings, and a failure proves nothing. The answer
is checked as a cover of the whole puzzle before it is returned.
"""

from __future__ import annotations

import dataclasses
import time
from collections.abc import Callable, Generator
from dataclasses import dataclass, field

import numpy as np
from numba import njit

from puzzlebox.cover.problem import CoverBuilder
from puzzlebox.engine.compiled import CompiledSearch
from puzzlebox.engine.errors import EngineError
from puzzlebox.engine.kernel_cache import announce
from puzzlebox.engine.search import Job, Step
from puzzlebox.engine.stats import SearchStats
from puzzlebox.puzzles.polyomino.model import (
    SINK_SECONDS,
    Piece,
    Placement,
    PolyominoPuzzle,
    PolyominoSolution,
)

Progress = Callable[[str], None]
# The work of an attempt, a little at a time: nodes searched, yielded after each window's
# re-pack and each slice of an exact finish; its return value says whether it tiled.
Work = Generator[int, None, bool]
FINISH_SLICE = 1 << 16  # nodes of the compiled engine between two looks at a stop: a few
# ms (2**21 at once made a stop, or Ctrl-C, wait up to 2 s: issue #38 item 4)


class SinkStopped(Exception):
    """The sink search saw its stop (``stop()`` true) between two slices of its work."""

_HOLE = -2  # the choice "leave this cell empty" on the kernel's stack
_NONE = -1


@njit(cache=True)
def _pack_window(n, anchor_start, anchor_opts, opt_piece, opt_start, opt_cells, n_pieces,
                 hole_ok, max_holes, max_nodes):  # pragma: no cover - compiled
    """Fill local cells ``0..n-1`` in index order; return (status, nodes, choices).

    Option ``o`` covers ``opt_cells[opt_start[o]:opt_start[o+1]]`` (local cells, the first
    of them its smallest) and uses piece ``opt_piece[o]`` (each piece at most once). The
    options whose smallest cell is ``c`` are ``anchor_opts[anchor_start[c]:anchor_start[c+1]]``
    in the order tried. Cell ``c`` may be left empty when ``hole_ok[c]``, at most
    ``max_holes`` cells in all. Status 1: filled (``choices`` lists the options), 0: no way
    exists, 2: ``max_nodes`` spent.
    """
    covered = np.zeros(n + 1, dtype=np.bool_)
    used = np.zeros(n_pieces, dtype=np.bool_)
    cell = np.empty(n + 2, dtype=np.int64)
    nxt = np.empty(n + 2, dtype=np.int64)
    choice = np.full(n + 2, _NONE, dtype=np.int64)
    depth = 0
    holes = 0
    nodes = 0
    c0 = 0
    while c0 < n and covered[c0]:
        c0 += 1
    cell[0] = c0
    nxt[0] = anchor_start[c0] if c0 < n else 0
    while depth >= 0:
        c = cell[depth]
        if c >= n:
            out = np.empty(depth, dtype=np.int64)
            m = 0
            for d in range(depth):
                if choice[d] >= 0:
                    out[m] = choice[d]
                    m += 1
            return 1, nodes, out[:m]
        o = choice[depth]
        if o >= 0:
            for j in range(opt_start[o], opt_start[o + 1]):
                covered[opt_cells[j]] = False
            used[opt_piece[o]] = False
        elif o == _HOLE:
            covered[c] = False
            holes -= 1
        choice[depth] = _NONE
        end = anchor_start[c + 1]
        placed = False
        while nxt[depth] < end:
            o = anchor_opts[nxt[depth]]
            nxt[depth] += 1
            if used[opt_piece[o]]:
                continue
            fits = True
            for j in range(opt_start[o], opt_start[o + 1]):
                if covered[opt_cells[j]]:
                    fits = False
                    break
            if fits:
                for j in range(opt_start[o], opt_start[o + 1]):
                    covered[opt_cells[j]] = True
                used[opt_piece[o]] = True
                choice[depth] = o
                placed = True
                break
        if not placed and nxt[depth] == end and hole_ok[c] and holes < max_holes:
            nxt[depth] = end + 1  # the hole branch is taken once
            covered[c] = True
            holes += 1
            choice[depth] = _HOLE
            placed = True
        if not placed:
            depth -= 1
            continue
        nodes += 1
        if nodes >= max_nodes:
            return 2, nodes, np.empty(0, dtype=np.int64)
        d = c + 1
        while d < n and covered[d]:
            d += 1
        depth += 1
        cell[depth] = d
        nxt[depth] = anchor_start[d] if d < n else 0
        choice[depth] = _NONE
    return 0, nodes, np.empty(0, dtype=np.int64)


def _units(puzzle: PolyominoPuzzle) -> list[Piece]:
    """Each copy as its own piece (named like the original) with exactly one use."""
    units = []
    for piece in puzzle.pieces:
        if piece.hi is None or piece.lo != piece.hi:
            raise ValueError(f"the sink search needs an exact count for piece {piece.name!r}")
        units += [dataclasses.replace(piece, lo=1, hi=1) for _ in range(piece.lo)]
    return units


def is_tiling(puzzle: PolyominoPuzzle, solution: PolyominoSolution) -> bool:
    """Check a solution as a cover of the puzzle's own problem (the arbiter of all engines)."""
    option_of = {
        (label[0], tuple(sorted(label[1]))): k for k, label in enumerate(puzzle.problem.labels)
    }
    chosen = []
    for p in solution.placements:
        k = option_of.get((p.piece, tuple(sorted(p.cells))))
        if k is None:
            return False
        chosen.append(k)
    return puzzle.problem.is_solution(chosen)


def sink_takes(puzzle: PolyominoPuzzle) -> bool:
    """Whether :func:`tile_by_sink` can take ``puzzle``: every piece with an exact count and
    their areas adding up to the board's (it tiles a board; it does not pack loosely)."""
    if any(piece.hi is None or piece.lo != piece.hi for piece in puzzle.pieces):
        return False
    if puzzle.givens:  # it moves every piece; a given must stay where it is
        return False
    return sum(piece.lo * len(piece.shape) for piece in puzzle.pieces) == len(puzzle.board)


class _Packing:
    """The board, every unit's placements, and the current packing (``owner``, ``where``)."""

    def __init__(self, puzzle: PolyominoPuzzle) -> None:
        self.puzzle = puzzle
        self.units = _units(puzzle)
        self.cells = sorted(puzzle.board)  # row by row: the fill order of every window
        index = {cell: i for i, cell in enumerate(self.cells)}
        self.row = np.array([r for r, _ in self.cells])
        self.col = np.array([c for _, c in self.cells])
        by_shape: dict[object, np.ndarray] = {}
        self.placements: list[np.ndarray] = []
        for unit in self.units:
            kind = (unit.shape, unit.rotate, unit.reflect)  # a piece's own rules count too
            if kind not in by_shape:
                rows = [sorted(index[c] for c in cells) for cells in puzzle.placements_of(unit)]
                if not rows:
                    raise ValueError(f"piece {unit.name!r} fits nowhere on the board")
                by_shape[kind] = np.array(rows, dtype=np.int64)
            self.placements.append(by_shape[kind])
        self.area = np.array([len(u.shape) for u in self.units])
        if int(self.area.sum()) != len(self.cells):
            raise ValueError("the pieces' areas do not add up to the board's")
        self.owner = np.full(len(self.cells), -1, dtype=np.int64)
        self.where = np.full(len(self.units), -1, dtype=np.int64)

    def holes(self) -> np.ndarray:
        return np.nonzero(self.owner < 0)[0]

    def repack(
        self,
        window: np.ndarray,
        max_holes: int,
        hole_ok: np.ndarray,
        max_nodes: int,
        rng: np.random.Generator,
        key: np.ndarray,
        touching: bool = False,
    ) -> tuple[int, int]:
        """Re-pack the window's free cells with its own units and the unplaced ones, leaving
        at most ``max_holes`` cells empty (only where ``hole_ok``). The units freed are those
        lying wholly inside the window, or with ``touching`` every unit meeting it (a bigger,
        rounder region that reaches out of the window). Cells are filled in order of
        ``key`` (so holes, which are left only when nothing fits, end up where the key is
        high). Returns (status, nodes) as :func:`_pack_window` does; on success the packing
        is changed."""
        placed = self.where >= 0
        inside = [
            u for u in np.nonzero(placed)[0].tolist()
            if (
                window[self.placements[u][self.where[u]]].any()
                if touching
                else window[self.placements[u][self.where[u]]].all()
            )
        ]
        free = (window & (self.owner < 0)) | np.isin(self.owner, inside)
        free_cells = np.nonzero(free)[0]
        free_cells = free_cells[np.argsort(key[free_cells], kind="stable")]
        local = np.full(len(self.cells), -1, dtype=np.int64)
        local[free_cells] = np.arange(len(free_cells))
        candidates = inside + np.nonzero(~placed)[0].tolist()
        rows: list[np.ndarray] = []
        owners: list[np.ndarray] = []
        which: list[np.ndarray] = []
        for k, u in enumerate(candidates):
            fit = np.nonzero(free[self.placements[u]].all(axis=1))[0]
            if len(fit):
                rows.append(np.sort(local[self.placements[u][fit]], axis=1))
                owners.append(np.full(len(fit), k, dtype=np.int64))
                which.append(fit)
        n = len(free_cells)
        if rows:
            lengths = np.concatenate([np.full(len(r), r.shape[1]) for r in rows])
            cells_flat = [r for block in rows for r in block]
            opt_piece = np.concatenate(owners)
            opt_which = np.concatenate(which)
        else:
            lengths, cells_flat = np.zeros(0, dtype=np.int64), []
            opt_piece = opt_which = np.zeros(0, dtype=np.int64)
        n_opts = len(cells_flat)
        opt_start = np.zeros(n_opts + 1, dtype=np.int64)
        np.cumsum(lengths, out=opt_start[1:])
        opt_cells = np.concatenate(cells_flat) if cells_flat else np.zeros(0, dtype=np.int64)
        anchors = np.array([r[0] for r in cells_flat], dtype=np.int64)
        order = rng.permutation(n_opts)
        order = order[np.argsort(anchors[order], kind="stable")]
        anchor_start = np.zeros(n + 2, dtype=np.int64)
        np.cumsum(np.bincount(anchors, minlength=n + 1)[: n + 1], out=anchor_start[1:])
        status, nodes, chosen = _pack_window(
            n, anchor_start, order, opt_piece, opt_start, opt_cells, len(candidates),
            hole_ok[free_cells].astype(np.bool_), max_holes, max_nodes,
        )
        if status == 1:
            for u in inside:
                self.owner[self.placements[u][self.where[u]]] = -1
                self.where[u] = -1
            for o in chosen.tolist():
                u = candidates[int(opt_piece[o])]
                self.where[u] = opt_which[o]
                self.owner[self.placements[u][opt_which[o]]] = u
        return int(status), int(nodes)

    def solution(self) -> PolyominoSolution:
        placements = [
            Placement(unit.name, tuple(self.cells[i] for i in self.placements[u][self.where[u]]))
            for u, unit in enumerate(self.units)
        ]
        return PolyominoSolution(tuple(sorted(placements, key=lambda p: (p.cells, p.piece))))


def _box(packing: _Packing, r0: int, c0: int, height: int, width: int) -> np.ndarray:
    return (
        (packing.row >= r0) & (packing.row < r0 + height)
        & (packing.col >= c0) & (packing.col < c0 + width)
    )


# -- sink and exact finish -----------------------------------------------------------------
#
# On parallelogram-7 the repair above ends with single empty cells scattered over the board,
# and they cannot be brought together: an exact re-pack of the pieces around one of them,
# asked to leave its hole nearer the others, never succeeded and was mostly proved
# impossible (the record is in docs/hard-instances.md). So the holes are kept together from
# the start: the board outside a corner (the sink) is packed with no hole at all, the deficit
# left in the sink, and the sink with a ring of the pieces around it is then finished by the
# compiled engine (smallest ring first: small rings are often proved impossible quickly).


@dataclass
class SinkReport:
    """How a sink-and-finish search went, for the record."""

    attempts: int = 0  # packings started (one random stream each)
    packed: int = 0  # attempts whose board outside the sink was packed with no hole
    finishes: int = 0  # exact finishes run
    proved: int = 0  # finishes proved impossible
    spent: int = 0  # finishes stopped at their node budget
    nodes: int = 0  # search nodes of the exact finishes
    seconds: float = 0.0
    found: bool = False
    log: list[str] = field(default_factory=list)


def _pack_outside_sink(
    packing: _Packing,
    to_sink: np.ndarray,
    rng: np.random.Generator,
    window: tuple[int, int],
    window_nodes: int,
    deadline: float,
) -> Work:
    """Repair windows until no cell outside the sink (``to_sink`` > 0) is empty, yielding
    each window's nodes.

    Each window is placed around an outside hole far from the sink; its re-pack may leave
    holes only as far from the sink as the farthest outside hole in it, filling the far
    cells first, and sink cells may stay empty freely. It is kept when the window has no
    more outside holes than before and they are no farther from the sink in all. Returns
    False when ``deadline`` (a ``perf_counter`` time) passes first.
    """
    top, left = int(packing.row.min()), int(packing.col.min())
    height = int(packing.row.max()) - top + 1
    width = int(packing.col.max()) - left + 1
    key = np.arange(len(packing.cells)) - to_sink * len(packing.cells)  # far cells first
    in_sink = to_sink == 0
    while time.perf_counter() < deadline:
        holes = packing.holes()
        out = holes[~in_sink[holes]]
        if len(out) == 0:
            return True
        wh = int(rng.integers(window[0], window[1] + 1))
        ww = int(rng.integers(window[0], window[1] + 1))
        far = np.argsort(-to_sink[out], kind="stable")[: max(1, len(out) // 4)]
        h = int(out[int(far[int(rng.integers(len(far)))])])
        r0 = int(packing.row[h]) - int(rng.integers(0, wh))
        c0 = int(packing.col[h]) - int(rng.integers(0, ww))
        r0 = min(max(r0, top), top + height - wh)
        c0 = min(max(c0, left), left + width - ww)
        box = _box(packing, r0, c0, wh, ww)
        was = out[box[out]]
        allowance = len(was) + int((box & in_sink).sum())
        hole_ok = to_sink <= to_sink[was].max()
        snapshot = (packing.owner.copy(), packing.where.copy())
        status, nodes = packing.repack(box, allowance, hole_ok, window_nodes, rng, key)
        yield max(1, nodes)
        if status != 1:
            continue
        after = packing.holes()
        now = after[box[after] & ~in_sink[after]]
        if len(now) > len(was) or (
            len(now) == len(was) and to_sink[now].sum() > to_sink[was].sum()
        ):
            packing.owner, packing.where = snapshot
    return False


def _exact_finish(packing: _Packing, region: np.ndarray, max_nodes: int
                  ) -> Generator[int, None, tuple[str, int]]:  # fmt: skip
    """Re-pack every piece meeting ``region``, with every piece not placed, leaving no hole,
    yielding the nodes of each slice of :data:`FINISH_SLICE`.

    The compiled engine (fewest-options item first) decides it as an exact cover of the
    freed cells and pieces. Returns ("found" | "none" | "open", nodes): found changes the
    packing into a tiling of the board; none is a proof that this region cannot be finished;
    open means ``max_nodes`` was spent.
    """
    placed = packing.where >= 0
    meeting = [
        u for u in np.nonzero(placed)[0].tolist()
        if region[packing.placements[u][packing.where[u]]].any()
    ]
    free = (region & (packing.owner < 0)) | np.isin(packing.owner, meeting)
    units = meeting + np.nonzero(~placed)[0].tolist()
    builder = CoverBuilder()
    for cell in np.nonzero(free)[0].tolist():
        builder.primary(("cell", cell))
    for u in units:
        builder.primary(("piece", u))
    labels: list[tuple[int, int]] = []
    for u in units:
        for w in np.nonzero(free[packing.placements[u]].all(axis=1))[0].tolist():
            cells = packing.placements[u][w].tolist()
            builder.option([("piece", u)] + [("cell", c) for c in cells], (u, w))
            labels.append((u, w))
    search = CompiledSearch(Job(builder.build(), limit=1))
    found: list[tuple[int, ...]] = []
    while not found and search.stats.nodes < max_nodes:
        before = search.stats.nodes
        step = search.step(min(max_nodes - before, FINISH_SLICE))
        yield max(1, search.stats.nodes - before)
        found = step.solutions
        if step.done:
            break
    if not found and not search.stats.complete:
        return "open", search.stats.nodes
    chosen = found[0] if found else None
    if chosen is None:
        return "none", search.stats.nodes
    for u in meeting:
        packing.owner[packing.placements[u][packing.where[u]]] = -1
        packing.where[u] = -1
    for o in chosen:
        u, w = labels[o]
        packing.where[u] = w
        packing.owner[packing.placements[u][w]] = u
    if len(packing.holes()) or (packing.where < 0).any():
        raise EngineError("sink finish: the exact re-pack left the board incomplete")
    return "found", search.stats.nodes


class SinkTiler:
    """The sink search of :func:`tile_by_sink`, one attempt at a time (see there)."""

    def __init__(
        self,
        puzzle: PolyominoPuzzle,
        *,
        seed: int = 0,
        sink: int | None = None,
        margins: tuple[int, ...] = (1, 2, 3, 4),
        window: tuple[int, int] = (8, 12),
        window_nodes: int = 20_000,
        finish_nodes: int = 4_000_000,
        attempt_time: float = 20.0,
        progress: Progress | None = None,
    ) -> None:
        self.puzzle = puzzle
        self.seed = seed
        self.margins = margins
        self.window = window
        self.window_nodes = window_nodes
        self.finish_nodes = finish_nodes
        self.attempt_time = attempt_time
        self.progress = progress
        self.report = SinkReport()
        announce("sink tiling", _pack_window)  # numba only: its first run compiles
        self.began = time.perf_counter()
        self.solution: PolyominoSolution | None = None
        self.template = template = _Packing(puzzle)
        self.bottom, self.right = int(template.row.max()), int(template.col.max())
        if sink is None:
            side = min(self.bottom - int(template.row.min()),
                       self.right - int(template.col.min())) + 1  # fmt: skip
            sink = max(1, round(side * 3 / 8))
        self.sink = sink
        self.to_sink = (
            np.maximum(self.bottom - sink + 1 - template.row, 0)
            + np.maximum(self.right - sink + 1 - template.col, 0)
        )

    def say(self, line: str) -> None:
        self.report.log.append(line)
        if self.progress is not None:
            self.progress(line)

    def _sink_box(self, packing: _Packing, m: int) -> np.ndarray:
        return (packing.row > self.bottom - self.sink - m) & (
            packing.col > self.right - self.sink - m
        )

    def attempt(self, deadline: float | None = None,
                stop: Callable[[], bool] | None = None) -> bool:
        """One attempt (at most ``attempt_time`` seconds, and not past ``deadline``); True
        when it tiled the board (``solution``, verified). ``stop`` is looked at after every
        slice of its work (a window, a few ms of an exact finish): :class:`SinkStopped`
        when it says so."""
        work = self.attempt_steps(deadline)
        try:
            while True:
                next(work)
                if stop is not None and stop():
                    work.close()
                    raise SinkStopped
        except StopIteration as end:
            return bool(end.value)

    def attempt_steps(self, deadline: float | None = None) -> Work:
        """:meth:`attempt` a slice at a time: yields the nodes of each slice, returns
        whether it tiled the board."""
        report = self.report
        report.attempts += 1
        rng = np.random.default_rng(self.seed + report.attempts - 1)  # replayable alone
        packing = self.template  # the placement tables are kept; the packing starts empty
        packing.owner = np.full(len(packing.cells), -1, dtype=np.int64)
        packing.where = np.full(len(packing.units), -1, dtype=np.int64)
        until = time.perf_counter() + self.attempt_time
        if deadline is not None:
            until = min(until, deadline)
        if not (yield from _pack_outside_sink(packing, self.to_sink, rng, self.window,
                                              self.window_nodes, until)):  # fmt: skip
            self.say(f"attempt {report.attempts}: the board outside the sink kept holes")
            return False
        report.packed += 1
        outcomes = []
        for m in self.margins:
            report.finishes += 1
            outcome, nodes = yield from _exact_finish(packing, self._sink_box(packing, m),
                                                      self.finish_nodes)
            report.nodes += nodes
            report.proved += outcome == "none"
            report.spent += outcome == "open"
            outcomes.append(f"margin {m}: {outcome} ({nodes} nodes)")
            if outcome == "found":
                self.solution = packing.solution()
                break
        self.say(
            f"{time.perf_counter() - self.began:.1f} s, attempt {report.attempts} "
            f"({len(packing.holes())} empty): " + ", ".join(outcomes)
        )
        if self.solution is None:
            return False
        if not is_tiling(self.puzzle, self.solution):
            raise EngineError("sink tiling: the tiling failed verification")
        report.found = True
        return True


def tile_by_sink(
    puzzle: PolyominoPuzzle,
    *,
    seed: int = 0,
    sink: int | None = None,
    margins: tuple[int, ...] = (1, 2, 3, 4),
    window: tuple[int, int] = (8, 12),
    window_nodes: int = 20_000,
    finish_nodes: int = 4_000_000,
    attempt_time: float = 20.0,
    time_limit: float | None = None,
    max_attempts: int | None = None,
    progress: Progress | None = None,
    stop: Callable[[], bool] | None = None,
) -> tuple[PolyominoSolution | None, SinkReport]:
    """One tiling of ``puzzle``: pack all but a corner, then finish the corner exactly.

    The sink is the ``sink`` x ``sink`` box at the bottom right of the board (by default
    3/8 of the board's shorter side: 6 on 16x16, 12 on 32x32, the sizes measured). Each attempt
    packs the board outside it with no hole (:func:`_pack_outside_sink`, at most
    ``attempt_time`` seconds), then for each margin ``m`` in ``margins`` re-packs the sink
    grown by ``m`` rows and columns, with every piece meeting it and every piece left over,
    by the compiled engine (``finish_nodes`` nodes each). Attempt ``k`` (from 1) draws its
    random choices from seed ``seed + k - 1``, so one attempt can be replayed alone. Attempts
    repeat until one tiles the board, or ``time_limit`` / ``max_attempts`` (at least one is
    required) ends the search. ``stop`` is looked at between slices of a few ms of work
    (:meth:`SinkTiler.attempt`): :class:`SinkStopped` when it says so.
    """
    if time_limit is None and max_attempts is None:
        raise ValueError("give a time limit or a number of attempts")
    tiler = SinkTiler(puzzle, seed=seed, sink=sink, margins=margins, window=window,
                      window_nodes=window_nodes, finish_nodes=finish_nodes,
                      attempt_time=attempt_time, progress=progress)  # fmt: skip
    report = tiler.report
    deadline = None if time_limit is None else tiler.began + time_limit
    while True:
        if deadline is not None and time.perf_counter() > deadline:
            tiler.say(f"time limit {time_limit:g} s reached")
            break
        if max_attempts is not None and report.attempts >= max_attempts:
            tiler.say(f"{max_attempts} attempts made")
            break
        if tiler.attempt(deadline, stop):
            break
    report.seconds = time.perf_counter() - tiler.began
    return tiler.solution, report


class SinkSearch:
    """The sink search as a step-wise search (engine/search.py) of ``job.puzzle``: a step
    is about ``max_nodes`` nodes of an attempt's work (windows, slices of a finish), for
    at most ``SINK_SECONDS`` in all. It finds one tiling or gives up;
    it never proves there is none (``stats.complete`` stays False)."""

    def __init__(self, job: Job, time_limit: float | None = None) -> None:
        if not isinstance(job.puzzle, PolyominoPuzzle) or not sink_takes(job.puzzle):
            raise EngineError("the sink search tiles polyomino boards whose pieces have exact "
                              "counts and fill the board")  # fmt: skip
        self.tiler = SinkTiler(job.puzzle, seed=job.seed or 0)
        limit = SINK_SECONDS if time_limit is None else time_limit
        self.deadline = self.tiler.began + limit
        self.stats = SearchStats(engine="sink")
        self._done = job.limit is not None and job.limit <= 0
        self._work: Work | None = None  # the attempt under way
        self._nodes = 0  # nodes of every window and finish so far: the step's measure

    def step(self, max_nodes: int) -> Step:
        """About ``max_nodes`` nodes of work (windows re-packed, slices of an exact
        finish), so that a caller's stop is looked at every few ms (issue #38 item 4)."""
        if self._done:
            return Step(done=True)
        found: list[tuple[int, ...]] = []
        spent = 0
        while spent < max(1, max_nodes):
            if time.perf_counter() > self.deadline:
                self._done = True
                break
            if self._work is None:
                self._work = self.tiler.attempt_steps(self.deadline)
            try:
                nodes = next(self._work)
                spent += nodes
                self._nodes += nodes
            except StopIteration as end:
                self._work = None
                if end.value:
                    assert self.tiler.solution is not None
                    found = [self._options(self.tiler.solution)]
                    self._done = True
                    break
        self.stats.nodes = self._nodes
        self.stats.search_seconds = time.perf_counter() - self.tiler.began
        self.stats.solutions = len(found)
        return Step(solutions=found, counted=len(found), done=self._done)


    def _options(self, solution: PolyominoSolution) -> tuple[int, ...]:
        """The tiling as option numbers of the puzzle's problem (labels are (piece, cells),
        the cells sorted as the problem lists them)."""
        problem = self.tiler.puzzle.problem
        index = {(label[0], tuple(sorted(label[1]))): k for k, label in enumerate(problem.labels)}
        placed = solution.placements
        chosen = tuple(sorted(index[(p.piece, tuple(sorted(p.cells)))] for p in placed))
        if not problem.is_solution(chosen):
            raise EngineError("sink tiling: the tiling is not a cover of the puzzle's problem")
        return chosen


def start_sink(job: Job) -> SinkSearch:
    """The sink search of ``job`` (the registry's ``start``, registered by the polyomino
    kind)."""
    return SinkSearch(job)
