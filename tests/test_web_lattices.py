"""The page's 3-D view and editor for prism, rhombic, sphere and tetra-octa (#37 item 4).

Over HTTP: the meshes the server gives (web/solids.py) against the lattice's own graph (a
face is left out exactly where two cells of a group are neighbours in one layer), the map
from the take-apart's positions to space against the cells' centres. In headless Chromium
(SwiftShader's WebGL): BurrTools' examples imported through the page (HexSticks on rhombic,
Bermuda on prism, FourPieceTetrahedron on tetra-octa) and a pyramid of balls are drawn in
3-D and turn (a pixel read differs after a drag), and the page's count is the command
line's; a prism puzzle is edited in its layers of triangles and the TOML the page writes
reads back with the cell added; Bermuda's take-apart is animated. ``PUZZLEBOX_SCREENSHOTS=
docs/images`` saves docs/web.md's pictures of HexSticks and Bermuda in 3-D.
"""

from __future__ import annotations

import base64
import json
import os
import tempfile
import time
from pathlib import Path

import pytest

pytest.importorskip("starlette", reason="the web extra (starlette) is not installed")
pytest.importorskip("uvicorn", reason="the web extra (uvicorn) is not installed")

from starlette.testclient import TestClient  # noqa: E402
from tests.web_page import (  # noqa: E402
    CHROMEDRIVER,
    CHROMIUM,
    PYRAMID,
    cli_count,
    open_text,
    roomy_app,
    roomy_server,
    wait,
    webgl_browser,
)

from puzzlebox.cli import main  # noqa: E402
from puzzlebox.formats.reader import read_text  # noqa: E402
from puzzlebox.geometry.lattice import lattice_named  # noqa: E402
from puzzlebox.web.solids import centre, mesh, space_map  # noqa: E402

server, browser = roomy_server, webgl_browser  # the module's page and Chromium

EXAMPLES = Path(__file__).parents[2] / "shared" / "peers" / "burrtools" / "examples"
if not EXAMPLES.is_dir():
    EXAMPLES = Path("/work/shared/peers/burrtools/examples")
SHOTS = os.environ.get("PUZZLEBOX_SCREENSHOTS")


def _example(name: str) -> bytes:
    path = EXAMPLES / f"{name}.xmpuzzle"
    if not path.is_file():
        pytest.skip(f"BurrTools' example {name} is not here ({EXAMPLES})")
    return path.read_bytes()


@pytest.fixture(scope="module")
def client():
    with TestClient(roomy_app()) as test_client:
        yield test_client


def _imported(client, name: str) -> str:
    answer = client.post("/api/design/import", json={
        "name": f"{name}.xmpuzzle", "data": base64.b64encode(_example(name)).decode()})
    assert answer.status_code == 200, answer.text
    return str(answer.json()["toml"])


# -- the meshes, over HTTP -----------------------------------------------------------------

def _same_layer_pairs(lattice_name: str, cells: list[tuple[int, ...]]) -> tuple[int, int]:
    """Pairs of neighbouring cells in one layer, and in two layers, by the lattice's graph."""
    lattice = lattice_named(lattice_name)
    inside = set(cells)
    same = other = 0
    for cell in cells:
        for near in lattice.neighbours(cell):
            if near in inside and near > cell:
                if near[0] == cell[0]:
                    same += 1
                else:
                    other += 1
    return same, other


@pytest.mark.parametrize("example", ["Bermuda", "HexSticks", "FourPieceTetrahedron"])
def test_a_face_is_left_out_exactly_between_neighbours_in_one_layer(client, example):
    text = _imported(client, example)
    puzzle = read_text(text, example, example).puzzles[0]
    solid = client.post("/api/design/solid", json={"toml": text, "name": example}).json()
    assert solid["solid"] is True and solid["kind"] == "faces"
    assert solid["lattice"] == puzzle.lattice.name
    faces_each = len(puzzle.lattice.solid_faces(next(iter(puzzle.board))))
    groups = [(b["mesh"], [c for c, ch in sorted(puzzle.board.items())
                            if ch == b["colour"] and (c in puzzle.optional) == b["optional"]])
              for b in solid["board"]]
    groups += [(p["mesh"], list(piece.shape.cells))
               for p, piece in zip(solid["pieces"], puzzle.pieces, strict=True)]
    for drawn, cells in groups:
        assert [c["level"] for c in drawn] == [c[0] for c in cells]
        same, other = _same_layer_pairs(puzzle.lattice.name, cells)
        # every cell's faces, less the two of each pair of neighbours in one layer
        assert sum(len(c["faces"]) for c in drawn) == faces_each * len(cells) - 2 * same
        # a face kept inside a group names the layer beyond it: one each way a pair
        assert sum(v is not None for c in drawn for v in c["inner"]) == 2 * other
    assert [p["name"] for p in solid["pieces"]] == [p.name for p in puzzle.pieces]


