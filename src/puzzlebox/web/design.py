"""The designer's tools behind the page's editor (#25 items 3 and 4, #24 item 3).

Pure functions over the editor's cells (``[[row, col, colour], ...]``, on cube ``[[layer,
row, col, colour], ...]``, as web/model.py reads them) that ask the lattice for everything
(turns, mirrors, translations, neighbours): the page's JavaScript only draws and edits.
The routes at the end wrap them (JSON in, JSON or a file out; the same one-line errors).

* :func:`transform_cells`: turn, mirror or move the cells of a piece or a board;
* :func:`fill_cells`: the region a fill tool colours;
* :func:`polyform_set`: every n-omino of a lattice, free or one-sided (puzzles/families.py);
* :func:`import_burrtools`: a BurrTools file as TOML (formats/burrtools.py, its bounds);
* :func:`export_sheet`, :func:`export_stl`: the piece sheet (SVG) and the STL solids (zip);
* :func:`moves_of`: how an assembly comes apart, as positions the page animates.

A take-apart searches for assemblies and slides their pieces, which can take a minute: it
runs in a process of its own from web/fairness.py's pool (the one the page's checks use),
held to :data:`TAKE_APART` (time and memory; past either it is ended and the page shows one
line), so that it never holds a server thread; the page's Stop ends it (``moves-stop``).
"""

from __future__ import annotations

import base64
import binascii
import io
import math
import time
import zipfile
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any, cast

from puzzlebox.disassembly import browse
from puzzlebox.disassembly.assemblies import (
    CannotDisassemble,
    Disassembled,
    Rules,
    check_slides,
    level_key,
    take_apart,
)
from puzzlebox.disassembly.search import Deadline
from puzzlebox.disassembly.split import Origin, split_take_apart
from puzzlebox.disassembly.strip import positions
from puzzlebox.errors import PuzzleboxError
from puzzlebox.formats.burrtools import import_data
from puzzlebox.formats.reader import read_text
from puzzlebox.geometry.lattice import Cell, Lattice, Transform, lattice_named
from puzzlebox.limits import MAX_PIECES
from puzzlebox.puzzles.families import polyforms
from puzzlebox.puzzles.polyomino import PolyominoPuzzle
from puzzlebox.render.sheet import ExportError, parse_page, sheet_for, svg_text
from puzzlebox.render.stl import MAX_STL_CELLS, piece_surface, stl_bytes
from puzzlebox.run.limits import Limits
from puzzlebox.safety import file_component
from puzzlebox.web.fairness import CheckLimits, CheckPool, Refused
from puzzlebox.web.model import (
    ROW_LIMIT,
    ModelError,
    _cells,
    layer_lattices,
    model_lattices,
    solid_lattices,
)
from puzzlebox.web.saved import Saved
from puzzlebox.web.solids import across, draws_solids, first_cell, meshes, places, space_map

if TYPE_CHECKING:
    from starlette.requests import Request
    from starlette.responses import Response

Cells = dict[Cell, str]
# the largest polyforms "add the set" makes: grown in under a second on a loaded 2-core
# machine, and within MAX_PIECES (369 free octominoes; 166 free hexacubes)
SET_SIZES = {2: 8, 3: 6}
MAX_FILL = ROW_LIMIT * ROW_LIMIT  # cells a fill may colour (a flat window's worth)
MAX_PLACES = 20 * 60 * 60  # positions of a window the page asks which are cells of
# bytes of a BurrTools file the page sends (as base64 in JSON, within web/app.py's MAX_BODY
# of 2 MiB + 64 KiB); BurrTools' own examples are 160 KB at most
MAX_UPLOAD = 1_500_000
MOVE_STATES = 200_000  # positions the page's disassembly searches before it gives up
# the whole take-apart: the search for assemblies (a first run compiles its kernels) and
# taking them apart, one deadline as for the command line's --max-time (run.Limits)
ASSEMBLY_SECONDS = 60.0
MOVE_SECONDS = 20.0  # of one assembly's search, and of looking for the assembly asked for
# what the search for assemblies and each take-apart may hold (run.Limits' memory), within
# the pool's memory limit for the whole process (TAKE_APART: CHECK_MEMORY, 768 MB); 200,000
# positions hold about 60 MB in the C search and 120 MB in the Python loop
MOVE_MEMORY = 512 << 20
# the take-apart's process: all of the above with room to spare (the process is ended past it)
TAKE_APART = CheckLimits(seconds=ASSEMBLY_SECONDS + MOVE_SECONDS + 10.0, name="take-apart",
                         command="puzzlebox moves FILE")
