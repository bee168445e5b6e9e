"""Every cell kind in the page's editor (#36 item 1), end to end in headless Chromium as
tests/test_web_designer.py drives it: coloured cells (with the legend), optional cells drawn
with their own tool, a neutral colour and colour matching set in the page, fixed pieces and
groups; saved as the TOML the command line reads (read back by the library as the same
puzzle, counted the same by the page and the CLI) and opened again in the grid editor.

``PUZZLEBOX_SCREENSHOTS=DIR`` also saves docs/images/web-cell-kinds.png.
"""

from __future__ import annotations

import json

import pytest

pytest.importorskip("starlette", reason="the web extra (starlette) is not installed")
pytest.importorskip("uvicorn", reason="the web extra (uvicorn) is not installed")

from tests.test_web_designer import (  # noqa: E402
    cell,
    cli,
    click,
    drag,
    fresh,
    on,
    shot,
    target,
    text,
    toml,
    tool,
    wait,
)
from tests.web_page import (  # noqa: E402
    download_folder,
    downloading_browser,
    roomy_server,
)

from puzzlebox.formats.reader import read_file  # noqa: E402

try:
    from selenium import webdriver
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys
    from selenium.webdriver.support.ui import Select
except ImportError:
    webdriver = None


# the module's page, its browser and the folder it downloads into (tests/web_page.py)
server, browser, downloads = roomy_server, downloading_browser, download_folder


def colour(driver, ch: str) -> None:
    box = driver.find_element(By.ID, "colour")
    box.clear()
    box.send_keys(ch)


def field(driver, element_id: str, value: str) -> None:
    box = driver.find_element(By.ID, element_id)
    box.clear()
    box.send_keys(value, Keys.TAB)


def optional_cells(driver, where: str = "#grid") -> int:
    return len(driver.find_elements(By.CSS_SELECTOR, f"{where} .cell.optional"))


def test_coloured_optional_fixed_and_grouped_cells_drawn_saved_and_reopened(
        server, browser, downloads):
    driver = browser
    fresh(driver, server)
    # the board: a row of five "a" and two "b" under it
    colour(driver, "a")
    drag(driver, [(0, 0), (0, 1), (0, 2), (0, 3), (0, 4)])
    colour(driver, "b")
    drag(driver, [(1, 0), (1, 1)])
    wait(driver, lambda d: on(d) == 7)
    # three of them may stay empty: the optional tool, drawn faded and dashed
    tool(driver, "optional")
    for r, c in ((0, 3), (0, 4), (1, 1)):
        cell(driver, r, c).click()
    wait(driver, lambda d: optional_cells(d) == 3)
    cell(driver, 1, 1).click()  # a second click takes the mark off
    wait(driver, lambda d: optional_cells(d) == 2)
    cell(driver, 1, 1).click()
    wait(driver, lambda d: optional_cells(d) == 3)
    # the pieces: "aa", a vertical "a" over "b", and a neutral monomino "#"
    tool(driver, "draw")
    for cells, colours in (([(0, 0), (0, 1)], "aa"), ([(0, 0), (1, 0)], "ab"), ([(0, 0)], "#")):
        click(driver, "add-piece")
        wait(driver, lambda d: on(d) == 0)
        for (r, c), ch in zip(cells, colours, strict=True):
            colour(driver, ch)
            cell(driver, r, c).click()
        drawn = len(cells)
        wait(driver, lambda d, n=drawn: on(d) == n)
    # the optional tool on a piece is refused in one line
    tool(driver, "optional")
    cell(driver, 2, 2).click()
    wait(driver, lambda d: "optional cells are board cells" in text(d, "design-error"))
    tool(driver, "draw")
    # rules: colours match, "#" goes with any; P1 fixed, P2 and P3 one group
    click(driver, "match_colors")
    field(driver, "neutral", "#")
    target(driver, 1)
    click(driver, "piece-fixed")
    for index in (2, 3):
        target(driver, index)
        field(driver, "piece-groups", "1")
    wait(driver, lambda d: text(d, "groups-note")
         == "Taking apart ([disassembly]): fixed: P1; group 1: P2, P3")
    # the legend: each colour once, the neutral one said, the optional cells counted
    target(driver, 0)
    wait(driver, lambda d: "optional: 3 board cells may stay empty" in text(d, "legend"))
    legend = text(driver, "legend")
    assert "a board 5, pieces 3" in legend and "b board 2, pieces 1" in legend
    assert "# (neutral: goes with any colour) board 0, pieces 1" in legend
    driver.find_element(By.CSS_SELECTOR, '#legend button[data-colour="b"]').click()
    assert driver.find_element(By.ID, "colour").get_attribute("value") == "b"
    # (the last edit's TOML is in once the groups are)
    wait(driver, lambda d: 'groups = [["P2", "P3"]]' in toml(d) and 'neutral = "#"' in toml(d))
    wait(driver, lambda d: text(d, "area") == ("board: 7 cells, 3 of them optional; pieces: 5 "
                                               "cells (the areas can add up)"))
    written = toml(driver)
    shot(driver, "cell-kinds")
    # counted in the page, and by the command line from the file the page saves
    driver.find_element(By.CSS_SELECTOR, '.tabs button[data-pane="solutions"]').click()
    click(driver, "count")
    wait(driver, lambda d: "distinct" in text(d, "result"))
    shown = text(driver, "result")
    click(driver, "save")
    saved = downloads / "my-puzzle.toml"
    wait(driver, lambda d: saved.exists() and saved.stat().st_size > 0)
    assert saved.read_text("utf-8") == written
    counted = json.loads(cli("count", str(saved), "--json"))
    assert counted["solutions"] > 0
    assert shown == f"{counted['solutions']} solutions, {counted['distinct']} distinct"
    # the library reads every key the page set
    puzzle = read_file(saved).puzzles[0]
    assert puzzle.optional == {(0, 3), (0, 4), (1, 1)}
    assert puzzle.board == {(0, 0): "a", (0, 1): "a", (0, 2): "a", (0, 3): "a", (0, 4): "a",
                            (1, 0): "b", (1, 1): "b"}
    assert [(p.name, p.shape.colors) for p in puzzle.pieces] == [
        ("P1", ("a", "a")), ("P2", ("a", "b")), ("P3", ("#",))]
    assert puzzle.match_colors and puzzle.neutral == "#"
    assert puzzle.disassembly.fixed == ("P1",) and puzzle.disassembly.groups == (("P2", "P3"),)
    # opened again: in the grid editor (not as text), every mark where it was
    click(driver, "new")
    driver.find_element(By.ID, "file").send_keys(str(saved))
    wait(driver, lambda d: text(d, "name") == "my-puzzle" and optional_cells(d) == 3)
    assert driver.find_element(By.ID, "grid-editor").is_displayed()
    assert not driver.find_element(By.ID, "not-editable").is_displayed()
    assert driver.find_element(By.ID, "match_colors").is_selected()
    assert driver.find_element(By.ID, "neutral").get_attribute("value") == "#"
    target(driver, 1)
    assert driver.find_element(By.ID, "piece-fixed").is_selected()
    target(driver, 3)
    assert driver.find_element(By.ID, "piece-groups").get_attribute("value") == "1"
    wait(driver, lambda d: toml(d) == written)
    # renaming a piece renames it in [disassembly]; removing it takes it out
    field(driver, "piece-name", "Mono")
    wait(driver, lambda d: 'groups = [["P2", "Mono"]]' in toml(d))
    click(driver, "remove-piece")
    wait(driver, lambda d: 'groups = [["P2"]]' in toml(d))


