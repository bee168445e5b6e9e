"""Every command printed in the README and in docs/ runs as printed (issues #16 and #26).

The commands are found by bench/docs_commands.py (one parser for this test and for the bench
script that runs the long ones). A doc's ``console`` blocks hold a user's session: ``$ ``
lines are commands, the lines after one what it prints. Each document's quick commands run
in order, in one fresh folder holding the repository's test data (where the docs point a
newcomer), with this environment's ``puzzlebox`` and ``python``, and must exit 0, or 130
where the doc shows the run stopped with ``^C`` (it is then interrupted after 3 s).

What a command prints must have the shape the doc shows: a JSON line its keys, and the same
puzzle, solutions and distinct counts; a text line must appear in the output once times,
speeds and other measured figures are read as placeholders (``8.6 s`` and ``12.4 s`` are the
same shape), so a doc can quote a run without the test depending on the machine's speed.

Commands a doc marks ``[long]`` run in bench/ (``python bench/docs_commands.py``), not here;
those marked ``[needs ...]``, those with placeholders (``PUZZLE``) and those quoted in prose
or sh blocks are checked without running: the subcommand exists, each option is one its
``--help`` lists, a catalog name is in the catalog, a bench script or module exists.
"""

from __future__ import annotations

import contextlib
import importlib.util
import io
import json
import re
import signal
import subprocess
import sys
import time
from functools import cache
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parent.parent


def _load_bench(name: str) -> ModuleType:
    spec = importlib.util.spec_from_file_location(name, ROOT / "bench" / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module  # dataclasses look their module up
    spec.loader.exec_module(module)
    return module


docs_commands = _load_bench("docs_commands")
Command = docs_commands.Command
ALL: list = docs_commands.all_commands()
RUN = [c for c in ALL if c.run_by_test]
CHECKED = [c for c in ALL if not c.run_by_test]
PUZZLEBOX = Path(sys.executable).parent / "puzzlebox"
# Values that must agree between a doc's JSON line and the command's (others vary by run).
SAME = ("puzzle", "solutions", "distinct", "board")
# Subcommands whose first argument is a puzzle (a catalog name or a file)
TAKES_A_PUZZLE = {"show", "solve", "count", "estimate", "sweep", "export"}


def test_the_docs_have_commands_of_every_kind():
    """The tests below would pass vacuously if the blocks were renamed; they are not."""
    docs = {c.doc for c in RUN}
    assert {"README.md", "estimates.md", "cluster.md", "gallery.md"} <= docs
    assert len(RUN) >= 25 and len(CHECKED) >= 20
    assert all(c.program in ("puzzlebox", "python") for c in ALL), [
        c.line for c in ALL if c.program not in ("puzzlebox", "python")]
    long = [c for c in ALL if c.mark == "long"]
    assert long and all(c.runnable for c in long)  # bench/docs_commands.py can run each
    assert any(c.program == "python" and "bench/" in c.line for c in long)


# -- the shape of what a command prints -----------------------------------------------------
_MEASURED = [
    (re.compile(r"\d[\d,]*(\.\d+)?\s*(ms|s|min|h|seconds?|minutes?)\b"), "<time>"),
    (re.compile(r"\d[\d,]*(\.\d+)?\s*[kMG]?(nodes|solutions)?/s\b"), "<rate>"),
    (re.compile(r"\d+(\.\d+)?\s*%"), "<share>"),
    (re.compile(r"\bx\d+(\.\d+)?\b"), "<ratio>"),
    (re.compile(r"\d+\.\d+"), "<number>"),
]


def shape(line: str) -> str:
    """A printed line with what a run measures (times, speeds, shares, decimals) made
    placeholders, and runs of spaces made one: two runs of the same command agree on it."""
    for pattern, placeholder in _MEASURED:
        line = pattern.sub(placeholder, line)
    return " ".join(line.split())


def _shown_json(command: Command) -> dict | None:
    """The JSON object the doc shows after the command (``...`` marks keys left out)."""
    for line in command.shown:
        if line.startswith("{"):
            return json.loads(re.sub(r",\s*\.\.\.\s*}", "}", line))
    return None


def _shown_text(command: Command) -> list[str]:
    """The doc's text lines after the command, but ``...`` (lines left out), ``^C`` (the
    interrupt typed) and JSON (compared by keys instead); the last alone after a ``^C``."""
    lines = [line for line in command.shown
             if line.strip() and line.strip() not in ("...", "^C") and not line.startswith("{")]
    # Where a run is stopped, what it had printed by then depends on the machine's speed:
    # its last line (how it stopped) is what every run must print
    return lines[-1:] if command.interrupted else lines


def _run(command: Command, cwd: Path) -> subprocess.CompletedProcess[str]:
    argv = docs_commands.argv_here(command)
    if not command.interrupted:
        return subprocess.run(argv, cwd=cwd, capture_output=True, text=True, timeout=120)
    proc = subprocess.Popen(argv, cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True)
    time.sleep(3.0)
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=120)
    return subprocess.CompletedProcess(argv, proc.returncode, out, err)


