"""How many cores a local split run may use: the ones this process may run on
(``os.sched_getaffinity``), every worker started at once (:class:`AllCores`, the default
since issue #38). :class:`IdleMeter`, a meter of the cores the rest of the machine leaves
idle, is kept for a caller (and the tests) that start workers only on idle cores; the text
below is its reason, which #38 measured against: under load it kept every count on one
process.

A worker process started on a core that other work keeps busy does not add a core: the
kernel shares the busy cores out (per session, with Linux's autogroup), so the worker takes
its CPU from this process's own share and the run only pays the worker's start-up (importing
puzzlebox, loading the kernels: about a second of CPU). So workers are started on cores
measured idle, and the count goes on in this process meanwhile.

Idle is read from the machine's CPU counters (``/proc/stat``) over an interval of this run's
own work, where there are such counters; elsewhere from the load average.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable
from pathlib import Path

# the idle cores a worker needs before it is started: most of a core, so that a core idle
# for a moment (other work between two steps) does not start one
WORKER_CORE = 0.65
SAMPLE_SECONDS = 0.1  # the shortest interval a reading is trusted over


def usable_cores() -> int:
    """The cores this process may run on (its affinity), else all the machine's."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except (AttributeError, OSError):
        return max(1, os.cpu_count() or 1)


Counters = Callable[[], "tuple[float, float] | None"]


def proc_stat() -> tuple[float, float] | None:
    """``(idle, total)`` time of all the machine's CPUs from ``/proc/stat``, in cores x
    ticks (idle counts waiting for I/O as idle); None where there is no such file."""
    try:
        with Path("/proc/stat").open() as handle:
            fields = handle.readline().split()
    except OSError:
        return None
    if not fields or fields[0] != "cpu" or len(fields) < 6:
        return None
    values = [float(v) for v in fields[1:9]]
    return values[3] + values[4], sum(values)


class AllCores:
    """The default of a local split run (#38 item 6): every worker asked for starts at
    once. A meter that started workers only on cores measured idle kept counts on one
    process under load (and on a machine with a free core too: queens-17 never split), and
    a worker on a busy core still takes its share as cores come free; the cores asked for
    are capped at those this process may run on (``usable_cores``)."""

    def __init__(self, cores: int | None = None) -> None:
        self.cores = cores if cores is not None else usable_cores()

    def seconds(self) -> float:
        return float("inf")  # no interval to wait for

    def spare(self) -> float:
        return float(self.cores)

    def workers(self, most: int) -> int:
        return max(0, most)


class IdleMeter:
    """The cores left spare between two readings, were this process to keep one busy.

    ``spare()`` is the machine's idle cores over the interval since the last reading, less
    the part of a core this process itself left idle (its own search will take it): what a
    worker started now would get. ``counters``, ``clock`` and ``own`` (this process's CPU
    seconds) can be given, so that a test decides what the machine looks like; where the
    counters give nothing the 1-minute load average stands in."""

    def __init__(
        self,
        counters: Counters = proc_stat,
        clock: Callable[[], float] = time.monotonic,
        own: Callable[[], float] = time.process_time,
        cores: int | None = None,
        machine: int | None = None,
    ) -> None:
        self._counters = counters
        self._clock = clock
        self._own = own
        self.cores = cores if cores is not None else usable_cores()
        self.machine = machine if machine is not None else max(1, os.cpu_count() or 1)
        self._last = self._read()

    def _read(self) -> tuple[float, float, tuple[float, float] | None]:
        return self._clock(), self._own(), self._counters()

    def seconds(self) -> float:
        """How long since the last reading."""
        return self._clock() - self._last[0]

    def spare(self) -> float:
        """Cores a new worker could have now (see the class), and a new interval begins."""
        now = self._read()
        (t0, own0, stat0), (t1, own1, stat1) = self._last, now
        self._last = now
        wall = t1 - t0
        own = min(1.0, max(0.0, (own1 - own0) / wall)) if wall > 0 else 1.0
        if stat0 is not None and stat1 is not None and stat1[1] > stat0[1]:
            idle = (stat1[0] - stat0[0]) / (stat1[1] - stat0[1]) * self.machine
        else:
            idle = max(0.0, self.machine - os.getloadavg()[0]) if hasattr(os, "getloadavg") \
                else 0.0
        idle = min(idle, float(self.cores))
        return max(0.0, idle - (1.0 - own))

    def workers(self, most: int) -> int:
        """How many more workers to start now, at most ``most``: one for each spare core
        (:data:`WORKER_CORE` of one counts). Measures over at least SAMPLE_SECONDS,
        waiting for the rest of it if the interval was shorter."""
        if most <= 0:
            return 0
        short = SAMPLE_SECONDS - self.seconds()
        if short > 0:
            time.sleep(short)
        return min(most, int(self.spare() + 1.0 - WORKER_CORE))
