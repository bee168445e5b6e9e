"""The SAT engine: the cover problem handed to OR-Tools CP-SAT, for one solution of a big,
loose packing where backtracking wanders.

Encoding (generic, nothing about puzzles):

* one Boolean ``x[k]`` per option, fixed to 1 for forced and 0 for excluded options;
* a primary item with bounds ``lo..hi`` is ``lo <= sum(x[k] for k covering it) <= hi``
  (an ``exactly one`` or ``at most one`` constraint when the bounds allow, which CP-SAT
  propagates best);
* a secondary item may be taken once without a colour, or by any number of options that agree
  on its colour: one indicator ``y[c]`` per colour seen on the item, ``x[k] -> y[c]`` for
  each option giving it colour ``c``, and ``at most one`` of the indicators together with the
  uncoloured options. (An option alone in its colour serves as its own indicator.)

Every answer is checked with :meth:`CoverProblem.is_solution` (and against the forced and
excluded options) before it is yielded; an answer that fails is an :class:`EngineError`, never
dropped quietly. Further solutions come from re-solving with a clause that blocks each
solution found, so enumeration is for a few solutions; :meth:`SatEngine.count` counts that way
only up to ``count_cap`` solutions and refuses beyond it (the compiled engine counts).

OR-Tools is the optional extra ``sat`` and is imported only when this engine is built.
"""

from __future__ import annotations

import signal
import threading
import time
from collections.abc import Iterator, Sequence
from typing import Any

import numpy as np

from puzzlebox.cover.problem import NO_COLOR, CoverProblem
from puzzlebox.engine.errors import EngineError
from puzzlebox.engine.memory import check_memory, memory_limit
from puzzlebox.engine.registry import get
from puzzlebox.engine.search import Job, Mode, Step
from puzzlebox.engine.stats import SearchStats
from puzzlebox.extras import install_command

DEFAULT_COUNT_CAP = 1000
# A blocking clause lists every option once: CP-SAT keeps it in the model's proto and again
# in each worker's copy, taken as 16 bytes a literal in all
BYTES_PER_LITERAL = 16
DEFAULT_WORKERS = 8


def missing() -> str:
    """The one line that says OR-Tools is missing, with the command that installs it here."""

    return f"the sat engine needs OR-Tools: {install_command('sat')}"


def sat_available() -> bool:
    """True when OR-Tools can be imported (the ``sat`` extra is installed)."""
    try:
        import ortools.sat.python.cp_model  # noqa: F401
    except ImportError:
        return False
    return True


def _cp_model() -> Any:
    try:
        from ortools.sat.python import cp_model
    except ImportError:
        raise EngineError(missing()) from None
    return cp_model


