"""Randomised search with restarts, for any engine, without touching its kernel.

A backtracking search for one solution can spend hours in one bad early choice (heavy-tailed
run times). Shuffling the order of the options and of the items changes which option is tried
first and how ties between equally constrained items are broken; restarting with a fresh
shuffle after a node budget, with budgets growing along Luby's sequence (1, 1, 2, 1, 1, 2,
4, ...) times a base, bounds the loss to a logarithmic factor of the best fixed budget while
escaping the heavy tail.

The shuffle is a relabelling of the cover problem: :func:`permuted` builds the same problem
with options and items renumbered, any engine searches it, and answers are mapped back to
the original option numbers (and checked with ``is_solution``). Both searches here are plain
loops over the inner engine's ``step`` (engine/search.py): a budget is a number of nodes
asked of it, and a run that exhausts its tree without a solution proves there is none.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

from puzzlebox.cover.problem import CoverProblem
from puzzlebox.engine.errors import EngineError
from puzzlebox.engine.search import Job, Search, Solution, Step
from puzzlebox.engine.stats import SearchStats

if TYPE_CHECKING:
    import numpy as np

DEFAULT_BASE_BUDGET = 20_000  # nodes in the first run; Luby multiplies it


def luby(i: int) -> int:
    """The ``i``-th term (from 1) of Luby's sequence: 1, 1, 2, 1, 1, 2, 4, 1, 1, 2, ..."""
    if i < 1:
        raise ValueError("Luby's sequence starts at 1")
    k = 1
    while (1 << k) - 1 < i:
        k += 1
    while (1 << k) - 1 != i:
        # i lies strictly inside the block of length 2^k - 1: recurse on its position
        i -= (1 << (k - 1)) - 1
        k = 1
        while (1 << k) - 1 < i:
            k += 1
    return 1 << (k - 1)


@dataclass(frozen=True)
class Relabelling:
    """A shuffled copy of a problem and the way back: ``option_of[new] = old``."""

    problem: CoverProblem
    option_of: np.ndarray
    new_option: np.ndarray  # inverse of option_of

    def back(self, chosen: Sequence[int]) -> tuple[int, ...]:
        return tuple(sorted(int(self.option_of[k]) for k in chosen))

    def forward(self, chosen: Sequence[int]) -> tuple[int, ...]:
        return tuple(sorted(int(self.new_option[k]) for k in chosen))


def permuted(problem: CoverProblem, rng: np.random.Generator) -> Relabelling:
    """The same problem with options and items (primary among primary, secondary among
    secondary) in random order; colours and bounds go with their items."""
    import numpy as np

    n_options, n_primary, n_items = problem.n_options, problem.n_primary, problem.n_items
    option_of = rng.permutation(n_options)
    m = problem.n_graph  # graph vertices stay the first primary items
    item_order = np.concatenate(
        [
            rng.permutation(m),
            m + rng.permutation(n_primary - m),
            n_primary + rng.permutation(n_items - n_primary),
        ]
    ).astype(np.int64)
    new_item = np.empty(n_items, dtype=np.int64)
    new_item[item_order] = np.arange(n_items)
    adj_start, adj_items = _permuted_graph(problem, item_order, new_item)
    start = np.asarray(problem.start)
    lengths = np.diff(start)[option_of]
    new_start = np.zeros(n_options + 1, dtype=np.int64)
    np.cumsum(lengths, out=new_start[1:])
    # entry j of the new arrays comes from entry take[j] of the old ones
    take = np.repeat(start[option_of] - new_start[:-1], lengths) + np.arange(new_start[-1])
    shuffled = CoverProblem(
        item_names=tuple(problem.item_names[i] for i in item_order),
        n_primary=n_primary,
        lo=np.asarray(problem.lo)[item_order[:n_primary]].copy(),
        hi=np.asarray(problem.hi)[item_order[:n_primary]].copy(),
        start=new_start,
        items=new_item[np.asarray(problem.items)[take]],
        colors=np.asarray(problem.colors)[take].copy(),
        labels=tuple(problem.labels[k] for k in option_of),
        adj_start=adj_start,
        adj_items=adj_items,
    )
    new_option = np.empty(n_options, dtype=np.int64)
    new_option[option_of] = np.arange(n_options)
    return Relabelling(shuffled, option_of, new_option)


