"""The ``puzzlebox`` command line: parse arguments, call the library, print. Nothing else."""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable, Sequence
from typing import Any

from puzzlebox import catalog
from puzzlebox.engine.errors import EngineError
from puzzlebox.engine.memo import MemoDeclined, parse_memory
from puzzlebox.engine.stats import SearchStats
from puzzlebox.formats import PuzzleFile, PuzzleFileError
from puzzlebox.parallel import Interrupted, SplitError, SplitRun
from puzzlebox.puzzles import CountResult, PolyominoPuzzle, PolyominoSolution, Puzzle, Solution
from puzzlebox.puzzles.base import SINK
from puzzlebox.puzzles.order import ShapeError
from puzzlebox.puzzles.sweep import SweepError
from puzzlebox.render import count_json, describe, side_by_side, solution_json, solution_lines

EXIT_BAD_INPUT = 2
PALETTE = [
    "#0072B2", "#E69F00", "#009E73", "#CC79A7", "#56B4E9", "#D55E00",
    "#F0E442", "#999999", "#882255", "#44AA99", "#117733", "#AA4499",
]  # fmt: skip


def _engine_choices() -> list[str]:
    """The engine names, from the registry (``auto`` first)."""
    from puzzlebox.engine.registry import names

    return names()


def _add_puzzle_arg(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("puzzle", help="a catalog name (see 'puzzlebox list') or a .toml file")
    parser.add_argument(
        "--engine",
        default="auto",
        help=f"search engine: {', '.join(_engine_choices())} (default: auto, the choice "
        "measured for each puzzle; the README's table says what each engine is for)",
    )
    parser.add_argument("--quiet", action="store_true",
                        help="no progress display on standard error")


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="puzzlebox",
        description="Solve placement puzzles (polyominoes, coloured strips, edge-matching "
        "cards, n-queens) by exact cover.",
    )
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    sub.add_parser("list", help="list the built-in catalog", description="List the catalog.")

    show = sub.add_parser("show", help="show a puzzle's board and pieces",
                          description="Show a puzzle's board and pieces as text.")
    show.add_argument("puzzle", help="a catalog name or a .toml file")
    show.add_argument("--format", choices=["text", "svg", "png"], default="text",
                      help="text, or a picture of the board(s) and every piece (needs --out)")
    show.add_argument("--out", metavar="FILE", help="where to write a picture")

    solve = sub.add_parser("solve", help="find solutions", description="Find solutions.")
    _add_puzzle_arg(solve)
    how_many = solve.add_mutually_exclusive_group()
    how_many.add_argument("--limit", type=int, default=1, metavar="N",
                          help="stop after N solutions (default 1)")
    how_many.add_argument("--all", action="store_true", help="every solution")
    solve.add_argument("--format", choices=["text", "outline", "json", "svg", "png"],
                       default="text",
                       help="text: piece letters; outline: piece boundaries; json: one object "
                       "per solution; svg, png: pictures (need --out)")
    solve.add_argument("--out", metavar="FILE|DIR/",
                       help="pictures: one sheet in FILE, or one file per solution in DIR/")
    solve.add_argument("--seed", type=int, metavar="S",
                       help="randomise the search (shuffled order, restarts with growing "
                       "node budgets): different seeds find different first solutions")
    _add_split_args(solve)
    solve.add_argument("--distinct", action="store_true",
                       help="one solution of each symmetry class (searched on the problem cut "
                       "down by the puzzle's symmetries)")
    solve.add_argument("--why", action="store_true", help=WHY_HELP)

    count = sub.add_parser("count", help="count solutions, raw and distinct up to symmetry",
                           description="Count every solution, as placed and up to symmetry.")
    _add_puzzle_arg(count)
    count.add_argument("--json", action="store_true", help="print one JSON object per board")
    count.add_argument("--max-memory", type=_memory_size, metavar="SIZE",
                       help="memory the memo engine may use, e.g. 512M or 2G (default 2G); "
                       "'--engine memo' counts by sweeping the board instead of enumerating")
    _add_split_args(count)
    count.add_argument("--why", action="store_true", help=WHY_HELP)

    estimate = sub.add_parser(
        "estimate", help="estimate the search tree's size and the time to search it",
        description="Estimate, from random root-to-leaf probes (Knuth 1975), how many nodes "
        "the compiled engine's search tree for a count has, and how long searching it takes.")
    estimate.add_argument("puzzle", help="a catalog name or a .toml file")
    estimate.add_argument("--probes", type=_at_least(1), default=1000, metavar="N",
                          help="random probes (default 1000)")
    estimate.add_argument("--seed", type=int, default=0, help="random seed (default 0)")
    estimate.add_argument("--json", action="store_true", help="print one JSON object per board")
    _add_generate_parser(sub)
    _add_sweep_order_parsers(sub)
    return parser


