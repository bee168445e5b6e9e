"""How long a small request of one tab waits while three other tabs run heavy ones (#28).

The issue's measurement, repeated: three concurrent /api/check requests of a 12 KB file of
1,000 named monominoes, and during them a small check of another tab. It used to wait 31 to
34 s. Run against a real server (uvicorn configured as ``puzzlebox serve`` configures it)
on a free port of this machine, twice: with the page's own limits (the heavy check's work
is bounded before it is done), and with those bounds lifted (each heavy check draws 1,000
pieces and builds two million placement entries for its proofs, for a minute or more) so
that only the processes share the machine. Then the same for searches: a small count of a
fourth tab (6-queens, to its end) while three tabs count 18-queens.
tests/test_web_fairness.py checks the property itself (the small request is answered
while the heavy ones still run); this measures it.

Each client keeps one connection (``httpx.Client``), as a browser does: ``httpx.post``
builds a new client and TLS context for every request, which cost 0.2 to 0.7 s a request
on the loaded machine, in this process, and was most of what an earlier version of this
script measured. ``--breakdown`` says where a small check's time goes (its process's start,
its work, the answer's way back), measured on the check processes directly.

    python tools/web_fairness.py [--repeats 5] [--breakdown]
"""

from __future__ import annotations

import argparse
import contextlib
import os
import socket
import statistics
import threading
import time
import warnings
from collections.abc import Iterator
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
    from puzzlebox.web.app import create_app

    app = create_app(checks=limits)
    with _serving(app) as port:
        return _measure_checks(app.state.app, f"http://127.0.0.1:{port}/api", repeats,
                               heavy_tabs)


def _measure_checks(web: Any, base: str, repeats: int, heavy_tabs: int
                    ) -> tuple[list[float], list[float]]:
    """:func:`measure`'s rounds, against the server at ``base``."""
    import httpx

    url = f"{base}/check"
    light: list[float] = []
    heavy: list[float] = []
    # every client made (a TLS context each) and connected before anything is timed: in
    # this process, beside the server, a client made during a round takes its cores
    light_client, *heavy_clients = [httpx.Client(timeout=600) for _ in range(heavy_tabs + 1)]
    for client in (light_client, *heavy_clients):
        client.get(f"{base}/lattices")
    try:
        for round_ in range(repeats):
            def one(tab: str, client: Any) -> None:
                began = time.perf_counter()
                answer = client.post(url, json={"tab": tab, "toml": MONOMINOES})
                if answer.status_code == 200:
                    heavy.append(time.perf_counter() - began)

            tabs = [f"heavy{round_}{i}xx" for i in range(heavy_tabs)]
            threads = [threading.Thread(target=one, args=(t, c))
                       for t, c in zip(tabs, heavy_clients, strict=False)]
            for t in threads:
                t.start()
            while web.checks.running() < heavy_tabs and any(t.is_alive() for t in threads):
                time.sleep(0.01)
            began = time.perf_counter()
            answer = light_client.post(url, json={"tab": f"light{round_}xxx", "toml": SMALL})
            assert answer.status_code == 200, answer.text
            light.append(time.perf_counter() - began)
            for tab in tabs:  # stop the heavy ones (a newer check of each tab replaces it)
                light_client.post(url, json={"tab": tab, "toml": SMALL})
            for t in threads:
                t.join()
    finally:
        for client in (light_client, *heavy_clients):
            client.close()
    return light, heavy


QUEENS = 'kind = "queens"\nn = {}\n'


