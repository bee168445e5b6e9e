"""The page shares the machine fairly (#28): every check runs in a process of its own, held
to a budget of time and memory, and the server runs only so many at once.

Why processes: a check reads a puzzle, runs its proofs and draws it with matplotlib. In
threads they shared one interpreter lock and one drawing lock, so three heavy checks of a
file of 1,000 named monominoes (58 to 105 s each) made a small check of another tab wait 31
to 34 s. A process of its own per check shares the cores through the operating system, is
stopped outright when it passes its budget (a thread cannot be), and gives its memory back
when it ends. Processes are forked from a server process that has already imported
puzzlebox and matplotlib (multiprocessing's ``forkserver``), so starting one costs
milliseconds, not the second of imports a fresh interpreter takes.

The limits, each refused with one line the page shows:

* a check runs at most :data:`CHECK_SECONDS` and holds at most :data:`CHECK_MEMORY` bytes
  (resident size, read from /proc where there is one): past either it is stopped, HTTP 422;
* at most :data:`CHECKS_IN_ALL` checks run at once in the server: one more is refused,
  HTTP 429 (the page's next edit checks again);
* a tab runs one check at a time: its newer check stops the older one (whose answer the page
  would drop anyway), which is answered HTTP 409;
* a check that has used more than :data:`SMALL_CPU` of CPU (more than a small check ever
  needs), or of a puzzle over :data:`LARGE_BODY` characters from its start, is given a
  lower priority (niceness raised by :data:`DEMOTED_NICENESS`), so that
  the small checks of other tabs get the cores first;
* inside a check the work is bounded before it is done (web/app.py): proofs that build
  placements only up to :data:`CHECK_ENTRIES` entries, the picture only up to
  :data:`DRAWN_PIECES` pieces; past them the check says what it left out.

A take-apart (web/design.py) runs in the same pool, counted with the checks, under limits of
its own (:class:`CheckLimits` with its time, its name and its command in the refusals); a
tab's Stop ends it (:meth:`CheckPool.stop`). Searches have their own limits (web/runs.py:
one per tab, a few in all). As everywhere
with multiprocessing, a script that serves the page starts it under
``if __name__ == "__main__":`` (the check processes import the main module).
"""

from __future__ import annotations

import contextlib
import multiprocessing
import multiprocessing.connection
import os
import signal
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from puzzlebox.errors import PuzzleboxError

CHECK_SECONDS = 10.0  # the time one check may take, start to answer
CHECK_MEMORY = 768 << 20  # resident bytes of one check's process (matplotlib alone: ~100 MB)
CHECKS_IN_ALL = 4  # checks running at once in the server
CHECK_ENTRIES = 200_000  # cover entries up to which a check builds placements for its proofs
DRAWN_PIECES = 100  # pieces up to which a check draws the puzzle (about 35 ms a piece)
POLL_SECONDS = 0.05  # how often a waiting check looks at its process
DEMOTE_AFTER = 0.5  # seconds after which a search yields the cores (web/runs.py)
SPARES = CHECKS_IN_ALL  # check processes started ahead, one for each check that may run
# (58 MB resident each, 20 MB of it its own: the rest is shared with the process server)
RESTOCK_AFTER = 5.0  # seconds after a spare is taken before new ones start: not during a
# burst of checks, whose processes need the cores more
SMALL_CPU = 0.08  # CPU seconds past which a check yields the cores to the small ones: a
# small check takes 0.05 s (#28, tools/web_fairness.py --breakdown). CPU, not wall time: on
# the loaded machine a small check took 0.5 s and more of wall time, and a wall-time rule
# (0.5 s) demoted it with the heavy ones, leaving them all equal.
LARGE_BODY = 4096  # characters of a request past which its check yields from the start
DEMOTED_NICENESS = 10  # its niceness is raised by this (Linux: a tenth of the share)
LEAST_PRIORITY = 19  # the highest niceness there is

