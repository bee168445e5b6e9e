"""The one place that knows the engines: what each is called, what it can do, which jobs it
takes, how to start it, and which one "auto" means.

An engine is described once, by an :class:`EngineSpec`, and registered with
:func:`register`. The general engines register themselves in ``puzzlebox.engine`` (the
package's ``__init__``, which Python runs before any of its modules: whoever imports this
module has them, and the engine layer never imports the kinds above it); a puzzle
kind registers the solvers that only make sense for it (edge-matching cards, n-queens
bitmasks, the sink search of polyomino boards) from its own module. Those are known by name
before their kind is loaded: the kinds' package (puzzles/__init__.py) declares each with
:func:`declare` and a loader that imports its kind, which :func:`get` and :func:`specs`
call on first use, so that a polyomino command loads no other kind (issue #23) while every
engine is listed, described and found by name as before. The command line's
``--engine`` choices and help, the error for an unknown engine, the ``engine`` field of
``--json`` and the README's table of engines are all read from here.

Modules that import numba or numpy are imported by ``start`` (and the other callables),
not when a spec is registered, and this module imports the memo engine, the restarts and
the part counts where auto chooses or wraps an engine: listing the engines or reading and
showing a file compiles nothing and loads no numpy (issue #23).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

from puzzlebox.engine.errors import EngineDeclined as EngineDeclined  # kept importable here
from puzzlebox.engine.memory import check_memory, memory_limit
from puzzlebox.engine.search import (
    Capability,
    Chain,
    Job,
    Mode,
    Race,
    Search,
    Solution,
    Subproblem,
    count_all,
    each_solution,
)
from puzzlebox.errors import PuzzleboxError

if TYPE_CHECKING:
    from puzzlebox.cover.problem import CoverProblem
    from puzzlebox.engine.tree_estimate import TreeEstimate

AUTO = "auto"
# Knuth's estimate of one subproblem, (forced, excluded) options: EngineSpec.part_sizes
PartSizer = Callable[[Sequence[int], Sequence[int]], "TreeEstimate"]


class UnknownEngine(PuzzleboxError, ValueError):
    """A name that no registered engine has."""


def _takes_any(job: Job) -> str | None:
    return None


def entries(job: Job) -> int:
    """The entries of the job's cover problem: what every option lists, summed."""
    return len(job.problem.arrays.items)


def footprint(per_entry: int, fixed: int = 0) -> Callable[[Job], int]:
    """An engine's memory for a job: ``fixed`` bytes and ``per_entry`` bytes for each entry
    of its cover problem (each engine's figures are measured where it is registered)."""

    def memory(job: Job) -> int:
        return fixed + per_entry * entries(job)

    return memory


# Bytes the compiled engine allocates for a job: tracemalloc's peak over its start and three
# steps, 35.2 MB for pentomino-6x10 (12,336 entries), 47.5 MB for parallelogram-6-rotate
# (202,072), 279.5 MB for parallelogram-7-rotate (3,707,728): 35 MB and 66 bytes an entry.
# The default for an engine that declares nothing.
COMPILED_MEMORY = footprint(66, 35 << 20)


@dataclass(frozen=True)
class EngineSpec:
    """One engine, described once.

    ``accepts(job)`` is None when the engine can run the job, else a one-line reason it
    cannot (shown to a user who named the engine). ``start(job)`` begins the search.
    ``frontier(job, depth)``, for engines that can split, cuts the job's tree at ``depth``
    into subproblems whose solutions partition the job's.
    """

    name: str
    summary: str  # one line: what it is for (--help, the README's table)
    can: frozenset[Capability]
    start: Callable[[Job], Search]
    accepts: Callable[[Job], str | None] = _takes_any
    frontier: Callable[[Job, int], list[Subproblem]] | None = None
    # True when the engine randomises itself from ``job.seed`` (otherwise a seeded job runs
    # it inside randomised restarts, engine/restarts.py)
    seeded: bool = False
    # bytes the engine allocates for a job, estimated from its size before it starts
    # (engine/memory.py: checked against ``job.max_memory``; engines that grow check as they grow)
    memory: Callable[[Job], int] = COMPILED_MEMORY
    # Knuth's plain probes of the job's subproblems on the engine's own tree, its tables
    # built once: ``part_sizes(job, probes, max_seconds, seed)`` is a callable that
    # estimates the subproblem ``(forced, excluded)`` (a split count's order and time rule,
    # parallel/run.py; the first look of a one-process count's time rule, run/limits.py
    # ``own_outlook``). None: the compiled engine's tree stands in.
    part_sizes: Callable[[Job, int, float | None, int], PartSizer] | None = None

    def does(self, capability: Capability) -> bool:
        return capability in self.can


