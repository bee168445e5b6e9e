"""How good is Knuth's estimate? Estimated against actual nodes of the compiled engine's tree.

For each benchmark instance it searches the whole tree once with the compiled engine (the
true node and solution counts) and estimates it from random probes (the kernel's probe mode,
``engine/estimate.py``), several times over with different seeds, and prints a Markdown table
(the ones in docs/estimates.md):

    .venv/bin/python bench/estimates.py [--probes 1000] [--repeats 5] [--subtree 1000]

``--parts`` measures the time rule of a split count instead (parallel/run.py ``parts_tree``):
the count's tree cut into the subproblems a split count runs, each estimated by Knuth's
plain probes of the split engine's own tree (``EngineSpec.part_sizes``: the bitboard
engine's or the compiled engine's), against the tree of a whole count's rule (run/limits.py
``count_outlook``: 1000 probes of the compiled engine's tree searching subtrees in full) and
the true nodes, counted part by part with the engine whose tree was probed:

    .venv/bin/python bench/estimates.py --parts tetrasticks-6x6 solid-pentominoes-3x4x5 bedlam-cube

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


def parts(names: list[str], repeats: int) -> None:
    """The ``--parts`` table (see the module's docstring)."""
    import dataclasses

    from puzzlebox.parallel.run import LEAST, PART_PROBES, PROBE_SECONDS
    from puzzlebox.parallel.split import split
    from puzzlebox.parallel.tasks import COUNT, task_job
    from puzzlebox.run.choice import split_spec
    from puzzlebox.run.limits import count_outlook

    print("| instance | engine probed | parts | actual nodes | whole estimate (count_outlook) "
          "| its CPU | parts' estimates (seeds) | their CPU (mean) |")
    print("|---|---|---:|---:|---:|---:|---:|---:|")
    compiled = registry.get("compiled")
    for name in names:
        puzzle = load(name)
        spec = split_spec(puzzle, COUNT, False)
        job = task_job(puzzle, COUNT, spec)
        subs = split(spec, job, target=LEAST)
        probed = spec if spec.part_sizes is not None else compiled
        assert probed.part_sizes is not None
        actual = 0
        for forced, excluded in subs:
            search = probed.start(dataclasses.replace(job, forced=forced, excluded=excluded))
            count_all(search)
            actual += search.stats.nodes
        began = time.process_time()
        whole = count_outlook(puzzle).estimate.nodes
        whole_cpu = time.process_time() - began
        guesses, cpu = [], []
        for seed in range(repeats):
            began = time.process_time()
            sizes = probed.part_sizes(job, PART_PROBES, PROBE_SECONDS, seed)
            guesses.append(sum(sizes(forced, excluded).nodes for forced, excluded in subs))
            cpu.append(time.process_time() - began)
        ratios = " ".join(f"{g / actual:.2f}x" for g in guesses)
        print(f"| {name} | {probed.name} | {len(subs)} | {actual:,} | {whole:,.0f} "
              f"({whole / actual:.2f}x) | {whole_cpu:.3f} s | {ratios} "
              f"| {statistics.fmean(cpu):.3f} s |", flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--probes", type=int, default=1000)
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--count", action="store_true", help="the tree that count searches")
    parser.add_argument("--subtree", type=int, default=SUBTREE_NODES,
                        help="nodes of the subtrees searched in full (0: plain probes)")
    parser.add_argument("--parts", action="store_true",
                        help="a split count's estimate from its parts (see above)")
    parser.add_argument("names", nargs="*", default=INSTANCES)
    args = parser.parse_args()
    if args.parts:
        parts(args.names, args.repeats)
        return
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
