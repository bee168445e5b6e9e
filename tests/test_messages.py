"""Messages that said something untrue (#38 item 9): each refusal gives its real reason."""

from __future__ import annotations

from puzzlebox.cli import main


def run(capsys, *argv):
    code = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return code, out, err


def test_the_edges_engine_says_why_it_does_not_count_an_edge_matching_puzzle(capsys):
    code, out, err = run(capsys, "count", "cards-3x3", "--engine", "edges")
    assert code == 2 and out == "" and err.count("\n") == 1, err
    assert "edge-matching puzzles only" not in err  # cards-3x3 is one
    assert "the parts of its symmetry breaking" in err and "--engine auto" in err


def test_the_memo_engine_names_optional_cells_not_colours(capsys):
    code, out, err = run(capsys, "count", "framed-slack", "--engine", "memo")
    assert code == 2 and out == "" and err.count("\n") == 1, err
    assert "colour" not in err
    assert ("memo: it sweeps items that are covered exactly once, and this problem has 9 "
            "that may stay uncovered (cell 1,1, cell 1,2, cell 1,3, ...)") in err
