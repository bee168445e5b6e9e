"""Sweeps: solve a board once for every way of leaving K of its cells uncovered.

The classic question is where the hole of a one-hole puzzle may go (the 7x7 square with
nine blocks and one hole: 49 choices). Choices that a symmetry of the puzzle maps onto each
other have the same answer, so only one choice of each orbit is solved and the answer is
copied to the others. Each choice is first put to the proofs of puzzles/proofs.py; only the
ones no proof settles are searched, once for "is it solvable" or fully with ``count``.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterable, Iterator
from math import comb
from typing import TYPE_CHECKING, cast

from puzzlebox.engine.stats import SearchStats
from puzzlebox.errors import PuzzleboxError
from puzzlebox.geometry.lattice import Cell
from puzzlebox.puzzles.base import Puzzle
from puzzlebox.puzzles.proofs import impossibility_proof, proof_without_placements
from puzzlebox.render.text import table_lines
from puzzlebox.reports import SweepResult

if TYPE_CHECKING:
    from puzzlebox.puzzles.polyomino import PolyominoPuzzle


class SweepError(PuzzleboxError):
    """A sweep that cannot be set up (too many or too few cells, coloured holes)."""


def sweepable(puzzle: Puzzle) -> PolyominoPuzzle:
    """The puzzle as a board whose cells a sweep leaves uncovered; SweepError for a kind
    that has no such board (sweeps belong to the polyomino kind, like this module)."""
    if not puzzle.sweepable:
        raise SweepError(f"{puzzle.label}: sweep works on polyomino boards, not {puzzle.kind}")
    return cast("PolyominoPuzzle", puzzle)


def filled(puzzle: PolyominoPuzzle) -> PolyominoPuzzle:
    """The puzzle with its board's holes filled in: every cell of its bounding box in the
    lattice's coordinates (a rectangle on square, a box on cube)."""
    if puzzle.match_colors:
        raise SweepError("the holes of a board whose colours must match have no colour to fill")
    spans = [
        range(min(cell[i] for cell in puzzle.board), max(cell[i] for cell in puzzle.board) + 1)
        for i in range(puzzle.lattice.dimensions)
    ]
    board: dict[Cell, str] = {cell: "#" for cell in itertools.product(*spans)}
    return _with_board(puzzle, board, puzzle.board_name)


def _with_board(
    puzzle: PolyominoPuzzle, board: dict[Cell, str], name: str | None
) -> PolyominoPuzzle:
    return type(puzzle)(
        puzzle.name,
        board,
        puzzle.pieces,
        rotate=puzzle.rotate,
        reflect=puzzle.reflect,
        match_colors=puzzle.match_colors,
        givens=puzzle.givens,
        labels=puzzle.labels,
        title=puzzle.title,
        notes=puzzle.notes,
        board_name=name,
        lattice=puzzle.lattice,
        optional=puzzle.optional & board.keys(),  # #24
        wrap=puzzle.wrap,  # #27: the periods of the whole board
        neutral=puzzle.neutral,  # #24
    )


def every_choice_refuted(puzzle: PolyominoPuzzle, chosen: Iterable[tuple[Cell, ...]]) -> bool:
    """Whether a proof that builds no placement (area, colouring) settles the board with
    each choice of cells uncovered: then no search over the choices is needed (#28)."""

    for uncovered in chosen:
        gone = set(uncovered)
        board = {cell: color for cell, color in puzzle.board.items() if cell not in gone}
        if proof_without_placements(_with_board(puzzle, board, None)) is None:
            return False
    return True


def choices(puzzle: PolyominoPuzzle, k: int) -> Iterator[tuple[Cell, ...]]:
    """Every set of ``k`` board cells, each sorted, in a stable order."""
    return itertools.combinations(sorted(puzzle.board), k)


def number_of_choices(puzzle: PolyominoPuzzle, k: int) -> int:
    return comb(len(puzzle.board), k)


