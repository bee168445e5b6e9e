"""One design search: every design of a space tried, here or on other processes or a
Dask cluster, with a checkpoint, progress, limits and Stop.

:class:`DesignRun` is the design search's counterpart of :class:`puzzlebox.run.Run`: one
object, one parameters record (:class:`puzzlebox.run.Limits`), one callback. The command
line, the library (``puzzlebox.design``) and their tests all go through it, so they try the
same designs in the same order and keep the same ones.

* **Order.** Designs are enumerated in the space's fixed order; those that a symmetry maps
  onto an earlier one are set aside before anything is built (counted in ``symmetric``).
* **Limits.** The number of designs is known before the search: more than
  :data:`MOST_DESIGNS` is refused at once (:class:`TooManyDesigns`, exit status 3), unless
  ``Limits(refuse=False)`` (``--no-limit``) or a time limit (``--max-time``), which ends the
  search (:class:`OutOfTime`) with what it kept so far already given out. Every search of a
  design is held to the same limits (a hopeless count is *undecided*, not a hang).
* **Splitting.** Designs are independent: batches of them go to local worker processes
  (``jobs``) or a Dask scheduler (``cluster``) through parallel/backends.py, which replaces
  a worker that dies and runs its batch again. A worker keeps the space it read (the parsed
  file, the base puzzle's symmetries) for its next batch; one forked from this process
  (where that is safe: parallel/backends.py's ``can_fork``) starts with this process's.
* **Checkpoint.** Each design's result is appended to the checkpoint as it comes back
  (design/checkpoint.py); a resumed search gives back what the file holds and tries only
  the rest.
"""

from __future__ import annotations

import hashlib
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

from puzzlebox.designs.checkpoint import DesignCheckpoint, space_fingerprint
from puzzlebox.designs.evaluate import DEFAULTS, DesignResult, evaluate, rank_key
from puzzlebox.designs.space import Design, DesignSpace
from puzzlebox.designs.together import together
from puzzlebox.parallel.backends import DaskBackend, ProcessBackend
from puzzlebox.run.limits import Limits, OutOfTime, TooBig

# Designs a search tries without being told to go on: at the quickest a design was measured
# (1 ms: a proof refutes it) this is a quarter of an hour; at a calendar set's 0.5 s, six days
MOST_DESIGNS = 1_000_000
BATCH_SECONDS = 2.0  # a split search sends each worker about this much work at a time
FIRST_BATCH = 4  # designs per batch before the first ones are timed


class TooManyDesigns(TooBig):
    """A design space larger than a search tries without being told to go on."""


@dataclass(frozen=True)
class DesignProgress:
    """One update of a design search (what the terminal line, ``--progress json`` and the
    page show). ``eta`` (seconds left) is given only once a tenth of the designs is tried:
    the designs of one space cost alike, measured within a factor of two from there
    (docs/design-search.md)."""

    elapsed: float
    tried: int  # designs tried so far, resumed ones included
    total: int  # designs to try: the space less its symmetric copies found so far
    kept: int
    undecided: int
    rate: float  # designs a second in this run
    share: float | None
    eta: float | None
    done: bool = False


@dataclass(frozen=True)
class DesignSummary:
    """What a finished (or stopped) design search did."""

    designs: int  # the whole space, symmetric copies included
    symmetric: int  # set aside: the same design turned or mirrored
    tried: int
    kept: int
    undecided: int
    resumed: int  # results taken from the checkpoint
    workers: int
    seconds: float
    complete: bool
    together: bool = False  # every design's assemblies came from one search of the pool

    def to_json(self) -> dict[str, Any]:
        return {"designs": self.designs, "symmetric": self.symmetric, "tried": self.tried,
                "kept": self.kept, "undecided": self.undecided, "resumed": self.resumed,
                "workers": self.workers, "seconds": round(self.seconds, 3),
                "complete": self.complete, "together": self.together}


_SPACES: dict[str, DesignSpace] = {}  # a worker's spaces, by their text's hash
SPACES_READ = [0]  # spaces a process read for its batches (the tests count them)


def _key(text: str, source: str, name: str) -> str:
    return hashlib.sha256(f"{source}\0{name}\0{text}".encode()).hexdigest()


def _space(text: str, source: str, name: str) -> DesignSpace:
    key = _key(text, source, name)
    if key not in _SPACES:
        _SPACES.clear()  # one space at a time: a worker serves one search
        _SPACES[key] = DesignSpace(text, source, name)
        SPACES_READ[0] += 1
    return _SPACES[key]


