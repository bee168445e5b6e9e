"""Report objects and their formatters, the one error root, and a library that speaks no
command line."""

from __future__ import annotations

import ast
import json
from pathlib import Path

import pytest

import puzzlebox
from puzzlebox import catalog
from puzzlebox.cli import main
from puzzlebox.cli.common import error_line
from puzzlebox.engine.stats import SearchStats
from puzzlebox.errors import PuzzleboxError
from puzzlebox.puzzles import CountResult
from puzzlebox.render.json_out import count_json, estimate_json, order_json, sweep_json
from puzzlebox.render.report_text import count_text, estimate_text, order_text, sweep_text
from puzzlebox.reports import CountReport, OrderReport, label
from puzzlebox.run.reports import count_report, estimate_report, sweep_report, why

DATA = Path(__file__).parent / "data"
SRC = Path(puzzlebox.__file__).parent


def test_label_names_the_board_of_a_batch_only():
    assert label(puzzlebox.load("queens-8")) == "queens-8"
    boards = puzzlebox.load_file("black-and-white").puzzles
    assert [label(p) for p in boards[:2]] == ["black-and-white grid01", "black-and-white grid02"]


def test_count_report_json_has_the_contract_fields_in_order():
    puzzle = puzzlebox.load("queens-8")
    result = puzzle.count()
    obj = json.loads(count_json(count_report(puzzle, result)))
    assert list(obj) == ["puzzle", "solutions", "distinct", "seconds", "nodes", "engine"]
    assert (obj["puzzle"], obj["solutions"], obj["distinct"]) == ("queens-8", 92, 12)
    assert obj["nodes"] == result.stats.nodes > 0
    board = puzzlebox.load_file("black-and-white").puzzles[2]
    obj = json.loads(count_json(count_report(board, board.count())))
    assert list(obj)[:3] == ["puzzle", "board", "solutions"] and obj["board"] == "grid03"


def test_count_json_names_a_lattice_other_than_square(tmp_path, capsys):
    """``count --json`` says which lattice the board stands on, as ``solve --json`` does:
    after ``puzzle`` (and ``board``) on triangle, hexagon and cube, and never on square."""
    grids = {"triangle": '"##"', "hexagon": '"##"', "cube": '["#", "#"]', "square": '"##"'}
    for lattice, grid in grids.items():
        path = tmp_path / f"{lattice}.toml"
        path.write_text(f'lattice = "{lattice}"\n[board]\ngrid = {grid}\n[pieces]\n'
                        'D = { shape = "#", count = 2 }\n')
        assert main(["count", str(path), "--json"]) == 0
        obj = json.loads(capsys.readouterr().out)
        assert obj["solutions"] == 1
        if lattice == "square":
            assert "lattice" not in obj
        else:
            assert list(obj)[:3] == ["puzzle", "lattice", "solutions"]
            assert obj["lattice"] == lattice
    assert "lattice" not in json.loads(
        count_json(count_report(puzzlebox.load("queens-8"), puzzlebox.load("queens-8").count())))


def test_count_text_of_whole_split_and_interrupted_counts():
    result = CountResult(92, 12, 0.25, SearchStats(engine="compiled", nodes=700))
    whole = CountReport("queens-8", None, "queens-8", result)
    assert count_text(whole) == [
        "queens-8: 92 solutions, 12 distinct up to symmetry (0.250 s, 700 nodes)"]
    split = CountReport("queens-8", None, "queens-8", result, done=4, total=4)
    assert count_text(split)[0].endswith("(0.250 s, 700 nodes, 4 subproblems)")
    assert json.loads(count_json(split))["partial"] is False
    stopped = CountReport("queens-8", None, "queens-8", result, done=2, total=4,
                          interrupted=True)
    assert count_text(stopped) == ["queens-8: 92 solutions, 12 distinct up to symmetry so far "
                                   "(partial: 2 of 4 subproblems)"]
    obj = json.loads(count_json(stopped))
    assert (obj["partial"], obj["done"], obj["total"]) == (True, 2, 4)
    # #38 item 6: a split count says how many processes counted it
    from puzzlebox.reports import SplitCountResult

    shared = SplitCountResult(92, 12, 0.25, SearchStats(engine="compiled", nodes=700),
                              done=4, total=4, workers=2)
    two = CountReport("queens-8", None, "queens-8", shared, done=4, total=4)
    assert count_text(two)[0].endswith("(0.250 s, 700 nodes, 4 subproblems on 2 processes)")
    assert json.loads(count_json(two))["workers"] == 2


