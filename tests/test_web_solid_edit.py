"""Editing rhombic, sphere and tetra-octa puzzles by clicking in the page's 3-D view (#37 item 4).

The server's "cell across a face" (web/solids.py's ``across``) for every face of every cell
of a block (both kinds of block where the lattice alternates them): the cell it gives is a
neighbour of the lattice's graph whose polyhedron has the same face (the same corners,
computed from that cell's own solid), and the four faces give the four neighbours; on
balls, the ball given touches (its centre two radii away) and is the touching ball nearest
the clicked direction (an angle brute force). The editor's model of each lattice writes a
TOML that reads back as the same cells, and refuses a position that is no cell. In headless
Chromium (SwiftShader's WebGL): for each lattice a puzzle is opened in the editor, a click
on a face in the 3-D view adds the cell across it (the library's answer for the cell and
point hit), a shift-click removes the cell hit, the TOML reads back with the library as the
model's cells, and the page's count is the command line's; an empty piece starts from one
cell. ``PUZZLEBOX_SCREENSHOTS=docs/images`` saves docs/web.md's picture of a rhombic piece
being edited.
"""

from __future__ import annotations

import math
import os
import random
import time
from itertools import product
from pathlib import Path

import pytest
from tests.web_page import PYRAMID, roomy_server, webgl_browser

from puzzlebox.formats.reader import read_text
from puzzlebox.geometry.lattice import lattice_named
from puzzlebox.web.model import ModelError, model_of, to_toml
from puzzlebox.web.solids import across, first_cell, places

server, browser = roomy_server, webgl_browser  # the module's page and Chromium

EXAMPLES = Path(__file__).parents[2] / "shared" / "peers" / "burrtools" / "examples"
if not EXAMPLES.is_dir():
    EXAMPLES = Path("/work/shared/peers/burrtools/examples")
SHOTS = os.environ.get("PUZZLEBOX_SCREENSHOTS")

# two pieces of four tetrahedra that fill a board of eight (2 solutions, 1 distinct)
SMALL_RHOMBIC = """lattice = "rhombic"

[board]
grid = ["..../..../....", "..../..../....", "..../..../....", "..#./..../....",
        "..../..#./.#.#", "..../..#./.#.#", "..#./..../...."]

[pieces]
A = ["..../..#./.#.#", "..#./..../...."]
B = ["..../..../....", "..../..../....", "..../..../....", "..#./..../....",
     "..../..#./.#.#"]
"""


def _page(point: tuple[float, ...]) -> list[float]:
    layer, row, col = point
    return [col, row, layer]


def _corners(face: tuple[tuple[float, ...], ...]) -> frozenset[tuple[float, ...]]:
    return frozenset(tuple(round(v, 6) for v in p) for p in face)


def _cells_of(name: str) -> list[tuple[int, ...]]:
    """Every cell of two neighbouring blocks (tetra-octa alternates its blocks)."""
    lattice = lattice_named(name)
    size = {"rhombic": 5, "tetra-octa": 3}[name]
    return [c for c in product(range(size), range(size), range(2 * size)) if lattice.holds(c)]


# -- the cell across a face, against the lattice's own solids and graph ----------------------

@pytest.mark.parametrize("name", ["rhombic", "tetra-octa"])
def test_the_cell_across_every_face_shares_that_face(name):
    lattice = lattice_named(name)
    cells = _cells_of(name)
    assert len(cells) == {"rhombic": 48, "tetra-octa": 10}[name]
    for cell in cells:
        faces = lattice.solid_faces(cell)
        found = []
        for face in faces:
            # a point inside the face (not its centre: weights 0.5, 0.3, 0.2)
            point = tuple(0.5 * a + 0.3 * b + 0.2 * c for a, b, c in zip(*face[:3], strict=True))
            near = across(lattice, cell, _page(point))
            assert near in lattice.neighbours(cell) and lattice.holds(near)
            assert _corners(face) in {_corners(f) for f in lattice.solid_faces(near)}
            found.append(near)
        assert sorted(found) == sorted(lattice.neighbours(cell))  # each face a neighbour


