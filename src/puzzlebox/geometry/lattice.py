"""The lattice interface: what a grid of cells must say so that puzzles can stand on it.

A *lattice* is an infinite grid of congruent cells named by integer tuples. Everything
outside geometry/ and render/ asks the lattice, never its name (#14): which cells touch,
which maps of the grid keep it a grid (its symmetry group), where a shape may be moved
(translations), the normal form of a shape, a two-colouring for parity proofs, and how a
grid value in a puzzle file becomes cells.

One module per lattice (square.py, triangle.py, hexagon.py, cube.py, prism.py, tetraocta.py)
defines one instance and registers it; :func:`lattice_named` is the only place a name
becomes a lattice.

Coordinates (../shared/docs/puzzle-format.md, "Other lattices"):

* square ``(row, col)``; triangle ``(row, col)``, pointing up when ``row + col`` is even;
  hexagon axial ``(row, q)``; cube ``(layer, row, col)``, layer 0 at the bottom; prism
  ``(layer, row, col)``, each layer a triangle grid; tetra-octa ``(layer, row, col)``,
  BurrTools' positions of its grid type 4.

A *transform* is one element of the lattice's point group: a function from a cell to a cell
that maps neighbours to neighbours. It need not fix the origin or keep shapes in the first
quadrant: :meth:`Lattice.normalize` translates the image back. Transforms are compared and
hashed by name, which is unique within a lattice.
"""

from __future__ import annotations

import importlib
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from itertools import repeat
from operator import add
from typing import Any

from puzzlebox.geometry.grid_text import grid_rows, invisible_character

Cell = tuple[int, ...]
DEFAULT_LATTICE = "square"  # what a file without a `lattice` key stands on
Point = tuple[float, float]
Point3 = tuple[float, float, float]


def _shifted(cell: Cell, offset: Cell) -> map[int]:
    return map(add, cell, offset)


def outward(faces: Iterable[Sequence[Point3]]) -> list[tuple[Point3, ...]]:
    """A convex cell's faces, each wound counter-clockwise seen from outside (its normal by
    the right-hand rule pointing away from the cell's centre): the order
    :meth:`Lattice.solid_faces` promises, whatever order the corners were listed in. The
    map to space that pictures and STL use, ``(layer, row, col) -> (col, -row, layer)``,
    keeps the handedness, so outward here is outward there."""
    listed: list[tuple[Point3, ...]] = [tuple(face) for face in faces]
    corners = {p for face in listed for p in face}
    centre = tuple(sum(p[i] for p in corners) / len(corners) for i in range(3))
    out: list[tuple[Point3, ...]] = []
    for face in listed:
        a, b, c = face[0], face[1], face[2]
        u = [b[i] - a[i] for i in range(3)]
        v = [c[i] - a[i] for i in range(3)]
        normal = (u[1] * v[2] - u[2] * v[1], u[2] * v[0] - u[0] * v[2],
                  u[0] * v[1] - u[1] * v[0])
        mid = [sum(p[i] for p in face) / len(face) - centre[i] for i in range(3)]
        out.append(face if sum(n * m for n, m in zip(normal, mid)) > 0 else face[::-1])
    return out


@dataclass(frozen=True)
class Transform:
    """One symmetry of a lattice, applied to a cell by calling it.

    ``proper`` is False for the orientation-reversing ones (the mirror images): a puzzle
    with ``reflect = false`` may use only the proper ones.
    """

    name: str
    proper: bool
    apply: Callable[[Cell], Cell] = field(compare=False, hash=False, repr=False)

    def __call__(self, cell: Cell) -> Cell:
        return self.apply(cell)


@dataclass(frozen=True)
class TwoColouring:
    """A colouring of the cells in two classes such that every placement of a shape (every
    allowed translation and every transform of the group) covers the same number of each
    class up to exchanging them: the basis of the parity proofs in puzzles/proofs.py.

    ``name`` goes into the proof's sentence (``"checkerboard"``); ``dark`` and ``light``
    name the classes (``"dark"``/``"light"``, ``"up"``/``"down"``).
    """

    name: str
    dark_word: str
    light_word: str
    is_dark: Callable[[Cell], bool] = field(compare=False, hash=False, repr=False)


