"""The editor's model of a puzzle, and the TOML the page saves.

The page edits a polyomino puzzle as plain data (cells with their colour characters, pieces
with counts, rules) and the server turns it into the contract's TOML text
(docs/puzzle-format.md). That text is the only thing that is ever solved, checked or saved:
it is read back by the same reader as a file given on the command line, so a file saved by
the page reads back identically with the CLI, and a hand-written file opens in the page by
the reverse path (:func:`model_of`). Every cell kind of the contract's boards is the
editor's: coloured cells, optional cells (``[board] optional``), a neutral colour, and the
take-apart's ``[disassembly]`` (fixed pieces, groups). Every lattice is the editor's: the
flat ones as polygons, cube and prism in layers, rhombic, sphere and tetra-octa by clicking
their solids in the 3-D view (#37 item 4). Kinds the grid editor does not draw
(edge-matching cards, n-queens, batches of boards) and rules it has no control for (givens,
labels, wrapping boards, a piece's own rules) are edited as text, with the reason
(:func:`text_reason`).
"""

from __future__ import annotations

from typing import Any, cast

from puzzlebox.errors import PuzzleboxError
from puzzlebox.formats import PuzzleFile
from puzzlebox.formats.toml_out import toml_key, toml_string
from puzzlebox.geometry.lattice import DEFAULT_LATTICE, Lattice, lattice_named, lattice_names
from puzzlebox.geometry.square import SQUARE
from puzzlebox.limits import MAX_CELLS, MAX_PIECES
from puzzlebox.puzzles import PolyominoPuzzle
from puzzlebox.puzzles.polyomino import Piece
from puzzlebox.web.solids import draws_solids

ROW_LIMIT = 200  # rows or columns of one grid in the editor's model
OPTIONAL_MARK = "+"  # the character of [board] optional's grid (BurrTools' variable voxel)


class ModelError(PuzzleboxError):
    """The page sent a model that cannot be written as a puzzle file (one line says why)."""


def _cells(value: Any, what: str, dims: int = 2) -> dict[tuple[int, ...], str]:
    """``[[row, col, colour], ...]`` (on cube ``[[layer, row, col, colour], ...]``)
    checked: integers in range, one visible character."""
    if not isinstance(value, list):
        raise ModelError(f"{what}: cells must be a list")
    if len(value) > MAX_CELLS:
        raise ModelError(f"{what}: {len(value)} cells; the limit is {MAX_CELLS}")
    shape = "[layer, row, col, colour]" if dims == 3 else "[row, col, colour]"
    cells: dict[tuple[int, ...], str] = {}
    for entry in value:
        if not (isinstance(entry, list) and len(entry) == dims + 1):
            raise ModelError(f"{what}: a cell must be {shape}")
        *place, colour = entry
        if not all(isinstance(v, int) and not isinstance(v, bool) for v in place):
            raise ModelError(f"{what}: a cell's coordinates must be integers")
        cell = tuple(place)
        if not all(0 <= v < ROW_LIMIT for v in cell):
            raise ModelError(f"{what}: cell {list(cell)} is outside 0..{ROW_LIMIT - 1}")
        if not (isinstance(colour, str) and len(colour) == 1 and colour.isprintable()
                and not colour.isspace() and colour != "."):
            raise ModelError(f"{what}: a cell's colour must be one visible character, not '.'")
        if cell in cells:
            raise ModelError(f"{what}: cell {list(cell)} is given twice")
        cells[cell] = colour
    return cells


def _on_lattice(cells: dict[tuple[int, ...], str], lattice: Lattice, what: str) -> None:
    """Every cell a cell of the lattice (rhombic, sphere and tetra-octa leave positions of
    their grids empty): said with the editor's own coordinates, before the file is written
    (the reader would name them after the grid is moved to 0)."""
    for cell in sorted(cells):
        if not lattice.holds(cell):
            raise ModelError(f"{what}: [{', '.join(map(str, cell))}] is no cell of the "
                             f"{lattice.name} lattice")


def grid_text(cells: dict[tuple[int, int], str], lattice: Lattice = SQUARE,
              offset: tuple[int, ...] | None = None) -> str:
    """Cells of a flat lattice as the rows of a grid (row r, column c: the character of cell
    ``(r, c)``), moved by the lattice's own normal translation (towards row and column 0,
    as far as the lattice allows: a triangle keeps its direction), or by ``offset`` (the
    board's own, for the grid of its optional cells, which must have the same layout)."""
    dr, dc = lattice.normalize_offset(cells) if offset is None else offset
    moved = {(r + dr, c + dc): ch for (r, c), ch in cells.items()}
    rows = []
    for r in range(max(r for r, _ in moved) + 1):
        row = "".join(moved.get((r, c), ".") for c in range(max(c for _, c in moved) + 1))
        rows.append(row.rstrip(".") or ".")
    return "\n".join(rows)


