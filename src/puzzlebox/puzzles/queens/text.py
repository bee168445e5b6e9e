"""n-queens as text: the board, a Q where each queen stands."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from puzzlebox.puzzles.queens.model import QueensPuzzle, QueensSolution


def queens_lines(puzzle: QueensPuzzle, solution: QueensSolution) -> list[str]:
    queens = set(solution.queens)
    return [
        " ".join("Q" if (r, c) in queens else "." for c in range(puzzle.n))
        for r in range(puzzle.n)
    ]
