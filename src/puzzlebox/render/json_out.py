"""The ``--json`` output, exactly as docs/puzzle-format.md (the contract) writes it."""

from __future__ import annotations

import json
from typing import Any

from puzzlebox.puzzles import CountResult, Puzzle, Solution


def _with_board(obj: dict[str, Any], puzzle: Puzzle) -> dict[str, Any]:
    board = getattr(puzzle, "board_name", None)
    if board is not None:
        obj["board"] = board
    return obj


def solution_json(puzzle: Puzzle, solution: Solution) -> str:
    obj = _with_board({"puzzle": puzzle.name}, puzzle)
    obj["placements"] = solution.placements_json()
    return json.dumps(obj)


def count_json(puzzle: Puzzle, result: CountResult, **extra: Any) -> str:
    obj = _with_board({"puzzle": puzzle.name}, puzzle)
    obj.update(
        solutions=result.solutions,
        distinct=result.distinct,
        seconds=round(result.seconds, 4),
        nodes=result.stats.nodes,
        engine=result.stats.engine or None,
    )
    if result.reason:
        obj["reason"] = result.reason
    obj.update(extra)
    return json.dumps(obj)
