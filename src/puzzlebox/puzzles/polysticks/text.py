"""Sticks as text: the grid notation a person types and reads (docs/puzzle-format.md).

Row ``y`` and column ``x`` of the drawing are the doubled coordinates of geometry.py:
grid points stand where both are even (``+``), horizontal sticks where the row is even
and the column odd (``-``), vertical sticks where the row is odd and the column even
(``|``); where both are odd is the inside of a square (a space). A solution is drawn the
same way with each stick shown by its piece's mark (a letter), so that a drawing of a
solution, pasted back as a board, reads as the board it covers.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import TYPE_CHECKING

from puzzlebox.puzzles.polysticks.geometry import Point, Stick, ends, is_horizontal

if TYPE_CHECKING:
    from puzzlebox.puzzles.polysticks.model import PolysticksPuzzle, PolysticksSolution

POINT = "+"
HORIZONTAL = "-"
VERTICAL = "|"
EMPTY = " "
# Characters that read as "nothing here" at any place of a grid.
BLANKS = frozenset(" .")
# Marks for pieces whose names are longer than one character (or clash).
SPARE_MARKS = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"


def stick_lines(marks: Mapping[Stick, str]) -> list[str]:
    """Draw sticks (each with its mark) and every grid point they touch, over their
    bounding box; the rows' trailing spaces are cut."""
    if not marks:
        return []
    points: set[Point] = {p for s in marks for p in ends(s)}
    y0 = min(y for y, _ in points)
    x0 = min(x for _, x in points)
    y1 = max(y for y, _ in points)
    x1 = max(x for _, x in points)
    rows = [[EMPTY] * (x1 - x0 + 1) for _ in range(y1 - y0 + 1)]
    for y, x in points:
        rows[y - y0][x - x0] = POINT
    for (y, x), mark in marks.items():
        rows[y - y0][x - x0] = mark
    return ["".join(row).rstrip() for row in rows]


def stick_owners(owners: Mapping[Stick, int]) -> list[list[int | None]]:
    """For each character of ``stick_lines`` over the same sticks, the number of the
    placement whose stick it shows (None for points and spaces)."""
    marks = {s: "x" for s in owners}
    lines = stick_lines(marks)
    points = {p for s in owners for p in ends(s)}
    y0 = min(y for y, _ in points)
    x0 = min(x for _, x in points)
    rows: list[list[int | None]] = [[None] * len(line) for line in lines]
    for (y, x), who in owners.items():
        rows[y - y0][x - x0] = who
    return rows


def plain_marks(sticks: Iterable[Stick]) -> dict[Stick, str]:
    """Each stick marked ``-`` or ``|``: a board or a piece as the file writes it."""
    return {s: HORIZONTAL if is_horizontal(s) else VERTICAL for s in sticks}


def piece_marks(names: Sequence[str]) -> dict[str, str]:
    """One character for each piece name: the name itself when it is one character and
    no other piece took it, else the first spare letter."""
    out: dict[str, str] = {}
    taken = {n for n in names if len(n) == 1}
    spare = (ch for ch in SPARE_MARKS if ch not in taken)
    for name in names:
        if len(name) == 1 and name not in BLANKS and name not in "+-|":
            out[name] = name
        else:
            out[name] = next(spare, "#")
    return out


def solution_lines(puzzle: PolysticksPuzzle, solution: PolysticksSolution) -> list[str]:
    """The board with every stick shown by its piece's mark; a key follows when a mark is
    not the piece's own name."""
    marks = piece_marks([p.name for p in puzzle.pieces])
    drawn = {s: marks[name] for name, sticks in solution.placements for s in sticks}
    lines = stick_lines(drawn)
    used = sorted({name for name, _ in solution.placements}, key=lambda n: marks[n])
    key = [f"{marks[n]} = {n}" for n in used if marks[n] != n]
    if key:
        lines.append("key: " + ", ".join(key))
    return lines


def describe(puzzle: PolysticksPuzzle) -> list[str]:
    """The board and the pieces, each drawn in the file's notation."""
    rule = "no two pieces cross" if puzzle.touch == "corners" else \
        "pieces meet only where one of them ends"
    out = [f"polysticks: a board of {len(puzzle.board)} sticks, {len(puzzle.pieces)} "
           f"pieces ({rule}):"]
    out += ["  " + line for line in stick_lines(plain_marks(puzzle.board))]
    for piece in puzzle.pieces:
        count = piece.count_words()
        out.append(f"{piece.name}{count}:")
        out += ["  " + line for line in stick_lines(plain_marks(piece.sticks))]
    return out


def solution_owners(solution: PolysticksSolution) -> list[list[int | None]]:
    """Which placement each character of :func:`solution_lines`' drawing shows."""
    return stick_owners({s: i for i, (_, sticks) in enumerate(solution.placements)
                         for s in sticks})
