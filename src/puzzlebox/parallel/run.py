"""Run a split count or enumeration: plan the subproblems, hand them to a backend, add up.

One :class:`SplitRun` serves every board of a puzzle file (a batch shares its workers) and
keeps one checkpoint for all of them. Results are keyed by subproblem index: one that
arrives twice (a task that ran again after its worker died) is counted once.
"""

from __future__ import annotations

import contextlib
import math
import signal
import threading
import time
from collections.abc import Callable, Generator, Iterator
from pathlib import Path
from types import TracebackType
from typing import TYPE_CHECKING, Any

from puzzlebox.engine import COMPILED, SearchStats, registry
from puzzlebox.engine.registry import AUTO, EngineSpec, PartSizer
from puzzlebox.engine.search import Capability, Job
from puzzlebox.engine.tree_estimate import TreeEstimate
from puzzlebox.formats import PuzzleFile
from puzzlebox.parallel.checkpoint import Checkpoint, run_fingerprint
from puzzlebox.parallel.cores import SAMPLE_SECONDS, AllCores, IdleMeter, usable_cores
from puzzlebox.parallel.errors import SplitOptionError
from puzzlebox.parallel.progress import SplitProgress
from puzzlebox.parallel.split import Subproblem, Weight, split
from puzzlebox.parallel.tasks import (
    COUNT,
    LOCAL,
    SOLUTIONS,
    Cancelled,
    PuzzleSource,
    Task,
    problem_fingerprint,
    remember,
    run_task,
    stoppable,
    task_job,
)
from puzzlebox.puzzles import Puzzle, Solution
from puzzlebox.puzzles.base import runner
from puzzlebox.reports import SplitCountResult

if TYPE_CHECKING:  # the backends are needed by a split run only (multiprocessing,
    # subprocess and socket; 15-21 ms with uuid, which they no longer import)
    from puzzlebox.parallel.backends import ProcessBackend, TaskFunction

PER_WORKER = 16  # subproblems per worker when no depth is given: many more than workers,
# handed out largest first from one queue, balance the load (#38 item 6: 8 left one process
# idle at the end of a count; a subproblem costs what it searches and nothing more once a
# process has its tables, bench/parallel.py --overhead: 1.01x)
LEAST = 32  # ... and at least this many, so that a checkpoint saves work often enough

# Balancing by Knuth's estimate: a few probes per node, for trees big enough to be worth it
PROBES = 64
PROBE_SECONDS = 0.02
BALANCE_FROM = 1_000_000  # nodes of the whole tree (about a second of a general engine)
# A local count tries the whole board in this process first, for this long
# and at least BALANCE_FROM nodes (what small() allows), while its workers get ready: one
# that ends sooner is never split. What it searched is lost when it is split, so this is
# short: on an idle 16-core machine 1.0 s cost a 6-second count of 16 queens 0.8 s of wall.
WHOLE_FIRST_SECONDS = 0.0  # #38 item 6: what it searched past BALANCE_FROM nodes is lost,
# while this process could count the biggest subproblem as its workers start (0.5 s cost
# every long count half a second of this process's work)
JUDGE_AFTER = 1.0  # CPU seconds of a count run whole before the time rule judges it
# (and of this process's CPU on a split count tried whole first: judged then, as one process
# judges its count, by a tick of the loop that feeds the workers: SplitRun._judge_later)

# Where workers are forked from this process (backends.can_fork: milliseconds, the puzzle
# built), a count is tried whole for this many nodes, not BALANCE_FROM: all it searched is
# lost when it is split, and a split costs little more than its subproblems (#38 item 6: the
# million nodes lost cost solid-pentominoes-3x4x5 0.27 s of CPU of 2.2 s, tetrasticks-6x6
# 0.40 s of 3.6 s; bench/RESULTS.md, "--jobs 2 that pays"). 131,072 nodes still cost the
# short counts 0.03-0.05 s before their split. The trial stops at the end of a step of its
# search (engine/search.py count_all: 4,096 nodes, then doubling), so 16,384 is 28,672 at
# most, about 10 ms (bench/RESULTS.md, "The split's own estimate", 2026-12-06)
TRY_NODES = 1 << 14


