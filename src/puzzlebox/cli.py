"""The ``puzzlebox`` command line: parse arguments, call the library, print. Nothing else."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from puzzlebox import catalog
from puzzlebox.engine import ENGINES
from puzzlebox.formats import PuzzleFile, PuzzleFileError
from puzzlebox.puzzles import PolyominoPuzzle, PolyominoSolution, Puzzle, Solution
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

    count = sub.add_parser("count", help="count solutions, raw and distinct up to symmetry",
                           description="Count every solution, as placed and up to symmetry.")
    _add_puzzle_arg(count)
    count.add_argument("--json", action="store_true", help="print one JSON object per board")
    return parser


def _load(name: str) -> PuzzleFile:
    return catalog.load(name)


def _check_engine(parser: argparse.ArgumentParser, engine: str) -> None:
    if engine not in _engine_choices():
        parser.error(f"unknown engine {engine!r} (choose from {', '.join(_engine_choices())})")


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
    tty = sys.stdout.isatty()
    found_any = False
    for puzzle in pf.puzzles:
        reason = puzzle.impossibility()
        label = f"{pf.name} {puzzle.board_name}" if pf.batch else pf.name  # type: ignore[attr-defined]
        found = 0
        for solution in puzzle.solutions(limit=limit, engine=args.engine):
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
    return 0


def cmd_count(args: argparse.Namespace) -> int:
    pf = _load(args.puzzle)
    for puzzle in pf.puzzles:
        result = puzzle.count(engine=args.engine)
        if args.json:
            print(count_json(puzzle, result), flush=True)
            continue
        label = f"{pf.name} {puzzle.board_name}" if pf.batch else pf.name  # type: ignore[attr-defined]
        line = (
            f"{label}: {result.solutions} solutions, {result.distinct} distinct up to symmetry "
            f"({result.seconds:.3f} s, {result.stats.nodes} nodes)"
        )
        print(line)
        if result.reason:
            print(f"  impossible: {result.reason}")
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
    except KeyboardInterrupt:
        print("puzzlebox: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return 0


if __name__ == "__main__":
    sys.exit(main())
