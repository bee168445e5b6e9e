"""The reader's part for a designer's keys (#17): per-piece rules, givens, labels, sweeps.

Kept apart from reader.py (the polyomino kind's reader) so that it only calls in: each
function takes the reader (for its one-line errors with a line number) and the parsed TOML,
and returns what the puzzle model takes. docs/puzzle-format.md ("A designer's rules") is
the contract.
"""

from __future__ import annotations

import dataclasses
from typing import TYPE_CHECKING, Any

from puzzlebox import limits
from puzzlebox.geometry.grid_text import grid_rows, row_line
from puzzlebox.geometry.lattice import Cell, Lattice
from puzzlebox.puzzles.givens import Given, GivenError, check_givens, oriented_cells, turns_in
from puzzlebox.puzzles.labels import Combination, Labels
from puzzlebox.puzzles.reading import FileReader
from puzzlebox.puzzles.reading import shown as _shown

if TYPE_CHECKING:
    from puzzlebox.puzzles.polyomino.model import Piece, PolyominoPuzzle

PIECE_KEYS = {"rotate", "reflect", "at"}  # what a piece table may hold beyond shape, count
GIVEN_KEYS = {"piece", "cells", "at", "turns", "flip"}
SWEEP_KEYS = {"uncover", "only", "skip"}


def own_rules(r: FileReader, table: dict[str, Any], pieces: list[Piece]) -> list[Piece]:
    """Each piece with its own ``rotate``/``reflect`` where its table sets them."""
    out = []
    for piece in pieces:
        spec = table.get(piece.name)
        if isinstance(spec, dict) and ("rotate" in spec or "reflect" in spec):
            path = ("pieces", piece.name)
            rotate = r.boolean(spec, "rotate", True, path) if "rotate" in spec else None
            reflect = r.boolean(spec, "reflect", True, path) if "reflect" in spec else None
            piece = dataclasses.replace(piece, rotate=rotate, reflect=reflect)
        out.append(piece)
    return out


def _cell(r: FileReader, value: Any, path: tuple[Any, ...], dimensions: int = 2) -> Cell:
    """``[row, col]`` (``[layer, row, col]`` on a solid lattice): a cell as the board names
    it, with as many coordinates as the lattice has ``dimensions`` (checked here, so that no
    later step zips a cell of the wrong length); one that is not on the board is refused
    where the board is known."""
    if (
        isinstance(value, list)
        and len(value) == dimensions
        and all(isinstance(v, int) and not isinstance(v, bool) for v in value)
    ):
        return tuple(value)
    form = "[layer, row, col]" if dimensions == 3 else "[row, col]"
    what = f"{len(value)} numbers" if isinstance(value, list) and all(
        isinstance(v, int) and not isinstance(v, bool) for v in value) else _shown(value)
    raise r.fail(path, f"a cell is {form}, not {what}")


def _cells(
    r: FileReader, value: Any, path: tuple[Any, ...], dimensions: int = 2
) -> tuple[Cell, ...]:
    """``[[row, col], ...]`` (at least one cell), each of ``dimensions`` coordinates."""
    if not isinstance(value, list) or not value:
        raise r.fail(path, f"must be a list of cells [[row, col], ...], not {_shown(value)}")
    if len(value) > limits.MAX_CELLS:
        raise r.fail(path, f"has {len(value)} cells; the limit is {limits.MAX_CELLS}")
    return tuple(_cell(r, v, path, dimensions) for v in value)


