"""The puzzle kinds, one package each. Each compiles itself to a cover problem, decodes
solutions back, reads its part of a file and draws itself.

Importing this package declares every kind (``KINDS``: kind name -> class) and the engines
the kinds register, without importing a kind: a kind's package is imported when a puzzle of
that kind is read (``KINDS[name]``), when one of its engines is used by name
(engine/registry.py's ``declare``), or when one of its public names below is imported from
here (PEP 562's module ``__getattr__``). A polyomino command thus loads no other kind
(issue #23: the other four cost 6.6-10.2 ms of CPU, ``count pentomino-6x10``'s margin).
A new kind is one package here and one line below.
"""

from __future__ import annotations

import importlib
from functools import partial
from typing import TYPE_CHECKING, Any

from puzzlebox.engine import registry
from puzzlebox.puzzles.base import KINDS, CountResult, Puzzle, Solution, register_kind

if TYPE_CHECKING:  # what __getattr__ gives, for the type checker
    from puzzlebox.puzzles.edge_matching import EdgeMatchingPuzzle, EdgeMatchingSolution
    from puzzlebox.puzzles.polyomino import Piece, Placement, PolyominoPuzzle, PolyominoSolution
    from puzzlebox.puzzles.polysticks import PolysticksPuzzle, PolysticksSolution
    from puzzlebox.puzzles.queens import QueensPuzzle, QueensSolution
    from puzzlebox.puzzles.sudoku import SudokuPuzzle, SudokuSolution

# kind name: (its package here, the engines it registers, its names importable from here)
_KIND_PACKAGES: dict[str, tuple[str, tuple[str, ...], tuple[str, ...]]] = {
    "edge-matching": ("edge_matching", ("edges",), ("EdgeMatchingPuzzle", "EdgeMatchingSolution")),
    "polyomino": ("polyomino", ("sink",), ("Piece", "Placement", "PolyominoPuzzle",
                                           "PolyominoSolution")),
    "polysticks": ("polysticks", (), ("PolysticksPuzzle", "PolysticksSolution")),
    "queens": ("queens", ("queens-bitmask",), ("QueensPuzzle", "QueensSolution")),
    "sudoku": ("sudoku", (), ("SudokuPuzzle", "SudokuSolution")),
}  # fmt: skip


def _declare() -> dict[str, str]:
    """Declare each kind to ``KINDS`` and its engines to the engine registry (each loaded by
    importing the kind's package); return public name -> the module that defines it."""
    public: dict[str, str] = {}
    for kind, (package, engines, names) in _KIND_PACKAGES.items():
        module = f"{__name__}.{package}"
        KINDS.declare(kind, module)
        for engine in engines:
            registry.declare(engine, partial(importlib.import_module, module))
        public.update(dict.fromkeys(names, module))
    return public


_PUBLIC = _declare()


def __getattr__(name: str) -> Any:
    """A kind's public name (``from puzzlebox.puzzles import QueensPuzzle``), its package
    imported on first use."""
    module = _PUBLIC.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value
    return value


__all__ = [
    "KINDS",
    "CountResult",
    "EdgeMatchingPuzzle",
    "EdgeMatchingSolution",
    "Piece",
    "Placement",
    "PolyominoPuzzle",
    "PolyominoSolution",
    "PolysticksPuzzle",
    "PolysticksSolution",
    "Puzzle",
    "QueensPuzzle",
    "QueensSolution",
    "Solution",
    "SudokuPuzzle",
    "SudokuSolution",
    "register_kind",
]
