"""Search engines for cover problems, each described once in the registry
(:mod:`puzzlebox.engine.registry`) and run as a step-wise search
(:mod:`puzzlebox.engine.search`).

This module registers the general engines without importing them: each engine's module
(and numpy, which all but the plain-Python reference engine load) is imported by its
``start`` and its other callables, so that listing the engines or reading and showing a
puzzle loads no numpy and no kernel (issue #23: ``show`` under 0.15 s of CPU, numpy alone
0.14 s).
"""

from __future__ import annotations

from puzzlebox.engine.registry import EngineSpec, PartSizer, footprint, register
from puzzlebox.engine.search import Capability, Job, Search, Subproblem
from puzzlebox.engine.stats import SearchStats

C = Capability


def _start_reference(job: Job) -> Search:
    from puzzlebox.engine import reference

    return reference.start(job)


def _start_compiled(job: Job) -> Search:
    from puzzlebox.engine.compiled import start

    return start(job)


def _frontier_compiled(job: Job, depth: int) -> list[Subproblem]:
    from puzzlebox.engine.compiled import frontier

    return frontier(job, depth)


def _part_sizes_compiled(job: Job, probes: int, max_seconds: float | None,
                         seed: int = 0) -> PartSizer:  # fmt: skip
    from puzzlebox.engine.estimate import PartSizes

    return PartSizes(job.problem, probes, seed, max_seconds)


def _start_bitboard(job: Job) -> Search:
    from puzzlebox.engine.bitboard import start

    return start(job)


def _frontier_bitboard(job: Job, depth: int) -> list[Subproblem]:
    from puzzlebox.engine.bitboard import frontier

    return frontier(job, depth)


def _part_sizes_bitboard(job: Job, probes: int, max_seconds: float | None,
                         seed: int = 0) -> PartSizer:  # fmt: skip
    from puzzlebox.engine.bitboard import PartSizes  # its own tree, and no numpy

    return PartSizes(job.problem, probes, seed, max_seconds)


def _bitboard_accepts(job: Job) -> str | None:
    from puzzlebox.engine import bitboard_fit

    reason = bitboard_fit.ineligible(job.problem)
    return None if reason is None else f"the bitboard engine cannot take this problem: {reason}"


def _start_sat(job: Job) -> Search:
    from puzzlebox.engine import sat

    return sat.start(job)


def _sat_accepts(job: Job) -> str | None:
    from puzzlebox.engine import sat

    return None if sat.sat_available() else sat.missing()


def _start_memo(job: Job) -> Search:
    from puzzlebox.engine import memo

    return memo.start(job)


def _memo_memory(job: Job) -> int:
    from puzzlebox.engine import memo

    return memo.BYTES_PER_STATE


def _memo_accepts(job: Job) -> str | None:
    from puzzlebox.engine import memo

    return memo.accepts(job)


REFERENCE = register(EngineSpec(
    name="reference",
    summary="plain Python, obviously right: the oracle the others are tested against",
    can=frozenset({C.SOLVE, C.COUNT, C.SPLIT, C.PROVE}),
    start=_start_reference,
    frontier=_frontier_compiled,  # the same tree as the compiled kernel's (tests keep it so)
    part_sizes=_part_sizes_compiled,
    # tracemalloc's peak over start and three steps: 1.6 MB for pentomino-6x10 (12,336
    # entries), 0.99 MB for pentomino-3x20 (7,416): Python objects, 130 bytes an entry and more
    memory=footprint(160, 1 << 20),
))
COMPILED = register(EngineSpec(
    name="compiled",
    summary="the general engine: Knuth's Algorithm M with colours, compiled (C, or numba), "
    "resumable",
    can=frozenset({C.SOLVE, C.COUNT, C.SPLIT, C.PROBE, C.PROVE}),
    start=_start_compiled,
    frontier=_frontier_compiled,
    part_sizes=_part_sizes_compiled,
))
BITBOARD = register(EngineSpec(
    name="bitboard",
    summary="tilings (cells covered exactly once, no colours): bitboards with region pruning",
    can=frozenset({C.SOLVE, C.COUNT, C.SPLIT, C.PROVE}),
    start=_start_bitboard,
    accepts=_bitboard_accepts,
    frontier=_frontier_bitboard,
    part_sizes=_part_sizes_bitboard,
    # tracemalloc's peak over start and three steps: 39.3 MB for pentomino-6x10 (12,336
    # entries), 88.5 MB for parallelogram-6-rotate (202,072), 1,116 MB for parallelogram-7-
    # rotate (3,707,728): about 290 bytes an entry
    memory=footprint(300, 40 << 20),
))
SAT = register(EngineSpec(
    name="sat",
    summary="one solution of a huge, loose packing (OR-Tools CP-SAT, extra `sat`)",
    can=frozenset({C.SOLVE, C.COUNT, C.PROVE}),
    start=_start_sat,
    accepts=_sat_accepts,
    # resident size: CP-SAT's first solve adds 24 MB whatever the problem; the model adds
    # 66 bytes an entry (parallelogram-6-rotate, 13.3 MB) and its solver's workers copy it:
    # counted as 500; the blocking clauses of later solutions are checked as they are added
    memory=footprint(500, 64 << 20),
))
MEMO = register(EngineSpec(
    name="memo",
    summary="counts of tilings with many interchangeable pieces by sweeping the board and "
    "merging equal states; distinct ones by Burnside's lemma",
    can=frozenset({C.COUNT, C.DISTINCT, C.PROVE}),
    start=_start_memo,
    accepts=_memo_accepts,
    # what it holds is its states, checked as they grow (engine/memo.py: BYTES_PER_STATE
    # each, against the same limit, in a message of its own); before it starts, one state
    memory=_memo_memory,
))

__all__ = ["BITBOARD", "COMPILED", "MEMO", "REFERENCE", "SAT", "SearchStats"]
