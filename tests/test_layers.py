"""The layers of docs/DESIGN.md hold: no module imports from a layer above its own.

The table of layers is read from docs/DESIGN.md (between ``<!-- layers -->`` and
``<!-- /layers -->``), so that the document and this test are one truth. Every import of
every module under src/puzzlebox counts: at module level, inside functions, relative ones
(``from . import x``) and those under ``if TYPE_CHECKING:`` (a type named in a signature is
a dependency as much as a call: a layer that needs a higher one's type must define the
interface it needs instead).

An import inside a function is kept only where it loads something heavy on demand: a
third-party library named in HEAVY, or a puzzlebox module that loads one at module level
(directly or through the modules it imports there). Every other import sits at the top of
its module, where a reader sees it.
"""

from __future__ import annotations

import ast
import re
from dataclasses import dataclass
from functools import cache
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SOURCE = ROOT / "src"
PACKAGE = SOURCE / "puzzlebox"
DESIGN = ROOT / "docs" / "DESIGN.md"

# Loaded only on demand: numba (the compiled engines), matplotlib (pictures), dask (a
# cluster), ortools (SAT) and the web extra (starlette, uvicorn); and rich (the coloured
# terminal and the progress lines), which the command line loads only when it draws in
# colour or shows progress: rich.console after `import puzzlebox.cli` took 20-30 ms
# (5 runs, loaded 2-core machine), a fifth of `puzzlebox list`'s 0.15 s budget (issue #23).
# And numpy: `python -c 'import numpy'` 0.142 s of CPU against 0.014 s for `python -c pass`
# (wait4, median of 7, loaded 2-core machine; bench/RESULTS.md, start3), nearly all of
# `show`'s 0.15 s budget: reading and showing a puzzle loads none of it, the modules that
# compile a puzzle to a cover problem or search it import it (issue #23).
HEAVY = {"numba", "llvmlite", "matplotlib", "dask", "distributed", "ortools", "starlette",
         "uvicorn", "rich", "numpy"}  # fmt: skip

# The engines, the cover problem and the lattices import none of these, at any depth.
BELOW_KINDS = {"cover", "geometry", "engine"}
NOT_BELOW_KINDS = {"puzzles", "formats", "render", "parallel", "run", "budget", "progress",
                   "cli", "web", "__init__", "_start"}  # fmt: skip

# Known violations, each with its reason. An entry that no longer occurs fails
# test_known_violations_still_occur, so that the lists only shrink.
#
# (importing module, imported module): imports that run up a layer.
KNOWN_UPWARD: set[tuple[str, str]] = set()