def small(spec: EngineSpec, job: Job) -> bool:
    """Whether the engine searches the whole job within ``BALANCE_FROM`` nodes: then a split
    would cost more than it saves (every subproblem starts its engine, every worker loads the
    kernels). Found by trying: the engine's own search, stopped there."""
    search = spec.start(job)
    return search.step(BALANCE_FROM).done


def tree_size(spec: EngineSpec, job: Job) -> Weight | None:
    """Knuth's estimate of a subproblem's tree as the weight that balances a split, for an
    engine that can probe its tree (``Capability.PROBE``); None for one that cannot (the
    split then cuts the shallowest subproblems first, which keeps it level)."""
    if not spec.does(Capability.PROBE):
        return None
    from puzzlebox.engine.estimate import estimate_tree

    def weight(sub: Subproblem) -> float:
        forced, excluded = sub
        found = estimate_tree(
            job.problem, PROBES, 0, forced, excluded, max_seconds=PROBE_SECONDS
        )
        return found.nodes

    return weight


PART_PROBES = 128  # Knuth's plain probes of each subproblem not yet counted, for the time
# rule of a split count (EngineSpec.part_sizes). Measured with 12 seeds against the true
# trees (bench/estimates.py --parts, 2026-12-06, the compiled engine's probes): 64 gave
# 0.50-2.30 of tetrasticks-6x6's nodes, 128 0.61-1.96 (solid-pentominoes-3x4x5 0.83-1.17,
# Bedlam 0.78-1.12) in 0.03-0.07 s of CPU, 256 0.73-1.37 in 0.05-0.18 s; the whole tree's
# estimate, 0.15-0.27 s


def parts_tree(spec: EngineSpec, job: Job, subs: list[Subproblem], done: dict[int, list[Any]]
               ) -> TreeEstimate:  # fmt: skip
    """The whole tree of a split count under way: the nodes of the subproblems counted
    (``done``, by index: their entries start with raw, distinct, nodes) and Knuth's plain
    probes of the others on the engine's own tree (``spec.part_sizes``; the compiled
    engine's for an engine that has none), their errors added in quadrature."""
    began = time.process_time()
    sizes: PartSizer | None = None  # made where a part is left (the engine's tables)
    nodes = float(sum(entry[2] for entry in done.values()))
    variance = 0.0
    probes = 0
    for index, (forced, excluded) in enumerate(subs):
        if index in done:
            continue
        if sizes is None:
            maker = spec.part_sizes or COMPILED.part_sizes
            assert maker is not None
            sizes = maker(job, PART_PROBES, PROBE_SECONDS, 0)
        part = sizes(forced, excluded)
        nodes += part.nodes
        variance += part.nodes_error ** 2
        probes += part.probes
    return TreeEstimate(nodes=nodes, nodes_error=math.sqrt(variance), solutions=math.nan,
                        solutions_error=math.nan, probes=probes, mean_depth=math.nan,
                        seconds=time.process_time() - began)


ORDER_PROBES = 16  # Knuth's plain probes of each subproblem of a split tried whole first, to
# hand the largest out first. Simulated on the true sizes of the bench's splits with two
# processes: the last to finish ends at 0.53 of the whole count in the split's own order
# (solid-pentominoes-3x4x5: its 59th of 60 subproblems is 9% of the tree), 0.50 largest
# first, with 16 probes as with 128 (Bedlam 0.505 -> 0.502, tetrasticks-6x6 0.516 -> 0.503).
# The order costs 9-11 ms on those 60 subproblems, 6-7 ms on Bedlam's 41, 5 ms on
# tetrasticks' 35 (medians of 9, 2026-12-07; 16 and 15 ms before a bitboard subproblem's
# start was cut to a third)


def largest_first(spec: EngineSpec, job: Job, subs: list[Subproblem]) -> list[Subproblem]:
    """``subs`` largest first by Knuth's plain probes of the engine's own tree (the longest
    first: what is left at the end is small, so no process waits long for the last one),
    where the engine probes its tree (``EngineSpec.part_sizes``); else as they are."""
    if spec.part_sizes is None or len(subs) < 2:
        return subs
    sizes = spec.part_sizes(job, ORDER_PROBES, PROBE_SECONDS, 0)
    nodes = [sizes(forced, excluded).nodes for forced, excluded in subs]
    order = sorted(range(len(subs)), key=lambda i: (-nodes[i], i))
    return [subs[i] for i in order]


