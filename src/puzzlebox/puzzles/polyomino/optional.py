"""Board cells that may stay empty (#24): what changes for proofs.

A puzzle with optional cells (``[board] optional``, BurrTools' variable voxels) covers
every other cell once and each optional cell at most once. The pieces' area is then a
range, not a number: the proofs that count cells exactly (checkerboard, placement, region)
no longer hold, and the area proof asks whether some choice of counts lands between the
cells that must be covered and all the cells (that proof is puzzles/proofs.py's
``area_range_impossibility``; this module draws the optional cells).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from puzzlebox.render.text import layout_lines

if TYPE_CHECKING:
    from puzzlebox.puzzles.polyomino import PolyominoPuzzle


def optional_lines(puzzle: PolyominoPuzzle) -> list[str]:
    """The board again with its optional cells drawn ``+`` (``show``), or nothing."""
    if not puzzle.optional:
        return []

    marked = {c: ("+" if c in puzzle.optional else "#") for c in puzzle.board}
    out = [f"cells that may stay empty ({len(puzzle.optional)}, drawn +):"]
    out += [("  " + line).rstrip() for line in layout_lines(puzzle.lattice, marked)]
    return out
