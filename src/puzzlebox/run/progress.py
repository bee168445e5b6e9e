"""One progress model for every door (#22): what a run reports while it runs.

A :class:`Progress` event carries the time so far, the solutions (raw, and distinct where
the count knows them), the nodes, the share of the search done (or None) and the time left
(or None). The terminal line (render/terminal.py), the page (web/runs.py) and the
``--progress json`` stream all print these events and nothing else, so they agree.

**The share tells the truth or nothing.** It comes from the engine where it reports the
share of its tree behind the current path (``SearchStats.walked``: bitboard, edges, memo),
or from nodes over Knuth's estimate of the compiled engine's tree (a thread beside the
search). Both run ahead of the truth on some trees (``count solid-pentominoes-3x4x5``: the
estimate is passed at 2 s of 10.5 s) and behind it on others, so:

* once the nodes pass the estimate, the share is unknown (None), never "100 %";
* until the run has ended the share is capped at :data:`SHARE_CAP`: it never reaches 0.99
  while a tenth of the run is still to come (tests/test_progress.py checks it on small
  instances, bench/progress_accuracy.py on the bench's);
* it is 1.0 when the run has ended, and only then.

**The time left is given only where it was measured** within a factor of two of the truth
from 20 % of the run on the bench and catalog instances that run 5 s to 5 min
(bench/progress_accuracy.py, docs/estimates.md). :data:`ETA_MEASURED` lists the sources of
a share whose time left passed; where it did not, ``eta`` is None: no number beats a
false one.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import asdict, dataclass
from typing import TYPE_CHECKING, Any

from puzzlebox.engine.registry import UnknownEngine, get
from puzzlebox.engine.search import Capability
from puzzlebox.engine.stats import SearchStats

if TYPE_CHECKING:
    from puzzlebox.cover.problem import CoverProblem
    from puzzlebox.engine.estimate import TreeEstimate

SHARE_CAP = 0.9  # the most a share says before the run has ended
ESTIMATE_PROBES = 2000
ESTIMATE_SECONDS = 1.0
WALKED = "walked"  # the share of the tree behind the current path, from the engine
ESTIMATED = "estimated"  # nodes over Knuth's estimate of the compiled engine's tree
# the sources of a share whose time left was measured within a factor of two from 20% of
# the run on the bench instances (bench/progress_accuracy.py): none passed on 2026-11-26
# (docs/estimates.md): the estimate's ran x0.2 to x5, the path's far behind
ETA_MEASURED: frozenset[str] = frozenset()


@dataclass(frozen=True)
class Progress:
    """One update of a run: what every door shows while it runs."""

    elapsed: float  # seconds since the run began
    solutions: int  # raw solutions so far (as placed)
    distinct: int | None  # distinct up to symmetry, where the count knows them so far
    nodes: int  # search nodes so far
    share: float | None  # of the whole run, or None (unknown); 1.0 only once done
    eta: float | None  # seconds left, or None where no measured rule gives one
    engine: str = ""
    done: bool = False

    def json(self) -> dict[str, Any]:
        """The ``--progress json`` object (one a line on stderr)."""
        fields = asdict(self)
        fields["elapsed"] = round(self.elapsed, 3)
        fields["share"] = None if self.share is None else round(self.share, 6)
        fields["eta"] = None if self.eta is None else round(self.eta, 3)
        return fields


OnProgress = Callable[[Progress], None]


def _probes_its_tree(engine: str) -> bool:
    """Whether Knuth's estimate (engine/estimate.py) describes the tree of ``engine``."""
    try:
        return get(engine).does(Capability.PROBE)
    except UnknownEngine:
        return False


class _Estimator(threading.Thread):
    """Knuth's estimate of one tree, computed beside the search (numba releases the GIL)."""

    def __init__(self, problem: Callable[[], CoverProblem]) -> None:
        super().__init__(name="puzzlebox-estimate", daemon=True)
        self.problem = problem
        self.result: TreeEstimate | None = None

    def run(self) -> None:
        from puzzlebox.engine.estimate import estimate_tree  # loads numba

        try:
            self.result = estimate_tree(self.problem(), probes=ESTIMATE_PROBES,
                                        max_seconds=ESTIMATE_SECONDS)
        except Exception:  # no estimate: no share from it; the search goes on
            self.result = None


class Meter:
    """Turns a search's stats into :class:`Progress` events by the rules above.

    ``problem`` (a function building it, called only when needed) is the tree the run walks,
    for Knuth's estimate where the engine probes its own tree; None: no estimate."""

    def __init__(self, problem: Callable[[], CoverProblem] | None = None) -> None:
        self.problem = problem
        self._estimator: _Estimator | None = None

    def share(self, stats: SearchStats) -> tuple[float | None, str | None]:
        """The share of the run done by its best source, before the cap, and the source."""
        # a count made of the parts of its symmetry breaking (engine/parts.py, ``raw`` set):
        # the share its first part walked says nothing of the others (solid-pentominoes-3x4x5
        # showed 90 % from its first seconds to its end); the estimate is of the whole cut
        # tree, which the parts walk one after the other
        if stats.walked is not None and stats.raw is None:
            return stats.walked, WALKED
        return self._estimated(stats)

    def _estimated(self, stats: SearchStats) -> tuple[float | None, str | None]:
        """Nodes over Knuth's estimate of the compiled engine's tree, where it describes the
        engine's tree; None before the estimate is in, and once the nodes pass it."""
        if self.problem is None or not _probes_its_tree(stats.engine):
            return None, None
        if self._estimator is None:
            self._estimator = _Estimator(self.problem)
            self._estimator.start()
        guess = self._estimator.result
        if guess is None or not guess.nodes > 0 or stats.nodes >= guess.nodes:
            return None, None  # no estimate yet, or passed: the share is unknown
        return stats.nodes / guess.nodes, ESTIMATED

    def event(self, stats: SearchStats, elapsed: float, solutions: int,
              distinct: int | None, done: bool) -> Progress:  # fmt: skip
        """The event of a run at ``stats`` (``done``: it has ended)."""
        if done:
            return Progress(elapsed, solutions, distinct, stats.nodes, 1.0, 0.0,
                            stats.engine, True)
        share, source = self.share(stats)
        eta = None
        if share is not None and source in ETA_MEASURED and share > 0:
            eta = elapsed * (1 - share) / share
        if share is not None:
            share = min(share, SHARE_CAP)
        return Progress(elapsed, solutions, distinct, stats.nodes, share, eta, stats.engine)

    def close(self) -> None:
        """Wait for the estimate's thread (a second at most)."""
        if self._estimator is not None:
            self._estimator.join()