class SatEngine:
    """Finds solutions of a cover problem with CP-SAT; see the module docstring."""

    name = "sat"

    def __init__(
        self,
        problem: CoverProblem,
        forced: Sequence[int] = (),
        excluded: Sequence[int] = (),
        *,
        seed: int = 0,
        workers: int | None = None,
        time_limit: float | None = None,
        count_cap: int = DEFAULT_COUNT_CAP,
    ) -> None:
        """``workers`` is the size of CP-SAT's portfolio of strategies (default
        :data:`DEFAULT_WORKERS`, even on fewer cores: the variety is what finds packings;
        on 2 cores, 2 workers took 30 times longer on Y pentominoes in 20x20);
        ``time_limit`` (seconds per solve) makes an undecided solve an :class:`EngineError`."""
        self._cp = _cp_model()
        self.problem = problem
        self.forced = tuple(sorted({int(k) for k in forced}))
        self.excluded = frozenset(int(k) for k in excluded)
        self.seed = seed
        self.workers = workers if workers is not None else DEFAULT_WORKERS
        self.time_limit = time_limit
        self.count_cap = count_cap
        self.stats = SearchStats(engine=self.name)
        self.max_memory: int | None = None  # bytes the model may grow to (None: unchecked)
        self.base_memory = 0  # what the model and solver hold before any blocking clause

    # -- the model -------------------------------------------------------------------------
    def _build(self) -> tuple[Any, list[Any]]:
        cp = self._cp
        p = self.problem
        model = cp.CpModel()
        x = [model.NewBoolVar(f"o{k}") for k in range(p.n_options)]
        for k in self.forced:
            model.Add(x[k] == 1)
        for k in self.excluded:
            model.Add(x[k] == 0)
        start = np.asarray(p.start)
        option_of = np.repeat(np.arange(p.n_options), np.diff(start))
        items = np.asarray(p.items)
        colors = np.asarray(p.colors)
        order = np.argsort(items, kind="stable")
        bounds = np.searchsorted(items[order], np.arange(p.n_items + 1))
        for i in range(p.n_items):
            entries = order[bounds[i] : bounds[i + 1]]
            users = option_of[entries].tolist()
            if i < p.n_primary:
                self._primary(model, [x[k] for k in users], int(p.lo[i]), int(p.hi[i]))
            elif users:
                self._secondary(model, x, users, colors[entries].tolist())
        return model, x

    @staticmethod
    def _primary(model: Any, users: list[Any], lo: int, hi: int) -> None:
        if lo > len(users):
            model.AddBoolOr([])  # cannot be met: an empty clause makes the model infeasible
        elif lo == hi == 1:
            model.AddExactlyOne(users)
        elif lo == 0 and hi == 1:
            model.AddAtMostOne(users)
        else:
            if lo > 0:
                model.Add(sum(users) >= lo)
            if hi < len(users):
                model.Add(sum(users) <= hi)

    def _secondary(self, model: Any, x: list[Any], users: list[int], colors: list[int]) -> None:
        plain = [x[k] for k, c in zip(users, colors) if c == NO_COLOR]
        by_color: dict[int, list[int]] = {}
        for k, c in zip(users, colors):
            if c != NO_COLOR:
                by_color.setdefault(c, []).append(k)
        if not plain and len(by_color) <= 1:
            return  # options that all agree on one colour never conflict here
        indicators = []
        for same in by_color.values():
            if len(same) == 1:
                indicators.append(x[same[0]])
                continue
            y = model.NewBoolVar("")
            for k in same:
                model.AddImplication(x[k], y)
            indicators.append(y)
        model.AddAtMostOne(plain + indicators)

    # -- search ----------------------------------------------------------------------------
    def _solver(self) -> Any:
        solver = self._cp.CpSolver()
        solver.parameters.random_seed = self.seed
        solver.parameters.num_workers = self.workers
        if self.time_limit is not None:
            solver.parameters.max_time_in_seconds = self.time_limit
        return solver

    def _check(self, chosen: tuple[int, ...]) -> None:
        ok = (
            self.problem.is_solution(chosen)
            and set(self.forced) <= set(chosen)
            and not self.excluded & set(chosen)
        )
        if not ok:
            raise EngineError("the sat engine's answer failed verification as a cover")

    def solutions(self, limit: int | None = None) -> Iterator[tuple[int, ...]]:
        """Yield solutions one at a time; each later one is found by blocking the earlier."""
        cp = self._cp
        began = time.perf_counter()
        model, x = self._build()
        self.stats.compile_seconds += time.perf_counter() - began
        found = 0
        while limit is None or found < limit:
            solver = self._solver()
            began = time.perf_counter()
            try:
                status = solver.Solve(model)
            finally:
                _restore_sigint()
            self.stats.search_seconds += time.perf_counter() - began
            self.stats.nodes += int(solver.NumBranches())
            if status == cp.INFEASIBLE:
                self.stats.complete = True
                return
            if status == cp.UNKNOWN and self.time_limit is None:
                # CP-SAT catches Ctrl-C itself (``catch_sigint_signal``): the solve stops at
                # once, undecided, and Python never sees the signal. Without a time limit,
                # nothing else stops a solve undecided: it is the user's Ctrl-C (#18)
                raise KeyboardInterrupt
            if status not in (cp.OPTIMAL, cp.FEASIBLE):
                raise EngineError(
                    f"the SAT solver stopped undecided ({solver.StatusName(status)}"
                    + (f", time limit {self.time_limit:g} s)" if self.time_limit else ")")
                )
            chosen = tuple(k for k in range(len(x)) if solver.BooleanValue(x[k]))
            self._check(chosen)
            found += 1
            self.stats.solutions = found
            yield chosen
            # block exactly this set of options: some chosen one out, or some other one in;
            # a clause of every option, so the model grows with each solution (engine/memory.py)
            if self.max_memory is not None:
                grown = self.base_memory + found * len(x) * BYTES_PER_LITERAL
                check_memory(f"the sat engine's model after {found} solutions", grown,
                             self.max_memory)  # fmt: skip
            inside = set(chosen)
            model.AddBoolOr(
                [x[k].Not() for k in chosen] + [x[k] for k in range(len(x)) if k not in inside]
            )

    def count(self) -> int:
        """Count by blocking each solution found: only for small counts (``count_cap``)."""
        n = 0
        for _ in self.solutions(limit=self.count_cap + 1):
            n += 1
        if n > self.count_cap:
            raise EngineError(
                f"the sat engine counts at most {self.count_cap} solutions (one solve each); "
                "this problem has more: count with the compiled engine"
            )
        return n


def _restore_sigint() -> None:
    """Give Ctrl-C back to Python: CP-SAT puts its own SIGINT handler in place for a solve
    and leaves it there, so a later Ctrl-C (in another engine, or at the prompt of a
    notebook) went to it and ended the process silently, status 0."""

    if threading.current_thread() is threading.main_thread():
        signal.signal(signal.SIGINT, signal.getsignal(signal.SIGINT))


class SatSearch:
    """The SAT engine's step-wise search (engine/search.py): one solve per step, whatever
    ``max_nodes`` (CP-SAT cannot stop and resume inside a solve). A count stops with an
    :class:`EngineError` past ``count_cap`` solutions rather than run for ever."""

    def __init__(self, job: Job, **options: Any) -> None:
        self.job = job
        self._engine = SatEngine(job.problem, job.forced, job.excluded,
                                 seed=job.seed or 0, **options)  # fmt: skip

        self._engine.max_memory = memory_limit(job.max_memory)
        self._engine.base_memory = get("sat").memory(job)
        self.stats = self._engine.stats
        self._counting = job.mode is Mode.COUNT
        cap = self._engine.count_cap + 1 if self._counting else None
        limit = job.limit if cap is None or job.limit is None else min(job.limit, cap)
        self._stream = self._engine.solutions(limit)
        self._found = 0
        self._done = False

    def step(self, max_nodes: int) -> Step:
        if self._done:
            return Step(done=True)
        chosen = next(self._stream, None)
        if chosen is None:
            self._done = True
            return Step(done=True)
        self._found += 1
        if self._counting and self._found > self._engine.count_cap:
            raise EngineError(
                f"the sat engine counts at most {self._engine.count_cap} solutions (one solve "
                "each); this problem has more: count with the compiled engine"
            )
        limit = self.job.limit
        self._done = limit is not None and self._found >= limit
        return Step(solutions=[] if self._counting else [chosen], counted=1, done=self._done)


def start(job: Job) -> SatSearch:
    """The SAT engine's search of ``job`` (the registry's ``start``)."""
    return SatSearch(job)