def _add_generate_parser(sub: Any) -> None:
    """``generate edge-matching``: a random puzzle that has a solution by construction."""
    generate = sub.add_parser("generate", help="write a random solvable puzzle",
                              description="Write a random puzzle (TOML) that is solvable by "
                              "construction.")
    kinds = generate.add_subparsers(dest="kind", required=True, metavar="KIND")
    em = kinds.add_parser("edge-matching", help="random edge-matching cards",
                          description="Random labels on a grid's edges, cut into cards, "
                          "shuffled and turned.")
    em.add_argument("--size", type=_at_least(1), default=4, metavar="N",
                    help="an N x N board (default 4)")
    em.add_argument("--rows", type=_at_least(1), metavar="R", help="rows (default: --size)")
    em.add_argument("--cols", type=_at_least(1), metavar="C", help="columns (default: --size)")
    em.add_argument("--colors", type=_at_least(1), default=4, metavar="K",
                    help="labels on inner edges (default 4)")
    em.add_argument("--border", action="store_true",
                    help="label the outer border 0 and give frame edges their own labels")
    em.add_argument("--border-colors", type=_at_least(1), metavar="B",
                    help="labels between frame cards (default: half of --colors)")
    em.add_argument("--no-rotate", action="store_true", help="cards may not turn")
    em.add_argument("--seed", type=int, default=0, help="random seed (default 0)")
    em.add_argument("--out", metavar="FILE", help="write the TOML here instead of stdout")


def cmd_generate(args: argparse.Namespace) -> int:
    from puzzlebox.puzzles.generate import (
        edge_matching_command,
        edge_matching_toml,
        random_edge_matching,
    )

    rows, cols = args.rows or args.size, args.cols or args.size
    options = dict(border=args.border, border_colors=args.border_colors, seed=args.seed,
                   rotate=not args.no_rotate)
    puzzle, _ = random_edge_matching(rows, cols, args.colors, **options)
    text = edge_matching_toml(puzzle, edge_matching_command(rows, cols, args.colors, **options))
    if args.out is None:
        print(text, end="")
        return 0
    try:
        with open(args.out, "w") as handle:
            handle.write(text)
    except OSError as error:
        print(f"puzzlebox: cannot write {args.out}: {error.strerror or error}", file=sys.stderr)
        return EXIT_BAD_INPUT
    print(args.out)
    return 0


def _load(name: str) -> PuzzleFile:
    return catalog.load(name)


def _check_engine(parser: argparse.ArgumentParser, engine: str, command: str) -> None:
    """Refuse, in one line, an engine the registry does not know or one that cannot do
    what the command asks (count, or find solutions)."""
    from puzzlebox.engine.registry import AUTO, UnknownEngine, get
    from puzzlebox.engine.search import Capability

    if engine == AUTO:
        return
    try:
        spec = get(engine)
    except UnknownEngine as error:
        parser.error(str(error))
    if command == "count" and not spec.does(Capability.COUNT):
        parser.error(f"the {engine} engine does not count: use 'puzzlebox solve --engine "
                     f"{engine}'")  # fmt: skip
    if command != "count" and not spec.does(Capability.SOLVE):
        parser.error(f"the {engine} engine only counts: use 'puzzlebox count --engine "
                     f"{engine}'")  # fmt: skip


def _memory_size(text: str) -> int:
    try:
        return parse_memory(text)
    except ValueError as error:
        raise argparse.ArgumentTypeError(str(error)) from None


class _SweepBar:
    """A progress bar for a memo count on stderr, shown once it has run for a second."""

    def __init__(self, label: str) -> None:
        self._began = time.perf_counter()
        self._label = label
        self._bar: Any = None
        self._task: Any = None

    def __call__(self, done: int, total: int) -> None:
        if self._bar is None:
            if time.perf_counter() - self._began < 1.0:
                return
            from rich.console import Console
            from rich.progress import Progress

            self._bar = Progress(console=Console(stderr=True), transient=True)
            self._bar.start()
            self._task = self._bar.add_task(f"{self._label}: sweeping", total=total)
        self._bar.update(self._task, completed=done)

    def close(self) -> None:
        if self._bar is not None:
            self._bar.stop()


