"""How long a long count would take: the bitboard engine stepped for a number of CPU seconds
on a catalog puzzle's problem cut by its symmetries (what ``puzzlebox count`` searches),
then the time projected from the share of the tree its own path says it has walked.

    python bench/long_count.py one-sided-pentominoes-5x18 30
"""

from __future__ import annotations

import argparse
import sys
import time

from puzzlebox import catalog
from puzzlebox.engine.bitboard import BitboardSearch
from puzzlebox.engine.search import Job, Mode


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("puzzle", help="a catalog puzzle")
    parser.add_argument("seconds", type=float, help="CPU seconds to search")
    args = parser.parse_args()
    puzzle = catalog.load_file(args.puzzle).puzzles[0]
    seconds = args.seconds
    search = BitboardSearch(Job(puzzle.search_problem(), Mode.COUNT))
    began = time.process_time()
    counted = 0
    while time.process_time() - began < seconds:
        step = search.step(1 << 20)
        counted += step.counted
        if step.done:
            break
    cpu = time.process_time() - began
    walked = search.stats.walked or 0.0
    projected = f"{cpu / walked:.0f} s" if walked else "?"
    print(f"{args.puzzle}: {search.stats.nodes:,} nodes, {counted:,} solutions counted in "
          f"{cpu:.1f} s CPU, {walked:.2%} of the tree walked: about {projected} of CPU in all")
    return 0


if __name__ == "__main__":
    sys.exit(main())
