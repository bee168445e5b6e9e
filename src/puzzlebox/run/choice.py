"""Which engine runs what: the one place a run's engine is decided (#22).

The registry (engine/registry.py) holds the engines and the table of rules that "auto"
means for one job (``registry.choose``, each rule with its measurement). Everything a run
adds is decided here and nowhere else: whether a named engine can do what is asked
(count, list solutions, one tiling by local search), which engine a count runs as a whole
(one that counts distinct solutions itself) or by the parts of its symmetry breaking, which
engine cuts a split run's tree, and which runs may be split at all.
"""

from __future__ import annotations

from puzzlebox.engine.parts import count_puzzle_search
from puzzlebox.engine.registry import (
    AUTO,
    EngineDeclined,
    EngineSpec,
    UnknownEngine,
    choose,
    general,
    get,
    resolve,
)
from puzzlebox.engine.search import Capability, Job, Mode, Search
from puzzlebox.parallel.tasks import COUNT, task_job
from puzzlebox.puzzles import Puzzle
from puzzlebox.puzzles.base import SINK

__all__ = ["AUTO", "SINK", "EngineRefused", "check", "count_search", "local_search",
           "split_spec", "splits"]


class EngineRefused(EngineDeclined):
    """A named engine that cannot do what the run asks (the message says so)."""

    def __init__(self, message: str, engine: str = "", counts: bool | None = None) -> None:
        super().__init__(message)
        self.engine = engine
        self.counts = counts  # whether the engine counts (None: unknown engine)


def check(engine: str, counting: bool) -> None:
    """Refuse, in one line, an engine the registry does not know or one that cannot do
    what is asked: count (``counting``), or find solutions."""
    if engine == AUTO:
        return
    try:
        spec = get(engine)
    except UnknownEngine as error:
        raise EngineRefused(str(error), engine) from None
    if counting and not spec.does(Capability.COUNT):
        raise EngineRefused(f"the {engine} engine does not count", engine, counts=False)
    if not counting and not spec.does(Capability.SOLVE):
        raise EngineRefused(f"the {engine} engine only counts", engine, counts=True)


def local_search(engine: str) -> bool:
    """Whether ``engine`` is the one incomplete search, the sink search: one tiling by
    local search, which proves nothing when it finds none."""
    return engine == SINK


def splits(engine: str, counting: bool) -> str | None:
    """Why a run of ``engine`` cannot be split into subproblems; None when it can."""
    if local_search(engine):
        return f"the {engine} engine finds one tiling"
    if counting and engine != AUTO:
        spec = get(engine)
        if spec.does(Capability.DISTINCT) and not spec.does(Capability.SPLIT):
            return f"the {engine} engine counts in one process"
    return None


def count_job(puzzle: Puzzle, max_memory: int | None) -> Job:
    return Job(puzzle.problem, Mode.COUNT, puzzle=puzzle, max_memory=max_memory)


def count_engine(puzzle: Puzzle, engine: str, max_memory: int | None) -> EngineSpec:
    """The engine a count of ``puzzle`` runs (auto's choice, or the one named if it takes
    the job: :class:`EngineDeclined` says why not)."""
    return resolve(count_job(puzzle, max_memory), engine)


def count_search(puzzle: Puzzle, engine: str, max_memory: int | None) -> Search:
    """The search of a count: an engine that counts distinct solutions itself runs alone,
    any other runs the parts of the symmetry breaking (engine/parts.py)."""
    job = count_job(puzzle, max_memory)
    spec = resolve(job, engine)
    if spec.does(Capability.DISTINCT):
        return spec.start(job)
    return count_puzzle_search(puzzle, engine, max_memory=max_memory)


def solutions_spec(job: Job, engine: str) -> EngineSpec:
    """The engine that lists the solutions of ``job``."""
    return resolve(job, engine)


def sink_refusal(puzzle: Puzzle, seed: int | None) -> None:
    """Refuse a puzzle that the sink search does not take (its reason, in one line)."""
    job = Job(puzzle.problem, limit=1, seed=seed, puzzle=puzzle)
    reason = get(SINK).accepts(job)
    if reason is not None:
        raise EngineDeclined(f"{puzzle.label}: {reason}")


def split_spec(puzzle: Puzzle, kind: str, split: bool) -> EngineSpec:
    """The engine "auto" runs a split run's subproblems with (``registry.choose``, for the
    same job as a plain count or enumeration). With ``split`` (a depth was asked for) an
    engine that cannot split gives way to the general engine, which can."""
    job = Job(puzzle.problem, Mode.COUNT if kind == COUNT else Mode.SOLUTIONS, puzzle=puzzle)
    spec = choose(job)
    if split and not spec.does(Capability.SPLIT):
        spec = general(task_job(puzzle, kind, spec))
    return spec
