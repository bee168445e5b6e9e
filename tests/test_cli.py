"""The command line, as a user meets it: list, show, solve, count, and the JSON contract."""

from __future__ import annotations

import json

import pytest

from puzzlebox import catalog
from puzzlebox.cli import main

PENTOMINOES_3X20 = """
title = "Pentominoes in a 3x20 rectangle"
[board]
grid = "####################/####################/####################"
[pieces]
F = ".##/##./.#."
I = "#####"
L = "####/#..."
N = "##../.###"
P = "##/##/#."
T = "###/.#./.#."
U = "#.#/###"
V = "#../#../###"
W = "#../##./.##"
X = ".#./###/.#."
Y = "####/.#.."
Z = "##./.#./.##"
"""


@pytest.fixture
def pent(tmp_path):
    path = tmp_path / "p3x20.toml"
    path.write_text(PENTOMINOES_3X20)
    return path


def run(capsys, *argv):
    code = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return code, out, err


def test_list_names_every_catalog_puzzle_with_a_title(capsys):
    code, out, _ = run(capsys, "list")
    assert code == 0
    lines = out.strip().splitlines()
    assert [line.split()[0] for line in lines] == catalog.names()
    assert all(len(line.split(maxsplit=1)) == 2 for line in lines)  # every one has a title


def test_count_json_contract(capsys, pent):
    code, out, _ = run(capsys, "count", pent, "--json")
    assert code == 0
    obj = json.loads(out)
    assert obj["puzzle"] == "p3x20"
    assert (obj["solutions"], obj["distinct"]) == (8, 2)
    assert isinstance(obj["seconds"], float)


def test_solve_json_contract_is_a_valid_tiling(capsys, pent):
    code, out, _ = run(capsys, "solve", pent, "--format", "json", "--limit", "3")
    assert code == 0
    lines = out.strip().splitlines()
    assert len(lines) == 3
    tilings = set()
    for line in lines:
        obj = json.loads(line)
        assert obj["puzzle"] == "p3x20"
        cells = [tuple(c) for p in obj["placements"] for c in p["cells"]]
        assert sorted(cells) == [(r, c) for r in range(3) for c in range(20)]
        assert sorted(p["piece"] for p in obj["placements"]) == sorted("FILNPTUVWXYZ")
        assert all(len(p["cells"]) == 5 for p in obj["placements"])
        tilings.add(line)
    assert len(tilings) == 3


def test_solve_all_gives_every_solution(capsys, pent):
    code, out, _ = run(capsys, "solve", pent, "--all", "--format", "json")
    assert code == 0 and len(out.strip().splitlines()) == 8


def test_text_and_outline(capsys, pent):
    code, out, _ = run(capsys, "solve", pent)
    assert code == 0
    grid = out.strip().splitlines()[1:]
    assert len(grid) == 3 and all(len(row) == 20 for row in grid)
    assert sorted("".join(grid)) == sorted("FILNPTUVWXYZ" * 5)
    code, out, _ = run(capsys, "solve", pent, "--format", "outline")
    drawing = out.strip("\n").splitlines()[1:]
    assert drawing[0].strip() == " ".join(["_"] * 20)
    assert len(drawing) == 4
    # 12 pieces: the closed regions of the drawing are counted by the walls inside
    assert all(row.startswith("|") and row.endswith("|") for row in drawing[1:])


def test_queens_json_placements(capsys, tmp_path):
    path = tmp_path / "q.toml"
    path.write_text('kind = "queens"\nn = 5\n')
    code, out, _ = run(capsys, "solve", path, "--format", "json")
    queens = json.loads(out)["placements"]
    assert len(queens) == 5 and set(queens[0]) == {"row", "col"}
    assert len({q["row"] for q in queens}) == len({q["col"] for q in queens}) == 5


def test_edge_matching_json_placements(capsys, tmp_path):
    path = tmp_path / "cards.toml"
    path.write_text(
        'kind = "edge-matching"\n[board]\nrows = 1\ncols = 2\n'
        '[cards]\na = "x y x x"\nb = "x x x z"\n[rules]\nrotate = false\n'
        "[rules.complements]\ny = \"z\"\n"
    )
    code, out, _ = run(capsys, "solve", path, "--all", "--format", "json")
    assert code == 0
    assert [json.loads(line)["placements"] for line in out.strip().splitlines()] == [
        [
            {"card": "a", "row": 0, "col": 0, "turns": 0},
            {"card": "b", "row": 0, "col": 1, "turns": 0},
        ]
    ]


