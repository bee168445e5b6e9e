"""Seeded hostile inputs for the doors added since #18 (#28), and the check each must pass.

Four doors, each a generator ``(rng) -> input`` and a runner that puts one input through
the door and returns what went wrong (None when the input was answered as promised):

* ``lattice``: puzzle files on the triangle, hexagon and cube lattices and files with the
  designer's keys (givens, labels, sweeps, per-piece rules), mutated as tests/fuzz_inputs.py
  mutates (byte flips, wrong types, huge numbers, hostile names, truncation, ...), read by
  ``show`` and, when small, ``count`` and ``sweep``;
* ``burrtools``: BurrTools XML written from the documented format, plain or gzipped, then
  mutated (attributes out of range, doctypes and entities, unknown encodings, elements
  repeated or nested, names, truncation, small bombs), read by ``import``;
* ``export``: small puzzles with hostile piece names, counts and sizes, through ``export
  --sheet`` (SVG, PDF) and ``--stl`` with hostile ``--cell-mm``, ``--margin-mm``, ``--page``;
* ``web``: requests to the page's API (check, solve, count, stop, watch, solution) with
  bodies of every shape, through Starlette's test client.

The promise (docs/reliability.md): exit status 0 to 3 and, on 2 or 3, exactly one line
``puzzlebox: ...`` on standard error, never a traceback; nothing written outside the
folder the command was given (each runs in an empty working folder that must stay
empty); the page answers every request below 500 with a JSON error line. tests/
test_fuzz_doors.py runs a few hundred inputs a door; tools/fuzz_doors.py runs the long
version and measures the time and memory of each input.
"""

from __future__ import annotations

import contextlib
import gzip
import io
import json
import os
import random
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

from fuzz_inputs import MUTATIONS, NAMES, giant_grid
from puzzlebox import catalog
from puzzlebox.cli import main

LATTICE_FILES = [name for name in catalog.names()
                 if any(f'lattice = "{k}"' in catalog.path_of(name).read_text("utf-8")
                        for k in ("triangle", "hexagon", "cube"))]
DESIGNER_FILES = ["calendar", "pentomino-6x10-forbidden-15", "digital-jigsaw",
                  "black-and-white"]
DESIGNER_TEXTS = [
    'lattice = "hexagon"\n[board]\ngrid = ".###/####/###."\n[pieces.A]\nshape = "##"\n'
    'count = [0, 6]\nrotate = false\n[[givens]]\npiece = "A"\nat = [0, 1]\nturns = 1\n',
    'lattice = "cube"\n[board]\ngrid = ["##/##", "##/##"]\n[pieces.A]\nshape = "##"\n'
    'count = 4\n[[givens]]\npiece = "A"\ncells = [[0, 0, 0], [0, 0, 1]]\n',
    '[board]\ngrid = "####/####"\n[board.labels]\ng = "a b c d"\n[sweep]\nuncover = ["g"]\n'
    '[pieces]\nA = "##"\nB = "#/#"\nC = "#"\n',
    'lattice = "triangle"\n[board]\ngrid = "######/######"\n[pieces.A]\nshape = "###"\n'
    'count = "any"\nreflect = false\nat = [[0, 0], [0, 1], [0, 2]]\n',
]


# -- running a command as a user does -----------------------------------------------------------
STATUSES: list[int] = []  # the exit status of every command run, in order (for the tests)
WEB_CHECK_PEAK = 0  # the most resident bytes a check process of the last web fuzz held


def run_cli(argv: list[str], folder: Path, allowed: set[str]) -> str | None:
    """Run ``puzzlebox ARGV`` in ``folder`` (its working directory); what went wrong, or
    None. ``allowed``: the names the command may create in ``folder``."""
    out, err = io.StringIO(), io.StringIO()
    before = set(os.listdir(folder))
    cwd = os.getcwd()
    os.chdir(folder)
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            try:
                status = main(argv)
            except SystemExit as leave:  # argparse refusing an argument: its usage and line
                status = leave.code if isinstance(leave.code, int) else 2
                if status == 2 and ": error: argument " in err.getvalue():
                    STATUSES.append(status)
                    return None
    except Exception as failure:  # noqa: BLE001 - the finding itself
        return f"raised {type(failure).__name__}: {failure}"
    finally:
        os.chdir(cwd)
    STATUSES.append(status)
    text = err.getvalue()
    if "Traceback (most recent call last):\n" in text:
        return "a traceback: " + text[-300:]
    if status not in (0, 1, 2, 3):
        return f"exit status {status}"
    lines = text.splitlines()
    if status in (2, 3) and (len(lines) != 1 or not lines[0].startswith("puzzlebox: ")):
        return f"exit {status} with {len(lines)} lines on stderr: {text[:300]!r}"
    made = set(os.listdir(folder)) - before - allowed
    if made:
        return f"wrote outside the place named: {sorted(made)[:3]}"
    return None