def read_givens(
    r: FileReader, doc: dict[str, Any], table: dict[str, Any], pieces: list[Piece],
    lattice: Lattice,
) -> tuple[list[Given], list[tuple[Any, ...]]]:
    """The givens (``at`` on a piece table, then each ``[[givens]]``) and, for each, the
    path an error about it points at."""
    givens: list[Given] = []
    paths: list[tuple[Any, ...]] = []
    for name, spec in table.items():
        if isinstance(spec, dict) and "at" in spec:
            path: tuple[Any, ...] = ("pieces", name, "at")
            givens.append(Given(name, _cells(r, spec["at"], path, lattice.dimensions)))
            paths.append(path)
    entries = doc.get("givens", [])
    if not isinstance(entries, list) or not all(isinstance(e, dict) for e in entries):
        raise r.fail(("givens",), "must be an array of tables [[givens]]")
    if len(entries) > limits.MAX_PIECES:
        raise r.fail(("givens",), f"has {len(entries)} givens; the limit is {limits.MAX_PIECES}")
    for i, entry in enumerate(entries):
        path = ("givens", i)
        r.check_keys(entry, GIVEN_KEYS, path)
        name = entry.get("piece")
        if not isinstance(name, str):
            what = "is missing" if name is None else f"must be a piece's name, not {_shown(name)}"
            raise r.fail(path + ("piece",), what)
        if name not in table:
            raise r.fail(path + ("piece",), f"no piece is named {_shown(name)}")
        if ("cells" in entry) == ("at" in entry):
            raise r.fail(path, "give either cells = [[row, col], ...] or at = [row, col] "
                         "(with turns and flip), not both or neither")
        if "cells" in entry:
            for key in ("turns", "flip"):
                if key in entry:
                    raise r.fail(path + (key,), "goes with at = [row, col], not with cells")
            cells = _cells(r, entry["cells"], path + ("cells",), lattice.dimensions)
            paths.append(path + ("cells",))
        else:
            most = turns_in(lattice)
            if not most:
                raise r.fail(path + ("at",), f"on lattice {lattice.name!r} a given lists its "
                             "cells: cells = [[layer, row, col], ...]")
            at = _cell(r, entry["at"], path + ("at",), lattice.dimensions)
            turns = r.integer(entry, "turns", path, 0, most - 1) if "turns" in entry else 0
            flip = r.boolean(entry, "flip", False, path)
            shape = next(p.shape for p in pieces if p.name == name)
            placed = oriented_cells(lattice, shape.cells, at, turns, flip)
            if placed is None:
                raise r.fail(path + ("at",), f"{list(at)} is not a place a piece can be "
                             f"moved to on lattice {lattice.name!r}")
            cells = placed
            paths.append(path + ("at",))
        givens.append(Given(name, cells))
    return givens, paths


def check(r: FileReader, puzzle: PolyominoPuzzle, paths: list[tuple[Any, ...]]) -> None:
    """The givens checked on one board; an error points at the given."""
    try:
        check_givens(puzzle)
    except GivenError as error:
        where = f" (board {puzzle.board_name})" if puzzle.board_name else ""
        raise r.fail(paths[error.where], f"{error}{where}") from None


def _label_text(r: FileReader, value: Any, path: tuple[Any, ...]) -> str:
    if isinstance(value, bool) or not isinstance(value, str | int):
        raise r.fail(path, f"a label is a string, not {_shown(value)}")
    text = str(value)
    if not text or len(text) > limits.MAX_NAME:
        raise r.fail(path, f"a label of {len(text)} characters; it needs 1 to "
                     f"{limits.MAX_NAME}")
    return text


def _label_grid(
    r: FileReader, text: str, path: tuple[Any, ...], board: dict[Cell, str]
) -> dict[str, tuple[Cell, ...]]:
    """A grid of labels: one row of the board per line (or rows split by ``/`` on one
    line), labels separated by spaces, ``.`` no label; the label in place ``col`` of row
    ``row`` names the board cell ``[row, col]``. A label written twice names both cells."""
    if len(next(iter(board))) != 2:  # a grid of labels names [row, col]: one flat layer
        raise r.fail(path, "a grid of labels names cells [row, col]; on a solid lattice give "
                     "a table: label = [layer, row, col]")
    rows = grid_rows(text)
    found: dict[str, list[Cell]] = {}
    for row, line in enumerate(rows):
        for col, word in enumerate(line.split()):
            if word == ".":
                continue
            label = _label_text(r, word, path)
            if (row, col) not in board:
                raise r.fail(path, f"label {label!r} is at [{row}, {col}], which is not a "
                             "board cell", row_line(text, row))  # at its row's line (#38)
            found.setdefault(label, []).append((row, col))
    if not found:
        raise r.fail(path, "names no cell (every place is '.')")
    return {label: tuple(cells) for label, cells in found.items()}


