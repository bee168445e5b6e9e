"""Disassembling the solutions of a puzzle: from placements to pieces that slide.

A solution of a polyomino puzzle is an assembly: each placement is a piece's cells. Pieces
slide along the lattice's axes, which exist where a cell's neighbours are the unit steps
along its coordinates (the square lattice in its plane, the cube lattice in space); on the
other lattices the question is refused in one line.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import cast

import numpy as np

from puzzlebox.disassembly.search import DEFAULT_MAX_STATES, Separation, disassemble
from puzzlebox.errors import PuzzleboxError
from puzzlebox.geometry import Cell, Lattice
from puzzlebox.puzzles.polyomino import Placement, PolyominoPuzzle, PolyominoSolution


class CannotDisassemble(PuzzleboxError):
    """A puzzle whose pieces do not slide along axes (another kind, another lattice)."""


@dataclass(frozen=True)
class Rules:
    """What may stay put and together: pieces named ``fixed`` never move (a box, a frame);
    the pieces of each of ``groups`` (by name) may stay together."""

    fixed: frozenset[str] = frozenset()
    groups: tuple[frozenset[str], ...] = ()
    thorough: bool = False
    max_states: int = DEFAULT_MAX_STATES
    max_seconds: float | None = None


@dataclass(frozen=True)
class Disassembled:
    """One assembly and how it comes apart (``separation`` None: it does not)."""

    solution: PolyominoSolution
    names: tuple[str, ...]  # the piece of each placement, in the order the moves number them
    separation: Separation | None
    placements: tuple[Placement, ...] = field(default=())  # in the order of ``names``

    @property
    def level(self) -> str | None:
        return None if self.separation is None else self.separation.level


def sliding_axes(lattice: Lattice) -> int | None:
    """The number of axes pieces slide along on ``lattice``, or None when a cell's
    neighbours are not the unit steps along its coordinates."""
    dims = lattice.dimensions
    origin = (0,) * dims
    steps = set()
    for axis in range(dims):
        for sign in (1, -1):
            step = [0] * dims
            step[axis] = sign
            steps.add(tuple(step))
    return dims if set(lattice.neighbours(origin)) == steps else None


def check_slides(puzzle: object, label: str) -> int:
    """The sliding axes of the puzzle, or a one-line refusal."""
    if not getattr(puzzle, "slides_apart", False):  # Puzzle.slides_apart: a kind says so
        raise CannotDisassemble(f"{label}: only pieces packed on a board can be taken apart")
    dims = sliding_axes(cast(PolyominoPuzzle, puzzle).lattice)
    if dims is None:
        raise CannotDisassemble(
            f"{label}: pieces slide along the axes of square and cube cells only; this "
            f"puzzle's {cast(PolyominoPuzzle, puzzle).lattice.cell_word}s have other neighbours")
    return dims


def _spaced(cells: Sequence[Cell], dims: int) -> np.ndarray:
    """A placement's cells as rows of (x, y, z) for the search: x the column, y the row, z
    the layer (as the BurrTools importer maps voxels), so that moves are tried along x, then
    y, then z."""
    grid = np.array(cells, dtype=np.int64)
    if dims == 2:
        return np.column_stack([grid[:, 1], grid[:, 0], np.zeros(len(grid), dtype=np.int64)])
    return np.ascontiguousarray(grid[:, ::-1])


@dataclass(frozen=True)
class Arranged:
    """A solution as :func:`~puzzlebox.disassembly.search.disassemble` takes it: placements
    in the puzzle's order of pieces (as BurrTools numbers them), each piece's cells as x y z
    rows, and the numbers of the fixed pieces and of each group's pieces."""

    placements: tuple[Placement, ...]
    pieces: list[np.ndarray]
    fixed: list[int]
    groups: list[list[int]]

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(p.piece for p in self.placements)


def arrange(puzzle: PolyominoPuzzle, solution: PolyominoSolution, dims: int,
            fixed: Collection[str] = (), groups: Sequence[Collection[str]] = ()) -> Arranged:
    """``solution``'s pieces numbered for the search, ``fixed`` and ``groups`` by name."""
    rank = {piece.name: k for k, piece in enumerate(puzzle.pieces)}
    placements = tuple(sorted(solution.placements, key=lambda p: (rank[p.piece], p.cells)))
    names = [p.piece for p in placements]
    return Arranged(placements, [_spaced(p.cells, dims) for p in placements],
                    [k for k, name in enumerate(names) if name in fixed],
                    [[k for k, name in enumerate(names) if name in group] for group in groups])


def disassemble_solution(puzzle: PolyominoPuzzle, solution: PolyominoSolution,
                         rules: Rules = Rules(), label: str = "assembly") -> Disassembled:
    """How one solution comes apart under ``rules``."""
    dims = check_slides(puzzle, label)
    arranged = arrange(puzzle, solution, dims, rules.fixed, rules.groups)
    separation = disassemble(arranged.pieces, dims=dims, fixed=arranged.fixed,
                             groups=arranged.groups, thorough=rules.thorough,
                             max_states=rules.max_states, max_seconds=rules.max_seconds,
                             label=label)
    return Disassembled(solution, arranged.names, separation, arranged.placements)


def disassemble_all(puzzle: PolyominoPuzzle, solutions: Iterable[PolyominoSolution],
                    rules: Rules = Rules(), label: str = "assembly") -> Iterator[Disassembled]:
    """Each solution, disassembled in turn."""
    check_slides(puzzle, label)
    for number, solution in enumerate(solutions, 1):
        yield disassemble_solution(puzzle, solution, rules, f"{label}: assembly {number}")


def level_key(level: str) -> tuple[int, ...]:
    """Levels compare number by number (BurrTools: higher first)."""
    return tuple(int(part) for part in level.split("."))


def group_names(groups: Sequence[Collection[str]]) -> tuple[frozenset[str], ...]:
    return tuple(frozenset(g) for g in groups)
