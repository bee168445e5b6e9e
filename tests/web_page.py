"""What the page's browser tests share: the server on a free port in a thread, and headless
Chromium (Debian's chromium and chromium-driver, driven by Selenium) with its downloads kept
in a folder of the test's, a puzzle opened from its text, and the command line's count of
a text. Imported by tests/test_web_browser.py, tests/test_web_designer.py and the 3-D
tests, each of which keeps one server and one browser per module (the 3-D tests take
:func:`roomy_server` and :func:`webgl_browser` as their ``server`` and ``browser``, the
editor's tests :func:`downloading_browser` and :func:`download_folder`)."""

from __future__ import annotations

import json
import shutil
import socket
import tempfile
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
CHROMEDRIVER = shutil.which("chromedriver")
WAIT = 120  # seconds a page load or a wait for the screen may take: a guard against a hang,
# never a measurement (#38 item 3: the suite must pass at load 10 on two cores)
CHECK_WAIT = 600.0  # the seconds a page's check may take in the tests (the server's own
# limit is 10 s, web/fairness.py: four checks with it failed on a loaded machine; the
# limit itself is tested with small values in tests/test_web_fairness.py)

# the page's tests' puzzle on spheres: the pyramid of balls of tests/test_lattice_fcc.py
# (counted there against a brute force)
PYRAMID = """lattice = "sphere"
[board]
grid = ["..#../.#.#./#.#.#/.#.#./..#..", "...../..#../.#.#./..#../.....",
        "...../...../..#../...../....."]
[pieces]
V = { shape = ["#.#/.#."], count = 2 }
I = { shape = ["#../.#./..#"], count = 2 }
D = { shape = ["#./.#"], count = 1 }
[rules]
rotate = true
reflect = false
"""


def roomy_app(**options: Any) -> Any:
    """The page's app as ``create_app`` makes it, with checks that may take CHECK_WAIT."""
    from puzzlebox.web.app import create_app
    from puzzlebox.web.fairness import CheckLimits

    return create_app(checks=CheckLimits(seconds=CHECK_WAIT), **options)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@contextmanager
def serving(app: Any) -> Iterator[str]:
    """The app served by uvicorn in a thread on a free port; its address."""
    import uvicorn

    port = free_port()
    config = uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning",
                            timeout_graceful_shutdown=1)
    srv = uvicorn.Server(config)
    thread = threading.Thread(target=srv.run, daemon=True)
    thread.start()
    deadline = time.time() + WAIT
    while not srv.started and time.time() < deadline:
        time.sleep(0.05)
    assert srv.started, "the server did not start"
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        srv.should_exit = True
        thread.join(timeout=WAIT)


@contextmanager
def chromium(downloads: Path, console: bool = False, flags: tuple[str, ...] = ()
             ) -> Iterator[Any]:
    """Headless Chromium at 1400x1000 in a profile of its own, downloading into
    ``downloads``; ``console``: the browser's console log is kept, to be read back;
    ``flags``: more of Chromium's switches (``--disable-3d-apis``: a browser without WebGL).
    WebGL is SwiftShader's, on the CPU (``--enable-unsafe-swiftshader``: Chromium no longer
    falls back to it by itself), for the page's 3-D view (static/view3d.js)."""
    from selenium import webdriver
    from selenium.webdriver.chrome.options import Options
    from selenium.webdriver.chrome.service import Service

    assert CHROMIUM is not None and CHROMEDRIVER is not None
    profile = tempfile.mkdtemp(prefix="puzzlebox-chromium-")
    options = Options()
    options.binary_location = CHROMIUM
    for flag in ("--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
                 "--no-first-run", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--disable-dev-shm-usage",
                 "--window-size=1400,1000", f"--user-data-dir={profile}",
                 "--use-angle=swiftshader", "--enable-unsafe-swiftshader", *flags):
        options.add_argument(flag)
    options.add_experimental_option("prefs", {
        "download.default_directory": str(downloads),
        "download.prompt_for_download": False,
    })
    if console:
        options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    driver = webdriver.Chrome(service=Service(CHROMEDRIVER), options=options)
    driver.set_page_load_timeout(WAIT)
    try:
        yield driver
    finally:
        driver.quit()
        shutil.rmtree(profile, ignore_errors=True)


