"""A designer's rules for polyomino pieces: each piece's own rotate/reflect, and givens.

A *given* is one copy of a piece fixed in place before the search (as in many sold puzzles
and puzzle hunts). It is solved around, never moved: the option that places it is the only
option left on its cells, so every solution contains it, and a map of the board is a
symmetry of the puzzle only when it sends the givens onto the givens (a symmetry that moves
a given elsewhere relates a solution to an arrangement the puzzle does not allow).

These functions are what polyomino.py calls at its three places that rules and givens
touch (orientations, options, symmetries); :func:`check_givens` is what the reader calls
to refuse a given that cannot be (off the board, not the piece's shape in an allowed
orientation, overlapping another, more copies than the count allows).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, TypeVar

from puzzlebox.geometry.lattice import Cell, Lattice

if TYPE_CHECKING:
    from puzzlebox.puzzles.polyomino import Piece, PolyominoPuzzle


@dataclass(frozen=True)
class Given:
    """One copy of ``piece`` fixed on ``cells`` (sorted, as placements list them)."""

    piece: str
    cells: tuple[Cell, ...]

    def __post_init__(self) -> None:
        object.__setattr__(self, "cells", tuple(sorted(self.cells)))


class GivenError(ValueError):
    """A given that cannot be; the message is one line, ``where`` the given's number."""

    def __init__(self, where: int, message: str) -> None:
        super().__init__(message)
        self.where = where


def piece_rules(puzzle: PolyominoPuzzle, piece: Piece) -> tuple[bool, bool]:
    """``(rotate, reflect)`` for ``piece``: its own where it sets them, else the puzzle's."""
    rotate = puzzle.rotate if piece.rotate is None else piece.rotate
    reflect = puzzle.reflect if piece.reflect is None else piece.reflect
    return rotate, reflect


def around_givens(
    puzzle: PolyominoPuzzle, piece: Piece, placements: list[tuple[Cell, ...]]
) -> list[tuple[Cell, ...]]:
    """The placements of ``piece`` that the givens leave: those off every given's cells,
    and the piece's own givens themselves. A given's cells are then covered by its own
    option alone, so exact cover forces it into every solution."""
    if not puzzle.givens:
        return placements
    taken = {cell for given in puzzle.givens for cell in given.cells}
    own = {given.cells for given in puzzle.givens if given.piece == piece.name}
    return [
        cells for cells in placements
        if taken.isdisjoint(cells) or tuple(sorted(cells)) in own
    ]  # fmt: skip


S = TypeVar("S")


def keeping_givens(
    puzzle: PolyominoPuzzle, found: list[tuple[S, Cell, dict[str, str]]]
) -> list[tuple[S, Cell, dict[str, str]]]:
    """The grid symmetries of ``found`` (map, shift, where each piece goes) that send each
    given onto a given of the piece it goes to: the only ones that keep the options."""
    if not puzzle.givens:
        return found
    placed = {(given.piece, given.cells) for given in puzzle.givens}
    kept = []
    for sym, shift, goes in found:
        move = _mover(sym, shift)
        if all(
            (goes[g.piece], tuple(sorted(move(c) for c in g.cells))) in placed
            for g in puzzle.givens
        ):
            kept.append((sym, shift, goes))
    return kept


def _mover(sym: object, shift: Cell) -> Callable[[Cell], Cell]:
    """A cell moved by a grid map (anything called on a cell) and then by ``shift``."""
    assert callable(sym)

    def move(cell: Cell) -> Cell:
        return tuple(v + d for v, d in zip(sym(cell), shift, strict=True))

    return move


