"""Writing TOML: a parsed puzzle document back as text that the reader reads the same.

The standard library reads TOML (``tomllib``) but does not write it. Two writers need it:
the page's editor (web/model.py writes its model key by key with :func:`toml_string` and
:func:`toml_key`) and a design search (design/space.py), which changes a parsed file (the
pieces it chose, the holes it cut) and writes each design as a puzzle file of its own with
:func:`dumps`. Only the value types ``tomllib`` gives are written; a grid (a string of
several lines) stays a multi-line string, one row a line, as the contract draws it.
"""

from __future__ import annotations

import datetime
import math
import re
from collections.abc import Mapping
from typing import Any

BARE_KEY = re.compile(r"[A-Za-z0-9_-]+")


def toml_string(text: str) -> str:
    """``text`` as a TOML basic string: every character TOML forbids there escaped."""
    out = ['"']
    for ch in text:
        code = ord(ch)
        if ch == '"':
            out.append('\\"')
        elif ch == "\\":
            out.append("\\\\")
        elif ch == "\n":
            out.append("\\n")
        elif ch == "\t":
            out.append("\\t")
        elif code < 0x20 or code == 0x7F:
            out.append(f"\\u{code:04X}")
        else:
            out.append(ch)
    out.append('"')
    return "".join(out)


def toml_key(name: str) -> str:
    return name if BARE_KEY.fullmatch(name) else toml_string(name)


def _multiline(text: str) -> str | None:
    """A string of several lines as a multi-line literal (a grid stays drawn), where its
    characters allow one; None where they do not."""
    if "\n" not in text or "'''" in text or text.endswith("'"):
        return None
    if any((ord(ch) < 0x20 and ch != "\n") or ord(ch) == 0x7F for ch in text):
        return None
    return "'''\n" + text + "'''"


def value_text(value: Any) -> str:
    """One value (no table) as TOML."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        if math.isnan(value):
            return "nan"
        if math.isinf(value):
            return "inf" if value > 0 else "-inf"
        return repr(value)
    if isinstance(value, str):
        return _multiline(value) or toml_string(value)
    if isinstance(value, (datetime.datetime, datetime.date, datetime.time)):
        return value.isoformat()
    if isinstance(value, list):
        return "[" + ", ".join(value_text(v) for v in value) + "]"
    if isinstance(value, Mapping):
        return "{" + ", ".join(f"{toml_key(k)} = {value_text(v)}" for k, v in value.items()) + "}"
    raise TypeError(f"cannot write {type(value).__name__} as TOML")


def _is_table_array(value: Any) -> bool:
    return isinstance(value, list) and bool(value) and all(isinstance(v, Mapping) for v in value)


def _table(doc: Mapping[str, Any], path: tuple[str, ...], lines: list[str]) -> None:
    plain = [(k, v) for k, v in doc.items()
             if not isinstance(v, Mapping) and not _is_table_array(v)]
    for key, value in plain:
        lines.append(f"{toml_key(key)} = {value_text(value)}")
    for key, value in doc.items():
        here = (*path, key)
        name = ".".join(toml_key(part) for part in here)
        if isinstance(value, Mapping):
            lines.extend(["", f"[{name}]"])
            _table(value, here, lines)
        elif _is_table_array(value):
            for entry in value:
                lines.extend(["", f"[[{name}]]"])
                _table(entry, here, lines)


def dumps(doc: Mapping[str, Any]) -> str:
    """A document as ``tomllib`` parses it, written back: ``tomllib.loads(dumps(d)) == d``."""
    lines: list[str] = []
    _table(doc, (), lines)
    return "\n".join(lines).lstrip("\n") + "\n"
