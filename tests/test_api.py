"""The Python API as a user meets it (python-chess style): names, drawings, pictures, loads."""

from __future__ import annotations

import importlib.util
import json
import re
import subprocess
import sys
from collections import Counter
from pathlib import Path
from typing import Any, cast

import pytest

import puzzlebox
from puzzlebox import PuzzleboxError, PuzzleFileError
from puzzlebox.cli import main
from puzzlebox.extras import install_command
from puzzlebox.puzzles import PolyominoSolution
from puzzlebox.render.drawing import PicturesUnavailable
from puzzlebox.render.text import describe
from test_cli import PENTOMINOES_3X20


def test_repr_names_the_puzzle_and_the_board_of_a_batch():
    assert repr(puzzlebox.load("pentomino-6x10")) == "PolyominoPuzzle('pentomino-6x10')"
    assert repr(puzzlebox.load("queens-8")) == "QueensPuzzle('queens-8')"
    assert repr(puzzlebox.load("cards-3x3")) == "EdgeMatchingPuzzle('cards-3x3')"
    boards = puzzlebox.load_file("black-and-white").puzzles
    assert repr(boards[1]) == "PolyominoPuzzle('black-and-white', board='grid02')"


def test_str_of_a_puzzle_draws_its_board_and_pieces():
    puzzle = puzzlebox.load("pentomino-6x10")
    text = str(puzzle)
    assert text == "\n".join(describe(puzzle))
    assert "board (60 cells):" in text and "##########" in text
    assert str(puzzlebox.load("queens-8")) == "8 queens on a 8 x 8 board"


def test_str_of_a_solution_is_its_letter_drawing():
    puzzle = puzzlebox.loads(PENTOMINOES_3X20, "p3x20")
    solution = puzzle.solve()
    assert isinstance(solution, PolyominoSolution)
    rows = str(solution).splitlines()
    assert len(rows) == 3 and all(len(row) == 20 for row in rows)
    assert Counter("".join(rows)) == Counter("FILNPTUVWXYZ" * 5)
    for placement in solution.placements_json():  # each piece's letter stands on its cells
        assert {rows[r][c] for r, c in placement["cells"]} == {placement["piece"]}


def test_str_of_a_queens_solution_shows_each_queen_where_it_is_placed():
    puzzle = puzzlebox.load("queens-8")
    solution = puzzle.solve()
    assert solution is not None
    rows = [row.split() for row in str(solution).splitlines()]
    queens = {(r, c) for r, row in enumerate(rows) for c, mark in enumerate(row) if mark == "Q"}
    assert queens == {(q["row"], q["col"]) for q in solution.placements_json()}
    assert len(queens) == 8


def test_a_solution_made_by_hand_prints_its_placements_and_cannot_be_drawn():
    puzzle = puzzlebox.load("queens-5")
    made = puzzle.decode((0,))  # one queen, decoded by hand: no puzzle attached
    assert str(made) == repr(made)
    with pytest.raises(ValueError, match="does not know its puzzle"):
        made.svg()


@pytest.mark.skipif(importlib.util.find_spec("matplotlib") is None, reason="pictures extra")
def test_svg_and_png_of_puzzles_and_solutions():
    puzzle = puzzlebox.load("queens-5")
    solution = puzzle.solve()
    assert solution is not None
    for svg in (puzzle.svg(), solution.svg()):
        assert svg.lstrip().startswith("<?xml") and "<svg" in svg
    for png in (puzzle.png(), solution.png()):
        assert png.startswith(b"\x89PNG\r\n\x1a\n")
    assert puzzle.svg() != solution.svg()  # the empty board is not the solution
    assert solution.svg() == solution.svg()  # reproducible


