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
    assert "cut down by its symmetry breaking" in err and "--engine auto" in err
    code, out, err = run(capsys, "solve", "cards-3x3-corrected", "--engine", "edges",
                         "--distinct", "--all")  # the same search of a cut-down problem
    assert code == 2 and out == "" and err.count("\n") == 1, err
    assert "edge-matching puzzles only" not in err and "cut down by" in err


def test_the_memo_engine_names_optional_cells_not_colours(capsys):
    code, out, err = run(capsys, "count", "framed-slack", "--engine", "memo")
    assert code == 2 and out == "" and err.count("\n") == 1, err
    assert "colour" not in err
    assert ("memo: it sweeps items that are covered exactly once, and this problem has 9 "
            "that may stay uncovered (cell 1,1, cell 1,2, cell 1,3, ...)") in err


def test_a_sweep_tells_a_long_shared_reason_once(tmp_path, capsys):
    """366 dates that share one proof printed it 366 times; now once, each line refers."""
    from puzzlebox.catalog import catalog_dir

    text = (catalog_dir() / "calendar.toml").read_text()
    path = tmp_path / "calendar-plus-one.toml"
    path.write_text(text.replace('L = "####/#..."', 'L = "####/#..."\nM = "#"'))
    code, out, err = run(capsys, "sweep", path)
    assert code == 0, err
    lines = out.splitlines()
    proof = "the board has 41 cells, which is not a sum of the pieces' areas"
    assert out.count(proof) == 1 and lines[1].startswith(
        f"  [1] for 366 combinations, area: {proof}"), lines[:2]
    assert len(lines) == 2 + 366 and all(
        line.endswith("0 solutions, 0 distinct (area: see [1])") for line in lines[2:])
    code, out, _ = run(capsys, "sweep", path, "--json")  # the contract: each in full
    assert code == 0 and out.count(proof) == 366 and "see [" not in out


def test_a_grid_error_names_the_row_from_0_at_its_own_line(tmp_path, capsys):
    """The row as the contract counts it (from 0, blank lines above the grid not counted),
    at the file's line of that row; at the key's line where the string's escapes make the
    file's lines and the grid's differ."""
    cases = {
        'grid = """\n\n####\n#\t##\n"""': ":6: board.grid: a tab (U+0009) at row 1, column 1",
        "grid = '''\n####\n##\t#\n'''": ":5: board.grid: a tab (U+0009) at row 1, column 2",
        'grid = """####\n\t###\n"""': ":4: board.grid: a tab (U+0009) at row 1, column 0",
        'grid = "####\\n#\\t##"': ":3: board.grid: a tab (U+0009) at row 1, column 1",
        'grid = """\\\n####\n#\t##\n"""': ":3: board.grid: a tab (U+0009) at row 1, column 1",
    }
    for grid, expected in cases.items():
        path = tmp_path / "grid.toml"
        path.write_text(f'kind = "polyomino"\n[board]\n{grid}\n[pieces]\nO = "##/##"\n')
        code, out, err = run(capsys, "show", path)
        assert code == 2 and out == "" and err.count("\n") == 1, err
        assert err.startswith(f"puzzlebox: {path}{expected} of the grid (counted from 0)"), \
            (grid, err)