def measure_searches(repeats: int) -> list[float]:
    """Seconds of a small count (6-queens, started and followed to its end) of a fourth
    tab while three tabs count 18-queens (each in a process of its own)."""
    import httpx

    from puzzlebox.web.app import create_app

    app = create_app()
    web = app.state.app
    light: list[float] = []
    with _serving(app) as port, httpx.Client(timeout=600) as client:
        base = f"http://127.0.0.1:{port}/api"
        for round_ in range(repeats):
            tabs = [f"heavy{round_}{i}xx" for i in range(3)]
            for tab in tabs:
                client.post(f"{base}/count", json={"tab": tab, "toml": QUEENS.format(18)})
            time.sleep(1.0)  # all three searching
            tab = f"light{round_}xxx"
            began = time.perf_counter()
            answer = client.post(f"{base}/count", json={"tab": tab,
                                                       "toml": QUEENS.format(6)})
            assert answer.status_code == 200, answer.text
            with client.stream("GET", f"{base}/events/{tab}") as stream:
                for line in stream.iter_lines():
                    if line.startswith("event: end"):
                        break
            light.append(time.perf_counter() - began)
            assert web.runs.running_count() == 3, "a heavy search ended first"
            for tab in tabs:
                client.post(f"{base}/stop", json={"tab": tab})
    return light


@contextlib.contextmanager
def _serving(app: Any) -> Iterator[int]:
    """``app`` served as ``puzzlebox serve`` serves it, in a thread on a free port of this
    machine; the port."""
    import uvicorn

    from puzzlebox.web import server_config

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    server = uvicorn.Server(server_config(app, "127.0.0.1", port))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    while not server.started:
        time.sleep(0.01)
    try:
        yield port
    finally:
        server.should_exit = True
        thread.join()


def _timed(body: dict[str, Any], limits: Any) -> dict[str, float]:
    """The page's check, with when it began and ended in its process and its CPU time."""
    from puzzlebox.web.app import _check

    began, cpu = time.time(), time.process_time()
    _check(body, limits)
    return {"began": began, "ended": time.time(), "cpu": time.process_time() - cpu}


def breakdown(repeats: int) -> None:
    """Where a small check's time goes, alone and during three heavy checks (bounds lifted):
    from asking to its process beginning the check, the check itself (wall and CPU), and
    from its answer to the server having it."""
    from puzzlebox.web.fairness import CheckLimits, CheckPool, Refused

    lifted = CheckLimits(seconds=600, memory=4 << 30, entries=10**9, drawn_pieces=10**6)
    pool = CheckPool(lifted)
    pool.warm()

    def quiet(text: str, tab: str) -> None:
        with contextlib.suppress(Refused):
            pool.run(_timed, {"toml": text}, tab)

    for heavy_tabs in (0, 3):
        rows = []
        for round_ in range(repeats):
            tabs = [f"heavy{round_}{i}xx" for i in range(heavy_tabs)]
            threads = [threading.Thread(target=quiet, args=(MONOMINOES, t)) for t in tabs]
            for t in threads:
                t.start()
            while pool.running() < heavy_tabs:
                time.sleep(0.01)
            time.sleep(1.0)  # the heavy ones busy, and demoted
            asked = time.time()
            got = pool.run(_timed, {"toml": SMALL}, "lightxxxx")
            answered = time.time()
            rows.append((got["began"] - asked, got["ended"] - got["began"], got["cpu"],
                         answered - got["ended"], answered - asked))
            for tab in tabs:
                quiet(SMALL, tab)
            for t in threads:
                t.join()
        start, work, cpu, back, whole = (statistics.median(r[i] for r in rows)
                                         for i in range(5))
        print(f"breakdown, {heavy_tabs} heavy checks: to its process {start:.3f} s, the "
              f"check {work:.3f} s ({cpu:.3f} s of CPU), back {back:.3f} s; in all "
              f"{whole:.3f} s median, {max(r[4] for r in rows):.3f} s worst")
    pool.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--breakdown", action="store_true",
                        help="also say where a small check's time goes")
    args = parser.parse_args()
    warnings.simplefilter("ignore")
    print(f"load average before: {os.getloadavg()[0]:.1f}")
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
    searches = measure_searches(args.repeats)
    print(f"small count during three heavy counts: median {statistics.median(searches):.2f} "
          f"s, worst {max(searches):.2f} s of {len(searches)} (started and followed to its end)")
    if args.breakdown:
        breakdown(args.repeats)
    print(f"load average after: {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
