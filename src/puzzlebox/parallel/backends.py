"""Where subproblems run: in this process, on local worker processes, or on a Dask cluster.

Each backend takes ``(index, task)`` pairs and yields ``(index, result)`` pairs as they
finish, in any order. A worker that dies in the middle of a task costs nothing but time: the
local pool starts another process and runs the task again, and Dask reschedules it. The
caller keys results by index and ignores an index it already has, so a task that happens to
run twice is still counted once.
"""

from __future__ import annotations

import contextlib
import multiprocessing as mp
import os
import signal
import socket
import sys
import threading
import time
import traceback
import warnings
from collections import deque
from collections.abc import Callable, Iterator, Sequence
from multiprocessing.connection import Connection, wait
from typing import Any
from urllib.parse import urlsplit

from puzzlebox.extras import install_command
from puzzlebox.parallel.cores import AllCores, IdleMeter
from puzzlebox.parallel.errors import ClusterUnavailable, TaskError
from puzzlebox.parallel.tasks import Cancelled, Task, run_task, stoppable

IndexedTask = tuple[int, Task]
TaskFunction = Any  # a picklable callable taking a Task (run_task, or a test's wrapper of it)

MAX_DEATHS = 3  # a task that has killed this many workers is not tried again
GROW_SECONDS = 1.0  # how often a run with tasks waiting looks for another free core
STARTING_POLL = 0.05  # how often a run looks for a worker that its starter thread brought up
TICK_SECONDS = 0.1  # how often a run with a tick calls it (ProcessBackend.run)


class SerialBackend:
    """Runs every task here, one after the other (``--jobs 1`` with a checkpoint)."""

    workers = 1

    def __init__(self, task_function: TaskFunction = run_task) -> None:
        self.task_function = task_function

    def run(self, tasks: Sequence[IndexedTask]) -> Iterator[tuple[int, Any]]:
        for index, task in tasks:
            yield index, self.task_function(task)

    def close(self) -> None:
        pass


def _reply(item: IndexedTask, task_function: TaskFunction) -> tuple[int, bool, Any]:
    """Run one task: ``(index, True, result)``, or ``(index, False, what went wrong)``."""
    index, task = item
    try:
        return index, True, task_function(task)
    except Cancelled:
        raise
    except Exception as error:
        last = traceback.extract_tb(error.__traceback__)[-1:]
        where = f" ({last[0].filename}:{last[0].lineno})" if last else ""
        return index, False, f"{type(error).__name__}: {error}{where}"