def _at_least(least: int) -> Callable[[str], int]:
    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{text!r} is not an integer") from None
        if value < least:
            raise argparse.ArgumentTypeError(f"must be at least {least}, not {value}")
        return value

    return parse


def _add_split_args(parser: argparse.ArgumentParser) -> None:
    """Options of a count or enumeration split into subproblems (puzzlebox.parallel)."""
    where = parser.add_mutually_exclusive_group()
    where.add_argument("--jobs", type=_at_least(1), default=1, metavar="N",
                       help="split the search over N local processes: this one and N-1 "
                       "workers (default 1)")
    where.add_argument("--cluster", metavar="ADDRESS",
                       help="split the search over a running Dask scheduler, e.g. "
                       "tcp://127.0.0.1:8786 (extra 'cluster')")
    parser.add_argument("--checkpoint", metavar="FILE",
                        help="record finished subproblems in FILE (JSON); run the same "
                        "command again to resume")
    parser.add_argument("--split-depth", type=_at_least(0), metavar="D",
                        help="split at depth D of the search tree (default: about 8 "
                        "subproblems per worker)")


def _split_run(args: argparse.Namespace, pf: PuzzleFile, command: str) -> SplitRun | None:
    """A split run when an option asks for one; None for a plain search in this process."""
    if args.jobs == 1 and not (args.cluster or args.checkpoint or args.split_depth is not None):
        return None
    show = sys.stderr.isatty() and not getattr(args, "quiet", False)
    return SplitRun(
        pf, command, engine=args.engine, jobs=args.jobs, cluster=args.cluster,
        checkpoint=args.checkpoint, split_depth=args.split_depth,
        progress=show and (command == "count" or not sys.stdout.isatty()),
        before_record=sys.stdout.flush,
    )


def _count_one(
    args: argparse.Namespace, run: SplitRun | None, board: int, puzzle: Puzzle, label: str
) -> CountResult:
    """Count one board; an interrupted split count prints what it has, marked partial."""
    if run is None:
        show = sys.stderr.isatty() and not getattr(args, "quiet", False)
        bar = _SweepBar(label) if show else None
        try:
            with _following(args, label, puzzle) as on_step:
                return puzzle.count(engine=args.engine, max_memory=args.max_memory,
                                    progress=bar, on_step=on_step)
        finally:
            if bar is not None:
                bar.close()
    try:
        return run.count(board)
    except Interrupted as stop:
        partial = stop.result
        if partial is not None and args.json:
            print(count_json(puzzle, partial, partial=True, done=stop.done, total=stop.total))
        elif partial is not None:
            print(f"{label}: {partial.solutions} solutions, {partial.distinct} distinct up to "
                  f"symmetry so far (partial: {stop.done} of {stop.total} subproblems)")
        if args.checkpoint:
            print(f"puzzlebox: the checkpoint {args.checkpoint} is kept; run the same command "
                  "again to resume", file=sys.stderr)
        raise


def _split_fields(result: CountResult) -> dict[str, object]:
    """What a split count adds to its JSON object (docs/cluster.md)."""
    done = getattr(result, "done", None)
    total = getattr(result, "total", None)
    if done is None or not total:
        return {}
    return {"partial": done < total, "done": done, "total": total}


def cmd_list() -> int:
    for name in catalog.names():
        title = catalog.load(name).title
        print(f"{name:32} {title}")
    return 0


def cmd_show(args: argparse.Namespace) -> int:
    pf = _load(args.puzzle)
    if args.format != "text":
        return _write_picture(args, lambda: _pictures().puzzle_figure(pf.puzzles))
    print(f"{pf.name}: {pf.title}" if pf.title else pf.name)
    for puzzle in pf.puzzles:
        for line in describe(puzzle):
            print(line)
    return 0


