"""The first run says it compiles; commands that need no kernel never import numba
(issue #16 item 2)."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import sysconfig
from pathlib import Path

import pytest

from puzzlebox.engine import kernel_choice

ROOT = Path(__file__).resolve().parent.parent
PUZZLEBOX = Path(sys.executable).parent / "puzzlebox"
DATA = ROOT / "tests" / "data"


def _puzzlebox(args, cache, kernels=None):
    env = dict(os.environ, NUMBA_CACHE_DIR=str(cache))
    env.pop("PUZZLEBOX_KERNELS", None)
    if kernels is not None:
        env["PUZZLEBOX_KERNELS"] = kernels
    return subprocess.run([str(PUZZLEBOX), *args], capture_output=True, text=True, env=env,
                          timeout=300)


def test_the_c_kernels_are_built():
    """``pip install`` builds the C kernels wherever there is a C compiler (they are an
    optional extension: without one, numba's kernels run and this says why)."""
    if shutil.which("cc") is None and shutil.which("gcc") is None:
        pytest.skip("no C compiler here: the C kernels cannot have been built")
    if not (Path(sysconfig.get_paths()["include"]) / "Python.h").is_file():
        pytest.skip("no Python.h here (python3-dev): the C kernels cannot have been built")
    assert "c" in kernel_choice.available(), (
        "the C kernels (puzzlebox.engine._ckernels) are not built: pip install -e . again")


@pytest.mark.parametrize(("args", "answer"), [
    (["count", "queens-8"], "92 solutions, 12 distinct"),  # published: 92 and 12
    (["count", "pentomino-3x20"], "8 solutions, 2 distinct"),  # published: 2
    (["solve", "soma-cube"], "solution 1"),
], ids=lambda a: " ".join(a) if isinstance(a, list) else "")
def test_with_the_c_kernels_the_first_run_compiles_nothing(tmp_path, args, answer):
    """An empty numba cache (NUMBA_CACHE_DIR) stands for a fresh installation: the C
    kernels need no compiling, so nothing is said and numba caches nothing."""
    if "c" not in kernel_choice.available():
        pytest.skip("the C kernels are not built")
    first = _puzzlebox(args, tmp_path, "c")
    assert first.returncode == 0 and first.stderr == ""
    assert answer in first.stdout
    assert not list(tmp_path.iterdir())  # numba cached nothing: it never ran


@pytest.mark.slow
def test_the_first_run_says_it_compiles_and_the_second_is_silent(tmp_path):
    """An empty numba cache (NUMBA_CACHE_DIR) stands for a fresh installation (numba's
    kernels, as where no C compiler built the C ones)."""
    first = _puzzlebox(["count", "queens-8"], tmp_path, "numba")
    assert first.returncode == 0
    lines = first.stderr.splitlines()
    assert len(lines) == 1, first.stderr
    assert lines[0].startswith("puzzlebox: compiling the n-queens search kernels once (about ")
    second = _puzzlebox(["count", "queens-8"], tmp_path, "numba")
    assert second.returncode == 0 and second.stderr == ""
    assert second.stdout.split(" (")[0] == first.stdout.split(" (")[0]


NO_KERNEL = [
    ["list"],
    ["--help"],
    ["show", "pentomino-6x10"],
    ["show", str(DATA / "tetrominoes-4x5.toml")],
    ["count", "fibonacci-1x12"],  # the memo engine
    ["count", str(DATA / "tetrominoes-4x5.toml")],  # a proof: the checkerboard
    ["count", str(DATA / "mutilated-chessboard.toml")],
    ["solve", "pentomino-6x10", "--bogus"],  # a usage error
]


def _imports_numba(args, kernels="c"):
    env = dict(os.environ, PUZZLEBOX_KERNELS=kernels)
    code = ("import sys\n"
            f"sys.argv = ['puzzlebox', *{args!r}]\n"
            "from puzzlebox.cli import main\n"
            "try:\n    main()\nexcept SystemExit:\n    pass\n"
            "print('numba' in sys.modules, file=sys.stderr)\n")
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         timeout=120, env=env)
    return run.stderr.splitlines()[-1] == "True"


@pytest.mark.parametrize("args", NO_KERNEL, ids=" ".join)
def test_commands_without_a_kernel_do_not_import_numba(args):
    assert not _imports_numba(args)


def test_a_search_does_import_numba():
    """The check above can fail: a count by search with numba's kernels imports numba."""
    assert _imports_numba(["count", "queens-8"], "numba")