def test_no_solution_is_not_an_error(capsys, tmp_path):
    path = tmp_path / "five.toml"
    path.write_text('[board]\ngrid = "#######"\n[pieces]\nD = { shape = "##", count = "any" }\n')
    code, out, err = run(capsys, "count", path, "--json")
    assert code == 0
    obj = json.loads(out)
    assert obj["solutions"] == 0 and obj["distinct"] == 0
    assert "7 cells" in obj["reason"]
    code, out, err = run(capsys, "solve", path)
    assert code == 0 and out == ""
    assert "no solution" in err and "7 cells" in err


def test_batch_prints_one_object_per_board(capsys, tmp_path):
    path = tmp_path / "batch.toml"
    path.write_text(
        '[[boards]]\nname = "wide"\ngrid = "####"\n'
        '[[boards]]\nname = "square"\ngrid = "##/##"\n'
        '[[boards]]\nname = "odd"\ngrid = "###"\n'
        '[pieces]\nD = { shape = "##", count = "any" }\n'
    )
    code, out, _ = run(capsys, "count", path, "--json")
    rows = [json.loads(line) for line in out.strip().splitlines()]
    assert [(r["board"], r["solutions"], r["distinct"]) for r in rows] == [
        ("wide", 1, 1),
        ("square", 2, 1),
        ("odd", 0, 0),
    ]


def test_help_on_every_command(capsys):
    for command in ["list", "show", "solve", "count"]:
        with pytest.raises(SystemExit) as stop:
            main([command, "--help"])
        assert stop.value.code == 0
        assert "usage: puzzlebox" in capsys.readouterr().out


def test_outline_help_says_what_it_prints_off_the_square_grid(capsys, tmp_path):
    """``--format outline`` draws boundaries only on squares; elsewhere it prints a letter
    per placement and a legend, and its help says so."""
    with pytest.raises(SystemExit):
        main(["solve", "--help"])
    said = " ".join(capsys.readouterr().out.split())
    assert ("outline: piece boundaries on the square grid, and on other lattices a letter per "
            "placement (copies of a piece told apart) with a legend under it;") in said
    path = tmp_path / "t.toml"
    path.write_text('lattice = "triangle"\n[board]\ngrid = "####"\n[pieces]\n'
                    'D = { shape = "##", count = 2 }\n')
    code, out, _ = run(capsys, "solve", path, "--format", "outline")
    assert code == 0 and out.splitlines()[1:4] == ["AABB", "", "A-B=D"]


def test_show_draws_board_and_pieces(capsys, pent):
    code, out, _ = run(capsys, "show", pent)
    assert code == 0
    assert "####################" in out and ".##" in out and "60 cells" in out


def test_solve_json_prints_the_objects_of_format_json(capsys):
    """Issue #16: ``solve --json`` was documented but rejected; it is --format json."""
    code, flag, _ = run(capsys, "solve", "queens-8", "--limit", "3", "--json")
    assert code == 0
    _, form, _ = run(capsys, "solve", "queens-8", "--limit", "3", "--format", "json")
    assert flag == form
    objects = [json.loads(line) for line in flag.splitlines()]
    assert len(objects) == 3 and all(o["puzzle"] == "queens-8" for o in objects)


def test_solve_json_refuses_another_format(capsys):
    code, out, err = run(capsys, "solve", "queens-8", "--json", "--format", "outline")
    assert code != 0 and out == ""
    assert "--json" in err


def test_one_solution_is_singular(capsys, tmp_path):
    """Issue #16: "1 solutions" read wrong; counts of one take the singular."""
    path = tmp_path / "one-queen.toml"
    path.write_text('kind = "queens"\nn = 1\n')
    code, out, _ = run(capsys, "count", path, "--why")
    assert code == 0
    assert out.startswith("one-queen: 1 solution, 1 distinct up to symmetry (")
    assert "1 solutions" not in out and " 1 nodes" not in out
    _, out, _ = run(capsys, "count", "queens-8")
    assert out.startswith("queens-8: 92 solutions, 12 distinct")


def test_list_titles_tell_every_puzzle_apart(capsys):
    """parallelogram-5 and -5-rotate once shared one title: no two catalog lines may."""
    _, out, _ = run(capsys, "list")
    titles = [line.split(maxsplit=1)[1] for line in out.splitlines()]
    assert len(set(titles)) == len(titles)


