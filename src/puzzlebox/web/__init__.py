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
from typing import Any

from puzzlebox.errors import PuzzleboxError

DEFAULT_HOST = "127.0.0.1"
DEFAULT_PORT = 8765


class WebUnavailable(PuzzleboxError):
    """The 'web' extra is not installed, or the address cannot be listened on."""


def missing() -> str | None:
    """What the page needs and is missing (one line), or None."""
    for module in ("starlette", "uvicorn", "matplotlib"):
        if importlib.util.find_spec(module) is None:
            from puzzlebox.extras import install_command

            return f"the web page needs {module}: {install_command('web')}"
    return None


def serve(host: str = DEFAULT_HOST, port: int = DEFAULT_PORT, open_browser: bool = True) -> None:
    """Serve the page at http://host:port/ until Ctrl-C (then every search is stopped)."""
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
        import webbrowser

        webbrowser.open(url)
    app = create_app()
    web = app.state.app

    class Server(uvicorn.Server):
        def handle_exit(self, sig: int, frame: Any) -> None:
            # Ctrl-C: end the progress streams and stop the searches first, so that uvicorn's
            # graceful shutdown finds no connection left open and nothing running
            web.closing = True
            web.runs.stop_all(wait=False)
            super().handle_exit(sig, frame)

    config = uvicorn.Config(app, host=host, port=port, log_level="warning",
                            timeout_graceful_shutdown=5)
    Server(config).run()