_REGISTRY: dict[str, EngineSpec] = {}
# engines known by name whose spec is registered when their loader runs (a kind's engines:
# the loader imports the kind), and the order of every name, declared or registered
_DECLARED: dict[str, Callable[[], object]] = {}
_ORDER: list[str] = []


def declare(name: str, loader: Callable[[], object]) -> None:
    """Name an engine that ``loader()`` registers (by importing the module that does), so
    that it is listed and found by name without loading that module until it is used."""
    if name == AUTO or name in _DECLARED or name in _REGISTRY:
        raise ValueError(f"engine name {name!r} is taken")
    _DECLARED[name] = loader
    _ORDER.append(name)


def register(spec: EngineSpec) -> EngineSpec:
    """Add an engine (a declared name, or a new one); a name is registered once. The spec
    registered (and returned) starts only a job whose declared memory fits the limit
    (:func:`guarded`)."""
    if spec.name == AUTO or spec.name in _REGISTRY:
        raise ValueError(f"engine name {spec.name!r} is taken")
    spec = replace(spec, start=guarded(spec))
    _REGISTRY[spec.name] = spec
    if spec.name not in _DECLARED:
        _ORDER.append(spec.name)
    return spec


def guarded(spec: EngineSpec) -> Callable[[Job], Search]:
    """``spec.start``, after checking ``spec.memory(job)`` against the job's memory limit:
    every start of a registered engine (named, chosen by auto, wrapped in restarts or races,
    a part of a count) passes here, so no engine allocates past ``--max-memory``."""
    begin = spec.start

    def start(job: Job) -> Search:
        check_memory(f"the {spec.name} engine", spec.memory(job), job.max_memory)
        return begin(job)

    return start


def specs() -> list[EngineSpec]:
    """Every engine, in the order their names were declared or registered (declared ones
    are loaded: the README's table, ``--help``'s descriptions)."""
    return [get(name) for name in _ORDER]


def names(capability: Capability | None = None) -> list[str]:
    """The engine names a user may type (``auto`` first), optionally only those that can
    do ``capability``. The names alone load nothing; a capability loads the declared ones."""
    if capability is None:
        return [AUTO, *_ORDER]
    return [AUTO] + [s.name for s in specs() if s.does(capability)]


def get(name: str) -> EngineSpec:
    """The engine called ``name``, a declared one loaded on first use; :class:`UnknownEngine`
    names the known ones."""
    spec = _REGISTRY.get(name)
    if spec is not None:
        return spec
    if name not in _DECLARED:
        known = ", ".join(names())
        raise UnknownEngine(f"unknown engine {name!r} (known: {known})")
    _DECLARED[name]()
    if name not in _REGISTRY:
        raise RuntimeError(f"loading the {name} engine's module did not register it")
    return _REGISTRY[name]


