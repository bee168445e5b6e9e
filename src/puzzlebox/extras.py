"""The command that installs an optional extra, as it works where the user is.

puzzlebox is mostly installed from its clone (``pip install -e .``), where
``pip install 'puzzlebox[pictures]'`` answers "No matching distribution found"; every hint
about a missing extra is therefore built here, from how this copy was installed (pip's
``direct_url.json``) and which ``pip`` the shell would run (issue #26).
"""

from __future__ import annotations

import json
import os
import shlex
import shutil
import sys
from pathlib import Path
from urllib.parse import unquote, urlparse


def editable_source() -> Path | None:
    """The folder this copy was installed from in editable mode (``pip install -e``), else
    None (installed from an index or a wheel, or not installed at all)."""
    from importlib import metadata

    try:
        text = metadata.distribution("puzzlebox").read_text("direct_url.json")
    except metadata.PackageNotFoundError:
        return None
    if not text:
        return None
    try:
        data = json.loads(text)
    except ValueError:
        return None
    url = data.get("url", "") if isinstance(data, dict) else ""
    editable = isinstance(data, dict) and (data.get("dir_info") or {}).get("editable")
    if not editable or not url.startswith("file:"):
        return None
    return Path(unquote(urlparse(url).path))


def _shown(path: Path) -> str:
    """A path as short as it can be written from the current folder, and still read as a
    path (``./api``, not ``api``: pip would take that for a package's name)."""
    try:
        relative = path.resolve().relative_to(Path.cwd().resolve())
    except (OSError, ValueError):
        return str(path)
    return "." if str(relative) == "." else f"./{relative}"


def pip_command() -> str:
    """``pip`` when the shell's pip is this interpreter's; else the path of this
    interpreter's pip (``.venv/bin/pip`` from a clone whose venv is not activated)."""
    here = Path(sys.executable).parent
    found = shutil.which("pip")
    if found is not None and Path(found).parent.resolve() == here.resolve():
        return "pip"
    for name in ("pip", "pip3"):
        candidate = here / name
        if candidate.exists() and os.access(candidate, os.X_OK):
            shown = _shown(candidate)  # .venv/bin/pip: a shell runs a name with a slash as is
            return shown[2:] if shown.startswith("./") and "/" in shown[2:] else shown
    return f"{shlex.quote(sys.executable)} -m pip"


def install_command(extra: str) -> str:
    """The one command that installs ``extra`` into the environment running now."""
    source = editable_source()
    if source is None:
        return f"{pip_command()} install {shlex.quote(f'puzzlebox[{extra}]')}"
    return f"{pip_command()} install -e {shlex.quote(f'{_shown(source)}[{extra}]')}"
