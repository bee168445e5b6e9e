"""Proofs of impossibility by counting cells, before any search.

The board's cells must be a sum of the pieces' cells, each piece used between its bounds;
with colours, that must hold for every colour at once. Seed 003's 58-cell board with
pentominoes is the example: 58 is not a multiple of 5, so nothing needs searching.
"""

from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from puzzlebox.puzzles.polyomino import Piece, PolyominoPuzzle

MAX_STATES = 200_000  # beyond this many reachable colour vectors the check is skipped


def _reachable(targets: tuple[int, ...], parts: list[tuple[tuple[int, ...], int, int]]) -> bool:
    """Can ``targets`` be written as sum of ``k_i * vec_i`` with ``lo_i <= k_i <= hi_i``?"""
    states = {tuple(0 for _ in targets)}
    for vec, lo, hi in parts:
        nxt = set()
        for state in states:
            for k in range(lo, hi + 1):
                s = tuple(a + k * v for a, v in zip(state, vec))
                if any(a > t for a, t in zip(s, targets)):
                    break
                nxt.add(s)
        states = nxt
        if not states:
            return False
        if len(states) > MAX_STATES:
            return True  # too many to follow: make no claim
    return targets in states


def area_impossibility(puzzle: PolyominoPuzzle) -> str | None:
    """A sentence why the areas cannot add up, or None when they can."""
    area = len(puzzle.board)
    if puzzle.match_colors:
        colours = sorted(set(puzzle.board.values()))
        board_vec = Counter(puzzle.board.values())
        targets = tuple(board_vec[c] for c in colours)
        parts = []
        for piece in puzzle.pieces:
            vec = Counter(piece.shape.colors)
            if any(col not in board_vec for col in vec):
                if piece.lo > 0:
                    bad = sorted(set(vec) - set(board_vec))
                    return (
                        f"piece {piece.name} has colour {bad[0]!r}, which the board "
                        "does not have, but it must be used"
                    )
                continue
            parts.append((tuple(vec[c] for c in colours), piece.lo, piece.max_copies(area)))
        if not _reachable(targets, parts):
            shown = ", ".join(f"{n} of colour {c!r}" for c, n in zip(colours, targets))
            return (
                f"the board has {shown}, and no choice of piece counts covers exactly "
                "that many cells of each colour"
            )
        return None
    parts = [((len(p.shape),), p.lo, p.max_copies(area)) for p in puzzle.pieces]
    if not _reachable((area,), parts):
        sizes = ", ".join(
            f"{p.name}={len(p.shape)}" + ("" if p.lo == p.hi == 1 else f" x{_count_text(p)}")
            for p in puzzle.pieces
        )
        return (
            f"the board has {area} cells, which is not a sum of the pieces' areas "
            f"under their counts ({sizes})"
        )
    return None


def _count_text(piece: Piece) -> str:
    if piece.hi is None:
        return f"{piece.lo}+"
    return str(piece.lo) if piece.lo == piece.hi else f"{piece.lo}-{piece.hi}"