class Lattice(ABC):
    """A grid of cells; one instance per lattice, registered by name."""

    name: str  # as written in a puzzle file: "square", "triangle", "hexagon", "cube"
    dimensions: int  # coordinates per cell: 2, or 3 for cube
    cell_word: str  # "square", "triangle", "hexagon", "cube": for messages ("12 triangles")
    # cells are unit squares in rows and columns: a text drawing can outline pieces with
    # | and -, and a name in a picture may turn a quarter to fit a straight run of cells
    unit_squares: bool = False
    # cells are unit cubes in layers, rows and columns (cube): the page's editor draws them so
    unit_cubes: bool = False
    # translations move each coordinate by a multiple of this (rhombic: whole blocks of 5
    # voxels); bounds that count a shape's shifts inside a board step by it
    period: int = 1
    # a lattice in layers names the flat lattice each layer is (cube: "square", prism:
    # "triangle"): render/ draws a layer with that lattice's polygons (None: not in layers)
    layer_lattice: str | None = None

    # -- the graph ----------------------------------------------------------------------
    @abstractmethod
    def neighbours(self, cell: Cell) -> tuple[Cell, ...]:
        """The cells that share a side (a face on cube) with ``cell``, on the whole lattice."""

    # -- symmetry -----------------------------------------------------------------------
    # the whole point group, the identity first, then the other proper maps, then the mirror
    # across a vertical axis of the picture, then the other mirrors: 8 (square), 12
    # (triangle, hexagon), 48 (cube). Each lattice module sets it.
    transforms: tuple[Transform, ...]

    def group(self) -> tuple[Transform, ...]:
        """The whole point group, the identity first. Board symmetries of a puzzle are
        searched among these."""
        return self.transforms

    def orientation_transforms(self, rotate: bool, reflect: bool) -> tuple[Transform, ...]:
        """The transforms a piece may undergo under the rules, the identity first.

        ``rotate and reflect``: the whole group; ``rotate`` only: the proper ones (on cube
        the 24 rotations, which turn flat pieces over); ``reflect`` only: the identity and
        the mirror across a vertical axis of the picture; neither: the identity. One rule
        for every lattice, read off the order of :attr:`transforms`.
        """
        proper = sum(t.proper for t in self.transforms)
        if rotate and reflect:
            return self.transforms
        if rotate:
            return self.transforms[:proper]
        if reflect:
            return (self.transforms[0], self.transforms[proper])
        return (self.transforms[0],)

    def turn(self) -> Transform | None:
        """The smallest clockwise turn of the picture, whose powers a given's ``turns``
        counts (``[[givens]]`` with ``at``, ``turns`` and ``flip``), or None where the
        rotations are not the powers of one turn (cube: a given there lists its cells)."""
        return None

    def holds(self, cell: Cell) -> bool:
        """Whether ``cell`` (coordinates of the right number) is a cell of the lattice: every
        tuple is on most lattices; on rhombic, sphere and tetra-octa only some positions of
        their grids are (the others are written '.'), which the page's editor must know."""
        return True

    @abstractmethod
    def can_translate(self, vector: Cell) -> bool:
        """Whether moving every cell by ``vector`` (added coordinate-wise) maps the lattice
        onto itself: always on square, hexagon and cube; on triangle only when the row and
        column shifts have an even sum (an up triangle must stay up)."""

    def normalize_offset(self, cells: Iterable[Cell]) -> Cell:
        """The translation that puts ``cells`` in normal position: the smallest value of
        each coordinate becomes 0, where the lattice allows (triangle may leave a column
        of 1 to keep a triangle's direction). Added to every cell by :meth:`normalize`."""
        return tuple(-min(axis) for axis in zip(*cells, strict=True))

    def normalize(self, cells: Mapping[Cell, str]) -> Shape:
        """``cells`` (each with its colour character) translated into normal position, in
        sorted order: two shapes are translates of each other exactly when their normal
        forms are equal. (Called thousands of times by a puzzle's symmetries and its
        pieces' orientations: map and sort, no loop in Python per coordinate, issue #23.)"""
        if not cells:
            raise ValueError("a shape needs at least one cell")
        offset = self.normalize_offset(cells)
        items = sorted(zip(map(tuple, map(_shifted, cells, repeat(offset))), cells.values()))
        moved, colors = zip(*items, strict=True)
        return Shape(moved, colors)

    def transformed(self, shape: Shape, transform: Transform) -> Shape:
        """The shape moved by ``transform`` and put back in normal position."""
        return self.normalize(dict(zip(map(transform.apply, shape.cells), shape.colors,
                                       strict=True)))

    def orientations(self, shape: Shape, rotate: bool = True, reflect: bool = True) -> list[Shape]:
        """The distinct orientations of a shape under the rules, in a stable order (the
        I pentomino has two on square, the X one)."""
        seen: dict[Shape, None] = {}
        for transform in self.orientation_transforms(rotate, reflect):
            seen.setdefault(self.transformed(shape, transform), None)
        return list(seen)

    def is_connected(self, cells: Iterable[Cell]) -> bool:
        """Whether the cells form one piece through shared sides (faces)."""
        cells = set(cells)
        if not cells:
            return True
        start = next(iter(cells))
        seen = {start}
        stack = [start]
        while stack:
            for near in self.neighbours(stack.pop()):
                if near in cells and near not in seen:
                    seen.add(near)
                    stack.append(near)
        return len(seen) == len(cells)

    # -- proofs -------------------------------------------------------------------------
    def two_colouring(self) -> TwoColouring | None:
        """A colouring for parity proofs, or None where the lattice has none (hexagon)."""
        return None

    # -- taking apart ---------------------------------------------------------------------
    def slide_steps(self) -> tuple[Cell, ...] | None:
        """The steps pieces slide along when an assembly is taken apart, each followed by its
        opposite, on a lattice whose cells do not slide along the coordinate axes by unit
        steps; None where they do (square, cube: the axes, found from the neighbours) or
        do not slide at all (disassembly/assemblies.py decides which)."""
        return None

    def swept(self, cell: Cell, step: Cell) -> tuple[Cell, ...]:
        """The cells whose inside ``cell`` passes through as it slides by one of
        :meth:`slide_steps` (itself left out): where cells are prisms along the step, only
        the cell it lands on."""
        return (tuple(_shifted(cell, step)),)

    # -- puzzle files -------------------------------------------------------------------
    @abstractmethod
    def parse(self, value: Any) -> dict[Cell, str]:
        """A grid value from a puzzle file (a string of rows on flat lattices, a list of
        such strings from the bottom layer up on cube) as ``{cell: colour character}``.

        Raises :class:`GridError` with a message fit for one line when the value has the
        wrong shape for this lattice (a list of layers on a flat lattice, ragged layers).
        An empty result is returned as is; the reader says that a grid has no cells."""

    # -- drawing (render/ uses these; nothing else does) ---------------------------------
    # cells are balls of this radius about their coordinates (sphere), drawn and printed as
    # balls; None: cells are polygons or polyhedra
    ball_radius: float | None = None

    def solid_faces(self, cell: Cell) -> list[tuple[Point3, ...]] | None:
        """The cell as a polyhedron of its own: its faces, each its corners in space
        (``(layer, row, col)`` in units of a cube's edge) counter-clockwise seen from
        outside, for pictures and STL; None where cells are not drawn so (flat lattices,
        cube: unit cubes, render/isometric.py; balls)."""
        return None

    def polygon(self, cell: Cell) -> list[Point] | None:
        """The cell's outline in picture units (x to the right, y down, one unit about a
        cell's width), or None on a lattice that is not drawn flat (cube: render/ draws
        its layers and an isometric view)."""
        return None

    def text_position(self, cell: Cell) -> tuple[int, int, int]:
        """Where the cell's character goes in text output: ``(layer, line, column)``, the
        same place as in the grid string it was read from (layer 0 on flat lattices)."""
        if len(cell) == 3:
            return (cell[0], cell[1], cell[2])
        return (0, cell[0], cell[1])

    def __repr__(self) -> str:
        return f"<lattice {self.name}>"


