"""Counted nouns in sentences a user reads: "1 solution", "2 solutions" (issue #16)."""

from __future__ import annotations

IRREGULAR = {"copy": "copies", "distinct": "distinct", "process": "processes"}


def plural(count: float, noun: str) -> str:
    """``count`` and ``noun``, the noun in the plural unless the count is exactly one."""
    return f"{count} {noun_for(count, noun)}"


def noun_for(count: float, noun: str) -> str:
    """The form of ``noun`` that follows ``count``."""
    return noun if count == 1 else IRREGULAR.get(noun, noun + "s")


def duration_text(seconds: float) -> str:
    """A duration a person reads at a glance: 35 ms, 4.2 s, 17 min, 3.1 h, 12 days.
    (Here, the lowest layer, so that an engine's estimate and the run layer's refusal say
    durations the same way without importing a display.)"""
    if seconds != seconds or seconds == float("inf"):
        return "unknown"

    def number(v: float) -> str:
        return f"{v:,.0f}" if v >= 10 else f"{v:.2g}"

    for size, unit in ((365.25 * 86400, "years"), (86400, "days"), (3600, "h"), (60, "min"),
                       (1, "s")):
        if seconds >= size:
            return f"{number(seconds / size)} {unit}"
    return f"{number(seconds * 1000)} ms"
