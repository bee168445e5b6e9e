"""Counting completed sudoku grids: how far puzzlebox's engines get, and what the 9x9 count
(Felgenhauer and Jarvis 2005: 6,670,903,752,021,072,936,960) would take.

    python bench/sudoku_count.py small          # 4x4 and 6x6 in full, Burnside on 4x4
    python bench/sudoku_count.py band           # the 9x9 first band: 56 x 6^6 (F&J)
    python bench/sudoku_count.py completions    # grids below one band, and the projection
    python bench/sudoku_count.py completions --classes 10   # that band's count, exactly

Every count is made by puzzlebox's engines on the sudoku kind (or, for a band alone, on a
cover problem built here the same way); the reductions are the classical ones:

* relabelling: the symbols can be renamed so that box 1 reads 1..n in order, and each grid
  has exactly one such renaming, so the count is n! times the completions of a fixed box 1;
* the first band: with box 1 fixed, 56 x 6^6 = 2,612,736 ways to fill rows 1-3 (F&J);
* below a fixed band: the 72 permutations of rows 4-9 that keep the bands (swap bands 2
  and 3, permute the rows of each) fix the band and act freely on the 720 orders of column
  1's six remaining digits; so the completions of a band are 72 times the sum over 10
  classes (which three digits go to rows 4-6, the smallest always among them) of the
  completions with column 1 fixed;
* Burnside (4x4 only, in full): the grids up to the whole group (relabelling, transposing,
  permuting bands, stacks and the rows and columns in them) are the average number of grids
  each map fixes.

Times are wall-clock seconds on the machine that runs it; the machine is named in the output.
"""

from __future__ import annotations

import argparse
import itertools
import math
import platform
import time
from collections.abc import Callable, Sequence

from puzzlebox.cover.problem import CoverBuilder, CoverProblem
from puzzlebox.engine.registry import resolve
from puzzlebox.engine.search import Job, Mode, count_all
from puzzlebox.formats import read_text
from puzzlebox.puzzles.sudoku import SudokuPuzzle

FELGENHAUER_JARVIS = 6_670_903_752_021_072_936_960  # completed 9x9 grids (OEIS A107739)
BAND_CONFIGURATIONS = 56 * 6**6  # first bands with box 1 fixed (F&J)
FJ_CLASSES = 44  # F&J's classes of first bands under the band's symmetries
RUSSELL_JARVIS = 5_472_730_538  # essentially different 9x9 grids (Russell & Jarvis 2006)
CANONICAL_BAND = ("123456789", "456789123", "789123456")


def sudoku(rows: Sequence[str], extra: str = "") -> SudokuPuzzle:
    text = 'kind = "sudoku"\ngrid = """\n' + "\n".join(rows) + '\n"""\n' + extra
    puzzle = read_text(text, "bench", "bench").puzzles[0]
    assert isinstance(puzzle, SudokuPuzzle)
    return puzzle


def timed(what: Callable[[], int]) -> tuple[int, float]:
    began = time.perf_counter()
    value = what()
    return value, time.perf_counter() - began


def count_problem(problem: CoverProblem, engine: str = "auto") -> int:
    """Every solution of a cover problem, by the engine the registry picks."""
    job = Job(problem, Mode.COUNT)
    search = resolve(job, engine).start(job)
    return count_all(search)[0]


# -- 4x4 and 6x6 in full ---------------------------------------------------------------------


def burnside_4x4(grids: list[tuple[tuple[int, ...], ...]]) -> int:
    """Essentially different 4x4 grids: orbits under relabelling x the 128 maps of the grid
    that keep its boxes (transpose; swap bands, stacks, rows in a band, columns in a stack),
    by Burnside's lemma: for each map g, the grids G with g(G) a relabelling of G."""
    lines = [p for p in itertools.permutations(range(4)) if set(p[:2]) in ({0, 1}, {2, 3})]
    fixed = 0
    maps = 0
    for transpose, rows, cols in itertools.product((False, True), lines, lines):
        maps += 1
        for g in grids:
            src = [[g[c][r] for c in range(4)] for r in range(4)] if transpose else g
            image = [[src[rows[r]][cols[c]] for c in range(4)] for r in range(4)]
            rename = dict(zip(g[0], image[0], strict=True))
            if all(rename[g[r][c]] == image[r][c] for r in range(4) for c in range(4)):
                fixed += 1
    assert maps == 128
    return fixed // (maps * math.factorial(4))


def small() -> None:
    four = sudoku(["...."] * 4)
    raw, seconds = timed(lambda: four.count().solutions)
    print(f"4x4: {raw} completed grids in {seconds:.2f} s (published 288, OEIS A107739)")
    grids = [s.key() for s in four.solutions(limit=None)]
    classes, seconds = timed(lambda: burnside_4x4(grids))  # type: ignore[arg-type]
    print(f"4x4: {classes} essentially different grids by Burnside over 128 x 4! maps "
          f"({seconds:.2f} s; published 2)")
    fixed_box, seconds = timed(lambda: sudoku(["123...", "456..."] + ["......"] * 4,
                                              "box = [2, 3]\n").count().solutions)
    print(f"6x6 (boxes 2x3): {fixed_box} completions of a fixed box 1 in {seconds:.2f} s; "
          f"x 6! = {fixed_box * 720:,} (published 28,200,960)")