class GridError(ValueError):
    """A grid value that cannot be read on this lattice; the message is one line.
    ``text_line``: the line of the grid's text it is about (from 0, as the string splits at
    newlines), so that a reader can point at that line of the file; None when none is."""

    def __init__(self, message: str, text_line: int | None = None) -> None:
        super().__init__(message)
        self.text_line = text_line


@dataclass(frozen=True)
class Shape:
    """A set of cells, each with a colour character, in the normal position of its lattice.

    Two shapes are equal when they have the same cells with the same colours, which is what
    makes orientation de-duplication a set operation. A shape does not know its lattice:
    the puzzle that holds it does (``puzzle.lattice``).
    """

    cells: tuple[Cell, ...]
    colors: tuple[str, ...]

    @staticmethod
    def from_cells(
        cells: Mapping[Cell, str] | Iterable[Cell], lattice: Lattice | None = None
    ) -> Shape:
        if not isinstance(cells, Mapping):
            cells = {cell: "#" for cell in cells}
        return (lattice or lattice_named("square")).normalize(cells)

    def __len__(self) -> int:
        return len(self.cells)

    def color_map(self) -> dict[Cell, str]:
        return dict(zip(self.cells, self.colors, strict=True))

    @property
    def height(self) -> int:
        """Rows spanned (the second-last coordinate)."""
        return 1 + max(cell[-2] for cell in self.cells) - min(cell[-2] for cell in self.cells)

    @property
    def width(self) -> int:
        """Columns spanned (the last coordinate)."""
        return 1 + max(cell[-1] for cell in self.cells) - min(cell[-1] for cell in self.cells)

    @property
    def depth(self) -> int:
        """Layers spanned: 1 on flat lattices."""
        if len(self.cells[0]) < 3:
            return 1
        return 1 + max(cell[0] for cell in self.cells) - min(cell[0] for cell in self.cells)

    def to_text(self) -> str:
        """The shape as grid rows (layers separated by a blank line), as a file writes it."""
        layers: dict[int, dict[tuple[int, int], str]] = {}
        for cell, color in zip(self.cells, self.colors):
            layer = cell[0] if len(cell) == 3 else 0
            layers.setdefault(layer, {})[(cell[-2], cell[-1])] = color
        r0 = min(cell[-2] for cell in self.cells)
        c0 = min(cell[-1] for cell in self.cells)
        blocks = []
        for layer in sorted(layers):
            grid = [["."] * self.width for _ in range(self.height)]
            for (r, c), color in layers[layer].items():
                grid[r - r0][c - c0] = color
            blocks.append("\n".join("".join(row) for row in grid))
        return "\n\n".join(blocks)