# -- the choice of "auto" ----------------------------------------------------------------------
#
# Every rule that picks an engine is here, each with the measurement behind it.
#
# * Counting a whole puzzle: the memo engine (a sweep of the board, engine/memo.py) when the
#   puzzle has a sweep plan and memo.auto_reason finds no reason against it: the worst case
#   of states is small, or it is not but no piece has a bounded count (dominoes, squares of
#   any number). The sweep then runs with at most AUTO_MEMO_STATES states in a layer (the
#   widest layer of the Aztec diamond of order 10 holds 65,246), and a sweep that outgrows
#   them hands the count to the enumerating engine (the states visited are the price).
#   The worst-case bound that decided this before turned away the Aztec diamond of order 10
#   (bound 2^20 states, 3.1 M states visited in all: 0.85 s) and the 10x10 square tiled by
#   squares (bound 2^99, 161 k states: 0.08 s), which enumeration cannot finish in 300 s
#   (bench/engines.py, bench/RESULTS.md).
#   Before the sweep's tables are built, its first positions are swept alone
#   (memo.outgrows_at_start: the moves that start there, no tables): a board whose first
#   cross-sections already hold more states than the cap goes to enumeration at once, where
#   the time rule judges it (a 100x100 board of dominoes: the Fibonacci-many profiles of its
#   first column pass the cap within 30 positions; refused as hopeless in seconds instead of
#   after its eight sweeps were built, #22).
# * Counting a whole puzzle whose pieces are each used at most once (memo.auto_reason says
#   enumeration is quick, which is true of the small ones), the memo engine all the same when
#   the enumeration's tree is large: at least MEMO_MIN_PIECES pieces (more than the twelve
#   pentominoes, whose counts never probe: Knuth's probes load numba's kernels, 0.6 s of CPU,
#   more than the bitboard count of 6x10 with the C kernels, 0.8 s for the whole process),
#   Knuth's estimate of the problem as built, from MEMO_PROBES probes (0.03-0.09 s of CPU
#   on the pentomino boards), above MEMO_TREE_NODES, and the sweep's keys fit the array
#   layer (62 bits). The sweep then holds as many states as the memory limit allows (the
#   memo engine's estimate of a state's bytes) and hands the count to enumeration past it.
#   Measured (bench/RESULTS.md, "Item 4 again", whole-process CPU): the 18 one-sided
#   pentominoes in 5x18, tree 4.9e9 nodes, memo 12.5 s where the bitboard engine takes
#   about 813 s (projected); the 12 pentominoes' trees are 6.6e5 (4x15) to 2.0e7 (the 3x20
#   tube) nodes, where the bitboard engine is quick (6x10: 0.78 s, memo 1.15-1.28 s), so
#   they stay with it. Only a narrow sweep: its window (the most positions one option spans
#   in the sweep's order, memo.sweep_window) at most MEMO_MAX_WINDOW. Measured on the 2 GB
#   default: the 5x18 strip's window is 21 (widest layer 8.4 M states); the same 18 pieces
#   in 6x15 (window 25) and 9x10 pass the 2 GB (docs/hard-instances.md), and the Bedlam
#   cube's 13 pieces (window 41) reached 21.5 M states at position 7 of 64 before handing
#   over, its sweep's CPU lost (found by the checkpoint tests on bedlam-cube): these stay
#   with enumeration.
# * Then an engine that counts distinct solutions itself (a kind's solver, such as the
#   queens bitmask) when it accepts the job; otherwise the bitboard engine for a tiling of
#   a graph it takes, else the compiled engine. The queens bitmask takes every queens
#   variant since #38 (holes and givens whatever symmetry they keep, the torus): the
#   compiled engine lost to Knuth's DLX2 there (many secondary items of few options: the
#   diagonals), and the variants paid it. Measured, whole process, interleaved with DLX2
#   on the same cover problems (bench/queens_dlx.py, bench/RESULTS.md "Queens variants
#   against DLX2", load 4-6, CPU seconds): the 17-torus 6.0 s on the compiled engine
#   (measured alone, load 1.6), DLX2 2.5 s, the bitmask 0.15 s; the 19-torus DLX2 42 s, the
#   bitmask 1.7 s; the 17-torus with 6 holes DLX2 1.7 s, the bitmask 0.17 s; 15 queens with
#   10 holes DLX2 3.3 s, the bitmask 0.80 s; 17 queens with 2 givens DLX2 1.04 s, the
#   bitmask 0.42 s. Below 0.1 s of DLX2 Python's start-up (0.09 s) loses to any C program.
# * The first few solutions (limit <= FIRST_FEW) of a big problem (SAT_MIN_OPTIONS options)
#   are first probed (engine/estimate.py): when the estimated nodes per solution exceed
#   SAT_NODES_PER_SOLUTION (an hour of backtracking), a polyomino board that the sink search
#   takes goes to it (parallelogram-7: about 90 s, CP-SAT nothing in minutes), else CP-SAT
#   when installed. Probes rarely reach a solution of a tight packing (none in half a second
#   for parallelogram-6, which backtracking solves in 47,504 nodes), hence the size threshold.
#   Measurements: bench/RESULTS.md ("Hard instances"), docs/hard-instances.md.
# * Otherwise a kind's solver for its own puzzles (edge-matching cards), raced against the
#   general engine for the first few solutions (the macmahon-4x6 bench instance: edges 100+ s,
#   compiled 0.05 s), then bitboard or compiled; the first few solutions hedged by
#   randomised restarts (engine/restarts.py: 60-queens 15+ s -> 0.5 s), a seeded search run
#   inside restarts.