def test_optional_cubes_and_a_turned_board_keep_their_marks(server, browser):
    """On cube the optional tool marks cubes of a layer; turning or moving the board turns
    its optional cells with it (the server turns both by one map)."""
    driver = browser
    fresh(driver, server)
    Select(driver.find_element(By.ID, "lattice")).select_by_value("cube")
    wait(driver, lambda d: d.find_elements(By.CSS_SELECTOR, "#layers svg.layer"))
    for id_ in ("grid-layers", "grid-rows", "grid-cols"):
        field(driver, id_, "2")
    wait(driver, lambda d: len(d.find_elements(By.CSS_SELECTOR, "#layers svg.layer")) == 2)
    drag(driver, [(0, 0), (0, 1), (1, 1)], layer=0)
    drag(driver, [(0, 0)], layer=1)
    tool(driver, "optional")
    cell(driver, 0, 1, layer=0).click()
    cell(driver, 0, 0, layer=1).click()
    wait(driver, lambda d: optional_cells(d, "#layers") == 2)
    click(driver, "add-piece")
    tool(driver, "draw")
    drag(driver, [(0, 0), (0, 1)], layer=0)
    wait(driver, lambda d: 'optional = [".+/..", "+./.."]' in toml(d))
    assert 'grid = ["##/.#", "#./.."]' in toml(driver)
    target(driver, 0)
    click(driver, "move-right")
    wait(driver, lambda d: 'optional = [".+/..", "+./.."]' in toml(d)
         and optional_cells(d, "#layers") == 2
         and cell(d, 0, 2, layer=0).get_attribute("class").count("optional") == 1)
    click(driver, "mirror")
    wait(driver, lambda d: cell(d, 0, 1, layer=0).get_attribute("class").count("optional") == 1
         and cell(d, 0, 2, layer=1).get_attribute("class").count("optional") == 1)
    wait(driver, lambda d: 'optional = ["+./..", ".+/.."]' in toml(d))