# (not a count that may run past budget.PROBE_AFTER wall-clock seconds on a loaded machine:
# its time rule then estimates the tree with the compiled engine's numba kernels)
@pytest.mark.parametrize("args", [["count", "queens-8"], ["solve", "soma-cube"],
                                  ["solve", "pentomino-6x10"], ["count", "pentomino-3x20"]],
                         ids=" ".join)
def test_searches_with_the_c_kernels_do_not_import_numba(args):
    if "c" not in kernel_choice.available():
        pytest.skip("the C kernels are not built")
    assert not _imports_numba(args, "c")


def _modules_after(args: list[str], first: str = "") -> set[str]:
    """The modules a fresh process has loaded after ``puzzlebox args`` (``first``: a
    statement run before, such as ``import numpy``)."""
    code = (f"{first}\nimport sys\n"
            f"sys.argv = ['puzzlebox', *{args!r}]\n"
            "from puzzlebox.cli import main\n"
            "try:\n    main()\nexcept SystemExit:\n    pass\n"
            "print(' '.join(sorted(sys.modules)), file=sys.stderr)\n")
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         timeout=120)
    return set(run.stderr.splitlines()[-1].split())


@pytest.mark.parametrize("args", [["list"], ["list", "--json"], ["--help"], ["--version"], [],
                                  ["bogus-command"]], ids=lambda a: " ".join(a) or "bare")
def test_listing_and_help_load_no_numpy_nor_any_kind(args):
    """Issue #23: ``list`` and ``--help`` are answered by the command line's light parser and
    the catalog's files, without numpy, a kind, an engine or the run layer."""
    loaded = _modules_after(args)
    assert "puzzlebox.cli" in loaded  # the check can fail: it sees the command line's modules
    heavy = {"numpy", "numba", "puzzlebox.puzzles", "puzzlebox.engine", "puzzlebox.run",
             "puzzlebox.formats", "puzzlebox.cli.tools", "puzzlebox.cli.search",
             "puzzlebox.cli.puzzle",
             "inspect"}  # (dataclasses loads it, with ast and dis: 10-20 ms; cli/ uses none)
    assert not heavy & loaded


def test_show_loads_no_search_nor_other_tool():
    """``show`` is answered by the light parser and cli/show.py: the puzzle is read and
    drawn, and nothing of a search (the run layer, its processes) nor of another tool is
    loaded."""
    loaded = _modules_after(["show", "soma-cube"])
    assert "puzzlebox.render.text" in loaded  # the check can fail: it sees the drawing's
    assert not {"puzzlebox.cli.tools", "puzzlebox.cli.search", "puzzlebox.cli.disassembly",
                "puzzlebox.run", "puzzlebox.parallel", "puzzlebox.disassembly"} & loaded


@pytest.mark.parametrize("args", [["solve", "soma-cube"], ["count", "queens-8", "--json"]],
                         ids=" ".join)
def test_a_search_loads_no_disassembly_unless_asked(args):
    """``solve`` and ``count`` add their options from cli/search.py: the disassembly's
    options and modules are loaded only for a command line that asks for them."""
    loaded = _modules_after(args)
    assert "puzzlebox.cli.search" in loaded
    assert not {"puzzlebox.cli.tools", "puzzlebox.cli.disassembly",
                "puzzlebox.disassembly"} & loaded


@pytest.mark.parametrize("words", [["--disassemble"], ["--thorough"], ["--max-states", "9"],
                                   ["--disas"], ["--help"]], ids=" ".join)
def test_the_disassembly_options_are_there_when_asked(words):
    """A word the parser without the disassembly does not know exactly (its options, an
    abbreviation of one, help) gets the parser with them: the same parse as the full one."""
    from puzzlebox.cli.dispatch import build_parser

    parser = build_parser(["count", "queens-8", *words])
    count = next(a for a in parser._actions if a.dest == "command").choices["count"]
    assert "--disassemble" in count._option_string_actions
    if "--help" not in words:
        mine, full = (p.parse_known_args(["count", "queens-8", *words])[0]
                      for p in (parser, build_parser(everything=True)))
        assert vars(mine) | {"command_parser": None} == vars(full) | {"command_parser": None}
    plain = build_parser(["count", "queens-8", "--json"])
    count = next(a for a in plain._actions if a.dest == "command").choices["count"]
    assert "--disassemble" not in count._option_string_actions
    assert plain.parse_args(["count", "queens-8", "--json"]).disassemble is False


