"""How good is Knuth's estimate? Estimated against actual nodes of the compiled engine's tree.

For each benchmark instance it searches the whole tree once with the compiled engine (the
true node and solution counts) and estimates it from random probes (the kernel's probe mode,
``engine/estimate.py``), several times over with different seeds, and prints a Markdown table
(the ones in docs/estimates.md):

    .venv/bin/python bench/estimates.py [--probes 1000] [--repeats 5] [--subtree 1000]

The tree is the puzzle's full cover problem (what ``solve --all`` searches); ``--count`` takes
the problem that ``count`` searches instead (cut down by the puzzle's symmetries).
``--subtree 0`` probes as Knuth did, down to a leaf; the default searches subtrees of about
1000 nodes in full below the depth a pilot of plain probes chooses (and a tree no bigger than
the probes would search anyway, once and exactly: "exact" in the table). The solution columns
give the mean estimate of the runs ("-" where a run gave no estimate: fewer than
``MIN_SOLUTION_PROBES`` probes found a solution) and the fewest probes that found a solution
in a run that probed (rather than searched the tree exactly).
"""

from __future__ import annotations

import argparse
import statistics
import time

from puzzlebox import catalog
from puzzlebox.engine import registry
from puzzlebox.engine.estimate import SUBTREE_NODES, estimate_tree
from puzzlebox.engine.search import Job, Mode, count_all
from puzzlebox.formats import read_text
from puzzlebox.puzzles import Puzzle

INSTANCES = ["pentomino-3x20", "pentomino-5x12", "pentomino-6x10", "queens-10", "queens-11",
             "queens-12"]


def load(name: str) -> Puzzle:
    if name.startswith("queens-") and not catalog.path_of(name).exists():
        n = int(name.split("-")[1])
        return read_text(f'kind = "queens"\nn = {n}\n', name, name).puzzles[0]
    return catalog.load_file(name).puzzles[0]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--probes", type=int, default=1000)
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--count", action="store_true", help="the tree that count searches")
    parser.add_argument("--subtree", type=int, default=SUBTREE_NODES,
                        help="nodes of the subtrees searched in full (0: plain probes)")
    parser.add_argument("names", nargs="*", default=INSTANCES)
    args = parser.parse_args()
    print("| instance | actual nodes | solutions | estimate (mean of runs) | error of the mean "
          "| worst run | solutions estimated (mean) | fewest finding one | probe time per run "
          "| search time |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    for name in args.names:
        puzzle = load(name)
        problem = puzzle.search_problem() if args.count else puzzle.problem
        counting = registry.get("compiled").start(Job(problem, Mode.COUNT))
        began = time.perf_counter()
        solutions, _ = count_all(counting)
        search = time.perf_counter() - began
        actual = counting.stats.nodes
        runs = [estimate_tree(problem, probes=args.probes, seed=s, subtree_nodes=args.subtree)
                for s in range(args.repeats)]
        means = [r.nodes for r in runs]
        mean = statistics.fmean(means)
        worst = max(means, key=lambda m: abs(m - actual))
        stderr = statistics.fmean(r.nodes_error for r in runs)
        probe_time = statistics.fmean(r.seconds for r in runs)
        if all(r.exact for r in runs):
            sols = "exact"
        elif all(r.solutions_estimated for r in runs):
            sols = f"{statistics.fmean(r.solutions for r in runs):,.0f}"
        else:
            sols = "-"
        probed = [r for r in runs if not r.exact]
        exact = len(runs) - len(probed)
        hits = (f"{min(r.solution_probes for r in probed)} of {min(r.probes for r in probed)}"
                if probed else "-") + (f" ({exact} of {len(runs)} runs exact)" if exact else "")
        print(f"| {name} | {actual:,} | {solutions:,} | {mean:,.0f} ({mean / actual - 1:+.1%}) "
              f"| ±{stderr / actual:.1%} per run | {worst:,.0f} ({worst / actual - 1:+.1%}) "
              f"| {sols} | {hits} | {probe_time:.2f} s "
              f"| {search:.2f} s |", flush=True)


if __name__ == "__main__":
    main()