def test_why_names_the_proof_or_the_search():
    mutilated = catalog.load_file(DATA / "mutilated-chessboard.toml").puzzles[0]
    proved = why(mutilated, 0, SearchStats())
    assert proved.argument == "checkerboard"
    assert proved.sentence.startswith("proved before search by the checkerboard argument: ")
    queens = puzzlebox.load("queens-8")
    assert why(queens, 0, SearchStats(nodes=9)).sentence == (
        "searched exhaustively: no solution (9 nodes)")
    plain = why(queens, 1, SearchStats(engine="compiled", nodes=5))
    assert (plain.argument, plain.sentence) == (
        "search", "found by search (5 nodes, compiled engine)")
    hedged = why(queens, 1, SearchStats(engine="restarts(compiled)", nodes=5))
    assert hedged.sentence.startswith("found by search with restarts (5 nodes")
    result = CountResult(0, 0, 0.0, SearchStats(), "the reason")
    report = CountReport("m", None, "m", result, why=proved)
    assert count_text(report)[1] == f"  why: {proved.sentence}"  # why replaces "impossible"
    assert json.loads(count_json(report))["why"] == "checkerboard"
    assert count_text(CountReport("m", None, "m", result))[1] == "  impossible: the reason"


def test_estimate_report_of_a_search_and_of_a_proof():
    report = estimate_report(puzzlebox.load("queens-8"), probes=50, seed=0)
    obj = json.loads(estimate_json(report))
    assert list(obj) == ["puzzle", "nodes", "nodes_error", "tree_solutions",
                         "tree_solutions_error", "tree_solutions_estimated", "solution_probes",
                         "tree_exact", "probes", "nodes_per_second", "seconds",
                         "searched_nodes"]
    # the symmetry-cut tree of 8-queens is small enough to be searched once, exactly
    assert obj["tree_exact"] and obj["tree_solutions_estimated"] and obj["probes"] == 1
    assert obj["nodes"] == obj["searched_nodes"] > 0 and obj["nodes_per_second"] > 0
    assert estimate_text(report)[0].startswith("queens-8: about ")
    mutilated = catalog.load_file(DATA / "mutilated-chessboard.toml").puzzles[0]
    proof = estimate_report(mutilated)
    obj = json.loads(estimate_json(proof))
    assert obj["nodes"] == 0 and "30 dark and 32 light" in obj["reason"]
    assert estimate_text(proof) == [f"mutilated-chessboard: no search needed: {obj['reason']}"]


def test_sweep_report_formats_every_choice():
    report = sweep_report(puzzlebox.load("blocks-3x3"), 1)
    assert report.choices == len(report.results) == 8 and report.solvable == 0
    lines = sweep_json(report)
    assert len(lines) == 8
    assert all(len(json.loads(line)["uncovered"]) == 1 for line in lines)
    text = sweep_text(report)
    assert text[0].startswith("blocks-3x3 hole-2-0: 8 choices of 1 uncovered cell, 0 solvable")
    with pytest.raises(PuzzleboxError, match="sweep works on polyomino boards, not queens"):
        sweep_report(puzzlebox.load("queens-8"), 1)


def test_order_report_of_the_y_pentomino():
    from puzzlebox.puzzles.order import parse_shape, polyomino_order

    result = polyomino_order(parse_shape("Y"), 60)
    obj = json.loads(order_json(OrderReport(result)))
    assert (obj["order"], obj["rows"], obj["cols"], obj["max_area"]) == (10, 5, 10, 60)
    cells = sorted(tuple(c) for p in obj["placements"] for c in p["cells"])
    assert cells == [(r, c) for r in range(5) for c in range(10)]
    assert "tried" not in obj
    tried = json.loads(order_json(OrderReport(result, tried=True)))["tried"]
    assert tried[-1] == {"rows": 5, "cols": 10, "tiled": True, "how": "search",
                         "detail": tried[-1]["detail"]}
    assert not any(t["tiled"] for t in tried[:-1])
    text = order_text(OrderReport(result, tried=True))
    assert text[:3] == ["####", ".#..", "order 10: 10 copies tile a 5x10 rectangle"]
    assert len(text) == 3 + len(tried) + 6  # the tiling outlined: a top line and 5 rows


def test_terminal_colours_come_from_the_pictures_palette():
    from puzzlebox.render.palette import piece_color
    from puzzlebox.render.terminal import colored_solution
    from puzzlebox.render.text import solution_lines

    puzzle = puzzlebox.load("pentomino-3x20")
    solution = puzzle.solve()
    assert solution is not None
    text = colored_solution(puzzle, solution)
    assert text is not None
    assert text.plain == "\n".join(solution_lines(puzzle, solution)) + "\n"
    fills = {str(span.style).split(" on ")[1] for span in text.spans}
    assert fills == {piece_color(i) for i in range(12)}  # one colour per placed piece
    queens = puzzlebox.load("queens-5")
    assert colored_solution(queens, queens.solve()) is None


