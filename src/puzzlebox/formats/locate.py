"""Find the line of a TOML key in the source text, so errors can point at it."""

from __future__ import annotations

import re
import tomllib

_KEY = re.compile(r"^\s*(\"[^\"]*\"|'[^']*'|[A-Za-z0-9_.\-]+)\s*=")


def _unquote(part: str) -> str:
    part = part.strip()
    if len(part) >= 2 and part[0] == part[-1] == '"' and "\\" in part:
        try:  # a basic string's escapes ("a\\nb"): let the parser read them
            return next(iter(tomllib.loads(f"{part} = 0")))
        except (tomllib.TOMLDecodeError, StopIteration):
            return part[1:-1]
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


def _header(line: str) -> tuple[str, bool] | None:
    """``(dotted name, is [[array]])`` when ``line`` is a table header, else None.

    A scan by hand, one pass over the line: the regular expression it replaces
    backtracked on a line of ``[`` and thousands of spaces (50 s for 4,000 spaces).
    """
    s = line.strip()
    if not s.startswith("["):
        return None
    double = s.startswith("[[")
    body = s[2:] if double else s[1:]
    end = body.find("]")
    if end < 0:
        return None
    name = body[:end].strip()
    rest = body[end + 1 :]
    if rest.startswith("]"):
        rest = rest[1:]
    rest = rest.lstrip()
    if not name or (rest and not rest.startswith("#")):
        return None
    return name, double


def _within(found: tuple[str, ...], names: tuple[str, ...]) -> bool:
    """``found`` is ``names`` or lies inside it: ``[a.b.c]`` is where the key ``a`` begins."""
    return found[: len(names)] == names


def _exact_line(text: str, names: tuple[str, ...]) -> int | None:
    table: tuple[str, ...] = ()
    counters: dict[tuple[str, ...], int] = {}
    for number, line in enumerate(text.splitlines(), start=1):
        header = _header(line)
        if header:
            table = tuple(_unquote(p) for p in header[0].split("."))
            if header[1]:
                if _within(table, names):
                    return number
                counters[table] = counters.get(table, -1) + 1
                table = table + (str(counters[table]),)
            if _within(table, names):
                return number
            continue
        key = _KEY.match(line)
        if key and _within(table + tuple(_unquote(p) for p in key.group(1).split(".")), names):
            return number
    return None


_OPENING = re.compile(r"=\s*(\"\"\"|\'\'\')")


def value_line(text: str, line: int, offset: int) -> int | None:
    """The 1-based line of the file that holds line ``offset`` (from 0) of the multi-line
    string whose key is written on ``line``; None where that cannot be told from the text
    (the value is not a multi-line string opened on that line, it ends before, or a line
    ending in a backslash joins lines of a basic string), so the caller keeps ``line``."""
    lines = text.splitlines()
    if not 1 <= line <= len(lines):
        return None
    opening = _OPENING.search(lines[line - 1])
    if opening is None:
        return None
    delimiter = opening.group(1)
    rest = lines[line - 1][opening.end():]
    start = line + 1 if rest == "" else line  # a newline right after the delimiter is trimmed
    target = start + offset
    if target > len(lines):
        return None
    for number in range(start, target):  # the string is still open on each line before,
        here = rest if number == line else lines[number - 1]
        if delimiter in here or (delimiter == '"""' and "\\" in here):  # and no escape
            return None  # ("\n" or a backslash at the end) makes or joins lines
    return target