# -- lattices and designer keys -----------------------------------------------------------------
def lattice_input(rng: random.Random) -> bytes:
    """A lattice or designer file put through one to three mutations (no giant grids: a
    count of a random 6,000-cell board is a hard problem, not a hostile file)."""
    if rng.random() < 0.3:
        raw = rng.choice(DESIGNER_TEXTS).encode()
    else:
        raw = catalog.path_of(rng.choice(LATTICE_FILES + DESIGNER_FILES)).read_bytes()
    mutations = [m for m in MUTATIONS if m is not giant_grid]
    for _ in range(rng.choice([1, 1, 2, 3])):
        raw = rng.choice(mutations)(rng, raw)
    return raw


SEARCH_SECONDS = 0.3  # a count's --max-time in the fuzz (tools/fuzz_doors.py may raise it)


def run_lattice(raw: bytes, folder: Path) -> str | None:
    """``show`` every input; ``count`` (held to :data:`SEARCH_SECONDS`) and ``sweep`` the
    small ones."""
    path = folder / "in.toml"
    path.write_bytes(raw)
    problem = run_cli(["show", str(path)], folder, set())
    if problem is not None or len(raw) > 3000:
        return problem
    for argv in (["count", str(path), "--quiet", "--max-time", str(SEARCH_SECONDS)],
                 ["sweep", str(path), "--quiet"]):
        problem = run_cli(argv, folder, set())
        if problem is not None:
            return f"{argv[0]}: {problem}"
    return None


# -- BurrTools XML ------------------------------------------------------------------------------
def _voxels(rng: random.Random, size: tuple[int, int, int], solid: bool) -> str:
    """A voxel space's text: all filled (``solid``), or any mix of the voxel kinds."""
    kinds = ["#"] if solid else ["#", "#", "_", "+", "#1", "#2"]
    return "".join(rng.choice(kinds) for _ in range(size[0] * size[1] * size[2]))


def burr_xml(rng: random.Random) -> str:
    """A BurrTools puzzle of a few shapes and problems, as the documented format has it."""
    solid = rng.random() < 0.6  # a puzzle that maps (solid boxes), or anything
    grid = rng.choice([0, 0, 0, 1]) if solid else rng.choice([0, 0, 0, 1, 2])
    shapes = []
    for i in range(rng.randint(2, 5)):
        size = ((rng.randint(2, 4), rng.randint(2, 3), rng.choice([1, 1, 2])) if i == 0
                else (rng.randint(1, 2), rng.randint(1, 2), 1))
        name = rng.choice(["", f' name="s{i}"', ' name="a"', ' name="a "', ' name=""'])
        shapes.append(f'<voxel x="{size[0]}" y="{size[1]}" z="{size[2]}" type="0"{name}>'
                      f"{_voxels(rng, size, solid)}</voxel>")
    problems = []
    for _ in range(rng.randint(1, 3)):
        parts = "".join(
            f'<shape id="{rng.randrange(1, len(shapes))}" count="{rng.randint(0, 3)}"/>'
            if rng.random() < 0.7 else
            f'<shape id="{rng.randrange(len(shapes))}" min="{rng.randint(0, 2)}" '
            f'max="{rng.randint(0, 4)}"/>' for _ in range(rng.randint(1, 4)))
        pairs = "".join(f'<pair piece="{rng.randint(0, 2)}" result="{rng.randint(0, 2)}"/>'
                        for _ in range(rng.randint(0, 3)))
        problems.append(f'<problem name="p{len(problems)}"><shapes>{parts}</shapes>'
                        f'<result id="{0 if solid else rng.randrange(len(shapes))}"/>'
                        f"<bitmap>{pairs}</bitmap>"
                        "</problem>")
    colours = "".join('<color red="255" green="0" blue="0"/>' for _ in range(rng.randint(0, 2)))
    return (f'<?xml version="1.0"?>\n<puzzle version="2"><gridType type="{grid}"/>'
            f"<colors>{colours}</colors><shapes>{''.join(shapes)}</shapes>"
            f"<problems>{''.join(problems)}</problems><comment>c</comment></puzzle>\n")


