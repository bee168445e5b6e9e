"""Labelled cells, and sweeps asked in their terms ("leave one month and one day open").

A board may name its cells: ``[board.labels]`` holds *groups* (``month``, ``day``), each a
set of *labels* (``Jan``, ``31``), each naming one cell or several. A labelled sweep leaves,
for each combination of one label per group, exactly those labels' cells uncovered and
counts the solutions of what is left: the calendar puzzle's "which dates, and how many
solutions each". A file may declare its usual sweep (``[sweep] uncover = [...]``) and which
combinations it is about (``skip`` some, or ``only`` some: the 366 real dates are the
12 x 31 pairs less six); docs/puzzle-format.md is the contract.

Each combination is solved by the sweep machinery of puzzles/sweep.py (proofs first, then a
count); combinations that a symmetry of the puzzle maps onto each other are counted once.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from puzzlebox.cover.problem import CoverBuilder
from puzzlebox.engine.registry import AUTO, resolve
from puzzlebox.engine.search import Job, Mode, each_solution
from puzzlebox.errors import PuzzleboxError
from puzzlebox.geometry.lattice import Cell, Lattice
from puzzlebox.puzzles.givens import lattice_of
from puzzlebox.puzzles.sweep import _solve_one, _with_board, every_choice_refuted, sweepable
from puzzlebox.reports import LabelResult, LabelSweepReport, SweepResult
from puzzlebox.safety import printable

if TYPE_CHECKING:
    from puzzlebox.puzzles.base import Puzzle
    from puzzlebox.puzzles.polyomino import PolyominoPuzzle

Combination = tuple[str, ...]
MAX_COMBINATIONS = 1_000_000  # combinations one sweep lists (each a line of output)
TALLY_MOST = 1_000_000  # solutions listed by the one search of a sweep before it gives up


class LabelSweepError(PuzzleboxError):
    """A labelled sweep that cannot be set up (a group the board does not name)."""


class NoDeclaredSweep(LabelSweepError):
    """A labelled sweep asked of a file that declares none, without naming groups."""


@dataclass(frozen=True, eq=False)
class Labels:
    """The board's groups of labels, in the file's order, and its usual sweep.

    ``groups[group][label]`` is the tuple of cells the label names. ``uncover`` is the usual
    sweep's groups (empty: none declared); ``only`` the combinations it is limited to (None:
    all), ``skip`` those it leaves out, each a tuple of labels in the order of ``uncover``.
    """

    groups: dict[str, dict[str, tuple[Cell, ...]]]
    uncover: tuple[str, ...] = ()
    only: tuple[Combination, ...] | None = None
    skip: frozenset[Combination] = field(default_factory=frozenset)

    def text_of(self, cell: Cell) -> str | None:
        """The label drawn on ``cell``: every label naming it, joined by ``/`` (None: none)."""
        names = [
            label
            for labels in self.groups.values()
            for label, cells in labels.items()
            if cell in cells
        ]
        return "/".join(names) if names else None

    def cell_texts(self) -> dict[Cell, str]:
        """Every labelled cell with the text drawn on it."""
        cells = {cell for labels in self.groups.values() for c in labels.values() for cell in c}
        return {cell: text for cell in cells if (text := self.text_of(cell)) is not None}

    def combinations(self, groups: tuple[str, ...]) -> list[Combination]:
        """One label of each group, in the groups' order and each group's label order. The
        declared ``only`` and ``skip`` apply when ``groups`` is the declared sweep's."""
        for group in groups:
            if group not in self.groups:
                known = ", ".join(self.groups) or "none"
                raise LabelSweepError(f"the board has no label group {group!r} (it has: {known})")
        if len(set(groups)) != len(groups):
            raise LabelSweepError(f"a group is named twice in {', '.join(groups)}")
        many = math.prod(len(self.groups[g]) for g in groups)
        if many > MAX_COMBINATIONS:
            raise LabelSweepError(f"{' x '.join(str(len(self.groups[g])) for g in groups)} = "
                                  f"{many} combinations; a sweep takes at most "
                                  f"{MAX_COMBINATIONS}")
        if groups == self.uncover and self.only is not None:
            return [combo for combo in self.only if combo not in self.skip]
        every = itertools.product(*(list(self.groups[g]) for g in groups))
        declared = groups == self.uncover
        return [combo for combo in every if not (declared and combo in self.skip)]

    def cells_of(self, groups: tuple[str, ...], combo: Combination) -> tuple[Cell, ...]:
        """The cells a combination leaves uncovered, sorted."""
        cells = {cell for group, label in zip(groups, combo) for cell in self.groups[group][label]}
        return tuple(sorted(cells))