def _worker_main(conn: Connection, task_function: TaskFunction,
                 inherited: tuple[int, ...] = ()) -> None:
    """A worker process: run tasks from the pipe until told to stop.

    It ignores SIGINT: Ctrl-C in a terminal reaches every process of the group, and only the
    parent decides what an interruption means (save, report, stop the workers). A forked
    worker first closes ``inherited``, the parent's ends of the pipes it holds (its own and
    the other workers'): else a parent that is killed leaves it waiting on a pipe that
    never ends."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    for fd in inherited:
        with contextlib.suppress(OSError):
            os.close(fd)
    while True:
        try:
            message = conn.recv()
        except EOFError:
            return
        if message is None:
            return
        try:
            conn.send(_reply(message, task_function))
        except OSError:
            return  # the parent is gone (killed): nobody wants the answer


FORK = sys.platform.startswith("linux")  # a test turns it off to run the forkserver's way


def can_fork() -> bool:
    """Whether a worker may be forked from this process now: on Linux, from the main thread
    of a process that runs no other thread (a fork copies only the thread that forks, and
    a lock another thread holds stays held in the child for ever). A forked worker starts
    with what this process has: puzzlebox imported, the kernels loaded, the puzzle read and
    its problem built (tasks.remember) - 0.4-0.6 s of CPU that a worker from the forkserver
    spends again (bench/RESULTS.md, "--jobs 2 that pays")."""
    return (FORK and "fork" in mp.get_all_start_methods()
            and threading.current_thread() is threading.main_thread()
            and threading.active_count() == 1)


def _start_method() -> str:
    """Where a worker cannot be forked (:func:`can_fork`): forkserver where there is one
    (workers fork from a clean server that never ran numba code and runs no thread), else
    spawn."""
    return "forkserver" if "forkserver" in mp.get_all_start_methods() else "spawn"


class _Slot:
    """One worker process, its end of the pipe, the task it is running and since when.

    ``others``: the parent's ends of the other workers' pipes, for a forked worker to close
    (:func:`_worker_main`)."""

    def __init__(self, ctx: Any, task_function: TaskFunction,
                 others: tuple[Connection, ...] = ()) -> None:
        parent, child = ctx.Pipe()
        inherited: tuple[int, ...] = ()
        if ctx.get_start_method() == "fork":
            inherited = tuple(c.fileno() for c in (parent, *others) if not c.closed)
            for stream in (sys.stdout, sys.stderr):  # what is buffered is written once
                with contextlib.suppress(Exception):
                    stream.flush()
        self.process = ctx.Process(
            target=_worker_main, args=(child, task_function, inherited), daemon=True
        )
        with warnings.catch_warnings():
            # Python 3.12 warns of a fork from a process with more than one thread of the
            # system's: numpy's OpenBLAS starts some, and forks safely (pthread_atfork);
            # can_fork has made sure that no Python thread runs beside this one
            warnings.filterwarnings("ignore", message=".*multi-threaded.*fork",
                                    category=DeprecationWarning)
            self.process.start()
        child.close()
        self.conn: Connection = parent
        self.current: IndexedTask | None = None
        self.since = 0.0
        self.answered = 0  # tasks it has answered: 0 while it may still be starting

    def give(self, item: IndexedTask) -> None:
        self.current = item
        self.since = time.monotonic()
        # a process that is gone is reported by its sentinel, and the task is run again
        with contextlib.suppress(OSError):
            self.conn.send(item)

    def stop(self) -> None:
        """End the process now (its answer is not wanted) and close the pipe."""
        self.process.terminate()
        self.process.join(timeout=5)
        if self.process.is_alive():
            self.process.kill()
            self.process.join()
        self.conn.close()


class _ParentShare:
    """This process's own share of the tasks, run on a thread beside the loop that feeds the
    workers.

    The parent is ready at once (puzzlebox imported, the kernels loaded while it split the
    search), where a new worker process spends about a second importing and loading before
    its first task. The kernels release the GIL, so the loop that feeds the workers keeps
    running. Tasks come from the same queue as the workers' (``take``), and once it is empty
    ``take`` hands this thread a copy of a task a worker holds (the loop drops whichever copy
    answers second: this one between two steps of its search, through ``cancel``). Replies
    go back through a pipe that the loop waits on with the workers' pipes, ending with
    ``None``.
    """

    def __init__(self, task_function: TaskFunction, take: Any, first: IndexedTask) -> None:
        self.task_function = task_function
        self._take = take
        self._first: IndexedTask | None = first
        self.reader, self._writer = mp.Pipe(duplex=False)
        self.stopped = threading.Event()
        self.running = True
        self.current: int | None = None  # the index it is running
        self.cancel = threading.Event()  # set: drop the task it is running
        self.lock = threading.Lock()
        self._thread = threading.Thread(target=self._loop, name="puzzlebox-share", daemon=True)
        self._thread.start()

    def _loop(self) -> None:
        try:
            while not self.stopped.is_set():
                item, self._first = self._first or self._take(), None
                if item is None:
                    break
                with self.lock:
                    self.current = item[0]
                    self.cancel.clear()
                try:
                    with stoppable(self.cancel):
                        reply = _reply(item, self.task_function)
                except Cancelled:
                    continue
                finally:
                    with self.lock:
                        self.current = None
                self._writer.send(reply)
            self._writer.send(None)
        except OSError:
            pass  # the loop stopped listening: nobody wants the answer
        finally:
            self._writer.close()

    def drop(self, index: int) -> None:
        """A worker answered ``index``: stop this thread's copy of it, if it runs one."""
        with self.lock:
            if self.current == index:
                self.cancel.set()

    def stop(self) -> None:
        """Take no more tasks (the one running, if any, stops at its next step)."""
        self.stopped.set()
        self.cancel.set()
        self.reader.close()