XML_MUTATIONS: list[Callable[[random.Random, str], str]] = [
    lambda rng, x: x.replace('"', '"' + rng.choice(["-", "99999999999999", "²", "x", ""]), 1),
    lambda rng, x: x.replace('<?xml version="1.0"?>', '<?xml version="1.0" encoding="'
                             + rng.choice(["x-bogus", "utf-32", "latin-1", "utf-16", "ascii"])
                             + '"?>'),
    lambda rng, x: x.replace("<puzzle", '<!DOCTYPE p [<!ENTITY e "' + "&e;" * 0 + 'lol">]>'
                             "<puzzle", 1).replace("<comment>c", "<comment>&e;"),
    lambda rng, x: x.replace("<comment>c", "<comment>&xxe;"),
    lambda rng, x: x.replace("<shapes>", "<shapes>" + "<a>" * rng.choice([10, 70]), 1)
    .replace("</shapes>", "</a>" * (10 if "<a>" * 70 not in x else 70) + "</shapes>", 1),
    lambda rng, x: x.replace("<problems>", "<problems>" + "<problem/>" * rng.choice(
        [5, 1001]), 1),
    lambda rng, x: x[: rng.randrange(len(x))],
    lambda rng, x: x.replace('type="0"', f'type="{rng.choice([1, 5, -1, 10**6])}"', 1),
    lambda rng, x: x.replace('x="', f'x="{rng.choice([0, 101, 10**7])}', 1),
    lambda rng, x: x.replace('name="s', 'name="' + rng.choice(NAMES).strip('"'), 1),
    lambda rng, x: x.replace("#", rng.choice(["#99", "#64", "3#", "?", "\x00"]), 1),
    lambda rng, x: x.replace("<colors>", "<colors>" + '<color red="1" green="1" blue="1"/>'
                             * rng.choice([3, 64]), 1),
    lambda rng, x: x.replace('version="2"', f'version="{rng.choice(["3", "", "1"])}"', 1),
]


def burrtools_input(rng: random.Random) -> bytes:
    text = burr_xml(rng)
    for _ in range(rng.choice([0, 1, 1, 2, 3])):
        text = rng.choice(XML_MUTATIONS)(rng, text)
    data = text.encode("utf-8", "surrogatepass")
    if rng.random() < 0.1:
        data = data.replace(b"c</comment>", b"\xe9\xff</comment>")  # not UTF-8
    if rng.random() < 0.5:
        data = gzip.compress(data, mtime=0)
        if rng.random() < 0.1:
            data = data[: rng.randrange(1, len(data))]
    return data


def run_burrtools(raw: bytes, folder: Path) -> str | None:
    path = folder / "in.xmpuzzle"
    path.write_bytes(raw)
    out = folder / "out.toml"
    problem = run_cli(["import", str(path), "-o", str(out), "--problem", "1"], folder,
                      {"out.toml"})
    if problem is None and out.exists():
        with contextlib.suppress(FileNotFoundError):
            problem = run_cli(["show", str(out)], folder, {"out.toml"})
            if problem is not None:
                problem = "the imported file: " + problem
        out.unlink()
    return problem


# -- exports ------------------------------------------------------------------------------------
EXPORT_SHAPES = {"square": ["##", "#/#", "##/#.", "###/#.#"], "hexagon": ["##", "###"],
                 "triangle": ["##", "###"], "cube": ['["##"]', '["#", "#"]']}
EXPORT_BOARDS = {"square": '"#####/#####/#####"', "hexagon": '".###/####/###."',
                 "triangle": '"######/######"', "cube": '["##/##", "##/##"]'}


