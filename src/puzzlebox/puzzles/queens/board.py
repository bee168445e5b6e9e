"""The queens' board as a file gives it: its holes and its given queens (the torus's problem
is engine/queens_bitmask.py's ``torus_problem``, beside the plain board's).

A hole is a square no queen may take (it does not block a line: queens attack across it,
as in the puzzle hunts' rule sets); a given is a queen placed before the search.
"""

from __future__ import annotations

from typing import Any

from puzzlebox import limits
from puzzlebox.geometry.grid_text import row_line
from puzzlebox.geometry.square import SQUARE
from puzzlebox.puzzles.reading import FileReader, shown

Square = tuple[int, int]  # (row, col)


def attack_line(n: int, torus: bool, a: Square, b: Square) -> str | None:
    """The line that queens on ``a`` and ``b`` share ("row", "column", "diagonal"), or None;
    on a torus the diagonals wrap around the edges."""
    (r1, c1), (r2, c2) = a, b
    if r1 == r2:
        return "row"
    if c1 == c2:
        return "column"
    if torus:
        same = (r1 + c1 - r2 - c2) % n == 0 or (r1 - c1 - r2 + c2) % n == 0
    else:
        same = r1 + c1 == r2 + c2 or r1 - c1 == r2 - c2
    return "diagonal" if same else None


def read_board(r: FileReader, doc: dict[str, Any]) -> tuple[int, frozenset[Square]]:
    """``n`` and the holes: the squares of the ``n x n`` board that ``board`` (optional, a
    grid: ``.`` or a space, or a row cut short, is a hole) leaves out."""
    n = r.integer(doc, "n", (), 1, limits.MAX_QUEENS)
    if "board" not in doc:
        return n, frozenset()
    cells = r.grid(doc["board"], ("board",), SQUARE)
    outside = sorted(cell for cell in cells if not (0 <= cell[0] < n and 0 <= cell[1] < n))
    if outside:
        row, col = outside[0]  # from 0, as givens count them, at the row's line (#38)
        raise r.fail(("board",), f"row {row}, column {col} lies outside the {n} x {n} board "
                     f"that n gives (rows and columns 0 to {n - 1})",
                     row_line(doc["board"], row))
    holes = frozenset((i, j) for i in range(n) for j in range(n) if (i, j) not in cells)
    return n, holes


def read_givens(r: FileReader, doc: dict[str, Any], n: int, holes: frozenset[Square]
                ) -> tuple[Square, ...]:
    """``givens = [[row, col], ...]``: queens placed before the search, each on a square of
    the board (not a hole), no two on one square."""
    value = doc.get("givens", [])
    if not isinstance(value, list):
        raise r.fail(("givens",), f"must be an array of [row, col] pairs, not {shown(value)}")
    if len(value) > n:
        raise r.fail(("givens",), f"gives {len(value)} queens; the board takes {n}")
    givens: list[Square] = []
    for i, pair in enumerate(value):
        ok = (isinstance(pair, list) and len(pair) == 2
              and all(isinstance(x, int) and not isinstance(x, bool) for x in pair))
        if not ok:
            raise r.fail(("givens", i), f"must be a [row, col] pair of integers, not "
                         f"{shown(pair)}")
        square = (pair[0], pair[1])
        if not (0 <= square[0] < n and 0 <= square[1] < n):
            raise r.fail(("givens", i), f"{list(square)} lies outside the {n} x {n} board "
                         "(rows and columns count from 0)")
        if square in holes:
            raise r.fail(("givens", i), f"{list(square)} is a hole of the board")
        if square in givens:
            raise r.fail(("givens", i), f"{list(square)} is given twice")
        givens.append(square)
    return tuple(givens)