Work = Callable[[dict[str, Any], "CheckLimits"], dict[str, Any]]


class Refused(PuzzleboxError):
    """A request the server will not (or no longer) answer; ``status`` is the HTTP status."""

    def __init__(self, message: str, status: int) -> None:
        super().__init__(message)
        self.status = status


@dataclass(frozen=True)
class CheckLimits:
    """What one check may use, and how many run at once (the defaults above)."""

    seconds: float = CHECK_SECONDS
    memory: int = CHECK_MEMORY
    in_all: int = CHECKS_IN_ALL
    entries: int = CHECK_ENTRIES
    drawn_pieces: int = DRAWN_PIECES
    name: str = "check"  # what the page's refusals call the work (a take-apart: web/design.py)
    command: str = "puzzlebox show FILE"  # the command line that does it with no such limit


@dataclass
class _Running:
    process: Any  # multiprocessing's Process of the context in use
    tab: str | None
    superseded: bool = False
    why: str = ""  # the line its refusal says: replaced by a newer one, or stopped
    demoted: bool = False  # its priority lowered (:func:`_demote`), once
    serial: int = 0  # the order checks started in


def _context() -> Any:
    """``forkserver`` where the platform has it (its server imports puzzlebox once), else
    ``spawn``. Never plain ``fork``: the web server runs threads, and a fork copies any lock
    one of them holds."""
    methods = multiprocessing.get_all_start_methods()
    context = multiprocessing.get_context("forkserver" if "forkserver" in methods else "spawn")
    if "forkserver" in methods:
        context.set_forkserver_preload(["puzzlebox.web.app", "puzzlebox.web._warm"])
    return context


def _resident(pid: int) -> int | None:
    """The resident bytes of process ``pid`` (Linux's /proc), or None where unknown."""
    try:
        with open(f"/proc/{pid}/statm", "rb") as handle:
            return int(handle.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")
    except (OSError, ValueError, IndexError):
        return None


def _cpu(pid: int | None) -> float | None:
    """The CPU seconds process ``pid`` has used (Linux's /proc), or None where unknown."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as handle:
            fields = handle.read().rsplit(b")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    except (OSError, ValueError, IndexError):
        return None


def _size(body: dict[str, Any]) -> int:
    """The characters of a request's puzzle (its TOML text or its editor model's cells)."""
    text = body.get("toml")
    if isinstance(text, str):
        return len(text)
    model = body.get("model")
    return len(repr(model)) if model is not None else 0


def _over_memory(limits: CheckLimits) -> str:
    return (f"the {limits.name} used more than {limits.memory >> 20} MB, the page's limit "
            f"for one {limits.name} (the command line has none: {limits.command})")


def _child(work: Work, body: dict[str, Any], limits: CheckLimits,
           conn: multiprocessing.connection.Connection) -> None:
    """Run one check in its own process and send back ``("ok", answer)`` or
    ``("error", (status, line))``; Ctrl-C is the server's to handle, not this process's."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    outcome: tuple[str, Any]
    try:
        outcome = ("ok", work(body, limits))
        resident = _resident(os.getpid())  # as it answers: a check quicker than the
        if resident is not None and resident > limits.memory:  # server's first look
            raise Refused(_over_memory(limits), 422)
    except Refused as failure:
        outcome = ("error", (failure.status, str(failure)))
    except PuzzleboxError as failure:  # the reader's one line, or a request at fault
        outcome = ("error", (400, str(failure)))
    except MemoryError:
        outcome = ("error", (422, f"the {limits.name} ran out of memory"))
    except RecursionError:
        outcome = ("error", (422, f"the {limits.name} nested too deeply"))
    except Exception as failure:  # a bug: one line, and the server goes on
        outcome = ("error", (500, f"internal error: {type(failure).__name__}: {failure}"))
    try:
        conn.send(outcome)
    finally:
        conn.close()


