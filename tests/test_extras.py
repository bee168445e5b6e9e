"""Each optional extra in pyproject.toml installs what the code that needs it imports, and
nothing else (#38 item 13: the ``sat`` extra installed starlette, uvicorn, httpx and selenium,
where engine/sat.py needs only OR-Tools)."""

from __future__ import annotations

import ast
import re
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SOURCE = ROOT / "src" / "puzzlebox"
USER_EXTRAS = ("pictures", "cluster", "sat", "web")  # the ones install_command hints at
FOR_BENCH = ("bench",)  # imported by bench/'s scripts


def _extras() -> dict[str, set[str]]:
    """Each extra's packages as imported (``dask[distributed]>=2024.1`` -> ``dask``)."""
    data = tomllib.loads((ROOT / "pyproject.toml").read_text())
    extras = data["project"]["optional-dependencies"]
    return {name: {re.match(r"[A-Za-z0-9_.\-]+", req).group(0).lower().replace("-", "_")
                   for req in reqs}
            for name, reqs in extras.items()}


def _imports(folder: Path) -> dict[str, set[Path]]:
    """The top-level modules imported anywhere under ``folder``, and by which files."""
    found: dict[str, set[Path]] = {}
    for path in folder.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            names = ([a.name for a in node.names] if isinstance(node, ast.Import) else
                     [node.module] if isinstance(node, ast.ImportFrom) and node.module
                     and node.level == 0 else [])
            for name in names:
                found.setdefault(name.split(".")[0], set()).add(path)
    return found


def _hinted() -> dict[str, set[Path]]:
    """The extras named by ``install_command("...")`` calls, and the files that name them."""
    hinted: dict[str, set[Path]] = {}
    for path in SOURCE.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            if (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
                    and node.func.id == "install_command" and node.args
                    and isinstance(node.args[0], ast.Constant)):
                hinted.setdefault(node.args[0].value, set()).add(path)
    return hinted


def test_the_sat_extra_is_ortools_alone():
    assert _extras()["sat"] == {"ortools"}


def test_every_package_of_an_extra_is_imported_by_the_code():
    extras, imported = _extras(), _imports(SOURCE)
    for extra in USER_EXTRAS:
        unused = sorted(p for p in extras[extra] if p not in imported)
        assert not unused, f"extra {extra!r} installs {unused}, which src/ never imports"
    bench = _imports(ROOT / "bench")
    for extra in FOR_BENCH:
        unused = sorted(p for p in extras[extra] if p not in bench)
        assert not unused, f"extra {extra!r} installs {unused}, which bench/ never imports"


def test_each_hint_names_an_extra_whose_packages_its_code_imports():
    """The package of the module that tells the user to install extra E imports (at least
    one of) E's packages: the hint and the extra are about the same code."""
    extras, hinted = _extras(), _hinted()
    assert set(hinted) == set(USER_EXTRAS)
    for extra, files in hinted.items():
        for path in files:  # its package: render/drawing.py hints, render/pictures.py draws
            assert extras[extra] & set(_imports(path.parent)), (extra, path)
