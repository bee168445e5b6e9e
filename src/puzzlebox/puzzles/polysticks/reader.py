"""Read a ``kind = "polysticks"`` file: a board and pieces drawn in the stick notation
(text.py), a count per piece and the rules. Every bad value is one error naming the file
and the line (through formats/reader.py's :class:`FileReader`).

    kind = "polysticks"
    [board]
    grid = '''
    +-+-+
    | | |
    +-+-+
    '''
    [pieces]
    L = "+/|/+-+"                      # or a table: { shape = "...", count = [0, 1] }
    [rules]
    rotate = true                      # default true
    reflect = true                     # default true
    touch = "corners"                  # or "ends" (default "corners")

``lattice = "triangle"`` (polytrigs) reads the grids in the triangle notation (text.py).
"""

from __future__ import annotations

from typing import Any

from puzzlebox import limits
from puzzlebox.geometry.grid_text import grid_rows, row_line
from puzzlebox.puzzles.polysticks import geometry, model, text  # model: at call time
from puzzlebox.puzzles.reading import COMMON_KEYS, FileReader, shown

KEYS = COMMON_KEYS | {"board", "pieces", "rules", "lattice"}
RULE_KEYS = {"rotate", "reflect", "touch"}
PIECE_KEYS = {"shape", "count"}
MAX_STICKS = limits.MAX_CELLS  # sticks of a board or a piece


def read_grid(r: FileReader, value: Any, path: tuple[Any, ...],
              grid: geometry.StickGrid = geometry.SQUARE) -> geometry.Sticks:
    """The sticks a grid string draws. Row ``y``, column ``x`` of the text is the doubled
    coordinate: ``-`` at an even row and odd column, ``|`` at an odd row and even column;
    any letter or digit stands for a stick at either (a solution's drawing reads back);
    ``+``, ``.`` and spaces stand for nothing."""
    if not isinstance(value, str):
        raise r.fail(path, f"a grid must be a string of rows, not {shown(value)}")
    if len(value) > 4 * MAX_STICKS:
        raise r.fail(path, f"a grid of {len(value)} characters; the limit is "
                     f"{4 * MAX_STICKS}")
    if grid.staggered:  # the triangle notation, whose rows are lines only: '/' is a stick
        lines = grid_rows(value) if "\n" in value else [value]
        return _checked(r, value, path, _read_triangle(r, value, path, lines))
    lines = grid_rows(value)
    sticks: set[geometry.Stick] = set()
    for y, line in enumerate(lines):
        for x, ch in enumerate(line.rstrip()):
            if ch in text.BLANKS:
                continue
            # as the contract counts them, from 0, at the file's line of the row (#38)
            where, at = f"row {y}, column {x}", row_line(value, y)
            if y % 2 == 0 and x % 2 == 0:
                if ch != text.POINT:
                    raise r.fail(path, f"{where}: {ch!r} stands on a grid point (even row "
                                 "and column from 0), where only '+', '.' or a space may", at)
                continue
            if y % 2 == 1 and x % 2 == 1:
                raise r.fail(path, f"{where}: {ch!r} stands inside a square (odd row and "
                             "column from 0), where only '.' or a space may; sticks are "
                             "one character: '+-+', with '|' under a '+'", at)
            horizontal = y % 2 == 0
            if ch == (text.VERTICAL if horizontal else text.HORIZONTAL) or ch == text.POINT \
                    or not (ch.isalnum() or ch in "-|"):
                want = "'-'" if horizontal else "'|'"
                raise r.fail(path, f"{where}: {ch!r} where a "
                             f"{'horizontal' if horizontal else 'vertical'} stick goes "
                             f"(write {want}, or leave a space)", at)
            sticks.add((y, x))
    return _checked(r, value, path, sticks)


def _checked(r: FileReader, value: str, path: tuple[Any, ...], sticks: set[geometry.Stick]
             ) -> geometry.Sticks:
    if not sticks:
        raise r.fail(path, "draws no stick ('-' between two '+' in a row, '|' between two "
                     "'+' in a column; on triangles '/' and '\\' between rows)")
    if len(sticks) > MAX_STICKS:
        raise r.fail(path, f"has {len(sticks)} sticks; the limit is {MAX_STICKS}")
    return frozenset(sticks)


