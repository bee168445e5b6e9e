"""A solution drawn for a terminal: the text drawing with each placed piece in a colour.

The colours are the pictures' palette (render/pictures.py), so a terminal and a picture of
the same solution agree; the letters stay, so the drawing reads without colour too.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from puzzlebox.puzzles import PolyominoPuzzle, PolyominoSolution, Puzzle, Solution
from puzzlebox.render.pictures import ink_on, piece_color
from puzzlebox.render.text import solution_lines

if TYPE_CHECKING:
    from rich.text import Text


def colored_solution(puzzle: Puzzle, solution: Solution) -> Text | None:
    """The letter drawing with a background colour per placement (black or white letters,
    whichever reads on it); None where there is nothing to colour (cards, queens)."""
    if not isinstance(puzzle, PolyominoPuzzle) or not isinstance(solution, PolyominoSolution):
        return None
    from rich.text import Text

    owner = solution.owner_grid()
    rows = sorted({r for r, _ in puzzle.board})
    cols = sorted({c for _, c in puzzle.board})
    text = Text()
    for i, line in enumerate(solution_lines(puzzle, solution)):
        for j, ch in enumerate(line):
            who = owner.get((rows[0] + i, cols[0] + j))
            if who is None:
                text.append(ch)
            else:
                fill = piece_color(who)
                text.append(ch, style=f"bold {ink_on(fill)} on {fill}")
        text.append("\n")
    return text