def test_the_ball_across_touches_and_is_nearest_the_clicked_direction():
    lattice = lattice_named("sphere")
    radius = lattice.ball_radius
    cell = (3, 4, 5)
    for near in lattice.neighbours(cell):  # straight at a neighbour: that one
        d = [n - c for n, c in zip(near, cell, strict=True)]
        point = [c + radius * v / math.sqrt(2) for c, v in zip(cell, d, strict=True)]
        assert across(lattice, cell, _page(tuple(point))) == near
    rng = random.Random(37)
    for _ in range(300):
        v = [rng.gauss(0, 1) for _ in range(3)]
        length = math.hypot(*v)
        point = tuple(c + radius * x / length for c, x in zip(cell, v, strict=True))
        near = across(lattice, cell, _page(point))
        assert math.dist(near, cell) == pytest.approx(2 * radius)  # it touches
        angle = {n: math.acos(sum((a - c) * x for a, c, x in zip(n, cell, v, strict=True))
                              / (math.sqrt(2) * length)) for n in lattice.neighbours(cell)}
        assert angle[near] == pytest.approx(min(angle.values()))


def test_a_point_off_the_cell_is_refused_and_the_first_cell_is_a_cell():
    for name in ("rhombic", "tetra-octa", "sphere"):
        lattice = lattice_named(name)
        start = first_cell(lattice)
        assert lattice.holds(start)
        with pytest.raises(ValueError, match="not on"):
            across(lattice, start, [40.0, 40.0, 40.0])
        rows = places(lattice, (2, 3, 4))
        assert [[[ch == "#" for ch in row] for row in layer.split("/")] for layer in rows] == \
            [[[lattice.holds((l, r, c)) for c in range(4)] for r in range(3)] for l in range(2)]


# -- the editor's model and its TOML ------------------------------------------------------------

def _example(name: str) -> str:
    from puzzlebox.web.design import import_burrtools

    path = EXAMPLES / f"{name}.xmpuzzle"
    if not path.is_file():
        pytest.skip(f"BurrTools' example {name} is not here ({EXAMPLES})")
    return import_burrtools(path.read_bytes(), path.name)


@pytest.mark.parametrize("example", ["rhombic", "sphere", "FourPieceTetrahedron"])
def test_the_model_writes_a_toml_that_reads_back_as_the_same_cells(example):
    text = {"rhombic": SMALL_RHOMBIC, "sphere": PYRAMID}.get(example) or _example(example)
    read = read_text(text, "p", "p")
    model = model_of(read)
    assert model is not None  # edited in the page, not as text
    again = read_text(to_toml(model), "p", "p").puzzles[0]
    first = read.puzzles[0]
    assert again.lattice is first.lattice
    assert set(again.board) == set(first.board)
    assert [(p.name, p.shape, p.lo, p.hi) for p in again.pieces] == \
        [(p.name, p.shape, p.lo, p.hi) for p in first.pieces]
    # a grid position that is no cell is refused with the editor's own coordinates
    lattice = first.lattice
    hole = next(c for c in product(range(6), repeat=3) if not lattice.holds(c))
    model["pieces"][0]["cells"].append([*hole, "#"])
    with pytest.raises(ModelError, match=rf"\[{hole[0]}, {hole[1]}, {hole[2]}\] is no cell "
                                         f"of the {lattice.name} lattice"):
        to_toml(model)


# -- over HTTP ----------------------------------------------------------------------------------

@pytest.fixture(scope="module")
def client():
    pytest.importorskip("starlette", reason="the web extra (starlette) is not installed")
    from starlette.testclient import TestClient
    from tests.web_page import roomy_app

    with TestClient(roomy_app()) as test_client:
        yield test_client


