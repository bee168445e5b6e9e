"""The ``puzzlebox`` command line: parse arguments, call the library, print. Nothing else."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Sequence

from puzzlebox import catalog
from puzzlebox.engine import ENGINES
from puzzlebox.formats import PuzzleFile, PuzzleFileError
from puzzlebox.parallel import Interrupted, SplitError, SplitRun
from puzzlebox.puzzles import CountResult, PolyominoPuzzle, PolyominoSolution, Puzzle, Solution
from puzzlebox.render import count_json, describe, side_by_side, solution_json, solution_lines

EXIT_BAD_INPUT = 2
PALETTE = [
    "#0072B2", "#E69F00", "#009E73", "#CC79A7", "#56B4E9", "#D55E00",
    "#F0E442", "#999999", "#882255", "#44AA99", "#117733", "#AA4499",
]  # fmt: skip


def _engine_choices() -> list[str]:
    return ["auto", *sorted(ENGINES)]


def _add_puzzle_arg(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("puzzle", help="a catalog name (see 'puzzlebox list') or a .toml file")
    parser.add_argument(
        "--engine",
        default="auto",
        help=f"search engine: {', '.join(_engine_choices())} (default: auto)",
    )


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

    solve = sub.add_parser("solve", help="find solutions", description="Find solutions.")
    _add_puzzle_arg(solve)
    how_many = solve.add_mutually_exclusive_group()
    how_many.add_argument("--limit", type=int, default=1, metavar="N",
                          help="stop after N solutions (default 1)")
    how_many.add_argument("--all", action="store_true", help="every solution")
    solve.add_argument("--format", choices=["text", "outline", "json"], default="text",
                       help="text: piece letters; outline: piece boundaries; json: one object "
                       "per solution")
    _add_split_args(solve)

    count = sub.add_parser("count", help="count solutions, raw and distinct up to symmetry",
                           description="Count every solution, as placed and up to symmetry.")
    _add_puzzle_arg(count)
    count.add_argument("--json", action="store_true", help="print one JSON object per board")
    _add_split_args(count)
    return parser


def _load(name: str) -> PuzzleFile:
    return catalog.load(name)


def _check_engine(parser: argparse.ArgumentParser, engine: str) -> None:
    if engine not in _engine_choices():
        parser.error(f"unknown engine {engine!r} (choose from {', '.join(_engine_choices())})")


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
                       help="split the search over N local processes (default 1)")
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
        return puzzle.count(engine=args.engine)
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
    if pf.batch and limit == 1 and args.format in ("text", "outline"):
        return _solve_batch_sheet(pf, args)
    tty = sys.stdout.isatty()
    found_any = False
    split = (args.jobs > 1 or args.cluster or args.checkpoint or args.split_depth is not None)
    if split and not args.all:
        print("puzzlebox: --jobs, --cluster, --checkpoint and --split-depth need --all",
              file=sys.stderr)
        return EXIT_BAD_INPUT
    run = _split_run(args, pf, "solve")
    for board, puzzle in enumerate(pf.puzzles):
        reason = puzzle.impossibility()
        label = f"{pf.name} {puzzle.board_name}" if pf.batch else pf.name  # type: ignore[attr-defined]
        found = run.already_found(board) if run else 0
        solutions = run.solutions(board) if run else puzzle.solutions(limit, args.engine)
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
        if not found:
            why = f": {reason}" if reason else ""
            print(f"{label}: no solution{why}", file=sys.stderr)
    if run is not None:
        run.close()
    return 0


def _solve_batch_sheet(pf: PuzzleFile, args: argparse.Namespace) -> int:
    """One solution of every board of a batch, drawn side by side, five to a row."""
    blocks = []
    for puzzle in pf.puzzles:
        name = getattr(puzzle, "board_name", None) or puzzle.name
        solution = next(iter(puzzle.solutions(limit=1, engine=args.engine)), None)
        if solution is None:
            reason = puzzle.impossibility()
            print(f"{pf.name} {name}: no solution" + (f": {reason}" if reason else ""),
                  file=sys.stderr)
            blocks.append([name, "(no solution)"])
        else:
            blocks.append([name, *solution_lines(puzzle, solution, args.format)])
    print("\n".join(side_by_side(blocks, per_row=5)))
    return 0


def cmd_count(args: argparse.Namespace) -> int:
    pf = _load(args.puzzle)
    run = _split_run(args, pf, "count")
    for board, puzzle in enumerate(pf.puzzles):
        label = f"{pf.name} {puzzle.board_name}" if pf.batch else pf.name  # type: ignore[attr-defined]
        result = _count_one(args, run, board, puzzle, label)
        if args.json:
            print(count_json(puzzle, result, **_split_fields(result)), flush=True)
            continue
        parts = f", {result.total} subproblems" if getattr(result, "total", 0) else ""
        line = (
            f"{label}: {result.solutions} solutions, {result.distinct} distinct up to symmetry "
            f"({result.seconds:.3f} s, {result.stats.nodes} nodes{parts})"
        )
        print(line)
        if result.reason:
            print(f"  impossible: {result.reason}")
    if run is not None:
        run.close()
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if hasattr(args, "engine"):
        _check_engine(parser, args.engine)
    try:
        if args.command == "list":
            return cmd_list()
        if args.command == "show":
            return cmd_show(args)
        if args.command == "solve":
            return cmd_solve(args)
        return cmd_count(args)
    except PuzzleFileError as error:
        print(f"puzzlebox: {error}", file=sys.stderr)
        return EXIT_BAD_INPUT
    except SplitError as error:
        print(f"puzzlebox: {error}", file=sys.stderr)
        return error.exit_status
    except KeyboardInterrupt:
        print("puzzlebox: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return 0


if __name__ == "__main__":
    sys.exit(main())