def _colored(puzzle: Puzzle, solution: Solution) -> object | None:
    """A rich Text with one colour per placed piece, for terminals; None when not suitable."""
    if not isinstance(puzzle, PolyominoPuzzle) or not isinstance(solution, PolyominoSolution):
        return None
    from rich.text import Text

    owner = solution.owner_grid()
    lines = solution_lines(puzzle, solution)
    rows = sorted({r for r, _ in puzzle.board})
    cols = sorted({c for _, c in puzzle.board})
    text = Text()
    for i, line in enumerate(lines):
        for j, ch in enumerate(line):
            who = owner.get((rows[0] + i, cols[0] + j))
            style = f"bold black on {PALETTE[who % len(PALETTE)]}" if who is not None else ""
            text.append(ch, style=style)
        text.append("\n")
    return text


def cmd_solve(args: argparse.Namespace) -> int:
    pf = _load(args.puzzle)
    limit = None if args.all else max(args.limit, 0)
    if args.format in ("svg", "png"):
        if args.distinct:
            print("puzzlebox: --distinct draws no pictures; use text, outline or json",
                  file=sys.stderr)
            return EXIT_BAD_INPUT
        return _solve_pictures(pf, args, limit)
    if pf.batch and limit == 1 and args.format in ("text", "outline"):
        return _solve_batch_sheet(pf, args)
    tty = sys.stdout.isatty()
    found_any = False
    split = (args.jobs > 1 or args.cluster or args.checkpoint or args.split_depth is not None)
    if split and not args.all:
        print("puzzlebox: --jobs, --cluster, --checkpoint and --split-depth need --all",
              file=sys.stderr)
        return EXIT_BAD_INPUT
    if args.distinct and (split or args.seed is not None):
        print("puzzlebox: --distinct searches in one process, without --seed", file=sys.stderr)
        return EXIT_BAD_INPUT
    if args.engine == SINK and (args.all or args.limit != 1 or args.distinct or split):
        print("puzzlebox: --engine sink finds one tiling: drop --all, --limit, --distinct, "
              "--jobs, --cluster, --checkpoint and --split-depth", file=sys.stderr)
        return EXIT_BAD_INPUT
    run = _split_run(args, pf, "solve")
    for board, puzzle in enumerate(pf.puzzles):
        reason = puzzle.impossibility()
        label = f"{pf.name} {puzzle.board_name}" if pf.batch else pf.name  # type: ignore[attr-defined]
        found = run.already_found(board) if run else 0
        stats = SearchStats()

        def search(on_step: Any = None, puzzle: Puzzle = puzzle, stats: SearchStats = stats,
                   board: int = board) -> Any:  # fmt: skip
            return (
                run.solutions(board) if run
                else _sink_solutions(args, puzzle, stats) if args.engine == SINK
                else puzzle.distinct_solutions(limit, args.engine, stats, on_step) if args.distinct
                else puzzle.solutions(limit, args.engine, args.seed, stats, on_step)
            )

        following = run is None and limit is None
        solutions = _followed(args, label, puzzle, search) if following else search()
        for solution in solutions:
            found += 1
            if args.format == "json":
                print(solution_json(puzzle, solution), flush=True)
                continue
            header = f"{label}: solution {found}"
            print(header)
            colored = _colored(puzzle, solution) if tty and args.format == "text" else None
            if colored is not None:
                from rich.console import Console

                Console().print(colored, end="")
            else:
                print("\n".join(solution_lines(puzzle, solution, args.format)))
            print()
        found_any |= found > 0
        if not found and args.engine == SINK and reason is None:
            print(f"{label}: no tiling found by the sink search in {stats.search_seconds:.0f} s "
                  "(a local search: this proves nothing; try another --seed)", file=sys.stderr)
        elif not found:
            why = f": {reason}" if reason else ""
            print(f"{label}: no solution{why}", file=sys.stderr)
        if args.why and run is None:
            print(f"{label}: {_why(puzzle, found, stats)[1]}", file=sys.stderr)
    if run is not None:
        run.close()
    return 0


def _sink_solutions(args: argparse.Namespace, puzzle: Puzzle, stats: SearchStats) -> Any:
    """The sink search's one tiling, with its attempts reported on a terminal (a search
    that may take minutes and has no tree to show progress through)."""
    if not isinstance(puzzle, PolyominoPuzzle):
        raise EngineError(f"{puzzle.name}: the sink search tiles polyomino boards only")
    say = None
    if sys.stderr.isatty() and not args.quiet:
        def say(line: str) -> None:
            print(f"{puzzle.name}: {line}", file=sys.stderr, flush=True)
    return puzzle.sink_solutions(args.seed, stats, progress=say)


