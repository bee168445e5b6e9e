"""n-queens as text: the board, a Q where each queen stands, a blank where a hole is."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from puzzlebox.puzzles.queens.model import QueensPuzzle, QueensSolution


def queens_lines(puzzle: QueensPuzzle, solution: QueensSolution) -> list[str]:
    queens = set(solution.queens)

    def mark(square: tuple[int, int]) -> str:
        return "Q" if square in queens else " " if square in puzzle.holes else "."

    return [" ".join(mark((r, c)) for c in range(puzzle.n)) for r in range(puzzle.n)]
