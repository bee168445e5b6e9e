"""Every command printed in README.md and docs/*.md, found, classified and (optionally) run.

The docs test (tests/test_docs.py) runs the quick commands of the docs' ``console`` blocks as
printed and checks the rest without running them; the commands a doc marks ``[long]`` (minutes
of search, a benchmark) are run here instead, by hand, since no test may take minutes:

    .venv/bin/python bench/docs_commands.py            # the [long] commands, timed
    .venv/bin/python bench/docs_commands.py --list     # every command and how it is checked
    .venv/bin/python bench/docs_commands.py --all      # every runnable command, timed

Where a command is written:

* a ``console`` block: ``$ `` lines are commands, the lines after one what it prints (``...``
  stands for lines left out, ``^C`` for a run stopped by Ctrl-C);
* a ``sh``/``bash`` block or an inline span of prose (``puzzlebox count bedlam-cube``): a
  command quoted rather than shown with its output; checked without running.

A trailing comment may mark a command: ``[long]`` (run here, not in the test) or
``[needs WHAT]`` (a Dask scheduler, a browser: never run, only checked). Words in capitals
(``PUZZLE``, ``FILE``) and ``[optional]`` parts are placeholders: such a command is checked,
not run. Each run names the machine it ran on, and seconds are printed, never compared.
"""

from __future__ import annotations

import argparse
import os
import platform
import re
import shlex
import shutil
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DOCS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
_PROGRAM = re.compile(r"^(?:\.venv/bin/)?(puzzlebox|python3?)(?:\s|$)")
_INLINE = re.compile(r"`((?:\.venv/bin/)?(?:puzzlebox|python3?) [^`]*)`")
_MARK = re.compile(r"\[(long|needs [^\]]+)\]")
# PUZZLE, FILE, OUT.toml, [--out FILE], OUT.svg|OUT.pdf, <host>; not Y (a pentomino's name)
_PLACEHOLDER = re.compile(r"^[A-Z][A-Z_]+\b|^\[|\||^<")


@dataclass
class Command:
    """One command as a doc prints it, with what the doc shows it printing."""

    doc: str
    line: str
    where: str  # "console", "block" (sh/bash) or "inline"
    shown: list[str] = field(default_factory=list)

    @property
    def argv(self) -> list[str]:
        return shlex.split(self.line, comments=True)

    @property
    def program(self) -> str:
        """``puzzlebox`` or ``python``, however the doc spells the path."""
        name = Path(self.argv[0]).name
        return "python" if name.startswith("python") else name

    @property
    def mark(self) -> str | None:
        """``long``, ``needs ...``, or None."""
        found = _MARK.search(self.line.split("#", 1)[1]) if "#" in self.line else None
        return found.group(1) if found else None

    @property
    def placeholders(self) -> bool:
        return any(_PLACEHOLDER.search(word) for word in self.argv[1:])

    @property
    def interrupted(self) -> bool:
        return bool(self.shown) and self.shown[0].strip() == "^C"

    @property
    def runnable(self) -> bool:
        """Shown with its output in a console block, and can be run as printed there (no
        placeholder, nothing it needs that a clone lacks). A command quoted in prose or in
        a sh block is a reference (``puzzlebox export``), checked without running."""
        return (self.where == "console" and not self.placeholders
                and not (self.mark or "").startswith("needs"))

    @property
    def run_by_test(self) -> bool:
        """The docs test runs it: a quick command of a console block."""
        return self.where == "console" and self.runnable and self.mark is None

    def __str__(self) -> str:
        return f"{self.doc}: $ {self.line}"


def doc_commands(path: Path) -> list[Command]:
    """Every command written in ``path``, in order."""
    commands: list[Command] = []
    block: str | None = None  # the open code block's language, None outside one
    for line in path.read_text().splitlines():
        if line.startswith("```"):
            block = None if block is not None else (line[3:].strip() or "text")
            continue
        if block == "console":
            if line.startswith("$ "):
                commands.append(Command(path.name, line[2:].strip(), "console"))
            elif commands and commands[-1].where == "console":
                commands[-1].shown.append(line)
        elif block in ("sh", "bash"):
            if _PROGRAM.match(line.strip()):
                commands.append(Command(path.name, line.strip(), "block"))
        elif block is None:
            for found in _INLINE.finditer(line):
                commands.append(Command(path.name, found.group(1), "inline"))
    return commands


def all_commands() -> list[Command]:
    return [command for doc in DOCS for command in doc_commands(doc)]


def argv_here(command: Command) -> list[str]:
    """The command's argv with its program as this environment has it."""
    if command.program == "python":
        return [sys.executable, *command.argv[1:]]
    return [str(Path(sys.executable).parent / "puzzlebox"), *command.argv[1:]]


def workdir(into: Path) -> Path:
    """A fresh folder as a newcomer's clone has it for the docs' commands: the test data and
    the benchmarks (bench/ commands are printed to run from the repository root)."""
    shutil.copytree(ROOT / "tests" / "data", into / "tests" / "data")
    (into / "bench").symlink_to(ROOT / "bench")
    return into


def machine() -> str:
    """What the timings below were taken on."""
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    return (f"{platform.machine()}, {os.cpu_count()} cores, load {load:.1f}, "
            f"Python {platform.python_version()}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--all", action="store_true", help="run every runnable command")
    parser.add_argument("--list", action="store_true", help="list the commands, run none")
    parser.add_argument("--timeout", type=float, default=900.0,
                        help="seconds allowed each command (default 900)")
    args = parser.parse_args(argv)
    commands = all_commands()
    if args.list:
        for command in commands:
            how = ("run by the docs test" if command.run_by_test else
                   "run here" if command.runnable else "checked, not run")
            print(f"{how:21} {command.mark or '':24} {command}")
        return 0
    chosen = [c for c in commands if c.runnable and (args.all or c.mark == "long")]
    print(f"# {len(chosen)} commands on {machine()}", flush=True)
    failed = 0
    with tempfile.TemporaryDirectory() as folder:
        cwd = workdir(Path(folder))
        for command in chosen:
            began = time.perf_counter()
            try:
                done = subprocess.run(argv_here(command), cwd=cwd, capture_output=True,
                                      text=True, timeout=args.timeout)
                status = str(done.returncode)
                failed += done.returncode != 0
            except subprocess.TimeoutExpired:
                status, failed = "timeout", failed + 1
            print(f"{time.perf_counter() - began:8.1f} s  exit {status:7} {command}", flush=True)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