def _solve_batch_sheet(pf: PuzzleFile, args: argparse.Namespace) -> int:
    """One solution of every board of a batch, drawn side by side, five to a row."""
    blocks = []
    for puzzle in pf.puzzles:
        name = getattr(puzzle, "board_name", None) or puzzle.name
        solution = next(iter(puzzle.solutions(1, args.engine, args.seed)), None)
        if solution is None:
            reason = puzzle.impossibility()
            print(f"{pf.name} {name}: no solution" + (f": {reason}" if reason else ""),
                  file=sys.stderr)
            blocks.append([name, "(no solution)"])
        else:
            blocks.append([name, *solution_lines(puzzle, solution, args.format)])
    print("\n".join(side_by_side(blocks, per_row=5)))
    return 0


def _pictures() -> Any:
    """The picture renderer; matplotlib (extra 'pictures') is imported only now."""
    import importlib.util

    if importlib.util.find_spec("matplotlib") is None:
        raise PicturesUnavailable("pictures need matplotlib: pip install 'puzzlebox[pictures]'")
    from puzzlebox.render import pictures

    return pictures


class PicturesUnavailable(RuntimeError):
    """matplotlib is not installed."""


def _write_picture(args: argparse.Namespace, draw: Callable[[], Any]) -> int:
    if args.out is None:
        print(f"puzzlebox: --format {args.format} needs --out FILE", file=sys.stderr)
        return EXIT_BAD_INPUT
    try:
        _pictures().write_figure(draw(), args.out, args.format)
    except OSError as error:
        print(f"puzzlebox: cannot write {args.out}: {error.strerror or error}", file=sys.stderr)
        return EXIT_BAD_INPUT
    print(args.out)
    return 0


def _following(args: argparse.Namespace, label: str, puzzle: Puzzle) -> Any:
    """A progress display (stderr, terminals only) for the searches of one count."""
    from puzzlebox.progress import following, wanted

    return following(wanted(args.quiet), label, puzzle.search_problem)


def _followed(args: argparse.Namespace, label: str, puzzle: Puzzle, items: Any) -> Any:
    """The enumeration ``items(on_step)`` passed through a progress display (terminals
    only), which hears the search after every step."""
    from puzzlebox.progress import follow, wanted

    return follow(wanted(args.quiet), label, lambda: puzzle.problem, items)


def _solve_pictures(pf: PuzzleFile, args: argparse.Namespace, limit: int | None) -> int:
    """Pictures of solutions: one sheet in --out FILE, or one file each in --out DIR/."""
    pictures = _pictures()
    if args.out is None:
        print(f"puzzlebox: --format {args.format} needs --out FILE (a sheet) or --out DIR/ "
              "(one file per solution)", file=sys.stderr)
        return EXIT_BAD_INPUT
    if limit is None and not pictures.is_folder(args.out):
        print("puzzlebox: --all with pictures needs --out DIR/ (one file per solution)",
              file=sys.stderr)
        return EXIT_BAD_INPUT

    def found() -> Any:
        for puzzle in pf.puzzles:
            label = f"{pf.name} {puzzle.board_name}" if pf.batch else pf.name  # type: ignore[attr-defined]
            solutions = (
                _followed(args, label, puzzle, lambda on_step, puzzle=puzzle: puzzle.solutions(
                    limit, args.engine, args.seed, on_step=on_step))
                if limit is None else puzzle.solutions(limit, args.engine, args.seed)
            )  # fmt: skip
            n = 0
            for solution in solutions:
                n += 1
                yield puzzle, solution
            if not n:
                reason = puzzle.impossibility()
                print(f"{label}: no solution" + (f": {reason}" if reason else ""),
                      file=sys.stderr)

    try:
        written = pictures.save_solutions(found(), args.format, args.out, pf.name)
    except OSError as error:
        print(f"puzzlebox: cannot write {args.out}: {error.strerror or error}", file=sys.stderr)
        return EXIT_BAD_INPUT
    for path in written:
        print(path)
    return 0