def labels_of(puzzle: PolyominoPuzzle) -> Labels:
    if puzzle.labels is None or not puzzle.labels.groups:
        raise LabelSweepError(f"{puzzle.label}: the board names no cells ([board.labels])")
    return puzzle.labels


def label_sweep(
    puzzle: PolyominoPuzzle,
    groups: tuple[str, ...],
    engine: str = "auto",
    progress: Callable[[int, int], None] | None = None,
) -> Iterator[LabelResult]:
    """Count the board with each combination of one label per group left uncovered.

    A combination whose labels name a cell twice (groups that overlap) is left out: it
    would leave fewer cells open than it says."""
    labels = labels_of(puzzle)
    combos = labels.combinations(groups)
    maps = puzzle.board_maps()
    tally = _tally(puzzle, groups, engine)
    solved: dict[tuple[Cell, ...], SweepResult] = {}
    for done, combo in enumerate(combos, start=1):
        cells = labels.cells_of(groups, combo)
        named = sum(len(labels.groups[g][label]) for g, label in zip(groups, combo))
        if len(cells) == named:
            leader = min([cells] + [tuple(sorted(m[c] for c in cells)) for m in maps])
            quick = None
            if leader not in solved and tally is not None:
                quick = _from_tally(puzzle, leader, tally.get(leader, 0), engine)
            if quick is not None:
                solved[leader] = quick
            if leader not in solved:
                found = _solve_one(puzzle, leader, True, engine)
                assert found is not None  # a search always answers
                solved[leader] = found
            answer = solved[leader]
            if leader != cells:
                answer = SweepResult(cells, answer.solvable, answer.solutions, answer.distinct,
                                     answer.proof, answer.reason, 0, same_as=leader)
            yield LabelResult(dict(zip(groups, combo)), answer)
        if progress is not None:
            progress(done, len(combos))


def label_counts(puzzle: Puzzle) -> list[tuple[dict[str, str], int]] | None:
    """Each combination of the file's declared sweep with its number of solutions (as
    placed), from the one search of :func:`_tally`: what a design search asks of a
    calendar (is every date solvable, and which has the fewest), without a proof or a
    symmetry group for each combination. None where the one search does not apply
    (givens, too many solutions): :func:`label_sweep_report` answers then."""
    board = sweepable(puzzle)
    labels = labels_of(board)
    groups = labels.uncover
    if not groups:
        raise NoDeclaredSweep(f"{board.label}: the file declares no sweep ([sweep] uncover "
                              "= [...]): name the groups to leave open")
    tally = _tally(board, groups, AUTO)
    if tally is None:
        return None
    counts = []
    for combo in labels.combinations(groups):
        cells = labels.cells_of(groups, combo)
        named = sum(len(labels.groups[g][label]) for g, label in zip(groups, combo))
        if len(cells) == named:  # groups that overlap: left out, as by the sweep
            counts.append((dict(zip(groups, combo)), tally.get(cells, 0)))
    return counts


def _tally(
    puzzle: PolyominoPuzzle, groups: tuple[str, ...], engine: str
) -> dict[tuple[Cell, ...], int] | None:
    """Every combination's number of solutions from one search: the puzzle's problem with,
    for each group, one more item that exactly one *hole* option covers, a hole being one
    label's cells. A solution of that problem is a combination (its holes) and a solution
    of the board with the combination's cells open, and back, so counting the solutions by
    their holes counts every combination at once. None where it does not apply: givens
    (a hole must not take a given's cell; each combination is solved alone, which says
    so), an engine named (it may not list solutions), or more than :data:`TALLY_MOST`
    solutions in all (listing them one by one would be slower than counting each
    combination with an engine that counts without listing)."""

    if puzzle.givens or engine != AUTO:
        return None
    labels = labels_of(puzzle)

    if every_choice_refuted(puzzle, (labels.cells_of(groups, c)
                                     for c in labels.combinations(groups))):
        return None  # #28: each combination is settled by its proof, no search at all
    problem = puzzle.problem
    names = problem.item_names
    builder = CoverBuilder()
    for i in range(problem.n_primary):
        builder.primary(names[i], int(problem.lo[i]), int(problem.hi[i]))
    for name in names[problem.n_primary:]:
        builder.secondary(name)
    for group in groups:
        builder.primary(("open", group))
    for k in range(problem.n_options):  # colours keep their numbers (0: none)
        option = problem.option(k)
        builder.option([names[i] for i, _ in option], problem.labels[k],
                       [c or None for _, c in option])
    holes: dict[int, tuple[Cell, ...]] = {}
    for group in groups:
        for label, cells in labels.groups[group].items():
            holes[problem.n_options + len(holes)] = cells
            builder.option([("open", group)] + [("cell", *c) for c in cells],
                           ("open", group, label))
    extended = builder.build()
    job = Job(extended, Mode.SOLUTIONS, limit=TALLY_MOST + 1)
    tally: dict[tuple[Cell, ...], int] = {}
    for n, chosen in enumerate(each_solution(resolve(job, engine).start(job))):
        if n == TALLY_MOST:
            return None  # too many to list one by one: a counting engine per combination
        opened = tuple(sorted(c for k in chosen if k in holes for c in holes[k]))
        tally[opened] = tally.get(opened, 0) + 1
    return tally