FIRST_FEW = 3
SAT_MIN_OPTIONS = 20_000
SAT_NODES_PER_SOLUTION = 3.6e10
PROBE_SECONDS = 0.5
AUTO_MEMO_STATES = 1 << 17
MEMO_MIN_PIECES = 13
MEMO_PROBES = 100
MEMO_TREE_NODES = 1e8
MEMO_MAX_WINDOW = 22

GENERAL = ("bitboard", "compiled")  # the general engines, fastest first where they accept
SPECIALISTS = ("edges", "queens-bitmask")  # kinds' solvers: preferred where they accept
LOCAL_SEARCH = "sink"  # a kind's local search for one solution where backtracking is hopeless


def nodes_per_solution(job: Job, seconds: float = PROBE_SECONDS) -> float:
    """Estimated backtracking nodes per solution (infinite when no probe found a solution)."""
    from puzzlebox.engine.estimate import estimate_tree

    estimate = estimate_tree(job.problem, probes=10_000, seed=0, forced=job.forced,
                             excluded=job.excluded, max_seconds=seconds)  # fmt: skip
    if estimate.nodes == 0:
        return 0.0  # the engine proves there is nothing to search
    if estimate.solutions <= 0:
        return float("inf")
    return estimate.nodes / estimate.solutions


def worth_probing(job: Job) -> bool:
    """Whether the search is for the first few solutions of a big problem: the only kind
    that may be hopeless for backtracking, and the only kind worth the probes' time."""
    return (
        job.mode is Mode.SOLUTIONS
        and job.limit is not None
        and job.limit <= FIRST_FEW
        and job.problem.n_options >= SAT_MIN_OPTIONS
    )


def backtracking_hopeless(job: Job) -> bool:
    """Whether a search for the first few solutions of ``job`` is beyond backtracking: the
    estimated nodes per solution exceed about an hour of search."""
    return worth_probing(job) and nodes_per_solution(job) > SAT_NODES_PER_SOLUTION


def _takes(name: str, job: Job) -> EngineSpec | None:
    """The engine ``name`` when it accepts ``job``. A declared engine not loaded yet is
    passed over for a puzzle's job without loading it: its kind is not loaded, so the puzzle
    is of another kind, and a kind's engine takes its own kind's puzzles only (edges and sink
    by class, queens-bitmask by the n-queens problem's items, which no other kind builds).
    A bare cover problem's job (no puzzle) loads it and asks, as before kinds loaded lazily."""
    spec = _REGISTRY.get(name)
    if spec is None and name in _DECLARED and job.puzzle is None:
        spec = get(name)
    return spec if spec is not None and spec.accepts(job) is None else None


def general(job: Job) -> EngineSpec:
    """The general engine for ``job``: bitboard where it accepts, else compiled."""
    for name in GENERAL:
        spec = _takes(name, job)
        if spec is not None:
            return spec
    return get("compiled")


def choose(job: Job) -> EngineSpec:
    """The engine "auto" means for ``job`` (the rules above). The spec returned may be a
    registered one or one of them wrapped (hedged, restarted, memo with its way out, the
    sink search with backtracking after it); its name is the engine that does the work."""
    if job.mode is Mode.COUNT:
        from puzzlebox.engine.memo import auto_reason

        memo = _REGISTRY.get("memo")
        if memo is not None and auto_reason(job) is None:
            if not sweep_outgrown(job):
                return _memo_or(memo, job, min(AUTO_MEMO_STATES, _states(job)))
        elif memo is not None and _long_once_each(job):
            return _memo_or(memo, job, _states(job))
        for name in SPECIALISTS:
            spec = _takes(name, job)
            if spec is not None and spec.does(Capability.DISTINCT):
                return spec
        return general(job)
    if worth_probing(job):
        sink = _takes(LOCAL_SEARCH, job) if job.limit == 1 else None
        sat = _takes("sat", job)
        if (sink is not None or sat is not None) and backtracking_hopeless(job):
            if sink is None:
                assert sat is not None
                return sat
            # nothing found by the sink search: backtracking (or SAT) gets its turn
            return _then(sink, sat if sat is not None else _plain(job))
    for name in SPECIALISTS:
        spec = _takes(name, job)
        if spec is not None and spec.does(Capability.SOLVE):
            if job.seed is not None:
                return seeded(spec)
            if job.limit is not None and job.limit <= FIRST_FEW:
                return _race(_plain(job), spec)
            return spec
    return _plain(job)


