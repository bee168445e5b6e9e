"""The unit of work a worker runs, as plain data, and the worker side that runs it.

A task carries the puzzle's file text (never a pickled puzzle: a worker rebuilds the puzzle
by reading the text, exactly as the command line does, and keeps it for the next task), the
board, the engine, one subproblem and the fingerprint of the problem the client split. A
worker whose rebuilt problem has another fingerprint (another version of puzzlebox, a file
changed on the way) refuses the task instead of counting something else.
"""

from __future__ import annotations

import hashlib
import json
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from puzzlebox.cover.problem import CoverProblem
from puzzlebox.formats import PuzzleFile
from puzzlebox.puzzles import Puzzle

COUNT = "count"
SOLUTIONS = "solutions"


@dataclass(frozen=True)
class PuzzleSource:
    """The text of a puzzle file and the names it was read under: what workers rebuild from."""

    text: str
    source: str  # the path, as errors name it
    name: str  # the puzzle's name (the catalog name or the file's stem)

    @classmethod
    def of(cls, pf: PuzzleFile) -> PuzzleSource:
        """The source of a file already read (catalog entries and user files alike)."""
        text = Path(pf.source).read_bytes().decode("utf-8")
        return cls(text, pf.source, pf.name)

    def read(self) -> PuzzleFile:
        from puzzlebox.formats.reader import read_text

        return read_text(self.text, self.source, self.name)

    @property
    def digest(self) -> str:
        return hashlib.sha256(self.text.encode("utf-8")).hexdigest()


def task_problem(puzzle: Puzzle, kind: str) -> CoverProblem:
    """The problem a task of this kind searches: a count may search a problem restricted by
    symmetry (``search_problem``); an enumeration needs every solution (``problem``)."""
    return puzzle.search_problem() if kind == COUNT else puzzle.problem


def problem_fingerprint(puzzle: Puzzle, kind: str = COUNT) -> str:
    """A hash of what the answer depends on: the problem searched, what its options mean and
    the puzzle's symmetries; not the file's comments or title, and not the engine."""
    problem = task_problem(puzzle, kind)
    h = hashlib.sha256()
    head = {
        "task": kind,
        "kind": puzzle.kind,
        "board": getattr(puzzle, "board_name", None),
        "n_primary": problem.n_primary,
        "n_items": problem.n_items,
        "symmetries": len(puzzle.symmetry_maps()),
    }
    h.update(json.dumps(head, sort_keys=True).encode())
    for array in (problem.lo, problem.hi, problem.start, problem.items, problem.colors):
        h.update(array.astype("<i8").tobytes())
        h.update(b"|")
    h.update(repr(problem.labels).encode())
    return h.hexdigest()


# (kind, source, board index, engine, forced, excluded, fingerprint)
Task = tuple[str, PuzzleSource, int, str, tuple[int, ...], tuple[int, ...], str]

_CACHE: dict[tuple[str, str, str], tuple[PuzzleFile, dict[tuple[int, str], str]]] = {}
_CACHE_SIZE = 4


class FingerprintMismatch(RuntimeError):
    """A worker built a different problem from the same file than the client did."""


def _puzzle(source: PuzzleSource, board: int, kind: str, fingerprint: str) -> Puzzle:
    key = (source.digest, source.source, source.name)
    if key not in _CACHE:
        if len(_CACHE) >= _CACHE_SIZE:
            _CACHE.pop(next(iter(_CACHE)))
        _CACHE[key] = (source.read(), {})
    pf, checked = _CACHE[key]
    puzzle = pf.puzzles[board]
    if (board, kind) not in checked:
        checked[board, kind] = problem_fingerprint(puzzle, kind)
    if checked[board, kind] != fingerprint:
        raise FingerprintMismatch(
            f"{source.source}: this worker builds another problem from the file than the "
            "client (is the same puzzlebox version installed everywhere?)"
        )
    return puzzle


def run_task(task: Task) -> tuple[Any, ...]:
    """Solve one subproblem. A count returns ``(raw, distinct, nodes, seconds, engine)``;
    an enumeration returns ``(raw, solutions, nodes, seconds, engine)`` with each solution a
    sorted tuple of option indices for the client to decode."""
    kind, source, board, engine, forced, excluded, fingerprint = task
    puzzle = _puzzle(source, board, kind, fingerprint)
    began = time.perf_counter()
    if kind == COUNT:
        raw, distinct, stats = puzzle.count_search(engine, forced, excluded)
        return raw, distinct, stats.nodes, time.perf_counter() - began, stats.engine
    if kind == SOLUTIONS:
        from puzzlebox.engine.registry import start
        from puzzlebox.engine.search import Job, each_solution

        job = Job(puzzle.problem, forced=tuple(forced), excluded=tuple(excluded))
        _, search = start(job, engine)
        found = list(each_solution(search))
        stats = search.stats
        return len(found), found, stats.nodes, time.perf_counter() - began, stats.engine
    raise ValueError(f"unknown task kind {kind!r}")
