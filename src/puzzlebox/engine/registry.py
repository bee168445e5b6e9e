"""The one place that knows the engines: what each is called, what it can do, which jobs it
takes, how to start it, and which one "auto" means.

An engine is described once, by an :class:`EngineSpec`, and registered with
:func:`register`. The general engines register themselves in ``puzzlebox.engine``; a puzzle
kind registers the solvers that only make sense for it (edge-matching cards, n-queens
bitmasks, the sink search of polyomino boards) from its own module. The command line's
``--engine`` choices and help, the error for an unknown engine, the ``engine`` field of
``--json`` and the README's table of engines are all read from here.

Modules that import numba are imported by ``start`` (and the other callables), not when a
spec is registered, so listing the engines or reading a file never compiles anything.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from puzzlebox.engine.search import Capability, Job, Search, Subproblem
from puzzlebox.errors import PuzzleboxError

AUTO = "auto"


class UnknownEngine(PuzzleboxError):
    """A name that no registered engine has."""


class EngineDeclined(PuzzleboxError):
    """A named engine cannot take this job (the message says why, in one line)."""


def _takes_any(job: Job) -> str | None:
    return None


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

    def does(self, capability: Capability) -> bool:
        return capability in self.can


_REGISTRY: dict[str, EngineSpec] = {}


def register(spec: EngineSpec) -> EngineSpec:
    """Add an engine; a name is registered once."""
    if spec.name == AUTO or spec.name in _REGISTRY:
        raise ValueError(f"engine name {spec.name!r} is taken")
    _REGISTRY[spec.name] = spec
    return spec


def specs() -> list[EngineSpec]:
    """Every registered engine, in registration order."""
    _load_all()
    return list(_REGISTRY.values())


def names(capability: Capability | None = None) -> list[str]:
    """The engine names a user may type (``auto`` first), optionally only those that can
    do ``capability``."""
    return [AUTO] + [s.name for s in specs() if capability is None or s.does(capability)]


def get(name: str) -> EngineSpec:
    """The engine called ``name``; :class:`UnknownEngine` names the known ones."""
    _load_all()
    try:
        return _REGISTRY[name]
    except KeyError:
        known = ", ".join(names())
        raise UnknownEngine(f"unknown engine {name!r} (known: {known})") from None


def _load_all() -> None:
    """Import the modules that register engines (cheap: none of them imports numba)."""
    import puzzlebox.engine  # noqa: F401  (the general engines)
    import puzzlebox.puzzles  # noqa: F401  (the engines puzzle kinds contribute)