TABLE_ROWS = 1000  # rows of the take-apart table that carry their animation
BROWSE_CELLS = 20_000  # cells of an assembly the movement browser takes
BROWSE_REACH = 10_000  # how far a cell or an offset may be from the origin in the browser
CUBE_TURNS = {  # quarter turns of the cube lattice (layer, row, col), seen from above
    "turn": lambda c: (c[0], c[2], -c[1]),  # about the vertical axis, clockwise
    "turn-row": lambda c: (c[2], c[1], -c[0]),  # about the row axis (tips over sideways)
    "turn-col": lambda c: (c[1], -c[0], c[2]),  # about the column axis (tips forward)
}
STEPS = {"up": (-1, 0), "down": (1, 0), "left": (0, -1), "right": (0, 1),
         "above": (1, 0, 0), "below": (-1, 0, 0)}


class DesignError(PuzzleboxError):
    """A designer's request that cannot be done (one line says why), answered with
    ``status``: 400, or 413 for a file too large (as the page's other routes: #38 item 9)."""

    def __init__(self, message: str, status: int = 400) -> None:
        super().__init__(message)
        self.status = status


def _lattice(name: Any) -> Lattice:
    if name not in model_lattices():
        raise DesignError(f"the editor draws the lattices {', '.join(model_lattices())}")
    return lattice_named(name)


def _out(cells: Cells) -> list[list[Any]]:
    return [[*cell, ch] for cell, ch in sorted(cells.items())]


def _mirror(lattice: Lattice) -> Transform:
    """The mirror across a vertical axis of the picture (the first improper transform)."""
    return lattice.transforms[sum(t.proper for t in lattice.transforms)]


def _step(lattice: Lattice, direction: str) -> Cell:
    """The shortest move in ``direction`` the lattice allows (a triangle moves two columns
    or two rows at a time, to keep its direction)."""
    unit = STEPS.get(direction)
    if unit is None or len(unit) > lattice.dimensions:
        raise DesignError(f"no move {direction!r} on the {lattice.name} lattice")
    if len(unit) < lattice.dimensions:
        unit = (0, *unit)
    for k in range(1, 7):  # a triangle 2, a sphere 2 along an axis, tetra-octa 6, rhombic 5
        vector = tuple(k * v for v in unit)
        if lattice.can_translate(vector):
            return vector
    raise DesignError(f"the {lattice.name} lattice cannot move cells {direction}")


def _layer_turn(lattice: Lattice) -> Any:
    """The smallest clockwise turn of a lattice in layers (prism), each layer turned by its
    flat lattice's turn (layers kept); None where the layers' lattice has none."""
    if lattice.layer_lattice is None:
        return None
    plane = lattice_named(lattice.layer_lattice).turn()
    if plane is None:
        return None
    return lambda cell: (cell[0], *plane((cell[1], cell[2])))


def transform_cells(lattice_name: str, cells: Cells, operation: str) -> Cells:
    """``cells`` turned (the lattice's smallest clockwise turn; on cube ``turn``,
    ``turn-row``, ``turn-col``), mirrored, or moved one step (``move-up`` ...): turned and
    mirrored cells keep their lowest row and column (and layer), moved ones must stay at
    row, column and layer 0 or more."""
    lattice = _lattice(lattice_name)
    if not cells:
        raise DesignError("nothing to turn or move: draw some cells first")
    if operation.startswith("move-"):
        vector = _step(lattice, operation[5:])
        moved = {tuple(v + d for v, d in zip(cell, vector, strict=True)): ch
                 for cell, ch in cells.items()}
        if any(min(cell) < 0 or max(cell) >= ROW_LIMIT for cell in moved):
            raise DesignError(f"the cells are at the edge: they cannot move {operation[5:]}")
        return moved
    if operation == "mirror":
        transform: Any = _mirror(lattice)
    elif lattice.unit_cubes and operation in CUBE_TURNS:
        transform = CUBE_TURNS[operation]
    elif operation == "turn" and lattice.turn() is not None:
        transform = lattice.turn()
    elif operation == "turn" and _layer_turn(lattice) is not None:
        transform = _layer_turn(lattice)
    elif operation in CUBE_TURNS and lattice.layer_lattice is not None:
        raise DesignError(f"the {lattice.name} lattice's pieces are turned within their "
                          "layers here (Turn); a piece is turned over by its rules")
    else:
        raise DesignError(f"no operation {operation!r} on the {lattice.name} lattice")
    low = tuple(-v for v in lattice.normalize_offset(cells))
    turned = {transform(cell): ch for cell, ch in cells.items()}
    shift = lattice.normalize_offset(turned)
    # back to where the cells were (as near as the lattice allows: a triangle keeps its
    # direction, so the shift back must be one it can make)
    back = tuple(s + v for s, v in zip(shift, low, strict=True))
    if not lattice.can_translate(back):
        back = tuple(s + v for s, v in zip(shift, (0,) * lattice.dimensions, strict=True))
    return {tuple(v + d for v, d in zip(cell, back, strict=True)): ch
            for cell, ch in turned.items()}


