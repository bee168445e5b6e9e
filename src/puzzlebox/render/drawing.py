"""Pictures on demand: the one door to render/pictures.py, which needs the 'pictures' extra.

matplotlib is optional, so everything that draws (``Puzzle.svg()``, ``Solution.png()``, the
command line's ``--format svg``) asks here first and gets one clear error without it.
"""

from __future__ import annotations

import importlib.util
from types import ModuleType
from typing import TYPE_CHECKING, Any

from puzzlebox.errors import PuzzleboxError
from puzzlebox.extras import install_command

if TYPE_CHECKING:
    from puzzlebox.render.drawable import Drawable


class PicturesUnavailable(PuzzleboxError):
    """matplotlib (the 'pictures' extra) is not installed."""


def pictures() -> ModuleType:
    """render/pictures.py, once matplotlib is known to be there."""
    if importlib.util.find_spec("matplotlib") is None:
        raise PicturesUnavailable(f"pictures need matplotlib: {install_command('pictures')}")
    from puzzlebox.render import pictures as module

    return module


def picture(puzzle: Drawable, solution: Any | None, fmt: str) -> bytes:
    """``solution`` drawn on ``puzzle`` (the empty board and its pieces when None) as the
    bytes of an ``svg`` or ``png`` file."""
    draw = pictures()
    if solution is None:
        figure = draw.puzzle_figure([puzzle])
    else:
        figure = draw.solution_figure(puzzle, solution)
    return bytes(draw.figure_bytes(figure, fmt))
