"""Counts of the page that survive (#36 item 4): saved as they go in the server's folder
(web/saved.py), listed with where they stand, resumed to the same total as one count from
the start, as the command line's and the library's; and the same checkpoint is the command
line's: ``puzzlebox count FILE --checkpoint`` resumes what the page saved.
"""

from __future__ import annotations

import json
import subprocess
import sys
import time

import pytest

pytest.importorskip("starlette", reason="the web extra (starlette) is not installed")

from starlette.testclient import TestClient  # noqa: E402
from tests.test_web import follow, new_tab  # noqa: E402
from tests.web_page import WAIT, roomy_app  # noqa: E402

from puzzlebox import catalog  # noqa: E402
from puzzlebox.web.saved import Saved  # noqa: E402

# the published count of the 6x10 pentomino rectangle: 2339 tilings up to symmetry
PUBLISHED = {"solutions": 9356, "distinct": 2339}


@pytest.fixture
def client(tmp_path):
    app = roomy_app(state=tmp_path / "saved")
    with TestClient(app) as c:
        c.web = app.state.app
        c.folder = tmp_path / "saved"
        yield c


def drop_half(path) -> int:
    """The checkpoint as a count stopped half way leaves it: half the finished parts (with
    their checksums) taken out. Returns how many stay."""
    data = json.loads(path.read_text("utf-8"))
    done = data["boards"][0]["done"]
    sums = data["checksums"][0]["done"]
    for key in sorted(done, key=int)[::2]:
        del done[key]
        del sums[key]
    path.write_text(json.dumps(data), "utf-8")
    return len(done)


def test_a_saved_count_resumes_to_the_published_total(client, tmp_path):
    text = catalog.path_of("pentomino-6x10").read_text("utf-8")
    body = {"toml": text, "name": "pentomino-6x10", "save": True}
    tab = new_tab()
    client.post("/api/count", json={**body, "tab": tab})
    whole = follow(client, tab)[-1]
    assert whole["state"] == "done", whole["message"]
    assert whole["result"]["solutions"] == PUBLISHED["solutions"]
    assert whole["result"]["distinct"] == PUBLISHED["distinct"]
    listing = client.get("/api/saved").json()["saved"]
    assert [(s["kind"], s["name"], s["board"], s["engine"]) for s in listing] == [
        ("count", "pentomino-6x10", 0, "auto")]
    total = listing[0]["standing"]["total"]
    assert listing[0]["standing"] == {"done": total, "total": total, **PUBLISHED}
    # stopped half way (the parts it had not finished are missing from its file)
    checkpoint = Saved(client.folder).checkpoint(listing[0]["key"])
    kept = drop_half(checkpoint)
    assert 0 < kept < total
    standing = client.get("/api/saved").json()["saved"][0]["standing"]
    assert standing["done"] == kept and standing["total"] == total
    assert 0 < standing["solutions"] < PUBLISHED["solutions"]
    # the same count again resumes: the parts kept are not searched again, the total is
    # the whole count's
    tab = new_tab()
    client.post("/api/count", json={**body, "tab": tab})
    resumed = follow(client, tab)[-1]
    assert resumed["result"]["resumed"] == kept
    assert (resumed["result"]["solutions"], resumed["result"]["distinct"]) == (
        PUBLISHED["solutions"], PUBLISHED["distinct"])
    assert resumed["message"] == whole["message"] == "9356 solutions, 2339 distinct"
    # the command line resumes the page's checkpoint the same way, to the same total
    drop_half(checkpoint)
    puzzle = tmp_path / "pentomino-6x10.toml"
    puzzle.write_text(text, "utf-8")
    done = subprocess.run([sys.executable, "-m", "puzzlebox.cli", "count", str(puzzle),
                           "--checkpoint", str(checkpoint), "--json"],
                          capture_output=True, text=True, timeout=180)
    assert done.returncode == 0, done.stderr
    line = json.loads(done.stdout)
    assert (line["solutions"], line["distinct"]) == (PUBLISHED["solutions"],
                                                     PUBLISHED["distinct"])
    assert line["done"] == line["total"] == total
    # forgotten: its files go
    assert client.post("/api/saved/forget", json={"tab": tab, "key": listing[0]["key"]}
                       ).json() == {"forgotten": True}
    assert client.get("/api/saved").json()["saved"] == []
    assert not checkpoint.exists()


