"""The time rules of a run (#18, #22): the hopeless-count refusal and the limits a run is held to.

The memory rules sit below the engines (engine/memory.py: every engine checks its own); the
rules here need a puzzle and a clock, so they are the run layer's, and every door (the
library's ``Puzzle.count()``, the command line, the page) applies them through
:class:`puzzlebox.run.Run`, with the same words:

* **Time.** A count that has not finished after :data:`PROBE_AFTER` seconds is estimated
  once by Knuth's probes (engine/estimate.py; a count on an engine that probes its own
  tree is screened by those probes first, :func:`own_outlook`, and a short one judged on
  them); :func:`count_outlook` says how long the rest would take, and the run says it
  past :data:`NOTE_SECONDS` and refuses it past :data:`HOPELESS_SECONDS`
  (:class:`Hopeless`) unless told to go on (``Limits(refuse=False)``, ``limits=None``;
  ``--no-limit`` on the command line), or given a time limit (``Limits(time=...)``,
  ``--max-time``). A count that finishes within
  :data:`PROBE_AFTER` seconds never pays for a probe.
* **A floor before the build.** A kind's lower bound on its solutions refuses a run before
  its cover problem is built (:func:`floor_refusal`: 1,000 named monominoes in 0.5 s).
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from puzzlebox.engine.memory import OutOfTime, TooBig
from puzzlebox.engine.registry import AUTO, UnknownEngine, get, resolve, sweep_outgrown
from puzzlebox.engine.search import Capability, Job, Mode
from puzzlebox.words import duration_text

if TYPE_CHECKING:
    from puzzlebox.engine.estimate import TreeEstimate
    from puzzlebox.engine.stats import SearchStats
    from puzzlebox.puzzles import Puzzle


class Hopeless(TooBig):
    """A run that would take far longer than anyone waits: refused before it starts, or
    once its estimate says so. ``Limits(refuse=False)`` (``limits=None``; ``--no-limit``)
    runs it anyway, ``Limits(time=SECONDS)`` (``--max-time``) until then."""


class OutOfNodes(TooBig):
    """A run stopped at its node limit (``Limits(nodes=...)``) unfinished."""


def out_of_time_building(label: str, seconds: float) -> OutOfTime:
    """The refusal of a run whose time limit passed while its cover problem (or its
    symmetries) was still being built, before any node was searched (#28)."""
    return OutOfTime(f"{label}: stopped at the time limit of {seconds:g} s while building "
                     "its cover problem, before any search, unfinished")


@dataclass(frozen=True)
class Limits:
    """What a run is held to (the parameters record of :class:`puzzlebox.run.Run`).

    ``time``: seconds after which the run stops with :class:`OutOfTime` (and, being bounded,
    is not refused as hopeless); ``memory``: bytes any engine may hold (None: 2 GB,
    engine/memory.py); ``nodes``: search nodes after which it stops with
    :class:`OutOfNodes`; ``refuse``: refuse a run that Knuth's estimate or the kind's
    lower bound shows would take more than a thousand years (:class:`Hopeless`).
    ``Limits(refuse=False)``, or ``limits=None`` for a run, goes on regardless."""

    time: float | None = None
    memory: int | None = None
    nodes: int | None = None
    refuse: bool = True

    @property
    def go_on(self) -> bool:
        """Whether a hopeless estimate lets the run go on: not refusing, or bounded in time."""
        return not self.refuse or self.time is not None


NO_LIMIT = Limits(refuse=False)  # what ``limits=None`` means: the memory default still holds


# -- time --------------------------------------------------------------------------------------
PROBE_AFTER = 1.0  # seconds a count runs before it is estimated: quicker counts pay nothing
PROBES = 1000  # Knuth's probes of the estimate, and the most seconds they may take:
PROBE_SECONDS = 0.5  # of CPU; 40-queens' 1000 probes take 0.11 s, a 1000-cell board's 4 take 2 s
# The speed a count is assumed to run at, in nodes of the compiled engine's tree a second:
# faster than the general engines were measured (the compiled engine's speed on the pentomino
# trees is below 10 M nodes a second), so the time said is rather short than long; a kind's
# own solver (the queens bitmask) may be faster still, hence the wide margin of HOPELESS.
NODES_PER_SECOND = 3e7
NOTE_SECONDS = 60.0  # beyond this, the command line says how long the count would take
# Beyond a thousand years it refuses unless told to go on. The hopeless examples of #18 are
# beyond it by ten orders of magnitude or more (40-queens: 1e25 s); the catalog's largest
# counting tree below it, parallelogram-6's (3.2e14 nodes, 124 days: a note), by 3,000 times,
# more than the spread of its estimate (92%).
HOPELESS_SECONDS = 1000 * 365.25 * 86400


@dataclass(frozen=True)
class Outlook:
    """What Knuth's estimate says of a count: its tree, and the time at the assumed speed."""

    estimate: TreeEstimate
    seconds: float

    @property
    def hopeless(self) -> bool:
        return self.seconds > HOPELESS_SECONDS

    @property
    def worth_saying(self) -> bool:
        return self.seconds > NOTE_SECONDS

    def text(self, label: str, every: bool = False) -> str:
        """One line: the estimated tree and time, and what was measured to say so (``every``:
        of an enumeration of every solution rather than a count)."""
        nodes = self.estimate.nodes
        tree = "more nodes than a float holds" if math.isinf(nodes) else f"{nodes:.3g} nodes"
        years = self.seconds / (365.25 * 86400)
        took = ("more than the age of the universe" if self.seconds > 4.3e17
                else f"about {years:.2g} years" if years >= 1e6
                else f"about {duration_text(self.seconds)}")
        sols = ""
        if self.estimate.solutions_estimated and math.isfinite(self.estimate.solutions):
            sols = f", {self.estimate.solutions:.3g} solutions"
        run = "enumerating every solution" if every else "a count"
        return (f"{label}: {run} would take {took} (Knuth's estimate: {tree}{sols}, "
                f"{self.estimate.probes_text()}, at {NODES_PER_SECOND:.0e} nodes/s)")


# A count whose cover problem has this many options costs seconds to set up (the symmetry
# breaking of 1,000 named monominoes on 1,000 cells, a million options: 37 s) before its
# first step: it is estimated before, on the problem as built. That tree is larger than the
# one searched by at most the order of the puzzle's symmetry group, taken as RAW_MARGIN.
SETUP_OPTIONS = 20_000
RAW_MARGIN = 1e6


def count_outlook(puzzle: Puzzle, cut: bool = True, margin: float = RAW_MARGIN) -> Outlook:
    """Knuth's estimate of the tree a count of ``puzzle`` searches (the problem cut down by
    its symmetries: the compiled engine's tree, which the other enumerating engines walk
    too, node for node or more slowly), and the time at :data:`NODES_PER_SECOND`.
    ``cut=False``: of the problem as built, before its symmetry breaking is paid for, the
    time divided by ``margin`` (:data:`RAW_MARGIN`; 1 for an enumeration of every solution,
    ``solve --all``, which walks that tree itself)."""
    from puzzlebox.engine.estimate import estimate_tree

    problem = puzzle.search_problem() if cut else puzzle.problem
    estimate = estimate_tree(problem, probes=PROBES, seed=0, max_seconds=PROBE_SECONDS,
                            clock=time.process_time)  # CPU: the same probes under load
    nodes = estimate.nodes if estimate.nodes == estimate.nodes else math.inf
    return Outlook(estimate, nodes / NODES_PER_SECOND / (1.0 if cut else margin))


# A count on an engine with plain probes of its tree (EngineSpec.part_sizes) whose tree
# count_outlook does not estimate itself (no Capability.PROBE: the bitboard engine, in its
# own kernel, and the reference engine, by the compiled engine's plain probes of the tree it
# walks too) is first screened by PROBES of those plain probes; a tree they put this far
# below NOTE_SECONDS is judged on them, and any other gets count_outlook's estimate, as
# before. The screen took 0.003-0.03 s (3x4x5 solid pentominoes, tetrasticks-6x6, Bedlam,
# pentomino-6x10, three seeds: within 0.5-1.25x of the nodes counted), count_outlook
# 0.18-0.30 s of wall time in the middle of the count (numpy's import and the compiled
# engine's tables among it; 2026-12-07).
SCREEN_MARGIN = 10.0


def own_outlook(puzzle: Puzzle, engine: str) -> Outlook | None:
    """Knuth's plain probes of the tree a count of ``puzzle`` searches (cut by its
    symmetries) on ``engine``'s own tree, where the engine has them (``part_sizes``) and
    :func:`count_outlook` does not estimate that tree itself (``Capability.PROBE``); None
    elsewhere."""
    try:
        spec = get(engine)
    except UnknownEngine:
        return None
    if spec.part_sizes is None or spec.does(Capability.PROBE):
        return None
    job = Job(puzzle.search_problem(), Mode.COUNT)
    estimate = spec.part_sizes(job, PROBES, PROBE_SECONDS, 0)((), ())
    nodes = estimate.nodes if estimate.nodes == estimate.nodes else math.inf
    return Outlook(estimate, nodes / NODES_PER_SECOND)


def sweeps(engine: str) -> bool:
    """Whether ``engine`` counts by sweeping rather than by walking a tree (it counts distinct
    solutions itself and cannot cut a tree: the memo engine): its states are bounded by the
    memory limit as they grow, and Knuth's estimate says nothing of its time."""
    try:
        spec = get(engine)
    except UnknownEngine:
        return False
    return spec.does(Capability.DISTINCT) and not spec.does(Capability.SPLIT)


def counts_distinct(engine: str) -> bool:
    """Whether ``engine`` counts distinct solutions itself (by Burnside's lemma, or by a
    sweep), without the puzzle's symmetry breaking."""
    try:
        spec = get(engine)
    except UnknownEngine:
        return False
    return spec.does(Capability.DISTINCT)


class TimeRule:
    """The time rule of one run, checked between its steps (:class:`puzzlebox.run.Run`).

    :meth:`before` refuses, before the problem is built, a run that the kind's lower bound
    shows hopeless, and estimates a count whose setup is costly (:data:`SETUP_OPTIONS`); the
    run itself is estimated once it has run :data:`PROBE_AFTER` seconds unfinished. An
    estimate past :data:`HOPELESS_SECONDS` raises :class:`Hopeless` unless the limits go on
    (``Limits(refuse=False)``, or a time limit); one past :data:`NOTE_SECONDS` is handed to
    ``say`` (one line). ``limits.time`` stops the run with :class:`OutOfTime` once it has
    run that long, ``limits.nodes`` with :class:`OutOfNodes` past that many nodes.

    ``every=True`` watches an enumeration of every solution (``solve --all``): it walks the
    problem as built, not cut by symmetry, so that tree is the one estimated (no margin),
    and the words say "enumerating every solution" rather than "a count"."""

    def __init__(self, puzzle: Puzzle, label: str, say: Callable[[str], None],
                 limits: Limits, every: bool = False) -> None:  # fmt: skip
        self.puzzle = puzzle
        self.every = every
        self.label = label
        self.say = say
        self.limits = limits
        self.go_on = limits.go_on
        self.began = time.perf_counter()
        self.began_cpu = time.thread_time()
        self.outlook: Outlook | None = None

    def before(self, engine: str) -> None:
        """Judge a run before its setup; ``engine`` is the engine named (``auto``: the
        registry's choice for the count). First, before the problem is built, the kind's
        lower bound on the solutions (:func:`floor_refusal`); then Knuth's estimate of a
        count whose setup is costly, or that auto would have swept but whose sweep
        outgrows its cap from its first positions (``registry.sweep_outgrown``: the count
        enumerates, and a 100x100 board of dominoes is refused before its symmetries are
        built, #22)."""
        if self.go_on:
            return
        if not sweeps(engine):
            refused = floor_refusal(self.puzzle, self.label, self.every)
            if refused is not None:
                raise refused
        if self.puzzle.impossibility() is not None:  # proofs without placements come first
            return  # #28: the count answers 0 from the proof; nothing to build or estimate
        job = Job(self.puzzle.problem, Mode.COUNT, puzzle=self.puzzle,
                  max_memory=self.limits.memory)  # fmt: skip
        if self.puzzle.problem.n_options < SETUP_OPTIONS and not (
                engine == AUTO and not self.every and sweep_outgrown(job)):
            return  # (#22: a board too wide to sweep is estimated before its symmetry breaking)
        if sweeps(resolve(job, engine).name):
            return
        outlook = count_outlook(self.puzzle, cut=False, margin=1.0 if self.every else RAW_MARGIN)
        if outlook.hopeless:
            self._judge(outlook)

    def __call__(self, stats: SearchStats) -> None:
        elapsed = time.perf_counter() - self.began
        if self.limits.time is not None and elapsed > self.limits.time:
            raise OutOfTime(f"{self.label}: stopped at the time limit of {self.limits.time:g} s "
                            f"after {stats.nodes:,} nodes, unfinished")
        if self.limits.nodes is not None and stats.nodes >= self.limits.nodes and \
                not stats.complete:
            raise OutOfNodes(f"{self.label}: stopped at the node limit of "
                             f"{self.limits.nodes:,} after {stats.nodes:,} nodes, unfinished")
        # the time spent compiling kernels (a first run) is no part of the count's own time.
        # Without a time limit the probe waits for this thread's CPU time, not the wall
        # clock's: on a loaded machine a count of under a second of CPU ran past PROBE_AFTER
        # in wall time and paid for an estimate it did not need (numba's kernels loaded,
        # 2.5 s of CPU; issue #23). With one, the estimate comes before that limit stops it.
        spent = elapsed if self.limits.time is not None else \
            time.thread_time() - self.began_cpu
        searched = spent - stats.compile_seconds
        if self.outlook is None and searched > PROBE_AFTER and not stats.complete:
            if sweeps(stats.engine or ""):
                return
            self._judge(self.outlook_now(stats.engine or ""))

    def outlook_now(self, engine: str = "") -> Outlook:
        """The estimate of the tree this run walks: cut by symmetry for a count, as built
        for an enumeration of every solution, and for a count by an engine that counts
        distinct solutions itself (the queens bitmask, by Burnside's lemma): it walks the
        problem as built, so the puzzle's symmetry breaking is not paid for an estimate of a
        tree nobody walks (#38: a 19-torus's 2,888 maps, built in Python, cost 2.7 s of CPU
        in the middle of a 1.5 s count). A count on an engine that probes its own tree is
        screened by those probes first (:data:`SCREEN_MARGIN`): a short one is judged on
        them, numpy never loaded for it."""
        if self.every or counts_distinct(engine):
            return count_outlook(self.puzzle, cut=False, margin=1.0)
        screened = own_outlook(self.puzzle, engine)
        if screened is not None and screened.seconds * SCREEN_MARGIN < NOTE_SECONDS:
            return screened
        return count_outlook(self.puzzle)

    def _judge(self, outlook: Outlook) -> None:
        self.outlook = outlook
        if outlook.hopeless and not self.go_on:
            raise refusal(self.label, outlook, self.every)
        if outlook.worth_saying:
            self.say(outlook.text(self.label, self.every))


def judge_split(puzzle: Puzzle, label: str, estimate: TreeEstimate | None,
                say: Callable[[str], None], go_on: bool = False, every: bool = False
                ) -> None:  # fmt: skip
    """The time rule of a split run (``--jobs``, ``--cluster``, ``--checkpoint``), judged
    once, on the split's own estimate (parallel/run.py): before any subproblem runs, the
    one its planner made to balance it (the sum of its subproblems' estimates, each probed
    once), or, for a count tried whole first, once it has run a second, the nodes of the
    subproblems counted and plain probes of the others (``parts_tree``): refused
    past :data:`HOPELESS_SECONDS` unless ``go_on``, said past :data:`NOTE_SECONDS`. The
    time is that of one process: the workers share it out. Where the split made no estimate
    (``estimate`` None), the tree is probed as for a plain count (:func:`count_outlook`;
    an enumeration: the problem as built)."""
    if go_on:
        return
    if estimate is None:
        outlook = count_outlook(puzzle, cut=not every, margin=1.0)
    else:
        outlook = Outlook(estimate, estimate.nodes / NODES_PER_SECOND)
    if outlook.hopeless:
        raise Hopeless(f"{outlook.text(label, every)}: refused")
    if outlook.worth_saying:
        say(outlook.text(label, every))


def floor_refusal(puzzle: Puzzle, label: str, every: bool = False) -> Hopeless | None:
    """The refusal of a run that the kind's lower bound on its solutions
    (``Puzzle.log_solutions_lower_bound``: no problem built, microseconds) shows hopeless;
    None when it does not (or the kind gives no bound).

    An enumeration (``every``) walks every solution. A count walks fewer: the symmetry
    breaking (cover/symmetry.py) deletes options of at most two items (the anchors), keeping
    one of each orbit, and symmetric solutions are spread evenly over an orbit of anchor
    options, so at least one solution in ``P**2`` is searched, ``P`` bounding the options
    of one item: the problem's entries (``cover_entries_bound``) bound it. Solutions are
    nodes of the tree, at :data:`NODES_PER_SECOND`."""
    log_floor = puzzle.log_solutions_lower_bound()
    if log_floor is None:
        return None
    if not every:
        entries = puzzle.cover_entries_bound()
        if entries is None:
            return None
        log_floor -= 2 * math.log(max(entries, 1))
    log_seconds = log_floor - math.log(NODES_PER_SECOND)
    if log_seconds <= math.log(HOPELESS_SECONDS):
        return None
    run = "enumerating every solution" if every else "a count"
    exponent = log_floor / math.log(10)
    return Hopeless(f"{label}: {run} would take more than a thousand years (at least "
                    f"1e{exponent:.0f} {'solutions' if every else 'solutions searched'}, "
                    f"a lower bound from the pieces, at {NODES_PER_SECOND:.0e} nodes/s): "
                    "refused")


def refusal(label: str, outlook: Outlook, every: bool = False) -> Hopeless:
    """The one line that refuses a hopeless count (the command line adds the ways to go on
    anyway: the library names no flags)."""
    return Hopeless(f"{outlook.text(label, every)}: refused")
