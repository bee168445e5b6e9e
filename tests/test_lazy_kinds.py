"""A kind's package loads when a puzzle of that kind is read, one of its engines is used or
one of its names is imported (puzzles/__init__.py; issue #23 item 1: a polyomino command
loads no other kind, about 7 ms of CPU). Each check runs in a fresh interpreter, as the
installed ``puzzlebox`` script runs, and reports the kind packages it loaded."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from puzzlebox.puzzles import KINDS

PACKAGES = {"edge-matching": "edge_matching", "polyomino": "polyomino",
            "polysticks": "polysticks", "queens": "queens", "sudoku": "sudoku"}  # fmt: skip

# the kind packages loaded, as JSON on stderr's last line, after the code before it ran
REPORT = f"""
import json, sys
print(json.dumps(sorted(name for name in {sorted(PACKAGES.values())}
                        if "puzzlebox.puzzles." + name in sys.modules)), file=sys.stderr)
"""

# the command line's main() on argv[1:]
COMMAND = """
import sys
from puzzlebox.cli import main
try:
    main(sys.argv[1:])
except SystemExit:
    pass
"""


def loaded(code: str, *argv: str) -> list[str]:
    done = subprocess.run([sys.executable, "-c", code + REPORT, *argv], capture_output=True,
                          text=True, timeout=120, check=False)  # fmt: skip
    assert done.returncode == 0, done.stderr
    return list(json.loads(done.stderr.strip().splitlines()[-1]))


@pytest.mark.parametrize(("argv", "kinds"), [
    (["count", "pentomino-6x10", "--json"], ["polyomino"]),
    (["show", "soma-cube"], ["polyomino"]),
    (["count", "queens-8"], ["queens"]),
])  # fmt: skip
def test_a_command_loads_its_kind_only(argv: list[str], kinds: list[str]) -> None:
    assert loaded(COMMAND, *argv) == kinds


@pytest.mark.parametrize(("kind", "puzzle"), [
    ("edge-matching", "cards-3x3"),
    ("polyomino", "soma-cube"),
    ("polysticks", "tetrasticks-6x6"),
    ("queens", "queens-8"),
    ("sudoku", "sudoku-4x4-empty"),
])  # fmt: skip
def test_reading_a_file_loads_its_kind(kind: str, puzzle: str) -> None:
    code = f"""
from puzzlebox import catalog
from puzzlebox.puzzles import KINDS
p = catalog.load_file({puzzle!r}).puzzles[0]
assert type(p) is KINDS[{kind!r}] and p.kind == {kind!r}, type(p)
assert str(p)
"""
    assert loaded(code) == [PACKAGES[kind]]


def test_the_package_loads_no_kind_and_knows_them_all() -> None:
    """Importing puzzles/ declares the kinds and their engines: listed, none loaded."""
    code = """
from puzzlebox.engine import registry
from puzzlebox.puzzles import KINDS
assert list(KINDS) == ["edge-matching", "polyomino", "polysticks", "queens", "sudoku"]
assert "queens" in KINDS and "rooks" not in KINDS and len(KINDS) == 5
assert {"edges", "sink", "queens-bitmask"} <= set(registry.names())
assert KINDS.loaded() == []
"""
    assert loaded(code) == []


def test_an_unknown_kind_lists_the_kinds_without_loading_them() -> None:
    code = """
import puzzlebox
try:
    puzzlebox.loads('kind = "rooks"')
except puzzlebox.PuzzleboxError as error:
    assert "known: edge-matching, polyomino, polysticks, queens, sudoku" in str(error), error
else:
    raise AssertionError("read")
"""
    assert loaded(code) == []


def test_an_engine_named_loads_its_kind() -> None:
    code = """
from puzzlebox.engine import registry
import puzzlebox.puzzles
assert registry.get("edges").name == "edges"
"""
    assert loaded(code) == ["edge_matching"]


def test_an_engine_of_another_kind_says_why(capsys: pytest.CaptureFixture[str]) -> None:
    """The same one line as before the kinds loaded lazily (the queens kind loads to say it)."""
    from puzzlebox.cli import main

    assert main(["count", "pentomino-3x20", "--engine", "queens-bitmask"]) == 2
    assert capsys.readouterr().err.strip() == (
        "puzzlebox: it counts queens on an n x n board or torus only")  # a torus too (#38)


def test_a_public_name_loads_its_kind() -> None:
    code = """
from puzzlebox.puzzles import QueensPuzzle
from puzzlebox.puzzles.base import KINDS
assert QueensPuzzle is KINDS["queens"]
import puzzlebox.puzzles as puzzles
try:
    puzzles.NoSuchPuzzle
except AttributeError as error:
    assert "NoSuchPuzzle" in str(error)
else:
    raise AssertionError("found")
"""
    assert loaded(code) == ["queens"]


def test_every_kind_is_one_class_once_loaded() -> None:
    import puzzlebox.puzzles as puzzles

    classes = {kind: KINDS[kind] for kind in KINDS}
    assert {kind: cls.kind for kind, cls in classes.items()} == {kind: kind for kind in classes}
    assert classes["queens"] is puzzles.QueensPuzzle
    assert classes["edge-matching"] is puzzles.EdgeMatchingPuzzle
    with pytest.raises(ValueError, match="declared twice"):
        KINDS.declare("queens", "puzzlebox.puzzles.queens")


def test_auto_asks_a_kinds_engine_about_a_bare_problem() -> None:
    """A job without a puzzle (a bare cover problem) loads the kinds' engines to ask them, as
    before: auto counts the bare 8-queens problem with the queens engine."""
    code = """
from puzzlebox.engine import registry
from puzzlebox.engine.queens_bitmask import whole_job
import puzzlebox.puzzles
assert registry.choose(whole_job(8)).name == "queens-bitmask"
"""
    assert loaded(code) == ["edge_matching", "queens"]
