"""The web server at the HTTP level (Starlette's TestClient): what the page may ask for, what
it gets, and what it cannot do. The page itself is tested in a browser (test_web_browser.py).
"""

from __future__ import annotations

import asyncio
import itertools
import json
import os
import re
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

pytest.importorskip("starlette", reason="the web extra (starlette) is not installed")
pytest.importorskip("httpx", reason="httpx (Starlette's test client) is not installed")

from starlette.testclient import TestClient  # noqa: E402
from tests.web_page import WAIT, roomy_app  # noqa: E402

from puzzlebox import catalog  # noqa: E402
from puzzlebox.engine.reference import ReferenceSearch  # noqa: E402
from puzzlebox.engine.search import Job, Mode  # noqa: E402
from puzzlebox.errors import PuzzleboxError  # noqa: E402
from puzzlebox.formats import PuzzleFileError  # noqa: E402
from puzzlebox.formats.reader import read_text  # noqa: E402
from puzzlebox.geometry import lattice_named  # noqa: E402
from puzzlebox.puzzles.polyomino.disassembly_rules import DisassemblyRules  # noqa: E402
from puzzlebox.web.app import MAX_BODY  # noqa: E402
from puzzlebox.web.model import designed, drawn_lattices, model_of, to_toml  # noqa: E402
from puzzlebox.web.runs import Runs  # noqa: E402

STATIC = Path(__file__).parents[1] / "src" / "puzzlebox" / "web" / "static"
QUEENS = 'kind = "queens"\nn = {n}\n'
TAB = "testtab01"
_tabs = itertools.count()


def new_tab() -> str:
    return f"tab{next(_tabs):06d}"


@pytest.fixture
def client():
    app = roomy_app()
    with TestClient(app) as c:
        c.web = app.state.app
        yield c


def follow(client, tab: str) -> list[dict]:
    """The progress events of the tab's search, to its end."""
    events = []
    with client.stream("GET", f"/api/events/{tab}") as stream:
        for line in stream.iter_lines():
            if line.startswith("data: ") and line != "data: {}":
                events.append(json.loads(line[6:]))
    return events


def wait_idle(web, tab: str, seconds: float = WAIT) -> None:
    deadline = time.time() + seconds
    while web.runs.get(tab).running:
        assert time.time() < deadline, "the search did not stop"
        time.sleep(0.02)


# -- the page and its files ------------------------------------------------------------------


def test_the_page_is_served_and_fetches_nothing_from_elsewhere(client):
    page = client.get("/")
    assert page.status_code == 200 and "<title>puzzlebox</title>" in page.text
    for name in ("app.js", "style.css"):
        assert client.get(f"/static/{name}").status_code == 200
    # no CDN, no font service: nothing leaves the machine (three.js in vendor/ is upstream's
    # files unchanged, held to their sums by tests/test_web_3d.py)
    for path in STATIC.iterdir():
        if path.is_dir():
            assert path.name == "vendor", path
            continue
        text = path.read_text("utf-8").replace('"http://www.w3.org/2000/svg"', "")  # a name
        assert not re.search(r"(https?:)?//[a-z0-9.-]+\.[a-z]{2,}", text), path


def test_catalog_names_only_never_a_path(client):
    entries = client.get("/api/catalog").json()
    assert [e["name"] for e in entries] == catalog.names()
    one = client.get("/api/catalog/queens-8").json()
    assert one["toml"] == catalog.path_of("queens-8").read_text("utf-8")
    for sneaky in ("..%2F..%2Fpyproject", "%2Fetc%2Fpasswd", "queens-8.toml", "nothing"):
        assert client.get(f"/api/catalog/{sneaky}").status_code == 404
    assert client.get("/static/../pyproject.toml").status_code == 404


# -- checking and the TOML contract ----------------------------------------------------------


def test_the_editor_gets_cell_outlines_from_the_lattice(client):
    from puzzlebox.geometry import lattice_named

    names = client.get("/api/lattices").json()
    assert "square" in names
    for name in names:
        cells = client.get(f"/api/cells/{name}?rows=2&cols=3").json()
        assert [(r, c) for r, c, _ in cells] == [(r, c) for r in range(2) for c in range(3)]
        for r, c, points in cells:
            assert points == [[round(x, 4), round(y, 4)]
                              for x, y in lattice_named(name).polygon((r, c))]
    assert client.get("/api/cells/nowhere").status_code == 404
    assert client.get("/api/cells/square?rows=1000").status_code == 400


def test_a_bad_file_gets_the_readers_one_line(client):
    text = '[board]\ngrid = "##"\n[pieces\n'
    response = client.post("/api/check", json={"toml": text, "name": "broken"})
    assert response.status_code == 400
    with pytest.raises(PuzzleFileError) as expected:
        read_text(text, "broken.toml", "broken")
    assert response.json()["error"] == str(expected.value)
    assert "\n" not in response.json()["error"]


def test_check_gives_the_picture_the_area_and_the_proofs(client):
    text = '[board]\ngrid = "####/####"\n[pieces]\nL = "#/#/##"\nT = "###/.#"\n'
    data = client.post("/api/check", json={"toml": text}).json()
    assert data["area"] == "board: 8 cells; pieces: 8 cells (the areas can add up)"
    assert [p["argument"] for p in data["proofs"]] == ["checkerboard"]
    assert data["svg"].lstrip().startswith("<?xml") and "<svg" in data["svg"]
    data["model"]["pieces"][1]["cells"] = [[0, 0, "#"], [1, 0, "#"], [2, 0, "#"], [2, 1, "#"]]
    fixed = client.post("/api/check", json={"model": data["model"]}).json()
    assert "proofs" in fixed, fixed  # (an error's answer says why: once, under a loaded CI run)
    assert fixed["proofs"] == [] and fixed["toml"].count('"""\n#\n#\n##\n"""') == 2


