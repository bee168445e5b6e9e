"""The cube lattice (polycubes, solid puzzles): cells ``(layer, row, col)``, six face neighbours.

Layer 0 is the bottom layer; each layer is drawn as a square grid, row down and col right
(../shared/docs/puzzle-format.md, "Other lattices"). A grid value is a list of layer strings
from the bottom up, or one string for a flat piece (one layer).

The point group is the 48 signed permutation matrices acting on ``(layer, row, col)``: the 24
with determinant +1 are the rotations of space (``proper``), the others their mirror images.
Turning a flat piece over is a rotation here, so ``rotate = true`` gives every orientation a
flat piece can have in space, whatever ``reflect`` says.
"""

from __future__ import annotations

from itertools import permutations, product
from typing import Any

from puzzlebox.geometry.lattice import (
    Cell,
    GridError,
    Lattice,
    Transform,
    TwoColouring,
    parse_grid,
    register_lattice,
)

_AXES = "lrc"  # layer, row, col


def _name(perm: tuple[int, ...], signs: tuple[int, ...]) -> str:
    """``"(l,-c,r)"``: the new layer, row and column written in the old ones."""
    if perm == (0, 1, 2) and signs == (1, 1, 1):
        return "id"
    if perm == (0, 1, 2) and signs == (1, 1, -1):
        return "mirror"
    return "(" + ",".join(("-" if s < 0 else "") + _AXES[p] for p, s in zip(perm, signs)) + ")"


def _determinant(perm: tuple[int, ...], signs: tuple[int, ...]) -> int:
    inversions = sum(1 for i in range(3) for j in range(i + 1, 3) if perm[i] > perm[j])
    return (-1 if inversions % 2 else 1) * signs[0] * signs[1] * signs[2]


def _make(perm: tuple[int, ...], signs: tuple[int, ...]) -> Transform:
    (p0, p1, p2), (s0, s1, s2) = perm, signs
    return Transform(
        _name(perm, signs),
        _determinant(perm, signs) == 1,
        lambda cell: (s0 * cell[p0], s1 * cell[p1], s2 * cell[p2]),
    )


def _group() -> tuple[Transform, ...]:
    elements = [
        (perm, signs) for perm in permutations(range(3)) for signs in product((1, -1), repeat=3)
    ]
    identity = ((0, 1, 2), (1, 1, 1))
    mirror = ((0, 1, 2), (1, 1, -1))
    rotations = [e for e in elements if _determinant(*e) == 1 and e != identity]
    reflections = [e for e in elements if _determinant(*e) == -1 and e != mirror]
    ordered = [identity, *rotations, mirror, *reflections]
    return tuple(_make(*e) for e in ordered)


_GROUP = _group()  # identity first, the 24 rotations, then "mirror" (col -> -col) 25th


class CubeLattice(Lattice):
    name = "cube"
    dimensions = 3
    cell_word = "cube"
    unit_cubes = True
    transforms = _GROUP
    layer_lattice = "square"

    def neighbours(self, cell: Cell) -> tuple[Cell, ...]:
        l, r, c = cell
        return (
            (l - 1, r, c),
            (l, r - 1, c),
            (l, r, c - 1),
            (l, r, c + 1),
            (l, r + 1, c),
            (l + 1, r, c),
        )


    def can_translate(self, vector: Cell) -> bool:
        return True

    def two_colouring(self) -> TwoColouring:
        """The 3-D checkerboard: face neighbours differ in ``layer + row + col`` by one, and
        signed permutations and translations keep or swap the parity of that sum."""
        return TwoColouring(
            "3-D checkerboard", "dark", "light", lambda c: (c[0] + c[1] + c[2]) % 2 == 0
        )

    def parse(self, value: Any) -> dict[Cell, str]:
        """Layers from the bottom up (layer 0 first); a single string is one layer."""
        return parse_layers(value, self.name)


def parse_layers(value: Any, lattice: str) -> dict[Cell, str]:
    """A list of layer strings from the bottom up (or one string: one layer) as
    ``{(layer, row, col): character}``, each layer read as a flat grid (shared by the
    lattices in layers: cube, prism).

    Every layer must have as many rows as the first: a layer's rows are placed by their
    index, so a short layer would silently shift the cells of the next one in the picture
    a person drew; they write an empty row as dots instead."""
    if isinstance(value, str):
        value = [value]
    if not isinstance(value, list):
        raise GridError(
            f"a {lattice} grid must be a list of layer strings (bottom layer first) "
            f"or one string, not {type(value).__name__}"
        )
    cells: dict[Cell, str] = {}
    first_rows: int | None = None
    for layer, text in enumerate(value):
        if not isinstance(text, str):
            raise GridError(
                f"layer {layer} of a {lattice} grid must be a string of rows, "
                f"not {type(text).__name__}"
            )
        try:
            layer_cells, rows = parse_grid(text)
        except GridError as error:  # layers count from 0, as [layer, row, col] (#38)
            raise GridError(f"layer {layer}: {error}") from None
        if first_rows is None:
            first_rows = len(rows)
        elif len(rows) != first_rows:
            raise GridError(
                f"layer {layer} has {len(rows)} rows, layer 0 has {first_rows}; "
                "write empty rows with dots"
            )
        for (r, c), ch in layer_cells.items():
            cells[(layer, r, c)] = ch
    return cells


CUBE = register_lattice(CubeLattice())
