"""Counted nouns in sentences a user reads: "1 solution", "2 solutions" (issue #16)."""

from __future__ import annotations

IRREGULAR = {"copy": "copies", "distinct": "distinct"}


def plural(count: float, noun: str) -> str:
    """``count`` and ``noun``, the noun in the plural unless the count is exactly one."""
    return f"{count} {noun_for(count, noun)}"


def noun_for(count: float, noun: str) -> str:
    """The form of ``noun`` that follows ``count``."""
    return noun if count == 1 else IRREGULAR.get(noun, noun + "s")