def test_a_count_by_symmetry_loads_no_random_generator():
    """The symmetry group's hashes take fixed weights of their own (cover/symmetry.py), not
    numpy.random's generator, whose import is 12-15 ms of a small count (issue #23): with
    numpy loaded first, the group is built by its numpy path, which loads no generator."""
    loaded = _modules_after(["count", "soma-cube"], first="import numpy")
    assert "puzzlebox.cover.symmetry" in loaded and "numpy" in loaded  # the check can fail
    assert "numpy.random" not in loaded


def test_a_search_loads_the_search_commands():
    """The check above can fail: ``solve`` loads cli/search.py (and, a small puzzle with the
    C kernels, still no numpy: tests/test_small_no_numpy.py)."""
    assert "puzzlebox.cli.search" in _modules_after(["solve", "queens-8"])


def test_every_command_is_one_row_of_the_table():
    """``--help`` lists the commands of cli/dispatch.py's COMMANDS, each with its line; each
    row's module has the command's options and its run, and the parser that fills in every
    command offers the same commands with the same lines, so none can drift apart."""
    import argparse

    from puzzlebox.cli.dispatch import COMMANDS, build_parser, module_of

    def lines(parser: argparse.ArgumentParser) -> dict[str, str | None]:
        (sub,) = [a for a in parser._actions if isinstance(a, argparse._SubParsersAction)]
        return {action.dest: action.help for action in sub._choices_actions}

    full = build_parser(everything=True)
    helps = {name: row.help for name, row in COMMANDS.items()}
    assert lines(build_parser(["--help"])) == lines(full) == helps
    assert build_parser(["list"]).description == full.description
    for name in COMMANDS:
        module = module_of(name)
        assert callable(getattr(module, f"add_{name}")), name
        assert callable(getattr(module, f"cmd_{name}")), name


def test_every_hint_names_an_error_class():
    """cli/common.py's HINTS names error classes as module.Class (so that no command imports
    a module for its hint): each name must be a PuzzleboxError, and an error gets its hint."""
    import importlib

    from puzzlebox.cli.common import HINTS, error_line
    from puzzlebox.errors import PuzzleboxError

    for name in HINTS:
        module, _, cls = name.rpartition(".")
        kind = getattr(importlib.import_module(module), cls)
        assert issubclass(kind, PuzzleboxError), name
        assert f"{kind.__module__}.{kind.__qualname__}" == name
    from puzzlebox.catalog import UnknownPuzzle

    assert error_line(UnknownPuzzle("x", None, "no such file")).endswith(
        "(see 'puzzlebox list')")


def test_the_catalogs_titles_are_its_files_titles():
    """``puzzlebox list`` reads each title with tomllib, not the puzzle reader: the same
    titles as the reader's, for every catalog puzzle."""
    from puzzlebox import catalog

    titles = catalog.titles()
    assert list(titles) == catalog.names() and len(titles) > 40
    assert {name: catalog.load_file(name).title for name in titles} == titles


# (added by helper cgeneral, issue #23 item 2: the general engine's kernels are in C too)
@pytest.mark.parametrize(("args", "answer"), [
    (["count", "cards-3x3"], "0 solutions"),  # as posted, the cards fit no way (the catalog)
    (["solve", "sudoku-classic"], "solution 1"),
    (["count", "pentasticks-2x9"], "656 solutions"),  # checked by a brute force in the tests
    (["estimate", "pentomino-6x10", "--probes", "10"], "nodes"),  # Knuth's probes
], ids=lambda a: " ".join(a) if isinstance(a, list) else "")
def test_the_general_engine_and_its_estimate_compile_nothing_with_the_c_kernels(
        tmp_path, args, answer):
    """Commands the general exact-cover engine answers (cards, sudoku, the estimate's
    probes; polysticks, on the bitboard engine since their sticks are a graph) start as the
    tiling and n-queens ones do: nothing said, nothing compiled, numba never run, on a first
    run after installation."""
    if "c" not in kernel_choice.available():
        pytest.skip("the C kernels are not built")
    first = _puzzlebox(args, tmp_path, "c")
    assert first.returncode == 0 and first.stderr == "", first.stderr
    assert answer in first.stdout
    assert not list(tmp_path.iterdir())  # numba cached nothing: it never ran