@pytest.mark.parametrize("name", catalog.names())
def test_a_saved_file_reads_back_identically(name):
    """Every catalog puzzle the grid editor draws: its model written as TOML and read again
    gives the same board, pieces and rules (so the CLI reads what the page saved)."""
    pf = catalog.load_file(name)
    model = model_of(pf)
    if model is None:
        puzzle = pf.puzzles[0]
        assert (pf.batch or puzzle.kind != "polyomino" or designed(puzzle)
                or puzzle.lattice.polygon(next(iter(puzzle.board))) is None)
        return
    again = read_text(to_toml(model), "saved.toml", name)
    assert model_of(again) == model
    a, b = pf.puzzles[0], again.puzzles[0]
    assert (a.pieces, a.rotate, a.reflect, a.match_colors, a.title, a.notes) == (
        b.pieces, b.rotate, b.reflect, b.match_colors, b.title, b.notes)
    # the board is the same cells, moved at most by a translation of its lattice (a saved
    # grid drops empty leading rows and columns); on the square lattice of the catalog so
    # far, not moved at all
    lattice = getattr(a, "lattice", None) or lattice_named("square")
    assert lattice.normalize(a.board) == lattice.normalize(b.board)
    if lattice.name == "square" and min(r for r, _ in a.board) == 0 == min(c for _, c in a.board):
        assert a.board == b.board
    # optional cells move with the board; the neutral colour and [disassembly] stay (#36)
    moved = [y - x for x, y in zip(min(a.board), min(b.board), strict=True)]
    assert b.optional == {tuple(v + d for v, d in zip(cell, moved, strict=True))
                          for cell in a.optional}
    assert (a.neutral, a.disassembly or DisassemblyRules()) == (
        b.neutral, b.disassembly or DisassemblyRules())


def test_names_titles_and_colours_that_need_escaping_survive():
    model = {"title": 'a "quoted"\\title\twith\x7f and é', "notes": "two\nlines",
             "board": [[0, 0, '"'], [0, 1, "\\"], [1, 0, "x"], [1, 1, "#"]],
             "pieces": [{"name": "piece one", "cells": [[0, 0, '"'], [0, 1, "\\"]], "count": 1},
                        {"name": "b", "cells": [[0, 0, "x"], [0, 1, "#"]], "count": [0, 2]},
                        {"name": "c", "cells": [[0, 0, "#"]], "count": "any"}],
             "rules": {"rotate": False, "reflect": True, "match_colors": True, "neutral": ""}}
    pf = read_text(to_toml(model), "x.toml", "x")
    back = model_of(pf)
    assert back["title"] == model["title"] and back["notes"] == model["notes"]
    assert back["board"] == sorted(model["board"]) and back["rules"] == model["rules"]
    assert [(p["name"], p["count"]) for p in back["pieces"]] == [
        ("piece one", 1), ("b", [0, 2]), ("c", "any")]