def test_a_stopped_saved_count_keeps_its_plan_and_a_damaged_one_is_not_trusted(client):
    text = catalog.path_of("parallelogram-5-rotate").read_text("utf-8")
    tab = new_tab()
    client.post("/api/count", json={"toml": text, "name": "p5", "save": True, "tab": tab})
    deadline = time.time() + WAIT
    while True:  # the plan is written before any part is searched
        listing = client.get("/api/saved").json()["saved"]
        if listing and listing[0]["standing"].get("total"):
            break
        assert time.time() < deadline, listing
        time.sleep(0.1)
    assert client.post("/api/stop", json={"tab": tab}).json() == {"stopped": True}
    standing = client.get("/api/saved").json()["saved"][0]["standing"]
    assert standing["total"] > 1 and standing["done"] < standing["total"]
    # a count raised by hand in the file: listed with its one line, not resumed
    path = Saved(client.folder).checkpoint(listing[0]["key"])
    data = json.loads(path.read_text("utf-8"))
    data["boards"][0]["done"]["0"] = [1, 1, 1, 0.1]
    path.write_text(json.dumps(data), "utf-8")
    standing = client.get("/api/saved").json()["saved"][0]["standing"]
    assert "not usable" in standing["error"], standing
    tab = new_tab()
    client.post("/api/count", json={"toml": text, "name": "p5", "save": True, "tab": tab})
    last = follow(client, tab)[-1]
    assert last["state"] == "error" and "not a usable checkpoint" in last["message"]


def test_a_saved_search_is_named_by_its_key_never_a_path(client):
    for key in ("../../etc/passwd", "0" * 23, "g" * 24, 5):
        answer = client.post("/api/saved/forget", json={"tab": new_tab(), "key": key})
        assert answer.status_code == 400
        assert answer.json()["error"] == "a saved search is named by its key (24 hex digits)"


# -- in the browser: a reopened tab shows where a saved count stands, and resumes it --------

@pytest.fixture(scope="module")
def page(tmp_path_factory):
    from tests.web_page import CHROMEDRIVER, CHROMIUM, chromium, serving

    try:
        import selenium  # noqa: F401
    except ImportError:
        pytest.skip("selenium is not installed")
    if CHROMIUM is None or CHROMEDRIVER is None:
        pytest.skip("no headless browser: install the Debian packages chromium and "
                    "chromium-driver (.ci/run does)")
    folder = tmp_path_factory.mktemp("page-saved")
    with serving(roomy_app(state=folder / "saved")) as url, chromium(folder) as driver:
        yield url, driver, folder / "saved"


def _open(driver, url: str, name: str, pane: str) -> None:
    """The page loaded afresh, catalog puzzle ``name`` chosen and its ``pane`` shown."""
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import Select
    from tests.web_page import wait

    driver.get(url)
    wait(driver, lambda d: len(d.find_elements(By.CSS_SELECTOR, "#catalog option")) > 5)
    Select(driver.find_element(By.ID, "catalog")).select_by_value(name)
    wait(driver, lambda d: name in d.find_element(By.ID, "name").text)
    driver.find_element(By.CSS_SELECTOR, f'.tabs button[data-pane="{pane}"]').click()


