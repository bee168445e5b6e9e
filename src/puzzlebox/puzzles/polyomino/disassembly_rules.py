"""``[disassembly]``: what may stay put and together when an assembly is taken apart (#24).

``fixed`` names pieces that never move (a box, a frame: the others move out of it);
``groups`` lists sets of pieces that may stay together (BurrTools' groups: a cage of
pieces that move but are not meant to come apart). Both are optional; names are pieces of
the file.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from puzzlebox.puzzles.reading import FileReader


@dataclass(frozen=True)
class DisassemblyRules:
    fixed: tuple[str, ...] = ()
    groups: tuple[tuple[str, ...], ...] = ()


def _names(r: FileReader, value: Any, path: tuple[Any, ...], known: set[str]) -> tuple[str, ...]:
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise r.fail(path, "must be a list of piece names, as [\"A\", \"B\"]")
    for name in value:
        if name not in known:
            raise r.fail(path, f"{name[:40]!r} is not a piece of this puzzle")
    return tuple(value)


def read_disassembly(r: FileReader, doc: dict[str, Any],
                     known: set[str]) -> DisassemblyRules | None:
    """The ``[disassembly]`` table, checked; None when the file has none."""
    if "disassembly" not in doc:
        return None
    table = r.table(doc, "disassembly", ())
    r.check_keys(table, {"fixed", "groups"}, ("disassembly",))
    fixed = _names(r, table.get("fixed", []), ("disassembly", "fixed"), known)
    raw = table.get("groups", [])
    if not isinstance(raw, list):
        raise r.fail(("disassembly", "groups"), "must be a list of lists of piece names")
    groups = tuple(_names(r, g, ("disassembly", "groups", i), known) for i, g in enumerate(raw))
    return DisassemblyRules(fixed, groups)
