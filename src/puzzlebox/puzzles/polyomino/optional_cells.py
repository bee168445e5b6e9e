"""``[board] optional``: the board cells that may stay empty (#24), read beside the grid
(of ``[board]``, or of each of ``[[boards]]``); and ``[rules] neutral``, the colour that
matches any colour (BurrTools' neutral voxels, which its example files mix with coloured
ones).

A second grid of the same layout as ``grid`` marks them (any character but ``.`` and
space); the board's ``grid`` still gives every cell, so its colours stay. BurrTools calls
them variable voxels.
"""

from __future__ import annotations

from typing import Any

from puzzlebox.geometry import Cell, Lattice
from puzzlebox.puzzles.reading import FileReader


def read_optional(r: FileReader, board: dict[str, Any], cells: dict[Cell, str],
                  lattice: Lattice, where: tuple[Any, ...] = ("board",)) -> frozenset[Cell]:
    """The cells ``board["optional"]`` marks, each a cell of the board's grid. ``where`` is
    the board's table: ``[board]``, or one of ``[[boards]]`` (each has its own)."""
    if "optional" not in board:
        return frozenset()
    path = (*where, "optional")
    marked = r.grid(board["optional"], path, lattice)
    outside = sorted(c for c in marked if c not in cells)
    if outside:
        raise r.fail(path, f"marks {len(outside)} cell(s) that the grid does not have (the "
                     f"first at {list(outside[0])}); optional cells are board cells that "
                     "may stay empty")
    return frozenset(marked)


def read_neutral(r: FileReader, rules: dict[str, Any], match_colors: bool) -> str | None:
    """``[rules] neutral``: one grid character; a cell of it, on the board or on a piece,
    matches a cell of any colour. It only means something when colours are matched."""
    if "neutral" not in rules:
        return None
    path = ("rules", "neutral")
    value = rules["neutral"]
    if not isinstance(value, str) or len(value) != 1 or value in ". \t\r\n":
        raise r.fail(path, "must be one grid character (a cell's colour, not '.' or space)")
    if not match_colors:
        raise r.fail(path, "a neutral colour only means something with match_colors = true")
    return value