def test_a_reopened_tab_shows_where_a_saved_count_stands_and_resumes_it(page):
    from selenium.webdriver.common.by import By
    from tests.test_web_designer import cli, click, shot, text, wait

    url, driver, folder = page
    _open(driver, url, "pentomino-6x10", "solutions")
    click(driver, "save-progress")
    click(driver, "count")
    wait(driver, lambda d: text(d, "result") == "9356 solutions, 2339 distinct")
    wait(driver, lambda d: "count of pentomino-6x10, engine auto: done: 9356 solutions, "
         "2339 distinct" in text(d, "saved-list"))
    # a count stopped half way: half its parts missing from the server's file
    (key,) = [p.name.split(".")[0] for p in folder.glob("*.checkpoint.json")]
    kept = drop_half(Saved(folder).checkpoint(key))
    total = json.loads(Saved(folder).checkpoint(key).read_text("utf-8"))["boards"][0]
    total = len(total["subproblems"])
    # the tab opened again: it lists the saved count, where it stands
    driver.get(url)
    wait(driver, lambda d: len(d.find_elements(By.CSS_SELECTOR, "#catalog option")) > 5)
    driver.find_element(By.CSS_SELECTOR, '.tabs button[data-pane="solutions"]').click()
    wait(driver, lambda d: f"{kept} of {total} parts done" in text(d, "saved-list"))
    assert "solutions" in text(driver, "saved-list") and "so far" in text(driver, "saved-list")
    shot(driver, "saved-count")
    driver.find_element(By.CSS_SELECTOR, "#saved-list li button.resume").click()
    wait(driver, lambda d: text(d, "result") == "9356 solutions, 2339 distinct")
    assert f"{kept} of them before this run" in text(driver, "progress")
    assert driver.find_element(By.ID, "save-progress").is_selected()
    counted = json.loads(cli("count", "pentomino-6x10", "--json"))
    assert (counted["solutions"], counted["distinct"]) == (9356, 2339)
    wait(driver, lambda d: f"done: 9356 solutions, 2339 distinct ({total} parts)"
         in text(d, "saved-list"))
    driver.find_element(By.CSS_SELECTOR, "#saved-list li button.forget").click()
    wait(driver, lambda d: not d.find_element(By.ID, "saved").is_displayed())
    assert not list(folder.glob("*.json"))