def export_input(rng: random.Random) -> tuple[bytes, list[str]]:
    """A small puzzle with hostile piece names, counts and sizes, and export arguments."""
    lattice = rng.choice(sorted(EXPORT_SHAPES))
    lines = [f'lattice = "{lattice}"', "[board]", f"grid = {EXPORT_BOARDS[lattice]}"]
    names = set()
    for _ in range(rng.randint(1, 4)):
        name = rng.choice(NAMES + ['"A"', '"B"', '"a b"', '" "', '"\\u00e9"', '"CON"',
                                   '"x.stl"', '"../up"', '"a/b"'])
        if name in names:
            continue
        names.add(name)
        shape = rng.choice(EXPORT_SHAPES[lattice])
        shape = shape if shape.startswith("[") else f'"{shape}"'
        count = rng.choice(["1", "3", "0", '"any"', "[1, 4]", "10000", "30000", "-1", "2.5"])
        lines += [f"[pieces.{name}]", f"shape = {shape}", f"count = {count}"]
    raw = ("\n".join(lines) + "\n").encode()
    if rng.random() < 0.2:
        raw = rng.choice([m for m in MUTATIONS if m is not giant_grid])(rng, raw)
    target = rng.choice(["sheet.svg", "sheet.pdf", "stl", "sheet.png", "x/sheet.svg"])
    args = ["--sheet" if target.startswith(("sheet", "x/")) else "--stl", target]
    if rng.random() < 0.5:
        args += ["--cell-mm", rng.choice(["20", "0", "-1", "nan", "1e9", "0.001", "x", "1000"])]
    if rng.random() < 0.3:
        args += ["--margin-mm", rng.choice(["5", "-1", "inf", "0", "2000"])]
    if rng.random() < 0.3:
        args += ["--page", rng.choice(["A4", "a3", "letter", "10x10", "5x5", "100000x10",
                                       "x", "", "AxB", "nanxnan"])]
    return raw, args


def run_export(given: tuple[bytes, list[str]], folder: Path) -> str | None:
    raw, args = given
    path = folder / "in.toml"
    path.write_bytes(raw)
    allowed = {"sheet.svg", "sheet.pdf", "sheet.png", "stl", "x"}
    problem = run_cli(["export", str(path), *args], folder, allowed)
    for name in allowed:  # empty the folder for the next input
        made = folder / name
        if made.is_dir():
            for inner in made.iterdir():
                if inner.is_dir():
                    problem = problem or f"a folder inside the output folder: {inner.name}"
                    for deeper in inner.iterdir():
                        deeper.unlink()
                    inner.rmdir()
                else:
                    inner.unlink()
            made.rmdir()
        elif made.exists():
            made.unlink()
    return problem


# -- the page's API -----------------------------------------------------------------------------
ROUTES = ["/api/check", "/api/check", "/api/solve", "/api/count", "/api/stop", "/api/watch"]
JUNK: list[Any] = [None, True, 0, -1, 10**30, 1.5, "", "x" * 300, [], {}, [[1, 2]], {"a": 1},
                   "\u202e", "../../etc/passwd"]


def _model(rng: random.Random) -> Any:
    cells = [[rng.randint(-1, 6), rng.randint(0, 6), rng.choice(["#", "a", ".", "", "##"])]
             for _ in range(rng.randint(0, 8))]
    pieces = [{"name": rng.choice(["A", "B", "", " ", "\n", "x" * 50, 1]),
               "cells": [[0, 0, "#"], [0, 1, "#"]] if rng.random() < 0.7 else rng.choice(JUNK),
               "count": rng.choice([1, 2, [0, 3], "any", -1, True, [3, 1], None])}
              for _ in range(rng.randint(0, 3))]
    model: dict[str, Any] = {"title": rng.choice(["t", 5, ""]), "board": cells,
                             "pieces": pieces,
                             "rules": rng.choice([{}, {"rotate": False}, {"reflect": 1}, []])}
    if rng.random() < 0.3:
        model["lattice"] = rng.choice(["square", "hexagon", "triangle", "cube", "x", 3])
    return model