def whole_tree(subs: list[Subproblem], weighed: dict[Subproblem, float],
               seconds: float) -> TreeEstimate:
    """The estimate of the whole tree that a balanced split already made: the sum of its
    subproblems' estimates (the few nodes above them left out), probed once, for the
    planner and the time rule (budget.py) alike."""
    nodes = sum(weighed.get(sub, 0.0) for sub in subs)
    return TreeEstimate(nodes=nodes, nodes_error=math.nan, solutions=math.nan,
                        solutions_error=math.nan, probes=PROBES * len(weighed),
                        mean_depth=math.nan, seconds=seconds)


def whole_within(task_function: TaskFunction, task: Task, stop: threading.Event,
                 on_step: Callable[[SearchStats], None] | None = None
                 ) -> tuple[Any, ...] | None:  # fmt: skip
    """Run ``task`` here to its end, or until ``stop`` is set: its answer, or None when it
    was stopped (between two steps of its search). ``on_step`` sees the stats after each
    step."""
    try:
        with stoppable(stop, on_step):
            return task_function(task)  # type: ignore[no-any-return]
    except Cancelled:
        return None


ResultHook = Callable[[int, int, tuple[Any, ...]], None]  # (board, index, result)
# (board, Knuth's estimate of the whole tree from the split's own weights, None where it
# made none); may raise to refuse the run (budget.py's time rule), before any subproblem is run
PlanHook = Callable[[int, "TreeEstimate | None"], None]
# (puzzle, task kind, whether a split was asked for) -> the engine of its subproblems
Chooser = Callable[[Puzzle, str, bool], EngineSpec]


class Interrupted(KeyboardInterrupt):
    """Ctrl-C (or a hook's KeyboardInterrupt) stopped a split run after the checkpoint was
    saved; ``result`` is the partial count of the board being counted (None for solve)."""

    def __init__(self, done: int, total: int, result: SplitCountResult | None = None) -> None:
        super().__init__(f"interrupted after {done} of {total} subproblems")
        self.done = done
        self.total = total
        self.result = result


