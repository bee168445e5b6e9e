"""A sudoku as text: the grid with box lines, in the form the file's ``grid`` key reads
back (spaces, ``|`` and rule lines are ignored there), so a drawing can be pasted into a
file."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from puzzlebox.puzzles.sudoku.model import SudokuPuzzle

EMPTY = "."


def grid_lines(puzzle: SudokuPuzzle, digits: Sequence[Sequence[int]] | None) -> list[str]:
    """The grid, one line per row, symbols apart by a space; for boxes, ``|`` between
    stacks and a rule between bands (jigsaw regions: see :func:`region_lines`)."""
    n = puzzle.n
    box_rows, box_cols = puzzle.box or (n, n)

    def mark(r: int, c: int) -> str:
        if digits is not None:
            return puzzle.symbols[digits[r][c]]
        d = puzzle.givens.get((r, c))
        return EMPTY if d is None else puzzle.symbols[d]

    lines: list[str] = []
    for r in range(n):
        if r and r % box_rows == 0:
            stacks = [("-" * (2 * box_cols - 1)) for _ in range(n // box_cols)]
            lines.append("-+-".join(stacks))
        parts = [
            " ".join(mark(r, c) for c in range(s, s + box_cols)) for s in range(0, n, box_cols)
        ]
        lines.append(" | ".join(parts))
    return lines


def region_lines(puzzle: SudokuPuzzle) -> list[str]:
    """The jigsaw regions, each cell its region's letter, as the ``regions`` key wrote
    them."""
    return [" ".join(puzzle.region_names[k] for k in row) for row in puzzle.regions]


def describe(puzzle: SudokuPuzzle) -> list[str]:
    """The puzzle: its size, regions, givens and symbols."""
    n = puzzle.n
    shape = f"boxes of {puzzle.box[0]} x {puzzle.box[1]}" if puzzle.box else "jigsaw regions"
    out = [f"sudoku {n} x {n}, {shape}, {len(puzzle.givens)} givens, symbols "
           f"{puzzle.symbols}:"]
    out += ["  " + line for line in grid_lines(puzzle, None)]
    if not puzzle.box:
        out.append("regions:")
        out += ["  " + line for line in region_lines(puzzle)]
    return out