def _grid_value(cells: dict[tuple[int, ...], str], lattice: Lattice,
                board: dict[tuple[int, ...], str] | None = None) -> str:
    """A grid as a multi-line basic string (one row a line, as the contract draws them); on
    cube an array of such strings, one layer each from the bottom up, every layer with the
    same rows (the contract's rule), moved towards layer, row and column 0. Given ``board``,
    the cells are drawn in the board's layout (moved as the board is, as many layers, rows
    and columns): the grid of ``[board] optional``."""
    frame = cells if board is None else board
    if lattice.dimensions == 3:
        low = lattice.normalize_offset(frame)
        moved = {tuple(v + d for v, d in zip(cell, low, strict=True)): ch
                 for cell, ch in cells.items()}
        spread = [tuple(v + d for v, d in zip(cell, low, strict=True)) for cell in frame]
        rows = 1 + max(cell[1] for cell in spread)
        cols = 1 + max(cell[2] for cell in spread)
        layers = []
        for layer in range(1 + max(cell[0] for cell in spread)):
            lines = ["".join(moved.get((layer, r, c), ".") for c in range(cols))
                     for r in range(rows)]
            # one line a layer, rows joined by "/", as the catalog writes solids; a colour
            # "/" would split a row there, so such a layer keeps one row a line
            joined = "\n".join(lines) if any("/" in line for line in lines) else "/".join(lines)
            layers.append(toml_string(joined))
        return "[" + ", ".join(layers) + "]"
    flat = cast(dict[tuple[int, int], str], cells)  # two coordinates on a flat lattice
    offset = None if board is None else lattice.normalize_offset(board)
    body = grid_text(flat, lattice, offset).replace("\\", "\\\\").replace('"', '\\"')
    return '"""\n' + body + '\n"""'


def _count_value(count: Any, name: str) -> str:
    if count == "any":
        return '"any"'
    if isinstance(count, int) and not isinstance(count, bool):
        return str(count)
    if (isinstance(count, list) and len(count) == 2
            and all(isinstance(v, int) and not isinstance(v, bool) for v in count)):
        return f"[{count[0]}, {count[1]}]"
    raise ModelError(f"piece {name!r}: count must be an integer, [lo, hi] or \"any\"")


def to_toml(model: dict[str, Any]) -> str:
    """The contract's TOML for an editor model (checked; :class:`ModelError` says why not).

    ``{"title", "notes", "lattice"?, "board": [[r, c, ch], ...], "optional"?: [[r, c],
    ...], "pieces": [{"name", "cells", "count"}], "rules": {"rotate", "reflect",
    "match_colors", "neutral"?}, "disassembly"?: {"fixed": [name, ...], "groups": [[name,
    ...], ...]}}`` (on cube each cell has its layer first)."""
    if not isinstance(model, dict):
        raise ModelError("the puzzle must be an object")
    lines = []
    for key in ("title", "notes"):
        value = model.get(key, "")
        if not isinstance(value, str):
            raise ModelError(f"{key} must be text")
        if value:
            lines.append(f"{key} = {toml_string(value)}")
    lattice_name = model.get("lattice", DEFAULT_LATTICE)
    if lattice_name not in model_lattices():
        raise ModelError(f"the editor draws the lattices {', '.join(model_lattices())}")
    lattice = lattice_named(lattice_name)
    dims = lattice.dimensions
    if lattice_name != DEFAULT_LATTICE:  # the key is left out for the default
        lines.append(f"lattice = {toml_string(lattice_name)}")
    board = _cells(model.get("board", []), "board", dims)
    _on_lattice(board, lattice, "board")
    if not board:
        raise ModelError("the board has no cells: draw some")
    lines += ["", "[board]", f"grid = {_grid_value(board, lattice)}"]
    optional = _places(model.get("optional", []), "optional", dims)
    outside = sorted(cell for cell in optional if cell not in board)
    if outside:
        raise ModelError(f"optional: cell {list(outside[0])} is not a board cell (an optional "
                         "cell is a board cell that may stay empty)")
    if optional:
        marks = {cell: OPTIONAL_MARK for cell in optional}
        lines.append(f"optional = {_grid_value(marks, lattice, board)}")
    lines.append("")
    pieces = model.get("pieces", [])
    if not isinstance(pieces, list) or not pieces:
        raise ModelError("no pieces: draw one")
    if len(pieces) > MAX_PIECES:
        raise ModelError(f"{len(pieces)} pieces; the limit is {MAX_PIECES}")
    seen: set[str] = set()
    checked = []
    for piece in pieces:
        if not isinstance(piece, dict):
            raise ModelError("a piece must be an object")
        name = piece.get("name")
        if not isinstance(name, str) or not name or not name.isprintable() or len(name) > 40:
            raise ModelError("a piece needs a name (up to 40 visible characters)")
        if name in seen:
            raise ModelError(f"piece name {name!r} is used twice")
        seen.add(name)
        cells = _cells(piece.get("cells", []), f"piece {name!r}", dims)
        _on_lattice(cells, lattice, f"piece {name!r}")
        if not cells:
            raise ModelError(f"piece {name!r} has no cells: draw some")
        checked.append((name, cells, piece.get("count", 1)))
    # pieces keep their order (it is the order of the search's options): one line each when
    # every count is 1, else a table each
    plain = all(count == 1 for _, _, count in checked)
    if plain:
        lines.append("[pieces]")
    for name, cells, count in checked:
        if plain:
            lines.append(f"{toml_key(name)} = {_grid_value(cells, lattice)}")
        else:
            lines += [f"[pieces.{toml_key(name)}]", f"shape = {_grid_value(cells, lattice)}",
                      f"count = {_count_value(count, name)}", ""]
    if not plain:
        lines.pop()
    rules = model.get("rules", {})
    if not isinstance(rules, dict):
        raise ModelError("rules must be an object")
    lines += ["", "[rules]"]
    for key, default in (("rotate", True), ("reflect", True), ("match_colors", False)):
        value = rules.get(key, default)
        if not isinstance(value, bool):
            raise ModelError(f"rules.{key} must be true or false")
        lines.append(f"{key} = {'true' if value else 'false'}")
    neutral = rules.get("neutral") or ""
    if neutral:
        if not (isinstance(neutral, str) and len(neutral) == 1 and neutral.isprintable()
                and not neutral.isspace() and neutral != "."):
            raise ModelError("rules.neutral: one visible character, not '.'")
        if not rules.get("match_colors", False):
            raise ModelError("a neutral colour goes with match colours: tick match colours "
                             "or clear the neutral colour")
        lines.append(f"neutral = {toml_string(neutral)}")
    lines += _disassembly_lines(model.get("disassembly"), seen)
    return "\n".join(lines).lstrip("\n") + "\n"