@contextlib.contextmanager
def ctrl_c_deferred() -> Iterator[None]:
    """Hold Ctrl-C back until the block ends, then raise it: a batch of solutions is written
    and recorded in the checkpoint together, so a resumed run never writes it twice.

    A Python-level handler notes the signal (handlers run in the main thread, whichever
    thread the signal reached); elsewhere than the main thread nothing is held back."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    caught: list[int] = []
    previous = signal.getsignal(signal.SIGINT)
    signal.signal(signal.SIGINT, lambda signum, frame: caught.append(signum))
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous if previous is not None else signal.SIG_DFL)
    if caught:
        raise KeyboardInterrupt


def split_label(split_depth: int | None) -> str:
    return "auto" if split_depth is None else f"depth {split_depth}"


class SplitRun:
    """Counts or enumerates the boards of one puzzle file by subproblems.

    ``jobs`` local processes (1: in this process), or the Dask scheduler at ``cluster``;
    ``checkpoint`` a JSON file to resume from and record into; ``split_depth`` a fixed split
    depth instead of about ``PER_WORKER`` subproblems per worker. Local processes are never
    more than the cores this process may run on (``note`` says so, in one line), and are
    all started at once (``meter``: cores.AllCores; a test's IdleMeter starts them only on
    idle cores). A count's result says how many processes counted it (``workers``).
    ``on_result`` is called after each finished subproblem has been recorded;
    ``before_record`` before an enumerated subproblem is recorded (the command line flushes
    its output there). ``source`` is the text the workers read the puzzle from (default:
    the file ``pf`` was read from). With ``share`` (the default) this process runs
    subproblems too, beside ``jobs - 1`` workers, and a count with neither a split depth nor
    a checkpoint is first tried whole here (:data:`WHOLE_FIRST_SECONDS`, or to its end where
    no worker could start): a count that one process finishes as soon as a split one would
    is never split.

    Each board runs on one engine (``specs``): the one named, or the one ``auto`` chooses
    for it (``choose``; by default the run layer's choice, reached through the doors it
    installs, puzzles/base.py's ``runner()``). That engine cuts the board's search with
    its own frontier and runs every subproblem, in this process and on every worker alike.
    """

    def __init__(
        self,
        pf: PuzzleFile,
        command: str = "count",
        *,
        engine: str = AUTO,
        jobs: int = 1,
        cluster: str | None = None,
        checkpoint: str | Path | None = None,
        split_depth: int | None = None,
        progress: bool = False,
        on_result: ResultHook | None = None,
        on_plan: PlanHook | None = None,
        before_record: Callable[[], None] | None = None,
        task_function: TaskFunction = run_task,
        source: PuzzleSource | None = None,
        share: bool = True,
        choose: Chooser | None = None,
        note: Callable[[str], None] | None = None,
        meter: IdleMeter | AllCores | None = None,
    ) -> None:
        if command not in ("count", "solve"):
            raise ValueError(f"unknown command {command!r}")
        if jobs < 1:
            raise ValueError(f"jobs must be at least 1, not {jobs}")
        if split_depth is not None and split_depth < 0:
            raise ValueError(f"split_depth must be at least 0, not {split_depth}")
        local = cluster is None and jobs > 1
        # the cores the rest of the machine leaves idle, measured from here on (this
        # process is busy building the boards' problems meanwhile)
        self.meter = (meter if meter is not None else AllCores()) if local and share else None
        if local and jobs > (cores := usable_cores()):
            if note is not None:
                note(f"{jobs} processes asked for, but this process may use {cores} cores: "
                     f"at most {cores} processes")
            jobs = cores
        self.note = note
        self._said_cores = False
        self.pf = pf
        self.kind = COUNT if command == "count" else SOLUTIONS
        self.engine = engine
        self.split_depth = split_depth
        self.choose = choose
        # the engine of each board: the one named, or auto's choice; it cuts the board's
        # search into subproblems and counts every one of them
        self.specs = [self._spec(p) for p in pf.puzzles]
        self.jobs = jobs
        self.cluster = cluster
        self.progress = progress
        self.on_result = on_result
        self.on_plan = on_plan
        self.before_record = before_record
        self.task_function = task_function
        self.share = share
        self.source = source if source is not None else PuzzleSource.of(pf)
        # What the answer depends on, for what crosses to other machines (a cluster's
        # workers check it) or outlives the run (a checkpoint). A local run's workers are
        # this installation (forked ones: this very process), and their tasks carry none:
        # it cost a count whose engine builds no arrays (the bitboard's C kernels, the
        # queens bitmask) numpy's import and its cover problem, 0.1-0.2 s of CPU (#38 item 6)
        if cluster is not None or checkpoint is not None:
            self.fingerprints = [problem_fingerprint(p, self.kind, spec)
                                 for p, spec in zip(pf.puzzles, self.specs)]
        else:
            self.fingerprints = [LOCAL] * len(pf.puzzles)
        if source is None:  # this process's tasks use the boards built here (tasks.py)
            remember(self.source, pf, self.kind, self.specs, self.fingerprints)
        self.checkpoint: Checkpoint | None = None
        if checkpoint is not None:
            split_name = split_label(split_depth)
            self.checkpoint = Checkpoint.open(
                checkpoint,
                run_fingerprint(command, split_name, self.fingerprints),
                puzzle=pf.name,
                command=command,
                split=split_name,
                boards=len(pf.puzzles),
            )
        self._backend: Any = None

    # -- the pieces ------------------------------------------------------------------------
    def _spec(self, puzzle: Puzzle) -> EngineSpec:
        """The engine that runs ``puzzle``'s subproblems: the run layer's choice (``choose``,
        puzzlebox/run/choice.py: the one place an engine is chosen) for ``auto``, else the
        one named, which must be able to."""
        need = Capability.COUNT if self.kind == COUNT else Capability.SOLVE
        if self.engine == AUTO:
            # the run layer's choice (run/choice.py); a SplitRun made by hand, as in
            # docs/cluster.md, reaches it through the doors the run layer installs
            choose = self.choose if self.choose is not None else runner().split_engine
            name = choose(puzzle, self.kind, self.split_depth is not None).name
        else:
            name = self.engine
        spec = registry.get(name)
        if not spec.does(need):
            doing = "count" if self.kind == COUNT else "list"
            raise SplitOptionError(f"engine {name!r} does not {doing} solutions")
        if self.engine != AUTO:
            job = task_job(puzzle, self.kind, spec)
            reason = spec.accepts(job)
            if reason is not None:
                raise SplitOptionError(f"engine {name!r} cannot run {puzzle.name}: {reason}")
        return spec

    @property
    def backend(self) -> Any:
        """Made on first use, so a run that the checkpoint already holds starts nothing.
        Local workers start with the first tasks, or earlier when :meth:`plan` splits a big
        search and starts them to get ready meanwhile."""
        if self._backend is None:
            # multiprocessing, subprocess, socket and uuid: 15 ms that a run of one process
            # (nearly every count) need not pay (issue #23)
            from puzzlebox.parallel.backends import DaskBackend, ProcessBackend, SerialBackend

            if self.cluster is not None:
                self._backend = DaskBackend(self.cluster, self.task_function)
            elif self.jobs > 1:
                self._backend = ProcessBackend(self.jobs, self.task_function, share=self.share,
                                               meter=self.meter)
            else:
                self._backend = SerialBackend(self.task_function)
        return self._backend

    def plan(self, board: int, tried: bool = False) -> list[Subproblem]:
        """The subproblems of ``board``: from the checkpoint when it has them. ``tried``:
        the board was tried whole and did not end soon (:meth:`_try_whole`)."""
        from puzzlebox.parallel.backends import ProcessBackend  # loaded by self.backend

        puzzle = self.pf.puzzles[board]
        spec = self.specs[board]
        job = task_job(puzzle, self.kind, spec)
        if self.checkpoint is not None:
            known = self.checkpoint.plan(board, job.problem.n_options)
            if known is not None:
                return known
        if self.split_depth is not None:
            self._judge(board, job, None)
            backend = self.backend
            if isinstance(backend, ProcessBackend):
                backend.start(wait=False)  # the workers get ready while it is split
                self._say_cores(backend, whole=False)
            subs = split(spec, job, depth=self.split_depth)
        else:
            if self.cluster is None and self.checkpoint is None and not tried and \
                    small(spec, job):
                # About a second of search or less: splitting would cost more than it saves,
                # so it is one search, in this process when it takes a share.
                return [((), ())]
            backend = self.backend
            if isinstance(backend, ProcessBackend):
                backend.start(wait=False)  # the workers get ready while it is split
                self._say_cores(backend, whole=False)
            target = max(PER_WORKER * backend.workers, LEAST)
            # tried whole first (a local count): no probes to balance it (the queue does, with
            # many more subproblems than processes: 0.98 of the balance of Knuth's weights on
            # tetrasticks-6x6, whose probes cost 0.4 s of CPU before any subproblem ran), and
            # the time rule judges it as the count runs (count's tick), as one process would
            weight = None if tried else tree_size(spec, job)
            weighed: dict[Subproblem, float] = {}
            began = time.process_time()
            if weight is not None:
                size = weight

                def weight(sub: Subproblem) -> float:
                    weighed[sub] = size(sub)
                    return weighed[sub]

            if weight is None and not tried:
                self._judge(board, job, None)
            subs = split(spec, job, target=target, weight=weight)
            if tried:
                subs = largest_first(spec, job, subs)
            if weighed:
                self._judge(board, job, whole_tree(subs, weighed, time.process_time() - began))
        if self.checkpoint is not None:
            self.checkpoint.set_plan(board, subs)
        return subs

    def _judge(self, board: int, job: Job, estimate: TreeEstimate | None) -> None:
        """Hand ``on_plan`` the estimate of the board's tree: the split's own (its weights,
        probed once), or None where the split makes none (a fixed depth, an engine that
        cannot probe: the hook estimates as a plain count would). A refusal closes the
        workers started meanwhile."""
        if self.on_plan is None:
            return
        try:
            self.on_plan(board, estimate)
        except BaseException:
            self.close()
            raise

    def _task(self, board: int, sub: Subproblem) -> Task:
        forced, excluded = sub
        name = self.specs[board].name
        return (self.kind, self.source, board, name, forced, excluded, self.fingerprints[board])

    def _label(self, board: int) -> str:
        name = getattr(self.pf.puzzles[board], "board_name", None)
        return f"{self.pf.name} {name}" if self.pf.batch and name else self.pf.name

    def _done(self, board: int) -> dict[int, list[Any]]:
        return self.checkpoint.done(board) if self.checkpoint is not None else {}

    def _save(self) -> None:
        """Write the checkpoint once more (an interruption may have cut a write short)."""
        if self.checkpoint is not None:
            self.checkpoint.save()

    def _record(self, board: int, index: int, entry: list[Any], result: tuple[Any, ...]) -> None:
        if self.checkpoint is not None:
            self.checkpoint.record(board, index, entry)
        if self.on_result is not None:
            self.on_result(board, index, result)

    # -- counting --------------------------------------------------------------------------
    def count(self, board: int = 0) -> SplitCountResult:
        """Count ``board``'s solutions, raw and distinct; raises :class:`Interrupted` with
        the partial count on Ctrl-C."""
        began = time.perf_counter()
        puzzle = self.pf.puzzles[board]
        reason = puzzle.impossibility()
        if reason is not None:
            return SplitCountResult(0, 0, time.perf_counter() - began, SearchStats(), reason)
        if not self.specs[board].does(Capability.SPLIT):
            # An engine that cannot split counts the board whole, here, as one task: the
            # memoised sweep that auto chooses where it pays (many interchangeable pieces)
            # counts faster than any split of a search that enumerates.
            raw, distinct, nodes, seconds, engine = self._whole(board)
            stats = SearchStats(engine=engine, nodes=nodes, solutions=raw, complete=True,
                                search_seconds=seconds)
            return SplitCountResult(raw, distinct, time.perf_counter() - began, stats,
                                    done=1, total=1, workers=1)
        tried = False
        began_cpu = time.process_time()
        if self._whole_first():
            answer = self._try_whole(board)
            if answer is not None:
                raw, distinct, nodes, seconds, engine = answer[:5]
                self._record(board, 0, [raw, distinct, nodes, round(seconds, 6)], answer)
                stats = SearchStats(engine=engine, nodes=nodes, solutions=raw, complete=True,
                                    search_seconds=seconds)
                return SplitCountResult(raw, distinct, time.perf_counter() - began, stats,
                                        done=1, total=1, workers=1)
            tried = True
        subs = self.plan(board, tried)
        done = self._done(board)
        resumed = len(done)
        stats = SearchStats(engine=self.specs[board].name)
        raw = sum(entry[0] for entry in done.values())
        distinct = sum(entry[1] for entry in done.values())
        stats.nodes = sum(entry[2] for entry in done.values())
        processes: set[str] = set()  # the processes that answered (tasks.worker_name)

        def result() -> SplitCountResult:
            stats.complete = len(done) == len(subs)
            stats.solutions = raw
            return SplitCountResult(
                raw, distinct, time.perf_counter() - began, stats,
                done=len(done), total=len(subs), resumed=resumed, workers=len(processes),
            )

        todo = [(i, self._task(board, s)) for i, s in enumerate(subs) if i not in done]
        if not todo:
            return result()
        bar = SplitProgress(self.progress, self._label(board), len(subs), len(done), raw)
        tick = self._judge_later(board, began_cpu, subs, done) if tried else None
        try:
            with contextlib.closing(self._answers(todo, done, bar, tick)) as answers:
                for index, answer in answers:
                    n_raw, n_distinct, nodes, seconds, engine = answer[:5]
                    entry = [n_raw, n_distinct, nodes, round(seconds, 6)]
                    done[index] = entry
                    raw += n_raw
                    distinct += n_distinct
                    stats.nodes += nodes
                    stats.search_seconds += seconds
                    stats.engine = engine
                    if len(answer) > 6 and isinstance(answer[6], str):
                        processes.add(answer[6].split("/")[0])
                    bar.advance(n_raw)
                    self._record(board, index, entry, answer)
        except KeyboardInterrupt:
            self._save()
            raise Interrupted(len(done), len(subs), result()) from None
        return result()

    def _judge_later(self, board: int, began_cpu: float, subs: list[Subproblem],
                     done: dict[int, list[Any]]) -> Callable[[], bool]:
        """The time rule of a split count tried whole first (:meth:`plan` made no estimate):
        judged once this process has spent :data:`JUDGE_AFTER` seconds of CPU on the count,
        as one process judges its own, so a count shorter than that pays no estimate. A
        tick of the loop that feeds the workers; False once judged (no more ticks).

        The tree judged is the split's own: the nodes of the subproblems done, and Knuth's
        plain probes of the others (:func:`parts_tree`), about a millisecond a subproblem,
        where the whole tree's estimate cost 0.15-0.36 s of CPU beside the count
        (#38 item 6)."""
        def tick() -> bool:
            if len(done) == len(subs):
                return False  # the count has ended: nothing left to judge
            if time.process_time() - began_cpu < JUDGE_AFTER:
                return True
            puzzle = self.pf.puzzles[board]
            job = task_job(puzzle, self.kind, self.specs[board])
            self._judge(board, job, parts_tree(self.specs[board], job, subs, done))
            return False

        return tick

    def _whole_first(self) -> bool:
        """Whether a count is tried whole in this process before it is split: a local
        split that chooses its own cut, with nothing to resume or record."""
        return (self.meter is not None and self.split_depth is None
                and self.checkpoint is None)

    def _try_whole(self, board: int) -> tuple[Any, ...] | None:
        """Count ``board`` whole in this process. Once the meter has watched the machine
        for a moment of this search (cores.SAMPLE_SECONDS) and it has searched its budget
        (:meth:`try_nodes`: a count done sooner is never split), the workers that free
        cores allow are started; where none could start the count
        goes on here to its end (the time rule applied as one process applies it), else it
        stops :data:`WHOLE_FIRST_SECONDS` later once it has searched its budget,
        the workers getting ready meanwhile. Its answer, or None when it was stopped (then
        it is split)."""
        backend = self.backend
        meter = self.meter
        assert meter is not None
        budget = self.try_nodes()
        task = self._task(board, ((), ()))
        stop = threading.Event()
        time_up = threading.Event()
        timer: list[threading.Timer] = []
        rule = self._rule(board)
        decided = False

        def on_step(stats: SearchStats) -> None:
            nonlocal decided
            # A tree under the budget is never split, so no worker starts before the search
            # has passed it: starting one from the forkserver cost pentomino-5x12 (735,220
            # nodes, 0.46 s) 0.3 s of CPU and 1.26x its wall time with a free core (bench/
            # parallel.py --cli, 2026-11-26 15:58 UTC, load 0.9).
            if not decided and meter.seconds() >= SAMPLE_SECONDS and \
                    stats.nodes >= budget:
                decided = True
                backend.start(wait=False)  # the search goes on while they start
                if not backend.running():
                    self._say_cores(backend, whole=True)
                elif WHOLE_FIRST_SECONDS <= 0:
                    time_up.set()
                else:
                    timer.append(threading.Timer(WHOLE_FIRST_SECONDS, time_up.set))
                    timer[0].daemon = True
                    timer[0].start()
            if decided and not backend.running():
                rule(stats)
            if time_up.is_set() and stats.nodes >= budget:
                stop.set()  # (a smaller tree is never split)

        try:
            return whole_within(self.task_function, task, stop, on_step)
        except KeyboardInterrupt:
            stats = SearchStats(engine=self.specs[board].name)
            raise Interrupted(0, 1, SplitCountResult(0, 0, 0.0, stats, done=0,
                                                     total=1)) from None
        finally:
            for t in timer:
                t.cancel()

    @staticmethod
    def try_nodes() -> int:
        """How many nodes a count is tried whole before it is split: :data:`TRY_NODES`
        where workers are forked from this process (``backends.can_fork``: they start in
        milliseconds with the puzzle built, so a split costs little more than its
        subproblems), else :data:`BALANCE_FROM` (a worker from the forkserver spends 0.4-0.6 s
        of CPU importing puzzlebox and building the puzzle again: a smaller count is not
        worth it)."""
        from puzzlebox.parallel.backends import can_fork

        return min(TRY_NODES, BALANCE_FROM) if can_fork() else BALANCE_FROM

    def _say_cores(self, backend: ProcessBackend, whole: bool) -> None:
        """One line, once a run, where fewer workers started than were asked for."""
        started = backend.running()
        if self._said_cores or self.note is None or started >= backend.processes:
            return
        self._said_cores = True
        if whole:
            self.note(f"{self.jobs} processes asked for, but no other core is free now: "
                      "one process counts it")
        else:
            self.note(f"{self.jobs} processes asked for, {started + 1} cores free now: "
                      f"{started + 1} processes, more as cores come free")

    def _rule(self, board: int) -> Callable[[SearchStats], None]:
        """The time rule of a count run whole here, as one process applies it: judged once
        the search has run :data:`JUDGE_AFTER` seconds of CPU unfinished, not before (an
        estimate costs more than a short count)."""
        began = time.thread_time()
        judged = False

        def rule(stats: SearchStats) -> None:
            nonlocal judged
            if not judged and time.thread_time() - began > JUDGE_AFTER:
                judged = True
                puzzle = self.pf.puzzles[board]
                self._judge(board, task_job(puzzle, self.kind, self.specs[board]), None)

        return rule

    def _whole(self, board: int) -> tuple[Any, ...]:
        """The board counted whole by its engine (one that cannot split), in this process."""
        task = self._task(board, ((), ()))
        return run_task(task)[:5]

    def _answers(
        self, todo: list[tuple[int, Task]], done: dict[int, list[Any]], bar: SplitProgress,
        tick: Callable[[], bool] | None = None,
    ) -> Generator[tuple[int, Any], None, None]:
        """The answers to ``todo`` as the workers send them, with ``bar`` shown, each
        subproblem once: one that ran twice (its first worker died after all) is skipped.
        The backend's stream is closed however the caller stops (close this generator).
        ``tick``: called by the local pool's loop while it returns True (:meth:`_judge_later`;
        only a count tried whole first has one, and only a local pool tries one)."""
        backend: Any = self.backend
        results = backend.run(todo) if tick is None else backend.run(todo, tick=tick)
        try:
            with bar:
                for index, answer in results:
                    if index not in done:
                        yield index, answer
        finally:
            results.close()

    # -- enumerating -----------------------------------------------------------------------
    def solution_batches(self, board: int = 0) -> Iterator[list[Solution]]:
        """The solutions of ``board``, one list per subproblem, as subproblems finish.

        A subproblem is recorded as done when the caller comes back for the next list, that
        is after it has written this one. Ctrl-C while the caller writes a list waits until
        the list is recorded (:func:`ctrl_c_deferred`), so a resumed run neither loses nor
        repeats it; a harder stop (SIGKILL) in between makes a resumed run write that list
        again in full, never lose it."""
        puzzle = self.pf.puzzles[board]
        if puzzle.impossibility() is not None:
            return
        subs = self.plan(board)
        done = self._done(board)
        todo = [(i, self._task(board, s)) for i, s in enumerate(subs) if i not in done]
        if not todo:
            return
        already = sum(entry[0] for entry in done.values())
        bar = SplitProgress(self.progress, self._label(board), len(subs), len(done), already)
        try:
            with contextlib.closing(self._answers(todo, done, bar)) as answers:
                for index, answer in answers:
                    n_raw, chosen, nodes, seconds, _engine = answer[:5]
                    with ctrl_c_deferred():
                        yield [puzzle.decode(tuple(c)) for c in chosen]
                        if self.before_record is not None:
                            self.before_record()
                        entry = [n_raw, nodes, round(seconds, 6)]
                        done[index] = entry
                        bar.advance(n_raw)
                        self._record(board, index, entry, answer)
        except KeyboardInterrupt:
            self._save()
            raise Interrupted(len(done), len(subs)) from None

    def solutions(self, board: int = 0) -> Iterator[Solution]:
        """The solutions of ``board`` one at a time (see :meth:`solution_batches`)."""
        for batch in self.solution_batches(board):
            yield from batch

    def already_found(self, board: int = 0) -> int:
        """Solutions of ``board`` that a resumed enumeration wrote before (for numbering)."""
        if self.kind != SOLUTIONS:
            return 0
        return sum(entry[0] for entry in self._done(board).values())

    # -- life ------------------------------------------------------------------------------
    def close(self) -> None:
        if self._backend is not None:
            self._backend.close()
            self._backend = None

    def __enter__(self) -> SplitRun:
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        trace: TracebackType | None,
    ) -> None:
        self.close()
