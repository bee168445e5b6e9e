"""Text and names from a puzzle file, made safe to print and to use in a file name.

A puzzle file is data written by anyone. Its names and titles may hold control characters
(a newline that forges a second line of output, an escape sequence that drives the
terminal) or path separators (``x/../../escaped``). Two functions stand between such text
and the outside world:

* :func:`printable` escapes every control character before text reaches a terminal, so
  one line printed stays one line and no escape sequence passes through;
* :func:`file_component` turns a name into one file-name component, so output paths come
  only from the user's ``--out``.
"""

from __future__ import annotations

import unicodedata

# Characters that change how a terminal shows the text around them without being control
# characters (category Cc): line and paragraph separators, and the bidirectional overrides
# and isolates that can reorder what is shown ("Trojan source").
_INVISIBLE = frozenset(
    "\u2028\u2029"  # line and paragraph separators
    "\u200e\u200f\u061c"  # direction marks
    "\u202a\u202b\u202c\u202d\u202e"  # embeddings and overrides
    "\u2066\u2067\u2068\u2069"  # isolates
)
_NAMED = {"\n": "\\n", "\r": "\\r", "\t": "\\t", "\\": "\\\\"}


def _escape(ch: str) -> str:
    if ch in _NAMED:
        return _NAMED[ch]
    code = ord(ch)
    if code < 0x100:
        return f"\\x{code:02x}"
    if code < 0x10000:
        return f"\\u{code:04x}"
    return f"\\U{code:08x}"


def _unsafe(ch: str) -> bool:
    return ch in _INVISIBLE or unicodedata.category(ch) in ("Cc", "Cs")


def printable(text: str) -> str:
    """``text`` with every control character escaped Python-style (``\\n``, ``\\x1b``).

    The result has no control character, line separator or bidirectional override, so it
    prints as one line and cannot move the cursor or change the terminal's state. A
    backslash is doubled only when the text holds something to escape, so ordinary text
    (Windows paths included) prints unchanged, and an escaped text cannot be confused with
    an ordinary one.
    """
    if not any(_unsafe(ch) for ch in text):
        return text
    return "".join(_escape(ch) if ch == "\\" or _unsafe(ch) else ch for ch in text)


# -- file names -----------------------------------------------------------------------------
_KEPT = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_")
MAX_COMPONENT = 120  # bytes: well below every file system's 255, leaving room for "-0001.svg"


def file_component(name: str) -> str:
    """``name`` as one safe file-name component: no separator, no ``..``, no control
    character, never empty, never hidden, at most :data:`MAX_COMPONENT` characters.

    ASCII letters, digits, ``-`` and ``_`` are kept; a ``.`` is kept between two kept
    characters; anything else (``/``, ``\\``, spaces, ``%``, non-ASCII) becomes ``%XX`` for
    each byte of its UTF-8 encoding. Different names give different components (the map
    is one-to-one up to the length cap), so two boards never write over each other's
    files. A name too long to keep is cut and given a hash of the whole name.
    """
    out = []
    for i, ch in enumerate(name):
        kept = ch in _KEPT or (
            ch == "." and 0 < i < len(name) - 1 and name[i - 1] in _KEPT and name[i + 1] in _KEPT
        )
        out.append(ch if kept else "".join(f"%{b:02X}" for b in ch.encode("utf-8", "replace")))
    safe = "".join(out) or "%"  # an empty name still names something (a lone % no other)
    if len(safe) > MAX_COMPONENT:
        import hashlib  # here: 2.6-4.0 ms of every command's start-up, for a long name alone

        digest = hashlib.sha256(name.encode("utf-8", "replace")).hexdigest()[:16]
        safe = safe[: MAX_COMPONENT - 17] + "~" + digest
    return safe


def drawn_as_written(text: str) -> str:
    """``text`` for matplotlib, which would read ``$...$`` as mathematics and raise on a
    malformed formula (a piece named ``$\\sqrt{$`` gave a traceback): every ``$`` is
    escaped, which matplotlib draws as a plain ``$``."""
    return text.replace("$", r"\$")