# Modules whose imports inside functions may load nothing heavy, and why.
KNOWN_LAZY_MODULES: dict[str, str] = {
    "puzzlebox": "the package's names load on first use (issue #23/#26: import puzzlebox "
    "imports no numpy)",
    "puzzlebox._start": "the entry point imports the command line inside its try, so that a "
    "Ctrl-C during those imports gives one line, not a traceback (#18)",
}
# (importing module, imported module): the same, one import at a time (an import of a module
# that loads numpy at its top needs no entry: numpy is in HEAVY). Each would be
# loaded by every command at start-up (issue #23: `list`, `--help`, `show` under 0.15 s of
# CPU); the cost is the import after `import puzzlebox.cli`, 3 runs on the loaded 2-core
# machine (python -c 'import puzzlebox.cli, time; ...; importlib.import_module(m)').
KNOWN_LAZY: set[tuple[str, str]] = {
    # reading a catalog puzzle: 52-61 ms (the kinds, the formats, the registry; no numpy
    # since #23's show change, 5 runs, load 5.4), not for listing the catalog
    ("puzzlebox.catalog", "puzzlebox.catalog.files"),
    # the BurrTools reader: 15-25 ms (xml.parsers.expat, gzip), for `import` and its errors
    ("puzzlebox.cli.tools", "puzzlebox.formats.burrtools"),
    # piece sheets: 6.5 ms, for `sheet` and its errors
    ("puzzlebox.cli.tools", "puzzlebox.render.sheet"),
    # STL files: 18 ms (render.sheet, xml.sax), for `export --stl`
    ("puzzlebox.cli.tools", "puzzlebox.render.stl"),
    # the page's package: 2 ms (webbrowser), for `serve`
    ("puzzlebox.cli.tools", "puzzlebox.web"),
    # importlib.metadata: 12-15 ms (email, zipfile, csv), for a missing extra's hint only;
    # extras.py is loaded at start-up (engine/sat.py names the SAT extra)
    ("puzzlebox.extras", "importlib"),
    # the text drawings: 15-17 ms (the lattices), for `show` (not `list`, `--help`)
    ("puzzlebox.cli.show", "puzzlebox.render"),
    # pictures' door: 22-33 ms alone (extras: json, shlex, urllib), 4 ms after render, for
    # `show --format svg|png` and its errors (common.py's check of --size and --dpi, which
    # show and solve share)
    ("puzzlebox.cli.show", "puzzlebox.render.drawing"),
    ("puzzlebox.cli.common", "puzzlebox.render.drawing"),
    # the reference engine: 0.3 ms, but reading and showing a puzzle loads no engine's module
    # (tests/test_show_light.py), and every other engine's module is loaded by its start
    ("puzzlebox.engine", "puzzlebox.engine.reference"),
    # the memo engine: 1.4-1.7 ms (3 runs, load 0.8, compiled bytecode) and no numpy since
    # #23 (its array layer, engine/memo_layer.py, loads numpy when a sweep runs); reading and
    # showing a puzzle loads no engine's module (tests/test_show_light.py), and a solve never
    # sweeps: the registry imports it to count, the kinds to give their sweep plan
    ("puzzlebox.engine", "puzzlebox.engine.memo"),
    ("puzzlebox.engine.registry", "puzzlebox.engine.memo"),
    ("puzzlebox.puzzles.polyomino.model", "puzzlebox.engine.memo"),
    # randomised restarts: 1.0-1.5 ms (3 runs, load 2.4, compiled bytecode), numpy only where
    # a shuffle is made since #23; reading and showing a puzzle loads no engine's module, and
    # only a solve of the first few solutions (hedged) or a seeded one runs them
    ("puzzlebox.engine.registry", "puzzlebox.engine.restarts"),
    # the standard library's modules that a search's start-up no longer loads (#23: count
    # pentomino-6x10 --json within a twentieth of xcover's whole process): hashlib 2.6-4.1 ms,
    # ctypes 1.8-2.4 ms, difflib 0.5-0.6 ms (tempfile 1.1-1.6 ms, no longer: outfile.py
    # writes a checkpoint, with os.open), each after `import
    # puzzlebox.cli, puzzlebox.cli.search, puzzlebox.run, puzzlebox.catalog.files` (5 runs,
    # load 0.6, compiled bytecode); each is loaded where it is used: a checkpoint, a split
    # run's fingerprint, a file name too long, a stop that overruns, a misspelt name
    ("puzzlebox.parallel.checkpoint", "hashlib"),
    # hmac: 0.3-0.4 ms after hashlib (3 runs, load 1.9), and it imports hashlib at its top:
    # a checkpoint's signatures (#38 item 12) alone need it
    ("puzzlebox.parallel.checkpoint", "hmac"),
    ("puzzlebox.parallel.tasks", "hashlib"),
    ("puzzlebox.safety", "hashlib"),
    ("puzzlebox.run.run", "ctypes"),
    ("puzzlebox.catalog", "difflib"),
    ("puzzlebox.cli.dispatch", "difflib"),
    # the queens' engine: 1.3-1.9 ms (kernel_choice, the C kernels), 5 runs, load 2.6, loads
    # no numpy since #23; reading and showing a queens puzzle loads no engine's module
    # (tests/test_show_light.py): the kind imports it for its search and its problem
    ("puzzlebox.puzzles.queens.model", "puzzlebox.engine.queens_bitmask"),
    # a split run's workers (multiprocessing, subprocess, socket, uuid): 17-22 ms, 3 runs,
    # load 1, for a run of more than one process only
    ("puzzlebox.parallel", "puzzlebox.parallel.backends"),
    ("puzzlebox.parallel.run", "puzzlebox.parallel.backends"),
    # asyncio: 24-26 ms after puzzlebox.parallel.backends (3 runs, load 6, compiled
    # bytecode), for the Dask scheduler's probe alone, not for a local split run (#38 item 6)
    ("puzzlebox.parallel.backends", "asyncio"),
    # ... and for a puzzle's or a solution's svg()/png(): 3.3 ms (extras.py: shlex, shutil)
    # after what `show` loads (catalog.files, render), 5 runs, load 1.2
    ("puzzlebox.puzzles.base", "puzzlebox.render.drawing"),
    # the bitboard engine and its eligibility test: 2.2-4.2 ms (bitboard_fit: kernel_choice,
    # the C kernels) and 2.7-4.9 ms (bitboard) after `import puzzlebox.cli, puzzlebox.engine`,
    # 5 runs each, load 1.0, compiled bytecode; no numpy since #23 (their plain build, for
    # the C kernels), but listing the engines or reading and showing a puzzle loads no
    # engine's module and no kernel (tests/test_show_light.py)
    ("puzzlebox.engine", "puzzlebox.engine.bitboard"),
    ("puzzlebox.engine", "puzzlebox.engine.bitboard_fit"),
    # cover/symmetry.py loads no numpy at its top since #23's plain path (plainsym), so these
    # imports of it and of engine/parts.py count as light now. Measured after `import
    # puzzlebox.cli, puzzlebox.catalog.files` (3 runs, load 1.4-1.8, compiled bytecode):
    # cover.symmetry 1.7-2.6 ms, engine.parts 2.2-2.9 ms (0.2-0.4 ms after cover.symmetry).
    # The group is built, and a count cut down by it, only when a puzzle is searched: reading
    # and showing one loads none of them (tests/test_show_light.py: no engine module). (The
    # command line's modules, cli/search.py 74-100 ms, need no entry: cli/dispatch.py imports
    # a command's module by name from its table when the command runs.)
    # the disassembly loads no numpy since #35 item 1 (a take-apart in C keeps its pieces
    # in array('q'), numpy loads where the Python or numba step runs), so these imports of
    # it count as light now; each is loaded only by the commands that take puzzles apart.
    # Measured after `import puzzlebox.cli, puzzlebox.cli.search` (3 runs, load 8-13,
    # compiled bytecode): cli.disassembly 42-45 ms, disassembly.assemblies 40-42 ms (of
    # which the C search's module and search.py), disassembly.split 91-93 ms (the journal,
    # hmac, multiprocessing), disassembly.strip 76-80 ms (the pictures); a plain `count`
    # loads none of them
    ("puzzlebox.cli.search", "puzzlebox.cli.disassembly"),
    ("puzzlebox.cli.disassembly", "puzzlebox.disassembly.split"),
    ("puzzlebox.cli.disassembly", "puzzlebox.disassembly.strip"),
    ("puzzlebox.designs.space", "puzzlebox.disassembly.assemblies"),
    ("puzzlebox.engine.registry", "puzzlebox.engine.parts"),
    ("puzzlebox.puzzles.base", "puzzlebox.engine.parts"),
    ("puzzlebox.puzzles.sweep", "puzzlebox.engine.parts"),
    ("puzzlebox.puzzles.base", "puzzlebox.cover.symmetry"),
    ("puzzlebox.puzzles.edge_matching.model", "puzzlebox.cover.symmetry"),
    ("puzzlebox.puzzles.polyomino.model", "puzzlebox.cover.symmetry"),
    ("puzzlebox.puzzles.polysticks.model", "puzzlebox.cover.symmetry"),
    ("puzzlebox.puzzles.queens.model", "puzzlebox.cover.symmetry"),
    ("puzzlebox.puzzles.sudoku.model", "puzzlebox.cover.symmetry"),
    # (lazykinds, no entry: the scanner sees import statements only) the kinds' packages are
    # imported by name, importlib.import_module, from puzzles/base.py's KINDS (a file's kind)
    # and puzzles/__init__.py (a kind's engine named, a kind's public name): after `import
    # puzzlebox.cli, puzzlebox.puzzles.polyomino` and reading pentomino-6x10, edge_matching
    # 3.0-4.2 ms, polysticks 2.7-3.9, queens 2.4-3.8, sudoku 2.5-3.4, the four 6.6-10.2 ms
    # (min-median of 9 runs, process_time, compiled bytecode, load 1.9-2.0 on 2 cores)
}


