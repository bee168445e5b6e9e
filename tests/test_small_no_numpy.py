"""The small puzzles people try first load no numpy (issue #23: a whole `solve soma-cube`
under 0.35 s of CPU, where numpy's import alone costs 0.14-0.27 s). Each command runs in a
fresh interpreter as the installed ``puzzlebox`` script runs it, with the C kernels built at
installation; its answer must be the one the numpy path gives (the same command with numpy
imported first, which sends every engine down its numpy path)."""

from __future__ import annotations

import re
import subprocess
import sys

import pytest

from puzzlebox.engine import kernel_choice

pytestmark = pytest.mark.skipif("c" not in kernel_choice.available(),
                                reason="the C kernels are not built: the numba path needs numpy")

# Runs the command line's main() on argv[2:] (numpy imported first when argv[1] says so), then
# prints on stderr whether numpy was loaded.
PROBE = """
import sys
if sys.argv[1] == "numpy":
    import numpy
from puzzlebox.cli import main
try:
    main(sys.argv[2:])
except SystemExit:
    pass
print("numpy loaded:", "numpy" in sys.modules, file=sys.stderr)
"""

SMALL = [
    ["solve", "soma-cube"],
    ["solve", "pentomino-6x10"],
    ["count", "queens-8"],
    ["count", "queens-8", "--json"],
]


def run(first: str, argv: list[str]) -> tuple[str, str]:
    done = subprocess.run([sys.executable, "-c", PROBE, first, *argv], capture_output=True,
                          text=True, timeout=120, check=False)  # fmt: skip
    assert done.returncode == 0, done.stderr
    return done.stdout, done.stderr


@pytest.mark.parametrize("argv", SMALL, ids=" ".join)
def test_a_small_puzzle_loads_no_numpy_and_answers_as_the_numpy_path(argv: list[str]) -> None:
    out, err = run("plain", argv)
    assert "numpy loaded: False" in err, err
    out_numpy, err_numpy = run("numpy", argv)
    assert "numpy loaded: True" in err_numpy
    if "--json" in argv:  # the JSON report holds the seconds taken: compare the rest
        import json

        mine, theirs = json.loads(out), json.loads(out_numpy)
        for report in (mine, theirs):
            report.pop("seconds", None)
            report.get("stats", {}).clear()
        assert mine == theirs
    else:  # the text names the seconds taken too ("(0.009 s, 1492 nodes)"): not compared
        seconds = re.compile(r"\b\d+(\.\d+)? s\b")
        assert seconds.sub("? s", out) == seconds.sub("? s", out_numpy)