def read_labels(
    r: FileReader, doc: dict[str, Any], board: dict[str, Any], cells: dict[Cell, str] | None
) -> Labels | None:
    """``[board.labels]`` and ``[sweep]``; None when the file has neither."""
    sweep = doc.get("sweep")
    if "labels" not in board:
        if sweep is not None:
            raise r.fail(("sweep",), "a sweep of labels needs [board.labels]")
        return None
    if cells is None:  # a batch: each board would need its own labels
        raise r.fail(("board", "labels"), "labels go with one [board], not [[boards]]")
    table = board["labels"]
    if not isinstance(table, dict) or not table:
        raise r.fail(("board", "labels"), "must be a table of groups: group = \"grid of "
                     "labels\" or [board.labels.group] with label = [row, col]")
    r.names(table, "groups", limits.MAX_PIECES, ("board", "labels"))
    groups: dict[str, dict[str, tuple[Cell, ...]]] = {}
    for group, spec in table.items():
        path = ("board", "labels", group)
        if isinstance(spec, str):
            labels = _label_grid(r, spec, path, cells)
        elif isinstance(spec, dict) and spec:
            r.names(spec, "labels", limits.MAX_CELLS, path)
            labels = {}
            for label, where in spec.items():
                here = path + (label,)
                _label_text(r, label, here)
                many = isinstance(where, list) and where and isinstance(where[0], list)
                dims = len(next(iter(cells)))  # the board's cells: never empty
                named = _cells(r, where, here, dims) if many else (_cell(r, where, here, dims),)
                for cell in named:
                    if cell not in cells:
                        raise r.fail(here, f"{list(cell)} is not a board cell")
                labels[label] = named
        else:
            raise r.fail(path, "a group is a grid of labels (a string) or a table of "
                         f"label = [row, col], not {_shown(spec)}")
        seen: dict[Cell, str] = {}
        for label, named in labels.items():
            for cell in named:
                if cell in seen and seen[cell] != label:
                    raise r.fail(path, f"{list(cell)} is named both "
                                 f"{seen[cell]!r} and {label!r}")
                seen[cell] = label
        groups[group] = labels
    uncover, only, skip = _read_sweep(r, sweep, groups)
    return Labels(groups, uncover, only, skip)


def _read_sweep(
    r: FileReader, sweep: Any, groups: dict[str, dict[str, tuple[Cell, ...]]]
) -> tuple[tuple[str, ...], tuple[Combination, ...] | None, frozenset[Combination]]:
    if sweep is None:
        return (), None, frozenset()
    if not isinstance(sweep, dict):
        raise r.fail(("sweep",), "must be a table")
    r.check_keys(sweep, SWEEP_KEYS, ("sweep",))
    names = sweep.get("uncover")
    if (
        not isinstance(names, list)
        or not names
        or not all(isinstance(n, str) for n in names)
    ):
        what = "is missing" if names is None else f"must be a list of groups, not {_shown(names)}"
        raise r.fail(("sweep", "uncover"), what)
    for name in names:
        if name not in groups:
            raise r.fail(("sweep", "uncover"), f"no label group is named {_shown(name)} "
                         f"(groups: {', '.join(groups)})")
    if len(set(names)) != len(names):
        raise r.fail(("sweep", "uncover"), "a group is named twice")
    uncover = tuple(names)

    def combos(key: str) -> list[Combination]:
        value = sweep[key]
        if not isinstance(value, list) or len(value) > limits.MAX_CELLS ** 2:
            raise r.fail(("sweep", key), "must be a list of combinations [label, ...]")
        if key == "only" and not value:  # a sweep of nothing would answer nothing
            raise r.fail(("sweep", key), "names no combination (leave it out to sweep all)")
        out = []
        for combo in value:
            if not isinstance(combo, list) or len(combo) != len(uncover):
                raise r.fail(("sweep", key), f"each combination names {len(uncover)} labels "
                             f"({', '.join(uncover)}), not {_shown(combo)}")
            labels = tuple(str(v) if isinstance(v, int) and not isinstance(v, bool) else v
                           for v in combo)
            for group, label in zip(uncover, labels):
                if not isinstance(label, str) or label not in groups[group]:
                    raise r.fail(("sweep", key), f"group {group!r} has no label "
                                 f"{_shown(label)}")
            out.append(labels)
        return out

    only = tuple(combos("only")) if "only" in sweep else None
    skip = frozenset(combos("skip")) if "skip" in sweep else frozenset()
    return uncover, only, skip
