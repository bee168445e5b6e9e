"""Randomised search with restarts, for any engine, without touching its kernel.

A backtracking search for one solution can spend hours in one bad early choice (heavy-tailed
run times). Shuffling the order of the options and of the items changes which option is tried
first and how ties between equally constrained items are broken; restarting with a fresh
shuffle after a node budget, with budgets growing along Luby's sequence (1, 1, 2, 1, 1, 2,
4, ...) times a base, bounds the loss to a logarithmic factor of the best fixed budget while
escaping the heavy tail.

The shuffle is a relabelling of the cover problem: :func:`permuted` builds the same problem
with options and items renumbered, any engine searches it, and answers are mapped back to
the original option numbers (and checked with ``is_solution``). Budgets need an engine whose
``solutions`` reports progress (the compiled engine); others get one shuffled run, no budget.
A run that exhausts its tree without a solution proves there is none, and the search ends.
"""

from __future__ import annotations

import inspect
import itertools
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

from puzzlebox.cover.problem import CoverProblem
from puzzlebox.engine.errors import EngineError
from puzzlebox.engine.stats import SearchStats

if TYPE_CHECKING:
    from puzzlebox.engine import Engine

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


class _BudgetSpent(Exception):
    """Raised from a progress callback to stop a run that used up its node budget."""


class RestartEngine:
    """Randomised restarts around another engine (by default the compiled one; "auto" picks
    as :func:`puzzlebox.engine.make_engine` does).

    ``solutions(limit)`` restarts until a run finds a first solution within its budget, then
    lets that run go on without a budget for the rest of ``limit``. ``max_restarts`` bounds
    the number of budgeted runs (None: no bound; the last run is then unbudgeted, so the
    search stays complete). ``max_nodes`` instead gives up once the runs have used that many
    nodes in all: the search then ends with ``stats.complete`` False and ``gave_up`` True,
    which says "not found", not "none exists".
    """

    name = "restarts"

    def __init__(
        self,
        problem: CoverProblem,
        forced: Sequence[int] = (),
        excluded: Sequence[int] = (),
        *,
        inner: str = "compiled",
        seed: int = 0,
        base_budget: int = DEFAULT_BASE_BUDGET,
        max_restarts: int | None = None,
        max_nodes: int | None = None,
    ) -> None:
        if base_budget < 1:
            raise ValueError("base_budget must be at least 1")
        self.problem = problem
        self.forced = tuple(forced)
        self.excluded = tuple(excluded)
        self.inner = inner
        self.seed = seed
        self.base_budget = base_budget
        self.max_restarts = max_restarts
        self.max_nodes = max_nodes
        self.restarts = 0  # runs abandoned at their budget
        self.gave_up = False  # True when max_nodes ended the search
        self.stats = SearchStats(engine=f"{self.name}({inner})")

    def _engine(self, relabelled: Relabelling) -> Engine:
        """The inner engine itself (not wrapped for a progress display: this engine reports)."""
        from puzzlebox import engine as engines

        name = engines.auto_engine(relabelled.problem) if self.inner == "auto" else self.inner
        try:
            factory = engines.ENGINES[name]
        except KeyError:
            raise ValueError(f"unknown engine {self.inner!r}") from None
        return factory(
            relabelled.problem,
            forced=relabelled.forward(self.forced),
            excluded=relabelled.forward(self.excluded),
        )

    def solutions(
        self, limit: int | None = None, progress: Callable[[SearchStats], None] | None = None
    ) -> Iterator[tuple[int, ...]]:
        """Yield up to ``limit`` solutions (original option numbers), each verified;
        ``progress`` hears the nodes of all runs together."""
        rng = np.random.default_rng(self.seed)
        found = 0
        for run in itertools.count(1):
            relabelled = permuted(self.problem, rng)
            engine = self._engine(relabelled)
            budgeted = "progress" in inspect.signature(engine.solutions).parameters and (
                self.max_nodes is not None
                or self.max_restarts is None
                or run <= self.max_restarts
            )
            budget = self.base_budget * luby(run)
            if self.max_nodes is not None:
                left = self.max_nodes - self.stats.nodes
                if left <= 0:
                    self.gave_up = True
                    return
                budget = min(budget, left)
            nodes_before = self.stats.nodes

            def spend(stats: SearchStats, budget: int = budget, before: int = nodes_before) -> None:
                if progress is not None:
                    self.stats.nodes = before + stats.nodes
                    progress(self.stats)
                if stats.solutions == 0 and stats.nodes >= budget:
                    raise _BudgetSpent

            if budgeted and hasattr(engine, "node_budget"):
                engine.node_budget = min(engine.node_budget, budget)  # report at the budget
            stream = (
                engine.solutions(limit, progress=spend)  # type: ignore[call-arg]
                if budgeted
                else engine.solutions(limit)
            )
            try:
                for chosen in stream:
                    original = relabelled.back(chosen)
                    if not self.problem.is_solution(original):
                        raise EngineError("a shuffled run's answer failed verification")
                    found += 1
                    self.stats.solutions = found
                    self.stats.nodes = nodes_before + engine.stats.nodes
                    yield original
                    if limit is not None and found >= limit:
                        return
            except _BudgetSpent:
                self.restarts += 1
                self.stats.nodes = nodes_before + engine.stats.nodes
                continue
            self.stats.nodes = nodes_before + engine.stats.nodes
            self.stats.complete = engine.stats.complete
            return

    def count(self) -> int:
        """Counting gains nothing from shuffling; it is refused rather than faked."""
        raise EngineError("random restarts find solutions; count with the compiled engine")


