"""Trying one design: the wanted rules in order of cost, each test only for designs that
passed the cheaper ones.

1. the proofs that place nothing or little (area, colouring, placement, regions): a design
   they refute costs milliseconds;
2. the labels (``every_label``): the file's sweep, every combination counted in one search
   (puzzles/labels.py), kept only when each has a solution;
3. uniqueness (``unique``): at most two solutions up to symmetry are asked for;
4. taking apart (``comes_apart``, ``level``, or a ranking by level, moves or assemblies):
   only for designs still in the running, each assembly (solution up to symmetry) slid apart
   under the file's ``[disassembly]`` rules;
5. a count up to symmetry only where the ranking needs it (``rank = "solutions"``).

With no rule at all, a design is kept when it has a solution. A design whose search is
refused (too big, hopeless, a take-apart past its state limit) is *undecided*: neither kept
nor dropped silently, the run's summary counts it and says why.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, fields
from typing import Any

from puzzlebox.designs.space import Design, DesignSpace, Wanted
from puzzlebox.disassembly.assemblies import Rules, disassemble_solution, level_key
from puzzlebox.disassembly.search import DEFAULT_MAX_STATES, Deadline
from puzzlebox.errors import PuzzleboxError
from puzzlebox.formats.errors import PuzzleFileError
from puzzlebox.geometry.lattice import Cell
from puzzlebox.puzzles import Puzzle, Solution
from puzzlebox.puzzles.labels import label_counts, label_sweep_report
from puzzlebox.run.limits import Limits, OutOfTime

# a map that mirrors a design: cells, and pieces to the pieces they become
Improper = tuple[Callable[[Cell], Cell], dict[str, str]]

DEFAULTS = Limits()  # the run layer's rules: refuse the hopeless, no time limit


@dataclass
class DesignResult:
    """What trying one design found. ``kept``: it has everything wanted; otherwise
    ``reason`` says what it lacks, or (``decided`` false) why it could not be told."""

    design: Design
    kept: bool
    reason: str | None = None
    decided: bool = True
    solutions: int | None = None  # up to symmetry, where counted (1 when unique)
    assemblies: int | None = None
    come_apart: int | None = None
    come_apart_mirrors: int | None = None  # a mirror image counted apart from its original
    level: str | None = None  # the highest level among the assemblies that come apart
    moves: int | None = None  # the moves of that assembly's disassembly
    labels_solvable: int | None = None
    labels_total: int | None = None
    hardest: dict[str, str] | None = None  # the combination with the fewest solutions
    hardest_solutions: int | None = None
    seconds: float = 0.0
    cpu: float = 0.0  # CPU seconds of the thread that tried it (wherever it ran)
    file: str | None = field(default=None, compare=False)  # where --out wrote it

    def to_json(self) -> dict[str, Any]:
        """The JSON the command line prints and the checkpoint keeps (docs/puzzle-format.md,
        "Design spaces")."""
        data = self.design.to_json()
        for f in fields(self):
            if f.name != "design":
                data[f.name] = getattr(self, f.name)
        data["seconds"] = round(self.seconds, 4)
        data["cpu"] = round(self.cpu, 4)
        return data

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> DesignResult:
        names = {f.name for f in fields(cls)} - {"design"}
        return cls(Design.from_json(data), **{k: data[k] for k in names if k in data})


def _rules(puzzle: Puzzle, limits: Limits | None) -> Rules:
    declared = getattr(puzzle, "disassembly", None)
    return Rules(fixed=frozenset(declared.fixed) if declared else frozenset(),
                 groups=tuple(frozenset(g) for g in declared.groups) if declared else (),
                 max_states=DEFAULT_MAX_STATES)


def evaluate(space: DesignSpace, design: Design, limits: Limits | None = DEFAULTS
             ) -> DesignResult:
    """Try ``design`` against the space's wanted rules (see the module's docstring).

    ``limits`` hold each search (the run layer's rules); :class:`OutOfTime` is raised, not
    recorded: the run that set the time ends there."""
    began, cpu = time.perf_counter(), time.thread_time()
    result = DesignResult(design, kept=False)
    try:
        _try(space, design, limits, result)
    except OutOfTime:
        raise
    except PuzzleFileError as error:  # a design that is no puzzle (no piece at all)
        result.reason = f"not a puzzle: {error.message}"
    except PuzzleboxError as error:  # refused: too big, hopeless, past the state limit
        result.kept, result.decided, result.reason = False, False, str(error)
    result.seconds = time.perf_counter() - began
    result.cpu = time.thread_time() - cpu
    return result


def _try(space: DesignSpace, design: Design, limits: Limits | None,
         result: DesignResult) -> None:
    wanted = space.wanted
    puzzle = space.puzzle_file(design).puzzles[0]
    proof = None if wanted.every_label else puzzle.impossibility()  # a sweep proves its own
    if proof is not None:
        result.solutions, result.reason = 0, f"no solution: {proof}"
        return
    if wanted.every_label and not _judge_labels(puzzle, result):
        return
    found = None
    if wanted.unique:
        found = list(puzzle.distinct_solutions(limit=2, limits=limits))
        if len(found) != 1:
            result.solutions = len(found)
            result.reason = ("no solution" if not found
                             else "more than one solution up to symmetry")
            return
        result.solutions = 1
    if wanted.takes_apart:
        assemblies = found if found is not None else list(
            puzzle.distinct_solutions(limits=limits))
        if not judge_assemblies(puzzle, assemblies, wanted, result, limits):
            return
    if "solutions" in wanted.rank and result.solutions is None:
        result.solutions = puzzle.count(limits=limits).distinct
    if (result.solutions is None and result.labels_total is None
            and puzzle.solve(limits=limits) is None):
        result.solutions, result.reason = 0, "no solution"
        return
    if result.solutions == 0:
        result.reason = "no solution"
        return
    result.kept = True


def _order(name: str, result: DesignResult) -> tuple[int, Any]:
    """One ranking's value, to sort ascending: (0, value) known, (1, None) unknown."""
    value: Any
    if name == "level":
        value = None if result.level is None else _Descending(level_key(result.level))
    elif name == "moves":
        value = None if result.moves is None else -result.moves
    elif name == "hardest-label":
        value = result.hardest_solutions
    elif name == "solutions":
        value = result.solutions
    else:
        value = result.assemblies
    return (1, None) if value is None else (0, value)


class _Descending:
    """A level that sorts highest first (levels compare number by number, and 5.2 is
    higher than 5, so negating the numbers would not do)."""

    def __init__(self, key: tuple[int, ...]) -> None:
        self.key = key

    def __lt__(self, other: _Descending) -> bool:
        return self.key > other.key

    def __eq__(self, other: object) -> bool:
        return isinstance(other, _Descending) and self.key == other.key

    def __hash__(self) -> int:
        return hash(self.key)


def _judge_labels(puzzle: Puzzle, result: DesignResult) -> bool:
    """Every combination of the declared sweep counted in one search (its solutions as
    placed; the full sweep, with a proof for each combination that has none, where the one
    search does not apply); False, with the first combination that has no solution, where
    one has none."""
    counts = label_counts(puzzle)
    if counts is None:
        counts = [(answer.labels, answer.result.solutions or 0)
                  for answer in label_sweep_report(puzzle).results]
    result.labels_total = len(counts)
    unsolvable = [labels for labels, n in counts if n == 0]
    result.labels_solvable = len(counts) - len(unsolvable)
    if unsolvable:
        result.reason = (f"{len(unsolvable)} of {len(counts)} label combinations have no "
                         f"solution (the first: {' '.join(unsolvable[0].values())})")
        return False
    if counts:
        hardest, fewest = min(counts, key=lambda entry: entry[1])
        result.hardest, result.hardest_solutions = dict(hardest), fewest
    return True


def judge_assemblies(puzzle: Puzzle, assemblies: Sequence[Solution], wanted: Wanted,
                     result: DesignResult, limits: Limits | None,
                     mirrors: Callable[[Solution], list[Improper]] | None = None) -> bool:
    """Take each assembly apart and record what came of it in ``result``: how many come
    apart (and how many with a mirror image counted apart: ``mirrors(assembly)`` gives the
    maps that mirror its own design, by default the puzzle's), the highest level and its
    moves (only where a rule or ranking asks for taking apart: else the assemblies are only
    counted). False (with the reason) where the wanted rules drop the design."""
    if not wanted.takes_apart:
        result.solutions = len(assemblies)
        if not assemblies:
            result.reason = "no solution"
            return False
        if wanted.unique and len(assemblies) != 1:
            result.reason = "more than one solution up to symmetry"
            return False
        return True
    rules = _rules(puzzle, limits)
    # the run layer's limits, as every door's take-apart (#35): its time one deadline for
    # all the assemblies of the design, its memory each take-apart's
    deadline = None if limits is None or limits.time is None else Deadline.after(limits.time)
    best: tuple[tuple[int, ...], int, str] | None = None
    apart = mirrored = 0
    own = improper_maps(puzzle) if mirrors is None else []
    for number, solution in enumerate(assemblies, 1):
        improper = own if mirrors is None else mirrors(solution)
        done = disassemble_solution(puzzle, solution, rules,  # type: ignore[arg-type]
                                    f"{puzzle.name}: assembly {number}", limits, deadline)
        if done.separation is None or done.level is None:
            continue
        apart += 1
        mirrored += 1 if any(_fixes(m, solution) for m in improper) else 2
        key = (level_key(done.level), done.separation.total_moves, done.level)
        if best is None or key[:2] > best[:2]:
            best = key
    result.assemblies, result.come_apart = len(assemblies), apart
    result.come_apart_mirrors = mirrored
    if best is not None:
        result.level, result.moves = best[2], best[1]
    if not assemblies:
        result.solutions, result.reason = 0, "no solution"
        return False
    if wanted.comes_apart and not apart:
        result.reason = f"none of its {len(assemblies)} assemblies comes apart"
        return False
    if wanted.level is not None and (best is None or best[0] < wanted.level):
        target = ".".join(map(str, wanted.level))
        result.reason = (f"no assembly comes apart at level {target} or higher"
                         + (f" (the highest: {best[2]})" if best else ""))
        return False
    if wanted.unique and len(assemblies) != 1:
        result.solutions = len(assemblies)
        result.reason = "more than one solution up to symmetry"
        return False
    if result.solutions is None:
        result.solutions = len(assemblies)
    return True


def improper_maps(puzzle: Puzzle) -> list[Improper]:
    """The puzzle's symmetries that turn it into its mirror image, as maps of placements:
    an assembly that one of them maps onto itself is its own mirror image (counted once
    where mirror images are counted apart; any other twice: it and its mirror)."""
    found = getattr(puzzle, "grid_symmetries", None)
    if found is None:
        return []
    maps: list[Improper] = []
    for turn, shift, goes in found():
        if turn.proper:
            continue

        def cell_map(cell: Cell, turn: Any = turn, shift: Cell = shift) -> Cell:
            return tuple(v + d for v, d in zip(turn(cell), shift, strict=True))

        maps.append((cell_map, goes))
    return maps


def _fixes(improper: Improper, solution: Solution) -> bool:
    cell_map, goes = improper
    placed = getattr(solution, "placements", ())
    here = {(p.piece, frozenset(p.cells)) for p in placed}
    return all((goes.get(p.piece, p.piece), frozenset(map(cell_map, p.cells))) in here
               for p in placed)


def rank_key(wanted_rank: tuple[str, ...], result: DesignResult) -> tuple[Any, ...]:
    """How kept designs are ordered: each ranking of ``wanted_rank`` in turn (unknown values
    last), then the design's index."""
    return (*(_order(name, result) for name in wanted_rank), result.design.index)