@pytest.mark.parametrize("doc", sorted({c.doc for c in RUN}))
def test_console_commands_run_as_printed(doc, tmp_path):
    cwd = docs_commands.workdir(tmp_path)
    for command in (c for c in RUN if c.doc == doc):
        result = _run(command, cwd)
        want = 130 if command.interrupted else 0
        context = f"{command}\nexit {result.returncode}\n{result.stdout[-2000:]}\n" \
                  f"{result.stderr[-2000:]}"
        assert result.returncode == want, context
        shown = _shown_json(command)
        if shown is not None:
            got = json.loads(result.stdout.splitlines()[0])
            assert set(shown) <= set(got), (command.line, set(shown) - set(got))
            for key in SAME:
                if key in shown:
                    assert got[key] == shown[key], (command.line, key)
        printed = [shape(line) for line in (result.stdout + result.stderr).splitlines()]
        for line in _shown_text(command):
            assert shows(printed, line), f"{command}\nthe doc shows: {line!r}\n{context}"


def shows(printed: list[str], line: str) -> bool:
    """Whether a line the doc shows is among the printed ones (their shapes); a doc's line
    ending in ``(...)`` or ``...`` shows the start of a printed line, the rest left out."""
    for elided in ("(...)", "..."):
        if line.rstrip().endswith(elided):
            start = shape(line.rstrip()[: -len(elided)])
            return any(p.startswith(start) for p in printed)
    return shape(line) in printed


def test_the_shape_ignores_measured_figures_but_not_counts():
    assert shape("found in 8.6 s, 12,345 nodes/s") == shape("found in 31.2 s, 980 nodes/s")
    assert shape("  63% shown, 7.8 s for 8.6 s (x0.90)") == shape("40% shown, 1 s for 2 s (x1.5)")
    assert shape("calendar: 366 solvable") != shape("calendar: 365 solvable")
    assert shape("layer 0 (bottom)") == "layer 0 (bottom)"
    printed = [shape("x: 9356 solutions, 2339 distinct (3.196 s, 877696 nodes)")]
    assert shows(printed, "x: 9356 solutions, 2339 distinct (...)")
    assert not shows(printed, "x: 9357 solutions, 2339 distinct (...)")
    assert not shows(printed, "x: 9356 solutions, 2339 distinct")


def test_a_failing_command_or_a_drifted_line_would_fail_the_doc_test(tmp_path):
    """The runner sees a failing command and a line the command no longer prints."""
    result = _run(Command("x", "puzzlebox count no-such-file.toml --why", "console"), tmp_path)
    assert result.returncode != 0
    result = _run(Command("x", "puzzlebox sweep calendar", "console"), tmp_path)
    printed = {shape(line) for line in result.stdout.splitlines()}
    assert shape("  Jan 1   64 solutions, 64 distinct") in printed
    assert shape("  Jan 1   65 solutions, 64 distinct") not in printed