def choose_part(job: Job) -> EngineSpec:
    """The engine "auto" means for one part of a count cut by symmetry (engine/parts.py):
    :func:`choose`, except that a part is a plain count of the restricted problem, so the
    engines that count a whole puzzle up to symmetry themselves (memo) give way to the
    general engine."""
    spec = choose(job)
    return general(job) if spec.does(Capability.DISTINCT) else spec


def _race(first: EngineSpec, second: EngineSpec) -> EngineSpec:
    """Both searches in turns of equal CPU time until one finds a solution (or proves there
    is none), then that one alone. A kind's solver is not always the faster: MacMahon's 24
    squares in 4x6 with a border take the edges solver more than 100 s to a first solution
    and the compiled engine 0.05 s, while the edges solver wins on the catalog's cards."""

    def start(job: Job) -> Search:
        both = first.memory(job) + second.memory(job)  # both are held while they race
        check_memory(f"the {first.name} and {second.name} engines racing", both,
                     job.max_memory)  # fmt: skip
        return Race([lambda: first.start(job), lambda: second.start(job)])

    return replace(first, start=start, memory=lambda job: first.memory(job) + second.memory(job))


def _plain(job: Job) -> EngineSpec:
    """The general engine for a search of solutions: seeded inside restarts, the first few
    hedged by restarts."""
    spec = general(job)
    if job.seed is not None:
        return seeded(spec)
    if job.limit is not None and job.limit <= FIRST_FEW:
        return _hedged(spec)
    return spec


def seeded(spec: EngineSpec) -> EngineSpec:
    """``spec`` randomised by ``job.seed``: itself when it takes the seed, else inside
    randomised restarts."""
    from puzzlebox.engine.restarts import RestartSearch

    if spec.seeded:
        return spec

    def start(job: Job) -> Search:
        return RestartSearch(replace(job, seed=None), spec.start, spec.name, seed=job.seed or 0)

    return replace(spec, start=start)


def _hedged(spec: EngineSpec) -> EngineSpec:
    from puzzlebox.engine.restarts import HedgedSearch

    def start(job: Job) -> Search:
        return HedgedSearch(job, spec.start, spec.name)

    return replace(spec, start=start)


def _then(first: EngineSpec, then: EngineSpec) -> EngineSpec:
    """``first`` (an incomplete search); if it ends without a solution, ``then`` searches."""

    def start(job: Job) -> Search:
        return Chain([lambda: first.start(job), lambda: then.start(job)])

    return replace(first, start=start)


def sweep_outgrown(job: Job) -> bool:
    """Whether auto would sweep the job but its first positions alone outgrow auto's cap
    (memo.outgrows_at_start): then it enumerates, and a run's time rule estimates that
    enumeration before building anything more (run/limits.py)."""
    from puzzlebox.engine.memo import auto_reason, outgrows_at_start

    if _REGISTRY.get("memo") is None or auto_reason(job) is not None:
        return False
    cap = min(AUTO_MEMO_STATES, _states(job))
    return _asked(job, ("start", cap), lambda: outgrows_at_start(job, cap)) is not None


def _long_once_each(job: Job) -> bool:
    """Whether a count of pieces each used at most once is one to sweep after all: at least
    MEMO_MIN_PIECES of them, and the enumeration's tree large."""
    from puzzlebox.engine.memo import once_each_pieces, sweep_window

    pieces = once_each_pieces(job)
    if pieces is None or pieces < MEMO_MIN_PIECES or sweep_window(job) > MEMO_MAX_WINDOW:
        return False
    return bool(_asked(job, ("long",), lambda: enumeration_is_long(job)))


