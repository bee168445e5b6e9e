"""Polysticks: Polyform Puzzler's 15 of the 16 tetrasticks on a 6x6 grid of points, counted
in full (published: 1795 solutions up to symmetry; 72, 382, 607, 530 and 204 leaving out H,
J, L, N and Y), too slow for the test suite, which checks the 72.

    python bench/polysticks.py                 # the 1795, with wall and CPU seconds
    python bench/polysticks.py --by-piece      # and each piece left out, one count each
    python bench/polysticks.py --touch ends    # the stricter rule at grid points: none

Under ``touch = "ends"`` (pieces meet only where one of them ends; two corners may not
touch) the grid has no solution at all, so Puzzler's 1795 are counted under its own rule,
``"corners"`` (no crossing), which is the catalog's default.

Every count is made by ``Puzzle.count()`` on the catalog's ``tetrasticks-6x6`` (its
``distinct`` is Puzzler's count); CPU seconds are this process's and its children's.
"""

from __future__ import annotations

import argparse
import platform
import resource
import time

from puzzlebox import catalog
from puzzlebox.formats import read_text

NAME = "tetrasticks-6x6"
PUBLISHED = {"H": 72, "J": 382, "L": 607, "N": 530, "Y": 204}  # Puzzler's Tetrasticks6x6


def cpu() -> float:
    own = resource.getrusage(resource.RUSAGE_SELF)
    kids = resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + kids.ru_utime + kids.ru_stime


def variant(left_out: str | None, touch: str) -> str:
    """The catalog file, with one piece left out (the others of the five then count 1)."""
    text = catalog.path_of(NAME).read_text("utf-8")
    if left_out is not None:
        for line in text.splitlines():
            if "count = [0, 1]" in line:
                piece = line.split(" = ", 1)[0]
                count = "0" if piece == left_out else "1"
                text = text.replace(line, line.replace("count = [0, 1]", f"count = {count}"))
    if touch != "corners":
        text += f'\n[rules]\ntouch = "{touch}"\n'
    return text


def count(left_out: str | None, touch: str) -> tuple[int, int, float, float]:
    puzzle = read_text(variant(left_out, touch), f"{NAME}.toml", NAME).puzzles[0]
    wall, used = time.perf_counter(), cpu()
    result = puzzle.count(limits=None)
    return result.solutions, result.distinct or 0, time.perf_counter() - wall, cpu() - used


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--by-piece", action="store_true",
                        help="also count each of the five pieces left out")
    parser.add_argument("--touch", choices=["corners", "ends"], default="corners",
                        help="the rule at grid points (default corners: Puzzler's)")
    args = parser.parse_args()
    print(f"machine: {platform.node()} ({platform.processor() or platform.machine()}), "
          f"python {platform.python_version()}")
    rows: list[tuple[str | None, int | None]] = [(None, sum(PUBLISHED.values()))]
    if args.by_piece:
        rows += list(PUBLISHED.items())
    for left_out, published in rows:
        raw, distinct, wall, used = count(left_out, args.touch)
        what = "any one of H J L N Y" if left_out is None else left_out
        expect = f"published {published}" if args.touch == "corners" else "not published"
        print(f"{NAME} touch={args.touch} leaving out {what}: {raw} solutions, {distinct} "
              f"distinct ({expect}); {wall:.1f} s wall, {used:.1f} s CPU")


if __name__ == "__main__":
    main()