def fill_cells(lattice_name: str, cells: Cells, start: Cell, window: Cell,
               colour: str) -> Cells:
    """The cells after a fill at ``start``: an empty cell fills the empty region around
    it within the window (``rows, cols``, on cube ``layers, rows, cols``; on cube within
    the start's layer), a drawn cell recolours the drawn region it belongs to."""
    lattice = _lattice(lattice_name)
    if len(start) != lattice.dimensions or len(window) != lattice.dimensions:
        raise DesignError(f"a cell of the {lattice.name} lattice has {lattice.dimensions} "
                          "coordinates")
    if any(not 1 <= w <= ROW_LIMIT for w in window):
        raise DesignError(f"the window is 1 to {ROW_LIMIT} cells each way")

    def inside(cell: Cell) -> bool:
        if lattice.dimensions == 3 and cell[0] != start[0]:
            return False
        return (all(0 <= v < w for v, w in zip(cell, window, strict=True))
                and (lattice.dimensions == 3 or lattice.polygon(cell) is not None)
                and lattice.holds(cell))

    if not inside(start):
        raise DesignError(f"cell {list(start)} is outside the window")
    drawn = start in cells
    region = {start}
    stack = [start]
    while stack:
        for near in lattice.neighbours(stack.pop()):
            if near not in region and inside(near) and (near in cells) == drawn:
                region.add(near)
                stack.append(near)
                if len(region) > MAX_FILL:
                    raise DesignError(f"the fill would colour more than {MAX_FILL} cells")
    out = dict(cells)
    for cell in region:
        out[cell] = colour
    return out


def polyform_set(lattice_name: str, size: int, free: bool, taken: set[str]) -> list[dict[str, Any]]:
    """Every polyform of ``size`` cells on the lattice (free: one per class under turns and
    mirror images; one-sided: mirror images kept apart), as editor pieces named
    ``<size>-<n>`` (names in ``taken`` are skipped)."""
    lattice = _lattice(lattice_name)
    largest = SET_SIZES[lattice.dimensions]
    if isinstance(size, bool) or not isinstance(size, int) or not 1 <= size <= largest:
        raise DesignError(f"the page makes sets of 1 to {largest} {lattice.cell_word}s a piece")
    shapes = polyforms(lattice, size, reflect=free)
    if len(shapes) + len(taken) > MAX_PIECES:
        raise DesignError(f"{len(shapes)} pieces would make more than {MAX_PIECES}")
    pieces = []
    number = 0
    for shape in shapes:
        number += 1
        while f"{size}-{number}" in taken:
            number += 1
        pieces.append({"name": f"{size}-{number}",
                       "cells": _out(dict.fromkeys(shape.cells, "#")), "count": 1})
    return pieces


def import_burrtools(data: bytes, name: str) -> str:
    """A BurrTools file's first problem as puzzlebox TOML, with the importer's bounds on
    size, compression and content (formats/burrtools.py)."""
    return import_data(data, file_component(name) or "upload.xmpuzzle")


def _puzzle(text: str, name: str) -> Any:
    pf = read_text(text, f"{name}.toml", name)
    return pf.puzzles


def export_sheet(text: str, name: str, cell_mm: float = 20.0) -> str:
    """The piece sheet (SVG, A4, outlines at ``cell_mm`` a cell) of a puzzle file's text."""
    puzzles = _puzzle(text, name)
    return svg_text(sheet_for(puzzles, cell_mm, parse_page("A4"), 5.0), puzzles[0].title or name)


def export_stl(text: str, name: str, cell_mm: float = 20.0) -> bytes:
    """A zip of one binary STL per piece (render/stl.py's solids, its size limit)."""
    puzzles = _puzzle(text, name)
    puzzle = puzzles[0]
    pieces = puzzle.pieces_to_make()
    if pieces is None:
        raise ExportError("STL solids are made of the pieces of a polyomino puzzle; this "
                          "puzzle has none")
    cells = sum(len(piece.shape.cells) for piece in pieces)
    if cells > MAX_STL_CELLS:
        raise ExportError(f"the pieces have {cells} cells in all; STL files are made of at "
                          f"most {MAX_STL_CELLS} cells")
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as archive:
        for piece in pieces:
            archive.writestr(file_component(piece.name) + ".stl",
                             stl_bytes(piece_surface(puzzle, piece, cell_mm), piece.name))
    return out.getvalue()


def _rules_of(puzzle: Any) -> Rules:
    declared = getattr(puzzle, "disassembly", None)
    return Rules(fixed=frozenset(declared.fixed) if declared else frozenset(),
                 groups=tuple(frozenset(g) for g in declared.groups) if declared else (),
                 max_states=MOVE_STATES, max_seconds=MOVE_SECONDS)


def _xyz(cell: Cell, dims: int) -> list[int]:
    return [cell[1], cell[0], 0] if dims == 2 else [cell[2], cell[1], cell[0]]