def _from_tally(
    puzzle: PolyominoPuzzle, cells: tuple[Cell, ...], solutions: int, engine: str
) -> SweepResult | None:
    """The answer for the board with ``cells`` open, given its number of solutions: none
    has a proof's reason where one settles it; a board that no map of the grid but the
    identity keeps has as many distinct solutions as solutions. None: a board with a
    symmetry, counted alone (its distinct count needs its own group)."""
    if solutions == 0:
        proved = _solve_one(puzzle, cells, True, engine, search=False)
        return proved if proved is not None else SweepResult(cells, False, 0, 0)
    board = {cell: "#" for cell in puzzle.board if cell not in set(cells)}
    lattice = _lattice(puzzle)
    home = lattice.normalize(board)
    for turn in lattice.group()[1:]:
        if lattice.normalize({turn(cell): "#" for cell in board}) == home:
            return None
    return SweepResult(cells, True, solutions, solutions)


def _lattice(puzzle: PolyominoPuzzle) -> Lattice:
    return lattice_of(puzzle)


def label_sweep_report(
    puzzle: Puzzle,
    groups: tuple[str, ...] | None = None,
    engine: str = "auto",
    progress: Callable[[int, int], None] | None = None,
) -> LabelSweepReport:
    """Sweep ``puzzle`` over ``groups`` (None: the file's declared sweep)."""
    board = sweepable(puzzle)
    if groups is None:
        if board.labels is None or not board.labels.uncover:
            raise NoDeclaredSweep(f"{board.label}: the file declares no sweep ([sweep] uncover "
                                  "= [...]): name the groups to leave open")
        groups = board.labels.uncover
    results = list(label_sweep(board, groups, engine, progress))
    return LabelSweepReport(puzzle.name, puzzle.board_name, printable(puzzle.label), groups,
                            results)


def opened(puzzle: Puzzle, names: Sequence[str]) -> PolyominoPuzzle:
    """The puzzle with the cells of the named labels left open (its board without them):
    ``Jan`` names a label of whichever group has it, ``month=Jan`` one group's. What
    ``solve --open Jan,1`` solves: one date of the calendar."""
    board = sweepable(puzzle)
    labels = labels_of(board)
    gone: set[Cell] = set()
    for name in names:
        group, _, label = name.rpartition("=")
        if group and group not in labels.groups:
            raise LabelSweepError(f"{board.label}: no label group {group!r} (it has: "
                                  f"{', '.join(labels.groups)})")
        found = [g for g in ([group] if group else labels.groups) if label in labels.groups[g]]
        if not found:
            raise LabelSweepError(f"{board.label}: no label {label!r}"
                                  + (f" in group {group!r}" if group else ""))
        if len(found) > 1:
            raise LabelSweepError(f"{board.label}: label {label!r} is in groups "
                                  f"{', '.join(found)}: write group={label}")
        gone |= set(labels.groups[found[0]][label])
    for given in board.givens:
        if gone.intersection(given.cells):
            raise LabelSweepError(f"{board.label}: the given piece {given.piece} covers a "
                                  "cell to leave open")
    cells = {cell: color for cell, color in board.board.items() if cell not in gone}
    if not cells:
        raise LabelSweepError(f"{board.label}: that leaves no cell to cover")
    return _with_board(board, cells, " ".join(["open", *names]))
