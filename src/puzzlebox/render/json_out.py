"""The ``--json`` output, exactly as docs/puzzle-format.md (the contract) writes it.

One pure function per answer: a solution, and each report of puzzlebox.reports. Each
returns one line of JSON; the fields and their order are the contract's and today's.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

from puzzlebox.render.drawable import Drawable, Placed

if TYPE_CHECKING:
    from puzzlebox.reports import (
        CountReport,
        EstimateReport,
        LabelSweepReport,
        OrderReport,
        SweepReport,
    )


def _with_board(obj: dict[str, Any], puzzle: Drawable) -> dict[str, Any]:
    board = puzzle.board_name
    if board is not None:
        obj["board"] = board
    return obj


def solution_json(puzzle: Drawable, solution: Placed) -> str:
    """``{"puzzle", ["board"], ["lattice"], "placements"}``: ``lattice`` for a puzzle on a
    lattice other than square, which says what the placements' coordinates are."""
    obj = _with_board({"puzzle": puzzle.name}, puzzle)
    lattice = getattr(puzzle, "lattice", None)
    if lattice is not None and lattice.name != "square":
        obj["lattice"] = lattice.name
    obj["placements"] = solution.placements_json()
    return json.dumps(obj)


def count_json(report: CountReport) -> str:
    """``{"puzzle", ["board"], ["lattice"], "solutions", "distinct", "seconds", "nodes",
    "engine", ["reason"], ["partial", "done", "total", "workers"] (split counts), ["why"]}``:
    ``lattice`` for a puzzle on a lattice other than square, as in :func:`solution_json`."""
    result = report.result
    obj: dict[str, Any] = {"puzzle": report.puzzle}
    if report.board is not None:
        obj["board"] = report.board
    if report.lattice not in (None, "square"):
        obj["lattice"] = report.lattice
    obj.update(
        solutions=result.solutions,
        distinct=result.distinct,
        seconds=round(result.seconds, 4),
        nodes=result.stats.nodes,
        engine=result.stats.engine or None,
    )
    if result.reason:
        obj["reason"] = result.reason
    if report.split or report.interrupted:
        obj.update(partial=report.partial, done=report.done, total=report.total)
        workers = getattr(result, "workers", 0)
        if workers:
            obj["workers"] = workers  # the processes that counted its subproblems
    if report.why is not None:
        obj["why"] = report.why.argument
    return json.dumps(obj)


def estimate_json(report: EstimateReport) -> str:
    """The estimate's numbers, or ``{"puzzle", "nodes": 0, "reason"}`` when none is needed."""
    est = report.estimate
    if report.reason is not None or est is None:
        return json.dumps({"puzzle": report.puzzle, "nodes": 0, "reason": report.reason})
    obj: dict[str, Any] = {
        "puzzle": report.puzzle,
        "nodes": round(est.nodes, 1),
        "nodes_error": round(est.nodes_error, 1),
        "tree_solutions": round(est.solutions, 1),
        "tree_solutions_error": round(est.solutions_error, 1),
        "tree_solutions_estimated": est.solutions_estimated,
        "solution_probes": est.solution_probes,
        "tree_exact": est.exact,
        "probes": est.probes,
        "nodes_per_second": round(report.nodes_per_second),
        "seconds": float(f"{report.seconds:.3g}"),
        "searched_nodes": report.searched_nodes,
    }
    if report.board is not None:
        obj["board"] = report.board
    return json.dumps(obj)


def sweep_json(report: SweepReport) -> list[str]:
    """One object per choice, with the uncovered cells as ``[[row, col], ...]``."""
    lines = []
    for r in report.results:
        obj: dict[str, Any] = {"puzzle": report.puzzle}
        if report.board is not None:
            obj["board"] = report.board
        obj["uncovered"] = [list(cell) for cell in r.uncovered]
        obj["solvable"] = r.solvable
        if report.counted:
            obj.update(solutions=r.solutions, distinct=r.distinct)
        if r.reason:
            obj.update(proof=r.proof, reason=r.reason)
        lines.append(json.dumps(obj))
    return lines


def label_sweep_json(report: LabelSweepReport) -> list[str]:
    """One object per combination of labels: ``{"puzzle", ["board"], "labels": {group:
    label}, "uncovered", "solvable", "solutions", "distinct", ["proof", "reason"]}``."""
    lines = []
    for one in report.results:
        r = one.result
        obj: dict[str, Any] = {"puzzle": report.puzzle}
        if report.board is not None:
            obj["board"] = report.board
        obj["labels"] = dict(one.labels)
        obj["uncovered"] = [list(cell) for cell in r.uncovered]
        obj.update(solvable=r.solvable, solutions=r.solutions, distinct=r.distinct)
        if r.reason:
            obj.update(proof=r.proof, reason=r.reason)
        lines.append(json.dumps(obj))
    return lines


def order_json(report: OrderReport) -> str:
    """``{"shape", "order", "max_area", ["rows", "cols", "placements"], ["tried"]}``; on a
    lattice other than square also ``"lattice"``, and ``"layers"`` on cube (the rows and
    columns are then each layer's)."""
    result = report.result
    shape = result.shape.to_text().replace("\n\n", "|").replace("\n", "/")  # layers: |
    obj: dict[str, Any] = {"shape": shape,
                           "order": result.order, "max_area": result.max_area}
    if result.lattice.name != "square":
        obj["lattice"] = result.lattice.name
        if result.region is not None:
            obj["region"] = result.region.label
    if result.puzzle is not None and result.solution is not None:
        board = result.puzzle.board

        def extent(i: int) -> int:
            return 1 + max(cell[i] for cell in board) - min(cell[i] for cell in board)

        rows, cols = extent(-2), extent(-1)
        if result.puzzle.lattice.dimensions == 3:
            obj["layers"] = extent(0)
        obj.update(rows=rows, cols=cols, placements=result.solution.placements_json())
    if report.tried:
        obj["tried"] = [{**({"layers": a.dims[0]} if len(a.dims) == 3 else {}),
                         "rows": a.rows, "cols": a.cols, "tiled": a.tiled, "how": a.how,
                         "detail": a.detail} for a in result.attempts]
    return json.dumps(obj)