def cmd_estimate(args: argparse.Namespace) -> int:
    """Knuth's estimate of each board's search tree, and the engine's speed on it."""
    import json

    from puzzlebox.engine.estimate import engine_speed, estimate_tree
    from puzzlebox.engine.registry import general
    from puzzlebox.engine.search import Job
    from puzzlebox.progress import duration_text

    pf = _load(args.puzzle)
    for puzzle in pf.puzzles:
        label = f"{pf.name} {puzzle.board_name}" if pf.batch else pf.name  # type: ignore[attr-defined]
        reason = puzzle.impossibility()
        if reason is not None:
            if args.json:
                print(json.dumps({"puzzle": puzzle.name, "nodes": 0, "reason": reason}))
            else:
                print(f"{label}: no search needed: {reason}")
            continue
        problem = puzzle.search_problem()
        est = estimate_tree(problem, probes=args.probes, seed=args.seed)
        speed, searched = engine_speed(problem)
        seconds = est.seconds_at(speed)
        if args.json:
            obj = {"puzzle": puzzle.name, "nodes": round(est.nodes, 1),
                   "nodes_error": round(est.nodes_error, 1),
                   "tree_solutions": round(est.solutions, 1),
                   "tree_solutions_error": round(est.solutions_error, 1),
                   "tree_solutions_estimated": est.solutions_estimated,
                   "solution_probes": est.solution_probes, "tree_exact": est.exact,
                   "probes": est.probes, "nodes_per_second": round(speed),
                   "seconds": float(f"{seconds:.3g}"), "searched_nodes": searched}
            if pf.batch:
                obj["board"] = puzzle.board_name  # type: ignore[attr-defined]
            print(json.dumps(obj), flush=True)
            continue
        spread = f"{100 * est.nodes_error / est.nodes:.0f}%" if est.nodes else "0%"
        print(f"{label}: about {est.nodes:.3g} nodes (\u00b1{spread}), {est.solutions_text()}; "
              f"about {duration_text(seconds)} at {speed:.3g} nodes/s "
              f"({est.probes_text()})")
        if searched is not None:
            print(f"  (timing the engine searched the whole tree: {searched} nodes)")
        chosen = general(Job(problem)).name
        if chosen != "compiled":
            print(f"  (this is the compiled engine's tree; a count with --engine auto uses "
                  f"the {chosen} engine here)")
    return 0


def cmd_count(args: argparse.Namespace) -> int:
    pf = _load(args.puzzle)
    run = _split_run(args, pf, "count")
    for board, puzzle in enumerate(pf.puzzles):
        label = f"{pf.name} {puzzle.board_name}" if pf.batch else pf.name  # type: ignore[attr-defined]
        result = _count_one(args, run, board, puzzle, label)
        why = _why(puzzle, result.solutions, result.stats) if args.why else None
        if args.json:
            extra = {"why": why[0]} if why else {}
            print(count_json(puzzle, result, **_split_fields(result), **extra), flush=True)
            continue
        total = getattr(result, "total", 0)
        parts = f", {total} subproblem{'' if total == 1 else 's'}" if total else ""
        line = (
            f"{label}: {result.solutions} solutions, {result.distinct} distinct up to symmetry "
            f"({result.seconds:.3f} s, {result.stats.nodes} nodes{parts})"
        )
        print(line)
        if result.reason and why is None:
            print(f"  impossible: {result.reason}")
        if why is not None:
            print(f"  why: {why[1]}")
    if run is not None:
        run.close()
    return 0


WHY_HELP = ("say what settled it: a proof before search (area, checkerboard, placement, "
            "region) or the search itself, with its nodes")


def _why(puzzle: Puzzle, found: int, stats: SearchStats) -> tuple[str, str]:
    """(the argument's name, a sentence) saying what settled the answer."""
    from puzzlebox.puzzles.proofs import impossibility_proof

    proof = impossibility_proof(puzzle)
    if proof is not None:
        return proof.argument, f"proved before search by the {proof.argument} argument: " + (
            proof.sentence)
    if found == 0:
        return "search", f"searched exhaustively: no solution ({stats.nodes} nodes)"
    how = "search" if not stats.engine.startswith("restarts") else "search with restarts"
    return "search", f"found by {how} ({stats.nodes} nodes, {stats.engine} engine)"