@pytest.mark.parametrize("argv, usage", [
    (["solve", "queens-8", "--bogus"], "usage: puzzlebox solve "),
    (["count", "queens-8", "--engine", "sink"], "usage: puzzlebox count "),
    (["generate", "edge-matching", "--bogus"], "usage: puzzlebox generate edge-matching "),
    (["list", "--bogus"], "usage: puzzlebox list "),
])
def test_a_wrong_option_prints_the_subcommands_usage(capsys, argv, usage):
    with pytest.raises(SystemExit) as stop:
        main(argv)
    assert stop.value.code == 2
    err = capsys.readouterr().err
    assert err.startswith(usage), err
    assert "COMMAND ..." not in err


def test_list_json_names_every_catalog_puzzle(capsys):
    code, out, _ = run(capsys, "list", "--json")
    assert code == 0
    objects = [json.loads(line) for line in out.splitlines()]
    assert [o["puzzle"] for o in objects] == catalog.names()
    assert all(o["title"] == catalog.load_file(o["puzzle"]).title for o in objects)


# -- issue #38, item 7: a limit that finds nothing, limits of the wrong type, a stray option

@pytest.mark.parametrize("limit", ["0", "-1"])
def test_a_limit_that_finds_nothing_is_refused(capsys, limit):
    """``solve --limit 0`` printed "no solution" and exited 0: now a usage error."""
    with pytest.raises(SystemExit) as stop:
        main(["solve", "queens-8", "--limit", limit])
    assert stop.value.code == 2
    out, err = capsys.readouterr()
    assert out == "" and "no solution" not in err
    assert err.splitlines()[-1] == ("puzzlebox solve: error: argument --limit: must be at "
                                    f"least 1, not {limit}")


@pytest.mark.parametrize("limit", [0, -1, 1.5, True])
def test_the_library_refuses_a_limit_that_finds_nothing(limit):
    from puzzlebox import PuzzleboxError

    puzzle = catalog.load("queens-8")
    with pytest.raises(ValueError, match="whole number from 1") as refused:
        puzzle.solutions(limit=limit)
    assert isinstance(refused.value, PuzzleboxError)
    assert len(list(puzzle.solutions(limit=2))) == 2


@pytest.mark.parametrize("limits", [5, "60", {"time": 60}])
def test_the_library_refuses_limits_that_are_not_limits(limits):
    """``count(limits=5)`` raised AttributeError from inside the run: now a TypeError that
    is a PuzzleboxError and says what ``limits`` takes."""
    from puzzlebox import PuzzleboxError

    puzzle = catalog.load("queens-8")
    for call in (lambda: puzzle.count(limits=limits), lambda: puzzle.solve(limits=limits),
                 lambda: puzzle.solutions(limits=limits)):
        with pytest.raises(TypeError, match=r"limits takes a puzzlebox\.run\.Limits .* or "
                           "None") as refused:
            call()
        assert isinstance(refused.value, PuzzleboxError)
    assert puzzle.count(limits=None).solutions == 92


@pytest.mark.parametrize("argv", [["--foo"], ["-V"], ["--foo", "list"]], ids=" ".join)
def test_an_option_of_no_command_is_refused(capsys, argv):
    """``puzzlebox --foo`` and ``puzzlebox -V`` printed the help and exited 0."""
    with pytest.raises(SystemExit) as stop:
        main(argv)
    assert stop.value.code == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert err.splitlines()[-1].endswith(f"error: unrecognized arguments: {argv[0]}")


def test_bare_puzzlebox_still_prints_the_help_and_version_works(capsys):
    assert main([]) == 0
    assert capsys.readouterr().out.startswith("usage: puzzlebox")
    with pytest.raises(SystemExit) as stop:
        main(["--version"])
    assert stop.value.code == 0
    assert capsys.readouterr().out.startswith("puzzlebox ")


# -- issue #38, item 8: an empty path is refused, on every option that takes one ------------

