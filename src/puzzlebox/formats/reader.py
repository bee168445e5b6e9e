"""Read a puzzle file (TOML) into a puzzle model, checking everything on the way.

Files are data: ``tomllib`` parses them and nothing is ever evaluated. Every problem is
reported as one :class:`PuzzleFileError` naming the file, the place and what is wrong.
Files are also hostile until read: the size and nesting are checked before the parser runs
(formats/guard.py), every value's type before it is used, and every size against
formats/limits.py before anything is built from it.
"""

from __future__ import annotations

import re
import tomllib
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from puzzlebox.formats import designer, limits
from puzzlebox.formats.errors import PuzzleFileError
from puzzlebox.formats.guard import nesting_problem
from puzzlebox.formats.locate import key_line
from puzzlebox.geometry.lattice import Cell, GridError, Lattice, lattice_named, lattice_names
from puzzlebox.geometry.square import SQUARE
from puzzlebox.puzzles import KINDS as REGISTERED_KINDS
from puzzlebox.puzzles import EdgeMatchingPuzzle, Piece, PolyominoPuzzle, Puzzle, QueensPuzzle
from puzzlebox.puzzles.sudoku import SudokuPuzzle  # registers kind "sudoku" (#27)

COMMON_KEYS = {"kind", "title", "notes"}
DESIGNER_KEYS = {"givens", "sweep"}  # formats/designer.py
SHOWN = 40  # characters of a value or key quoted in an error message


def shown(value: Any) -> str:
    """A value as an error message quotes it: short, one line, never a deep repr."""
    if isinstance(value, dict):
        return "a table"
    if isinstance(value, list):
        return "an array"
    if isinstance(value, int) and not isinstance(value, bool) and abs(value) >= 10**12:
        return f"an integer of {len(str(abs(value)))} digits"
    text = repr(value)
    return text if len(text) <= SHOWN else text[: SHOWN - 3] + "..."


def _part(key: Any) -> str:
    text = str(key)
    return text if len(text) <= SHOWN else text[: SHOWN - 3] + "..."


@dataclass
class PuzzleFile:
    """What one file holds: a single puzzle, or a batch of boards sharing one piece set."""

    name: str
    title: str
    puzzles: list[Puzzle] = field(default_factory=list)
    batch: bool = False
    source: str = ""


class _Reader:
    """Walks a parsed TOML document; knows the text so errors can name a line."""

    def __init__(self, source: str, text: str) -> None:
        self.source = source
        self.text = text

    def fail(self, path: tuple[Any, ...], message: str) -> PuzzleFileError:
        """The error for ``path``, placed at its line (or its table's, when it is missing).

        An error with no line says why: the whole file is at fault, or the key is missing
        from a file that has no table to point at."""
        line = key_line(self.text, tuple(str(p) for p in path)) if path else None
        dotted = ".".join(_part(p) for p in path)
        if line is None:
            message += " (no line: " + (
                "the file has no such key)" if "missing" in message else "about the whole file)"
            )
        place = f"{line}" if line else None
        return PuzzleFileError(self.source, place, f"{dotted}: {message}" if dotted else message)

    def check_keys(self, table: dict[str, Any], allowed: set[str], path: tuple[Any, ...]) -> None:
        for key in table:
            if key not in allowed:
                known = ", ".join(sorted(allowed))
                raise self.fail(path + (key,), f"unknown key (expected one of: {known})")

    def names(self, table: dict[str, Any], what: str, most: int, path: tuple) -> None:
        """Refuse a table of more than ``most`` entries, or with a name too long to show."""
        if len(table) > most:
            raise self.fail(path, f"has {len(table)} {what}; the limit is {most}")
        for key in table:
            if len(key) > limits.MAX_NAME:
                raise self.fail(
                    path + (key,), f"a name of {len(key)} characters; the limit is "
                    f"{limits.MAX_NAME}"
                )

    def table(self, doc: dict[str, Any], key: str, path: tuple[Any, ...]) -> dict[str, Any]:
        value = doc.get(key)
        if not isinstance(value, dict):
            what = "is missing" if value is None else "must be a table"
            raise self.fail(path + (key,), what)
        return value

    def boolean(self, table: dict[str, Any], key: str, default: bool, path: tuple) -> bool:
        value = table.get(key, default)
        if not isinstance(value, bool):
            raise self.fail(path + (key,), f"must be true or false, not {shown(value)}")
        return value

    def integer(
        self, table: dict[str, Any], key: str, path: tuple, least: int, most: int
    ) -> int:
        if key not in table:
            raise self.fail(path + (key,), "is missing")
        value = table[key]
        if isinstance(value, bool) or not isinstance(value, int):
            raise self.fail(path + (key,), f"must be an integer, not {shown(value)}")
        if value < least:
            raise self.fail(path + (key,), f"must be at least {least}, not {shown(value)}")
        if value > most:
            raise self.fail(path + (key,), f"must be at most {most}, not {shown(value)}")
        return value

    def text_value(self, table: dict[str, Any], key: str, path: tuple) -> str:
        value = table.get(key, "")
        if not isinstance(value, str):
            raise self.fail(path + (key,), f"must be a string, not {shown(value)}")
        return value

    def grid(self, value: Any, path: tuple, lattice: Lattice) -> dict[Cell, str]:
        """A board or piece grid read on ``lattice`` (``lattice.parse``): a string of rows,
        or on cube a list of layers from the bottom up (a plain string there is one layer).
        Its size is checked before any cell is made."""
        if isinstance(value, list):
            size = sum(_cell_count(layer) for layer in value if isinstance(layer, str))
        elif isinstance(value, str):
            size = _cell_count(value)
        else:
            raise self.fail(path, f"a grid must be a string of rows, not {shown(value)}")
        if size > limits.MAX_CELLS:
            raise self.fail(
                path, f"the grid has {size} cells; the limit is {limits.MAX_CELLS}"
            )
        try:
            cells = lattice.parse(value)
        except GridError as error:
            raise self.fail(path, str(error)) from None
        if not cells:
            raise self.fail(path, "the grid has no cells (only '.', spaces or nothing)")
        return cells


