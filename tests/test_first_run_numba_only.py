"""The two searches that have numba kernels only (the edge-matching solver and the sink
tiler) say once that they compile, like the engines' numba path (issue #23 item 2)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

PUZZLEBOX = Path(sys.executable).parent / "puzzlebox"


def _puzzlebox(args: list[str], cache: Path) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, NUMBA_CACHE_DIR=str(cache))
    return subprocess.run([str(PUZZLEBOX), *args], capture_output=True, text=True, env=env,
                          timeout=300)


@pytest.mark.parametrize(("args", "kind"), [
    (["solve", "cards-3x3-corrected", "--engine", "edges"], "edge-matching"),
    (["solve", "pentomino-6x10", "--engine", "sink"], "sink tiling"),
], ids=["edges", "sink"])
def test_a_numba_only_search_says_once_that_it_compiles(tmp_path, args, kind):
    """An empty numba cache stands for a fresh installation: the first run says so in one
    line, the second (kernels cached) says nothing of compiling, and both answer alike."""
    first = _puzzlebox(args, tmp_path)
    assert first.returncode == 0, first.stderr
    said = [line for line in first.stderr.splitlines() if "compiling" in line]
    assert len(said) == 1, first.stderr
    assert said[0].startswith(f"puzzlebox: compiling the {kind} search kernels once (about ")
    second = _puzzlebox(args, tmp_path)
    assert second.returncode == 0, second.stderr
    assert "compiling" not in second.stderr
    assert second.stdout == first.stdout
