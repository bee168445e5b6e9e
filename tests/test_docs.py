"""Every command line printed in the README and in docs/ runs as printed (issue #16 item 1).

A doc's ```console blocks hold a user's session: lines starting with ``$ `` are commands, the
lines after one are what it prints. Each document's commands run in order, in one fresh
directory holding the repository's test data (where the docs point a newcomer), with the
``puzzlebox`` entry point of this environment, and must exit with status 0, or 130 where the
doc shows the run stopped with ``^C`` (it is then interrupted after a second). Where the doc
shows a JSON line, the command's output must carry its keys, and the same puzzle, solutions
and distinct counts. So a doc can no longer drift from the command it describes.
"""

from __future__ import annotations

import json
import os
import re
import shlex
import shutil
import signal
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
DOCS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
PUZZLEBOX = Path(sys.executable).parent / "puzzlebox"
# Every command runs: each takes under 2 s on the shared 2-core machine (measured one by one,
# wall clock, warm numba cache), except cluster.md's count of pentomino-3x20 with the
# reference engine (about 12 s), which the doc itself shows stopped by Ctrl-C: it is stopped
# after 3 s here, which is what the doc shows.
# Values that must agree between a doc's JSON line and the command's (others vary by run).
SAME = ("puzzle", "solutions", "distinct", "board")


@dataclass
class Command:
    doc: str
    line: str
    shown: list[str] = field(default_factory=list)

    @property
    def argv(self) -> list[str]:
        return shlex.split(self.line, comments=True)

    @property
    def interrupted(self) -> bool:
        return bool(self.shown) and self.shown[0].strip() == "^C"


def console_commands(path: Path) -> list[Command]:
    """The ``$ `` lines of the file's console blocks, each with the lines printed after it."""
    commands: list[Command] = []
    inside = False
    for line in path.read_text().splitlines():
        if line.startswith("```"):
            inside = line.strip() == "```console"
            continue
        if not inside:
            continue
        if line.startswith("$ "):
            commands.append(Command(path.name, line[2:]))
        elif commands:
            commands[-1].shown.append(line)
    return commands


ALL = [c for doc in DOCS for c in console_commands(doc)]


def test_the_docs_have_console_blocks():
    """The test below would pass vacuously if the blocks were renamed; they are not."""
    docs = {c.doc for c in ALL}
    assert {"README.md", "estimates.md", "cluster.md"} <= docs
    assert len(ALL) >= 15
    assert all(c.argv[0] == "puzzlebox" for c in ALL), [c.line for c in ALL]


def _shown_json(command: Command) -> dict | None:
    """The JSON object the doc shows after the command (``...`` marks keys left out)."""
    for line in command.shown:
        if line.startswith("{"):
            return json.loads(re.sub(r",\s*\.\.\.\s*}", "}", line))
    return None


def _run(command: Command, cwd: Path) -> subprocess.CompletedProcess[str]:
    argv = [str(PUZZLEBOX), *command.argv[1:]]
    if not command.interrupted:
        return subprocess.run(argv, cwd=cwd, capture_output=True, text=True, timeout=120)
    proc = subprocess.Popen(argv, cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True)
    time.sleep(3.0)
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=60)
    return subprocess.CompletedProcess(argv, proc.returncode, out, err)


@pytest.mark.parametrize("doc", sorted({c.doc for c in ALL}))
def test_console_commands_run_as_printed(doc, tmp_path):
    shutil.copytree(ROOT / "tests" / "data", tmp_path / "tests" / "data")
    for command in (c for c in ALL if c.doc == doc):
        result = _run(command, tmp_path)
        want = 130 if command.interrupted else 0
        assert result.returncode == want, (
            f"{doc}: $ {command.line}\nexit {result.returncode}\n{result.stdout[-2000:]}\n"
            f"{result.stderr[-2000:]}"
        )
        shown = _shown_json(command)
        if shown is not None:
            got = json.loads(result.stdout.splitlines()[0])
            assert set(shown) <= set(got), (command.line, set(shown) - set(got))
            for key in SAME:
                if key in shown:
                    assert got[key] == shown[key], (command.line, key)


def test_a_missing_file_would_fail_the_doc_test(tmp_path):
    """The runner sees a failing command: the check above can fail."""
    result = _run(Command("x", "puzzlebox count no-such-file.toml --why"), tmp_path)
    assert result.returncode != 0


def test_commands_run_with_a_clean_environment():
    """The entry point is the one of this environment, as a user's venv would have it."""
    assert PUZZLEBOX.exists(), PUZZLEBOX
    assert os.access(PUZZLEBOX, os.X_OK)
