"""Puzzles and solutions in Jupyter: ``_repr_svg_`` (in puzzles/base.py) draws them here.

A notebook asks every object for its SVG; the answer is None (so the notebook falls back to
the text repr) when there is nothing to draw with: matplotlib, an optional extra, is not
installed, or a solution was made without its puzzle (decoded by hand, not yielded by
``Puzzle.solutions``).
"""

from __future__ import annotations

import importlib.util
from typing import Any


def svg_of(puzzle: Any, solution: Any) -> str | None:
    """SVG text of ``solution`` (drawn on ``puzzle``), or of ``puzzle`` when ``solution`` is
    None; None when it cannot be drawn."""
    if puzzle is None or importlib.util.find_spec("matplotlib") is None:
        return None
    from puzzlebox.render import pictures

    if solution is None:
        return pictures.puzzle_svg(puzzle)
    return pictures.solution_svg(puzzle, solution)