def test_balls_are_the_cells_and_a_cube_puzzle_is_drawn_from_its_cells(client):
    solid = client.post("/api/design/solid", json={"toml": PYRAMID, "name": "p"}).json()
    assert solid["kind"] == "balls" and solid["radius"] == pytest.approx(2 ** 0.5 / 2)
    puzzle = read_text(PYRAMID, "p", "p").puzzles[0]
    centres = sorted(tuple(c["centre"]) for b in solid["board"] for c in b["mesh"])
    assert centres == sorted((float(c), float(r), float(l)) for l, r, c in puzzle.board)
    assert mesh(lattice_named("sphere"), [(0, 0, 0)]) == [
        {"level": 0, "cell": [0, 0, 0], "centre": [0, 0, 0]}]


@pytest.mark.parametrize(("name", "cell"), [("prism", (2, 3, 4)), ("rhombic", (5, 7, 6)),
                                            ("sphere", (1, 2, 3))])
def test_the_space_map_moves_a_cell_as_its_centre_moves(name, cell):
    """The page moves a piece by the take-apart's positions (in cells) mapped to space:
    every step of the lattice, and sums of them, move a cell's centre by the map's image."""
    lattice = lattice_named(name)
    matrix = space_map(lattice, cell)
    assert matrix is not None
    steps = list(lattice.slide_steps())
    for step in steps + [tuple(a + 2 * b for a, b in zip(steps[0], s, strict=True))
                         for s in steps[2:6]]:
        xyz = (step[2], step[1], step[0])
        moved = centre(lattice, tuple(c + s for c, s in zip(cell, step, strict=True)))
        here = centre(lattice, cell)
        image = [sum(row[i] * xyz[i] for i in range(3)) for row in matrix]
        assert [m - h for m, h in zip(moved, here, strict=True)] == pytest.approx(image, abs=1e-4)


def test_the_editor_mesh_and_its_refusals(client):
    answer = client.post("/api/design/mesh", json={
        "lattice": "prism", "cells": [[0, 0, 0, "#"], [0, 0, 1, "#"], [1, 0, 0, "a"]]})
    data = answer.json()
    assert data["colours"] == ["#", "a"]
    assert [len(c["faces"]) for c in data["groups"][0]] == [4, 4]  # two beside: one face less
    for body, line in [
        ({"lattice": "cube", "cells": []}, "the cube lattice's cells are drawn by the page itself"),
        ({"lattice": "hexagon", "cells": []},
         "the hexagon lattice's cells are drawn by the page itself"),
        ({"lattice": "fcc", "cells": []}, "the editor draws the lattices cube, hexagon, prism, "
         "rhombic, sphere, square, tetra-octa, triangle"),
        ({"lattice": "prism", "cells": [[0, 0, "#"]]},
         "cells: a cell must be [layer, row, col, colour]"),
    ]:
        refused = client.post("/api/design/mesh", json=body)
        assert refused.status_code == 400 and refused.json() == {"error": line}
    # a prism turns within its layers; tipping over is a cube's
    turned = client.post("/api/design/transform", json={
        "lattice": "prism", "cells": [[0, 0, 0, "#"], [0, 0, 1, "#"]], "operation": "turn"})
    assert turned.status_code == 200
    assert lattice_named("prism").normalize(
        {tuple(c[:3]): c[3] for c in turned.json()["cells"]}) in lattice_named(
        "prism").orientations(lattice_named("prism").normalize({(0, 0, 0): "#", (0, 0, 1): "#"}))
    tipped = client.post("/api/design/transform", json={
        "lattice": "prism", "cells": [[0, 0, 0, "#"]], "operation": "turn-row"})
    assert tipped.status_code == 400 and "turned within their layers" in tipped.json()["error"]


def test_bermuda_s_take_apart_comes_with_meshes_and_its_space(client, capsys):
    text = _imported(client, "Bermuda")
    moves = client.post("/api/design/moves", json={"toml": text, "name": "Bermuda",
                                                    "tab": "lat-1"}).json()
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "Bermuda.toml"
        path.write_text(text, "utf-8")
        assert main(["moves", str(path), "--json"]) == 0
        told = json.loads(capsys.readouterr().out)
    assert moves["level"] == told["level"] and moves["moves"] == len(told["moves"])
    assert len(moves["solid"]["groups"]) == len(moves["pieces"])
    flat = [v for row in moves["solid"]["space"] for v in row]
    assert flat == pytest.approx([0.5, 0, 0, 0, 3 ** 0.5 / 2, 0, 0, 0, 1], abs=1e-5)


# -- in the browser ----------------------------------------------------------------------------

if CHROMIUM is not None and CHROMEDRIVER is not None:
    from selenium.webdriver.common.action_chains import ActionChains
    from selenium.webdriver.common.by import By


def pixels(driver, canvas) -> str:
    return driver.execute_script("return arguments[0].toDataURL('image/png');", canvas)


def _turns(driver, canvas) -> None:
    drawn = pixels(driver, canvas)
    ActionChains(driver).move_to_element(canvas).click_and_hold().move_by_offset(90, 25) \
        .release().perform()
    wait(driver, lambda d: pixels(d, canvas) != drawn)


