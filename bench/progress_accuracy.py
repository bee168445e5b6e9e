"""Does the progress tell the truth? The run layer's events against the truth, on real counts.

For each count (instance and engine) it runs one :class:`puzzlebox.run.Run` and records every
:class:`puzzlebox.run.Progress` event it emits (what the terminal line, the page and
``--progress json`` show), and beside it, from the same steps, the share of the run before
the cap and where it comes from (run/progress.py: ``Meter.share``). It then checks the two
rules of issue #22 and measures what a time left would have been:

* **the share**: the largest share shown while a tenth of the run (in wall time) was still to
  come; the rule is that it never reaches 0.99;
* **the time left**: at 20%, 40%, 60% and 80% of the run's wall time, the time left that the
  share before the cap predicts (time so far x share not done / share done) against the true
  one (the run's end minus now), as a ratio (x1.00 exact; x0.50 to x2.00 within a factor of
  two). A source of share whose predictions stay within 2x from 20% of the run on every
  instance that runs 5 s to 5 min may show a time left (``ETA_MEASURED``); the last column
  says what the events gave (``none``: no time left shown).

    .venv/bin/python bench/progress_accuracy.py [COUNT ...]

A count is ``INSTANCE:ENGINE`` (``puzzlebox count``: the parts of the symmetry breaking) or
``INSTANCE:ENGINE:all`` (every solution, as ``solve --all`` walks the tree). Wall-clock: run
it on a quiet machine, or say how loaded it was.
"""

from __future__ import annotations

import argparse
import time

from puzzlebox import catalog
from puzzlebox.engine.stats import SearchStats
from puzzlebox.formats import read_text
from puzzlebox.puzzles import Puzzle
from puzzlebox.run import Progress, Run
from puzzlebox.run.progress import Meter

COUNTS = ["solid-pentominoes-3x4x5:auto", "pentomino-6x10:compiled", "pentomino-6x10:bitboard",
          "queens-14:compiled"]
POINTS = (0.2, 0.4, 0.6, 0.8)


def load(name: str) -> Puzzle:
    if name.startswith("queens-") and not catalog.path_of(name).exists():
        n = int(name.split("-")[1])
        return read_text(f'kind = "queens"\nn = {n}\n', name, name).puzzles[0]
    return catalog.load_file(name).puzzles[0]


def measure(spec: str) -> tuple[str, list[str], float, str, str]:
    """``(source, cells at each point, run seconds, the share rule, the time left shown)``."""
    name, engine, *whole = spec.split(":")
    puzzle = load(name)
    meter = Meter((lambda: puzzle.problem) if whole else puzzle.search_problem)
    raw: list[tuple[float, float | None, str | None]] = []
    events: list[Progress] = []
    began = time.perf_counter()

    def hook(stats: SearchStats) -> None:
        share, source = meter.share(stats)
        raw.append((time.perf_counter() - began, share, source))

    def shown(event: Progress) -> None:
        events.append(event)

    run = Run(puzzle, "solutions" if whole else "count", engine=engine, limits=None,
              on_step=hook, on_progress=shown, every=0.0)
    if whole:
        for _ in run.solutions():
            pass
    else:
        run.count()
    total = time.perf_counter() - began
    meter.close()
    cells = []
    for point in POINTS:
        at = next((r for r in raw if r[0] >= point * total), None)
        if at is None or at[1] is None:
            cells.append("-")
            continue
        elapsed, share, _ = at
        truth = total - elapsed
        predicted = elapsed * (1 - share) / share if share > 0 else float("inf")
        cells.append(f"{share:.0%}, {predicted:.1f} s for {truth:.1f} s (x{predicted / truth:.2f})")
    # the events' clock starts with the run (as the tool's): their elapsed is comparable
    last = events[-1].elapsed if events else total
    early = [e.share for e in events if not e.done and e.share is not None
             and last - e.elapsed >= 0.1 * last]
    rule = f"{max(early):.0%}" if early else "none shown"
    etas = [e.eta for e in events if not e.done and e.eta is not None]
    eta = "none" if not etas else f"{len(etas)} shown"
    sources = {s for _, _, s in raw if s is not None}
    return ("/".join(sorted(sources)) or "-"), cells, total, rule, eta


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("counts", nargs="*", default=COUNTS, help="INSTANCE:ENGINE[:all]")
    args = parser.parse_args()
    print("| count | share from | run | " + " | ".join(f"at {p:.0%}" for p in POINTS)
          + " | most shown, a tenth to go | time left shown |")
    print("|---|---|---:|" + "---|" * len(POINTS) + "---|---|")
    for spec in args.counts:
        source, cells, total, rule, eta = measure(spec)
        print(f"| {spec} | {source} | {total:.1f} s | " + " | ".join(cells)
              + f" | {rule} | {eta} |", flush=True)


if __name__ == "__main__":
    main()