def test_every_user_facing_error_has_the_one_root():
    from puzzlebox.catalog import UnknownPuzzle
    from puzzlebox.engine.errors import EngineError
    from puzzlebox.engine.memo import MemoDeclined, MemoTooLarge
    from puzzlebox.formats import PuzzleFileError
    from puzzlebox.parallel.errors import (
        CheckpointError,
        ClusterUnavailable,
        SplitError,
        SplitOptionError,
        TaskError,
    )
    from puzzlebox.puzzles.order import ShapeError
    from puzzlebox.puzzles.sweep import SweepError
    from puzzlebox.render.drawing import PicturesUnavailable

    statuses = {PuzzleFileError: 2, UnknownPuzzle: 2, EngineError: 2, MemoDeclined: 2,
                MemoTooLarge: 2, SplitError: 1, TaskError: 1, CheckpointError: 2,
                ClusterUnavailable: 2, SplitOptionError: 2, ShapeError: 2, SweepError: 2,
                PicturesUnavailable: 2}
    for kind, status in statuses.items():
        assert issubclass(kind, PuzzleboxError), kind
        assert kind.exit_status == status, kind


def test_main_prints_one_line_with_the_command_lines_hint(capsys):
    from puzzlebox.catalog import UnknownPuzzle
    from puzzlebox.parallel.errors import TaskError

    assert error_line(UnknownPuzzle("x", None, "no such file or catalog puzzle")) == (
        "puzzlebox: x: no such file or catalog puzzle (see 'puzzlebox list')")
    assert error_line(TaskError("subproblem 3 failed")) == "puzzlebox: subproblem 3 failed"
    assert main(["sweep", "queens-8", "--uncover", "1"]) == 2
    assert main(["order", "#.#"]) == 2
    err = capsys.readouterr().err.splitlines()
    assert len(err) == 2 and all(line.startswith("puzzlebox: ") for line in err)
    assert "not queens" in err[0]


def _raised_strings(path: Path) -> list[str]:
    """The string parts of every message a module raises."""
    found = []
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Raise) and node.exc is not None:
            for part in ast.walk(node.exc):
                if isinstance(part, ast.Constant) and isinstance(part.value, str):
                    found.append(part.value)
    return found


def test_the_library_names_no_command_line_flag_in_its_errors():
    import re

    flag = re.compile(r"(^|[\s'\"(])--[a-z]|puzzlebox (list|count|solve|show)\b")
    offenders = [
        (str(path.relative_to(SRC)), text)
        for path in sorted(SRC.rglob("*.py"))
        # the doors: the command line (its flags) and the page (its own limits and words)
        if not {"cli", "web"} & set(path.relative_to(SRC).parts)
        for text in _raised_strings(path)
        if flag.search(text)
    ]
    assert offenders == []


def test_main_exits_with_each_errors_own_status(monkeypatch, capsys, tmp_path):
    from puzzlebox.cli import show
    from puzzlebox.parallel.errors import CheckpointError, TaskError

    def raising(error: BaseException):
        def command(args):
            raise error

        return command

    for error, status in ((TaskError("subproblem 1 failed"), 1),
                          (CheckpointError("c.json: not a checkpoint"), 2),
                          (KeyboardInterrupt(), 130), (BrokenPipeError(), 0)):
        monkeypatch.setattr(show, "cmd_list", raising(error))
        assert main(["list"]) == status
    err = capsys.readouterr().err.splitlines()
    assert err == ["puzzlebox: subproblem 1 failed", "puzzlebox: c.json: not a checkpoint",
                   "puzzlebox: interrupted"]
    monkeypatch.undo()
    out = tmp_path / "no-such-folder" / "em.toml"
    assert main(["generate", "edge-matching", "--size", "2", "--out", str(out)]) == 2
    (line,) = capsys.readouterr().err.splitlines()
    assert line.startswith(f"puzzlebox: cannot write {out}: ")


def test_a_count_shows_itself_in_a_notebook_as_its_sentence_and_a_small_table():
    """Issue #38: a CountResult showed in Jupyter as a long dataclass repr. IPython's pretty
    printer gives its sentence, Jupyter a small table captioned with it (text escaped)."""
    from IPython.lib.pretty import pretty

    from puzzlebox.reports import SplitCountResult

    result = CountResult(92, 12, 0.25, SearchStats(engine="compiled", nodes=700))
    assert pretty(result) == str(result) == "92 solutions, 12 distinct (compiled engine, 0.2 s)"
    html = result._repr_html_()
    assert html.startswith(f"<table><caption>{result}</caption>")
    cells = [part.split(">")[-1] for part in html.split("</td>")[:-1]]
    assert cells == ["92", "12", "compiled", "700", "0.25"]
    none = CountResult(0, 0, 0.0, SearchStats(), "area <20> & more")
    assert pretty(none) == "0 solutions: area <20> & more"
    assert "<caption>0 solutions: area &lt;20&gt; &amp; more</caption>" in none._repr_html_()
    split = SplitCountResult(40, 10, 1.0, SearchStats(engine="compiled"), done=3, total=8)
    assert pretty(split) == str(split) and "partial: 3 of 8 subproblems" in pretty(split)
    assert "<td style=\"text-align: left\">3 of 8 done</td>" in split._repr_html_()
