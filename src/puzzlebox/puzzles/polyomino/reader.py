"""The polyomino kind's part of a puzzle file: lattice, board(s), pieces, rules, and the
designer's keys (givens, labels, a piece's own rules: designer.py)."""

from __future__ import annotations

from typing import Any

from puzzlebox import limits
from puzzlebox.geometry.lattice import Cell, Lattice, lattice_named, lattice_names
from puzzlebox.geometry.square import SQUARE
from puzzlebox.geometry.wrap import Wrap, WrapError, make_wrap
from puzzlebox.puzzles.polyomino import designer, model
from puzzlebox.puzzles.polyomino.disassembly_rules import read_disassembly
from puzzlebox.puzzles.polyomino.optional_cells import read_neutral, read_optional
from puzzlebox.puzzles.reading import COMMON_KEYS, FileReader, shown

DESIGNER_KEYS = {"givens", "sweep"}  # designer.py


def _count_bounds(r: FileReader, value: Any, path: tuple) -> tuple[int, int | None]:
    """``1`` | ``n`` | ``[lo, hi]`` | ``"any"`` as (lo, hi) with hi None for unlimited."""
    if isinstance(value, bool):
        raise r.fail(path, f"count must be an integer, [lo, hi] or \"any\", not {value!r}")
    if isinstance(value, int):
        if value < 0:
            raise r.fail(path, f"count must not be negative, not {shown(value)}")
        if value > limits.MAX_COPIES:
            raise r.fail(path, f"count {shown(value)} is over the limit of "
                         f"{limits.MAX_COPIES} copies")
        return value, value
    if value == "any":
        return 0, None
    if (
        isinstance(value, list)
        and len(value) == 2
        and all(isinstance(v, int) and not isinstance(v, bool) for v in value)
    ):
        lo, hi = value
        if lo < 0 or hi < lo:
            raise r.fail(path, f"count range [{shown(lo)}, {shown(hi)}] must have 0 <= lo <= hi")
        if hi > limits.MAX_COPIES:
            raise r.fail(path, f"count range [{shown(lo)}, {shown(hi)}] goes over the limit "
                         f"of {limits.MAX_COPIES} copies (\"any\" has no upper bound)")
        return lo, hi
    raise r.fail(path, f"count must be an integer, [lo, hi] or \"any\", not {shown(value)}")


def _lattice(r: FileReader, doc: dict[str, Any]) -> Lattice:
    """The top-level ``lattice`` key (default ``"square"``) as a registered lattice.

    A file that names its lattice (any, ``"square"`` included) has every piece checked to
    be connected on it; a file that names none reads as files did before lattices came
    (#14), where a piece in several parts is allowed (tests/test_hostile.py packs random
    ones)."""
    if "lattice" not in doc:
        return SQUARE
    value = doc["lattice"]
    if not isinstance(value, str):
        raise r.fail(("lattice",), f"must be a string ({_known_lattices()}), not {shown(value)}")
    try:
        return lattice_named(value)
    except KeyError:
        raise r.fail(
            ("lattice",), f"unknown lattice {shown(value)} (known: {_known_lattices()})"
        ) from None


def _wrap(r: FileReader, table: dict[str, Any], cells: dict[Cell, str], lattice: Lattice,
          path: tuple[Any, ...]) -> Wrap | None:
    """A board's ``wrap`` key (puzzle-format.md, "Boards that wrap"): None without it."""
    if "wrap" not in table:
        return None
    value = table["wrap"]
    if not isinstance(value, str):
        raise r.fail(path + ("wrap",), f'must be "left-right", "top-bottom" or "both", '
                     f"not {shown(value)}")
    try:
        return make_wrap(value, lattice, cells)
    except WrapError as error:
        raise r.fail(path + ("wrap",), str(error)) from None


def _known_lattices() -> str:
    return ", ".join(f'"{n}"' for n in lattice_names())