@dataclass(frozen=True)
class Import:
    module: str  # the importing module, dotted
    line: int
    target: str  # the imported module, dotted (a name imported from a package: the package)
    in_function: bool
    text: str  # the statement as written

    def __str__(self) -> str:
        where = "inside a function" if self.in_function else "at module level"
        return f"{self.module} line {self.line} ({where}): {self.text}"


def module_name(path: Path) -> str:
    parts = list(path.relative_to(SOURCE).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


@cache
def all_modules() -> dict[str, Path]:
    return {module_name(path): path for path in sorted(PACKAGE.rglob("*.py"))}


def _resolve(module: str, path: Path, node: ast.ImportFrom) -> str:
    """The dotted module a ``from ... import`` reads from, relative forms made absolute."""
    if not node.level:
        return node.module or ""
    package = module.split(".") if path.name == "__init__.py" else module.split(".")[:-1]
    base = package[: len(package) - node.level + 1]
    return ".".join(base + ([node.module] if node.module else []))


def _in_functions(tree: ast.Module) -> set[int]:
    """The ids of every import node that sits inside a function (at any depth)."""
    inside: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
            for child in ast.walk(node):
                if isinstance(child, (ast.Import, ast.ImportFrom)):
                    inside.add(id(child))
    return inside


@cache
def imports_of(module: str) -> tuple[Import, ...]:
    """Every import statement of ``module``, one entry per module it names."""
    return scan(module, all_modules()[module], set(all_modules()))


def scan(module: str, path: Path, modules: set[str]) -> tuple[Import, ...]:
    """The imports of the file ``path``, read as the module ``module`` of a package whose
    modules are ``modules`` (to tell ``from package import module`` from a name)."""
    tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
    inside = _in_functions(tree)
    found: list[Import] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            source = _resolve(module, path, node)
            # ``from puzzlebox import budget`` imports the module puzzlebox.budget
            targets = [f"{source}.{alias.name}" if f"{source}.{alias.name}" in modules
                       else source for alias in node.names]  # fmt: skip
        else:
            continue
        text = ast.get_source_segment(path.read_text(encoding="utf-8"), node) or ""
        text = " ".join(text.split())
        for target in dict.fromkeys(targets):
            found.append(Import(module, node.lineno, target, id(node) in inside, text))
    return tuple(found)


def _top(module: str) -> str:
    """The part of puzzlebox a module belongs to: ``engine`` for puzzlebox.engine.memo,
    ``cli`` for puzzlebox.cli, ``__init__`` for the package itself."""
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else "__init__"


@cache
def layers() -> dict[str, int]:
    """The layer of each part of puzzlebox, read from docs/DESIGN.md's table: rows
    ``| 3 | `engine/` | ... |``, a part named as `name/` (a package) or `name.py`."""
    text = DESIGN.read_text(encoding="utf-8")
    block = re.search(r"<!-- layers -->(.*?)<!-- /layers -->", text, re.S)
    assert block, "docs/DESIGN.md has no <!-- layers --> table"
    table: dict[str, int] = {}
    for row in block.group(1).splitlines():
        cells = [cell.strip() for cell in row.strip().strip("|").split("|")]
        if len(cells) < 2 or not cells[0].isdigit():
            continue
        for name in re.findall(r"`([\w.]+?)(?:/|\.py)`", cells[1]):
            assert name not in table, f"DESIGN.md names {name} in two layers"
            table[name] = int(cells[0])
    return table


@cache
def cli_layers() -> dict[str, int]:
    """The order of the command line's own modules, read from docs/DESIGN.md's second table
    (between ``<!-- cli layers -->`` and ``<!-- /cli layers -->``): rows ``| 2 | `show.py` |
    ... |``, each module of src/puzzlebox/cli/ named as `name.py`."""
    text = DESIGN.read_text(encoding="utf-8")
    block = re.search(r"<!-- cli layers -->(.*?)<!-- /cli layers -->", text, re.S)
    assert block, "docs/DESIGN.md has no <!-- cli layers --> table"
    table: dict[str, int] = {}
    for row in block.group(1).splitlines():
        cells = [cell.strip() for cell in row.strip().strip("|").split("|")]
        if len(cells) < 2 or not cells[0].isdigit():
            continue
        for name in re.findall(r"`(\w+)\.py`", cells[1]):
            assert name not in table, f"DESIGN.md names cli/{name}.py in two rows"
            table[name] = int(cells[0])
    return table


def cli_layer_of(module: str) -> int:
    """The row of a module of the command line (``__init__`` for the package itself)."""
    name = "__init__" if module == "puzzlebox.cli" else module.split(".")[2]
    assert name in cli_layers(), f"{module}: docs/DESIGN.md's cli layers do not name it"
    return cli_layers()[name]


def layer_of(module: str) -> int:
    top = _top(module)
    assert top in layers(), f"{module}: docs/DESIGN.md's layer table does not name {top}"
    return layers()[top]


@cache
def heavy(module: str) -> bool:
    """Whether importing ``module`` loads a library of HEAVY (at module level, directly or
    through the puzzlebox modules it imports at module level)."""
    return _heavy(module, frozenset())


def _heavy(module: str, seen: frozenset[str]) -> bool:
    if module.split(".")[0] in HEAVY:
        return True
    if module not in all_modules() or module in seen:
        return False
    seen = seen | {module}
    return any(_heavy(imp.target, seen) for imp in imports_of(module)
               if not imp.in_function and not _type_checking_only(imp))  # fmt: skip


@cache
def _type_checking_lines(module: str) -> frozenset[int]:
    """The lines of imports under ``if TYPE_CHECKING:`` (loaded by no one at run time)."""
    path = all_modules()[module]
    tree = ast.parse(path.read_text(encoding="utf-8"))
    lines: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            for child in node.body:
                for sub in ast.walk(child):
                    if isinstance(sub, (ast.Import, ast.ImportFrom)):
                        lines.add(sub.lineno)
    return frozenset(lines)


def _type_checking_only(imp: Import) -> bool:
    return imp.line in _type_checking_lines(imp.module)


def puzzlebox_imports() -> list[Import]:
    return [imp for module in all_modules() for imp in imports_of(module)
            if imp.target.split(".")[0] == "puzzlebox"]  # fmt: skip


def upward() -> list[Import]:
    return [imp for imp in puzzlebox_imports()
            if layer_of(imp.target) > layer_of(imp.module)]  # fmt: skip


def needless_lazy() -> list[Import]:
    """Imports inside functions of anything that loads nothing heavy."""
    return [imp for module in all_modules() for imp in imports_of(module)
            if imp.in_function and not heavy(imp.target)]  # fmt: skip


def _report(found: list[Import], why: str) -> str:
    return why + ":\n  " + "\n  ".join(str(imp) for imp in found)


def test_the_table_names_every_part_of_puzzlebox() -> None:
    parts = {_top(module) for module in all_modules()}
    missing = sorted(parts - set(layers()))
    assert not missing, f"docs/DESIGN.md's layer table does not name: {missing}"
    assert layers()["errors"] < layers()["engine"] < layers()["puzzles"] < layers()["cli"]
    # render/ formats the reports: reports.py names what it asks of a puzzle itself (#38)
    assert layers()["reports"] < layers()["render"]


def _in_cli(module: str) -> bool:
    return module == "puzzlebox.cli" or module.startswith("puzzlebox.cli.")


def test_the_command_lines_modules_import_one_way() -> None:
    """Inside cli/, a module imports only modules on a row below its own (issue #38: cli.py,
    cli_search.py and cli_tools.py imported each other in a circle): every module is named
    in DESIGN.md's table of them, and no import, at any level, runs sideways or up."""
    named = {module for module in all_modules() if _in_cli(module)}
    assert len(named) > 5
    for module in named:
        cli_layer_of(module)
    found = [imp for imp in puzzlebox_imports()
             if _in_cli(imp.module) and _in_cli(imp.target)
             and cli_layer_of(imp.target) >= cli_layer_of(imp.module)]  # fmt: skip
    assert not found, _report(found, "imports in cli/ that do not run down (docs/DESIGN.md)")


def test_no_import_runs_up_a_layer() -> None:
    found = [imp for imp in upward() if (imp.module, imp.target) not in KNOWN_UPWARD]
    assert not found, _report(found, "imports that run up a layer (docs/DESIGN.md)")


def test_engines_cover_and_lattices_import_no_kind_nor_anything_above() -> None:
    found = [imp for imp in puzzlebox_imports()
             if _top(imp.module) in BELOW_KINDS and _top(imp.target) in NOT_BELOW_KINDS
             and (imp.module, imp.target) not in KNOWN_UPWARD]  # fmt: skip
    assert not found, _report(found, "cover/, geometry/ and engine/ import from above")


def _known_lazy(imp: Import) -> bool:
    return imp.module in KNOWN_LAZY_MODULES or (imp.module, imp.target) in KNOWN_LAZY


def test_imports_inside_functions_only_load_heavy_things() -> None:
    found = [imp for imp in needless_lazy() if not _known_lazy(imp)]
    assert not found, _report(found, "imports inside functions that load nothing heavy "
                              "(move them to the top of the module)")


def test_known_violations_still_occur() -> None:
    """An entry fixed is taken off its list, so that the lists only shrink."""
    up = {(imp.module, imp.target) for imp in upward()}
    lazy = needless_lazy()
    stale = sorted(KNOWN_UPWARD - up) + sorted(KNOWN_LAZY - {(i.module, i.target) for i in lazy})
    stale += sorted(set(KNOWN_LAZY_MODULES) - {imp.module for imp in lazy})
    assert not stale, f"fixed: take these off the known lists in tests/test_layers.py: {stale}"


def test_the_reader_sees_every_form_of_import(tmp_path: Path) -> None:
    """The scanner itself: relative, function-level, TYPE_CHECKING and ``from package import
    module`` imports are each seen, with their line."""
    path = tmp_path / "memo.py"
    path.write_text(
        "from __future__ import annotations\n"
        "from typing import TYPE_CHECKING\n"
        "from . import registry\n"
        "from .. import budget\n"
        "from ..puzzles.base import Puzzle\n"
        "if TYPE_CHECKING:\n"
        "    from puzzlebox.web import app\n"
        "def f():\n"
        "    import puzzlebox.cli\n"
        "    from puzzlebox import formats\n",
        encoding="utf-8",
    )
    modules = {"puzzlebox.engine.registry", "puzzlebox.budget", "puzzlebox.puzzles.base",
               "puzzlebox.web.app", "puzzlebox.cli", "puzzlebox.formats"}  # fmt: skip
    found = {(imp.target, imp.line, imp.in_function)
             for imp in scan("puzzlebox.engine.memo", path, modules)}  # fmt: skip
    assert {
        ("puzzlebox.engine.registry", 3, False),
        ("puzzlebox.budget", 4, False),
        ("puzzlebox.puzzles.base", 5, False),
        ("puzzlebox.web.app", 7, False),
        ("puzzlebox.cli", 9, True),
        ("puzzlebox.formats", 10, True),
    } <= found
    assert layer_of("puzzlebox.web.app") > layer_of("puzzlebox.engine.memo")
    assert heavy("puzzlebox.render.pictures")  # matplotlib, at its top
    assert not heavy("puzzlebox.render.text") and not heavy("puzzlebox.errors")