def test_pictures_without_matplotlib_are_one_clear_error(monkeypatch, capsys, tmp_path):
    real = importlib.util.find_spec

    def no_matplotlib(name, *args, **kwargs):
        return None if name == "matplotlib" else real(name, *args, **kwargs)

    monkeypatch.setattr(importlib.util, "find_spec", no_matplotlib)
    puzzle = puzzlebox.load("queens-5")
    solution = puzzle.solve()
    assert solution is not None
    for draw in (puzzle.svg, puzzle.png, solution.svg, solution.png):
        with pytest.raises(PicturesUnavailable, match=re.escape(install_command("pictures"))):
            draw()
    assert issubclass(PicturesUnavailable, PuzzleboxError)
    assert main(["solve", "queens-5", "--format", "svg", "--out", str(tmp_path / "a.svg")]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and install_command("pictures") in err
    assert not (tmp_path / "a.svg").exists()


def test_loads_reads_toml_text_as_load_reads_a_file(tmp_path):
    path = tmp_path / "p3x20.toml"
    path.write_text(PENTOMINOES_3X20)
    from_text = puzzlebox.loads(PENTOMINOES_3X20, "p3x20")
    from_file = puzzlebox.load(path)
    assert from_text.name == from_file.name == "p3x20"
    assert (from_text.count().solutions, from_text.count().distinct) == (8, 2)
    assert from_text.count().solutions == from_file.count().solutions
    assert puzzlebox.loads('kind = "queens"\nn = 6\n').count().solutions == 4


def test_loads_of_a_malformed_text_names_the_line():
    with pytest.raises(PuzzleFileError) as caught:
        puzzlebox.loads('kind = "queens"\nn = "eight"\n')
    assert str(caught.value).startswith("<string>:2")
    assert isinstance(caught.value, PuzzleboxError) and caught.value.exit_status == 2


# -- hints for a missing extra (issue #26): a command that works where the user is ----------
def test_an_editable_install_is_told_to_install_the_extra_from_its_clone(monkeypatch):
    """This test environment is the clone's editable install (as the README makes it)."""
    from puzzlebox import extras

    source = extras.editable_source()
    assert source is not None and (source / "pyproject.toml").exists()
    monkeypatch.chdir(source)
    hint = install_command("pictures")
    assert hint.endswith(" install -e '.[pictures]'"), hint
    assert "puzzlebox[" not in hint  # the index form fails for a clone


def test_the_hint_names_this_environment_s_pip(monkeypatch, tmp_path):
    """Without the venv on PATH, the hint runs the venv's own pip, by a path that resolves."""
    from puzzlebox import extras

    monkeypatch.setenv("PATH", str(tmp_path))  # no pip on PATH at all
    monkeypatch.chdir(tmp_path)
    pip = extras.pip_command()
    assert pip != "pip"
    assert Path(pip.split(" -m ")[0].strip("'")).resolve().parent == Path(
        sys.executable).parent.resolve()
    hint = install_command("web")
    source = extras.editable_source()
    assert source is not None and f"{source}[web]" in hint  # the clone by its full path


def test_from_the_folder_above_the_clone_the_hint_names_it_as_a_path(monkeypatch):
    from puzzlebox import extras

    source = extras.editable_source()
    assert source is not None
    monkeypatch.chdir(source.parent)
    assert install_command("web").endswith(f" install -e './{source.name}[web]'")


def test_an_install_from_an_index_is_told_the_index_form(monkeypatch):
    from importlib import metadata

    from puzzlebox import extras

    class Wheel:
        def read_text(self, name):
            return None  # no direct_url.json: installed from an index

    monkeypatch.setattr(metadata, "distribution", lambda name: Wheel())
    assert extras.editable_source() is None
    assert install_command("sat").endswith(" install 'puzzlebox[sat]'")


def test_every_missing_extra_hint_is_built_by_one_function():
    """No module spells its own pip command (they failed when copied from a clone)."""
    src = Path(puzzlebox.__file__).parent
    spelled = [p for p in src.rglob("*.py") if "pip install" in p.read_text()
               and p.name != "extras.py"]
    assert spelled == []


# -- an unknown name and invisible characters (issue #26) ------------------------------------
def test_an_unknown_puzzle_name_suggests_the_nearest_catalog_names(capsys):
    from puzzlebox.catalog import UnknownPuzzle

    with pytest.raises(UnknownPuzzle, match=r"did you mean pentomino-6x10[,?]"):
        puzzlebox.load("pentomino-6x1")
    with pytest.raises(UnknownPuzzle) as caught:
        puzzlebox.load("zzzz")
    assert "did you mean" not in str(caught.value)  # nothing near: no guess
    assert main(["count", "qeens-8"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "did you mean queens-8" in err


@pytest.mark.parametrize(("char", "name"), [("\t", "a tab"), ("\u00a0", "a no-break space"),
                                            ("\u200b", "a zero-width space"),
                                            ("\u2060", "an invisible character (word joiner)")])
def test_an_invisible_character_in_a_grid_is_refused_at_its_line_and_column(char, name):
    text = f'kind = "polyomino"\n[board]\ngrid = """\n####\n#{char}##\n"""\n[pieces]\nO = "##/##"\n'
    with pytest.raises(PuzzleFileError) as caught:
        puzzlebox.loads(text, "tabs")
    message = str(caught.value)
    # the file's line of that row, and the row and column as the contract counts them (#38)
    assert message.startswith("<string>:5: board.grid: " + name), message
    assert "at row 1, column 1 of the grid (counted from 0)" in message
    assert "\n" not in message and char not in message  # one line, the character escaped


def test_tabs_in_a_piece_and_in_a_one_line_grid_are_refused_too():
    text = 'kind = "polyomino"\n[board]\ngrid = "####/####"\n[pieces]\nO = "##/\t##"\n'
    with pytest.raises(PuzzleFileError, match=r":5: pieces.O: a tab .* row 1, column 0 "):
        puzzlebox.loads(text)
    cube = 'kind = "polyomino"\nlattice = "cube"\n[board]\ngrid = ["##", "#\t"]\n[pieces]\n'
    with pytest.raises(PuzzleFileError, match="a tab"):
        puzzlebox.loads(cube + 'A = "###"\n')
    spaced = 'kind = "polyomino"\n[board]\ngrid = "## .##"\n[pieces]\nA = "##"\nB = "##"\n'
    assert puzzlebox.loads(spaced).count().solutions == 2  # a plain space stays a hole


# -- the API shows itself (issue #26, python-chess / networkx style) --------------------------
def test_dir_of_the_package_is_its_public_names():
    names = dir(puzzlebox)
    for public in ("Puzzle", "Solution", "CountResult", "load", "loads", "load_file", "catalog",
                   "PuzzleboxError", "__version__"):
        assert public in names
    assert "TYPE_CHECKING" not in names and "annotations" not in names
    assert set(puzzlebox.__all__) <= set(names)
    for name in puzzlebox.__all__:  # every listed name resolves
        assert getattr(puzzlebox, name) is not None
    assert puzzlebox.catalog.names()[0] and "pentomino-6x10" in puzzlebox.catalog.names()


def test_importing_the_package_imports_no_numerics():
    """`import puzzlebox` stays cheap: names are loaded on first use (no numpy, no numba)."""
    code = ("import sys, puzzlebox; dir(puzzlebox); "
            "print(sorted(m for m in ('numpy', 'numba', 'puzzlebox.puzzles') if m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True).stdout
    assert out.strip() == "[]"


def test_help_of_the_package_opens_with_an_example():
    doc = puzzlebox.__doc__ or ""
    example = [line.strip() for line in doc.split("\n\n")[1].splitlines()]
    assert len(example) == 5 and example[0].startswith('puzzle = puzzlebox.load("')
    namespace: dict[str, object] = {"puzzlebox": puzzlebox}
    printed: list[str] = []
    namespace["print"] = lambda *args, **kw: printed.append(" ".join(map(str, args)))
    exec("\n".join(example), namespace)  # noqa: S102  (our own docstring runs as shown)
    assert len(printed) == 6  # the puzzle, a solution, a count and three solutions
    assert printed[2].startswith("9356 solutions, 2339 distinct (")


def test_dir_of_a_puzzle_is_a_page_of_user_facing_names():
    for name in ("pentomino-6x10", "queens-8", "cards-3x3", "soma-cube"):
        puzzle = puzzlebox.load(name)
        names = dir(puzzle)
        assert {"solve", "solutions", "count", "svg", "png", "name", "title"} <= set(names)
        for internal in ("cover_entries_bound", "symmetry_pairs", "build_problem", "decode",
                         "option_labels", "log_solutions_lower_bound", "sweep_plan", "encode",
                         "count_search", "search_problem", "solution_panel", "grid_editable"):
            assert internal not in names, (name, internal)
        assert len(names) <= 30, (name, names)
        assert all(hasattr(type(puzzle), n) or n in vars(puzzle) for n in names)
    puzzle = puzzlebox.load("pentomino-6x10")
    before = dir(puzzle)
    puzzle.count()  # cached properties (the problem, its symmetry breaking) are no new names
    assert dir(puzzle) == before
    assert {"pieces", "board"} <= set(before)
    assert "n" in dir(puzzlebox.load("queens-8"))
    assert "cards" in dir(puzzlebox.load("cards-3x3"))


def test_str_of_a_count_is_a_sentence():
    result = puzzlebox.load("queens-8").count()
    assert re.fullmatch(r"92 solutions, 12 distinct \([\w-]+ engine, \d+\.\d s\)", str(result))
    none = puzzlebox.load(str(Path(__file__).parent / "data" / "tetrominoes-4x5.toml")).count()
    assert str(none).startswith("0 solutions: ") and none.reason is not None
    assert str(none) == f"0 solutions: {none.reason}"
    assert "CountResult(" in repr(result)  # the repr stays the dataclass's
    from puzzlebox.parallel.run import SplitCountResult

    stopped = SplitCountResult(8, 2, 4.5, done=9, total=18)
    assert str(stopped) == "8 solutions, 2 distinct so far (partial: 9 of 18 subproblems, 4.5 s)"
    assert str(SplitCountResult(1, 1, 0.04, done=3, total=3)) == "1 solution, 1 distinct (0.0 s)"


def test_solutions_printed_in_a_loop_stand_apart(capsys):
    puzzle = puzzlebox.loads(PENTOMINOES_3X20, "p3x20")
    for solution in puzzle.solutions(limit=2):
        print(solution)
    out = capsys.readouterr().out
    drawings = out.strip("\n").split("\n\n")
    assert len(drawings) == 2
    assert all(len(d.splitlines()) == 3 for d in drawings)


def test_a_solution_s_json_is_text_and_its_placements_are_data():
    puzzle = puzzlebox.loads(PENTOMINOES_3X20, "p3x20")
    solution = puzzle.solve()
    assert isinstance(solution, PolyominoSolution)
    text = solution.to_json()
    assert isinstance(text, str)
    obj = json.loads(text)
    assert obj["puzzle"] == "p3x20" and len(obj["placements"]) == 12
    assert [p["piece"] for p in obj["placements"]] == [p.piece for p in solution.placements]
    assert all(isinstance(p.cells, tuple) for p in solution.placements)  # typed data
    assert {"placements", "to_json", "svg", "png"} <= set(dir(solution))
    assert "placements_json" not in dir(solution)
    queens = puzzlebox.load("queens-8").solve()
    assert queens is not None and len(queens.queens) == 8
    assert queens.placements == queens.queens and "placements" in dir(queens)
    assert json.loads(queens.to_json())["placements"][0] == {"row": queens.queens[0][0],
                                                             "col": queens.queens[0][1]}
    made = puzzlebox.load("queens-5").decode((0,))  # by hand: no puzzle, just placements
    assert set(json.loads(made.to_json())) == {"placements"}


def test_solve_json_on_the_command_line_is_to_json(capsys):
    assert main(["solve", "queens-8", "--json"]) == 0
    line = capsys.readouterr().out.splitlines()[0]
    solution = puzzlebox.load("queens-8").solve()
    assert solution is not None and json.loads(line) == json.loads(solution.to_json())


def test_one_load_everywhere():
    """catalog.load returns what puzzlebox.load does (a Puzzle); load_file the whole file."""
    from puzzlebox import catalog

    assert repr(catalog.load("queens-8")) == repr(puzzlebox.load("queens-8"))
    assert isinstance(catalog.load("black-and-white"), puzzlebox.Puzzle)
    assert len(catalog.load_file("black-and-white").puzzles) == 25
    assert catalog.load_file("queens-8").title == puzzlebox.load_file("queens-8").title


@pytest.mark.parametrize("name", ["pentomino-6x10", "soma-cube", "dominoes-8x8",
                                  "burr-computers-choice-4-hole"])
def test_a_solution_s_placements_are_in_the_order_of_their_cells(name: str) -> None:
    """``decode`` orders a solution's placements by their first cells alone and keeps one
    placement object per option: the order is still that of whole cells, then piece."""
    puzzle = puzzlebox.load(name)
    solutions = cast(list[PolyominoSolution], list(puzzle.solutions(limit=20)))
    assert solutions
    seen: dict[Any, Any] = {}
    for solution in solutions:
        placements = solution.placements
        assert list(placements) == sorted(placements, key=lambda p: (p.cells, p.piece))
        for p in placements:
            assert seen.setdefault((p.piece, p.cells), p) is p  # made once, then shared