def _places(value: Any, what: str, dims: int) -> set[tuple[int, ...]]:
    """``[[row, col], ...]`` (on cube ``[[layer, row, col], ...]``): the optional cells."""
    if not isinstance(value, list):
        raise ModelError(f"{what}: a list of cells")
    return set(_cells([[*place, OPTIONAL_MARK] if isinstance(place, list) else place
                       for place in value], what, dims))


def _disassembly_lines(value: Any, names: set[str]) -> list[str]:
    """``[disassembly]`` for ``{"fixed": [name, ...], "groups": [[name, ...], ...]}``
    (nothing when both are empty), every name a piece of the model."""
    if value is None:
        return []
    if not isinstance(value, dict):
        raise ModelError("disassembly must be an object")

    def named(items: Any, what: str) -> list[str]:
        if not isinstance(items, list) or not all(isinstance(v, str) for v in items):
            raise ModelError(f"disassembly: {what} is a list of piece names")
        unknown = [v for v in items if v not in names]
        if unknown:
            raise ModelError(f"disassembly: {what} names {unknown[0][:40]!r}, which is not a "
                             "piece of this puzzle")
        if len(set(items)) != len(items):
            raise ModelError(f"disassembly: {what} names a piece twice")
        return items

    fixed = named(value.get("fixed", []), "fixed")
    raw = value.get("groups", [])
    if not isinstance(raw, list):
        raise ModelError("disassembly: groups is a list of lists of piece names")
    groups = [named(g, f"group {k + 1}") for k, g in enumerate(raw)]
    if not fixed and not groups:
        return []
    out = ["", "[disassembly]"]
    if fixed:
        out.append(f"fixed = [{', '.join(toml_string(n) for n in fixed)}]")
    if groups:
        listed = ", ".join("[" + ", ".join(toml_string(n) for n in g) + "]" for g in groups)
        out.append(f"groups = [{listed}]")
    return out


def drawn_lattices() -> list[str]:
    """The lattices the grid editor draws: the flat ones, whose cells are polygons."""
    return [name for name in lattice_names() if lattice_named(name).polygon((0, 0)) is not None]


def model_lattices() -> list[str]:
    """The lattices of the editor's model: the flat ones (drawn as polygons) and those in
    layers of a flat one (cube: layers of squares, prism: layers of triangles), drawn as
    their layers side by side with a 3-D view (static/designer.js, page3d.js); rhombic,
    sphere and tetra-octa among them (:func:`solid_lattices`)."""
    return [name for name in lattice_names()
            if name in drawn_lattices() or name in layer_lattices()]


