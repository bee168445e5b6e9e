"""puzzlebox in the browser: design a puzzle, solve it, watch the search (extra ``web``).

``puzzlebox serve`` runs :func:`serve`: a Starlette application (web/app.py) under uvicorn,
bound to 127.0.0.1 unless told otherwise, serving one page (web/static/, plain HTML, CSS and
JavaScript shipped in the package). The page edits puzzles as the TOML contract
(web/model.py), runs searches in worker threads one slice of nodes at a time (web/runs.py)
and shows every picture as the SVG that render/ draws. docs/web.md describes the page.
"""

from __future__ import annotations

import importlib.util
import socket
import webbrowser
from typing import Any

from puzzlebox.errors import PuzzleboxError
from puzzlebox.extras import install_command

DEFAULT_HOST = "127.0.0.1"
DEFAULT_PORT = 8765
HEADER_SECONDS = 10.0  # a connection must send a request's headers within this (#28)
KEEP_ALIVE_SECONDS = 5  # an idle kept-alive connection is closed after this
MAX_CONNECTIONS = 200  # connections and requests at once; more are answered 503
MAX_HEADER_BYTES = 16_384  # a request's headers (h11 refuses more with 400)


class WebUnavailable(PuzzleboxError):
    """The 'web' extra is not installed, or the address cannot be listened on."""


def missing() -> str | None:
    """What the page needs and is missing (one line), or None."""
    for module in ("starlette", "uvicorn", "matplotlib"):
        if importlib.util.find_spec(module) is None:
            return f"the web page needs {module}: {install_command('web')}"
    return None


def serve(host: str = DEFAULT_HOST, port: int = DEFAULT_PORT, open_browser: bool = True,
          state: str | None = None) -> None:
    """Serve the page at http://host:port/ until Ctrl-C (then every search is stopped);
    ``state``: the folder of saved searches (web/saved.py's default when None)."""
    problem = missing()
    if problem is not None:
        raise WebUnavailable(problem)
    try:  # say so in one line now rather than in uvicorn's traceback later
        family = socket.AF_INET6 if ":" in host else socket.AF_INET
        with socket.socket(family, socket.SOCK_STREAM) as probe:
            probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            probe.bind((host, port))
    except OSError as error:
        raise WebUnavailable(f"cannot listen on {host}:{port}: {error.strerror or error}") \
            from None
    import uvicorn

    from puzzlebox.web.app import create_app

    shown = f"[{host}]" if ":" in host else host
    url = f"http://{shown}:{port}/"
    print(f"puzzlebox: serving {url} (Ctrl-C stops)", flush=True)
    if host not in ("127.0.0.1", "localhost", "::1"):
        print(f"puzzlebox: listening on {host}: anyone who can reach this address can use the "
              "page and run searches here", flush=True)
    if open_browser:
        webbrowser.open(url)
    app = create_app(state=state)
    web = app.state.app

    class Server(uvicorn.Server):
        def handle_exit(self, sig: int, frame: Any) -> None:
            # Ctrl-C: end the progress streams and stop the searches first, so that uvicorn's
            # graceful shutdown finds no connection left open and nothing running
            web.closing = True
            web.runs.stop_all(wait=False)
            super().handle_exit(sig, frame)

    Server(server_config(app, host, port)).run()


def server_config(app: Any, host: str, port: int,
                  header_seconds: float = HEADER_SECONDS) -> Any:
    """uvicorn's configuration of the page's server, with the limits uvicorn lacks by
    default (#28: 2,000 half-open connections stayed open): the headers of each request
    within ``header_seconds`` (:func:`header_timeout_protocol`), at most
    :data:`MAX_CONNECTIONS` connections at once, headers of :data:`MAX_HEADER_BYTES` at
    most. The body's time limit is the application's (web/app.py, ``BODY_SECONDS``)."""
    import uvicorn

    return uvicorn.Config(app, host=host, port=port, log_level="warning",
                          timeout_graceful_shutdown=5, http=header_timeout_protocol(
                              header_seconds),
                          timeout_keep_alive=KEEP_ALIVE_SECONDS,
                          limit_concurrency=MAX_CONNECTIONS,
                          h11_max_incomplete_event_size=MAX_HEADER_BYTES)


def header_timeout_protocol(seconds: float) -> type:
    """uvicorn's h11 protocol, closing a connection that has not sent a whole request's
    headers ``seconds`` after it opened or after its last response (uvicorn times out only
    an idle connection between requests, and only once a request has been answered, so a
    connection that sends nothing, or half a header, was kept for ever)."""
    from uvicorn.protocols.http.h11_impl import H11Protocol

    class HeaderTimeout(H11Protocol):
        _header_timer: Any = None
        _armed_cycle: Any = None

        def _arm(self) -> None:
            self._disarm()
            self._armed_cycle = self.cycle
            self._header_timer = self.loop.call_later(seconds, self._header_timeout)

        def _disarm(self) -> None:
            if self._header_timer is not None:
                self._header_timer.cancel()
                self._header_timer = None

        def _header_timeout(self) -> None:
            self._header_timer = None
            if self.cycle is self._armed_cycle and not self.transport.is_closing():
                self.transport.close()  # no request began since the timer was armed

        def connection_made(self, transport: Any) -> None:
            super().connection_made(transport)
            self._arm()

        def connection_lost(self, exc: Exception | None) -> None:
            self._disarm()
            super().connection_lost(exc)

        def on_response_complete(self) -> None:
            super().on_response_complete()
            if not self.transport.is_closing():
                self._arm()

    return HeaderTimeout