def _standby(conn: multiprocessing.connection.Connection) -> None:
    """A check process started ahead of its check (:meth:`CheckPool.run` takes it): it waits
    for its one check, runs it and ends. A check then pays no process start (#28: under
    load, 0.1 to 0.4 s of a small check's wait)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        work, body, limits = conn.recv()
    except (EOFError, OSError):  # the server went away, or closed the spare
        return
    _child(work, body, limits, conn)


class CheckPool:
    """Runs checks in processes of their own, within :class:`CheckLimits`; thread-safe."""

    def __init__(self, limits: CheckLimits | None = None) -> None:
        self.limits = limits or CheckLimits()
        self._context = _context()
        self._lock = threading.Lock()
        self._running: dict[int, _Running] = {}
        self._serial = 0
        self.peak_resident = 0  # the most resident bytes seen of any check's process
        self._spares: list[tuple[Any, multiprocessing.connection.Connection]] = []
        self._spare_lock = threading.Lock()  # one thread starts spares at a time
        self.closed = False

    def running(self) -> int:
        with self._lock:
            return len(self._running)

    def warm(self) -> None:
        """Start the process server now (it imports puzzlebox and matplotlib once) and the
        spare check processes, so that the first checks wait for neither: the first one
        now (it starts the process server), the others in a thread."""
        spare = self._start()
        with self._lock:
            self._spares.append(spare)
        threading.Thread(target=self._restock, daemon=True, name="puzzlebox-spare").start()

    def _restock(self, after: float = 0.0) -> None:
        """Start spare check processes until :data:`SPARES` are ready, ``after`` seconds
        (called off the request's path: a thread of its own after a check took one)."""
        time.sleep(after)
        with self._spare_lock:
            while True:
                with self._lock:
                    self._spares = [s for s in self._spares if s[0].is_alive()]
                    if self.closed or len(self._spares) >= SPARES:
                        return
                spare = self._start()
                with self._lock:
                    if not self.closed:
                        self._spares.append(spare)
                        continue
                _close(spare)
                return

    def _start(self) -> tuple[Any, multiprocessing.connection.Connection]:
        conn, theirs = self._context.Pipe(duplex=True)
        process = self._context.Process(target=_standby, args=(theirs,), daemon=True,
                                        name="puzzlebox-check")
        process.start()
        theirs.close()
        return process, conn

    def _take(self) -> tuple[Any, multiprocessing.connection.Connection]:
        """A spare process, or (none ready) a new one; called with the lock held. New
        spares are started meanwhile in a thread, off the request's path."""
        threading.Thread(target=self._restock, args=(RESTOCK_AFTER,), daemon=True,
                         name="puzzlebox-spare").start()
        while self._spares:
            spare = self._spares.pop(0)
            if spare[0].is_alive():
                return spare
            _close(spare)
        return self._start()

    def close(self) -> None:
        """End the spare processes (the server stops)."""
        with self._lock:
            self.closed = True
            spares, self._spares = self._spares, []
        for spare in spares:
            _close(spare)

    def stop(self, tab: str) -> bool:
        """Stop the work running for ``tab`` (its process is ended; its request answers
        "stopped", HTTP 409); True when there was some."""
        with self._lock:
            mine = [r for r in self._running.values() if r.tab == tab and not r.superseded]
            for entry in mine:
                entry.superseded = True
                entry.why = "stopped"
                entry.process.kill()
        return bool(mine)

    def run(self, work: Work, body: dict[str, Any], tab: str | None,
            limits: CheckLimits | None = None) -> dict[str, Any]:
        """``work(body, limits)`` in a process of its own: its answer, or :class:`Refused`
        (the limits passed, too many running, superseded) or the check's own error line.
        ``limits``: the pool's own by default (a take-apart has a longer budget; how many
        run at once is always the pool's). Blocks until then: call it from a worker thread,
        never on the event loop."""
        limits = limits or self.limits
        with self._lock:
            for other in self._running.values():
                if tab is not None and other.tab == tab:  # the page drops its answer anyway
                    other.superseded = True
                    other.why = f"a newer {limits.name} of this tab replaced this one"
                    other.process.kill()
            active = sum(1 for r in self._running.values() if not r.superseded)
            if active >= self.limits.in_all:
                raise Refused(f"{active} checks are running on this server, the most it runs "
                              "at once: try again in a moment", 429)
            process, receiver = self._take()
            self._serial += 1
            key = self._serial
            entry = _Running(process, tab, serial=key)
            if _size(body) > LARGE_BODY:  # a large puzzle is no small check: it yields now
                entry.demoted = True
                _demote(process.pid)
            self._running[key] = entry
        try:
            with contextlib.suppress(OSError):  # a spare that died: "ended without an answer"
                receiver.send((work, body, limits))
            return self._wait(entry, receiver, limits)
        finally:
            if process.is_alive():
                process.kill()
            process.join()
            receiver.close()
            with self._lock:
                self._running.pop(key, None)

    def _wait(self, entry: _Running, receiver: multiprocessing.connection.Connection,
              limits: CheckLimits) -> dict[str, Any]:
        began = time.monotonic()
        deadline = began + limits.seconds
        process = entry.process
        kind: str = "gone"
        value: Any = None
        while True:
            if receiver.poll(POLL_SECONDS):
                with contextlib.suppress(EOFError, OSError):  # ended without an answer
                    kind, value = receiver.recv()
                break
            if entry.superseded:
                break
            if not process.is_alive():
                break
            if not entry.demoted and (_cpu(process.pid) or 0.0) > SMALL_CPU:
                entry.demoted = True
                _demote(process.pid)
            if time.monotonic() > deadline:
                raise Refused(f"the {limits.name} took more than {limits.seconds:g} s, the "
                              f"page's limit for one {limits.name} (the command line has "
                              f"none: {limits.command})", 422)
            resident = _resident(process.pid)
            if resident is not None:
                self.peak_resident = max(self.peak_resident, resident)
            if resident is not None and resident > limits.memory:
                raise Refused(_over_memory(limits), 422)
        if entry.superseded:
            raise Refused(entry.why or f"a newer {limits.name} of this tab replaced this one",
                          409)
        # a check that answers within the first poll is held to its time limit too (and to
        # its memory by the check itself, _child): a quick check used to pass any limit,
        # so a limit's refusal depended on the machine's speed
        if kind == "ok" and time.monotonic() > deadline:
            raise Refused(f"the {limits.name} took more than {limits.seconds:g} s, the "
                          f"page's limit for one {limits.name} (the command line has "
                          f"none: {limits.command})", 422)
        if kind == "ok":
            assert isinstance(value, dict)
            return value
        if kind == "error":
            status, line = value
            raise Refused(str(line), int(status))
        raise Refused(f"the {limits.name} ended without an answer (exit status "
                      f"{process.exitcode})", 422)


def _demote(pid: int) -> None:
    """Lower a long check's (or search's) priority by :data:`DEMOTED_NICENESS`, so that a
    small check started after it gets the cores first (#28: three heavy checks made a small
    one wait; with equal priorities the small one still got only a quarter of the machine).
    Relative to the process's own: a server started under ``nice`` (as every command on a
    shared machine is) had its checks at niceness 10 already, and setting 10 demoted nothing.
    Where priorities cannot be set, nothing changes."""
    getpriority = getattr(os, "getpriority", None)
    setpriority = getattr(os, "setpriority", None)
    if getpriority is not None and setpriority is not None:
        with contextlib.suppress(OSError):
            now = getpriority(os.PRIO_PROCESS, pid)
            setpriority(os.PRIO_PROCESS, pid, min(LEAST_PRIORITY, now + DEMOTED_NICENESS))


def _close(spare: tuple[Any, multiprocessing.connection.Connection]) -> None:
    process, conn = spare
    with contextlib.suppress(OSError, ValueError):
        conn.close()
        process.kill()
        process.join(5)
