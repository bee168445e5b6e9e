"""The first run says it compiles; commands that need no kernel never import numba
(issue #16 item 2)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PUZZLEBOX = Path(sys.executable).parent / "puzzlebox"
DATA = ROOT / "tests" / "data"


def _puzzlebox(args, cache):
    env = dict(os.environ, NUMBA_CACHE_DIR=str(cache))
    return subprocess.run([str(PUZZLEBOX), *args], capture_output=True, text=True, env=env,
                          timeout=300)


@pytest.mark.slow
def test_the_first_run_says_it_compiles_and_the_second_is_silent(tmp_path):
    """An empty numba cache (NUMBA_CACHE_DIR) stands for a fresh installation."""
    first = _puzzlebox(["count", "queens-8"], tmp_path)
    assert first.returncode == 0
    lines = first.stderr.splitlines()
    assert len(lines) == 1, first.stderr
    assert lines[0].startswith("puzzlebox: compiling the n-queens search kernels once (about ")
    second = _puzzlebox(["count", "queens-8"], tmp_path)
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


def _imports_numba(args):
    code = ("import sys\n"
            f"sys.argv = ['puzzlebox', *{args!r}]\n"
            "from puzzlebox.cli import main\n"
            "try:\n    main()\nexcept SystemExit:\n    pass\n"
            "print('numba' in sys.modules, file=sys.stderr)\n")
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         timeout=120)
    return run.stderr.splitlines()[-1] == "True"


@pytest.mark.parametrize("args", NO_KERNEL, ids=" ".join)
def test_commands_without_a_kernel_do_not_import_numba(args):
    assert not _imports_numba(args)


def test_a_search_does_import_numba():
    """The check above can fail: a count by search imports numba."""
    assert _imports_numba(["count", "queens-8"])
