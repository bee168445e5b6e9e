"""What render/ asks of a puzzle and a solution: the interface every kind implements.

render/ sits a layer below the kinds (docs/DESIGN.md), so it names no kind and imports
none: a kind draws itself with its own text and pictures modules (built on render/'s
helpers), and render/ reaches those drawings through these protocols, which
``puzzles.base.Puzzle`` and ``Solution`` meet.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Protocol

from puzzlebox.reports import Placed

if TYPE_CHECKING:
    from puzzlebox.render.pictures import Panel

__all__ = ["Drawable", "Placed"]  # Placed: a solution as the --json contract writes it

class Drawable(Protocol):
    """A puzzle, as render/ draws it: its names and its own drawings."""

    name: str
    title: str
    board_name: str | None

    @property
    def label(self) -> str: ...

    def text_lines(self, solution: Any, style: str = "text") -> list[str]: ...

    def describe_lines(self) -> list[str]: ...

    def text_owners(self, solution: Any) -> list[list[int | None]] | None: ...

    def solution_panel(self, solution: Any, title: str) -> Panel: ...

    def puzzle_panels(self, title: str) -> tuple[Panel, list[Panel]]: ...
