"""The live progress display of ``count`` and ``solve --all``, on standard error.

It shows what the searches report (solutions, nodes, nodes per second, time so far) and, as
soon as Knuth's random probes have estimated the size of the tree (in a background thread,
for about a second), a bar towards that many nodes and the time left at the current speed.
The estimate is of the compiled engine's tree, so it is shown only for that engine; the
bitboard and edge-matching engines instead report the share of their tree behind the current
path (as Knuth's DLX programs do), and the bar and the time left follow that.
It is used only when standard error is a terminal and ``--quiet`` is not given, so pipes,
files and ``--json`` output never see it. The searches report to it through the ``on_step``
callback of their loop (engine/search.py): the stats it receives are already summed over
the searches of one count (engine/parts.py).
"""

from __future__ import annotations

import functools
import sys
import threading
import time
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from types import TracebackType
from typing import TYPE_CHECKING, Any, TypeVar

from puzzlebox.cover.problem import CoverProblem
from puzzlebox.engine.search import OnStep
from puzzlebox.engine.stats import SearchStats
from puzzlebox.words import plural

if TYPE_CHECKING:
    from puzzlebox.engine.estimate import TreeEstimate

ESTIMATE_PROBES = 2000
ESTIMATE_SECONDS = 1.0
REFRESH_SECONDS = 0.1
WALKED_STEPS = 10_000  # the bar's length for an engine that reports the share it walked
T = TypeVar("T")


def wanted(quiet: bool) -> bool:
    """Whether to show progress: only to a person watching a terminal."""
    return not quiet and sys.stderr.isatty()


def _short(x: float) -> str:
    """3 significant digits with a k/M/G/T suffix: 1.23M (beyond 999T: 3.73e+15)."""
    if abs(x) >= 1e15:
        return f"{x:.3g}"
    for size, suffix in ((1e12, "T"), (1e9, "G"), (1e6, "M"), (1e3, "k")):
        if abs(x) >= size:
            return f"{x / size:.3g}{suffix}"
    return f"{x:.0f}"


def solutions_text(stats: SearchStats) -> str:
    """The solutions so far, written and named as the final line writes them: a count up to
    symmetry (engine/parts.py) says ``12 solutions, 3 distinct``, raw and distinct as its
    final line does; any other search ``12 solutions``, the solutions it found."""
    if stats.raw is not None and stats.distinct is not None:
        return f"{plural(stats.raw, 'solution')}, {stats.distinct} distinct"
    return plural(stats.solutions, "solution")


# How the bar's share of the run is read: off the path (the share of the tree walked, the
# bitboard and edge-matching engines), or as nodes over Knuth's estimate (the compiled
# engine). A time left is shown only for a kind whose prediction was measured within a
# factor of two of the truth from 20% of the run on the bench instances
# (bench/progress_accuracy.py, docs/estimates.md): the estimate's was (until the search
# passes the estimate, when none is shown), the share walked's was not (pentomino trees).
WALKED = "walked"
ESTIMATED = "estimated"
TIME_LEFT_SHOWN: dict[str, bool] = {WALKED: False, ESTIMATED: True}


def time_left(elapsed: float, share: float) -> float | None:
    """The time left if the rest of the run goes at the speed so far: ``share`` of it done
    in ``elapsed`` seconds. None before anything is done."""
    if share <= 0:
        return None
    return elapsed * (1 - min(share, 1.0)) / share


def left_text(kind: str, elapsed: float, share: float) -> str:
    """The time left the bar shows: nothing for a kind of share not trusted for it."""
    if not TIME_LEFT_SHOWN.get(kind, False):
        return ""
    left = time_left(elapsed, share)
    return "" if left is None else f"{duration_text(left)} left"


ProblemSource = CoverProblem | Callable[[], CoverProblem] | None


@functools.cache
def _probes_its_tree(engine: str) -> bool:
    """Whether Knuth's estimate (engine/estimate.py) describes the tree of ``engine``: the
    registry says which engine probes its own tree; names it does not know (wrappers such
    as restarts) get no estimate."""
    from puzzlebox.engine.registry import UnknownEngine, get
    from puzzlebox.engine.search import Capability

    try:
        return get(engine).does(Capability.PROBE)
    except UnknownEngine:
        return False


class _Estimator(threading.Thread):
    """Knuth's estimate of one tree, computed beside the search (numba releases the GIL)."""

    def __init__(self, problem: CoverProblem) -> None:
        super().__init__(name="puzzlebox-estimate", daemon=True)
        self.problem = problem
        self.result: TreeEstimate | None = None
        self.error: str | None = None

    def run(self) -> None:
        from puzzlebox.engine.estimate import estimate_tree

        try:
            self.result = estimate_tree(
                self.problem, probes=ESTIMATE_PROBES, max_seconds=ESTIMATE_SECONDS
            )
        except Exception as error:  # shown in the display; the search itself goes on
            self.error = f"no estimate ({type(error).__name__}: {error})"


