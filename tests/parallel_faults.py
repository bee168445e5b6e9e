"""Tasks that kill the worker process running them, for the fault tests of test_parallel.py.

They live in a module of their own, with no heavy imports, because every worker process that
unpickles them imports this module."""

from __future__ import annotations

import os
import signal
from typing import Any

from puzzlebox.parallel.tasks import Task, run_task


def die_once(marker: str, task: Task) -> Any:
    """Kill this worker the first time any worker runs a task (``marker`` is created then);
    afterwards, run tasks normally."""
    try:
        fd = os.open(marker, os.O_CREAT | os.O_EXCL | os.O_WRONLY)
    except FileExistsError:
        return run_task(task)
    os.close(fd)
    os.kill(os.getpid(), signal.SIGKILL)
    raise AssertionError("unreachable")


def always_die(task: Task) -> Any:
    os.kill(os.getpid(), signal.SIGKILL)
    raise AssertionError("unreachable")


def whose(task: Any) -> int:
    """Not a fault: take a moment and say which process ran the task, so a test can see the
    work shared between this process and the workers."""
    import time

    time.sleep(0.3)
    return os.getpid()


def stall_in_workers(parent: int, task: Task) -> Any:
    """Not a fault of the count: a worker that never answers (a process starved of CPU, or
    stuck); in the process ``parent`` the task runs normally."""
    import time

    if os.getpid() != parent:
        time.sleep(30)  # long past the test's end, were the worker waited on
    return run_task(task)


def count_and_builds(task: Task) -> Any:
    """Not a fault: a subproblem counted as run_task counts it, with what this process
    built for its tasks so far (tasks.BUILT) and its process id at the end of the answer."""
    from puzzlebox.parallel import tasks

    return (*run_task(task), dict(tasks.BUILT), os.getpid())


def design_batch_and_reads(task: Any) -> Any:
    """Not a fault: a design search's batch tried as designs/run.py's try_batch tries it
    (its steps, not the function: a test puts this one in its place), each result with the
    spaces this process has read (SPACES_READ) and its process id."""
    from puzzlebox.designs import run
    from puzzlebox.designs.evaluate import evaluate
    from puzzlebox.designs.space import Design
    from puzzlebox.run.limits import Limits

    text, source, name, seconds, refuse, designs = task
    space = run._space(text, source, name)
    limits = Limits(time=seconds, refuse=refuse)
    return [dict(evaluate(space, Design.from_json(d), limits).to_json(),
                 _reads=run.SPACES_READ[0], _pid=os.getpid()) for d in designs]
