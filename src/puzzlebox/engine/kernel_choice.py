"""Which compiled kernels a search runs: the C ones built when puzzlebox is installed
(engine/_ckernels.c) or numba's (issue #23).

The C kernels start at once: importing numba and loading its cached kernels costs about half
a second of CPU per process, more than a small puzzle's whole search, and the first run
after installation would compile them for seconds. Where no C compiler was found at
installation the extension is missing (it is built as optional) and numba's kernels run, as
before. Both are the same algorithm, statement for statement, and the tests run each engine
with both (tests/conftest.py: the ``kernels`` fixture).

``PUZZLEBOX_KERNELS=numba`` in the environment makes a process use numba's kernels (the
benchmarks compare the two this way); ``PUZZLEBOX_KERNELS=c`` makes a missing C extension an
error instead of a quiet fallback.
"""

from __future__ import annotations

import os
from types import ModuleType

C = "c"
NUMBA = "numba"
BACKENDS = (C, NUMBA)
ENVIRONMENT = "PUZZLEBOX_KERNELS"

_ckernels: ModuleType | None
try:
    from puzzlebox.engine import _ckernels
except ImportError:  # not built (no C compiler at installation) or a CPU it cannot run on
    _ckernels = None

_chosen: str | None = None  # set by :func:`use` (tests); else the environment decides


class KernelsMissing(RuntimeError):
    """The C kernels were asked for and are not built."""


def available() -> list[str]:
    """The backends this installation can run."""
    return [C, NUMBA] if _ckernels is not None else [NUMBA]


def wanted() -> str | None:
    """The backend asked for (:func:`use`, else the environment), None where none was."""
    return _chosen or os.environ.get(ENVIRONMENT, "").strip().lower() or None


def backend() -> str:
    """The backend searches use now: the C kernels when built, unless told otherwise."""
    wanted_now = wanted()
    if wanted_now == NUMBA:
        return NUMBA
    if _ckernels is not None:
        return C
    if wanted_now == C:
        raise KernelsMissing(
            f"{ENVIRONMENT}=c, but the C kernels are not built: install puzzlebox again where "
            "a C compiler and Python's headers are")  # fmt: skip
    return NUMBA


def compiled_c() -> ModuleType:
    """The C kernels' module (only called when :func:`backend` is ``c``)."""
    if _ckernels is None:
        raise KernelsMissing("the C kernels are not built")
    return _ckernels


def use(name: str | None) -> None:
    """Make this process use ``name``'s kernels (None: back to the default)."""
    global _chosen
    if name is not None and name not in BACKENDS:
        raise ValueError(f"unknown kernels {name!r} (known: {', '.join(BACKENDS)})")
    _chosen = name