def _permuted_graph(
    problem: CoverProblem, item_order: np.ndarray, new_item: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """The problem's optional cell graph with its vertices renumbered like the items."""
    import numpy as np

    m = problem.n_graph
    if m == 0:
        return np.asarray(problem.adj_start).copy(), np.asarray(problem.adj_items).copy()
    a, v = np.asarray(problem.adj_start), np.asarray(problem.adj_items)
    start = [0]
    flat: list[int] = []
    for vertex in item_order[:m]:
        flat.extend(new_item[v[a[vertex] : a[vertex + 1]]].tolist())
        start.append(len(flat))
    return np.array(start, dtype=np.int64), np.array(flat, dtype=np.int64)


Start = Callable[[Job], Search]  # an engine's start (EngineSpec.start)


class _LazyRng:
    """numpy's generator for ``seed``, made when a shuffled run first needs it: importing
    numpy costs 0.14-0.27 s of CPU and numpy.random 20 ms more, most of a small puzzle's
    whole run (#23), and a hedged search that finds its answer within its head start never
    shuffles."""

    def __init__(self, seed: int) -> None:
        self.seed = seed
        self._generator: np.random.Generator | None = None

    @property
    def generator(self) -> np.random.Generator:
        if self._generator is None:
            import numpy as np

            self._generator = np.random.default_rng(self.seed)
        return self._generator


class _Run:
    """One shuffled run: the inner search of a relabelled copy of the job."""

    def __init__(self, job: Job, start: Start, rng: _LazyRng, budget: int) -> None:
        self.relabelled = permuted(job.problem, rng.generator)
        self.original = job.problem
        self.search = start(
            replace(
                job,
                problem=self.relabelled.problem,
                forced=self.relabelled.forward(job.forced),
                excluded=self.relabelled.forward(job.excluded),
                seed=None,
                puzzle=None,
            )
        )
        self.budget = budget
        self.found = 0

    @property
    def nodes(self) -> int:
        return self.search.stats.nodes

    def step(self, max_nodes: int, budgeted: bool) -> tuple[list[Solution], bool]:
        """Advance the run (to its budget at most while it has found nothing); its solutions
        in original option numbers, each verified, and whether its tree is exhausted."""
        if budgeted and not self.found:
            max_nodes = max(1, min(max_nodes, self.budget - self.nodes))
        step = self.search.step(max_nodes)
        back = [self.relabelled.back(chosen) for chosen in step.solutions]
        for original in back:
            if not self.original.is_solution(original):
                raise EngineError("a shuffled run's answer failed verification")
        self.found += len(back)
        return back, step.done

    def spent(self) -> bool:
        """Whether the run used its budget without finding a solution."""
        return not self.found and self.nodes >= self.budget


class RestartSearch:
    """Randomised restarts around another engine's search (``start``, by default whatever
    the caller chose), step-wise.

    Runs restart until one finds a first solution within its budget; that run then goes on
    without a budget for the rest of ``job.limit``. ``max_restarts`` bounds the number of
    budgeted runs (None: no bound; the last run is then unbudgeted, so the search stays
    complete). ``max_nodes`` instead gives up once the runs have used that many nodes in
    all: the search then ends with ``stats.complete`` False and ``gave_up`` True, which
    says "not found", not "none exists".
    """

    name = "restarts"

    def __init__(
        self,
        job: Job,
        start: Start,
        inner: str,
        *,
        seed: int = 0,
        base_budget: int = DEFAULT_BASE_BUDGET,
        max_restarts: int | None = None,
        max_nodes: int | None = None,
    ) -> None:
        if base_budget < 1:
            raise ValueError("base_budget must be at least 1")
        self.job = job
        self._start = start
        self.base_budget = base_budget
        self.max_restarts = max_restarts
        self.max_nodes = max_nodes
        self.restarts = 0  # runs abandoned at their budget
        self.gave_up = False  # True when max_nodes ended the search
        self.stats = SearchStats(engine=f"{self.name}({inner})")
        self._rng = _LazyRng(seed)
        self._runs = 0
        self._run: _Run | None = None
        self._budgeted = True
        self._before = 0  # nodes of the runs before the current one
        self._found = 0
        self._done = job.limit is not None and job.limit <= 0

    def step(self, max_nodes: int) -> Step:
        if self._done:
            return Step(done=True)
        if self._run is None:
            self._runs += 1
            self._budgeted = (
                self.max_nodes is not None
                or self.max_restarts is None
                or self._runs <= self.max_restarts
            )
            budget = self.base_budget * luby(self._runs)
            if self.max_nodes is not None:
                left = self.max_nodes - self.stats.nodes
                if left <= 0:
                    self.gave_up = self._done = True
                    return Step(done=True)
                budget = min(budget, left)
            self._run = _Run(self.job, self._start, self._rng, budget)
        run = self._run
        found, exhausted = run.step(max_nodes, self._budgeted)
        limit = self.job.limit
        if limit is not None:
            found = found[: limit - self._found]
        self._found += len(found)
        self.stats.solutions = self._found
        self.stats.nodes = self._before + run.nodes
        if exhausted or (limit is not None and self._found >= limit):
            self.stats.complete = run.search.stats.complete
            self._done = True
        elif self._budgeted and run.spent():
            self.restarts += 1
            self._before = self.stats.nodes
            self._run = None
        return Step(solutions=found, counted=len(found), done=self._done)


HEAD_START = 1 << 20  # nodes the plain search runs alone before restarts share its time
_SLICE = 1 << 18  # nodes of the plain search between turns of the restarts


class HedgedSearch:
    """The plain search for the first few solutions, hedged against a heavy tail.

    The plain search runs alone for ``head_start`` nodes, so a puzzle it solves quickly gets
    the same answer as ever; after that, shuffled runs with Luby budgets (as in
    :class:`RestartSearch`, from a fixed seed, so the answer is reproducible) get as many
    nodes as the plain search has used beyond its head start, in turns between its slices
    of ``_SLICE`` nodes. Whichever finds a solution first supplies the rest of the limit too
    (a slice's solutions wait until the runs have had their turn). The plain search is
    resumed, never restarted, so proving that there is no solution costs at most about
    twice a plain search; and a shuffled run that exhausts its tree proves it as well.
    Measured: 60-queens, which the plain compiled engine did not solve in 15 s, takes about
    half a second this way (bench/hard.py).
    """

    name = "hedged"

    def __init__(
        self,
        job: Job,
        start: Start,
        inner: str,
        *,
        seed: int = 0,
        head_start: int = HEAD_START,
        base_budget: int = DEFAULT_BASE_BUDGET,
    ) -> None:
        self.job = job
        self.inner = inner
        self._start = start
        self.head_start = head_start
        self.base_budget = base_budget
        self.restarts = 0  # shuffled runs started
        self.stats = SearchStats(engine=inner)
        self._plain = start(job)
        self._rng = _LazyRng(seed)  # most hedged searches end before any shuffled run
        self._spent = 0  # nodes of the shuffled runs that ended
        self._run: _Run | None = None  # the shuffled run having its turn
        self._hit: _Run | None = None  # the shuffled run that found a solution
        self._pending: list[Solution] = []  # the plain search's last slice's solutions
        self._found = 0
        self._done = job.limit is not None and job.limit <= 0

    def _behind(self) -> bool:
        return self._spent < self._plain.stats.nodes - self.head_start

    def step(self, max_nodes: int) -> Step:
        if self._done:
            return Step(done=True)
        found: list[Solution] = []
        if self._hit is not None:
            found, exhausted = self._hit.step(max_nodes, budgeted=False)
            found = self._settle(found, exhausted, self._hit.search.stats.complete)
        elif self._run is not None or self._behind():
            if self._run is None:
                self.restarts += 1
                budget = self.base_budget * luby(self.restarts)
                self._run = _Run(self.job, self._start, self._rng, budget)
            run = self._run
            found, exhausted = run.step(max_nodes, budgeted=True)
            if found or exhausted:
                self._hit, self._run, self._pending = run, None, []
                self.stats.engine = f"restarts({self.inner})"
                found = self._settle(found, exhausted, True)
            elif run.spent():
                self._spent += run.nodes
                self._run = None
        elif self._pending:
            found, self._pending = self._pending, []
            found = self._settle(found, self._plain_done, self._plain.stats.complete)
        else:
            step = self._plain.step(min(max_nodes, _SLICE))
            self._plain_done = step.done
            if self._behind():
                self._pending = step.solutions  # the runs have their turn first
            else:
                found = self._settle(step.solutions, step.done, self._plain.stats.complete)
        running = self._hit or self._run
        self.stats.nodes = (
            self._plain.stats.nodes + self._spent + (running.nodes if running else 0)
        )
        self.stats.solutions = self._found
        return Step(solutions=found, counted=len(found), done=self._done)

    _plain_done = False

    def _settle(self, found: list[Solution], exhausted: bool, complete: bool) -> list[Solution]:
        """Take ``found`` (up to the limit) and end the search when it is over."""
        limit = self.job.limit
        if limit is not None:
            found = found[: limit - self._found]
        self._found += len(found)
        if exhausted or (limit is not None and self._found >= limit):
            self._done = True
            self.stats.complete = complete if exhausted else False
        return found