def remember(space: DesignSpace) -> None:
    """Hand the batches run in this process, and the workers forked from it
    (parallel/backends.py's ``can_fork``), the space the client read: a forked worker
    starts with it (and what it built: the base puzzle's symmetries, its pieces'
    orientations), where one from the forkserver imports puzzlebox and reads the space
    again (about a second of CPU each, the calendar's ``--jobs 2``)."""
    key = _key(space.text, space.source, space.name)
    if _SPACES.get(key) is not space:
        _SPACES.clear()
        _SPACES[key] = space


def try_batch(task: tuple[str, str, str, float | None, bool, list[dict[str, Any]]]
              ) -> list[dict[str, Any]]:
    """A worker's part: try each design of the batch (its results as JSON, so that they
    travel to the client as plain data)."""
    text, source, name, seconds, refuse, designs = task
    space = _space(text, source, name)
    limits = Limits(time=seconds, refuse=refuse)
    return [evaluate(space, Design.from_json(d), limits).to_json() for d in designs]


class DesignRun:
    """Try every design of ``space`` (see the module's docstring).

    ``results()`` yields each design's result as it is tried (kept or not; in the order
    they end when split), ``kept`` and ``ranked()`` give the kept ones, ``summary`` the
    totals once it has ended, ``stop()`` ends it from another thread within a design."""

    def __init__(self, space: DesignSpace, limits: Limits | None = DEFAULTS, *,
                 jobs: int = 1, cluster: str | None = None, checkpoint: str | None = None,
                 on_progress: Callable[[DesignProgress], None] | None = None) -> None:
        self.space = space
        self.limits = limits if limits is not None else Limits(refuse=False)
        self.jobs = jobs
        self.cluster = cluster
        self.checkpoint_path = checkpoint
        self.on_progress = on_progress
        self.kept: list[DesignResult] = []
        self.undecided: list[DesignResult] = []
        self.summary: DesignSummary | None = None
        self._stop = threading.Event()
        self._designs = space.size()
        self._symmetric = 0
        self._tried = 0
        self._resumed = 0
        self._workers = 1
        self._began = 0.0
        self._last_progress = 0.0
        self.together_search = False  # the designs were found together in one search
        self._steady: tuple[float, int] | None = None  # when the first design came back

    def stop(self) -> None:
        self._stop.set()

    def ranked(self) -> list[DesignResult]:
        """The kept designs, best first by the space's ranking (else in their order)."""
        return sorted(self.kept, key=lambda r: rank_key(self.space.wanted.rank, r))

    def check(self) -> None:
        """Refuse a space too large to try unless told to go on (before anything runs)."""
        if self._designs > MOST_DESIGNS and not self.limits.go_on:
            raise TooManyDesigns(
                f"{self.space.name}: {self._designs:,} designs, more than a search tries "
                f"without being told ({MOST_DESIGNS:,}): refused")

    # -- the search ------------------------------------------------------------------------
    def results(self) -> Iterator[DesignResult]:
        self.check()
        self._began = time.perf_counter()
        checkpoint = None
        if self.checkpoint_path is not None:
            checkpoint = DesignCheckpoint(self.checkpoint_path, space_fingerprint(
                self.space.text, self.space.wanted.to_json()))
        done = dict(checkpoint.results) if checkpoint is not None else {}
        complete = False
        try:
            for result in done.values():
                self._resumed += 1
                yield self._account(result)
            if self.space.together():
                yield from self._together(done, checkpoint)
            elif self.jobs > 1 or self.cluster is not None:
                todo = self._todo(done)
                yield from self._split(todo, checkpoint)
            else:
                yield from self._here(self._todo(done), checkpoint)
            complete = not self._stop.is_set()
        finally:
            if checkpoint is not None:
                checkpoint.close()
            self._finish(complete)

    def _todo(self, done: dict[int, DesignResult]) -> Iterator[Design]:
        for design in self.space.designs():
            if not self.space.canonical(design):
                self._symmetric += 1
                continue
            if design.index not in done:
                yield design

    def _together(self, done: dict[int, DesignResult], checkpoint: DesignCheckpoint | None
                  ) -> Iterator[DesignResult]:
        """Every design's assemblies from one search of the pool (design/together.py): the
        search runs here (its split is a count's, not a design search's), each design that
        has an assembly is judged as it would be alone. Designs that hold no assembly count
        as tried; a resumed run searches again (about a second for the six-piece burrs) but
        judges only designs its checkpoint does not hold."""
        self.together_search = True
        left = self._deadline_left()
        limits = Limits(time=left, memory=self.limits.memory, refuse=self.limits.refuse)
        for result in together(self.space, limits):
            if result.design.index in done:
                continue
            if checkpoint is not None:
                checkpoint.record(result)
            yield self._account(result)
            if self._stop.is_set():
                return
        self._tried = self._designs  # one search tried them all
        self._symmetric = 0

    def _deadline_left(self) -> float | None:
        if self.limits.time is None:
            return None
        left = self.limits.time - (time.perf_counter() - self._began)
        if left <= 0:
            raise OutOfTime(f"{self.space.name}: the design search stopped at its time limit "
                            f"({self.limits.time:g} s) after {self._tried:,} designs")
        return left

    def _here(self, todo: Iterator[Design], checkpoint: DesignCheckpoint | None
              ) -> Iterator[DesignResult]:
        for design in todo:
            if self._stop.is_set():
                return
            left = self._deadline_left()
            limits = Limits(time=left, memory=self.limits.memory, refuse=self.limits.refuse)
            result = evaluate(self.space, design, limits)
            if checkpoint is not None:
                checkpoint.record(result)
            yield self._account(result)

    def _split(self, todo: Iterator[Design], checkpoint: DesignCheckpoint | None
               ) -> Iterator[DesignResult]:
        backend: Any
        if self.cluster is not None:
            backend = DaskBackend(self.cluster, try_batch)
        else:
            remember(self.space)  # the workers forked below start with it
            backend = ProcessBackend(self.jobs, try_batch, share=False)
        self._workers = backend.workers
        designs = list(todo)
        seconds = self.limits.time
        tasks: list[tuple[int, Any]] = []
        k = 0
        while k < len(designs):
            # batches that shrink as the designs left do (guided self-scheduling): large
            # enough at first to cost little to send, 16 at most; a design at a time at the
            # end, so that the last batch leaves the other workers idle for one design, not
            # for 16 (the calendar's sets: about a second a batch of 16, where the aim is
            # half one process's wall time; 64 a batch had cost it 1.86x)
            size = max(1, min(16, (len(designs) - k) // (4 * max(1, self._workers))))
            batch = [d.to_json() for d in designs[k:k + size]]
            tasks.append((len(tasks), (self.space.text, self.space.source, self.space.name,
                                       seconds, self.limits.refuse, batch)))
            k += size
        try:
            for _, answers in backend.run(tasks):
                if self._steady is None:  # the time left is reckoned from here on
                    self._steady = (time.perf_counter(),
                                    self._tried - self._resumed + len(answers))
                for data in answers:
                    result = DesignResult.from_json(data)
                    if checkpoint is not None:
                        checkpoint.record(result)
                    yield self._account(result)
                if self._stop.is_set():
                    return
                self._deadline_left()
        finally:
            backend.close()

    def _account(self, result: DesignResult) -> DesignResult:
        self._tried += 1
        if self._steady is None and self._tried > self._resumed:  # the first one tried here
            self._steady = (time.perf_counter(), self._tried - self._resumed)
        if result.kept:
            self.kept.append(result)
        elif not result.decided:
            self.undecided.append(result)
        self._progress(False)
        return result

    def _progress(self, done: bool) -> None:
        if self.on_progress is None:
            return
        now = time.perf_counter()
        if not done and now - self._last_progress < 0.25:
            return
        self._last_progress = now
        elapsed = now - self._began
        total = self._designs - self._symmetric
        fresh = self._tried - self._resumed
        rate = fresh / elapsed if elapsed > 0 else 0.0
        share = 1.0 if done else (min(0.9, self._tried / total) if total else None)
        eta = None
        if not done and total and self._tried >= total / 10 and self._steady is not None:
            # the rate since the first design came back: the workers' start-up, paid once,
            # made the time left up to 2.3x too long with --jobs 2 on the calendar
            since, counted = self._steady
            if fresh > counted and now > since:
                eta = (total - self._tried) * (now - since) / (fresh - counted)
        self.on_progress(DesignProgress(elapsed, self._tried, total, len(self.kept),
                                        len(self.undecided), rate, share, eta, done))

    def _finish(self, complete: bool) -> None:
        self.summary = DesignSummary(
            self._designs, self._symmetric, self._tried, len(self.kept), len(self.undecided),
            self._resumed, self._workers, time.perf_counter() - self._began, complete,
            self.together_search)
        if complete:
            self._progress(True)
