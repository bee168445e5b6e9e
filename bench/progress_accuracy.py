"""How good is the progress bar's time left? Predicted against the truth, on real counts.

For each count (instance and engine) it runs ``Puzzle.count`` with the same ``on_step`` hook
the progress display gets, recording after every step the time so far, the share of the run
the bar shows and the time left it would show, then compares, at 20%, 40%, 60% and 80% of the
run's wall time, the predicted time left with the true one (the run's end minus now), and
prints a Markdown table (the one in docs/estimates.md):

    .venv/bin/python bench/progress_accuracy.py [COUNT ...]

A count is ``INSTANCE:ENGINE`` (``puzzlebox count``: the parts of the symmetry breaking) or
``INSTANCE:ENGINE:all`` (the whole tree, raw, as ``solve --all`` walks it). The share is what
the display uses: for the compiled engine, nodes over Knuth's estimate of the tree (computed
first, as the display's background thread does: ``ESTIMATE_PROBES`` probes or
``ESTIMATE_SECONDS``); for the others, the share of the tree walked that the engine reports
(``SearchStats.walked``; "-" where it reports none). The prediction is
``progress.time_left``: the time so far times the share not done over the share done. The
cells give the share shown, the predicted and the true time left and their ratio (x1.00:
exact; within a factor of two: x0.50 to x2.00). The display shows the time left only for the
compiled engine's estimate, and not once the search has passed the estimate
(``progress.TIME_LEFT_SHOWN``); the table gives what it would have been for both kinds.
"""

from __future__ import annotations

import argparse
import time

from puzzlebox import catalog
from puzzlebox.engine.estimate import estimate_tree
from puzzlebox.engine.registry import start
from puzzlebox.engine.search import Job, Mode, count_all
from puzzlebox.engine.stats import SearchStats
from puzzlebox.formats import read_text
from puzzlebox.progress import (
    ESTIMATE_PROBES,
    ESTIMATE_SECONDS,
    ESTIMATED,
    WALKED,
    time_left,
)
from puzzlebox.puzzles import Puzzle

COUNTS = ["pentomino-6x10:compiled", "pentomino-6x10:bitboard", "pentomino-5x12:bitboard",
          "pentomino-5x12:compiled", "queens-14:compiled"]
POINTS = (0.2, 0.4, 0.6, 0.8)


def load(name: str) -> Puzzle:
    if name.startswith("queens-") and not catalog.path_of(name).exists():
        n = int(name.split("-")[1])
        return read_text(f'kind = "queens"\nn = {n}\n', name, name).puzzles[0]
    return catalog.load(name).puzzles[0]


def measure(spec: str) -> tuple[str, list[str], float]:
    """``(kind, cells at each point, run seconds)`` of one count."""
    name, engine, *whole = spec.split(":")
    puzzle = load(name)
    guess: float | None = None
    if engine == "compiled":
        tree = puzzle.problem if whole else puzzle.search_problem()
        est = estimate_tree(tree, probes=ESTIMATE_PROBES,
                            max_seconds=ESTIMATE_SECONDS)
        guess = est.nodes
    records: list[tuple[float, float | None, bool]] = []
    began = time.perf_counter()

    def hook(stats: SearchStats) -> None:
        now = time.perf_counter() - began
        if guess is not None:
            share: float | None = stats.nodes / max(guess, stats.nodes + 1)
        else:
            share = stats.walked
        records.append((now, share, guess is not None and stats.nodes >= guess))

    if whole:
        _, search = start(Job(puzzle.problem, Mode.COUNT), engine)
        count_all(search, on_step=hook)
    else:
        puzzle.count(engine=engine, on_step=hook)
    total = time.perf_counter() - began
    cells = []
    for point in POINTS:
        at = next((r for r in records if r[0] >= point * total), None)
        if at is None or at[1] is None:
            cells.append("-")
            continue
        elapsed, share, past = at
        predicted = time_left(elapsed, share)
        truth = total - elapsed
        if predicted is None or past:
            cells.append(f"{share:.0%} shown, past the estimate: no time left shown"
                         if past else f"{share:.0%} shown, no time left")
            continue
        cells.append(f"{share:.0%} shown, {predicted:.1f} s for {truth:.1f} s "
                     f"(x{predicted / truth:.2f})")
    return (ESTIMATED if guess is not None else WALKED), cells, total


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("counts", nargs="*", default=COUNTS, help="INSTANCE:ENGINE")
    args = parser.parse_args()
    print("| count | share | run | " + " | ".join(f"at {p:.0%}" for p in POINTS) + " |")
    print("|---|---|---:|" + "---|" * len(POINTS))
    for spec in args.counts:
        kind, cells, total = measure(spec)
        print(f"| {spec} | {kind} | {total:.1f} s | " + " | ".join(cells) + " |", flush=True)


if __name__ == "__main__":
    main()