# -- the first band of 9x9 -------------------------------------------------------------------


def band_problem() -> CoverProblem:
    """Rows 1-3 of a 9x9 sudoku with box 1 fixed (123/456/789): each cell one digit, each
    row and box every digit once, each column a digit at most once (secondary)."""
    b = CoverBuilder()
    for r, c in itertools.product(range(3), range(9)):
        b.primary(("cell", r, c))
    for r, d in itertools.product(range(3), range(9)):
        b.primary(("row", r, d))
    for box, d in itertools.product(range(3), range(9)):
        b.primary(("box", box, d))
    for c, d in itertools.product(range(9), range(9)):
        b.secondary(("col", c, d))
    for r, c, d in itertools.product(range(3), range(9), range(9)):
        if c < 3 and d != 3 * r + c:
            continue
        b.option([("cell", r, c), ("row", r, d), ("box", c // 3, d), ("col", c, d)], (r, c, d))
    return b.build()


def band() -> None:
    count, seconds = timed(lambda: count_problem(band_problem()))
    print(f"9x9 first band, box 1 fixed: {count:,} in {seconds:.1f} s "
          f"(published 56 x 6^6 = {BAND_CONFIGURATIONS:,}); {count / seconds:,.0f} a second")


# -- below one band --------------------------------------------------------------------------


def column_classes() -> list[str]:
    """The 10 classes of column 1 below the canonical band: rows 4-6 take the smallest of
    the six digits left and two more, in order; rows 7-9 the other three, in order."""
    left = "235689"
    out = []
    for pair in itertools.combinations(left[1:], 2):
        upper = left[0] + "".join(pair)
        lower = "".join(d for d in left if d not in upper)
        out.append(upper + lower)
    return out


def completions(classes: int) -> None:
    chosen = column_classes()[:classes]
    total = 0
    spent = 0.0
    for column in chosen:
        puzzle = sudoku(list(CANONICAL_BAND) + [d + "." * 8 for d in column])
        count, seconds = timed(lambda: puzzle.count().solutions)  # noqa: B023 (called here)
        total += count
        spent += seconds
        print(f"  column 1 = {column}: {count:,} completions in {seconds:.1f} s "
              f"({count / seconds:,.0f} a second)")
    rate = total / spent
    if classes == 10:
        print(f"the canonical band {'/'.join(CANONICAL_BAND)}: 72 x {total:,} = "
              f"{72 * total:,} completions, in {spent:.0f} s")
        per_band = 72 * total
    else:
        per_band = 72 * 10 * total // classes
        print(f"the canonical band, projected from {classes} of 10 classes: about "
              f"{per_band:.3g} completions, about {10 * spent / classes:.0f} s to count")
    average = FELGENHAUER_JARVIS / math.factorial(9) / BAND_CONFIGURATIONS
    print(f"(average over all first bands, from F&J's total: {average:.4g})")
    print()
    print(f"projection at {rate:,.0f} grids a second, one core of this machine:")
    hour = 3600.0
    year = 365.25 * 24 * hour
    table = [
        ("every grid, enumerated", FELGENHAUER_JARVIS / rate / year, "years"),
        ("box 1 fixed (x 9!)", FELGENHAUER_JARVIS / math.factorial(9) / rate / year, "years"),
        ("every first band, column 1 classes (x 9! x 72)",
         FELGENHAUER_JARVIS / math.factorial(9) / 72 / rate / year, "years"),
        (f"F&J's {FJ_CLASSES} band classes, column 1 classes",
         FJ_CLASSES * average / 72 / rate / hour, "hours"),
    ]
    for what, amount, unit in table:
        print(f"  {what}: {amount:.3g} {unit}")
    tasks = FJ_CLASSES * 10
    print(f"on a Dask cluster: {tasks} independent counts (band class x column class), each "
          f"about {average / 720 / rate:.0f} s here; with 64 workers about "
          f"{FJ_CLASSES * average / 72 / rate / 64 / 60:.0f} minutes, once the 44 classes "
          "and their sizes are listed (the band's symmetries acting on 2,612,736 bands)")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("what", choices=["small", "band", "completions"])
    parser.add_argument("--classes", type=int, default=1, choices=range(1, 11), metavar="K",
                        help="column-1 classes to count below the band (1-10; default 1)")
    args = parser.parse_args()
    print(f"machine: {platform.node()} ({platform.processor() or platform.machine()})")
    if args.what == "small":
        small()
    elif args.what == "band":
        band()
    else:
        completions(args.classes)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