HEAD_START = 1 << 20  # nodes the plain search runs alone before restarts share its time
_SLICE = 1 << 18  # nodes of the plain search between turns of the restarts


class _Found(Exception):
    """Carries a restarted run that found a solution out of the plain search's callback."""

    def __init__(self, relabelled: Relabelling, engine: Engine, first: tuple[int, ...],
                 rest: Iterator[tuple[int, ...]]) -> None:  # fmt: skip
        super().__init__("a restarted run found a solution")
        self.relabelled, self.engine, self.first, self.rest = relabelled, engine, first, rest


class _Exhausted(Exception):
    """A restarted run searched its whole tree without a solution: there is none."""


class HedgedEngine:
    """The plain search for the first few solutions, hedged against a heavy tail.

    The plain engine runs alone for ``head_start`` nodes, so a puzzle it solves quickly gets
    the same answer as ever; after that, shuffled runs with Luby budgets (as in
    :class:`RestartEngine`, from a fixed seed, so the answer is reproducible) get as many
    nodes as the plain search has used beyond its head start, in turns between its slices.
    Whichever finds a solution first supplies the rest of ``limit`` too. The plain search
    is resumed, never restarted, so proving that there is no solution costs at most about
    twice a plain search; and a restarted run that exhausts its tree proves it as well.
    Measured: 60-queens, which the plain compiled engine did not solve in 15 s, takes about
    half a second this way.
    """

    name = "hedged"

    def __init__(
        self,
        problem: CoverProblem,
        *,
        inner: str = "auto",
        seed: int = 0,
        head_start: int = HEAD_START,
        base_budget: int = DEFAULT_BASE_BUDGET,
    ) -> None:
        from puzzlebox import engine as engines

        self.problem = problem
        self.inner = engines.auto_engine(problem) if inner == "auto" else inner
        self._factory = engines.ENGINES[self.inner]
        self.seed = seed
        self.head_start = head_start
        self.base_budget = base_budget
        self.restarts = 0  # shuffled runs started
        self.stats = SearchStats(engine=self.inner)

    def count(self) -> int:
        """Counting walks the whole tree whatever the order: the plain engine does it."""
        engine = self._factory(self.problem)
        found = engine.count()
        self.stats = engine.stats
        return found

    def solutions(
        self, limit: int | None = None, progress: Callable[[SearchStats], None] | None = None
    ) -> Iterator[tuple[int, ...]]:
        """Yield up to ``limit`` solutions (each verified when it comes from a shuffled run)."""
        plain = self._factory(self.problem)
        if hasattr(plain, "node_budget"):
            plain.node_budget = min(plain.node_budget, _SLICE)
        rng = np.random.default_rng(self.seed)
        spent = [0]  # nodes of the shuffled runs so far

        def turn(stats: SearchStats) -> None:
            self.stats.nodes = stats.nodes + spent[0]
            if progress is not None:
                progress(self.stats)
            while spent[0] < stats.nodes - self.head_start:
                self._shuffled_run(limit, rng, spent)
                self.stats.nodes = stats.nodes + spent[0]

        found = 0
        try:
            for chosen in plain.solutions(limit, progress=turn):  # type: ignore[call-arg]
                found += 1
                self.stats.solutions = found
                self.stats.nodes = plain.stats.nodes + spent[0]
                yield chosen
            self.stats.complete = plain.stats.complete
        except _Found as hit:
            self.stats.engine = f"restarts({self.inner})"
            for chosen in itertools.chain([hit.first], hit.rest):
                original = hit.relabelled.back(chosen)
                if not self.problem.is_solution(original):
                    raise EngineError("a shuffled run's answer failed verification") from None
                found += 1
                self.stats.solutions = found
                self.stats.nodes = plain.stats.nodes + spent[0] + hit.engine.stats.nodes
                yield original
                if limit is not None and found >= limit:
                    return
            self.stats.complete = hit.engine.stats.complete
        except _Exhausted:
            self.stats.complete = True

    def _shuffled_run(self, limit: int | None, rng: np.random.Generator, spent: list[int]) -> None:
        """One shuffled run with the next Luby budget; raises :class:`_Found` or
        :class:`_Exhausted` when it settles the search."""
        self.restarts += 1
        budget = self.base_budget * luby(self.restarts)
        relabelled = permuted(self.problem, rng)
        engine = self._factory(relabelled.problem)
        if hasattr(engine, "node_budget"):
            engine.node_budget = min(engine.node_budget, budget)

        def spend(stats: SearchStats) -> None:
            if stats.solutions == 0 and stats.nodes >= budget:
                raise _BudgetSpent

        stream = engine.solutions(limit, progress=spend)  # type: ignore[call-arg]
        try:
            first = next(stream)
        except _BudgetSpent:
            spent[0] += engine.stats.nodes
            return
        except StopIteration:
            spent[0] += engine.stats.nodes
            raise _Exhausted from None
        raise _Found(relabelled, engine, first, stream)