def _cell_count(text: str) -> int:
    """The cells ``parse_grid`` would make of ``text``, counted without making them."""
    text = text.replace("\r\n", "\n")
    rows = "\n" if "\n" in text else "/"
    return len(text) - text.count(rows) - text.count(".") - text.count(" ")


def read_text(text: str, source: str, name: str) -> PuzzleFile:
    """Parse and check puzzle TOML text; ``source`` names it in errors."""
    if len(text) > limits.MAX_FILE_BYTES:
        raise PuzzleFileError(
            source, None, f"the file has {len(text)} characters; the limit is "
            f"{limits.MAX_FILE_BYTES} (no line: about the whole file)"
        )
    deep = nesting_problem(text)
    if deep is not None:
        line, column, what = deep
        raise PuzzleFileError(source, f"{line}:{column}", f"not read: {what}")
    try:
        doc = tomllib.loads(text)
    except RecursionError:  # the scan above should have caught it; never a traceback
        raise PuzzleFileError(
            source, None, "not read: nested too deeply (no line: the parser gave up)"
        ) from None
    except ValueError as error:  # TOMLDecodeError, or an integer of over 4,300 digits
        if not isinstance(error, tomllib.TOMLDecodeError):
            long = re.search(r"[0-9_]{4300}", text)
            where = f"{text.count(chr(10), 0, long.start()) + 1}" if long else None
            raise PuzzleFileError(
                source, where, "not valid TOML: a number too long to read" + (
                    "" if long else " (no line: the parser does not say where)")
            ) from None
        message = str(error)
        match = re.search(r"\(at line (\d+), column (\d+)\)", message)
        place = f"{match.group(1)}:{match.group(2)}" if match else None
        if "(at end of document)" in message:
            place = f"{text.count(chr(10)) + 1}"
        message = re.sub(r"\s*\(at (line \d+, column \d+|end of document)\)", "", message)
        raise PuzzleFileError(source, place, f"not valid TOML: {message}") from None
    reader = _Reader(source, text)
    kind = doc.get("kind", "polyomino")
    if not isinstance(kind, str):
        raise reader.fail(("kind",), f"must be a string ({', '.join(KINDS)}), not {shown(kind)}")
    if kind not in KINDS:
        raise reader.fail(("kind",), f"unknown kind {shown(kind)} (known: {', '.join(KINDS)})")
    title = reader.text_value(doc, "title", ())
    notes = reader.text_value(doc, "notes", ())
    return KINDS[kind](reader, doc, name, title, notes)