# -- the commands checked without running ---------------------------------------------------
@cache
def _help(*subcommand: str) -> str:
    done = subprocess.run([str(PUZZLEBOX), *subcommand, "--help"], capture_output=True,
                          text=True, timeout=120)
    named = " ".join(subcommand)
    assert done.returncode == 0, f"'puzzlebox {named}' is no subcommand: {done.stderr}"
    return done.stdout


def _options(argv: list[str]) -> list[str]:
    return [word.strip("[]").split("=")[0] for word in argv
            if word.lstrip("[").startswith("-") and not re.fullmatch(r"-\d+", word)]


@pytest.mark.parametrize("command", CHECKED, ids=str)
def test_commands_quoted_in_the_docs_are_real(command):
    from puzzlebox import catalog

    argv = command.argv
    if command.program == "python":
        if len(argv) > 2 and argv[1] == "-m":
            assert importlib.util.find_spec(argv[2].split(".")[0]) is not None, command
        elif len(argv) > 1 and argv[1].endswith(".py"):
            assert (ROOT / argv[1]).exists(), f"{command}: no such script"
        return
    if len(argv) == 1:
        return
    nested = argv[1] == "generate" and len(argv) > 2  # generate KIND has its own options
    text = _help(*argv[1:3]) if nested else _help(argv[1])
    for option in _options(argv[2:]):
        assert re.search(rf"(^|[\s,\[]){re.escape(option)}\b", text), \
            f"{command}: 'puzzlebox {argv[1]}' has no option {option}"
    if argv[1] in TAKES_A_PUZZLE and len(argv) > 2 and not argv[2].startswith("-"):
        name = argv[2]
        if not re.search(r"[/.A-Z|\[<]", name):  # a catalog name, not a file or placeholder
            assert name in catalog.names(), (
                f"{command}: no catalog puzzle {name} (nearest: {catalog.suggestions(name)})")


def test_a_quoted_command_naming_a_missing_puzzle_would_fail():
    with pytest.raises(AssertionError, match="no catalog puzzle queens-20"):
        test_commands_quoted_in_the_docs_are_real(
            Command("x", "puzzlebox count queens-20 --cluster tcp://10.0.0.5:8786", "block"))
    with pytest.raises(AssertionError, match="has no option --no-such-flag"):
        test_commands_quoted_in_the_docs_are_real(
            Command("x", "puzzlebox count pentomino-6x10 --no-such-flag", "block"))


def test_commands_run_with_this_environment_s_entry_point():
    """The entry point is the one of this environment, as a user's venv would have it."""
    assert PUZZLEBOX.exists(), PUZZLEBOX
    assert docs_commands.argv_here(Command("x", ".venv/bin/puzzlebox list", "console"))[0] \
        == str(PUZZLEBOX)


# -- the Python sessions (docs/api.md) and the README's Python block ------------------------
def code_blocks(path: Path, language: str) -> list[str]:
    """The text of each ``language`` block of the file, in order."""
    blocks: list[str] = []
    inside: list[str] | None = None
    for line in path.read_text().splitlines():
        if line.startswith("```"):
            if inside is not None:
                blocks.append("\n".join(inside))
                inside = None
            elif line[3:].strip() == language:
                inside = []
        elif inside is not None:
            inside.append(line)
    return blocks


def examples(block: str) -> list[tuple[str, list[str]]]:
    """A pycon block's examples: the code of each ``>>>`` statement (with its ``...`` lines)
    and the lines shown after it."""
    found: list[tuple[list[str], list[str]]] = []
    in_code = False
    for line in block.splitlines():
        if line.startswith(">>> "):
            found.append(([line[4:]], []))
            in_code = True
        elif in_code and (line.startswith("... ") or line == "..."):
            found[-1][0].append(line[4:])
            in_code = line != "..."
        else:
            in_code = False
            if found and line.strip():
                found[-1][1].append(line)
    return [("\n".join(code) + "\n", shown) for code, shown in found]


