"""Cutler's holey notchable six-piece burrs as a design space, measured on a random sample
of its designs (issue #34, item 4, research scale).

Bill Cutler's analysis of notchable six-piece burrs with holes (March to June 1987, on the
computers of the day) found "13,354,991 essentially different notchable assemblies", the
highest level 10 (not unique) and many unique level-5 solutions (his booklet *Holey 6-Piece
Burr!*, second printing 1988, addendum). The space here: the 59 notchable pieces (Cutler's
count of them, reproduced by the notch rule below), six of them with repeats allowed
(C(64, 6) = 74,974,368 piece sets), in the six-piece burr board with its 32 inner cubes
optional, ranked by level (no ``comes_apart``: every design with an assembly is kept, so
that the kept designs' ``assemblies`` add up to Cutler's count; ``come_apart`` and ``level``
say which come apart and how hard).

One machine does not finish it in hours (docs/design-search.md, "Research scale"), so this script
tries a uniform random sample of the piece sets, one search each (``strategy = "each"``,
what ``--jobs``/``--cluster`` split), and from it estimates the whole space: its assemblies
up to symmetry (against Cutler's 13,354,991), those that come apart, the level table, and
the CPU time of the whole run, each with a 95% interval (a normal approximation over the
sample). ``--write FILE`` writes the design file, for ``puzzlebox design FILE --no-limit
--cluster tcp://...``.

A Känel number k names a 2x2x6 stick (bench/burr_booklet.py); the stick is notchable when,
at every position along it, the cubes cut away are a union of whole lines of the 2x2
cross-section (each a notch's floor: a cut across the stick's full width from one face), and
it is one piece (connected). Of the 4,096 numbers, those give 59 pieces up to rotation:
Cutler's figure (billcutlerpuzzles.com/docs/CA6PB/pieces.html).

    .venv/bin/python bench/cutler_holey.py [--sample 400] [--seed 1] [--write FILE]
"""

from __future__ import annotations

import argparse
import math
import os
import random
import sys
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import burr_booklet as booklet  # noqa: E402

PUBLISHED_ASSEMBLIES = 13_354_991
LINES = [{(1, 0), (1, 1)}, {(0, 0), (0, 1)}, {(0, 0), (1, 0)}, {(0, 1), (1, 1)}]


def _cells(k: int) -> frozenset[tuple[int, int, int]]:
    layers = booklet.stick(k)
    return frozenset((x, y, z) for z in range(2) for y, row in enumerate(layers[z].split("/"))
                     for x, ch in enumerate(row) if ch == "#")  # fmt: skip


def _connected(cells: frozenset[tuple[int, int, int]]) -> bool:
    start = next(iter(cells))
    seen, todo = {start}, [start]
    while todo:
        x, y, z = todo.pop()
        for d in ((1, 0, 0), (-1, 0, 0), (0, 1, 0), (0, -1, 0), (0, 0, 1), (0, 0, -1)):
            n = (x + d[0], y + d[1], z + d[2])
            if n in cells and n not in seen:
                seen.add(n)
                todo.append(n)
    return len(seen) == len(cells)


def notchable(k: int) -> bool:
    cut = {booklet.INNER[i] for i in range(12) if (k - 1) >> i & 1}
    for x in range(6):
        here = {(layer, row) for layer, row, col in cut if col == x}
        covered: set[tuple[int, int]] = set()
        for line in LINES:
            if line <= here:
                covered |= line
        if covered != here:
            return False
    return _connected(_cells(k))


def notchable_pieces() -> list[int]:
    """The least Känel number of each notchable piece up to rotation (mirror images apart)."""
    first: dict[tuple, int] = {}
    for k in range(1, 4097):
        if notchable(k):
            first.setdefault(booklet._proper_key(set(_cells(k))), k)
    return sorted(first.values())