def _animation(puzzle: PolyominoPuzzle, done: Disassembled, dims: int,
               number: int) -> dict[str, Any]:
    """An assembly that comes apart as the page animates it (see :func:`moves_of`)."""
    assert done.separation is not None
    moves = done.separation.all_moves()
    names = list(done.names)
    out: dict[str, Any] = {
        "puzzle": puzzle.name, "solution": number, "level": done.level, "dims": dims,
        "moves": len(moves),
        "pieces": [{"name": n, "cells": [_xyz(c, dims) for c in p.cells]}
                   for n, p in zip(names, done.placements, strict=True)],
        "positions": [[list(o) for o in step] for step in positions(done, dims)],
        "captions": ["assembled"] + [m.text(names).replace(",", " ") for m in moves],
    }
    if draws_solids(puzzle.lattice):
        # prisms, tetrahedra, balls: their meshes, and the map from the positions (in
        # cells) to the page's space (web/solids.py)
        out["solid"] = meshes(puzzle.lattice, [p.cells for p in done.placements])
        out["solid"]["space"] = space_map(puzzle.lattice, done.placements[0].cells[0])
    return out


def moves_of(text: str, name: str, number: int = 1) -> dict[str, Any]:
    """The ``number``-th assembly that comes apart: ``{"level", "pieces": [{"name",
    "cells": [[x, y, z], ...]}], "positions": [[[dx, dy, dz] per piece] per step],
    "captions"}`` (x the column, y the row, z the layer), for the page to animate."""
    puzzles = _puzzle(text, name)
    puzzle = cast(PolyominoPuzzle, puzzles[0])
    dims = check_slides(puzzle, puzzle.name)
    rules = _rules_of(puzzle)
    seen = total = 0
    began = time.monotonic()
    # the library's take-apart under the run layer's limits, as the command line's: the
    # search for assemblies and every take-apart before one deadline, within MOVE_MEMORY
    limits = Limits(time=ASSEMBLY_SECONDS, memory=MOVE_MEMORY)
    for total, done in enumerate(take_apart(puzzle, rules, limits), 1):
        if total == 1:
            began = time.monotonic()  # from the first assembly: not a kernel's compiling
        elif time.monotonic() - began > MOVE_SECONDS:
            raise DesignError(f"{puzzle.name}: {seen} of the first {total - 1} assemblies "
                              f"come apart, none more within {MOVE_SECONDS:g} s (puzzlebox "
                              "moves FILE has no such limit)")
        if done.separation is None:
            continue
        seen += 1
        if seen < number:
            continue
        return _animation(puzzle, done, dims, number)
    raise DesignError(f"{puzzle.name}: {seen} of {total} assemblies come apart; there is "
                      f"no assembly {number} to take apart")


def apart_table(text: str, name: str, checkpoint: str | None = None) -> dict[str, Any]:
    """Every assembly taken apart (the library's :func:`take_apart`, as ``count
    --disassemble`` and ``solve --disassemble --all`` do it, under the page's limits): how
    many there are and come apart, the levels as the count gives them (most moves first),
    and a row for each one that comes apart, numbered as ``moves --solution N`` numbers it,
    with its level, its number of moves and its animation (the first :data:`TABLE_ROWS`).
    ``checkpoint``: the file of a take-apart saved as it goes (web/saved.py), as ``count
    --disassemble --checkpoint FILE`` keeps it (disassembly/split.py, in this process): the
    assemblies it holds are not taken apart again."""
    puzzles = _puzzle(text, name)
    puzzle = cast(PolyominoPuzzle, puzzles[0])
    dims = check_slides(puzzle, puzzle.name)
    rules = _rules_of(puzzle)
    limits = Limits(time=ASSEMBLY_SECONDS, memory=MOVE_MEMORY)
    rows: list[dict[str, Any]] = []
    levels: dict[str, int] = {}
    total = 0
    taken: Iterator[Disassembled] = take_apart(puzzle, rules, limits) if checkpoint is None \
        else split_take_apart(puzzle, Origin(text, f"{name}.toml", name), rules, limits,
                              checkpoint=checkpoint)
    for total, done in enumerate(taken, 1):
        if done.separation is None or done.level is None:
            continue
        levels[done.level] = levels.get(done.level, 0) + 1
        number = sum(levels.values())
        if number <= TABLE_ROWS:
            row = _animation(puzzle, done, dims, number)
            row["assembly"] = total
            rows.append(row)
    apart = sum(levels.values())
    ranked = sorted(levels.items(), key=lambda kv: level_key(kv[0]), reverse=True)
    return {"puzzle": puzzle.name, "assemblies": total, "come_apart": apart,
            "levels": [{"level": level, "assemblies": n} for level, n in ranked],
            "rows": rows, "shown": len(rows)}