class ProcessBackend:
    """A pool of local worker processes that survives the death of any of them.

    With ``share`` (the default) this process runs tasks too, so ``jobs`` means at most
    ``jobs - 1`` worker processes and this one, and a worker is started only on a core that
    ``meter`` (cores.py) finds spare, when the run starts and again every
    :data:`GROW_SECONDS` while tasks wait: on a machine whose cores are busy the count goes
    on here alone, as one process would. Workers are forked from this process where that
    is safe (:func:`can_fork`): they start with its puzzle built and its kernels loaded.
    Once no task waits, this process runs a copy of a task held by a worker that has
    answered nothing yet (it may still be starting from the forkserver, or be stuck), and
    whichever copy answers first is counted; the other is stopped. A worker that has
    answered is working: its task is not copied (the copy would only spend CPU twice on
    one task). The fault tests turn
    ``share`` off (their tasks kill the process that runs them): then all ``jobs`` workers
    start at once and this process only waits.
    """

    def __init__(
        self,
        jobs: int,
        task_function: TaskFunction = run_task,
        *,
        share: bool = True,
        meter: IdleMeter | AllCores | None = None,
    ) -> None:
        if jobs < 1:
            raise ValueError(f"jobs must be at least 1, not {jobs}")
        self.workers = jobs
        self.share = share and jobs > 1
        self.processes = jobs - 1 if self.share else jobs
        self.task_function = task_function
        # every worker at once by default (AllCores); a test's IdleMeter decides by the idle
        # cores it is told of
        self.meter = (meter if meter is not None else AllCores()) if self.share else None
        self.started = 0  # worker processes started, replacements included
        self.forked = 0  # ... of which forked from this process (can_fork)
        self._ctx = mp.get_context(_start_method())
        if self._ctx.get_start_method() == "forkserver":
            self._ctx.set_forkserver_preload(["puzzlebox.parallel.tasks"])
        self._slots: list[_Slot] = []
        self._starter: threading.Thread | None = None  # starts workers beside a search
        self._starting = 0  # workers the starter has yet to add
        self._generation = 0  # close() moves it on: what the starter makes then is stopped
        self._slot_lock = threading.Lock()

    def _slot(self) -> _Slot:
        """A new worker: forked from this process where it may be (:func:`can_fork`), else
        from the forkserver."""
        if can_fork():
            slot = _Slot(mp.get_context("fork"), self.task_function,
                         tuple(s.conn for s in self._slots))
            self.forked += 1
        else:
            slot = _Slot(self._ctx, self.task_function)
        self.started += 1
        return slot

    def _new_slot(self) -> _Slot:
        slot = self._slot()
        self._slots.append(slot)
        return slot

    def _grow(self, most: int) -> int:
        """Start up to ``most`` more workers, as many as the meter finds cores for (all of
        them without a share); how many were started."""
        most = min(most, self.processes - self.running())
        if most <= 0:
            return 0
        n = most if self.meter is None else self.meter.workers(most)
        for _ in range(n):
            self._new_slot()
        return n

    def start(self, wait: bool = True) -> None:
        """Start the workers the free cores allow now, so that they get ready while the
        caller splits the search (otherwise they start with the first tasks).

        ``wait=False``: the meter decides now, and the processes start on a thread of their
        own. The first start waits for the forkserver to import puzzlebox (0.45 s measured
        on pentomino-5x12's count, whose whole search takes less), which a search that runs
        meanwhile need not wait for: a count that ends first never waits for a worker."""
        if self._starter is not None and self._starter.is_alive() and not wait:
            return  # they are starting already
        self._join_starter()
        if wait:
            self._grow(self.processes)
            return
        most = self.processes - len(self._slots)
        n = 0 if most <= 0 else most if self.meter is None else self.meter.workers(most)
        if n <= 0:
            return
        if can_fork():  # a fork takes milliseconds: no thread (which would rule out forks)
            for _ in range(n):
                self._new_slot()
            return
        generation = self._generation
        self._starting = n

        def starts() -> None:
            for _ in range(n):
                slot = _Slot(self._ctx, self.task_function)
                with self._slot_lock:
                    keep = generation == self._generation
                    if keep:
                        self._starting -= 1
                        self._slots.append(slot)
                        self.started += 1
                if not keep:
                    slot.stop()  # the run was closed while it started

        self._starter = threading.Thread(target=starts, name="puzzlebox-start", daemon=True)
        self._starter.start()

    def _join_starter(self) -> None:
        if self._starter is not None:
            self._starter.join()
            self._starter = None
            self._starting = 0

    def running(self) -> int:
        """How many worker processes there are now, those starting on a thread included."""
        return len(self._slots) + self._starting

    def run(self, tasks: Sequence[IndexedTask], tick: Callable[[], bool] | None = None
            ) -> Iterator[tuple[int, Any]]:
        """Run ``tasks``, yielding ``(index, result)`` as they finish. ``tick`` is called on
        this thread at least every :data:`TICK_SECONDS` while it returns True (the time
        rule of a split count, judged once the count has run a while: parallel/run.py); what
        it raises stops the run and its workers."""
        pending: deque[IndexedTask] = deque(tasks)
        lock = threading.Lock()
        answered: set[int] = set()
        copied: set[int] = set()

        def spare_copy() -> IndexedTask | None:
            """A task held by a worker that has answered nothing yet (it may still be
            starting, or be stuck), for this process to run too. Never one of a worker that
            has answered: it is up and working, and a copy would only spend CPU on a task
            already being run (the CPU of the whole copy where this process lost the race,
            #38 item 6: 0.08 s of solid-pentominoes-3x4x5's 2.2 s)."""
            held = [
                s for s in self._slots
                if s.current is not None and s.current[0] not in answered
                and s.current[0] not in copied and s.answered == 0
            ]
            if not held:
                return None
            slot = max(held, key=lambda s: s.since)
            assert slot.current is not None
            copied.add(slot.current[0])
            return slot.current

        def take() -> IndexedTask | None:
            with lock:
                if pending:
                    return pending.popleft()
                return spare_copy()

        deaths: dict[int, int] = {}
        finished = False
        share: _ParentShare | None = None
        grown = time.monotonic()
        try:
            with lock:
                # without a share the workers are all there is; with one, every worker at
                # once (AllCores), or those a test's meter allows (more every GROW_SECONDS);
                # before the share's thread starts, so that they may be forked (can_fork)
                self._grow(len(pending) - (1 if self.share else 0))
                if self.share and pending:
                    # this process takes the first (biggest) task: it can start on it at once,
                    # before the workers started beside a search are all there
                    share = _ParentShare(self.task_function, take, pending.popleft())
            while True:
                with lock:  # workers that came up (on the starter's thread) or went idle
                    for slot in list(self._slots):
                        if slot.current is None and pending:
                            slot.give(pending.popleft())
                if tick is not None and not tick():
                    tick = None
                busy = [slot for slot in self._slots if slot.current is not None]
                if not busy and (share is None or not share.running) and not (
                        pending and self._starting > 0):
                    break
                waiting = [s.conn for s in busy] + [s.process.sentinel for s in busy]
                if share is not None and share.running:
                    waiting.append(share.reader)
                timeout = None
                if self.meter is not None and pending and self.running() < self.processes:
                    timeout = max(0.0, grown + GROW_SECONDS - time.monotonic())
                if self._starting > 0 and pending:  # a worker may come up any moment
                    timeout = STARTING_POLL if timeout is None else min(timeout, STARTING_POLL)
                if tick is not None:
                    timeout = TICK_SECONDS if timeout is None else min(timeout, TICK_SECONDS)
                ready = set(wait(waiting, timeout))
                if timeout is not None and time.monotonic() >= grown + GROW_SECONDS:
                    grown = time.monotonic()
                    with lock:
                        self._grow(len(pending))  # given their tasks at the loop's top
                if share is not None and share.reader in ready:
                    reply = share.reader.recv()
                    if reply is None:
                        share.running = False
                    else:
                        index, ok, payload = reply
                        if not ok:
                            raise TaskError(f"subproblem {index} failed: {payload}")
                        if index not in answered:
                            answered.add(index)
                            with lock:
                                for slot in [s for s in self._slots
                                             if s.current is not None and s.current[0] == index]:
                                    # this process overtook that worker: stop it
                                    slot.stop()
                                    self._slots.remove(slot)
                            yield index, payload
                for slot in busy:
                    if slot not in self._slots:
                        continue
                    reply = None
                    if slot.conn in ready or slot.process.sentinel in ready:
                        try:
                            if slot.conn.poll():
                                reply = slot.conn.recv()
                        except (EOFError, OSError):
                            reply = None
                    if reply is not None:
                        index, ok, payload = reply
                        with lock:
                            slot.current = None
                            slot.answered += 1
                        if not ok:
                            raise TaskError(f"subproblem {index} failed on a worker: {payload}")
                        if share is not None:
                            share.drop(index)
                        with lock:
                            if pending:
                                slot.give(pending.popleft())
                        if index not in answered:
                            answered.add(index)
                            yield index, payload
                    elif slot.process.sentinel in ready and not slot.process.is_alive():
                        lost = slot.current
                        assert lost is not None
                        deaths[lost[0]] = deaths.get(lost[0], 0) + 1
                        if deaths[lost[0]] >= MAX_DEATHS:
                            raise TaskError(
                                f"subproblem {lost[0]} killed {MAX_DEATHS} worker processes "
                                f"(last exit status {slot.process.exitcode}); giving up"
                            )
                        slot.conn.close()
                        with lock:
                            self._slots.remove(slot)
                            replacement = self._slot()
                            self._slots.append(replacement)
                            replacement.give(lost)
            finished = True
        finally:
            if share is not None:
                share.stop()
            if not finished:
                self.close()  # interrupted or failed: stop every worker now

    def close(self) -> None:
        """Stop the workers at once. They keep nothing worth waiting for: an idle one may still
        be importing puzzlebox (a short count can end before it is ready), and a busy one's
        answer is no longer wanted. Workers still starting on a thread are not waited for:
        that thread stops each one as it comes."""
        with self._slot_lock:
            self._generation += 1
            slots, self._slots = self._slots, []
            self._starter, self._starting = None, 0
        for slot in slots:
            slot.process.terminate()
        for slot in slots:
            slot.stop()