def read_polyomino(
    r: FileReader, doc: dict[str, Any], name: str, title: str, notes: str
) -> list[model.PolyominoPuzzle]:
    """``lattice``, ``[board]`` or ``[[boards]]``, ``[pieces]``, ``[rules]`` and the
    designer's keys (designer.py)."""
    known = COMMON_KEYS | {"lattice", "board", "boards", "pieces", "rules", "disassembly"} | \
        DESIGNER_KEYS
    r.check_keys(doc, known, ())
    lattice = _lattice(r, doc)
    rules = doc.get("rules", {})
    if not isinstance(rules, dict):
        raise r.fail(("rules",), "must be a table")
    r.check_keys(rules, {"rotate", "reflect", "match_colors", "neutral"}, ("rules",))
    rotate = r.boolean(rules, "rotate", True, ("rules",))
    reflect = r.boolean(rules, "reflect", True, ("rules",))
    match_colors = r.boolean(rules, "match_colors", False, ("rules",))
    neutral = read_neutral(r, rules, match_colors)  # #24

    if "board" in doc and "boards" in doc:
        raise r.fail(("boards",), "give either [board] or [[boards]], not both")
    boards: list[tuple[str | None, dict[Cell, str]]] = []
    wraps: list[Wrap | None] = []  # one per board (#27)
    optional: dict[str | None, frozenset[Cell]] = {}  # cells that may stay empty, by board
    if "boards" in doc:
        entries = doc["boards"]
        if not isinstance(entries, list) or not entries:
            raise r.fail(("boards",), "must be a non-empty array of tables [[boards]]")
        if len(entries) > limits.MAX_BOARDS:
            raise r.fail(("boards",), f"has {len(entries)} boards; the limit is "
                         f"{limits.MAX_BOARDS}")
        seen_names: set[str] = set()
        total = 0
        for i, entry in enumerate(entries):
            if not isinstance(entry, dict):
                raise r.fail(("boards", i), "must be a table")
            r.check_keys(entry, {"name", "grid", "optional", "wrap"}, ("boards", i))
            board_name = r.text_value(entry, "name", ("boards", i)) or f"board{i + 1:02d}"
            if len(board_name) > limits.MAX_NAME:
                raise r.fail(("boards", i, "name"), f"a name of {len(board_name)} characters; "
                             f"the limit is {limits.MAX_NAME}")
            if board_name in seen_names:
                raise r.fail(("boards", i, "name"), f"board name {board_name!r} is used twice")
            seen_names.add(board_name)
            if "grid" not in entry:
                raise r.fail(("boards", i, "grid"), "is missing")
            boards.append((board_name, r.grid(entry["grid"], ("boards", i, "grid"), lattice)))
            wraps.append(_wrap(r, entry, boards[-1][1], lattice, ("boards", i)))
            optional[board_name] = read_optional(r, entry, boards[-1][1], lattice, ("boards", i))
            total += len(boards[-1][1])
            if total > limits.MAX_TOTAL_CELLS:
                raise r.fail(("boards", i, "grid"), f"the boards so far have {total} cells; "
                             f"the limit for a batch is {limits.MAX_TOTAL_CELLS}")
    else:
        board = r.table(doc, "board", ())
        r.check_keys(board, {"grid", "labels", "optional", "wrap"}, ("board",))
        if "grid" not in board:
            raise r.fail(("board", "grid"), "is missing")
        boards.append((None, r.grid(board["grid"], ("board", "grid"), lattice)))
        wraps.append(_wrap(r, board, boards[0][1], lattice, ("board",)))
        optional[None] = read_optional(r, board, boards[0][1], lattice)  # #24

    table = r.table(doc, "pieces", ())
    if not table:
        raise r.fail(("pieces",), "no pieces are given")
    r.names(table, "pieces", limits.MAX_PIECES, ("pieces",))
    largest = max(len(cells) for _, cells in boards)
    pieces = []
    for piece_name, spec in table.items():
        path = ("pieces", piece_name)
        if isinstance(spec, dict):
            r.check_keys(spec, {"shape", "count"} | designer.PIECE_KEYS, path)
            if "shape" not in spec:
                raise r.fail(path + ("shape",), "is missing")
            where: tuple[Any, ...] = path + ("shape",)
            cells = r.grid(spec["shape"], where, lattice)
            lo, hi = _count_bounds(r, spec.get("count", 1), path + ("count",))
        else:
            where = path
            cells = r.grid(spec, path, lattice)
            lo, hi = 1, 1
        if "lattice" in doc and not lattice.is_connected(cells):
            raise r.fail(where, f"the piece is not connected: its {lattice.cell_word}s must "
                         f"form one piece, each touching another by a "
                         f"{'face' if lattice.dimensions == 3 else 'side'}")
        if len(cells) > largest:
            raise r.fail(
                path, f"the piece has {len(cells)} cells, more than the board's {largest}"
            )
        pieces.append(model.Piece(piece_name, lattice.normalize(cells), lo, hi))

    pieces = designer.own_rules(r, table, pieces)  # a designer's keys (#17): designer.py
    givens, given_paths = designer.read_givens(r, doc, table, pieces, lattice)
    labels = designer.read_labels(r, doc, doc.get("board", {}), boards[0][1] if
                                  "board" in doc else None)
    rules = read_disassembly(r, doc, {piece.name for piece in pieces})  # #24
    puzzles = [
        model.PolyominoPuzzle(
            name,
            cells,
            pieces,
            rotate=rotate,
            reflect=reflect,
            match_colors=match_colors,
            givens=tuple(givens),
            labels=labels,
            title=title,
            notes=notes,
            board_name=board_name,
            lattice=lattice,
            optional=optional[board_name],
            disassembly=rules,
            wrap=wrap,
            neutral=neutral,
        )
        for (board_name, cells), wrap in zip(boards, wraps, strict=True)
    ]
    for puzzle in puzzles:
        designer.check(r, puzzle, given_paths)  # type: ignore[arg-type]
    return puzzles
