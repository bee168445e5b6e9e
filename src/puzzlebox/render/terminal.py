"""A solution drawn for a terminal: the text drawing with each placed piece in a colour.

The colours are the pictures' palette (render/pictures.py), so a terminal and a picture of
the same solution agree; the letters stay, so the drawing reads without colour too.
"""

from __future__ import annotations

from typing import Any

from rich.text import Text

from puzzlebox.render.drawable import Drawable
from puzzlebox.render.palette import ink_on, piece_color
from puzzlebox.safety import printable


def colored_solution(puzzle: Drawable, solution: Any) -> Text | None:
    """The letter drawing with a background colour per placement (black or white letters,
    whichever reads on it); None where the kind offers nothing to colour (cards, queens)."""
    owners = puzzle.text_owners(solution)
    if owners is None:
        return None
    lines = puzzle.text_lines(solution, "text")
    grid = lines[: len(owners)]
    if len(grid) < len(owners) or any(len(a) != len(b) for a, b in zip(grid, owners,
                                                                        strict=True)):
        return None  # not one character per cell (outlines, for too many copies): no colours
    text = Text()
    for i, line in enumerate(lines):
        row = owners[i] if i < len(owners) else []  # lines under the grid: its legend
        for j, ch in enumerate(line):
            who = row[j] if j < len(row) else None
            if who is None:
                text.append(printable(ch))
            else:
                fill = piece_color(who)
                text.append(printable(ch), style=f"bold {ink_on(fill)} on {fill}")
        text.append("\n")
    return text