class SearchDisplay:
    """A rich display with one line per search being watched; does nothing when disabled."""

    def __init__(self, enabled: bool) -> None:
        self.enabled = enabled
        self._progress: Any = None

    def __enter__(self) -> SearchDisplay:
        if not self.enabled:
            return self
        from rich.console import Console
        from rich.progress import (
            BarColumn,
            Progress,
            SpinnerColumn,
            TaskProgressColumn,
            TextColumn,
            TimeElapsedColumn,
        )

        self._progress = Progress(
            SpinnerColumn(),
            TextColumn("{task.description}"),
            BarColumn(bar_width=12),
            TaskProgressColumn(),
            TextColumn("{task.fields[solutions]}, {task.fields[nodes]}{task.fields[of]} "
                       "nodes {task.fields[rate]}/s"),
            TimeElapsedColumn(),
            TextColumn("{task.fields[left]}"),
            console=Console(stderr=True),
            transient=True,
            # printed solutions go above the display when both streams are the terminal
            redirect_stdout=sys.stdout.isatty(),
            redirect_stderr=False,
            refresh_per_second=10,
        )
        self._progress.start()
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        trace: TracebackType | None,
    ) -> None:
        if self._progress is not None:
            self._progress.stop()
            self._progress = None

    @contextmanager
    def search(self, label: str, problem: ProblemSource) -> Iterator[OnStep | None]:
        """A line for the searches run in the block: it yields the ``on_step`` callback to
        hand to their loop (None when the display is off); ``problem`` is the tree to
        estimate."""
        if self._progress is None:
            yield None
            return
        bar = self._progress
        began = time.perf_counter()
        last = [0.0]
        task: list[Any] = []  # shown from the first report: a search that never reports
        estimator: list[_Estimator] = []  # (a memo sweep) gets no line and no estimate

        def report(stats: SearchStats) -> None:
            now = time.perf_counter()
            compiled = _probes_its_tree(stats.engine)
            if not task:
                task.append(bar.add_task(label, total=None, solutions=solutions_text(stats),
                                         nodes="0", of="", rate="?", left=""))
                if problem is not None and compiled:
                    estimator.append(_Estimator(problem if isinstance(problem, CoverProblem)
                                                else problem()))
                    estimator[0].start()
            if now - last[0] < REFRESH_SECONDS:
                return
            last[0] = now
            nodes = stats.nodes
            fields: dict[str, Any] = {
                "solutions": solutions_text(stats),
                "nodes": _short(nodes),
                "rate": _short(nodes / max(now - began, 1e-9)),
                "of": "/~?" if estimator else "",
                "left": "",
            }
            total = None
            walked = stats.walked
            if not compiled:
                fields["of"] = ""  # the estimate is of the compiled engine's tree, not this one
                if walked is not None:
                    # the share of the tree behind the current path: the bar follows it
                    fields["left"] = left_text(WALKED, now - began, walked)
                    bar.update(task[0], completed=walked * WALKED_STEPS, total=WALKED_STEPS,
                               **fields)  # fmt: skip
                    return
            elif estimator and estimator[0].result is not None:
                guess = estimator[0].result.nodes
                fields["of"] = f"/~{_short(guess)}"
                total = max(guess, nodes + 1)  # a bar past its end says nothing more
                if nodes < guess:  # past the estimate, the time left is unknown: none shown
                    fields["left"] = left_text(ESTIMATED, now - began, nodes / guess)
            elif estimator and estimator[0].error is not None:
                fields["of"] = f" [{estimator[0].error}]"
            bar.update(task[0], completed=nodes, total=total, **fields)

        try:
            yield report
        finally:
            for thread in estimator:
                thread.join()
            for shown in task:
                bar.remove_task(shown)


@contextmanager
def following(enabled: bool, label: str, problem: ProblemSource) -> Iterator[OnStep | None]:
    """Show the searches run in the block (when ``enabled``): yields the ``on_step``
    callback for their loop, or None. ``problem`` (or a function that builds it, called
    only if a display is shown) is the tree to estimate."""
    if not enabled:
        yield None
        return
    with SearchDisplay(True) as display, display.search(label, problem) as on_step:
        yield on_step


def follow(
    enabled: bool,
    label: str,
    problem: ProblemSource,
    items: Callable[[OnStep | None], Iterable[T]],
) -> Iterator[T]:
    """The enumeration ``items(on_step)`` (lazy solutions) passed through, shown while it
    runs. The display closes when the enumeration ends or is dropped."""
    with following(enabled, label, problem) as on_step:
        yield from items(on_step)


def duration_text(seconds: float) -> str:
    """A duration a person reads at a glance: 35 ms, 4.2 s, 17 min, 3.1 h, 12 days."""
    if seconds != seconds or seconds == float("inf"):
        return "unknown"

    def number(v: float) -> str:
        return f"{v:,.0f}" if v >= 10 else f"{v:.2g}"

    for size, unit in ((365.25 * 86400, "years"), (86400, "days"), (3600, "h"), (60, "min"),
                       (1, "s")):
        if seconds >= size:
            return f"{number(seconds / size)} {unit}"
    return f"{number(seconds * 1000)} ms"