LATTICES: dict[str, Lattice] = {}


def register_lattice(lattice: Lattice) -> Lattice:
    """Add a lattice to the registry (each lattice module calls this once)."""
    LATTICES[lattice.name] = lattice
    return lattice


def lattice_named(name: str) -> Lattice:
    """The registered lattice called ``name``; KeyError names the known ones."""
    _load_all()
    try:
        return LATTICES[name]
    except KeyError:
        known = ", ".join(f'"{n}"' for n in sorted(LATTICES))
        raise KeyError(f"unknown lattice {name!r}; known: {known}") from None


def lattice_names() -> Sequence[str]:
    _load_all()
    return sorted(LATTICES)


def _load_all() -> None:
    """Import every lattice module so it registers (cheap: no numpy, no numba). A module that
    fails to import is an error, never a lattice quietly missing from the registry."""
    for module in ("square", "triangle", "hexagon", "cube", "rhombic", "sphere", "prism",
                   "tetraocta"):
        importlib.import_module(f"puzzlebox.geometry.{module}")


NO_CELL = frozenset(". ")  # characters of a drawn grid that are no cell


def parse_grid(text: str) -> tuple[dict[Cell, str], list[str]]:
    """Read a drawn grid into ``{(row, col): colour}`` and its rows.

    Rows are separated by newlines, or by ``/`` when the grid is written on one line.
    ``.`` and space are no cell. Leading and trailing blank lines are dropped. A tab or
    another invisible character is refused (geometry/grid_text.py), with its place.
    """
    problem = invisible_character(text)
    if problem is not None:
        raise GridError(*problem)
    rows = grid_rows(text)
    cells: dict[Cell, str] = {
        (r, c): ch
        for r, row in enumerate(rows)
        for c, ch in enumerate(row)
        if ch not in NO_CELL
    }
    return cells, rows