CONNECT_SECONDS = 5.0  # how long a scheduler may take to connect and answer who it is


def _first_line(error: BaseException) -> str:
    text = str(error).strip()
    return text.splitlines()[0] if text else type(error).__name__


def probe_scheduler(address: str, seconds: float = CONNECT_SECONDS) -> None:
    """Make sure ``address`` is a Dask scheduler that answers, within about ``seconds``:
    raise :class:`ClusterUnavailable` with one line otherwise (issue #38: a port that
    answered garbage made Dask's framing allocate exabytes, a web server kept the client
    waiting for minutes). A plain TCP connection first (a refusal is told at once), then
    Dask's own handshake and its ``identity`` call, each under a deadline, on a thread of
    their own (the caller may be inside an event loop, as a notebook is)."""
    import asyncio  # here: 10-90 ms of every local split run's start, for Dask alone

    def refuse(why: str) -> ClusterUnavailable:
        return ClusterUnavailable(f"cannot reach the Dask scheduler at {address}: {why}")

    where = urlsplit(address if "://" in address else f"tcp://{address}")  # Dask's default
    if where.scheme == "tcp":
        try:
            port = where.port
            host = where.hostname
        except ValueError as error:
            raise refuse(_first_line(error)) from None
        if host is None or port is None:
            raise refuse("an address names its host and port, as tcp://host:8786")
        try:
            socket.create_connection((host, port), timeout=seconds).close()
        except OSError as error:
            raise refuse(error.strerror or _first_line(error)) from None

    async def identity() -> Any:
        from distributed.comm import CommClosedError, connect

        try:
            comm = await asyncio.wait_for(connect(address, timeout=seconds), seconds + 1)
        except CommClosedError:
            raise ConnectionError("it closed the connection (is it a Dask scheduler?)") from None
        try:
            await asyncio.wait_for(comm.write({"op": "identity", "reply": True}), seconds)
            return await asyncio.wait_for(comm.read(), seconds)
        finally:
            comm.abort()

    answer: list[Any] = []

    def ask() -> None:
        try:
            answer.append(asyncio.run(identity()))
        except BaseException as error:  # told apart below
            answer.append(error)

    thread = threading.Thread(target=ask, name="puzzlebox-probe", daemon=True)
    thread.start()
    thread.join(3 * seconds + 2)
    if not answer or isinstance(answer[0], (TimeoutError, asyncio.TimeoutError)):
        raise refuse(f"no answer within {seconds:g} s (is it a Dask scheduler?)")
    reply = answer[0]
    if isinstance(reply, OSError):  # refused, closed, unreachable (Dask's CommClosedError)
        raise refuse(_first_line(reply))
    if isinstance(reply, BaseException):  # garbage read as Dask's frames: a MemoryError for
        # a length of exabytes, a ValueError, msgpack's errors...
        raise refuse("it does not speak Dask's protocol (is it a Dask scheduler?)")
    kind = reply.get("type") if isinstance(reply, dict) else None
    if kind != "Scheduler":
        what = f"a Dask {kind.lower()}" if isinstance(kind, str) else "something else"
        raise refuse(f"it answers as {what}, not as a Dask scheduler")