def test_the_routes_answer_the_library_and_refuse_in_one_line(client):
    lattice = lattice_named("rhombic")
    cell = (0, 1, 2)
    face = lattice.solid_faces(cell)[0]
    point = _page(tuple(sum(p[i] for p in face) / 3 for i in range(3)))
    near = across(lattice, cell, point)
    answer = client.post("/api/design/across", json={
        "lattice": "rhombic", "cells": [[0, 1, 2, "#"]], "cell": [0, 1, 2], "point": point})
    assert answer.status_code == 200, answer.text
    shift = answer.json()["shift"]
    assert answer.json()["cell"] == list(near)
    # below layer 0: the cells and it move up by whole blocks (the lattice's translation)
    assert shift == ([0, 0, 0] if min(near) >= 0 else
                     list(lattice.normalize_offset([cell, near])))
    assert lattice.can_translate(tuple(shift))
    start = client.post("/api/design/across", json={"lattice": "sphere", "cells": []}).json()
    assert start == {"cell": [0, 0, 0], "shift": [0, 0, 0]}
    assert client.post("/api/design/places", json={"lattice": "tetra-octa", "window": [1, 3, 3]}
                       ).json() == {"layers": places(lattice_named("tetra-octa"), (1, 3, 3))}
    # a move is the lattice's smallest translation along the axis (a block of 5 on rhombic)
    for name, step in (("rhombic", 5), ("sphere", 2), ("tetra-octa", 6)):
        start = list(first_cell(lattice_named(name)))
        moved = client.post("/api/design/transform", json={
            "lattice": name, "cells": [[*start, "#"]], "operation": "move-right"}).json()
        assert moved["cells"] == [[start[0], start[1], start[2] + step, "#"]]
        assert lattice_named(name).can_translate((0, 0, step))
    for body, line in [
        ({"lattice": "cube", "cells": []}, "cells are added by clicking a face in the 3-D view "
         "on the lattices rhombic, sphere, tetra-octa"),
        ({"lattice": "rhombic", "cells": [[0, 1, 2, "#"]], "cell": [0, 2, 1], "point": point},
         "cell [0, 2, 1] is not one of the cells being edited"),
        ({"lattice": "rhombic", "cells": [[0, 1, 2, "#"]], "cell": [0, 1, 2], "point": [9, 9, 9]},
         "the point [9, 9, 9] is not on the surface of cell [0, 1, 2]"),
        ({"lattice": "rhombic", "cells": [[0, 1, 2, "#"]], "cell": [0, 1, 2], "point": "x"},
         "point: [x, y, z], three numbers"),
        ({"lattice": "sphere", "window": [200, 200, 200]},
         "the window is 1 to 200 positions each way, 72000 in all"),
    ]:
        action = "places" if "window" in body else "across"
        refused = client.post(f"/api/design/{action}", json=body)
        assert refused.status_code == 400 and refused.json() == {"error": line}


# -- in the browser -----------------------------------------------------------------------------

def _model_cells(driver, target: int) -> set[tuple[int, ...]]:
    cells = driver.execute_script("return state.model.pieces[arguments[0]].cells", target)
    return {tuple(c[:3]) for c in cells}


def _drawn(driver) -> bool:
    return bool(driver.execute_script(
        "const v = page3d.views.iso3d; return !!v && [...v.pieces.values()]"
        ".some((e) => e.group.children.length);"))


def _shows(driver, cells: set) -> bool:
    """Whether the editor's 3-D view draws exactly these cells (its meshes come from the
    server after each edit)."""
    drawn = driver.execute_script(
        "const v = page3d.views.iso3d; return [...v.pieces.values()]"
        ".flatMap((e) => e.solid ? e.solid.mesh.map((c) => c.cell) : []);")
    return {tuple(c) for c in drawn} == cells


def _click(driver, canvas, dx: int, dy: int, shift: bool = False) -> dict | None:
    """A click (shift-click) on the 3-D view at an offset from its centre: the cell and
    point it hit (the view's own record), or None where it hit nothing."""
    from selenium.webdriver.common.action_chains import ActionChains
    from selenium.webdriver.common.keys import Keys

    driver.execute_script("page3d.views.iso3d.lastHit = null;")
    chain = ActionChains(driver).move_to_element_with_offset(canvas, dx, dy)
    chain = chain.key_down(Keys.SHIFT).click().key_up(Keys.SHIFT) if shift else chain.click()
    chain.perform()  # the view handles the pointer's release before perform returns
    return driver.execute_script("return page3d.views.iso3d.lastHit")


def _translate_of(after: set, before: set, lattice) -> tuple[int, ...] | None:
    """The lattice's translation taking ``before`` onto ``after``, or None."""
    d = tuple(min(c[i] for c in after) - min(c[i] for c in before) for i in range(3))
    moved = {tuple(v + s for v, s in zip(c, d, strict=True)) for c in before}
    return d if moved == after and lattice.can_translate(d) else None


