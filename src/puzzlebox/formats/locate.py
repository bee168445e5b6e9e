"""Find the line of a TOML key in the source text, so errors can point at it."""

from __future__ import annotations

import re

_HEADER = re.compile(r"^\s*\[\[?\s*([^\]]+?)\s*\]\]?\s*(#.*)?$")
_KEY = re.compile(r"^\s*(\"[^\"]*\"|'[^']*'|[A-Za-z0-9_.\-]+)\s*=")


def _unquote(part: str) -> str:
    part = part.strip()
    if len(part) >= 2 and part[0] == part[-1] and part[0] in "\"'":
        return part[1:-1]
    return part


def key_line(text: str, path: tuple[str, ...]) -> int | None:
    """The 1-based line where ``path`` (e.g. ``("rules", "rotate")``) is written, if found.

    It follows table headers; array-of-table indices in ``path`` (integers) are counted.
    """
    table: tuple[str, ...] = ()
    counters: dict[tuple[str, ...], int] = {}
    names = tuple(str(p) for p in path)
    for number, line in enumerate(text.splitlines(), start=1):
        header = _HEADER.match(line)
        if header:
            table = tuple(_unquote(p) for p in header.group(1).split("."))
            if line.lstrip().startswith("[["):
                counters[table] = counters.get(table, -1) + 1
                table = table + (str(counters[table]),)
            if table == names:
                return number
            continue
        key = _KEY.match(line)
        if key:
            full = table + tuple(_unquote(p) for p in key.group(1).split("."))
            if full == names or full == names[: len(full)] and len(full) == len(names):
                return number
    return None