def test_bad_models_and_requests_get_one_line(client):
    for model, words in (({"board": [], "pieces": []}, "no cells"),
                         ({"board": [[0, 0, "."]], "pieces": []}, "visible character"),
                         ({"board": [[0, 0, "#"]], "pieces": [{"name": "", "cells": []}]},
                          "needs a name")):
        response = client.post("/api/check", json={"model": model})
        assert response.status_code == 400 and words in response.json()["error"]
    assert client.post("/api/check", content=b"not json").status_code == 400
    assert client.post("/api/check", content=b"[1, 2]").status_code == 400
    huge = b'{"toml": "' + b"#" * (MAX_BODY + 10) + b'"}'
    assert client.post("/api/check", content=huge).status_code == 413
    for action in ("set", "import", "transform"):  # the designer's routes too (#38 item 9)
        too_large = client.post(f"/api/design/{action}", content=huge)
        assert too_large.status_code == 413, (action, too_large.text)
        assert too_large.json()["error"] == f"the request is larger than {MAX_BODY} bytes"
    from puzzlebox.web.design import MAX_UPLOAD

    upload = client.post("/api/design/import", json={"data": "A" * (MAX_UPLOAD * 4 // 3 + 8)})
    assert upload.status_code == 413, upload.text
    assert upload.json()["error"] == f"the file is larger than {MAX_UPLOAD} bytes"
    bad_tab = client.post("/api/solve", json={"tab": "../x", "toml": QUEENS.format(n=4)})
    assert bad_tab.status_code == 400


# -- searching -------------------------------------------------------------------------------


def attacks(queens) -> bool:
    return any(a[0] == b[0] or a[1] == b[1] or abs(a[0] - b[0]) == abs(a[1] - b[1])
               for a, b in itertools.combinations(queens, 2))


def test_solutions_are_browsed_lazily_and_downloaded(client):
    tab = new_tab()
    body = {"tab": tab, "toml": QUEENS.format(n=8), "name": "q8"}
    client.post("/api/solve", json=body | {"index": 0})
    follow(client, tab)
    state = client.post("/api/solve", json=body | {"index": 0, "peek": True}).json()
    assert 1 <= state["found"] < 92 and not state["exhausted"]  # not all 92 found first
    client.post("/api/solve", json=body | {"index": 1})
    follow(client, tab)
    seen = []
    for index in (0, 1):
        placed = json.loads(client.get(f"/api/solution/{tab}/{index}.json").text)
        queens = [(p["row"], p["col"]) for p in placed["placements"]]
        assert len(queens) == 8 and not attacks(queens)
        seen.append(sorted(queens))
    assert seen[0] != seen[1]
    svg = client.get(f"/api/solution/{tab}/1.svg?download=1")
    assert svg.headers["content-type"].startswith("image/svg+xml") and "<svg" in svg.text
    assert 'filename="q8-2.svg"' in svg.headers["content-disposition"]
    png = client.get(f"/api/solution/{tab}/0.png")
    assert png.content[:8] == b"\x89PNG\r\n\x1a\n"
    assert client.get(f"/api/solution/{tab}/999.svg").status_code == 404
    assert client.get(f"/api/solution/{tab}/0.exe").status_code == 404


def test_every_solution_then_no_more(client):
    tab = new_tab()
    body = {"tab": tab, "toml": QUEENS.format(n=6)}
    index = 0
    while True:
        client.post("/api/solve", json=body | {"index": index})
        follow(client, tab)
        state = client.post("/api/solve", json=body | {"index": index, "peek": True}).json()
        if index >= state["found"]:
            break
        index += 1
    assert state["exhausted"] and state["found"] == 4  # 6-queens: 4 solutions


def test_solve_streams_the_run_layers_progress(client):
    """Solve reports the run layer's progress events (run/progress.py), as every door does:
    a share below the cap, or none, while the tree is not done, no time left where none was
    measured, and 1 once the search has walked its whole tree."""
    from puzzlebox.run.progress import SHARE_CAP

    tab = new_tab()
    pentominoes = catalog.path_of("pentomino-6x10").read_text()
    client.post("/api/solve", json={"tab": tab, "toml": pentominoes, "index": 0})
    events = follow(client, tab)
    assert events[-1]["state"] == "done" and events[-1]["result"]["found"] == 1
    for event in events:
        assert event["share"] is None or 0 <= event["share"] <= SHARE_CAP
        assert event["left"] == ""

    tab = new_tab()
    body = {"tab": tab, "toml": QUEENS.format(n=6)}
    for index in range(5):  # 6-queens: 4 solutions, then the search ends
        client.post("/api/solve", json=body | {"index": index})
        last = follow(client, tab)[-1]
    assert last["state"] == "done" and last["share"] == 1.0 and last["left"] == ""


def test_the_page_refuses_a_hopeless_count_in_the_librarys_words(client, tmp_path, capsys):
    """The page, the library and the command line run one Run: a count that would take
    more than a thousand years is refused by each with the same reason (#22)."""
    import puzzlebox
    from puzzlebox.cli import main
    from puzzlebox.run import Hopeless

    text = QUEENS.format(n=40)
    with pytest.raises(Hopeless) as caught:
        puzzlebox.loads(text, name="q40").count()
    reason = str(caught.value).split(" (Knuth's estimate")[0].removeprefix("q40: ")
    tab = new_tab()
    client.post("/api/count", json={"tab": tab, "toml": text})
    last = follow(client, tab)[-1]
    assert last["state"] == "error" and reason in last["message"]
    assert last["message"].endswith("refused")
    path = tmp_path / "q40.toml"
    path.write_text(text)
    assert main(["count", str(path)]) == 3
    (line,) = capsys.readouterr().err.splitlines()
    assert reason in line and "refused (--no-limit runs it anyway" in line


def test_count_streams_progress_to_the_published_answer(client):
    tab = new_tab()
    client.post("/api/count", json={"tab": tab, "toml": QUEENS.format(n=8)})
    events = follow(client, tab)
    assert events[-1]["state"] == "done"
    assert events[-1]["result"]["solutions"] == 92 and events[-1]["result"]["distinct"] == 12


def test_stop_stops_and_one_search_per_tab(client):
    tab = new_tab()
    body = {"tab": tab, "toml": QUEENS.format(n=18)}
    assert client.post("/api/count", json=body).status_code == 200
    again = client.post("/api/count", json=body)
    assert again.status_code == 429 and "already runs" in again.json()["error"]
    time.sleep(0.3)
    assert client.post("/api/stop", json={"tab": tab}).json() == {"stopped": True}
    assert not client.web.runs.get(tab).running
    assert client.web.runs.get(tab).snapshot()[1]["state"] == "stopped"


def test_a_cap_on_searches_running_at_once():
    app = roomy_app(runs=Runs(max_running=1))
    with TestClient(app) as client:
        first, second = new_tab(), new_tab()
        assert client.post("/api/count", json={"tab": first, "toml": QUEENS.format(n=18)}
                           ).status_code == 200
        refused = client.post("/api/count", json={"tab": second, "toml": QUEENS.format(n=5)})
        assert refused.status_code == 429 and "at once" in refused.json()["error"]
        client.post("/api/stop", json={"tab": first})


def test_a_client_that_goes_away_stops_its_search(client):
    web = client.web
    tab = new_tab()
    client.post("/api/count", json={"tab": tab, "toml": QUEENS.format(n=18)})

    async def read_one_then_leave():
        stream = web._stream(tab)
        first = await stream.__anext__()
        await stream.aclose()  # what Starlette does when the connection drops
        return first

    assert asyncio.run(read_one_then_leave()).startswith("data: ")
    wait_idle(web, tab)
    assert web.runs.get(tab).snapshot()[1]["state"] == "stopped"
    # and the server goes on serving
    assert client.post("/api/check", json={"toml": QUEENS.format(n=4)}).status_code == 200


# -- watching the search ---------------------------------------------------------------------


def test_watch_frames_walk_the_reference_tree_to_every_solution(client):
    tab = new_tab()
    body = {"tab": tab, "toml": QUEENS.format(n=5), "nodes": 1}
    frame = client.post("/api/watch", json=body | {"restart": True}).json()
    frames = [frame]
    while not frame["done"]:
        frame = client.post("/api/watch", json=body).json()
        frames.append(frame)
        assert len(frames) < 10_000
    assert frames[-1]["solutions"] == 10  # 5-queens: 10 solutions
    assert any(f["undone"] for f in frames)  # dead ends were undone
    assert all("<svg" in f["svg"] for f in frames[:3])
    assert [f["nodes"] for f in frames[:3]] == [1, 2, 3]
    deep = max(frames, key=lambda f: f["depth"])
    assert deep["depth"] == 5 and all(level["item"] for level in deep["levels"])


def test_reference_trace_is_the_partial_solution():
    """Between steps of one node, the trace is the path of the search: its options never
    clash, and when a solution is handed back the trace is that solution."""
    pf = read_text('[board]\ngrid = "###/###/###"\n[pieces]\nL = "##/#."\nI = "###"\n'
                   'D = "##"\nS = "##"\n', "t.toml", "t")
    problem = pf.puzzles[0].problem
    search = ReferenceSearch(Job(problem, Mode.SOLUTIONS))
    found = 0
    while True:
        step = search.step(1)
        chosen = [k for _, k in search.trace()]
        cells = [item for k in chosen for item, _ in problem.option(k)]
        assert len(cells) == len(set(cells))
        for solution in step.solutions:
            assert tuple(sorted(chosen)) == solution
            found += 1
        if step.done:
            break
    assert found == sum(1 for _ in pf.puzzles[0].solutions(engine="compiled"))


# -- the command ---------------------------------------------------------------------------


def _port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def test_serve_binds_locally_and_ctrl_c_stops_it():
    port = _port()
    env = dict(os.environ, PYTHONUNBUFFERED="1")
    proc = subprocess.Popen([sys.executable, "-m", "puzzlebox.cli", "serve", "--no-browser",
                             "--port", str(port)], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, env=env)
    try:
        line = proc.stdout.readline()
        assert line.strip() == f"puzzlebox: serving http://127.0.0.1:{port}/ (Ctrl-C stops)"
        import httpx

        deadline = time.time() + WAIT
        while True:
            try:
                assert httpx.get(f"http://127.0.0.1:{port}/").status_code == 200
                break
            except httpx.TransportError:
                assert time.time() < deadline
                time.sleep(0.1)
        busy = subprocess.run([sys.executable, "-m", "puzzlebox.cli", "serve", "--no-browser",
                               "--port", str(port)], capture_output=True, text=True, timeout=WAIT)
        assert busy.returncode == 2 and busy.stderr.count("\n") == 1
        assert busy.stderr.startswith(f"puzzlebox: cannot listen on 127.0.0.1:{port}")
        # a long count followed by an open progress stream: Ctrl-C still ends everything
        base = f"http://127.0.0.1:{port}"
        httpx.post(f"{base}/api/count", json={"tab": TAB, "toml": QUEENS.format(n=18)})
        with httpx.stream("GET", f"{base}/api/events/{TAB}", timeout=WAIT) as stream:
            next(stream.iter_lines())
            proc.send_signal(signal.SIGINT)
            assert proc.wait(timeout=WAIT) == 0
        err = proc.stderr.read()
        assert err.strip().splitlines()[-1] == "puzzlebox: server stopped"
        assert "Traceback" not in err and "ERROR" not in err
    finally:
        if proc.poll() is None:
            proc.kill()


@pytest.mark.parametrize("lattice", drawn_lattices())
def test_a_drawing_on_every_lattice_the_editor_draws_reads_back(lattice):
    """A board and a piece drawn on the lattice (as the page sends them, anywhere in its
    window) are saved and read back as the same cells, moved only by a translation the
    lattice allows (the board's count of solutions is the same)."""
    board = [[r, c, "#"] for r in (2, 3) for c in range(1, 7)]
    model = {"lattice": lattice, "board": board,
             "pieces": [{"name": "A", "cells": [[5, 3, "#"], [5, 4, "#"]], "count": "any"}],
             "rules": {"rotate": True, "reflect": True, "match_colors": False}}
    pf = read_text(to_toml(model), "drawn.toml", "drawn")
    back = model_of(pf)
    assert back is not None and back["lattice"] == lattice
    again = read_text(to_toml(back), "again.toml", "drawn")
    assert model_of(again) == back
    assert len(back["board"]) == len(board)
    (dr, dc) = (back["board"][0][0] - 2, back["board"][0][1] - 1)
    assert sorted(back["board"]) == sorted([[r + dr, c + dc, ch] for r, c, ch in board])


def test_edge_matching_cards_open_solve_and_count(client):
    tab = new_tab()
    text = catalog.path_of("cards-3x3-corrected").read_text("utf-8")
    checked = client.post("/api/check", json={"toml": text, "name": "cards"}).json()
    assert checked["kind"] == "edge-matching" and checked["model"] is None  # edited as text
    body = {"tab": tab, "toml": text}
    client.post("/api/solve", json=body | {"index": 0})
    follow(client, tab)
    placed = json.loads(client.get(f"/api/solution/{tab}/0.json").text)["placements"]
    puzzle = catalog.load_file("cards-3x3-corrected").puzzles[0]
    assert len(placed) == puzzle.rows * puzzle.cols
    assert "<svg" in client.get(f"/api/solution/{tab}/0.svg").text
    client.post("/api/count", json=body)
    done = follow(client, tab)[-1]
    expected = puzzle.count(engine="reference")
    assert (done["result"]["solutions"], done["result"]["distinct"]) == (
        expected.solutions, expected.distinct)


def test_a_batch_file_solves_the_board_chosen(client):
    text = catalog.path_of("black-and-white").read_text("utf-8")
    checked = client.post("/api/check", json={"toml": text}).json()
    boards = [p.board_name for p in catalog.load_file("black-and-white").puzzles]
    assert checked["boards"] == boards and checked["model"] is None
    tab = new_tab()
    client.post("/api/solve", json={"tab": tab, "toml": text, "board": 3, "index": 0})
    follow(client, tab)
    solved = json.loads(client.get(f"/api/solution/{tab}/0.json").text)
    assert solved["board"] == boards[3]
    assert client.post("/api/solve", json={"tab": tab, "toml": text, "board": 99}
                       ).status_code == 400


# -- #25: answers belong to the puzzle on screen; engines, distinct, moves in words ----------


def every_solution(client, body: dict) -> list[dict]:
    """Every solution the tab browses (Solve, then Next to the end), as their JSON."""
    tab, index = body["tab"], 0
    while True:
        client.post("/api/solve", json=body | {"index": index})
        follow(client, tab)
        state = client.post("/api/solve", json=body | {"index": index, "peek": True}).json()
        if index >= state["found"]:
            break
        index += 1
    assert state["exhausted"]
    return [json.loads(client.get(f"/api/solution/{tab}/{i}.json").text) for i in range(index)]


def test_a_request_for_an_older_version_is_refused_and_answers_carry_theirs(client):
    tab = new_tab()
    five, six = QUEENS.format(n=5), QUEENS.format(n=6)
    checked = client.post("/api/check", json={"tab": tab, "toml": five, "version": 3})
    assert checked.json()["version"] == 3
    # the page moved on to version 4 (6-queens): a solve still made for version 3 is stale
    client.post("/api/check", json={"tab": tab, "toml": six, "version": 4})
    old = client.post("/api/solve", json={"tab": tab, "toml": five, "version": 3})
    assert old.status_code == 409 and old.json()["error"].startswith("stale")
    assert client.get(f"/api/events/{tab}?version=3").status_code in (404, 409)
    new = client.post("/api/solve", json={"tab": tab, "toml": six, "version": 4}).json()
    assert new["version"] == 4
    follow(client, tab)
    assert client.get(f"/api/events/{tab}?version=3").status_code == 409
    placed = json.loads(client.get(f"/api/solution/{tab}/0.json?version=4").text)
    assert len(placed["placements"]) == 6  # the answer is 6-queens', the version asked
    assert client.get(f"/api/solution/{tab}/0.svg?version=3").status_code == 409
    assert client.post("/api/check", json={"tab": tab, "toml": five, "version": 2}
                       ).status_code == 409
    assert client.post("/api/solve", json={"tab": tab, "toml": six, "version": "4"}
                       ).status_code == 400


def test_distinct_solutions_are_one_per_symmetry_class(client):
    """5-queens: 10 solutions, 2 up to the board's symmetries (published: OEIS A000170,
    A002562); the distinct ones browsed are not images of each other."""
    from puzzlebox.formats.reader import read_text

    body = {"tab": new_tab(), "toml": QUEENS.format(n=5)}
    every = every_solution(client, body)
    distinct = every_solution(client, body | {"distinct": True})
    assert (len(every), len(distinct)) == (10, 2)
    puzzle = read_text(QUEENS.format(n=5), "q.toml", "q").puzzles[0]

    def key(found: dict) -> tuple:
        queens = tuple(sorted((p["row"], p["col"]) for p in found["placements"]))
        solution = puzzle.decode(tuple(sorted(
            puzzle.problem.labels.index(q) for q in queens)))
        return puzzle.canonical_key(solution)

    assert key(distinct[0]) != key(distinct[1])
    assert {key(s) for s in every} == {key(s) for s in distinct}


def test_the_engine_is_chosen_from_the_registry(client):
    from puzzlebox.engine.registry import names

    engines = client.get("/api/engines").json()
    assert [e["name"] for e in engines] == names()
    assert all(e["summary"] for e in engines)
    tab = new_tab()
    body = {"tab": tab, "toml": QUEENS.format(n=6), "engine": "reference"}
    client.post("/api/count", json=body)
    events = follow(client, tab)
    assert events[-1]["engine"] == "reference" and events[-1]["message"] == \
        "4 solutions, 1 distinct"
    client.post("/api/solve", json=body | {"engine": "memo"})
    assert "only counts" in follow(client, tab)[-1]["message"]
    refused = client.post("/api/solve", json=body | {"engine": "nope"})
    assert refused.status_code == 400 and "engine must be one of" in refused.json()["error"]


@pytest.mark.parametrize(("name", "words", "reprs"), [
    ("queens-8", re.compile(r"^queen at row \d, column \d$"), "("),
    ("cards-3x3", re.compile(r"^card \w+ at row \d, column \d, (not turned|turned \d+°)$"),
     "CardPlacement"),
    ("pentomino-6x10", re.compile(r"^[A-Z] at( \d+,\d+){5}$"), "(("),
])
def test_watched_moves_read_in_the_puzzles_words(client, name, words, reprs):
    body = {"tab": new_tab(), "toml": catalog.path_of(name).read_text("utf-8"), "nodes": 3}
    placed = undone = 0
    for _ in range(12):
        frame = client.post("/api/watch", json=body).json()
        for move in frame["placed"] + frame["undone"] + [lv["option"] for lv in frame["levels"]]:
            assert words.match(move) and reprs not in move, move
        assert all(lv["item"] is None or reprs not in lv["item"] for lv in frame["levels"])
        # the move just made is marked on the board: the kind's ids are in the SVG
        for mark in frame["marks"]["placed"] + frame["marks"]["undone"]:
            assert re.search(rf'id="p\d+-{re.escape(mark)}(-[^"]*)?"', frame["svg"]), mark
        placed += len(frame["marks"]["placed"])
        undone += len(frame["marks"]["undone"])
    assert placed > 0


def test_the_kinds_say_their_moves():
    queens = catalog.load_file("queens-8").puzzles[0]
    assert queens.move_words((3, 4)) == "queen at row 4, column 5"
    assert queens.item_words(("anti", 6)) == "anti-diagonal 7"
    cards = catalog.load_file("cards-3x3").puzzles[0]
    label = next(lb for lb in cards.problem.labels if lb.turns == 1)
    assert cards.move_words(label) == \
        f"card {label.card} at row {label.row + 1}, column {label.col + 1}, turned 90°"
    sudoku = catalog.load_file("sudoku-4x4-empty").puzzles[0]
    assert sudoku.move_words((0, 1, 2)) == "3 at row 1, column 2"


def test_a_board_wider_than_the_editor_is_edited_as_text(client):
    from puzzlebox.web.app import EDITOR_SIZE

    wide = "[board]\ngrid = \"" + "#" * (EDITOR_SIZE + 1) + "\"\n[pieces.m]\nshape = \"#\"\n" \
        "count = \"any\"\n"
    data = client.post("/api/check", json={"toml": wide}).json()
    assert data["model"] is None and f"{EDITOR_SIZE} x {EDITOR_SIZE}" in data["model_note"]
    fits = wide.replace("#" * (EDITOR_SIZE + 1), "#" * EDITOR_SIZE)
    assert client.post("/api/check", json={"toml": fits}).json()["model"] is not None
    page = client.get("/").text  # the page's fields say the same limit
    assert f'id="grid-rows" type="number" min="1" max="{EDITOR_SIZE}"' in page


def test_the_favicon_is_served(client):
    icon = client.get("/favicon.ico")
    assert icon.status_code == 200 and icon.headers["content-type"].startswith("image/svg+xml")
    assert "<svg" in icon.text and 'rel="icon"' in client.get("/").text


# -- the design search (issue #34 item 6) -----------------------------------------------------

DATA = Path(__file__).parent / "data"
BAD_SPACE = ('[design]\n{body}\n\n[board]\ngrid = "##/##"\n\n[pieces]\n'
             'b = {{ shape = "##", count = 2 }}\n')


def design_run(client, tab: str, text: str, name: str) -> tuple[int, list[dict]]:
    """Start a design search of ``text`` in ``tab``; its number and its progress events, to
    its end."""
    started = client.post("/api/designs/run", json={"tab": tab, "toml": text, "name": name})
    assert started.status_code == 200, started.text
    run = started.json()["run"]
    events = []
    with client.stream("GET", f"/api/designs/events/{tab}?run={run}") as stream:
        for line in stream.iter_lines():
            if line.startswith("data: ") and line != "data: {}":
                events.append(json.loads(line[6:]))
    return run, events


def cli_design(capsys, *args: str) -> tuple[int, str, str]:
    from puzzlebox.cli import main

    status = main(["design", *args])
    out = capsys.readouterr()
    return status, out.out, out.err


def test_the_pages_kept_designs_are_the_librarys_and_the_command_lines(client, capsys,
                                                                       monkeypatch):
    """The same question through every door: the page's design search of
    tests/data/tetromino-sets.toml keeps the designs the library's DesignRun keeps, ranks
    them the same, shows the command line's table cell for cell, and a row opens the design
    as the puzzle file that --out writes."""
    from puzzlebox.designs import DesignRun, load_space

    path = DATA / "tetromino-sets.toml"
    space = load_space(path)
    library = DesignRun(space)
    tried = list(library.results())
    tab = new_tab()
    run, events = design_run(client, tab, path.read_text("utf-8"), "tetromino-sets")
    last = events[-1]
    assert last["state"] == "done", last
    assert last["design"]["tried"] == len(tried) and last["design"]["kept"] == len(library.kept)
    assert last["message"].startswith("tetromino-sets: 266 designs, 120 the same as another")
    kept = [e["design"]["kept"] for e in events if e["design"]]
    assert kept == sorted(kept)  # the count of kept designs only grows
    table = client.get(f"/api/designs/table/{tab}?run={run}").json()
    assert [int(row[1]) for row in table["rows"]] == [r.design.index for r in library.ranked()]
    assert len(table["rows"]) == 15
    # the command line's table, cell for cell (its "what" column has spaces: compared as words)
    monkeypatch.chdir(DATA)
    status, out, _ = cli_design(capsys, "tetromino-sets.toml")
    assert status == 0
    lines = out.splitlines()
    start = next(k for k, line in enumerate(lines) if line.startswith("ranked ("))
    assert lines[start] == f"ranked ({table['order']}):"
    assert lines[start + 1].split() == table["header"]
    printed = lines[start + 2:start + 2 + len(table["rows"])]
    assert [line.split() for line in printed] == [" ".join(row).split()
                                                  for row in table["rows"]]
    # a row opens the design as the file --out writes
    best = library.ranked()[0]
    opened = client.post("/api/designs/open", json={"tab": tab, "design": best.design.index})
    assert opened.status_code == 200, opened.text
    assert opened.json()["toml"] == space.design_text(best.design)
    assert opened.json()["name"] == space.design_name(best.design)
    missing = client.post("/api/designs/open", json={"tab": tab, "design": 1})  # not kept
    assert missing.status_code == 400 and "not among the kept" in missing.json()["error"]
    stale = client.get(f"/api/designs/table/{tab}?run={run + 1000}")
    assert stale.status_code == 409


def test_a_bad_design_file_gets_the_command_lines_one_line(client, capsys, tmp_path,
                                                           monkeypatch):
    monkeypatch.chdir(tmp_path)
    cases = ['pool = ["Q"]', 'pool = ["b"]\ntake = "six"', "unique = true",
             'pool = ["b"]\nrank = "prettiest"']
    tab = new_tab()
    for body in cases:
        text = BAD_SPACE.format(body=body)
        (tmp_path / "bad.toml").write_text(text)
        status, _, err = cli_design(capsys, "bad.toml")
        assert status == 2
        (line,) = err.splitlines()
        _, events = design_run(client, tab, text, "bad")
        assert events[-1]["state"] == "error"
        assert events[-1]["message"] == line.removeprefix("puzzlebox: "), body
        assert "\n" not in events[-1]["message"]


def test_a_design_space_too_large_is_refused_in_the_command_lines_line(client, capsys,
                                                                         tmp_path, monkeypatch):
    """The number of designs is known before the search: a space past a million is refused
    at once, by the page in the command line's words (the number, --no-limit, --max-time)."""
    pieces = "\n".join(f'p{k} = {{ shape = "{"#" * (k % 3 + 1)}", count = 9 }}'
                       for k in range(12))
    pool = ", ".join(f'"p{k}"' for k in range(12))
    text = f'[design]\npool = [{pool}]\n\n[board]\ngrid = "######/######"\n\n[pieces]\n{pieces}\n'
    monkeypatch.chdir(tmp_path)
    (tmp_path / "big.toml").write_text(text)
    status, _, err = cli_design(capsys, "big.toml")
    assert status == 3
    (line,) = err.splitlines()
    assert "designs, more than" in line and "--no-limit" in line
    tab = new_tab()
    _, events = design_run(client, tab, text, "big")
    assert events[-1]["state"] == "error"
    assert events[-1]["message"] == line.removeprefix("puzzlebox: ")
    assert not [e for e in events if e["design"]]  # refused before any design was tried


def test_a_design_search_stops_and_is_one_per_tab(client):
    """calendar-sets (792 designs, about half a second each) runs in the tab's process with
    progress, a second run of the same tab is refused while it runs, Stop ends it; the
    catalog's designs are listed and read by name only."""
    names = [entry["name"] for entry in client.get("/api/designs").json()]
    assert "calendar-sets" in names
    text = client.get("/api/designs/file/calendar-sets").json()["toml"]
    assert text == catalog.design_path_of("calendar-sets").read_text("utf-8")
    for sneaky in ("..%2Fcalendar", "calendar-sets.toml", "queens-8"):
        assert client.get(f"/api/designs/file/{sneaky}").status_code == 404
    tab = new_tab()
    started = client.post("/api/designs/run", json={"tab": tab, "toml": text,
                                                     "name": "calendar-sets"})
    assert started.status_code == 200
    again = client.post("/api/designs/run", json={"tab": tab, "toml": text,
                                                  "name": "calendar-sets"})
    assert again.status_code == 429 and "already runs a design search" in again.json()["error"]
    key = f"{tab}-design"
    deadline = time.time() + 300  # a hang guard: generous on a loaded machine
    while not client.web.runs.get(key).snapshot()[1]["design"]:
        assert time.time() < deadline, "no design was tried"
        time.sleep(0.1)
    # the tab's puzzle has a search of its own beside it
    assert client.post("/api/count", json={"tab": tab, "toml": QUEENS.format(n=6)}
                       ).status_code == 200
    assert client.post("/api/designs/stop", json={"tab": tab}).json() == {"stopped": True}
    state = client.web.runs.get(key).snapshot()[1]
    assert state["state"] == "stopped" and state["message"].startswith("stopped after")
    assert not client.web.runs.get(key).running
    assert client.get(f"/api/designs/table/{tab}").status_code == 200
    assert client.get("/api/designs/table/nosuchtab1").status_code == 404


def test_a_design_search_counts_among_the_searches_running_at_once():
    app = roomy_app(runs=Runs(max_running=1))
    with TestClient(app) as client:
        tab = new_tab()
        assert client.post("/api/count", json={"tab": tab, "toml": QUEENS.format(n=18)}
                           ).status_code == 200
        text = (DATA / "tetromino-sets.toml").read_text("utf-8")
        refused = client.post("/api/designs/run", json={"tab": new_tab(), "toml": text,
                                                        "name": "tetromino-sets"})
        assert refused.status_code == 429 and "at once" in refused.json()["error"]
        client.post("/api/stop", json={"tab": tab})


def test_a_closed_tab_and_an_idle_tab_leave_no_process():
    """#36 item 5: the page's close (sent as it goes away) ends its tab's processes at once
    (the puzzle's search and its watch); a tab that asks nothing loses its processes within
    ``process_idle_seconds`` while no other tab does anything, and its next "next" starts
    a fresh process past the solutions it kept."""
    runs = Runs(process_idle_seconds=3600)  # none reaped until the close is tried
    app = roomy_app(runs=runs)
    with TestClient(app) as client:
        closed, idle = new_tab(), new_tab()
        for tab in (closed, idle):
            body = {"tab": tab, "toml": QUEENS.format(n=8)}
            client.post("/api/solve", json=body | {"index": 0})
            follow(client, tab)
        client.post("/api/watch", json={"tab": closed, "toml": QUEENS.format(n=8), "nodes": 1})
        assert runs.get(closed).worker is not None and runs.get(closed).watcher is not None
        assert client.post("/api/close", json={"tab": closed}).json() == {"closed": True}
        assert runs.get(closed) is None
        # the idle tab: nothing asked of the server, its process goes by itself
        assert runs.processes() == 1
        runs.process_idle_seconds = 0.5
        deadline = time.monotonic() + WAIT  # a guard against a hang, not a measurement
        while runs.processes() and time.monotonic() < deadline:
            time.sleep(0.2)
        assert runs.processes() == 0
        assert len(runs.get(idle).found) == 1  # the tab and its solution stay
        body = {"tab": idle, "toml": QUEENS.format(n=8)}
        client.post("/api/solve", json=body | {"index": 1})
        follow(client, idle)
        state = client.post("/api/solve", json=body | {"index": 1, "peek": True}).json()
        assert state["found"] >= 2


COLOURED = """
title = "coloured, optional, neutral, fixed and grouped"

[board]
grid = \"\"\"
.abab
ababa
babab
\"\"\"
optional = \"\"\"
....+
+
....+
\"\"\"

[pieces]
A = "ab/b."
B = "ba/a."
C = "#b"
D = "a#"
E = "ab"

[rules]
rotate = true
reflect = false
match_colors = true
neutral = "#"

[disassembly]
fixed = ["A"]
groups = [["B", "C"], ["C", "D"]]
"""


def test_optional_coloured_neutral_fixed_and_groups_are_the_editors():
    """#36 item 1: a file with every cell kind opens in the grid editor (not as text), and
    its model saved reads back as the same puzzle, counted the same as the file itself."""
    from puzzlebox.run import Run

    pf = read_text(COLOURED, "coloured.toml", "coloured")
    model = model_of(pf)
    assert model is not None
    assert model["optional"] == [[0, 4], [1, 0], [2, 4]]
    assert model["rules"]["neutral"] == "#" and model["rules"]["match_colors"] is True
    assert model["disassembly"] == {"fixed": ["A"], "groups": [["B", "C"], ["C", "D"]]}
    saved = to_toml(model)
    again = read_text(saved, "saved.toml", "coloured")
    assert model_of(again) == model
    a, b = pf.puzzles[0], again.puzzles[0]
    assert (a.board, a.optional, a.pieces, a.neutral, a.disassembly, a.match_colors) == (
        b.board, b.optional, b.pieces, b.neutral, b.disassembly, b.match_colors)
    first, second = Run(a, "count").count(), Run(b, "count").count()
    assert first.solutions == second.solutions > 0
    # an independent count of the optional cells: the board's 14 cells and the pieces' 12
    # leave 2 of the 3 optional cells empty; the sum over each such choice of the plain
    # count of the board without them
    import itertools as choices

    board = dict(a.board)
    total = 0
    for empty in choices.combinations(sorted(a.optional), 2):
        plain = [[*cell, ch] for cell, ch in sorted(board.items()) if cell not in empty]
        cut = read_text(to_toml({**model, "board": plain, "optional": []}), "c.toml", "c")
        total += Run(cut.puzzles[0], "count").count().solutions
    assert total == first.solutions


def test_the_model_refuses_what_the_reader_would_in_one_line():
    model = model_of(read_text(COLOURED, "coloured.toml", "coloured"))
    assert model is not None
    for change, words in (
            ({"optional": [[2, 9]]}, "optional: cell [2, 9] is not a board cell"),
            ({"rules": {**model["rules"], "match_colors": False}}, "goes with match colours"),
            ({"rules": {**model["rules"], "neutral": "ab"}}, "rules.neutral: one visible"),
            ({"disassembly": {"fixed": ["Q"]}}, "names 'Q', which is not a piece"),
            ({"disassembly": {"groups": [["B", "B"]]}}, "group 1 names a piece twice")):
        with pytest.raises(PuzzleboxError) as failure:
            to_toml({**model, **change})
        assert words in str(failure.value) and "\n" not in str(failure.value)


@pytest.mark.parametrize(("name", "why"), [
    ("calendar", "labelled cells"),
    ("queens-8-hunt", "queens puzzle"),
])
def test_a_file_edited_as_text_says_why(client, name, why):
    """The reason a file opens as text names what the editor does not draw (it said "draws
    one board of pieces on a flat lattice" for a file with optional cells, #36)."""
    text = catalog.path_of(name).read_text("utf-8")
    answer = client.post("/api/check", json={"toml": text, "name": name}).json()
    assert answer["model"] is None and why in answer["model_note"], answer["model_note"]
    slack = catalog.path_of("framed-slack").read_text("utf-8")
    opened = client.post("/api/check", json={"toml": slack, "name": "f"}).json()
    assert opened["model"] is not None and opened["model_note"] == ""
    assert opened["model"]["disassembly"]["fixed"] == ["Frame"]
