"""Say so, once, when the search kernels are about to be compiled (issue #16 item 2).

numba compiles the kernels on their first call and keeps them in its cache (``cache=True``):
the first run after installation is silent for several seconds while it does, later runs
load them at once. Before a kernel module's warm-up this module asks numba's cache whether
the kernel has an entry for its present source; where it has none, one line on standard
error says what is happening and about how long it takes.
"""

from __future__ import annotations

import sys
from typing import Any

from puzzlebox.engine import kernel_choice

# Seconds to compile each kernel module with an empty cache, on the shared 2-core machine:
#   rm -rf /tmp/c; NUMBA_CACHE_DIR=/tmp/c /usr/bin/time -f %e puzzlebox count pentomino-6x10
# (bitboard: 3.8 s whole process), then `count queens-8` (queens: 2.6 s), less the warm run
# (1.5 s). exact-cover, re-measured (issue #23): PUZZLEBOX_KERNELS=numba puzzlebox count
# cards-3x3, empty cache 7.17 and 7.36 s of CPU, warm 0.84 and 0.79 s (load 5.6-6.0): 6.3-6.6 s
# of CPU compiling (12-16 s of wall-clock time on that load).
# edge-matching and sink, numba only (2026-11-26, load 2.6-3.4, two runs each, empty cache
# against warm, CPU): `solve cards-3x3-corrected --engine edges` 1.40/1.32 s against 0.68/0.79 s;
# `solve pentomino-6x10 --engine sink` 2.02/2.25 s against 0.95/1.01 s.
SECONDS = {"tiling": 3, "exact-cover": 7, "n-queens": 2, "edge-matching": 1, "sink tiling": 2}
# The kernels engine/_ckernels.c also has: where it is built, they are never compiled.
AHEAD_OF_TIME = ("tiling", "n-queens", "exact-cover")


def _cached(kernel: Any) -> bool:
    """Whether numba's cache holds a compiled version of ``kernel``'s present source.

    An index that exists but was written for other source (an upgrade) counts as empty,
    as numba itself treats it. This reads numba's FunctionCache, which has no public API
    for the question; a numba without these attributes raises AttributeError here, and
    the tests (tests/test_first_run.py) say so."""
    return bool(kernel._cache._cache_file._load_index())


def announce(kind: str, kernel: Any) -> None:
    """One line on stderr when ``kernel`` (the module's main kernel) must be compiled;
    ``kind`` names the kernels for a user (a key of SECONDS). Nothing is compiled, and
    nothing said, where the C kernels built at installation run instead."""
    if kernel_choice.backend() == kernel_choice.C and kind in AHEAD_OF_TIME:
        return
    if not _cached(kernel):
        print(f"puzzlebox: compiling the {kind} search kernels once (about {SECONDS[kind]} s "
              "on 2 cores); later runs load them from numba's cache", file=sys.stderr,
              flush=True)
