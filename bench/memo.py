"""Time the memoised count (``--engine memo``) on tilings far beyond enumeration.

Run from the repository root:  .venv/bin/python bench/memo.py [--repeat N]

Each count is checked against its known value before it is timed, and the best of
``--repeat`` runs is reported (the whole ``Puzzle.count``: sweep plus Burnside).
"""

from __future__ import annotations

import argparse
import platform
import time

from puzzlebox import catalog
from puzzlebox.formats.reader import read_text
from puzzlebox.puzzles import Puzzle

MONO_DOMINO = 'm = { shape = "#", count = "any" }\nd = { shape = "##", count = "any" }'


def _board(rows: int, cols: int, pieces: str) -> Puzzle:
    grid = "/".join("#" * cols for _ in range(rows))
    return read_text(f'[board]\ngrid = "{grid}"\n[pieces]\n{pieces}\n', "bench", "b").puzzles[0]


# (label, how to build it, known number of tilings as placed, target seconds or None)
CASES = [
    ("1x12 monominoes+dominoes", lambda: _board(1, 12, MONO_DOMINO), 233, None),
    ("2x10 monominoes+dominoes", lambda: _board(2, 10, MONO_DOMINO), 78_243, None),
    ("tiling-3x12", lambda: catalog.load_file("tiling-3x12").puzzles[0], 1_820_552_297, 1.0),
    (
        "tiling-3x50",
        lambda: catalog.load_file("tiling-3x50").puzzles[0],
        2530373879400570618547163034787837890646,
        5.0,
    ),
    ("dominoes-8x8", lambda: catalog.load_file("dominoes-8x8").puzzles[0], 12_988_816, None),
    (
        "12x12 dominoes",
        lambda: _board(12, 12, 'd = { shape = "##", count = "any" }'),
        53060477521960000,
        None,
    ),
    ("pentomino-6x10 (one of each)", lambda: catalog.load("pentomino-6x10"), 9356, None),
]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3, help="runs per case (best is kept)")
    parser.add_argument("--quick", action="store_true", help="skip the pentomino case (~30 s)")
    args = parser.parse_args()
    print(
        f"python {platform.python_version()} on {platform.machine()}, {time.strftime('%Y-%m-%d')}"
    )
    print(f"| case | tilings | distinct | states | best of {args.repeat} (s) | target |")
    print("|---|---:|---:|---:|---:|---|")
    for label, build, known, target in CASES:
        if args.quick and label.startswith("pentomino"):
            continue
        best = float("inf")
        for _ in range(args.repeat if not label.startswith("pentomino") else 1):
            puzzle = build()
            began = time.perf_counter()
            result = puzzle.count(engine="memo")
            best = min(best, time.perf_counter() - began)
            if result.solutions != known:
                raise SystemExit(f"{label}: counted {result.solutions}, expected {known}")
        ok = ""
        if target is not None:
            ok = f"< {target:g} s: " + ("met" if best < target else "MISSED")
        print(
            f"| {label} | {result.solutions} | {result.distinct} | {result.stats.nodes} "
            f"| {best:.4f} | {ok} |"
        )


if __name__ == "__main__":
    main()