# The answers of the measured rules for the last few problems: a run asks for the choice of
# one job two or three times (its time rule, its search), and each answer costs a probe.
_ANSWERS: list[tuple[object, tuple[object, ...], object]] = []


def _asked(job: Job, question: tuple[object, ...], answer: Callable[[], object]) -> object:
    """``answer()`` for the job's problem, measured once per problem object."""
    for problem, asked, known in _ANSWERS:
        if problem is job.problem and asked == question:
            return known
    known = answer()
    _ANSWERS.append((job.problem, question, known))
    del _ANSWERS[:-4]
    return known


def enumeration_is_long(job: Job) -> bool:
    """Whether Knuth's estimate of the job's tree (the problem as built, MEMO_PROBES probes,
    at most PROBE_SECONDS of CPU) exceeds MEMO_TREE_NODES: enumeration would take minutes."""
    from puzzlebox.engine.estimate import estimate_tree

    estimate = estimate_tree(job.problem, probes=MEMO_PROBES, seed=0, max_seconds=PROBE_SECONDS,
                             clock=time.process_time)  # fmt: skip
    return bool(estimate.nodes > MEMO_TREE_NODES)


def _memo_or(memo: EngineSpec, job: Job, cap: int) -> EngineSpec:
    """The memo engine with a cap of ``cap`` states, handing over to enumeration past it."""
    from puzzlebox.engine.memo import MemoSearch

    def start(job: Job) -> Search:
        return MemoSearch(job, cap, fallback=lambda: counting_fallback(job))

    return replace(memo, start=start)


def _states(job: Job) -> int:
    from puzzlebox.engine.memo import BYTES_PER_STATE

    return max(1, memory_limit(job.max_memory) // BYTES_PER_STATE)


def counting_fallback(job: Job) -> Search:
    """The count of a whole puzzle by enumeration, distinct solutions by its symmetry
    breaking (what "auto" does when no engine counts distinct solutions itself), within the
    job's memory limit."""
    from puzzlebox.engine.parts import count_puzzle_search

    return count_puzzle_search(job.puzzle, None, max_memory=job.max_memory)


def resolve(job: Job, engine: str = AUTO) -> EngineSpec:
    """The engine that runs ``job``: :func:`choose` for ``auto``, else the one named, which
    must be able to take it (:class:`EngineDeclined` says why not); a seeded job is
    randomised (:func:`seeded`)."""
    if engine == AUTO:
        return choose(job)
    spec = get(engine)
    if job.mode is Mode.COUNT and not spec.does(Capability.COUNT):
        raise EngineDeclined(f"the {spec.name} engine does not count: use 'solve'")
    if job.mode is Mode.SOLUTIONS and not spec.does(Capability.SOLVE):
        raise EngineDeclined(f"the {spec.name} engine only counts: use 'count'")
    reason = spec.accepts(job)
    if reason is not None:
        raise EngineDeclined(reason)
    if job.seed is not None and job.mode is Mode.SOLUTIONS:
        spec = seeded(spec)
    return spec


def start(job: Job, engine: str = AUTO) -> tuple[EngineSpec, Search]:
    """:func:`resolve` the engine and start its search of ``job``."""
    spec = resolve(job, engine)
    return spec, spec.start(job)


def solve(
    problem: CoverProblem,
    engine: str = AUTO,
    *,
    limit: int | None = None,
    forced: Sequence[int] = (),
    excluded: Sequence[int] = (),
    seed: int | None = None,
) -> Iterator[Solution]:
    """The solutions of a bare cover problem (sorted option tuples), lazily, from the engine
    named; ``forced`` options are in each and ``excluded`` ones in none."""
    job = Job(problem, Mode.SOLUTIONS, tuple(forced), tuple(excluded), limit, seed)
    _, search = start(job, engine)
    return each_solution(search)


def count(
    problem: CoverProblem,
    engine: str = AUTO,
    *,
    forced: Sequence[int] = (),
    excluded: Sequence[int] = (),
) -> int:
    """The number of solutions of a bare cover problem, counted by the engine named."""
    _, search = start(Job(problem, Mode.COUNT, tuple(forced), tuple(excluded)), engine)
    return count_all(search)[0]
