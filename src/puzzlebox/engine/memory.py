"""The memory rules, below every engine: engines check their own memory here (#18, #22).

Two rules, each refusing with :class:`TooBig` (one line, exit status 3: well formed, but too
big to work on here):

* **The cover problem.** 1,000 pieces of 50 cells on a 100 x 100 board would have up to four
  billion entries; building it took all the memory before any search began, and said
  nothing. :func:`check_cover_size` bounds the problem's size from a kind's bound alone (no
  placement is made) and refuses one over :data:`MAX_ENTRIES`. ``Puzzle.problem`` calls it,
  so every door is guarded alike.
* **The engines' memory.** Every engine declares what it allocates for a job
  (``EngineSpec.memory``, an estimate from the problem's size measured per engine), checked
  by :func:`check_memory` before it starts; the engines whose tables grow during the search
  (the memo engine's states, the SAT engine's model) check again as they grow. The limit is
  ``Job.max_memory`` (``--max-memory``, ``Limits(memory=...)``), :data:`DEFAULT_MAX_MEMORY`
  when none is given.

The time rules (the hopeless-count refusal, ``--max-time``) are the run layer's
(puzzlebox/run/limits.py): they need a puzzle and a clock, which no engine has. Only their
error, :class:`OutOfTime`, is defined here, for every layer to raise.
"""

from __future__ import annotations

import re

from puzzlebox.errors import PuzzleboxError

EXIT_TOO_BIG = 3  # the input is well formed but too big to work on here
MAX_ENTRIES = 8_000_000  # cells listed by all the options of a cover problem
BYTES_PER_ENTRY = 240  # measured while building: a 60 x 60 board and the 12 pentominoes,
# 1,062,980 entries, 365 MB peak resident size (110 MB of it before building)
DEFAULT_MAX_MEMORY = 2 * 1024**3  # what an engine may allocate when no --max-memory is given
_UNITS = {"": 1, "K": 1024, "M": 1024**2, "G": 1024**3, "T": 1024**4}


class TooBig(PuzzleboxError):
    """A puzzle too big to work on here (its cover problem, an engine's tables, or the time
    a count would take); ``str()`` says how big, and the limit."""

    exit_status = EXIT_TOO_BIG


class OverMemory(TooBig):
    """An engine would need more memory than the limit (``--max-memory``) allows."""


class OutOfTime(TooBig):
    """A run stopped at its time limit (``Limits(time=...)``, ``--max-time``) unfinished.

    The rule is the run layer's (run/limits.py, which gives this class out as
    ``puzzlebox.run.OutOfTime``); the class sits here, beside :class:`TooBig`, so that a
    search below the run layer (disassembly/search.py, held to the deadline of a whole
    command) stops with the same error as every other time limit."""


def check_cover_size(bound: int | None, label: str, most: int = MAX_ENTRIES) -> None:
    """Raise :class:`TooBig` when a cover problem could list more than ``most`` entries
    (``bound``: a kind's upper bound, ``Puzzle.cover_entries_bound``; None: none given):
    refused at once, before a placement is made."""
    if bound is None or bound <= most:
        return
    megabytes = bound * BYTES_PER_ENTRY >> 20
    raise TooBig(
        f"{label}: the cover problem could have up to {bound:,} entries (what each placement "
        f"covers; about {megabytes:,} MB to build); the limit is {most:,}: use a smaller "
        "board, or fewer or smaller pieces or cards"
    )


def memory_limit(max_memory: int | None) -> int:
    """The bytes an engine may hold: ``max_memory``, or the default."""
    return DEFAULT_MAX_MEMORY if max_memory is None else max_memory


def size_text(size: float) -> str:
    """Bytes for people: ``1.5 GB``, ``300 MB``, ``12 KB``."""
    for unit, scale in (("TB", 1 << 40), ("GB", 1 << 30), ("MB", 1 << 20), ("KB", 1 << 10)):
        if size >= scale:
            return f"{size / scale:.3g} {unit}"
    return f"{size:.0f} bytes"


def check_memory(what: str, need: int, max_memory: int | None) -> None:
    """Raise :class:`OverMemory` when ``what`` (an engine's tables, "the sat engine's
    model") would need more than the memory limit: before it is allocated."""
    most = memory_limit(max_memory)
    if need > most:
        raise OverMemory(f"{what} would need about {size_text(need)}; the memory limit is "
                         f"{size_text(most)}: use a smaller puzzle, or raise the limit")


def parse_memory(text: str) -> int:
    """Bytes from ``"2G"``, ``"512M"``, ``"1.5GiB"`` or a plain number of bytes."""
    match = re.fullmatch(r"\s*(\d+(?:\.\d*)?)\s*([KMGT]?)(?:i?B)?\s*", text, re.IGNORECASE)
    if match is None:
        raise ValueError(f"memory size {text!r} is not a number with an optional K/M/G/T")
    size = int(float(match.group(1)) * _UNITS[match.group(2).upper()])
    if size <= 0:
        raise ValueError(f"memory size {text!r} must be positive")
    return size

