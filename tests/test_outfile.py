"""A failed write leaves no file that looks like output (#38 item 5): every writer of a file
the user named writes a temporary beside it and renames it only once it is whole."""

from __future__ import annotations

import os
import resource
import subprocess
import sys
from pathlib import Path

import pytest

from puzzlebox import outfile

ROOT = Path(__file__).resolve().parent.parent
BURR = ROOT / "tests" / "data" / "pentominoes-6x10.xmpuzzle"
LIMIT = 600  # bytes: every output below is larger (the import: 738)


def _small_files() -> None:  # in the child: files of at most LIMIT bytes (ulimit -f)
    resource.setrlimit(resource.RLIMIT_FSIZE, (LIMIT, LIMIT))


COMMANDS = {
    "import -o": ["import", str(BURR), "-o", "{out}/out.toml"],
    "generate --out": ["generate", "edge-matching", "--size", "8", "--out", "{out}/out.toml"],
    "solve --out svg": ["solve", "pentomino-6x10", "--format", "svg", "--out", "{out}/s.svg"],
    "show --out svg": ["show", "pentomino-6x10", "--format", "svg", "--out", "{out}/p.svg"],
    "moves --out svg": ["moves", "framed-slack", "--solution", "6", "--format", "svg",
                        "--out", "{out}/strip.svg"],
    "export --sheet": ["export", "pentomino-6x10", "--sheet", "{out}/pieces.svg"],
    "export --stl": ["export", "pentomino-6x10", "--stl", "{out}/stl/"],
}


@pytest.mark.parametrize("argv", COMMANDS.values(), ids=COMMANDS.keys())
def test_a_write_past_ulimit_f_leaves_no_file(tmp_path, argv):
    out = tmp_path / "out"
    out.mkdir()
    env = dict(os.environ, PYTHONDONTWRITEBYTECODE="1", COLUMNS="100")
    done = subprocess.run(
        [sys.executable, "-m", "puzzlebox._start", *[a.format(out=out) for a in argv]],
        capture_output=True, text=True, env=env, preexec_fn=_small_files, timeout=300,
        cwd=tmp_path)
    assert done.returncode == 2, (done.returncode, done.stderr)
    assert done.stderr.startswith("puzzlebox: ") and done.stderr.count("\n") == 1, done.stderr
    assert "Traceback" not in done.stderr and "File too large" in done.stderr, done.stderr
    left = sorted(p.relative_to(out) for p in out.rglob("*") if p.is_file())
    assert left == [], left  # neither the output nor the temporary


def test_the_file_is_replaced_whole_or_left_as_it_was(tmp_path):
    target = tmp_path / "out.toml"
    target.write_text("old")

    class Boom(Exception):
        pass

    with pytest.raises(Boom), outfile.replacing(target, binary=False) as handle:
        handle.write("new, half")
        raise Boom
    assert target.read_text() == "old" and os.listdir(tmp_path) == ["out.toml"]
    outfile.write_text(target, "new")
    assert target.read_text() == "new" and os.listdir(tmp_path) == ["out.toml"]
    mask = os.umask(0)
    os.umask(mask)
    assert target.stat().st_mode & 0o777 == 0o666 & ~mask  # as open() would have made it