def read_file(path: str | Path, name: str | None = None) -> PuzzleFile:
    """Read a puzzle file from disk."""
    path = Path(path)
    try:
        with path.open("rb") as handle:
            raw = handle.read(limits.MAX_FILE_BYTES + 1)
    except OSError as error:
        raise PuzzleFileError(
            str(path), None, f"cannot read: {error.strerror or error}"
        ) from None
    return read_bytes(raw, str(path), name or path.stem)


def read_bytes(raw: bytes, source: str, name: str) -> PuzzleFile:
    """Check and decode a file's bytes (size, UTF-8), then read them as :func:`read_text`."""
    if len(raw) > limits.MAX_FILE_BYTES:
        raise PuzzleFileError(
            source, None, f"the file is larger than {limits.MAX_FILE_BYTES} bytes, the "
            "limit for a puzzle file (no line: about the whole file)"
        )
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as error:
        line = raw.count(b"\n", 0, error.start) + 1
        column = error.start - (raw.rfind(b"\n", 0, error.start) + 1) + 1
        raise PuzzleFileError(
            source, f"{line}:{column}", f"not UTF-8 text (byte {raw[error.start]:#04x})"
        ) from None
    return read_text(text, source, name)


# -- the kinds -------------------------------------------------------------------------------


def _count_bounds(r: _Reader, value: Any, path: tuple) -> tuple[int, int | None]:
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


def _lattice(r: _Reader, doc: dict[str, Any]) -> Lattice:
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


def _known_lattices() -> str:
    return ", ".join(f'"{n}"' for n in lattice_names())


def _read_polyomino(
    r: _Reader, doc: dict[str, Any], name: str, title: str, notes: str
) -> PuzzleFile:
    known = COMMON_KEYS | {"lattice", "board", "boards", "pieces", "rules"} | DESIGNER_KEYS
    r.check_keys(doc, known, ())
    lattice = _lattice(r, doc)
    rules = doc.get("rules", {})
    if not isinstance(rules, dict):
        raise r.fail(("rules",), "must be a table")
    r.check_keys(rules, {"rotate", "reflect", "match_colors"}, ("rules",))
    rotate = r.boolean(rules, "rotate", True, ("rules",))
    reflect = r.boolean(rules, "reflect", True, ("rules",))
    match_colors = r.boolean(rules, "match_colors", False, ("rules",))

    if "board" in doc and "boards" in doc:
        raise r.fail(("boards",), "give either [board] or [[boards]], not both")
    boards: list[tuple[str | None, dict[Cell, str]]] = []
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
            r.check_keys(entry, {"name", "grid"}, ("boards", i))
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
            total += len(boards[-1][1])
            if total > limits.MAX_TOTAL_CELLS:
                raise r.fail(("boards", i, "grid"), f"the boards so far have {total} cells; "
                             f"the limit for a batch is {limits.MAX_TOTAL_CELLS}")
    else:
        board = r.table(doc, "board", ())
        r.check_keys(board, {"grid", "labels"}, ("board",))
        if "grid" not in board:
            raise r.fail(("board", "grid"), "is missing")
        boards.append((None, r.grid(board["grid"], ("board", "grid"), lattice)))

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
        pieces.append(Piece(piece_name, lattice.normalize(cells), lo, hi))

    pieces = designer.own_rules(r, table, pieces)  # a designer's keys (#17): formats/designer.py
    givens, given_paths = designer.read_givens(r, doc, table, pieces, lattice)
    labels = designer.read_labels(r, doc, doc.get("board", {}), boards[0][1] if
                                  "board" in doc else None)
    puzzles: list[Puzzle] = [
        PolyominoPuzzle(
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
        )
        for board_name, cells in boards
    ]
    for puzzle in puzzles:
        designer.check(r, puzzle, given_paths)  # type: ignore[arg-type]
    return PuzzleFile(name, title, puzzles, batch="boards" in doc, source=r.source)