def test_a_saved_design_search_resumes_to_what_the_library_keeps(client):
    """A design search saved as it goes (the command line's ``design --checkpoint``): cut
    short (the last half of its journal gone, as a kill leaves it), listed with where it
    stands, and run again: the same designs kept as the library's DesignRun keeps."""
    from pathlib import Path

    from puzzlebox.designs import DesignRun, load_space

    path = Path(__file__).parent / "data" / "tetromino-sets.toml"
    library = DesignRun(load_space(path))
    tried = list(library.results())
    kept = sorted(r.design.index for r in library.kept)
    text = path.read_text("utf-8")

    def run() -> dict:
        tab = new_tab()
        started = client.post("/api/designs/run", json={"tab": tab, "toml": text,
                                                        "name": "tetromino-sets", "save": True})
        assert started.status_code == 200, started.text
        number = started.json()["run"]
        with client.stream("GET", f"/api/designs/events/{tab}?run={number}") as stream:
            for _ in stream.iter_lines():
                pass
        table = client.get(f"/api/designs/table/{tab}?run={number}").json()
        assert sorted(int(row[1]) for row in table["rows"]) == kept
        return client.get("/api/saved").json()["saved"][0]

    first = run()
    assert first["kind"] == "design"
    assert first["standing"] == {"tried": len(tried), "kept": len(kept)}
    journal = Saved(client.folder).checkpoint(first["key"])
    lines = journal.read_text("utf-8").splitlines(keepends=True)
    journal.write_text("".join(lines[:len(lines) // 2]), "utf-8")
    standing = client.get("/api/saved").json()["saved"][0]["standing"]
    assert standing["tried"] == len(lines) // 2 - 1 and standing["kept"] < len(kept)
    assert run()["standing"] == {"tried": len(tried), "kept": len(kept)}


def test_a_saved_take_apart_table_resumes_to_the_command_lines_figures(client, tmp_path):
    """Take all apart saved as it goes (``count --disassemble --checkpoint``): framed-slack's
    48 assemblies, 34 of which come apart (its published figures, checked independently in
    tests/test_disassembly_commands.py); cut short, listed where it stands, and taken apart
    again: the same table, and the command line's figures."""
    text = catalog.path_of("framed-slack").read_text("utf-8")
    body = {"tab": new_tab(), "toml": text, "name": "framed-slack", "save": True}
    first = client.post("/api/design/table", json=body)
    assert first.status_code == 200, first.text
    first = first.json()
    assert (first["assemblies"], first["come_apart"]) == (48, 34)
    (about,) = client.get("/api/saved").json()["saved"]
    assert about["kind"] == "take-apart" and about["standing"] == {"taken": 48, "apart": 34}
    journal = Saved(client.folder).checkpoint(about["key"])
    lines = journal.read_text("utf-8").splitlines(keepends=True)
    journal.write_text("".join(lines[:20]), "utf-8")  # the first line and 19 assemblies
    assert client.get("/api/saved").json()["saved"][0]["standing"]["taken"] == 19
    again = client.post("/api/design/table", json=body).json()
    assert again == first
    assert client.get("/api/saved").json()["saved"][0]["standing"] == {"taken": 48,
                                                                       "apart": 34}
    # a path sent by the page is never used: the file stays the server's
    elsewhere = tmp_path / "elsewhere.jsonl"
    sneaky = client.post("/api/design/table", json={**body, "tab": new_tab(),
                                                     "saved_checkpoint": str(elsewhere)})
    assert sneaky.status_code == 200 and not elsewhere.exists()
    # the command line gives the same figures; its own checkpoint is not the page's (the
    # page holds each take-apart to its own limits, which a checkpoint names), and it
    # refuses the page's file in the checkpoint's one line rather than mix the two
    puzzle = tmp_path / "framed-slack.toml"
    puzzle.write_text(text, "utf-8")
    line = subprocess.run([sys.executable, "-m", "puzzlebox.cli", "count", str(puzzle),
                           "--disassemble", "--json"], capture_output=True, text=True,
                          timeout=180)
    assert line.returncode == 0, line.stderr
    counted = json.loads(line.stdout)
    assert (counted["assemblies"], counted["come_apart"]) == (48, 34), counted
    refused = subprocess.run([sys.executable, "-m", "puzzlebox.cli", "count", str(puzzle),
                              "--disassemble", "--checkpoint", str(journal)],
                             capture_output=True, text=True, timeout=180)
    assert refused.returncode == 2
    assert refused.stderr.count("\n") == 1 and "the checkpoint of another" in refused.stderr


def test_serve_takes_the_folder_of_saved_searches():
    done = subprocess.run([sys.executable, "-m", "puzzlebox.cli", "serve", "--help"],
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 0 and "--state DIR" in done.stdout


def test_the_default_folder_follows_the_xdg_rule(monkeypatch, tmp_path):
    from puzzlebox.web.saved import default_dir

    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path))
    assert default_dir() == tmp_path / "puzzlebox" / "web"
    monkeypatch.setenv("XDG_STATE_HOME", "relative/not/used")
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    assert default_dir() == tmp_path / "home" / ".local" / "state" / "puzzlebox" / "web"


def test_a_saved_take_apart_is_listed_in_a_reopened_tab_and_resumed(page):
    """Take all apart with save progress in the browser; the tab opened again lists it
    (how many assemblies are taken apart), and Resume opens the puzzle and makes the
    same table from the file."""
    from selenium.webdriver.common.by import By
    from tests.test_web_designer import click, text, wait

    url, driver, folder = page
    _open(driver, url, "framed-slack", "moves")
    click(driver, "apart-save")
    click(driver, "apart-all")
    words = "framed-slack: 48 assemblies (up to symmetry), 34 come apart"
    wait(driver, lambda d: text(d, "apart-count").startswith(words))
    table = text(driver, "apart-count")
    wait(driver, lambda d: "take-apart of framed-slack, engine auto: 48 assemblies taken "
         "apart, 34 of them come apart" in text(d, "saved-list"))
    (key,) = [p.name.split(".")[0] for p in folder.glob("*.checkpoint.json")]
    journal = Saved(folder).checkpoint(key)
    lines = journal.read_text("utf-8").splitlines(keepends=True)
    journal.write_text("".join(lines[:11]), "utf-8")  # 10 assemblies kept
    driver.get(url)
    wait(driver, lambda d: "take-apart of framed-slack, engine auto: 10 assemblies taken "
         "apart" in text(d, "saved-list"))
    driver.find_element(By.CSS_SELECTOR, "#saved-list li button.resume").click()
    wait(driver, lambda d: text(d, "apart-count") == table)
    assert driver.find_element(By.ID, "apart-save").is_selected()
    wait(driver, lambda d: "48 assemblies taken apart" in text(d, "saved-list"))
