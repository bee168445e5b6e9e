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
    """The 1-based line where ``path`` (e.g. ``("rules", "rotate")``) is written.

    Falls back to the nearest enclosing key that is found (a key inside an inline table
    is reported at the line of that table). Array-of-table indices in ``path`` count
    ``[[name]]`` headers.
    """
    for size in range(len(path), 0, -1):
        line = _exact_line(text, tuple(str(p) for p in path[:size]))
        if line is not None:
            return line
    return None


def _exact_line(text: str, names: tuple[str, ...]) -> int | None:
    table: tuple[str, ...] = ()
    counters: dict[tuple[str, ...], int] = {}
    for number, line in enumerate(text.splitlines(), start=1):
        header = _HEADER.match(line)
        if header:
            table = tuple(_unquote(p) for p in header.group(1).split("."))
            if line.lstrip().startswith("[["):
                if table == names:
                    return number
                counters[table] = counters.get(table, -1) + 1
                table = table + (str(counters[table]),)
            if table == names:
                return number
            continue
        key = _KEY.match(line)
        if key and table + tuple(_unquote(p) for p in key.group(1).split(".")) == names:
            return number
    return None