def web_input(rng: random.Random) -> tuple[str, str, bytes]:
    """``(method, path, body)``: a route of the API and a body of any shape."""
    if rng.random() < 0.1:
        path = rng.choice(["/api/solution/{t}/0.svg", "/api/solution/{t}/-1.png",
                           "/api/solution/{t}/99.json", "/api/events/{t}",
                           "/api/cells/square?rows=-1&cols=x", "/api/cells/hexagon?rows=99",
                           "/api/catalog/../../etc", "/api/catalog/queens-8"])
        return "GET", path.replace("{t}", rng.choice(["tabfuzz0001", "x", "a" * 70])), b""
    body: dict[str, Any] = {"tab": rng.choice(["tabfuzz0001", "tabfuzz0002", "short", 5,
                                               "tabfuzz0003"])}
    roll = rng.random()
    if roll < 0.4:
        raw = lattice_input(rng) if rng.random() < 0.5 else rng.choice(
            [b'kind = "queens"\nn = 5\n', b'[board]\ngrid = "##"\n[pieces]\n"" = "##"\n',
             b'[board]\ngrid = "###/###"\n[pieces]\nL = "##/#."\nM = "#"\n'])
        body["toml"] = raw.decode("utf-8", "replace")
    elif roll < 0.7:
        body["model"] = _model(rng)
    else:
        for key in rng.sample(["toml", "model", "board", "index", "nodes", "name", "peek",
                               "restart"], rng.randint(1, 3)):
            body[key] = rng.choice(JUNK)
    for key in ("board", "index", "nodes", "name"):
        if rng.random() < 0.15:
            body[key] = rng.choice(JUNK)
    data = json.dumps(body).encode()
    if rng.random() < 0.05:
        data = rng.choice([b"[" * 50_000, b"not json", data[: len(data) // 2], b"\xff\xfe"])
    return "POST", rng.choice(ROUTES), data


def run_web(client: Any, given: tuple[str, str, bytes]) -> str | None:
    method, path, data = given
    if method == "GET":
        answer = client.get(path)
    else:
        answer = client.post(path, content=data, headers={"content-type": "application/json"})
        if path in ("/api/solve", "/api/count"):  # no search left running behind the fuzz
            client.post("/api/stop", json={"tab": "tabfuzz0001"})
            client.post("/api/stop", json={"tab": "tabfuzz0002"})
    if answer.status_code >= 500:
        return f"{method} {path}: HTTP {answer.status_code}: {answer.text[:300]}"
    kind = answer.headers.get("content-type", "")
    if answer.status_code >= 400 and kind.startswith("application/json"):
        line = answer.json().get("error", "")
        if not isinstance(line, str) or not line or "\n" in line:
            return f"{method} {path}: HTTP {answer.status_code} without one error line"
    return None


DOORS: dict[str, tuple[Callable[[random.Random], Any], Callable[[Any, Path], str | None]]] = {
    "lattice": (lattice_input, run_lattice),
    "burrtools": (burrtools_input, run_burrtools),
    "export": (export_input, run_export),
}


def fuzz(door: str, seed: int, count: int,
         on_each: Callable[[int, Any, str | None], None] | None = None) -> list[str]:
    """Put ``count`` inputs of ``door`` (seeded) through it; the failures, each naming its
    seed and index so that it can be replayed."""
    failures = []
    rng = random.Random(f"{door}-{seed}")
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        if door == "web":
            from starlette.testclient import TestClient

            from puzzlebox.web.app import create_app

            app = create_app()
            with TestClient(app) as client:
                for index in range(count):
                    given = web_input(rng)
                    problem = run_web(client, given)
                    if on_each is not None:
                        on_each(index, given, problem)
                    if problem is not None:
                        failures.append(f"web seed {seed} input {index}: {problem}")
                app.state.app.runs.stop_all()
            global WEB_CHECK_PEAK
            WEB_CHECK_PEAK = app.state.app.checks.peak_resident
            return failures
        make, run = DOORS[door]
        for index in range(count):
            given = make(rng)
            problem = run(given, folder)
            if on_each is not None:
                on_each(index, given, problem)
            if problem is not None:
                failures.append(f"{door} seed {seed} input {index}: {problem}")
    return failures