@pytest.mark.parametrize("example", ["HexSticks", "Bermuda", "FourPieceTetrahedron", "pyramid"])
def test_each_lattice_is_drawn_in_3d_turns_and_counts_as_the_command_line(
        client, server, browser, capsys, example):
    driver = browser
    text = PYRAMID if example == "pyramid" else _imported(client, example)
    open_text(driver, server, text, example)
    # every lattice opens in the editor (rhombic, tetra-octa, sphere: edited in 3-D, #37)
    assert driver.execute_script("return state.model.lattice") == \
        read_text(text, example, example).puzzles[0].lattice.name
    view = wait(driver, lambda d: d.find_element(By.CSS_SELECTOR, "#puzzle-3d canvas"))
    wait(driver, lambda d: view.is_displayed())
    time.sleep(0.3)
    _turns(driver, view)
    if SHOTS and example in ("HexSticks", "Bermuda"):
        Path(SHOTS).mkdir(parents=True, exist_ok=True)
        driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", view)
        time.sleep(0.3)
        view.screenshot(str(Path(SHOTS) / f"web-3d-{example.lower()}.png"))
    driver.find_element(By.CSS_SELECTOR, '.tabs button[data-pane="solutions"]').click()
    driver.find_element(By.ID, "count").click()
    expected = cli_count(text, example, capsys)
    wait(driver, lambda d: "distinct" in d.find_element(By.ID, "result").text)
    assert driver.find_element(By.ID, "result").text == expected
    # a solution, drawn from the placements' meshes
    driver.find_element(By.ID, "solve").click()
    solved = wait(driver, lambda d: d.find_element(By.CSS_SELECTOR, "#solution-3d canvas"))
    wait(driver, lambda d: solved.is_displayed())
    time.sleep(0.3)
    _turns(driver, solved)


def test_a_prism_puzzle_is_edited_in_layers_of_triangles_and_saved(client, server, browser):
    driver = browser
    text = _imported(client, "Bermuda")
    original = read_text(text, "Bermuda", "Bermuda").puzzles[0]
    open_text(driver, server, text, "Bermuda")
    assert driver.execute_script("return state.model.lattice") == "prism"
    wait(driver, lambda d: len(d.find_elements(By.CSS_SELECTOR, "#layers svg.layer")) == 3)
    layer = driver.find_elements(By.CSS_SELECTOR, "#layers svg.layer")[0]
    rows = int(driver.find_element(By.ID, "grid-rows").get_attribute("value"))
    cols = int(driver.find_element(By.ID, "grid-cols").get_attribute("value"))
    # the triangle lattice's outlines, one a cell of the window, up and down in turn
    outlines = layer.find_elements(By.CSS_SELECTOR, "polygon.cell")
    assert len(outlines) == rows * cols
    assert all(len(p.get_attribute("points").split()) == 3 for p in outlines)
    assert len(layer.find_elements(By.CSS_SELECTOR, "polygon.cell.on")) == \
        sum(1 for c in original.board if c[0] == 0)
    editor = wait(driver, lambda d: d.find_element(By.CSS_SELECTOR, "#iso3d canvas"))
    wait(driver, lambda d: editor.is_displayed())
    time.sleep(0.3)
    _turns(driver, editor)
    # a click on an empty triangle of the bottom layer adds a prism there
    assert (0, 0, 0) not in original.board
    before = driver.execute_script("return state.toml")
    empty = layer.find_element(By.CSS_SELECTOR, 'polygon[data-r="0"][data-c="0"]')
    ActionChains(driver).move_to_element(empty).click().perform()
    wait(driver, lambda d: d.execute_script("return state.toml") != before)
    driver.execute_async_script("settled().then(() => arguments[0](true))")
    saved = read_text(driver.execute_script("return state.toml"), "saved", "saved").puzzles[0]
    assert saved.lattice.name == "prism"
    assert set(saved.board) == set(original.board) | {(0, 0, 0)}
    assert [(p.name, p.shape, p.lo, p.hi) for p in saved.pieces] == \
        [(p.name, p.shape, p.lo, p.hi) for p in original.pieces]
    model = driver.execute_script("return state.model.board")
    assert {tuple(c[:3]) for c in model} == set(saved.board)


def test_bermuda_comes_apart_in_3d(client, server, browser):
    driver = browser
    open_text(driver, server, _imported(client, "Bermuda"), "Bermuda")
    driver.find_element(By.CSS_SELECTOR, '.tabs button[data-pane="moves"]').click()
    driver.find_element(By.ID, "moves-find").click()
    wait(driver, lambda d: "step 0 of" in d.find_element(By.ID, "moves-status").text)
    view = wait(driver, lambda d: d.find_element(By.CSS_SELECTOR, "#moves-3d canvas"))
    wait(driver, lambda d: view.is_displayed())
    assert driver.find_element(By.ID, "browse-start").get_attribute("disabled") is not None
    time.sleep(0.3)
    assembled = pixels(driver, view)
    for _ in range(3):
        driver.find_element(By.ID, "moves-forward").click()
    wait(driver, lambda d: "step 3 of" in d.find_element(By.ID, "moves-status").text)
    wait(driver, lambda d: pixels(d, view) != assembled)  # pieces have moved away