@pytest.mark.parametrize("argv", [
    ["export", "soma-cube", "--stl", ""],
    ["export", "pentomino-6x10", "--sheet", ""],
    ["count", "pentomino-3x20", "--checkpoint", ""],
    ["solve", "queens-8", "--all", "--checkpoint", ""],
    ["solve", "queens-8", "--format", "svg", "--out", ""],
    ["show", "queens-8", "--format", "svg", "--out", ""],
    ["generate", "edge-matching", "--out", ""],
    ["import", "", "-o", "x.toml"],
    ["import", "tests/data/pentominoes-6x10.xmpuzzle", "-o", ""],
    ["import", "tests/data/pentominoes-6x10.xmpuzzle", "--out="],
    ["moves", "burr-bills-baffling", "--format", "svg", "--out", ""],
    ["count", ""], ["show", ""], ["solve", "", "--all"], ["estimate", ""], ["moves", ""],
    ["export", "", "--stl", "pieces"], ["sweep", "", "--uncover", "1"],
], ids=" ".join)
def test_an_empty_path_is_refused(capsys, tmp_path, monkeypatch, argv):
    """``--stl ''`` wrote into the current folder, ``--checkpoint ''`` ran without one and
    ``--out ''`` was ignored, each silently: now one line, exit 2, and nothing written."""
    from pathlib import Path

    argv = [str(Path.cwd() / a) if a.startswith("tests/") else a for a in argv]
    monkeypatch.chdir(tmp_path)
    with pytest.raises(SystemExit) as stop:
        main(argv)
    assert stop.value.code == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert err.splitlines()[-1].endswith(": an empty path names no file: give one"), err
    assert list(tmp_path.iterdir()) == []


# -- issue #38, item 11: python -m puzzlebox, help, a misspelt command, examples, --seed ----

def test_python_m_puzzlebox_runs_the_command_line():
    import subprocess
    import sys

    done = subprocess.run([sys.executable, "-m", "puzzlebox", "list"], capture_output=True,
                          text=True, timeout=120, check=False)  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert done.stdout.split()[0] == catalog.names()[0]
    bad = subprocess.run([sys.executable, "-m", "puzzlebox", "slove"], capture_output=True,
                         text=True, timeout=120, check=False)  # fmt: skip
    assert bad.returncode == 2 and "Traceback" not in bad.stderr


@pytest.mark.parametrize("word, meant", [("slove", "solve"), ("cuont", "count"),
                                         ("lsit", "list"), ("expor", "export")])
def test_a_misspelt_command_gets_a_did_you_mean(capsys, word, meant):
    assert main([word, "queens-8"]) == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert err.splitlines()[-1] == (f"puzzlebox: no command '{word}' (did you mean "
                                    f"'{meant}'?); 'puzzlebox --help' lists them")


def test_a_command_like_no_other_gets_no_guess(capsys):
    assert main(["xyzzy"]) == 2
    assert capsys.readouterr().err.splitlines()[-1] == ("puzzlebox: no command 'xyzzy'; "
                                                        "'puzzlebox --help' lists them")


@pytest.mark.parametrize("argv, start", [(["help"], "usage: puzzlebox [-h]"),
                                         (["help", "solve"], "usage: puzzlebox solve "),
                                         (["help", "generate"], "usage: puzzlebox generate ")],
                         ids=["help", "help solve", "help generate"])
def test_help_is_the_help(capsys, argv, start):
    """``puzzlebox help`` was an invalid choice: it prints the help (of a command named)."""
    with pytest.raises(SystemExit) as stop:
        main(argv)
    assert stop.value.code == 0
    assert capsys.readouterr().out.startswith(start)


def test_every_commands_help_shows_an_example_that_parses(capsys):
    """Each command's ``--help`` ends with one example, and the example is a command line
    the parser takes (its puzzle, where a catalog name, one of the catalog)."""
    import shlex

    from puzzlebox.cli.dispatch import COMMANDS, build_parser

    for name, row in COMMANDS.items():
        with pytest.raises(SystemExit):
            main([name, "--help"])
        out = capsys.readouterr().out
        assert out.rstrip().endswith(f"example: {row.example}"), name
        words = shlex.split(row.example)
        assert words[:2] == ["puzzlebox", name]
        args = build_parser(words[1:]).parse_args(words[1:])
        puzzle = getattr(args, "puzzle", None)
        if puzzle is not None and "." not in puzzle:
            assert puzzle in catalog.names(), row.example
    with pytest.raises(SystemExit):
        main(["generate", "edge-matching", "--help"])
    assert "example: puzzlebox generate edge-matching" in capsys.readouterr().out


def test_every_seed_option_has_one_metavar():
    """``--seed S`` in solve's help and ``--seed SEED`` in estimate's: one name now."""
    import argparse

    from puzzlebox.cli.dispatch import build_parser

    def parsers(parser: argparse.ArgumentParser):
        yield parser
        for action in parser._actions:
            if isinstance(action, argparse._SubParsersAction):
                for sub in action.choices.values():
                    yield from parsers(sub)

    seeds = [action for parser in parsers(build_parser(everything=True))
             for action in parser._actions if "--seed" in action.option_strings]  # fmt: skip
    assert len(seeds) == 3  # solve, estimate, generate edge-matching
    assert {action.metavar for action in seeds} == {"SEED"}