def _read_triangle(r: FileReader, value: str, path: tuple[Any, ...], lines: list[str]
                   ) -> set[geometry.Stick]:
    """The sticks of a grid in the triangle notation (text.py). The first ``+`` (top row
    first, then from the left) fixes where the points stand: every four columns along its
    row, two columns further right on each row below. Measured from there, the character
    at row ``y`` and column ``x`` is the place ``(y, (x - y) / 2)`` where ``x - y`` is
    even; on a row of points the characters between (``x - y`` odd) belong to the
    horizontal stick whose middle is beside them."""
    first = next(((y, x) for y, line in enumerate(lines) for x, ch in enumerate(line)
                  if ch == text.POINT), None)
    if first is None:
        raise r.fail(path, "draws no grid point: on the triangle lattice the points are "
                     "drawn ('+'), so that the sticks between them can be read")
    shift = (first[1] - first[0]) % 4  # columns to take off so that points stand at x = y mod 4
    want = {0: "'-'", 1: "'\\'", 2: "'/'"}
    names = {0: "horizontal", 1: "down-right", 2: "down-left"}
    sticks: set[geometry.Stick] = set()
    fills: list[tuple[int, int, str]] = []
    for y, line in enumerate(lines):
        for x, ch in enumerate(line.rstrip()):
            if ch in text.BLANKS:
                continue
            where, at = f"row {y}, column {x}", row_line(value, y)
            u = x - shift
            if (u - y) % 2:
                if y % 2:
                    raise r.fail(path, f"{where}: {ch!r} stands between the places of two "
                                 "slanted sticks, where only '.' or a space may", at)
                if not (ch == text.HORIZONTAL or ch.isalnum()):
                    raise r.fail(path, f"{where}: {ch!r} beside a horizontal stick (write "
                                 "'-', or leave a space)", at)
                fills.append((y, u, ch))
                continue
            place = (y, (u - y) // 2)
            if not geometry.TRIANGLE.is_stick(place):
                if ch != text.POINT:
                    raise r.fail(path, f"{where}: {ch!r} stands on a grid point, where only "
                                 "'+', '.' or a space may (the first '+' fixes where the "
                                 "points are)", at)
                continue
            kind = geometry.TRIANGLE.direction(place)
            mark = geometry.TRIANGLE.marks[kind]
            if ch != mark and not ch.isalnum():
                raise r.fail(path, f"{where}: {ch!r} where a {names[kind]} stick goes "
                             f"(write {want[kind]}, or leave a space; the first '+' fixes "
                             "where the points are)", at)
            sticks.add(place)
    for y, u, ch in fills:
        middle = (y, (u - y + (1 if (u - y) % 4 == 1 else -1)) // 2)
        if middle not in sticks:
            raise r.fail(path, f"row {y}, column {u + shift}: {ch!r} beside no horizontal "
                         "stick (a horizontal stick is the middle one of the three "
                         "characters between two '+')", row_line(value, y))
    return sticks


def _count(r: FileReader, value: Any, path: tuple[Any, ...], board: int, size: int
           ) -> tuple[int, int]:
    """``1``, ``n``, ``[lo, hi]`` or ``"any"`` as bounds (lo, hi)."""
    most = board // size
    if value == "any":
        return 0, most
    if isinstance(value, int) and not isinstance(value, bool):
        lo = hi = value
    elif isinstance(value, list) and len(value) == 2 and all(
            isinstance(v, int) and not isinstance(v, bool) for v in value):
        lo, hi = value
    else:
        raise r.fail(path, f"must be an integer, [lo, hi] or \"any\", not {shown(value)}")
    if not 0 <= lo <= hi or hi > limits.MAX_COPIES:
        raise r.fail(path, f"must be 0 <= lo <= hi <= {limits.MAX_COPIES}, not "
                     f"{shown(value)}")
    return lo, hi


def read_polysticks(r: FileReader, doc: dict[str, Any], name: str, title: str, notes: str
                    ) -> model.PolysticksPuzzle:
    """The one puzzle of a parsed polysticks file, every value checked."""
    r.check_keys(doc, KEYS, ())
    lattice = doc.get("lattice", "square")
    if lattice not in geometry.GRIDS:
        raise r.fail(("lattice",), "sticks lie on the lattice \"square\" or \"triangle\", "
                     f"not {shown(lattice)}")
    grid = geometry.GRIDS[lattice]
    board_table = r.table(doc, "board", ())
    r.check_keys(board_table, {"grid"}, ("board",))
    if "grid" not in board_table:
        raise r.fail(("board", "grid"), "is missing")
    board = read_grid(r, board_table["grid"], ("board", "grid"), grid)

    pieces_table = r.table(doc, "pieces", ())
    r.names(pieces_table, "pieces", limits.MAX_PIECES, ("pieces",))
    if not pieces_table:
        raise r.fail(("pieces",), "names no piece")
    pieces: list[model.Piece] = []
    for piece_name, value in pieces_table.items():
        path: tuple[Any, ...] = ("pieces", piece_name)
        count: Any = 1
        if isinstance(value, dict):
            r.check_keys(value, PIECE_KEYS, path)
            if "shape" not in value:
                raise r.fail(path + ("shape",), "is missing")
            shape_value, count = value["shape"], value.get("count", 1)
            shape_path = path + ("shape",)
        else:
            shape_value, shape_path = value, path
        sticks = read_grid(r, shape_value, shape_path, grid)
        if not geometry.connected(sticks, grid):
            raise r.fail(shape_path, "is not one piece: its sticks must join end to end")
        lo, hi = _count(r, count, path + ("count",) if isinstance(value, dict) else path,
                        len(board), len(sticks))
        pieces.append(model.Piece(str(piece_name), geometry.normalize(sticks, grid), lo, hi))

    rules = doc.get("rules", {})
    if not isinstance(rules, dict):
        raise r.fail(("rules",), "must be a table")
    r.check_keys(rules, RULE_KEYS, ("rules",))
    rotate = r.boolean(rules, "rotate", True, ("rules",))
    reflect = r.boolean(rules, "reflect", True, ("rules",))
    touch = rules.get("touch", "corners")
    if touch not in model.TOUCH_RULES:
        raise r.fail(("rules", "touch"), f"must be one of {', '.join(map(repr, model.TOUCH_RULES))}"
                     f", not {shown(touch)}")
    return model.PolysticksPuzzle(name, board, pieces, rotate=rotate, reflect=reflect,
                                  touch=touch, title=title, notes=notes, grid=grid)