def solid_of(text: str, name: str) -> dict[str, Any]:
    """A solid's board and pieces for the page's 3-D view of the puzzle (x the column, y
    the row, z the layer): ``{"solid": True, "board": [[x, y, z, colour, optional]],
    "pieces": [{"name", "cells"}]}``, or ``{"solid": False}`` for a puzzle whose pieces do
    not slide along three axes (a flat one, another kind)."""
    puzzle = _puzzle(text, name)[0]
    lattice = getattr(puzzle, "lattice", None)
    if lattice is not None and draws_solids(lattice) and puzzle.grid_editable:
        return _solid_meshes(cast(PolyominoPuzzle, puzzle))
    try:
        dims = check_slides(puzzle, name)
    except CannotDisassemble:
        return {"solid": False}
    if dims != 3:
        return {"solid": False}
    solid = cast(PolyominoPuzzle, puzzle)
    return {"solid": True,
            "board": [[*_xyz(cell, 3), colour, cell in solid.optional]
                      for cell, colour in sorted(solid.board.items())],
            "pieces": [{"name": piece.name, "cells": [_xyz(c, 3) for c in piece.shape.cells]}
                       for piece in solid.pieces]}


def _solid_meshes(puzzle: PolyominoPuzzle) -> dict[str, Any]:
    """A board and pieces of prisms, tetrahedra or balls as meshes (web/solids.py): the
    board one group a colour (its optional cells a group of their own, faded), each piece
    one group, for the page's 3-D view of the puzzle."""
    groups: dict[tuple[str, bool], list[Cell]] = {}
    for cell, colour in sorted(puzzle.board.items()):
        groups.setdefault((colour, cell in puzzle.optional), []).append(cell)
    keys = list(groups)
    drawn = meshes(puzzle.lattice, [groups[k] for k in keys]
                   + [list(piece.shape.cells) for piece in puzzle.pieces])
    parts = drawn.pop("groups")
    return {"solid": True, **drawn,
            "board": [{"colour": colour, "optional": optional, "mesh": part}
                      for (colour, optional), part in zip(keys, parts, strict=False)],
            "pieces": [{"name": piece.name, "mesh": part}
                       for piece, part in zip(puzzle.pieces, parts[len(keys):], strict=True)]}


def editor_mesh(body: dict[str, Any]) -> dict[str, Any]:
    """The cells being edited (``cells``: ``[[layer, row, col, colour], ...]`` on a
    ``lattice`` of the editor whose cells are prisms) as meshes, one group a colour in the
    order of ``colours``, for the editor's 3-D view of them."""
    lattice = _lattice(body.get("lattice"))
    if not draws_solids(lattice):
        raise DesignError(f"the {lattice.name} lattice's cells are drawn by the page itself")
    cells = _cells_of(body, "cells", lattice.name)
    groups: dict[str, list[Cell]] = {}
    for cell, colour in sorted(cells.items()):
        groups.setdefault(colour, []).append(cell)
    return {**meshes(lattice, list(groups.values())), "colours": list(groups)}


def _solid_lattice(name: Any) -> Lattice:
    if name not in solid_lattices():
        raise DesignError(f"cells are added by clicking a face in the 3-D view on the "
                          f"lattices {', '.join(solid_lattices())}")
    return lattice_named(name)


def across_of(body: dict[str, Any]) -> dict[str, Any]:
    """A click on a cell of ``cells`` (``[[layer, row, col, colour], ...]``) in the
    editor's 3-D view: ``cell`` the cell hit and ``point`` where (the page's [x, y, z]).
    Answers the cell across the face hit (:func:`puzzlebox.web.solids.across`) and the
    ``shift`` (a translation of the lattice) that the cells and it take so that no
    coordinate is below 0 (``[0, 0, 0]`` mostly). With no ``cell`` (nothing drawn yet):
    the lattice's first cell, which an empty board or piece starts from."""
    lattice = _solid_lattice(body.get("lattice"))
    cells = _cells_of(body, "cells", lattice.name)
    raw_cell, point = body.get("cell"), body.get("point")
    if raw_cell is None:
        return {"cell": list(first_cell(lattice)), "shift": [0, 0, 0]}
    if not (isinstance(raw_cell, list) and len(raw_cell) == 3):
        raise DesignError("cell: [layer, row, col]")
    cell = tuple(_int(v, "cell") for v in raw_cell)
    if cell not in cells or not lattice.holds(cell):
        raise DesignError(f"cell {list(cell)} is not one of the cells being edited")
    if not (isinstance(point, list) and len(point) == 3 and all(
            isinstance(v, (int, float)) and not isinstance(v, bool) and math.isfinite(v)
            for v in point)):
        raise DesignError("point: [x, y, z], three numbers")
    try:
        near = across(lattice, cell, point)
    except ValueError as failure:
        raise DesignError(str(failure)) from None
    shift = [0, 0, 0]
    if min(near) < 0:
        shift = list(lattice.normalize_offset([*cells, near]))
    if max(v + d for v, d in zip(near, shift, strict=True)) >= ROW_LIMIT:
        raise DesignError(f"the editor keeps cells within {ROW_LIMIT} positions each way")
    return {"cell": list(near), "shift": shift}