def need_chromium() -> None:
    """Skip the test, saying why, where Selenium or the headless browser is missing."""
    pytest.importorskip("selenium", reason="selenium is not installed")
    if CHROMIUM is None or CHROMEDRIVER is None:
        pytest.skip("no headless browser: install the Debian packages chromium and "
                    "chromium-driver (.ci/run does)")


@contextmanager
def webgl_chromium() -> Iterator[Any]:
    """Headless Chromium that makes WebGL contexts (SwiftShader), for a module's 3-D view
    tests; the test skips, saying why, where there is no browser or no WebGL."""
    need_chromium()
    with tempfile.TemporaryDirectory() as folder, chromium(Path(folder)) as driver:
        driver.get("about:blank")
        reason = driver.execute_script(
            "const c = document.createElement('canvas');"
            "return (c.getContext('webgl2') || c.getContext('webgl')) ? null : 'none';")
        if reason is not None:
            pytest.skip("this Chromium makes no WebGL context, even with SwiftShader")
        yield driver


def wait(driver: Any, condition: Any, timeout: float = WAIT) -> Any:
    """What ``condition(driver)`` gives once it is true (an element gone stale meanwhile is
    looked for again), within ``timeout`` seconds: a guard against a hang."""
    from selenium.common.exceptions import StaleElementReferenceException
    from selenium.webdriver.support.ui import WebDriverWait

    return WebDriverWait(driver, timeout, ignored_exceptions=[StaleElementReferenceException]
                         ).until(lambda d: condition(d))


def open_text(driver: Any, url: str, text: str, name: str) -> None:
    """The page at ``url`` with the puzzle ``text`` opened as ``name`` (the page's own
    open, to the end of its check)."""
    from selenium.webdriver.common.by import By

    driver.get(url)
    # the page has made its new puzzle (after the catalog) before another is opened
    wait(driver, lambda d: len(d.find_elements(By.CSS_SELECTOR, "#catalog option")) > 5
         and d.execute_script("return !!window.view3d && !!window.page3d && !!state.model"))
    driver.set_script_timeout(WAIT)
    driver.execute_async_script(
        "openText(arguments[0], arguments[1]).then(() => arguments[2](true))", text, name)
    assert driver.execute_script("return [state.name, state.broken]") == [name, False]


def cli_count(text: str, name: str, capsys: Any) -> str:
    """``puzzlebox count`` of the text, in the words of the page's result line."""
    from puzzlebox.cli import main

    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / f"{name}.toml"
        path.write_text(text, "utf-8")
        assert main(["count", str(path), "--json"]) == 0
        counted = json.loads(capsys.readouterr().out)
    return f"{counted['solutions']} solutions, {counted['distinct']} distinct"


@pytest.fixture(scope="module", name="server")
def roomy_server() -> Iterator[str]:
    """A module's ``server``: the page with roomy checks (:func:`roomy_app`), on a free
    port."""
    pytest.importorskip("uvicorn", reason="the web extra (uvicorn) is not installed")
    with serving(roomy_app()) as url:
        yield url


@pytest.fixture(scope="module", name="browser")
def webgl_browser() -> Iterator[Any]:
    """A module's ``browser``: headless Chromium with WebGL (:func:`webgl_chromium`)."""
    with webgl_chromium() as driver:
        yield driver


@pytest.fixture(scope="module", name="downloads")
def download_folder() -> Iterator[Path]:
    """A module's ``downloads``: the folder its browser downloads into."""
    with tempfile.TemporaryDirectory() as folder:
        yield Path(folder)


@pytest.fixture(scope="module", name="browser")
def downloading_browser(downloads: Path) -> Iterator[Any]:
    """A module's ``browser``: headless Chromium downloading into ``downloads``."""
    need_chromium()
    with chromium(downloads) as driver:
        yield driver
