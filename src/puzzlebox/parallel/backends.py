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
import signal
import threading
import traceback
import uuid
from collections import deque
from collections.abc import Iterator, Sequence
from multiprocessing.connection import Connection, wait
from typing import Any

from puzzlebox.extras import install_command
from puzzlebox.parallel.errors import ClusterUnavailable, TaskError
from puzzlebox.parallel.tasks import Task, run_task

IndexedTask = tuple[int, Task]
TaskFunction = Any  # a picklable callable taking a Task (run_task, or a test's wrapper of it)

MAX_DEATHS = 3  # a task that has killed this many workers is not tried again


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
    except Exception as error:
        last = traceback.extract_tb(error.__traceback__)[-1:]
        where = f" ({last[0].filename}:{last[0].lineno})" if last else ""
        return index, False, f"{type(error).__name__}: {error}{where}"


def _worker_main(conn: Connection, task_function: TaskFunction) -> None:
    """A worker process: run tasks from the pipe until told to stop.

    It ignores SIGINT: Ctrl-C in a terminal reaches every process of the group, and only the
    parent decides what an interruption means (save, report, stop the workers)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
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


def _start_method() -> str:
    """forkserver where there is one (workers fork from a clean server that never ran numba
    code), else spawn; never plain fork, which is unsafe once numba has started threads."""
    return "forkserver" if "forkserver" in mp.get_all_start_methods() else "spawn"


class _Slot:
    """One worker process, its end of the pipe, and the task it is running."""

    def __init__(self, ctx: Any, task_function: TaskFunction) -> None:
        parent, child = ctx.Pipe()
        self.process = ctx.Process(
            target=_worker_main, args=(child, task_function), daemon=True
        )
        self.process.start()
        child.close()
        self.conn: Connection = parent
        self.current: IndexedTask | None = None

    def give(self, item: IndexedTask) -> None:
        self.current = item
        # a process that is gone is reported by its sentinel, and the task is run again
        with contextlib.suppress(OSError):
            self.conn.send(item)


class _ParentShare:
    """This process's own share of the tasks, run on a thread beside the loop that feeds the
    workers.

    The parent is ready at once (puzzlebox imported, the kernels loaded while it split the
    search), where a new worker process spends about a second importing and loading before
    its first task; with ``--jobs 2`` the parent and one worker share the two cores. The
    kernels release the GIL, so the loop that feeds the workers keeps running. Tasks come
    from the same queue as the workers' (``take``); replies go back through a pipe that the
    loop waits on with the workers' pipes, ending with ``None``.
    """

    def __init__(self, task_function: TaskFunction, take: Any, first: IndexedTask) -> None:
        self.task_function = task_function
        self._take = take
        self._first: IndexedTask | None = first
        self.reader, self._writer = mp.Pipe(duplex=False)
        self.stopped = threading.Event()
        self.running = True
        self._thread = threading.Thread(target=self._loop, name="puzzlebox-share", daemon=True)
        self._thread.start()

    def _loop(self) -> None:
        try:
            while not self.stopped.is_set():
                item, self._first = self._first or self._take(), None
                if item is None:
                    break
                self._writer.send(_reply(item, self.task_function))
            self._writer.send(None)
        except OSError:
            pass  # the loop stopped listening: nobody wants the answer
        finally:
            self._writer.close()

    def stop(self) -> None:
        """Take no more tasks (the one running, if any, finishes and is thrown away)."""
        self.stopped.set()
        self.reader.close()


class ProcessBackend:
    """A pool of local worker processes that survives the death of any of them.

    With ``share`` (the default) this process runs tasks too, so ``jobs`` means ``jobs - 1``
    worker processes and this one. The fault tests turn it off: their tasks kill the process
    that runs them.
    """

    def __init__(
        self, jobs: int, task_function: TaskFunction = run_task, *, share: bool = True
    ) -> None:
        if jobs < 1:
            raise ValueError(f"jobs must be at least 1, not {jobs}")
        self.workers = jobs
        self.share = share and jobs > 1
        self.processes = jobs - 1 if self.share else jobs
        self.task_function = task_function
        self._ctx = mp.get_context(_start_method())
        if self._ctx.get_start_method() == "forkserver":
            self._ctx.set_forkserver_preload(["puzzlebox.parallel.tasks"])
        self._slots: list[_Slot] = []

    def start(self) -> None:
        """Start every worker now, so that they get ready while the caller splits the search
        (otherwise they start with the first tasks)."""
        while len(self._slots) < self.processes:
            self._slots.append(_Slot(self._ctx, self.task_function))

    def run(self, tasks: Sequence[IndexedTask]) -> Iterator[tuple[int, Any]]:
        pending: deque[IndexedTask] = deque(tasks)
        lock = threading.Lock()

        def take() -> IndexedTask | None:
            with lock:
                return pending.popleft() if pending else None

        deaths: dict[int, int] = {}
        finished = False
        share: _ParentShare | None = None
        try:
            if self.share and pending:
                # this process takes the first (biggest) task: it can start on it at once
                share = _ParentShare(self.task_function, take, pending.popleft())
            while len(self._slots) < min(self.processes, len(pending)):
                self._slots.append(_Slot(self._ctx, self.task_function))
            for slot in self._slots:
                item = take()
                if item is not None:
                    slot.give(item)
            while (share is not None and share.running) or any(
                slot.current is not None for slot in self._slots
            ):
                busy = [slot for slot in self._slots if slot.current is not None]
                waiting = [s.conn for s in busy] + [s.process.sentinel for s in busy]
                if share is not None and share.running:
                    waiting.append(share.reader)
                ready = set(wait(waiting))
                if share is not None and share.reader in ready:
                    reply = share.reader.recv()
                    if reply is None:
                        share.running = False
                    else:
                        index, ok, payload = reply
                        if not ok:
                            raise TaskError(f"subproblem {index} failed: {payload}")
                        yield index, payload
                for slot in busy:
                    reply = None
                    if slot.conn in ready or slot.process.sentinel in ready:
                        try:
                            if slot.conn.poll():
                                reply = slot.conn.recv()
                        except (EOFError, OSError):
                            reply = None
                    if reply is not None:
                        index, ok, payload = reply
                        slot.current = None
                        if not ok:
                            raise TaskError(f"subproblem {index} failed on a worker: {payload}")
                        item = take()
                        if item is not None:
                            slot.give(item)
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
                        replacement = _Slot(self._ctx, self.task_function)
                        self._slots[self._slots.index(slot)] = replacement
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
        answer is no longer wanted."""
        for slot in self._slots:
            slot.process.terminate()
        for slot in self._slots:
            slot.process.join(timeout=5)
            if slot.process.is_alive():
                slot.process.kill()
                slot.process.join()
            slot.conn.close()
        self._slots = []


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
        try:
            self.client = Client(address, timeout="10s", set_as_default=False)
        except (OSError, TimeoutError, ValueError) as error:
            message = str(error).splitlines()[0] if str(error) else type(error).__name__
            raise ClusterUnavailable(
                f"cannot reach the Dask scheduler at {address}: {message}"
            ) from None
        self.workers = max(1, sum(self.client.nthreads().values()))
        self._token = uuid.uuid4().hex[:12]

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
