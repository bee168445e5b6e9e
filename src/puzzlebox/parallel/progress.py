"""The progress line of a split run, on standard error: subproblems done, solutions, ETA."""

from __future__ import annotations

from types import TracebackType
from typing import Any


class SplitProgress:
    """A rich progress bar when ``enabled``; otherwise every call does nothing."""

    def __init__(self, enabled: bool, label: str, total: int, done: int, solutions: int) -> None:
        self.enabled = enabled
        self._bar: Any = None
        self._task: Any = None
        self._solutions = solutions
        if not enabled:
            return
        from rich.console import Console
        from rich.progress import (
            BarColumn,
            MofNCompleteColumn,
            Progress,
            TextColumn,
            TimeElapsedColumn,
            TimeRemainingColumn,
        )

        self._bar = Progress(
            TextColumn("{task.description}"),
            BarColumn(),
            MofNCompleteColumn(),
            TextColumn("subproblems, {task.fields[solutions]:,} solutions"),
            TimeElapsedColumn(),
            TextColumn("ETA"),
            TimeRemainingColumn(),
            console=Console(stderr=True),
            transient=True,
            redirect_stdout=False,
            redirect_stderr=False,
        )
        self._task = self._bar.add_task(label, total=total, completed=done, solutions=solutions)

    def __enter__(self) -> SplitProgress:
        if self._bar is not None:
            self._bar.start()
        return self

    def advance(self, solutions: int) -> None:
        """One more subproblem is done, with ``solutions`` more solutions."""
        self._solutions += solutions
        if self._bar is not None:
            self._bar.update(self._task, advance=1, solutions=self._solutions)

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        trace: TracebackType | None,
    ) -> None:
        if self._bar is not None:
            self._bar.stop()