def matches(shown: list[str], printed: str) -> bool:
    """What a session printed has the shape the doc shows: line by line once measured figures
    are placeholders and blank lines dropped; ``...`` alone stands for any lines, a line
    ending in ``...`` for any ending."""
    pattern = ""
    for line in shown:
        if line.strip() == "...":
            pattern += r"(?:[^\n]*\n)*?"
        elif line.rstrip().endswith("..."):
            pattern += re.escape(shape(line.rstrip()[:-3])) + r"[^\n]*\n"
        else:
            pattern += re.escape(shape(line)) + r"\n"
    text = "".join(shape(line) + "\n" for line in printed.splitlines() if line.strip())
    return re.fullmatch(pattern, text) is not None


PYCON = [doc for doc in docs_commands.DOCS if code_blocks(doc, "pycon")]


@pytest.mark.parametrize("doc", PYCON, ids=lambda p: p.name)
def test_python_sessions_in_the_docs_print_what_they_show(doc, tmp_path, monkeypatch):
    monkeypatch.chdir(docs_commands.workdir(tmp_path))
    namespace: dict[str, Any] = {"__name__": "__main__"}
    for block in code_blocks(doc, "pycon"):
        for code, shown in examples(block):
            out = io.StringIO()
            with contextlib.redirect_stdout(out):
                exec(compile(code, doc.name, "single"), namespace)
            assert matches(shown, out.getvalue()), (
                f"{doc.name}: >>> {code}the doc shows:\n" + "\n".join(shown)
                + f"\nit printed:\n{out.getvalue()}")


def test_the_session_runner_sees_a_difference():
    assert {p.name for p in PYCON} >= {"api.md"}
    assert matches(["9356 solutions, 2339 distinct (bitboard engine, 0.7 s)"],
                   "9356 solutions, 2339 distinct (bitboard engine, 12.5 s)\n")
    assert not matches(["9356 solutions"], "9357 solutions\n")
    assert matches(["board:", "...", "end"], "board:\n a\n b\nend\n")
    assert not matches(["board:", "end"], "board:\n a\nend\n")
    code, shown = examples(">>> for x in 'ab':\n...     print(x)\n...\na\nb")[0]
    assert code == "for x in 'ab':\n    print(x)\n\n" and shown == ["a", "b"]


def test_the_readme_s_python_block_runs(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(docs_commands.workdir(tmp_path))
    (block,) = code_blocks(ROOT / "README.md", "python")
    exec(compile(block, "README.md", "exec"), {"__name__": "__main__"})
    printed = capsys.readouterr().out
    assert printed.count("\n\n") >= 5 and "9356 solutions, 2339 distinct" in printed


def test_every_other_python_block_in_the_docs_compiles():
    for doc in docs_commands.DOCS:
        for block in code_blocks(doc, "python"):
            compile(block, doc.name, "exec")


def test_cluster_md_s_local_cluster_example_runs(monkeypatch, capsys):
    """docs/cluster.md's LocalCluster block runs as printed (issue #38 item 1: a SplitRun
    made by hand takes auto's choice from the run layer), on one cluster of threads here to
    keep it cheap, and prints what its comments show."""
    pytest.importorskip("dask.distributed")
    (block,) = [b for b in code_blocks(ROOT / "docs" / "cluster.md", "python")
                if "LocalCluster" in b]
    cheap = "n_workers=1, threads_per_worker=1, processes=False, dashboard_address=None"
    assert "n_workers=2, threads_per_worker=1, processes=True" in block
    block = block.replace("n_workers=2, threads_per_worker=1, processes=True", cheap)
    exec(compile(block, "cluster.md", "exec"), {"__name__": "__main__"})
    printed = capsys.readouterr().out.splitlines()
    assert len(printed) == 2 and printed[-1] == "92 12", printed  # the address, the counts