def space_text(pieces: list[int]) -> str:
    text = booklet.toml(pieces)
    for k in pieces:  # each piece up to six copies
        text = text.replace(f"K{k} = {{ shape = {booklet.json.dumps(booklet.stick(k))}, "
                            "count = 1 }", f"K{k} = {{ shape = "
                            f"{booklet.json.dumps(booklet.stick(k))}, count = 6 }}")
    pool = ", ".join(f'"K{k}"' for k in pieces)
    return ("# Cutler's holey notchable six-piece burrs: six of the 59 notchable pieces, "
            "repeats allowed.\n" + text.replace(
                "[rules]", f'[design]\npool = [{pool}]\ntake = 6\n'
                'rank = "level"\nstrategy = "each"\n\n[rules]'))


def _interval(values: list[float], scale: float) -> str:
    n = len(values)
    mean = sum(values) / n
    sd = math.sqrt(sum((v - mean) ** 2 for v in values) / (n - 1)) if n > 1 else 0.0
    half = 1.96 * sd / math.sqrt(n)
    return f"{mean * scale:,.0f} ({(mean - half) * scale:,.0f} to {(mean + half) * scale:,.0f})"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sample", type=int, default=400, help="piece sets to try")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--write", help="write the design file here and stop")
    args = parser.parse_args()
    from puzzlebox.designs.evaluate import evaluate
    from puzzlebox.designs.space import Design, DesignSpace

    pieces = notchable_pieces()
    assert len(pieces) == 59, len(pieces)  # Cutler's count of notchable pieces
    text = space_text(pieces)
    if args.write:
        Path(args.write).write_text(text)
        return 0
    space = DesignSpace(text, "cutler-holey.toml", "cutler-holey")
    size = space.size()
    assert size == math.comb(64, 6)
    rng = random.Random(args.seed)
    names = [f"K{k}" for k in pieces]
    assemblies: list[float] = []
    apart: list[float] = []
    seconds: list[float] = []
    levels: Counter[int] = Counter()
    undecided = symmetric = 0
    load = os.getloadavg()
    began = time.perf_counter()
    for _ in range(args.sample):
        picks = sorted(rng.sample(range(64), 6))  # a uniform multiset: stars and bars
        chosen = Counter(names[p - j] for j, p in enumerate(picks))
        design = space.index_of(Design(-1, 0, tuple((n, chosen[n]) for n in names
                                                    if chosen[n])))
        cpu = time.process_time()
        if not space.canonical(design):  # tried as its mirror set: counts 0 here
            symmetric += 1
            assemblies.append(0)
            apart.append(0)
        else:
            result = evaluate(space, design)
            undecided += not result.decided
            assemblies.append(result.assemblies or 0)
            apart.append(result.come_apart or 0)
            if result.level is not None:
                levels[int(result.level.split(".")[0])] += 1
        seconds.append(time.process_time() - cpu)
    wall = time.perf_counter() - began
    scale = size
    print(f"{size:,} piece sets; a uniform sample of {args.sample} (seed {args.seed}): "
          f"{symmetric} mirror sets of an earlier design, {undecided} undecided; "
          f"{sum(seconds):.1f} s CPU, {wall:.1f} s wall (load {load[0]:.1f} at the start, "
          f"{os.getloadavg()[0]:.1f} at the end, {os.cpu_count()} cores)")
    print(f"assemblies up to symmetry, whole space: {_interval(assemblies, scale)} "
          f"(Cutler: {PUBLISHED_ASSEMBLIES:,}); sample total {sum(assemblies):,.0f}")
    print(f"assemblies that come apart, whole space: {_interval(apart, scale)}; "
          f"sample total {sum(apart):,.0f}")
    print(f"designs with an assembly that comes apart, by highest level (sample): "
          f"{dict(sorted(levels.items()))}")
    print(f"CPU seconds for the whole space, one search per design: "
          f"{_interval(seconds, scale)} (mean {sum(seconds) / len(seconds) * 1000:.1f} ms "
          "a piece set)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