def check_givens(puzzle: PolyominoPuzzle) -> None:
    """Raise :class:`GivenError` for the first given that cannot be: a piece the puzzle does
    not have, a cell off the board, cells that are not the piece in an orientation its rules
    allow (of matching colours, when colours matter), cells another given covers, or more
    givens of a piece than its count allows."""
    pieces = {piece.name: piece for piece in puzzle.pieces}
    owner: dict[Cell, int] = {}
    used: dict[str, int] = {}
    for i, given in enumerate(puzzle.givens):
        piece = pieces.get(given.piece)
        if piece is None:
            raise GivenError(i, f"no piece is named {given.piece!r}")
        off = [cell for cell in given.cells if cell not in puzzle.board]
        if off:
            raise GivenError(i, f"the cell {list(off[0])} is not on the board")
        if len(set(given.cells)) != len(given.cells):
            raise GivenError(i, "a cell is given twice")
        if not _is_placement(puzzle, piece, given.cells):
            rotate, reflect = piece_rules(puzzle, piece)
            what = "turned" if rotate else "as drawn"
            what += " or flipped" if reflect else ""
            colours = ", on cells of its colours" if puzzle.match_colors else ""
            raise GivenError(i, f"the cells are not piece {given.piece!r} ({what}{colours})")
        used[given.piece] = used.get(given.piece, 0) + 1
        if piece.hi is not None and used[given.piece] > piece.hi:
            raise GivenError(i, f"piece {given.piece!r} is given {used[given.piece]} times; "
                             f"its count allows {piece.hi}")
        for cell in given.cells:
            if cell in owner:
                other = puzzle.givens[owner[cell]].piece
                raise GivenError(i, f"the cell {list(cell)} is covered by the given "
                                 f"{other!r} too")
            owner[cell] = i


def lattice_of(puzzle: PolyominoPuzzle) -> Lattice:
    """The grid the puzzle stands on."""
    return puzzle.lattice


def _is_placement(puzzle: PolyominoPuzzle, piece: Piece, cells: tuple[Cell, ...]) -> bool:
    """Whether ``cells`` (all on the board) are the piece in an orientation its rules allow,
    on cells of its colours where colours must match: the cells, with the board's colours
    or plain, put in normal position are one of the piece's orientations. Cheap (no
    placements are listed), so a file of many givens on a big board is checked at once."""
    if puzzle.match_colors and puzzle.neutral is not None:  # [rules] neutral (#24): the
        wanted = frozenset(cells)  # colours alone do not say it; the placements do
        return any(frozenset(p) == wanted for p in puzzle.placements_of(piece))
    colored = {cell: puzzle.board[cell] if puzzle.match_colors else "#" for cell in cells}
    return lattice_of(puzzle).normalize(colored) in set(puzzle.piece_orientations(piece))


def oriented_cells(
    lattice: Lattice, shape_cells: Sequence[Cell], at: Cell, turns: int, flip: bool
) -> tuple[Cell, ...] | None:
    """A piece's cells placed by position and orientation: mirrored across a vertical axis
    first when ``flip``, then turned ``turns`` times by the lattice's smallest clockwise turn
    (a quarter turn on square, a sixth on triangle and hexagon), put in normal position
    (top-left corner at row 0, column 0) and moved by ``at``. None when the lattice has no
    such turn (cube) or ``at`` is not a move of the lattice (on triangle, an up triangle
    must stay up: row + col even)."""
    turn = lattice.turn()
    if turn is None or not lattice.can_translate(at):
        return None
    cells = list(shape_cells)
    if flip:
        mirror = lattice.orientation_transforms(False, True)[-1]
        cells = [mirror(cell) for cell in cells]
    for _ in range(turns):
        cells = [turn(cell) for cell in cells]
    offset = lattice.normalize_offset(cells)
    return tuple(sorted(
        tuple(v + d + a for v, d, a in zip(cell, offset, at, strict=True)) for cell in cells
    ))  # fmt: skip


def turns_in(lattice: Lattice) -> int:
    """How many different ``turns`` a given may name: 4 on square, 6 on triangle and
    hexagon (0 where the lattice has no single turn)."""
    return len(lattice.orientation_transforms(True, False)) if lattice.turn() else 0
