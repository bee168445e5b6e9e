"""How long a long count would take, or takes: a catalog puzzle (or the eighteen one-sided
pentominoes on another rectangle, ``--board RxC``) counted for a number of CPU seconds.

* ``--engine bitboard`` (the default): the bitboard engine stepped on the problem cut by the
  puzzle's symmetries (what ``puzzlebox count`` searches), then the time projected from the
  share of the tree its own path says it has walked;
* ``--engine memo``: the sweep of the memo engine (its array layer, engine/memo.py) over the
  whole problem, position by position, printing each fifth layer's states and the CPU so far;
  it finishes with the count as placed, or stops at the time or at ``--max-memory``.

    python bench/long_count.py one-sided-pentominoes-5x18 30
    python bench/long_count.py one-sided-pentominoes-5x18 120 --engine memo
    python bench/long_count.py one-sided-pentominoes-5x18 60 --board 6x15 --engine memo
"""

from __future__ import annotations

import argparse
import resource
import sys
import time

from puzzlebox import catalog
from puzzlebox.engine.bitboard import BitboardSearch
from puzzlebox.engine.memo import BYTES_PER_STATE, SweepRun, build_sweep
from puzzlebox.engine.memory import parse_memory
from puzzlebox.engine.search import Job, Mode
from puzzlebox.formats.reader import read_text
from puzzlebox.puzzles import Puzzle


def on_board(name: str, board: str, write: str | None = None) -> Puzzle:
    """The catalog puzzle ``name`` with its pieces and rules on a full ``RxC`` rectangle
    (written to the file ``write`` too, for ``puzzlebox count FILE``)."""
    text = _catalog_text(name)
    rows, cols = (int(x) for x in board.lower().split("x"))
    grid = "\n".join("#" * cols for _ in range(rows))
    _, _, rest = text.partition("[board]")
    _, _, tail = rest.partition("[pieces]")
    toml = f'[board]\ngrid = """\n{grid}\n"""\n\n[pieces]{tail}'
    if write:
        with open(write, "w") as out:
            out.write(f"# {name}'s pieces and rules on a {board} rectangle (bench/long_count.py)\n")
            out.write(toml)
    return read_text(toml, f"{name} on {board}", board).puzzles[0]


def _catalog_text(name: str) -> str:
    from importlib import resources

    return (resources.files("puzzlebox.catalog") / "puzzles" / f"{name}.toml").read_text()


def cpu() -> tuple[float, float]:
    """(user, system) CPU seconds of this process."""
    r = resource.getrusage(resource.RUSAGE_SELF)
    return r.ru_utime, r.ru_stime


def bitboard(puzzle: Puzzle, label: str, seconds: float) -> None:
    search = BitboardSearch(Job(puzzle.search_problem(), Mode.COUNT))
    began = time.process_time()
    counted = 0
    while time.process_time() - began < seconds:
        step = search.step(1 << 20)
        counted += step.counted
        if step.done:
            break
    spent = time.process_time() - began
    walked = search.stats.walked or 0.0
    projected = f"{spent / walked:.0f} s" if walked else "?"
    print(f"{label}: {search.stats.nodes:,} nodes, {counted:,} solutions counted in "
          f"{spent:.1f} s CPU, {walked:.2%} of the tree walked: about {projected} of CPU in all")


def memo(puzzle: Puzzle, label: str, seconds: float, max_memory: int) -> None:
    plan = puzzle.sweep_plan()
    sweep = build_sweep(puzzle.problem, plan.order, merge_by=plan.symmetries())
    print(f"{label}: {sweep.n_positions} positions, window {sweep.window}, "
          f"{sweep.counter_bits} counter bits, {len(sweep.symmetries)} symmetries merging")
    run = SweepRun(sweep, max(1, max_memory // BYTES_PER_STATE))
    u0, s0 = cpu()
    wall = time.perf_counter()
    widest = 0
    while not run.done and run.overflow is None:
        run.advance(1)
        states = run.arrays.keys.size if run.arrays is not None else len(run.layer)
        widest = max(widest, states)
        u, s = cpu()
        if run.position % 5 == 0 and not run.done:
            print(f"  position {run.position}: {states:,} states, {run.visited:,} visited, "
                  f"{u - u0:.1f} s user + {s - s0:.1f} s system", flush=True)
        if (u - u0) + (s - s0) > seconds:
            break
    u, s = cpu()
    if run.done:
        print(f"{label}: {run.total:,} solutions as placed, {run.visited:,} states visited, "
              f"widest layer {widest:,}; {u - u0:.1f} s user + {s - s0:.1f} s system CPU, "
              f"{time.perf_counter() - wall:.1f} s wall")
    else:
        why = run.overflow or f"stopped after {seconds:.0f} s of CPU"
        print(f"{label}: unfinished at position {run.position} of {sweep.n_positions} ({why})")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("puzzle", help="a catalog puzzle")
    parser.add_argument("seconds", type=float, help="CPU seconds to search")
    parser.add_argument("--engine", choices=["bitboard", "memo"], default="bitboard")
    parser.add_argument("--board", help="the puzzle's pieces on a full RxC rectangle instead")
    parser.add_argument("--max-memory", default="2G", help="the memo sweep's memory (2G)")
    parser.add_argument("--write", help="with --board: write the puzzle to this TOML file")
    args = parser.parse_args()
    if args.board:
        puzzle = on_board(args.puzzle, args.board, args.write)
        label = f"{args.puzzle} pieces in {args.board}"
    else:
        puzzle = catalog.load_file(args.puzzle).puzzles[0]
        label = args.puzzle
    if args.engine == "memo":
        memo(puzzle, label, args.seconds, parse_memory(args.max_memory))
    else:
        bitboard(puzzle, label, args.seconds)
    return 0


if __name__ == "__main__":
    sys.exit(main())