def places_of(body: dict[str, Any]) -> dict[str, Any]:
    """Which positions of the editor's window (``window``: layers, rows, cols) are cells
    of the lattice, as the file writes a grid (:func:`puzzlebox.web.solids.places`)."""
    lattice = _lattice(body.get("lattice"))
    window = body.get("window")
    if not (isinstance(window, list) and len(window) == 3):
        raise DesignError("window: [layers, rows, cols]")
    size = [_int(v, "window") for v in window]
    if any(not 1 <= v <= ROW_LIMIT for v in size) or size[0] * size[1] * size[2] > MAX_PLACES:
        raise DesignError(f"the window is 1 to {ROW_LIMIT} positions each way, "
                          f"{MAX_PLACES} in all")
    return {"layers": places(lattice, size)}


# -- the movement browser --------------------------------------------------------------------

def _index_list(value: Any, what: str, size: int) -> list[int]:
    if not isinstance(value, list) or len(value) > size:
        raise DesignError(f"{what} is a list of piece numbers")
    out = [_int(v, what) for v in value]
    if any(not 0 <= v < size for v in out) or len(set(out)) != len(out):
        raise DesignError(f"{what}: piece numbers 0 to {size - 1}, each once")
    return out


def browse_step(body: dict[str, Any]) -> dict[str, Any]:
    """One step of the movement browser (:mod:`puzzlebox.disassembly.browse`): ``step``
    ``slide`` (``group`` one unit along ``direction``), ``out`` (``group`` taken away along
    ``direction``) or ``look`` (nothing moved), on the ``pieces`` of an assembly (as
    :func:`moves_of` gives them) at ``offsets``, within ``part`` (the pieces still
    together). The puzzle's file (``toml``) gives the lattice and the ``[disassembly]``
    rules. Answers the offsets and parts after the step and how each part comes apart from
    there (``outlook``: done, or its level and moves, or that it does not)."""
    text, name = _text_of(body)
    puzzle = cast(PolyominoPuzzle, _puzzle(text, name)[0])
    dims = check_slides(puzzle, puzzle.name)
    raw = body.get("pieces")
    if not isinstance(raw, list) or not 2 <= len(raw) <= MAX_PIECES:
        raise DesignError(f"pieces: a list of 2 to {MAX_PIECES} pieces")
    known = {piece.name for piece in puzzle.pieces}
    names: list[str] = []
    pieces: list[list[tuple[int, int, int]]] = []
    cells_in_all = 0
    for k, piece in enumerate(raw):
        if not isinstance(piece, dict) or piece.get("name") not in known:
            raise DesignError(f"piece {k}: not a piece of {puzzle.name}")
        cells = piece.get("cells")
        if not isinstance(cells, list) or not cells:
            raise DesignError(f"piece {k}: its cells are a list of [x, y, z]")
        cells_in_all += len(cells)
        if cells_in_all > BROWSE_CELLS:
            raise DesignError(f"the pieces have more than {BROWSE_CELLS} cells in all")
        triples = []
        for cell in cells:
            if not (isinstance(cell, list) and len(cell) == 3):
                raise DesignError(f"piece {k}: a cell is [x, y, z]")
            triple = tuple(_int(v, "a cell's coordinate") for v in cell)
            if any(abs(v) > BROWSE_REACH for v in triple) or (dims == 2 and triple[2]):
                raise DesignError(f"piece {k}: cell {list(triple)} is off the board")
            triples.append(cast(tuple[int, int, int], triple))
        names.append(piece["name"])
        pieces.append(triples)
    offsets_raw = body.get("offsets")
    if not isinstance(offsets_raw, list) or len(offsets_raw) != len(pieces):
        raise DesignError("offsets: one [dx, dy, dz] a piece")
    offsets: list[tuple[int, int, int]] = []
    for offset in offsets_raw:
        if not (isinstance(offset, list) and len(offset) == 3):
            raise DesignError("an offset is [dx, dy, dz]")
        triple = tuple(_int(v, "an offset") for v in offset)
        if any(abs(v) > BROWSE_REACH for v in triple) or (dims == 2 and triple[2]):
            raise DesignError(f"offset {list(triple)} is too far")
        offsets.append(cast(tuple[int, int, int], triple))
    part = _index_list(body.get("part"), "part", len(pieces))
    if not part:
        raise DesignError("part: the pieces being taken apart, at least one")
    action = body.get("step", "look")
    rules = _rules_of(puzzle)
    fixed = [k for k, n in enumerate(names) if n in rules.fixed]
    groups = [[k for k, n in enumerate(names) if n in g] for g in rules.groups]
    parts = [part]
    if action in ("slide", "out"):
        group = _index_list(body.get("group"), "group", len(pieces))
        direction = browse.direction_of(str(body.get("direction")), dims)
        if action == "slide":
            offsets = browse.slide(pieces, offsets, part, group, direction, dims, names, fixed)
        else:
            parts = list(browse.take_out(pieces, offsets, part, group, direction, dims,
                                         names, fixed))
    elif action != "look":
        raise DesignError(f"no browser's step {action!r}: slide, out or look")
    else:
        browse.check_position(pieces, offsets, part, names)
    deadline = Deadline.after(MOVE_SECONDS)

    def seen(members: list[int]) -> dict[str, Any]:
        found = browse.outlook(pieces, offsets, members, dims, fixed, groups, MOVE_STATES,
                               deadline, MOVE_MEMORY,
                               label=f"{puzzle.name}: {', '.join(names[p] for p in members)}")
        answer: dict[str, Any] = {"part": members, "done": found.done, "level": found.level}
        if found.separation is not None:
            moves = found.separation.all_moves()
            answer["moves"] = [m.text(names).replace(",", " ") for m in moves]
        return answer

    return {"offsets": [list(o) for o in offsets], "parts": [seen(p) for p in parts]}