@pytest.mark.parametrize("example", ["rhombic", "sphere", "FourPieceTetrahedron"])
def test_a_click_adds_the_cell_across_a_shift_click_removes_and_it_saves(
        server, browser, capsys, example):
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import Select
    from tests.web_page import cli_count, open_text, wait

    driver = browser
    text = {"rhombic": SMALL_RHOMBIC, "sphere": PYRAMID}.get(example) or _example(example)
    original = read_text(text, example, example).puzzles[0]
    lattice = original.lattice
    open_text(driver, server, text, example)
    assert driver.execute_script("return state.model.lattice") == lattice.name
    Select(driver.find_element(By.ID, "target")).select_by_value("0")  # the first piece
    canvas = wait(driver, lambda d: d.find_element(By.CSS_SELECTOR, "#iso3d canvas"))
    wait(driver, lambda d: canvas.is_displayed() and _shows(d, set(original.pieces[0].shape.cells)))
    # the layers: only the grid's positions that are cells are cells to click
    wait(driver, lambda d: d.find_elements(By.CSS_SELECTOR, "#layers polygon.no-cell"))
    before = _model_cells(driver, 0)
    assert before == set(original.pieces[0].shape.cells)
    drawn_on = driver.find_elements(By.CSS_SELECTOR, "#layers polygon.cell.on")
    assert len(drawn_on) == len(before)
    time.sleep(0.3)
    # a click on a face: the cell across it, as the library says for the cell and point hit
    added = None
    # off the middle first: the middle of a symmetric piece is often on an edge
    for dx, dy in [(7, -5), (-9, 6), (15, 11), (-15, -12), (4, 18), (0, 0)]:
        hit = _click(driver, canvas, dx, dy)
        if not hit:
            continue
        cell = tuple(hit["cell"])
        assert cell in before
        near = across(lattice, cell, hit["point"])
        if near in before:
            continue  # across a face inside the piece (drawn where two layers meet)
        wait(driver, lambda d: _model_cells(d, 0) != before)
        after = _model_cells(driver, 0)
        moved = _translate_of(after, before | {near}, lattice)
        assert moved is not None  # the cell across, the cells moved by a translation or not
        added = tuple(v + s for v, s in zip(near, moved, strict=True))
        at = (dx, dy)
        break
    assert added, "no click hit a face with a cell across it"
    if SHOTS and example == "rhombic":
        Path(SHOTS).mkdir(parents=True, exist_ok=True)
        editor = driver.find_element(By.ID, "cube-editor")
        driver.execute_script("arguments[0].scrollIntoView({block: 'start'})", editor)
        time.sleep(0.5)
        editor.screenshot(str(Path(SHOTS) / "web-edit-rhombic.png"))
    grown = _model_cells(driver, 0)
    wait(driver, lambda d: _shows(d, grown))
    # a shift-click at the same place removes the cell hit: the one added, which the ray
    # passed through on its way to the face clicked
    hit = _click(driver, canvas, *at, shift=True)
    assert hit and tuple(hit["cell"]) == added
    wait(driver, lambda d: len(_model_cells(d, 0)) == len(grown) - 1)
    assert _model_cells(driver, 0) == grown - {added}
    # saved: the library reads the page's TOML back as the model's cells
    driver.execute_async_script("settled().then(() => arguments[0](true))")
    saved_text = driver.execute_script("return state.toml")
    saved = read_text(saved_text, "saved", "saved").puzzles[0]
    assert saved.lattice is lattice and set(saved.board) == set(original.board)
    assert saved.pieces[0].shape == lattice.normalize(
        dict.fromkeys(_model_cells(driver, 0), "#"))
    assert [p.shape for p in saved.pieces[1:]] == [p.shape for p in original.pieces[1:]]
    # the page's count is the command line's
    driver.find_element(By.CSS_SELECTOR, '.tabs button[data-pane="solutions"]').click()
    driver.find_element(By.ID, "count").click()
    wait(driver, lambda d: "distinct" in d.find_element(By.ID, "result").text
         or d.find_element(By.ID, "error").text)
    assert driver.find_element(By.ID, "result").text == cli_count(saved_text, "saved", capsys)


def test_an_empty_piece_starts_from_one_cell(server, browser):
    from selenium.webdriver.common.by import By
    from tests.web_page import open_text, wait

    driver = browser
    open_text(driver, server, SMALL_RHOMBIC, "small")
    driver.find_element(By.ID, "add-piece").click()
    wait(driver, lambda d: d.execute_script("return state.target") == "2")
    canvas = wait(driver, lambda d: d.find_element(By.CSS_SELECTOR, "#iso3d canvas"))
    wait(driver, lambda d: canvas.is_displayed())
    time.sleep(0.3)
    assert _click(driver, canvas, 0, 0) is None  # nothing drawn to hit
    wait(driver, lambda d: _model_cells(d, 2))
    assert _model_cells(driver, 2) == {first_cell(lattice_named("rhombic"))}
    wait(driver, lambda d: _drawn(d))
