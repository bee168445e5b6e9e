"""What a step of the page's movement browser costs (#36 item 3), against a take-apart.

Each step the page asks of the server (web/design.py's ``browse_step``) slides a group one
unit (``disassembly/browse.py``'s ``slide``: the blocking relation between the group and
the other pieces) and then says how what is left comes apart from there (``outlook``: the
disassembly search run on the pieces where they stand). At the assembly that search is
the one ``puzzlebox moves`` runs for it (``disassemble_solution``), so the two should cost
the same; this script times them interleaved in one process, ``--repeat`` times each, in
CPU seconds (``time.process_time``), on the first assembly that comes apart of each puzzle,
and checks that both give the same level. The slide is timed along the first move of that
assembly's separation (one that the pieces can make), or where that move takes a part out,
as a take-out.

    python bench/browse_steps.py                   # framed-slack and three burrs
    python bench/browse_steps.py --examples DIR    # and BurrTools' PelikanBurr (level 98...)
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
CATALOG = ["framed-slack", "burr-bills-baffling", "burr-computers-choice-4-hole", "burr-305"]


def cpu(work: Callable[[], Any]) -> tuple[float, Any]:
    began = time.process_time()
    result = work()
    return time.process_time() - began, result


def measure(puzzle: Any, repeat: int) -> dict[str, Any]:
    """The first assembly of ``puzzle`` that comes apart: CPU seconds of its take-apart,
    of the browser's look at it and of one slide (or take-out), each the median of
    ``repeat`` interleaved runs."""
    from puzzlebox.disassembly import browse
    from puzzlebox.disassembly.assemblies import (
        Rules,
        check_slides,
        disassemble_solution,
        take_apart,
    )

    dims = check_slides(puzzle, puzzle.name)
    declared = getattr(puzzle, "disassembly", None)
    rules = Rules(fixed=frozenset(declared.fixed) if declared else frozenset(),
                  groups=tuple(frozenset(g) for g in declared.groups) if declared else ())
    done = next(d for d in take_apart(puzzle, rules) if d.separation is not None)
    assert done.separation is not None
    names = list(done.names)
    pieces = [[(c[1], c[0], 0) if dims == 2 else (c[2], c[1], c[0]) for c in p.cells]
              for p in done.placements]
    fixed = [k for k, n in enumerate(names) if n in rules.fixed]
    groups = [[k for k, n in enumerate(names) if n in g] for g in rules.groups]
    zero = [(0, 0, 0)] * len(pieces)
    part = list(range(len(pieces)))
    first = done.separation.moves[0]
    direction = browse.DIRECTIONS[first.text().split()[1]]
    group = list(first.pieces)
    times: dict[str, list[float]] = {"take-apart": [], "look": [], "slide": []}
    levels = set()
    for _ in range(repeat):
        seconds, whole = cpu(lambda: disassemble_solution(puzzle, done.solution, rules))
        times["take-apart"].append(seconds)
        levels.add(("take-apart", whole.level))
        seconds, here = cpu(lambda: browse.outlook(pieces, zero, part, dims, fixed, groups))
        times["look"].append(seconds)
        levels.add(("look", here.level))
        if first.distance is None:
            seconds, _ = cpu(lambda: browse.take_out(pieces, zero, part, group, direction,
                                                     dims, names, fixed))
        else:
            seconds, _ = cpu(lambda: browse.slide(pieces, zero, part, group, direction, dims,
                                                  names, fixed))
        times["slide"].append(seconds)
    if len({level for _, level in levels}) != 1:
        raise SystemExit(f"{puzzle.name}: the levels differ: {sorted(levels)}")
    return {"puzzle": puzzle.name, "level": done.level, "moves": done.separation.total_moves,
            "pieces": len(pieces), "out": first.distance is None,
            **{k: statistics.median(v) for k, v in times.items()}}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=5, help="runs of each, interleaved")
    parser.add_argument("--examples", type=Path, default=None,
                        help="BurrTools' examples (for PelikanBurr), e.g. "
                             "../shared/peers/burrtools/examples")
    args = parser.parse_args(argv)
    sys.path.insert(0, str(ROOT / "src"))
    from puzzlebox.cli.puzzle import load
    from puzzlebox.formats.burrtools import import_data
    from puzzlebox.formats.reader import read_text

    puzzles = [load(name).puzzles[0] for name in CATALOG]
    if args.examples is not None:
        path = args.examples / "PelikanBurr.xmpuzzle"
        text = import_data(path.read_bytes(), path.name)
        puzzles.append(read_text(text, "PelikanBurr.toml", "PelikanBurr").puzzles[0])
    print(f"CPU seconds, median of {args.repeat} interleaved runs in one process")
    print("| puzzle | pieces | level (moves) | take-apart of the assembly | browser's look at it "
          "| one slide (or take-out) |")
    print("|---|---|---|---|---|---|")
    for puzzle in puzzles:
        row = measure(puzzle, args.repeat)
        print(f"| {row['puzzle']} | {row['pieces']} | {row['level']} ({row['moves']}) | "
              f"{row['take-apart']:.4f} | {row['look']:.4f} | {row['slide']:.5f}"
              f"{' (out)' if row['out'] else ''} |", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