# -- the routes ----------------------------------------------------------------------------

def _cells_of(body: dict[str, Any], key: str, lattice_name: Any) -> Cells:
    lattice = _lattice(lattice_name)
    return _cells(body.get(key, []), key, lattice.dimensions)


def _marked(value: Any, cells: Cells) -> set[Cell]:
    """``[[row, col], ...]``: cells among ``cells`` (the board's optional ones) that a
    transform moves with them."""
    if not isinstance(value, list) or len(value) > len(cells):
        raise DesignError("marked: a list of the cells' coordinates")
    marked = set()
    for place in value:
        whole = isinstance(place, list) and all(
            isinstance(v, int) and not isinstance(v, bool) for v in place)
        cell = tuple(place) if whole else None
        if cell is None or cell not in cells:
            raise DesignError(f"marked: {place!r} is not one of the cells")
        marked.add(cell)
    return marked


def _int(value: Any, what: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise DesignError(f"{what} must be a whole number")
    return value


def _text_of(body: dict[str, Any]) -> tuple[str, str]:
    text, name = body.get("toml"), body.get("name") or "puzzle"
    if not isinstance(text, str) or not isinstance(name, str):
        raise DesignError("give the puzzle as TOML text and its name")
    return text, file_component(name)[:60] or "puzzle"


def handle(action: str, body: dict[str, Any]) -> dict[str, Any] | tuple[bytes, str, str]:
    """One designer's request: a JSON answer, or ``(bytes, media type, file name)``."""
    if action == "lattices":
        return {"lattices": model_lattices(), "layers": layer_lattices(),
                "solids": solid_lattices()}
    if action == "across":
        return across_of(body)
    if action == "places":
        return places_of(body)
    if action == "transform":
        lattice = body.get("lattice")
        cells = _cells_of(body, "cells", lattice)
        operation = body.get("operation")
        if not isinstance(operation, str):
            raise DesignError("operation must be text")
        marked = _marked(body.get("marked", []), cells)
        # the marked cells (the board's optional ones) are turned by the same map: each
        # cell's value is its number while it turns
        numbered = {cell: str(k) for k, cell in enumerate(cells)}
        order = list(cells)
        turned = transform_cells(str(lattice), numbered, operation)
        moved = {cell: cells[order[int(k)]] for cell, k in turned.items()}
        return {"cells": _out(moved),
                "marked": sorted(list(cell) for cell, k in turned.items()
                                 if order[int(k)] in marked)}
    if action == "fill":
        lattice = body.get("lattice")
        cells = _cells_of(body, "cells", lattice)
        start = body.get("start")
        window = body.get("window")
        colour = body.get("colour", "#")
        if not (isinstance(start, list) and isinstance(window, list)):
            raise DesignError("start and window are lists of coordinates")
        if not (isinstance(colour, str) and len(colour) == 1 and colour.isprintable()
                and not colour.isspace() and colour != "."):
            raise DesignError("a colour is one visible character, not '.'")
        filled = fill_cells(str(lattice), cells, tuple(_int(v, "start") for v in start),
                            tuple(_int(v, "window") for v in window), colour)
        return {"cells": _out(filled)}
    if action == "set":
        taken = body.get("taken", [])
        if not isinstance(taken, list) or not all(isinstance(t, str) for t in taken):
            raise DesignError("taken is a list of piece names")
        return {"pieces": polyform_set(str(body.get("lattice")), _int(body.get("size"), "size"),
                                       bool(body.get("free", True)), set(taken))}
    if action == "import":
        data, name = body.get("data"), body.get("name") or "upload.xmpuzzle"
        if not isinstance(data, str) or not isinstance(name, str):
            raise DesignError("give the file as base64 text and its name")
        if len(data) > MAX_UPLOAD * 4 // 3 + 4:
            raise DesignError(f"the file is larger than {MAX_UPLOAD} bytes", 413)
        try:
            raw = base64.b64decode(data, validate=True)
        except (binascii.Error, ValueError):
            raise DesignError("the file did not arrive as base64") from None
        stem = file_component(name.rsplit(".", 1)[0])[:60] or "imported"
        return {"toml": import_burrtools(raw, name), "name": stem}
    if action == "sheet":
        text, name = _text_of(body)
        return (export_sheet(text, name).encode("utf-8"), "image/svg+xml",
                f"{name}-pieces.svg")
    if action == "stl":
        text, name = _text_of(body)
        return export_stl(text, name), "application/zip", f"{name}-stl.zip"
    if action == "moves":
        text, name = _text_of(body)
        number = _int(body.get("solution", 1), "solution")
        if number < 1:
            raise DesignError("assemblies are numbered from 1")
        return moves_of(text, name, number)
    if action == "solid":
        text, name = _text_of(body)
        return solid_of(text, name)
    if action == "mesh":
        return editor_mesh(body)
    if action == "table":
        text, name = _text_of(body)
        return apart_table(text, name, body.get(SAVED_FILE))
    if action == "browse":
        return browse_step(body)
    raise DesignError(f"no designer's action {action!r}")


ACTIONS = ("lattices", "transform", "fill", "set", "import", "sheet", "stl", "moves",
           "moves-stop", "table", "browse", "solid", "mesh", "across", "places")
IN_PROCESS = ("moves", "moves-stop", "table", "browse")  # run in a process of the pool
SAVED_FILE = "saved_checkpoint"  # the server's own key of a table saved as it goes


def _moves_work(body: dict[str, Any], limits: CheckLimits) -> dict[str, Any]:
    """A take-apart, the table of them, or a step of the movement browser, in its own
    process (:class:`CheckPool` runs it; ``limits`` it holds); ``body["action"]`` says
    which."""
    answer = handle(str(body.get("action")), body)
    assert isinstance(answer, dict)
    return answer


def _moves_key(body: dict[str, Any], kind: str = "moves") -> str | None:
    """The pool's key of a tab's take-apart or table (``moves``: a newer one, or Stop,
    ends the older) or of its movement browser's step (``browse``: a newer step ends the
    older): apart from the tab's checks, which must not end them."""
    from puzzlebox.web.app import TAB_ID

    tab = body.get("tab")
    return f"{tab}-{kind}" if isinstance(tab, str) and TAB_ID.fullmatch(tab) else None


def _in_process(pool: CheckPool, action: str, body: dict[str, Any],
                saved: Saved | None = None) -> dict[str, Any]:
    """``moves``, ``table`` and ``browse`` in the pool's process within :data:`TAKE_APART`;
    ``moves-stop`` ends the tab's take-apart or table (its request answers "stopped"). A
    table asked with ``save`` is saved as it goes in ``saved``, the server's folder (the
    file's path is the server's: one sent by the page is dropped)."""
    key = _moves_key(body, "browse" if action == "browse" else "moves")
    body = {k: v for k, v in body.items() if k != SAVED_FILE}  # never a path from the page
    if action == "table" and body.get("save") is True:
        if saved is None:
            raise DesignError("this server keeps no saved searches")
        text, name = _text_of(body)
        body[SAVED_FILE] = str(saved.checkpoint(saved.keep("take-apart", text, name, 0,
                                                           "auto")))
    if action == "moves-stop":
        if key is None:
            raise DesignError("a stop names the page's tab")
        return {"stopped": pool.stop(key)}
    return pool.run(_moves_work, {**body, "action": action}, key, TAKE_APART)


async def design_route(request: Request) -> Response:
    """``POST /api/design/{action}`` (and GET for ``lattices``): :func:`handle` in a thread
    (a take-apart in a process of the page's pool), its errors one line with status 400
    (a body too large: 413, too slow: 408; a limit passed: 422; stopped or replaced: 409;
    too many running: 429)."""
    from starlette.concurrency import run_in_threadpool
    from starlette.responses import JSONResponse
    from starlette.responses import Response as Plain

    from puzzlebox.web.app import BadRequest, body_json, error

    action = request.path_params["action"]
    if action not in ACTIONS:
        return error(f"no designer's action {action!r}", 404)
    try:
        body = await body_json(request) if request.method == "POST" else {}
        answer: dict[str, Any] | tuple[bytes, str, str]
        if action in IN_PROCESS:
            pool = request.app.state.app.checks
            saved = request.app.state.app.saved  # the server's folder (web/saved.py)
            answer = await run_in_threadpool(_in_process, pool, action, body, saved)
        else:
            answer = await run_in_threadpool(handle, action, body)
    except Refused as failure:
        return error(str(failure), failure.status)
    except (BadRequest, DesignError) as failure:  # 413 too large, 408 too slow (#38)
        return error(str(failure), failure.status)
    except (PuzzleboxError, ModelError) as failure:
        return error(str(failure), 400)
    if isinstance(answer, tuple):
        data, media, filename = answer
        return Plain(data, media_type=media,
                     headers={"Content-Disposition": f'attachment; filename="{filename}"'})
    return JSONResponse(answer)
