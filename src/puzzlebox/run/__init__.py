"""The run layer (#22): one :class:`Run` behind every door (the library, the command line,
the page), with one parameters record (:class:`Limits`, :class:`Split`) and one callback
(:class:`Progress` events).

Importing it loads the puzzle kinds (so that the engines they contribute are registered:
the engine layer never imports them) and installs the doors of ``Puzzle.count()``,
``solutions()`` and ``solve()`` (puzzles/base.py), which run through :class:`Run`.

The hopeless-count refusal is the same everywhere::

    >>> import puzzlebox
    >>> puzzle = puzzlebox.loads('kind = "queens"\\nn = 40')
    >>> puzzle.count()                                  # doctest: +SKIP
    Hopeless: puzzle: a count would take more than the age of the universe (...): refused
    >>> puzzle.count(limits=None)                       # doctest: +SKIP  (runs anyway)
    >>> puzzle.count(limits=Limits(time=60))            # doctest: +SKIP  (a minute at most)
"""

from puzzlebox.engine.memory import OverMemory, TooBig
from puzzlebox.puzzles import base as _base
from puzzlebox.run.limits import NO_LIMIT, Hopeless, Limits, OutOfNodes, OutOfTime
from puzzlebox.run.progress import Progress
from puzzlebox.run.run import Doors, Run, RunError, Split, Stopped, split_run

_base.use_runner(Doors())

__all__ = ["NO_LIMIT", "Hopeless", "Limits", "OutOfNodes", "OutOfTime", "OverMemory",
           "Progress", "Run", "RunError", "Split", "Stopped", "TooBig", "split_run"]
