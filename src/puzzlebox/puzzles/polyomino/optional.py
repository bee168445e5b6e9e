"""Board cells that may stay empty (#24): what changes for proofs.

A puzzle with optional cells (``[board] optional``, BurrTools' variable voxels) covers
every other cell once and each optional cell at most once. The pieces' area is then a
range, not a number: the proofs that count cells exactly (checkerboard, placement, region)
no longer hold, and the area proof asks whether some choice of counts lands between the
cells that must be covered and all the cells.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from puzzlebox.puzzles.polyomino import PolyominoPuzzle


def area_range_impossibility(puzzle: PolyominoPuzzle) -> str | None:
    """A sentence why no choice of counts gives an area between the required cells and
    all the cells; None when some choice does."""
    total = len(puzzle.board)
    required = total - len(puzzle.optional & puzzle.board.keys())
    sums = 1  # bit a: area a is reachable with the pieces so far
    window = (1 << (total + 1)) - 1
    for piece in puzzle.pieces:
        size = len(piece.shape)
        most = piece.max_copies(total)
        base = sums << (size * piece.lo) & window
        reach = base
        step = base
        for _ in range(most - piece.lo):
            step = (step << size) & window
            if not step:
                break
            reach |= step
        sums = reach
        if not sums:
            break
    wanted = ((1 << (total + 1)) - 1) ^ ((1 << required) - 1)
    if sums & wanted:
        return None
    return (f"the board must have {required} to {total} cells covered ({total - required} may "
            "stay empty), and no choice of the pieces' counts has an area in that range")


def optional_lines(puzzle: PolyominoPuzzle) -> list[str]:
    """The board again with its optional cells drawn ``+`` (``show``), or nothing."""
    if not puzzle.optional:
        return []
    from puzzlebox.render.text import layout_lines

    marked = {c: ("+" if c in puzzle.optional else "#") for c in puzzle.board}
    out = [f"cells that may stay empty ({len(puzzle.optional)}, drawn +):"]
    out += [("  " + line).rstrip() for line in layout_lines(puzzle.lattice, marked)]
    return out