def _read_edge_matching(
    r: _Reader, doc: dict[str, Any], name: str, title: str, notes: str
) -> PuzzleFile:
    r.check_keys(doc, COMMON_KEYS | {"board", "cards", "rules"}, ())
    board = r.table(doc, "board", ())
    r.check_keys(board, {"rows", "cols", "border"}, ("board",))
    rows = r.integer(board, "rows", ("board",), 1, limits.MAX_CARDS)
    cols = r.integer(board, "cols", ("board",), 1, limits.MAX_CARDS)
    if rows * cols > limits.MAX_CARDS:
        raise r.fail(("board", "cols"), f"a board of {rows} x {cols} = {rows * cols} cards; "
                     f"the limit is {limits.MAX_CARDS}")
    border = board.get("border")
    if border is not None and (
        isinstance(border, bool) or not isinstance(border, str | int)
    ):
        raise r.fail(("board", "border"), f"must be a label (a string), not {shown(border)}")
    border = None if border is None else str(border)
    if border is not None and len(border) > limits.MAX_NAME:
        raise r.fail(("board", "border"), f"a label of {len(border)} characters; the limit "
                     f"is {limits.MAX_NAME}")

    cards_table = r.table(doc, "cards", ())
    if not cards_table:
        raise r.fail(("cards",), "no cards are given")
    r.names(cards_table, "cards", limits.MAX_CARDS, ("cards",))
    cards: dict[str, tuple[str, str, str, str]] = {}
    for card, labels in cards_table.items():
        if isinstance(labels, str):
            parts = labels.split()
        elif isinstance(labels, list) and len(labels) == 4 and all(
            isinstance(x, str | int) and not isinstance(x, bool) for x in labels
        ):
            parts = [str(x) for x in labels]
        elif isinstance(labels, list) and len(labels) != 4:
            parts = ["?"] * len(labels)
        else:
            raise r.fail(("cards", card), "must be a string of 4 labels: top right bottom left")
        if any(len(part) > limits.MAX_NAME for part in parts):
            raise r.fail(("cards", card), f"a label longer than {limits.MAX_NAME} characters")
        if len(parts) != 4:
            raise r.fail(
                ("cards", card),
                f"has {len(parts)} labels; a card needs 4 (top right bottom left)",
            )
        cards[card] = (parts[0], parts[1], parts[2], parts[3])

    rules = doc.get("rules", {})
    if not isinstance(rules, dict):
        raise r.fail(("rules",), "must be a table")
    r.check_keys(rules, {"rotate", "complements"}, ("rules",))
    rotate = r.boolean(rules, "rotate", True, ("rules",))
    complements: dict[str, str] = {}
    comp_table = rules.get("complements", {})
    if not isinstance(comp_table, dict):
        raise r.fail(("rules", "complements"), "must be a table of label = \"complement\"")
    r.names(comp_table, "complements", 2 * limits.MAX_CARDS, ("rules", "complements"))
    for label, other in comp_table.items():
        if not isinstance(other, str):
            raise r.fail(("rules", "complements", label), f"must be a label, not {shown(other)}")
        for a, b in ((label, other), (other, label)):
            if complements.setdefault(a, b) != b:
                raise r.fail(
                    ("rules", "complements", label),
                    f"label {a!r} is given two complements ({complements[a]!r} and {b!r})",
                )
    puzzle = EdgeMatchingPuzzle(
        name,
        rows,
        cols,
        cards,
        rotate=rotate,
        complements=complements or None,
        border=border,
        title=title,
        notes=notes,
    )
    return PuzzleFile(name, title, [puzzle], source=r.source)


def _read_queens(
    r: _Reader, doc: dict[str, Any], name: str, title: str, notes: str
) -> PuzzleFile:
    r.check_keys(doc, COMMON_KEYS | {"n"}, ())
    n = r.integer(doc, "n", (), 1, limits.MAX_QUEENS)
    return PuzzleFile(name, title, [QueensPuzzle(name, n, title, notes)], source=r.source)


# The kinds a file may name are the registered ones (puzzles.KINDS), each read by its reader.
_READERS: dict[type[Puzzle], Callable[..., PuzzleFile]] = {
    PolyominoPuzzle: _read_polyomino,
    EdgeMatchingPuzzle: _read_edge_matching,
    QueensPuzzle: _read_queens,
    SudokuPuzzle: lambda r, doc, name, title, notes: PuzzleFile(
        name, title, SudokuPuzzle.read(r, doc, name, title, notes), source=r.source),
}
KINDS: dict[str, Callable[..., PuzzleFile]] = {
    name: _READERS[cls] for name, cls in REGISTERED_KINDS.items()
}