def _add_sweep_order_parsers(sub: Any) -> None:
    from puzzlebox.puzzles.order import DEFAULT_MAX_AREA, PENTOMINOES

    sweep = sub.add_parser(
        "sweep", help="solve a board once for each choice of cells left uncovered",
        description="Solve the board with every choice of K of its cells left uncovered "
        "(where may the hole of a one-hole puzzle go?). Choices that a symmetry of the "
        "puzzle maps onto each other are solved once.")
    _add_puzzle_arg(sweep)
    sweep.add_argument("--uncover", type=_at_least(0), required=True, metavar="K",
                       help="how many board cells each choice leaves uncovered")
    sweep.add_argument("--count", action="store_true",
                       help="count the solutions of each choice (default: only say whether "
                       "it has one, one search each)")
    sweep.add_argument("--fill-holes", action="store_true",
                       help="first fill the board's holes: sweep its whole bounding rectangle")
    sweep.add_argument("--json", action="store_true",
                       help="one JSON object per choice, with the uncovered cells as "
                       "[[row, col], ...]")

    order = sub.add_parser(
        "order", help="the fewest copies of a polyomino that tile a rectangle",
        description="Find the order of a polyomino: the fewest copies (turned and flipped "
        "freely) that tile some rectangle, trying rectangles by increasing area, and show "
        "one tiling.")
    order.add_argument("shape", help="a grid such as '####/.#..' (rows split by '/', '#' a "
                       f"cell, '.' a gap) or a pentomino letter ({''.join(PENTOMINOES)})")
    order.add_argument("--max-area", type=_at_least(1), default=DEFAULT_MAX_AREA, metavar="N",
                       help=f"try rectangles up to this area (default {DEFAULT_MAX_AREA}); "
                       "beyond it the answer is 'no rectangle up to area N'")
    order.add_argument("--no-reflect", action="store_true",
                       help="copies may turn but not be flipped over")
    order.add_argument("--engine", default="auto",
                       help=f"search engine: {', '.join(_engine_choices())} (default: auto)")
    order.add_argument("--json", action="store_true", help="print one JSON object")
    order.add_argument("--why", action="store_true",
                       help="list every rectangle tried and what ruled it out")
    order.add_argument("--quiet", action="store_true", help="no progress display")


class _Bar:
    """A rich progress bar on stderr for terminals, shown once work has run for a second."""

    def __init__(self, description: str, show: bool) -> None:
        self._began = time.perf_counter()
        self._description = description
        self._show = show
        self._bar: Any = None
        self._task: Any = None

    def __call__(self, done: int, total: int) -> None:
        if not self._show:
            return
        if self._bar is None:
            if time.perf_counter() - self._began < 1.0:
                return
            from rich.console import Console
            from rich.progress import Progress

            self._bar = Progress(console=Console(stderr=True), transient=True)
            self._bar.start()
            self._task = self._bar.add_task(self._description, total=total)
        self._bar.update(self._task, completed=done)

    def close(self) -> None:
        if self._bar is not None:
            self._bar.stop()


def cmd_sweep(args: argparse.Namespace) -> int:
    import json

    from puzzlebox.puzzles.sweep import count_grid, filled, number_of_choices, sweep

    pf = _load(args.puzzle)
    for puzzle in pf.puzzles:
        label = f"{pf.name} {puzzle.board_name}" if pf.batch else pf.name  # type: ignore[attr-defined]
        if not isinstance(puzzle, PolyominoPuzzle):
            raise SweepError(f"{label}: sweep works on polyomino boards, not {puzzle.kind}")
        board = filled(puzzle) if args.fill_holes else puzzle
        total = number_of_choices(board, args.uncover)
        bar = _Bar(f"{label}: sweep", sys.stderr.isatty() and not args.quiet)
        try:
            results = list(sweep(board, args.uncover, args.count, args.engine, bar))
        finally:
            bar.close()
        solvable = sum(r.solvable for r in results)
        if args.json:
            for r in results:
                obj: dict[str, Any] = {"puzzle": puzzle.name}
                if pf.batch:
                    obj["board"] = puzzle.board_name  # type: ignore[attr-defined]
                obj["uncovered"] = [list(cell) for cell in r.uncovered]
                obj["solvable"] = r.solvable
                if args.count:
                    obj.update(solutions=r.solutions, distinct=r.distinct)
                if r.reason:
                    obj.update(proof=r.proof, reason=r.reason)
                print(json.dumps(obj), flush=True)
        else:
            searched = sum(1 for r in results if r.same_as is None)
            how = "each solved" if searched == total else (
                f"{searched} solved, the others are symmetric to one of them")
            print(f"{label}: {total} choices of {args.uncover} uncovered "
                  f"{'cell' if args.uncover == 1 else 'cells'}, {solvable} solvable ({how})")
            for r in results:
                cells = " ".join(f"({row},{col})" for row, col in r.uncovered) or "(none)"
                if args.count:
                    answer = f"{r.solutions} solutions, {r.distinct} distinct"
                else:
                    answer = "solvable" if r.solvable else "no solution"
                if r.reason:
                    answer += f" ({r.proof}: {r.reason})"
                print(f"  {cells:16} {answer}")
            if args.uncover == 1:
                print()
                print("\n".join(count_grid(board, results, args.count)))
        holes = not board.match_colors and len(board.board) < len(filled(board).board)
        if solvable == 0 and not args.fill_holes and holes:
            print(f"puzzlebox: {label}: no choice is solvable; --fill-holes sweeps the whole "
                  "rectangle, holes included", file=sys.stderr)
    return 0