def solid_lattices() -> list[str]:
    """The lattices whose cells are edited by clicking their solids in the 3-D view (a
    face adds the cell across it, web/solids.py's ``across``) and drawn in layers of the
    file's grid positions (rhombic, sphere, tetra-octa: docs/puzzle-format.md writes them
    as layers of rows on a square grid, with '.' on the positions that are no cell)."""
    return [name for name in lattice_names()
            if draws_solids(lattice_named(name)) and lattice_named(name).layer_lattice is None]


def layer_lattices() -> dict[str, str]:
    """The lattices in layers the editor draws, each with the flat lattice of a layer
    (``{"cube": "square", "prism": "triangle", "rhombic": "square", ...}``): a layer is
    drawn with that lattice's outlines (``/api/cells``), so the page draws no lattice
    itself; a solid lattice's layer is the file's square grid of positions."""
    flat = drawn_lattices()
    out = {}
    for name in lattice_names():
        layer = lattice_named(name).layer_lattice
        if layer is not None and layer in flat:
            out[name] = layer
    out.update(dict.fromkeys(solid_lattices(), "square"))
    return out


def cell_polygons(name: str, rows: int, cols: int) -> list[list[Any]]:
    """``[[row, col, [[x, y], ...]], ...]``: the outline of every cell of a window of the
    lattice, in the lattice's picture units, for the editor to draw and click on."""
    lattice = lattice_named(name)
    out = []
    for r in range(rows):
        for c in range(cols):
            polygon = lattice.polygon((r, c))
            if polygon is not None:
                out.append([r, c, [[round(x, 4), round(y, 4)] for x, y in polygon]])
    return out


def _count_of(piece: Piece) -> Any:
    if piece.hi is None:
        return "any"
    return piece.lo if piece.lo == piece.hi else [piece.lo, piece.hi]


def designed(puzzle: PolyominoPuzzle) -> str:
    """The designer's rule the puzzle uses that the grid editor has no control for yet
    (givens, labelled cells, a board that wraps, a piece's own rotate/reflect), said as the
    reason it is edited as text; "" when it uses none. Optional cells, colours, a neutral
    colour and ``[disassembly]`` are the editor's own (#36 item 1)."""
    if puzzle.givens:
        return "it has givens (pieces fixed in place, [[givens]]), which the grid editor " \
            "does not draw"
    if puzzle.labels:
        return "its board has labelled cells ([board.labels]), which the grid editor " \
            "does not draw"
    if puzzle.wrap is not None:
        return "its board wraps ([board] wrap), which the grid editor does not draw"
    own = [p.name for p in puzzle.pieces if p.rotate is not None or p.reflect is not None]
    if own:
        return f"piece {own[0]!r} has rules of its own (rotate or reflect), which the grid " \
            "editor does not set"
    return ""


def text_reason(pf: PuzzleFile) -> str:
    """Why the grid editor does not draw the file (a batch, several boards, another kind,
    a lattice it does not draw, a rule it has no control for); "" when it does."""
    if pf.batch or len(pf.puzzles) != 1:
        return "it has several boards ([[boards]] or a batch); the grid editor draws one"
    first = pf.puzzles[0]
    if not first.grid_editable:
        article = "an" if first.kind[:1] in "aeiou" else "a"
        return f"it is {article} {first.kind} puzzle; the grid editor draws boards of pieces"
    puzzle = cast(PolyominoPuzzle, first)  # a grid-editable kind has board and pieces
    lattice = puzzle.lattice
    if lattice.name not in model_lattices():
        return f"the grid editor does not draw the {lattice.name} lattice"
    return designed(puzzle)


def model_of(pf: PuzzleFile) -> dict[str, Any] | None:
    """The editor's model of a file read by the reader, or None when the grid editor does
    not draw it (:func:`text_reason` says why)."""
    if text_reason(pf):
        return None  # the grid editor would drop something: such a file is edited as text
    puzzle = cast(PolyominoPuzzle, pf.puzzles[0])
    lattice_name = puzzle.lattice.name

    def cells(mapping: dict[Any, str]) -> list[list[Any]]:
        return [[*cell, ch] for cell, ch in sorted(mapping.items())]

    rules = puzzle.disassembly

    return {
        "title": puzzle.title,
        "notes": puzzle.notes,
        "lattice": lattice_name,
        "board": cells(puzzle.board),
        "pieces": [
            {"name": p.name, "cells": cells(dict(zip(p.shape.cells, p.shape.colors))),
             "count": _count_of(p)}
            for p in puzzle.pieces
        ],
        "optional": [list(cell) for cell in sorted(puzzle.optional)],
        "rules": {"rotate": puzzle.rotate, "reflect": puzzle.reflect,
                  "match_colors": puzzle.match_colors, "neutral": puzzle.neutral or ""},
        "disassembly": {"fixed": list(rules.fixed) if rules else [],
                        "groups": [list(g) for g in rules.groups] if rules else []},
    }