class DaskBackend:
    """Sends tasks to a running Dask scheduler and streams the results back as they finish."""

    def __init__(self, address: str, task_function: TaskFunction = run_task) -> None:
        try:
            from dask.distributed import Client
        except ImportError:
            raise ClusterUnavailable(
                f"a Dask cluster needs dask.distributed: {install_command('cluster')}"
            ) from None
        self.address = address
        self.task_function = task_function
        probe_scheduler(address)
        try:
            self.client = Client(address, timeout=f"{CONNECT_SECONDS:g}s", set_as_default=False)
        except Exception as error:  # whatever the comm raises: one line, never a traceback
            raise ClusterUnavailable(
                f"cannot reach the Dask scheduler at {address}: {_first_line(error)}"
            ) from None
        self.workers = max(1, sum(self.client.nthreads().values()))
        self._token = os.urandom(6).hex()  # (uuid: 2 ms of every split run's import)

    def run(self, tasks: Sequence[IndexedTask]) -> Iterator[tuple[int, Any]]:
        from dask.distributed import KilledWorker, as_completed

        index_of = {}
        futures = []
        for index, task in tasks:
            future = self.client.submit(
                self.task_function, task, key=f"puzzlebox-{self._token}-{index}", pure=False
            )
            index_of[future.key] = index
            futures.append(future)
        remaining = set(futures)
        try:
            for future in as_completed(futures, loop=self.client.loop):
                index = index_of[future.key]
                try:
                    result = future.result()
                except KilledWorker:
                    raise TaskError(
                        f"subproblem {index} killed every Dask worker that tried it; giving up"
                    ) from None
                except Exception as error:
                    raise TaskError(
                        f"subproblem {index} failed on a Dask worker: {type(error).__name__}: "
                        f"{error}"
                    ) from None
                remaining.discard(future)
                future.release()
                yield index, result
        finally:
            if remaining:
                self.client.cancel(list(remaining))

    def close(self) -> None:
        self.client.close()
