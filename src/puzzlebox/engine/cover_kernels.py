"""The general engine's kernels, C or numba (engine/kernel_choice.py decides), and the numbers
both share: registers, phases, frame fields, kinds of frame, modes and statuses.

engine/_kernels.py (numba) and engine/_ckernels.c (C, built at installation) are the same
algorithm statement for statement; their docstrings say what each number means. The numbers
live here, in a module that imports no numba, so that engine/compiled.py and
engine/estimate.py read them without loading numba where the C kernels run
(tests/test_compiled_kernels.py checks that the C source uses the same ones).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, NamedTuple

import numpy as np

from puzzlebox.engine import kernel_choice

# registers (int64)
R_LEVEL = 0  # frames on the stack = depth of the node being entered
R_PHASE = 1  # where to resume: P_ENTER, P_NEXT, P_RETURN or P_DONE
R_PACT = 2  # primary items not yet done
R_SACT = 3  # secondary items not yet done
R_NODES = 4  # nodes entered so far
R_SOLUTIONS = 5  # solutions found so far (or frontier records / probes, in those modes)
R_SEED = 6  # probe mode: the seed of the probes, set by the caller (probe p draws from (seed, p))
R_RNG = 7  # probe mode: the state of the current probe's random numbers
R_SUB0 = 8  # probe mode: nodes entered before the subtree being searched in full
R_SUBSOL = 9  # probe mode: solutions found so far in that subtree
N_REGS = 10

P_ENTER = 0  # enter the node the stack describes: choose an item, or report a leaf
P_NEXT = 1  # take the next branch of the top frame, or pop it
P_RETURN = 2  # a child of the top frame is finished: undo its branch
P_DONE = 3  # the whole tree has been searched

# frame fields (int64)
F_ITEM = 0  # the item branched on
F_KIND = 1  # K_COVER or K_KEEP
F_NOMORE = 2  # 1 when the "cover it no more" branch is allowed (cover) or taken (keep)
F_L0 = 3  # kind cover: options of the item when the frame was pushed (on blist)
F_T = 4  # branches started (cover) or options tried and left out (keep)
F_CHOSEN = 5  # option of the current branch, -1 for "no more"
F_BL = 6  # where this frame's options start on ``blist``
F_PACT = 7  # pact when the current branch began
F_SACT = 8  # sact when the current branch began
F_DEG = 9  # probe mode: the node's number of children (its branches: the engine enters each)
N_FIELDS = 10

# kind cover: the item is full after one more option (room 1): it is covered when the frame is
# pushed and each branch takes one of the options it had then (Algorithm X/C).
K_COVER = 0
# kind keep: the item still has room after one more option (Algorithm M): each branch takes the
# available option with the highest number, and after it returns that option is hidden for
# the later branches; the last branch, once the item is satisfied, takes none of them.
K_KEEP = 1

# modes
M_COUNT = 0  # count leaves only
M_SOLUTIONS = 1  # write each solution as [length, option, ...]
M_FRONTIER = 2  # write each node at the given depth (and each shallower leaf) as a subproblem
# Knuth's random probes: from the root, take one branch of each node chosen uniformly, down to
# a leaf or to the given depth, where the node's subtree is searched in full (Purdom's partial
# backtracking); write [degree at depth 0, degree at depth 1, ..., nodes of the subtree where
# the probe stopped (1 at a leaf), its solutions]; restore the root and start the next probe,
# which draws from its own numbers (``regs[R_SEED]`` and its index). A probe is a record.
M_PROBE = 3

# what search() returns
S_DONE = 0  # the tree is exhausted
S_SOLUTIONS = 1  # it found the number of solutions (or records) asked for
S_BUDGET = 2  # it entered the number of nodes allowed for this call
S_FULL = 3  # the output buffer cannot hold the next record
S_GROW = 4  # ``W`` has no room for the next level: grow it and call again

NO_BRANCHES = np.int64(1 << 30)  # the count of an item that needs no branch
NO_ITEM = np.int64(1 << 62)  # the key while no item has been found


class Kernels(NamedTuple):
    """The two kernels a search calls: ``setup`` puts the fresh state in its starting
    position, ``search`` walks the tree (engine/_kernels.py says how, and with what)."""

    backend: str
    setup: Callable[..., Any]
    search: Callable[..., tuple[int, int]]


def kernels() -> Kernels:
    """The kernels of the backend in use: the C ones built at installation, else numba's,
    imported only here so that numba loads only when it runs."""
    if kernel_choice.backend() == kernel_choice.C:
        c = kernel_choice.compiled_c()
        return Kernels(kernel_choice.C, c.cover_setup, c.cover_search)
    from puzzlebox.engine import _kernels

    return Kernels(kernel_choice.NUMBA, _kernels.setup, _kernels.search)
