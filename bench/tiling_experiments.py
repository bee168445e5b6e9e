"""Experiments kept out of the library: two searches for one tiling of a big board that the
sink search (puzzles/polyomino/repair_tiling.py) superseded, reached from nothing but these benches.

* **Block tiling** (:func:`tile_by_blocks`).

  A search for one tiling of a 32x32 square with 132 distinct pieces fails for a structural
  reason: the last few dozen pieces must fit the last holes exactly, and no choice made near
  the root is ever revisited. Cutting the board into blocks (say four 16x16 quadrants) and
  dealing the pieces out so that every hand's area is its block's area turns one hopeless
  search into several easy ones of the size that is solved in seconds. A hand that does not
  tile its block within a node budget is changed by swapping a piece with another hand (a
  piece of the same area, so every hand keeps its block's area) and tried again; the hands are
  dealt so that each gets a fair share of every kind of piece (by area and bounding box).

  This is incomplete by design: it finds tilings that respect the cut, and a failure proves
  nothing. The answer is checked as a cover of the whole puzzle before it is returned.
* **Repair tiling** (:func:`tile_by_repair`): keep a packing that covers most of the board,
  free a window around the holes and re-pack it with its own pieces and the pieces not placed
  yet; holes drift together and shrink. When the last holes are single cells far apart it
  stalls (it does on parallelogram-7), which is why the sink search keeps them in a corner.

Run the tests: ``.venv/bin/python -m pytest bench/test_experiments.py``.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np

from puzzlebox.engine import registry
from puzzlebox.engine.errors import EngineError
from puzzlebox.engine.restarts import RestartSearch
from puzzlebox.engine.search import Job, each_solution
from puzzlebox.geometry import Cell
from puzzlebox.puzzles.polyomino import Piece, Placement, PolyominoPuzzle, PolyominoSolution
from puzzlebox.puzzles.polyomino.repair_tiling import (
    _box,
    _Packing,
    _units,
    is_tiling,
)

Progress = Callable[[str], None]


# -- block tiling ----------------------------------------------------------------------------


@dataclass
class BlockReport:
    """How a block tiling went: what was tried, for the record."""

    hands_tried: int = 0  # block searches started
    swaps: int = 0  # pieces exchanged between hands after a failure
    nodes: int = 0  # search nodes over all block searches
    seconds: float = 0.0
    found: bool = False
    log: list[str] = field(default_factory=list)


def _rectangle(board: dict[Cell, str]) -> tuple[int, int, int, int]:
    rows = [r for r, _ in board]
    cols = [c for _, c in board]
    r0, c0 = min(rows), min(cols)
    height, width = max(rows) - r0 + 1, max(cols) - c0 + 1
    if len(board) != height * width:
        raise ValueError("block tiling needs a full rectangular board")
    return r0, c0, height, width


def deal(
    units: list[Piece], hands: int, target: int, rng: np.random.Generator, rotate: bool
) -> list[list[int]]:
    """Deal unit indices into ``hands`` hands of area ``target`` each, a fair share of each
    kind of piece per hand: sort by kind (shuffled within a kind), deal in snake order, then
    swap pieces between hands until every area is right."""

    def kind(i: int) -> tuple[int, int, int]:
        h, w = units[i].shape.height, units[i].shape.width
        return (len(units[i].shape), *((min(h, w), max(h, w)) if rotate else (h, w)))

    order = sorted(rng.permutation(len(units)).tolist(), key=kind)
    groups: list[list[int]] = [[] for _ in range(hands)]
    for n, i in enumerate(order):
        turn, place = divmod(n, hands)
        groups[place if turn % 2 == 0 else hands - 1 - place].append(i)
    area = [sum(len(units[i].shape) for i in g) for g in groups]
    for _ in range(100_000):
        if all(a == target for a in area):
            return groups
        big = max(range(hands), key=lambda g: area[g])
        small = min(range(hands), key=lambda g: area[g])
        gap = (
            area[big] - target
            if area[big] - target < target - area[small]
            else (target - area[small])
        )
        # the swap that moves area from big to small closest to the gap, ties at random
        best = None
        for a in rng.permutation(len(groups[big])).tolist():
            for b in rng.permutation(len(groups[small])).tolist():
                d = len(units[groups[big][a]].shape) - len(units[groups[small][b]].shape)
                if d > 0 and (best is None or abs(d - gap) < abs(best[0] - gap)):
                    best = (d, a, b)
        if best is None:
            break
        _, a, b = best
        groups[big][a], groups[small][b] = groups[small][b], groups[big][a]
        area[big] -= best[0]
        area[small] += best[0]
    raise ValueError("the pieces cannot be dealt into hands of equal area")


def tile_by_blocks(
    puzzle: PolyominoPuzzle,
    block_rows: int,
    block_cols: int,
    *,
    seed: int = 0,
    engine: str = "compiled",
    block_nodes: int = 2_000_000,
    time_limit: float | None = None,
    progress: Progress | None = None,
) -> tuple[PolyominoSolution | None, BlockReport]:
    """One tiling of ``puzzle`` made of tilings of its blocks, or None within the limits.

    ``block_nodes`` is the node budget of one hand's search (randomised restarts inside);
    ``time_limit`` (seconds) bounds the whole attempt.
    """
    report = BlockReport()
    began = time.perf_counter()
    r0, c0, height, width = _rectangle(puzzle.board)
    if height % block_rows or width % block_cols:
        raise ValueError("the blocks must divide the board")
    units = _units(puzzle)
    if sum(len(u.shape) for u in units) != height * width:
        raise ValueError("the pieces' areas do not add up to the board's")
    rng = np.random.default_rng(seed)
    corners = [
        (r0 + i * block_rows, c0 + j * block_cols)
        for i in range(height // block_rows)
        for j in range(width // block_cols)
    ]
    hands = deal(units, len(corners), block_rows * block_cols, rng, puzzle.rotate)
    block = {(r, c): "#" for r in range(block_rows) for c in range(block_cols)}
    solved: dict[int, list[Placement]] = {}

    def say(line: str) -> None:
        report.log.append(line)
        if progress is not None:
            progress(line)

    while len(solved) < len(hands):
        if time_limit is not None and time.perf_counter() - began > time_limit:
            say(f"time limit {time_limit:g} s reached")
            break
        g = next(h for h in range(len(hands)) if h not in solved)
        sub = PolyominoPuzzle(
            f"{puzzle.name}-block{g}",
            block,
            [Piece(f"{k}", units[i].shape) for k, i in enumerate(hands[g])],
            rotate=puzzle.rotate,
            reflect=puzzle.reflect,
        )
        spec = registry.get(engine)
        searcher = RestartSearch(Job(sub.problem, limit=1), spec.start, spec.name,
                                 seed=int(rng.integers(1 << 31)), max_nodes=block_nodes)
        report.hands_tried += 1
        chosen = next(each_solution(searcher), None)
        report.nodes += searcher.stats.nodes
        if chosen is not None:
            dr, dc = corners[g]
            solved[g] = [
                Placement(
                    units[hands[g][int(p.piece)]].name,
                    tuple((r + dr, c + dc) for r, c in p.cells),
                )
                for p in sub.decode(chosen).placements
            ]
            say(f"block {g}: tiled ({searcher.stats.nodes} nodes, {searcher.restarts} restarts)")
            continue
        if searcher.stats.complete:
            say(f"block {g}: this hand cannot tile its block")
        else:
            say(f"block {g}: not tiled within {block_nodes} nodes")
        # swap one piece with a piece of the same area from another hand (unsolved first)
        others = [h for h in range(len(hands)) if h != g and h not in solved]
        others = others or [h for h in range(len(hands)) if h != g]
        for _ in range(1000):
            h = others[int(rng.integers(len(others)))]
            a = int(rng.integers(len(hands[g])))
            same = [
                b
                for b in range(len(hands[h]))
                if len(units[hands[h][b]].shape) == len(units[hands[g][a]].shape)
                and units[hands[h][b]].shape != units[hands[g][a]].shape
            ]
            if same:
                b = same[int(rng.integers(len(same)))]
                hands[g][a], hands[h][b] = hands[h][b], hands[g][a]
                solved.pop(h, None)
                report.swaps += 1
                break
        else:
            raise EngineError("block tiling: no piece can be swapped between hands")
    report.seconds = time.perf_counter() - began
    if len(solved) < len(hands):
        return None, report
    placements = [p for g in sorted(solved) for p in solved[g]]
    solution = PolyominoSolution(tuple(sorted(placements, key=lambda p: (p.cells, p.piece))))
    if not is_tiling(puzzle, solution):
        raise EngineError("block tiling: the assembled tiling failed verification")
    report.found = True
    return solution, report


# -- repair tiling ---------------------------------------------------------------------------


@dataclass
class RepairReport:
    """How a repair search went, for the record."""

    windows: int = 0  # window re-packs attempted
    accepted: int = 0  # re-packs that replaced the window's contents
    nodes: int = 0  # search nodes over all re-packs
    seconds: float = 0.0
    found: bool = False
    best_holes: int = 0  # fewest empty cells seen
    log: list[str] = field(default_factory=list)




def tile_by_repair(
    puzzle: PolyominoPuzzle,
    *,
    seed: int = 0,
    window: tuple[int, int] = (8, 12),
    window_nodes: int = 20_000,
    finish_nodes: int = 200_000,
    time_limit: float | None = None,
    max_windows: int | None = None,
    progress: Progress | None = None,
) -> tuple[PolyominoSolution | None, RepairReport]:
    """One tiling of ``puzzle`` found by repairing packings with holes, or None in the limits.

    Windows are squares or rectangles with sides drawn from ``window`` (inclusive); each
    re-pack may place ``window_nodes`` search nodes. ``time_limit`` (seconds) and
    ``max_windows`` bound the whole attempt; at least one of them is required.
    """
    if time_limit is None and max_windows is None:
        raise ValueError("give a time limit or a number of windows")
    report = RepairReport()
    began = time.perf_counter()
    packing = _Packing(puzzle)
    rng = np.random.default_rng(seed)
    top, left = int(packing.row.min()), int(packing.col.min())
    height = int(packing.row.max()) - top + 1
    width = int(packing.col.max()) - left + 1
    report.best_holes = len(packing.cells)

    def say(line: str) -> None:
        report.log.append(line)
        if progress is not None:
            progress(line)

    while True:
        holes = packing.holes()
        if len(holes) == 0:
            break
        if time_limit is not None and time.perf_counter() - began > time_limit:
            say(f"time limit {time_limit:g} s reached")
            break
        if max_windows is not None and report.windows >= max_windows:
            say(f"{max_windows} windows tried")
            break
        report.windows += 1
        hr, hc = packing.row[holes], packing.col[holes]
        wh = int(rng.integers(window[0], window[1] + 1))
        ww = int(rng.integers(window[0], window[1] + 1))
        gathered = (hr.max() - hr.min() < wh) and (hc.max() - hc.min() < ww)
        if gathered:
            # every hole fits in one window: try to fill them all at once, and otherwise make
            # a random equal move around them (holes anywhere in the window)
            r0 = int(hr.max()) - wh + 1 + int(rng.integers(0, wh - (hr.max() - hr.min())))
            c0 = int(hc.max()) - ww + 1 + int(rng.integers(0, ww - (hc.max() - hc.min())))
        else:
            # pull the holes together: start from one far from their centre
            sink_r, sink_c = float(hr.mean()), float(hc.mean())
            dist = np.abs(hr - sink_r) + np.abs(hc - sink_c)
            far = np.argsort(-dist, kind="stable")[: max(1, len(holes) // 4)]
            h = int(far[int(rng.integers(len(far)))])
            r0 = int(hr[h]) - int(rng.integers(0, wh))
            c0 = int(hc[h]) - int(rng.integers(0, ww))
        r0 = min(max(r0, top), top + height - wh)
        c0 = min(max(c0, left), left + width - ww)
        box = _box(packing, r0, c0, wh, ww)
        in_box = box[holes]
        key = np.arange(len(packing.cells))  # fill row by row
        now = int(in_box.sum())
        if gathered:
            hole_ok = np.ones(len(packing.cells), dtype=np.bool_)
        else:
            # holes may come no farther from the holes' centre than the farthest one inside
            dist_all = np.abs(packing.row - sink_r) + np.abs(packing.col - sink_c)
            hole_ok = dist_all <= dist_all[holes[in_box]].max()
        status = 0
        if gathered:
            # the whole neighbourhood of the holes, with a bigger budget: a tiling if it works
            status, nodes = packing.repack(
                box, 0, hole_ok, finish_nodes, rng, key, touching=True
            )
            report.nodes += nodes
        if status != 1:
            status, nodes = packing.repack(box, now - 1, hole_ok, window_nodes, rng, key)
            report.nodes += nodes
        if status != 1:
            # an equal move: as many holes and, while they are apart, no farther from their
            # centre in all
            snapshot = (packing.owner.copy(), packing.where.copy())
            status, nodes = packing.repack(box, now, hole_ok, window_nodes, rng, key)
            report.nodes += nodes
            if status == 1 and not gathered:
                after = packing.holes()
                after = after[box[after]]
                if dist_all[after].sum() > dist_all[holes[in_box]].sum():
                    packing.owner, packing.where = snapshot
                    status = 0
        if status == 1:
            report.accepted += 1
        left_holes = len(packing.holes())
        if left_holes < report.best_holes:
            report.best_holes = left_holes
            say(
                f"{time.perf_counter() - began:.1f} s, window {report.windows}: "
                f"{left_holes} empty cells, pieces left: "
                + " ".join(packing.units[u].name for u in np.nonzero(packing.where < 0)[0])
            )
            if left_holes <= 12:
                say("  empty: " + " ".join(f"{packing.cells[i]}" for i in packing.holes()))
    report.seconds = time.perf_counter() - began
    if len(packing.holes()):
        return None, report
    solution = packing.solution()
    if not is_tiling(puzzle, solution):
        raise EngineError("repair tiling: the tiling failed verification")
    report.found = True
    return solution, report
