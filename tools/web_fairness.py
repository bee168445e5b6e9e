"""How long a small check of one tab waits while three other tabs check a heavy file (#28).

The issue's measurement, repeated: three concurrent /api/check requests of a 12 KB file of
1,000 named monominoes, and during them a small check of another tab. It used to wait 31 to
34 s. Run against a real server (uvicorn configured as ``puzzlebox serve`` configures it)
on a free port of this machine, twice: with the page's own limits (the heavy check's work
is bounded before it is done), and with those bounds lifted (each heavy check draws 1,000
pieces and builds two million placement entries for its proofs, for a minute or more) so
that only the processes share the machine. tests/test_web_fairness.py checks the property
itself (the small check is answered while the heavy ones still run); this measures it.

    python tools/web_fairness.py [--repeats 5]
"""

from __future__ import annotations

import argparse
import socket
import statistics
import threading
import time
import warnings
from typing import Any

# Imports of httpx, uvicorn and the page wait inside the functions: every check process
# imports this main module again (multiprocessing's rule), and should pay no more for it
# than for `puzzlebox serve`'s own small entry point.

MONOMINOES = ('[board]\ngrid = """\n' + "\n".join(["#" * 40] * 25) + '\n"""\n[pieces]\n'
              + "".join(f'm{i:03d} = "#"\n' for i in range(1000)))
SMALL = '[board]\ngrid = "##/##"\n[pieces]\nA = "##"\nB = "##"\n'


def measure(limits: Any, repeats: int, heavy_tabs: int = 3) -> tuple[list[float], list[float]]:
    """Seconds of each small check made while three heavy ones ran, and of the heavy ones
    (those that ended by themselves; with the bounds lifted they are stopped at the end)."""
    import httpx
    import uvicorn

    from puzzlebox.web import server_config
    from puzzlebox.web.app import create_app

    app = create_app(checks=limits)
    web = app.state.app
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    server = uvicorn.Server(server_config(app, "127.0.0.1", port))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    while not server.started:
        time.sleep(0.01)
    url = f"http://127.0.0.1:{port}/api/check"
    light, heavy = [], []
    try:
        for round_ in range(repeats):
            def one(tab: str) -> None:
                began = time.perf_counter()
                answer = httpx.post(url, json={"tab": tab, "toml": MONOMINOES}, timeout=600)
                if answer.status_code == 200:
                    heavy.append(time.perf_counter() - began)

            tabs = [f"heavy{round_}{i}xx" for i in range(heavy_tabs)]
            threads = [threading.Thread(target=one, args=(t,)) for t in tabs]
            for t in threads:
                t.start()
            while web.checks.running() < heavy_tabs and any(t.is_alive() for t in threads):
                time.sleep(0.01)
            began = time.perf_counter()
            answer = httpx.post(url, json={"tab": f"light{round_}xxx", "toml": SMALL},
                                timeout=600)
            assert answer.status_code == 200, answer.text
            light.append(time.perf_counter() - began)
            for tab in tabs:  # stop the heavy ones (a newer check of each tab replaces it)
                httpx.post(url, json={"tab": tab, "toml": SMALL}, timeout=600)
            for t in threads:
                t.join()
    finally:
        server.should_exit = True
        thread.join()
    return light, heavy


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeats", type=int, default=5)
    args = parser.parse_args()
    warnings.simplefilter("ignore")
    from puzzlebox.web.fairness import CheckLimits

    lifted = CheckLimits(seconds=600, memory=4 << 30, entries=10**9, drawn_pieces=10**6)
    alone, _ = measure(None, args.repeats, heavy_tabs=0)
    print(f"alone: small check: median {statistics.median(alone):.2f} s, worst "
          f"{max(alone):.2f} s of {len(alone)}")
    for name, limits in (("the page's limits", None), ("bounds lifted", lifted)):
        light, heavy = measure(limits, args.repeats)
        ended = (f"heavy checks answered in {statistics.median(heavy):.2f} s (median of "
                 f"{len(heavy)})" if heavy else "heavy checks still running when stopped")
        print(f"{name}: small check during three heavy ones: median {statistics.median(light):.2f}"
              f" s, worst {max(light):.2f} s of {len(light)}; {ended}")


if __name__ == "__main__":
    main()
