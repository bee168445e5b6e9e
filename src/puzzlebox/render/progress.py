"""Progress drawn for people and machines, from the run layer's events (run/progress.py).

Two sinks of the same :class:`puzzlebox.run.Progress` events: :class:`ProgressLine`, a live
line on standard error for a person at a terminal (solutions, nodes, rate, elapsed, and the
share and time left where the event has them), and :class:`JsonLines`, one JSON object per
event (``--progress json``). Neither computes anything: what the event says is what shows.
"""

from __future__ import annotations

import json
import sys
import time
from types import TracebackType
from typing import Any, TextIO

from puzzlebox.safety import printable
from puzzlebox.words import duration_text, plural


def short(x: float) -> str:
    """3 significant digits with a k/M/G/T suffix: 1.23M (beyond 999T: 3.73e+15)."""
    if abs(x) >= 1e15:
        return f"{x:.3g}"
    for size, suffix in ((1e12, "T"), (1e9, "G"), (1e6, "M"), (1e3, "k")):
        if abs(x) >= size:
            return f"{x / size:.3g}{suffix}"
    return f"{x:.0f}"


def solutions_text(solutions: int, distinct: int | None) -> str:
    """``12 solutions, 3 distinct`` where the distinct ones are known, else ``12 solutions``."""
    if distinct is not None:
        return f"{plural(solutions, 'solution')}, {distinct} distinct"
    return plural(solutions, "solution")


def progress_text(event: Any) -> str:
    """One line of an event: solutions, nodes and rate, elapsed, share and time left."""
    parts = [solutions_text(event.solutions, event.distinct),
             f"{short(event.nodes)} nodes ({short(event.nodes / max(event.elapsed, 1e-9))}/s)",
             duration_text(event.elapsed)]
    if event.share is not None:
        parts.append(f"{100 * event.share:.1f} % of the tree")
    if event.eta is not None:
        parts.append(f"{duration_text(event.eta)} left")
    return ", ".join(parts)


class ProgressLine:
    """A transient line on standard error (rich), shown once the run has gone on for
    ``after`` seconds; each event redraws it. Does nothing when not ``enabled``."""

    def __init__(self, label: str, enabled: bool, after: float = 0.0) -> None:
        self.label = label
        self.enabled = enabled
        self.after = after
        self._live: Any = None

    def __call__(self, event: Any) -> None:
        if not self.enabled or event.done or event.elapsed < self.after:
            return
        said = event.text() if hasattr(event, "text") else progress_text(event)
        text = printable(f"{self.label}: {said}")
        if self._live is None:
            from rich.console import Console
            from rich.live import Live

            self._live = Live(text, console=Console(stderr=True), transient=True,
                              auto_refresh=False,
                              redirect_stdout=sys.stdout.isatty(), redirect_stderr=False)
            self._live.start()
        self._live.update(text, refresh=True)

    def close(self) -> None:
        if self._live is not None:
            self._live.stop()
            self._live = None

    def __enter__(self) -> ProgressLine:
        return self

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None,
                 trace: TracebackType | None) -> None:  # fmt: skip
        self.close()


class JsonLines:
    """One JSON object per event, a line each, on ``stream`` (standard error)."""

    def __init__(self, stream: TextIO | None = None) -> None:
        self.stream = stream

    def __call__(self, event: Any) -> None:
        stream = self.stream if self.stream is not None else sys.stderr
        stream.write(json.dumps(event.json()) + "\n")
        stream.flush()


class Bar:
    """A rich bar on stderr for work counted in steps (a sweep's choices, an order's
    rectangles), shown once the work has run for a second; nothing when not ``enabled``."""

    def __init__(self, description: str, enabled: bool) -> None:
        self._began = time.perf_counter()
        self._description = description
        self._enabled = enabled
        self._bar: Any = None
        self._task: Any = None

    def __call__(self, done: int, total: int) -> None:
        if not self._enabled:
            return
        if self._bar is None:
            if time.perf_counter() - self._began < 1.0:
                return
            from rich.console import Console
            from rich.progress import Progress

            self._bar = Progress(console=Console(stderr=True), transient=True)
            self._bar.start()
            self._task = self._bar.add_task(self._description, total=total)
        self._bar.update(self._task, completed=done)

    def close(self) -> None:
        if self._bar is not None:
            self._bar.stop()
