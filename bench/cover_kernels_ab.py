"""The general engine's C kernels against numba's, in CPU seconds of whole counts.

Both count the same tree in one process, in alternating order (C first in odd rounds,
numba first in even ones), so the load of a shared machine falls on both alike; the first
round of each is not timed (numba loads or compiles its kernels there):

    .venv/bin/python bench/cover_kernels_ab.py [--rounds 5] [name ...]

Names: pentominoes-6x10 (3.6 million nodes), pentominoes-5x12, queens-12, sudoku-4x4 (every
completed 4x4 grid), pentasticks-2x9 (the catalog's, as its cover problem). Prints
the minimum and median CPU seconds of each and the ratio C / numba of the medians.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

from puzzlebox.cover.problem import CoverProblem
from puzzlebox.engine import kernel_choice
from puzzlebox.engine.compiled import _i32, _Search, _Tables, _warm_up
from puzzlebox.engine.cover_kernels import M_COUNT

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))


def _pentominoes(rows: int, cols: int) -> Callable[[], CoverProblem]:
    def build() -> CoverProblem:
        from test_compiled_engine import pentominoes

        return pentominoes(rows, cols)

    return build


def _queens(n: int) -> Callable[[], CoverProblem]:
    def build() -> CoverProblem:
        from test_compiled_engine import queens

        return queens(n)

    return build


def _catalog(name: str) -> Callable[[], CoverProblem]:
    def build() -> CoverProblem:
        import puzzlebox

        return puzzlebox.load(name).problem

    return build


PROBLEMS: dict[str, Callable[[], CoverProblem]] = {
    "pentominoes-6x10": _pentominoes(6, 10),
    "pentominoes-5x12": _pentominoes(5, 12),
    "queens-12": _queens(12),
    "sudoku-4x4": _catalog("sudoku-4x4-empty"),
    "pentasticks-2x9": _catalog("pentasticks-2x9"),
}


def count(tables: _Tables, backend: str) -> tuple[float, int, int]:
    """CPU seconds, solutions and nodes of one whole count on ``backend``'s kernels."""
    kernel_choice.use(backend)
    try:
        none = _i32([])
        search = _Search(tables, none, none)
        began = time.process_time()
        while not search.finished:
            search.run(M_COUNT, 0, 1 << 62, 1 << 62)
        return time.process_time() - began, search.found, search.nodes
    finally:
        kernel_choice.use(None)


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("names", nargs="*", default=["pentominoes-6x10", "queens-12",
                                                     "sudoku-4x4", "pentasticks-2x9"])
    args = parser.parse_args()
    if "c" not in kernel_choice.available():
        sys.exit("the C kernels are not built: pip install -e . where a C compiler is")
    kernel_choice.use(kernel_choice.NUMBA)
    _warm_up()
    kernel_choice.use(None)
    backends = (kernel_choice.C, kernel_choice.NUMBA)
    for name in args.names:
        tables = _Tables.build(PROBLEMS[name]())
        times: dict[str, list[float]] = {b: [] for b in backends}
        answers = set()
        for r in range(args.rounds + 1):
            for backend in backends if r % 2 else backends[::-1]:
                spent, found, nodes = count(tables, backend)
                answers.add((found, nodes))
                if r:
                    times[backend].append(spent)
        assert len(answers) == 1, f"{name}: the kernels disagree: {answers}"
        (found, nodes), = answers
        c, nb = (statistics.median(times[b]) for b in backends)
        print(f"{name}: {found} solutions, {nodes} nodes; CPU s min/median over {args.rounds}"
              f" rounds: C {min(times['c']):.3f}/{c:.3f}, numba {min(times['numba']):.3f}/"
              f"{nb:.3f}; C/numba {c / nb:.2f}", flush=True)


if __name__ == "__main__":
    main()
