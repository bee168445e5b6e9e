"""Showing a puzzle loads no numpy and no engine (issue #23: `show` under 0.15 s of CPU, and
numpy alone costs 0.14 s). Each command runs in a fresh interpreter, as the installed
``puzzlebox`` script runs it, and reports the modules it loaded; the kinds must still
register every engine (tests/test_registry.py counts them)."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

# Runs the command line's main() on argv[1:], then prints what it loaded as JSON on stderr.
PROBE = """
import json, sys
from puzzlebox.cli import main
try:
    main(sys.argv[1:])
except SystemExit:
    pass
from puzzlebox.engine import registry
print(json.dumps({
    "numpy": "numpy" in sys.modules,
    "engines": sorted(m for m in sys.modules if m.startswith("puzzlebox.engine.")),
    "names": list(registry.names()),
}), file=sys.stderr)
"""

# what reading and showing may load of engine/: the registry and what it is built on
LIGHT_ENGINE = {"puzzlebox.engine.errors", "puzzlebox.engine.memory",
                "puzzlebox.engine.registry", "puzzlebox.engine.search",
                "puzzlebox.engine.stats"}  # fmt: skip


def loaded(*argv: str) -> dict[str, object]:
    done = subprocess.run([sys.executable, "-c", PROBE, *argv], capture_output=True,
                          text=True, timeout=120, check=False)  # fmt: skip
    assert done.returncode == 0, done.stderr
    return dict(json.loads(done.stderr.strip().splitlines()[-1]))


@pytest.mark.parametrize("puzzle", ["soma-cube", "pentomino-6x10", "queens-8", "cards-3x3"])
def test_show_loads_no_numpy_and_no_engine(puzzle: str) -> None:
    found = loaded("show", puzzle)
    assert found["numpy"] is False
    engines = found["engines"]
    assert isinstance(engines, list)
    assert set(engines) <= LIGHT_ENGINE, sorted(set(engines) - LIGHT_ENGINE)


def test_every_engine_is_registered_without_loading_one() -> None:
    """The kinds' own engines (the queens' bitmask, the cards' solver, the polyomino sink)
    are registered by reading a puzzle, their modules not imported."""
    found = loaded("show", "soma-cube")
    names = found["names"]
    assert isinstance(names, list)
    assert set(names) == {"auto", "reference", "compiled", "bitboard", "sat", "memo", "edges",
                          "sink", "queens-bitmask"}  # fmt: skip
    assert found["numpy"] is False


def test_a_search_still_loads_the_engines() -> None:
    """The probe can see numpy: the same probe on a count by the general (compiled) engine
    finds it loaded (a small puzzle's count by the bitboard or queens engine with the C
    kernels loads none since #23: tests/test_small_no_numpy.py)."""
    found = loaded("count", "pentomino-6x10", "--engine", "compiled")
    assert found["numpy"] is True