def sweep(
    puzzle: PolyominoPuzzle,
    k: int,
    count: bool = False,
    engine: str = "auto",
    progress: Callable[[int, int], None] | None = None,
) -> Iterator[SweepResult]:
    """Solve (or count, with ``count``) the board with every choice of ``k`` cells left
    uncovered, yielding one result per choice in the order of :func:`choices`.

    ``progress(done, total)`` is called after each choice.
    """
    if not 0 <= k < len(puzzle.board):
        raise SweepError(
            f"can leave 0 to {len(puzzle.board) - 1} of the board's {len(puzzle.board)} cells "
            f"uncovered, not {k}"
        )
    maps = puzzle.board_maps()
    solved: dict[tuple[Cell, ...], SweepResult] = {}
    total = number_of_choices(puzzle, k)
    for done, chosen in enumerate(choices(puzzle, k), start=1):
        leader = min([chosen] + [tuple(sorted(m[c] for c in chosen)) for m in maps])
        if leader not in solved:
            found = _solve_one(puzzle, leader, count, engine)
            assert found is not None  # a search always answers
            solved[leader] = found
        answer = solved[leader]
        if leader != chosen and answer.proof is not None:
            # proofs are cheap, and their sentences name cells: give this choice its own
            own = _solve_one(puzzle, chosen, count, engine, search=False)
            if own is not None:
                answer = own
        if leader != chosen:
            answer = SweepResult(
                chosen,
                answer.solvable,
                answer.solutions,
                answer.distinct,
                answer.proof,
                answer.reason,
                0,
                same_as=leader,
            )
        if progress is not None:
            progress(done, total)
        yield answer


def _solve_one(
    puzzle: PolyominoPuzzle,
    uncovered: tuple[Cell, ...],
    count: bool,
    engine: str,
    search: bool = True,
) -> SweepResult | None:
    """The answer for one choice; None when ``search`` is off and no proof settles it."""
    gone = set(uncovered)
    held = next((g for g in puzzle.givens if gone.intersection(g.cells)), None)
    if held is not None:  # a given piece is never moved: that choice has no solution
        where = ",".join(map(str, min(gone.intersection(held.cells))))
        return SweepResult(uncovered, False, 0 if count else None, 0 if count else None,
                           "given", f"the given piece {held.piece} covers {where}")
    board = {cell: color for cell, color in puzzle.board.items() if cell not in gone}
    name = " ".join(",".join(map(str, cell)) for cell in uncovered) or "none"
    one = _with_board(puzzle, board, f"uncover {name}")
    proof = impossibility_proof(one)
    if proof is not None:
        return SweepResult(
            uncovered, False, 0 if count else None, 0 if count else None, proof.argument,
            proof.sentence,
        )  # fmt: skip
    if not search:
        return None
    if count:
        result = one.count(engine=engine)
        return SweepResult(
            uncovered,
            result.solutions > 0,
            result.solutions,
            result.distinct,
            nodes=result.stats.nodes,
        )
    solvable, nodes = _first(one, engine)
    return SweepResult(uncovered, solvable, nodes=nodes)


def _first(puzzle: PolyominoPuzzle, engine: str) -> tuple[bool, int]:
    """Is there a solution, and how many nodes it took to decide (one orbit each)."""
    from puzzlebox.engine.parts import representatives

    stats = SearchStats()
    found = next(representatives(puzzle.symmetry_breaking, engine, limit=1, stats=stats), None)
    return found is not None, stats.nodes


def count_grid(puzzle: PolyominoPuzzle, results: list[SweepResult], count: bool) -> list[str]:
    """For a sweep with one uncovered cell: the board with each cell showing its count (or
    ``o`` where the puzzle is solvable with that cell uncovered, ``-`` where it is not),
    each cell where a solution's text puts it (render/text.py's ``table_lines``: hexagon
    rows offset by half a cell, layers one under another under their headings, as ``show``
    draws them, an empty line between them)."""
    shown: dict[Cell, str] = {}
    for res in results:
        if len(res.uncovered) != 1:
            raise SweepError("a grid of answers needs exactly one uncovered cell per choice")
        if count:
            shown[res.uncovered[0]] = str(res.solutions)
        else:
            shown[res.uncovered[0]] = "o" if res.solvable else "-"
    return table_lines(puzzle.lattice, shown, puzzle.board)
