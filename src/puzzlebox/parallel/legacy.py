"""A bridge for the general engines until they are registered with their own frontiers.

TEMPORARY (issue #13): the 'engines' helper registers every engine in engine/registry.py
with its ``frontier``; until that lands, a split run reaches the general engines of
``puzzlebox.engine.ENGINES`` through this module. Their frontier is the kernel's own
(``subproblems(depth)`` of the compiled and bitboard engines: the engine's own tree; the
reference engine branches exactly as the compiled kernel does, so it is cut by that kernel),
so nothing here re-states a branching rule. Delete this module once ``registry.get`` knows
them.
"""

from __future__ import annotations

from puzzlebox.engine import registry
from puzzlebox.engine.registry import EngineSpec, UnknownEngine
from puzzlebox.engine.search import Capability, Job, Step, Subproblem
from puzzlebox.engine.stats import SearchStats

_SPECS: dict[str, EngineSpec] = {}


class _Listing:
    """All the solutions of a job in one step (the old engines have no budgeted steps)."""

    def __init__(self, name: str, job: Job) -> None:
        from puzzlebox.engine import make_engine

        self._engine = make_engine(job.problem, name, job.forced, job.excluded)
        self.stats: SearchStats = self._engine.stats
        self._done = False

    def step(self, max_nodes: int) -> Step:
        if self._done:
            return Step(done=True)
        self._done = True
        found = list(self._engine.solutions())
        return Step(solutions=found, counted=len(found), done=True)


def _frontier(name: str, job: Job, depth: int) -> list[Subproblem]:
    from puzzlebox.engine import make_engine

    cutter = name if name in ("compiled", "bitboard") else "compiled"
    engine = make_engine(job.problem, cutter, job.forced, job.excluded)
    return list(engine.subproblems(depth))  # type: ignore[attr-defined]


def _bitboard_accepts(job: Job) -> str | None:
    from puzzlebox.engine.bitboard import ineligible

    return ineligible(job.problem)


def engine_spec(name: str) -> EngineSpec:
    """The registered engine ``name``, or a bridge to the general engine of that name."""
    try:
        return registry.get(name)
    except UnknownEngine:
        from puzzlebox.engine import ENGINES

        if name not in ENGINES:
            raise
    if name not in _SPECS:
        splits = name != "sat"
        _SPECS[name] = EngineSpec(
            name=name,
            summary=f"the {name} engine (bridge)",
            can=frozenset({Capability.SOLVE, Capability.COUNT, Capability.PROVE}
                          | ({Capability.SPLIT, Capability.PROBE} if splits else set())),
            start=lambda job: _Listing(name, job),
            frontier=(lambda job, depth: _frontier(name, job, depth)) if splits else None,
            accepts=_bitboard_accepts if name == "bitboard" else lambda job: None,
        )
    return _SPECS[name]


def is_bridge(spec: EngineSpec) -> bool:
    return _SPECS.get(spec.name) is spec


def auto_name(job: Job) -> str:
    """The general engine "auto" meant before the registry: bitboard for tilings it takes."""
    from puzzlebox.engine import auto_engine

    return auto_engine(job.problem)