def cmd_order(args: argparse.Namespace) -> int:
    import json

    from puzzlebox.puzzles.order import parse_shape, polyomino_order, rectangles

    shape = parse_shape(args.shape)
    total = sum(1 for _ in rectangles(shape, args.max_area))
    bar = _Bar(f"order of {args.shape}", sys.stderr.isatty() and not args.quiet)
    try:
        tried: list[Any] = []

        def step(attempt: Any) -> None:
            tried.append(attempt)
            bar(len(tried), total)

        result = polyomino_order(shape, args.max_area, args.engine,
                                 reflect=not args.no_reflect, progress=step)
    finally:
        bar.close()
    if args.json:
        obj: dict[str, Any] = {"shape": shape.to_text().replace("\n", "/"),
                               "order": result.order, "max_area": args.max_area}
        if result.puzzle is not None and result.solution is not None:
            rows = 1 + max(r for r, _ in result.puzzle.board)
            cols = 1 + max(c for _, c in result.puzzle.board)
            obj.update(rows=rows, cols=cols, placements=result.solution.placements_json())
        if args.why:
            obj["tried"] = [{"rows": a.rows, "cols": a.cols, "tiled": a.tiled, "how": a.how,
                             "detail": a.detail} for a in result.attempts]
        print(json.dumps(obj))
        return 0
    print(shape.to_text())
    print(result.summary())
    if args.why:
        for a in result.attempts:
            verdict = "tiled" if a.tiled else "no"
            print(f"  {a.rows}x{a.cols} ({a.copies} copies): {verdict} ({a.how}: {a.detail})")
    if result.puzzle is not None and result.solution is not None:
        print("\n".join(solution_lines(result.puzzle, result.solution, "outline")))
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if hasattr(args, "engine"):
        _check_engine(parser, args.engine, args.command)
    split = args.command == "count" and (
        args.jobs != 1 or args.cluster or args.checkpoint or args.split_depth is not None
    )
    if split and args.engine == "memo":
        parser.error("--engine memo counts in one process: drop --jobs, --cluster, "
                     "--checkpoint and --split-depth")
    try:
        if args.command == "list":
            return cmd_list()
        if args.command == "show":
            return cmd_show(args)
        if args.command == "solve":
            return cmd_solve(args)
        if args.command == "estimate":
            return cmd_estimate(args)
        if args.command == "generate":
            return cmd_generate(args)
        if args.command == "sweep":
            return cmd_sweep(args)
        if args.command == "order":
            return cmd_order(args)
        return cmd_count(args)
    except (PuzzleFileError, SweepError, ShapeError) as error:
        print(f"puzzlebox: {error}", file=sys.stderr)
        return EXIT_BAD_INPUT
    except SplitError as error:
        print(f"puzzlebox: {error}", file=sys.stderr)
        return error.exit_status
    except MemoDeclined as error:
        print(f"puzzlebox: {error}", file=sys.stderr)
        return EXIT_BAD_INPUT
    except PicturesUnavailable as error:
        print(f"puzzlebox: {error}", file=sys.stderr)
        return EXIT_BAD_INPUT
    except EngineError as error:
        print(f"puzzlebox: {error}", file=sys.stderr)
        return EXIT_BAD_INPUT
    except KeyboardInterrupt:
        print("puzzlebox: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return 0


if __name__ == "__main__":
    sys.exit(main())
