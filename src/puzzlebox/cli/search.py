"""The command line's searches: ``solve`` and ``count``, each through a
:class:`puzzlebox.run.Run` (its engine, limits, progress and Stop decided there, as for the
library and the page), their answers printed by render/'s formatters.

The dispatcher (dispatch.py) imports this module only for these commands, so that ``list``,
``show`` and ``--help`` load no engine (issue #23). The disassembly's part (disassembly.py:
``--disassemble`` and its options) is loaded only when the command line asks for it.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Iterator
from dataclasses import replace
from typing import Any

from puzzlebox.cli.common import (
    CommandError,
    add_resolution_args,
    at_least,
    number,
    path,
    resolution,
    say,
    showing,
    write,
)
from puzzlebox.cli.puzzle import add_puzzle_arg, check_engine, load
from puzzlebox.engine.memory import parse_memory
from puzzlebox.formats import PuzzleFile
from puzzlebox.parallel import Interrupted, SplitRun
from puzzlebox.puzzles import Puzzle, Solution
from puzzlebox.puzzles.labels import opened
from puzzlebox.render import side_by_side, solution_json, solution_lines
from puzzlebox.render.drawing import pictures
from puzzlebox.render.json_out import count_json
from puzzlebox.render.progress import JsonLines, ProgressLine
from puzzlebox.render.report_text import count_text, no_solution_text
from puzzlebox.reports import label
from puzzlebox.run import Limits, Run, Split, choice, split_run
from puzzlebox.run.reports import count_report, why
from puzzlebox.safety import printable

SOLVE_LINE_AFTER = 2.0  # seconds before a search of the first solutions shows a live line
WHY_HELP = ("say what settled it: a proof before search (area, checkerboard, placement, "
            "region) or the search itself, with its nodes")


def _load(args: argparse.Namespace) -> PuzzleFile:
    """The puzzle file (refused at once when a board's cover problem would not fit), with
    the labels of ``--open`` left uncovered."""
    pf = load(args.puzzle)
    if args.open is None:
        return pf

    wanted = [n.strip() for n in args.open.split(",") if n.strip()]
    if not wanted:
        raise CommandError("--open needs at least one label")
    return replace(pf, puzzles=[opened(puzzle, wanted) for puzzle in pf.puzzles])


def _note(line: str) -> None:
    """A run's one-line note (a long count's estimate), on stderr whether a terminal or not."""
    print(printable(f"puzzlebox: {line}"), file=sys.stderr, flush=True)


class _Runs:
    """The runs of the boards of one file, as the options ask (one split run shared)."""

    def __init__(self, args: argparse.Namespace, pf: PuzzleFile, mode: str) -> None:
        self.args, self.pf, self.mode = args, pf, mode
        self.limits = Limits(time=args.max_time, memory=args.max_memory,
                             refuse=not args.no_limit)
        self.split = Split(args.jobs, args.cluster, args.checkpoint, args.split_depth)
        self.splitter: SplitRun | None = None
        if self.split.asked:
            if args.open:  # workers rebuild the puzzle from the file's text
                raise CommandError("--open works in one process: drop --jobs, --cluster, "
                                   "--checkpoint and --split-depth")
            show = showing(args) and args.progress == "auto"
            self.splitter = split_run(pf, mode, args.engine, self.split, self.limits, _note,
                                      every=not getattr(args, "distinct", False),
                                      progress=show and (mode == "count" or
                                                         not sys.stdout.isatty()),
                                      before_record=sys.stdout.flush)

    def run(self, board: int, puzzle: Puzzle, **options: Any) -> tuple[Run, Any]:
        """A run of one board and its progress display (close it after)."""
        args = self.args
        display: Any = None
        if args.progress == "json":
            display = JsonLines()
        elif args.progress == "auto" and self.splitter is None and showing(args):
            # only where it is shown: the events of a line nobody sees cost a count Knuth's
            # estimate on a thread of their own (run/progress.py), up to a second of CPU
            # (tetrasticks-6x6: 0.25-0.3 s of its 3.5 s, #38 item 6)
            first_few = self.mode == "solutions" and options.get("limit") is not None
            display = ProgressLine(label(puzzle), True,
                                   after=SOLVE_LINE_AFTER if first_few else 0.5)
        run = Run(puzzle, self.mode, engine=args.engine, limits=self.limits,
                  splitter=None if self.splitter is None else (self.splitter, board),
                  on_progress=display, on_note=_note, **options)
        return run, display

    def close(self) -> None:
        if self.splitter is not None:
            self.splitter.close()


def cmd_count(args: argparse.Namespace) -> int:
    check_options(args)
    pf = _load(args)
    if args.disassemble:  # #24: the disassembly package counts and takes apart
        from puzzlebox.cli import disassembly

        return disassembly.run_count(args, pf)
    runs = _Runs(args, pf, "count")
    for board, puzzle in enumerate(pf.puzzles):
        run, display = runs.run(board, puzzle)
        try:
            result = run.count()
        except Interrupted as stop:  # a split count: what it has, marked partial
            if stop.result is not None:
                report = count_report(puzzle, stop.result, interrupted=True)
                say([count_json(report)] if args.json else count_text(report))
            if args.checkpoint:
                print(f"puzzlebox: the checkpoint {args.checkpoint} is kept; run the same "
                      "command again to resume", file=sys.stderr)
            raise
        finally:
            if hasattr(display, "close"):
                display.close()
        settled = why(puzzle, result.solutions, result.stats) if args.why else None
        report = count_report(puzzle, result, settled)
        say([count_json(report)] if args.json else count_text(report))
    runs.close()
    return 0


def cmd_solve(args: argparse.Namespace) -> int:
    check_options(args)
    if args.json:
        if args.format not in ("text", "json"):
            raise CommandError(f"--json and --format {args.format} ask for different outputs")
        args.format = "json"
    pictured = args.format in ("svg", "png")
    if pictured or args.size is not None or args.dpi is not None:
        resolution(args)
    pf = _load(args)
    limit = None if args.all else args.limit
    if args.disassemble:  # #24: the assemblies that come apart, with their levels
        from puzzlebox.cli import disassembly

        return disassembly.run_solve(args, pf, lambda puzzle, solution: print(
            "\n".join(map(printable, solution_lines(puzzle, solution, args.format)))))
    split = args.jobs > 1 or args.cluster or args.checkpoint or args.split_depth is not None
    if split and not args.all:
        raise CommandError("--jobs, --cluster, --checkpoint and --split-depth need --all")
    if args.distinct and (split or args.seed is not None):
        raise CommandError("--distinct searches in one process, without --seed")
    if pictured and args.distinct:
        raise CommandError("--distinct draws no pictures; use text, outline or json")
    if pictured and args.out is None:
        raise CommandError(f"--format {args.format} needs --out FILE (a sheet) or --out DIR/ "
                           "(one file per solution)")
    if pictured and limit is None and not pictures().is_folder(args.out):
        raise CommandError("--all with pictures needs --out DIR/ (one file per solution)")
    runs = _Runs(args, pf, "solutions")
    found = _found(args, runs, pf, limit)
    if pictured:
        written: list[Any] = []
        pixels = resolution(args)
        write(args.out, lambda: written.extend(pictures().save_solutions(
            ((p, s) for p, s in found if s is not None), args.format, args.out, pf.name,
            pixels)))
        for path in written:
            print(path)
    elif pf.batch and limit == 1 and args.format in ("text", "outline"):
        blocks = [[printable(p.board_name or p.name),
                   *(map(printable, solution_lines(p, s, args.format)) if s else
                     ["(no solution)"])] for p, s in found]
        print("\n".join(side_by_side(blocks, per_row=5)))
    else:
        _print_all(args, found, limit)
    runs.close()
    return 0


def _found(args: argparse.Namespace, runs: _Runs, pf: PuzzleFile, limit: int | None
           ) -> Iterator[tuple[Puzzle, Solution | None]]:  # fmt: skip
    """Every board's solutions as (puzzle, solution), and (puzzle, None) after a board that
    has none, whose line is printed here: the one place that says "no solution"."""

    for board, puzzle in enumerate(pf.puzzles):
        run, display = runs.run(board, puzzle, limit=limit, distinct=args.distinct,
                                seed=args.seed)
        n = run.already_found()
        try:
            for solution in run.solutions():
                n += 1
                yield puzzle, solution
        finally:
            if hasattr(display, "close"):
                display.close()
        if n == 0:
            print(printable(no_solution_text(label(puzzle), run.reason, run.local_search,
                                             run.stats.search_seconds)), file=sys.stderr)
            yield puzzle, None
        if args.why and runs.splitter is None:
            print(printable(f"{label(puzzle)}: {why(puzzle, n, run.stats).sentence}"),
                  file=sys.stderr)


def _print_all(args: argparse.Namespace, found: Iterator[tuple[Puzzle, Solution | None]],
               limit: int | None) -> None:  # fmt: skip
    """Solutions one after another; listing every solution to a terminal, a legend (the
    letters' pieces) is printed again only where it changes."""
    colour = sys.stdout.isatty() and args.format == "text"
    once = limit is None and sys.stdout.isatty()
    numbers: dict[str, int] = {}
    legends: dict[str, list[str]] = {}
    for puzzle, solution in found:
        if solution is None:
            continue
        name = label(puzzle)
        if args.format == "json":
            print(solution_json(puzzle, solution), flush=True)
            continue
        numbers[name] = numbers.get(name, 0) + 1
        print(f"{name}: solution {numbers[name]}")
        lines = list(map(printable, solution_lines(puzzle, solution, args.format)))
        blank = lines.index("") if "" in lines else len(lines)
        legend = lines[blank:]
        same = once and legends.get(name) == legend
        legends[name] = legend
        if colour:
            from puzzlebox.render.terminal import colored_solution

            text = colored_solution(puzzle, solution)
            if text is not None:
                from rich.console import Console

                if same:
                    from rich.text import Text

                    text = Text("\n").join(list(text.split("\n"))[:blank])
                    text.append("\n")
                Console().print(text, end="")
                print()
                continue
        print("\n".join(lines[:blank] if same else lines))
        print()


def check_options(args: argparse.Namespace) -> None:
    """An engine that cannot do what the command asks, refused with its usage (exit 2), and
    options it does not go with, refused in one line."""
    check_engine(args)
    parser: argparse.ArgumentParser = args.command_parser
    split = args.jobs != 1 or args.cluster or args.checkpoint or args.split_depth is not None
    drop = "--jobs, --cluster, --checkpoint and --split-depth"
    if choice.local_search(args.engine) and (split or args.all or args.limit != 1 or
                                             args.distinct):
        raise CommandError(f"--engine {args.engine} finds one tiling: drop --all, --limit, "
                           f"--distinct, {drop}")
    refused = choice.splits(args.engine, args.command == "count") if split else None
    if refused is not None:
        parser.error(f"--engine {args.engine} counts in one process: drop {drop}")
    if split and args.max_time is not None and not getattr(args, "disassemble", False):
        raise CommandError(f"--max-time works in one process: drop {drop} (--no-limit goes on "
                           "past the estimate there)")


# -- the parsers of solve and count -------------------------------------------------------

def add_run_args(parser: argparse.ArgumentParser, doing: str) -> None:
    """The options of a run (puzzlebox.run: Limits, Split, progress)."""
    parser.add_argument("--open", metavar="LABEL,...",
                        help="leave the cells of these labels of [board.labels] uncovered "
                        "(as 'Jan,1' on the calendar; 'group=label' where groups share one)")
    parser.add_argument("--max-memory", type=number(parse_memory, "size"), metavar="SIZE",
                        help="memory any engine may use, e.g. 512M or 2G (default 2G; more is "
                        "refused at once, exit status 3); '--engine memo' counts by sweeping "
                        "the board instead of enumerating")
    parser.add_argument("--no-limit", action="store_true",
                        help=f"{doing} even when Knuth's estimate says it would take more "
                        "than a thousand years (refused otherwise, exit status 3)")
    parser.add_argument("--max-time", type=number(float, "seconds"), metavar="SECONDS",
                        help=f"{doing} past such an estimate, but stop after SECONDS "
                        "(exit status 3)")
    parser.add_argument("--progress", choices=["auto", "json", "none"], default="auto",
                        help="auto: a live line on a terminal's stderr; json: one JSON object "
                        "per update on stderr (elapsed, solutions, distinct, nodes, share, "
                        "eta); none: nothing")
    where = parser.add_mutually_exclusive_group()
    where.add_argument("--jobs", type=at_least(1), default=1, metavar="N",
                       help="split the search over N local processes: this one and N-1 "
                       "workers (default 1)")
    where.add_argument("--cluster", metavar="ADDRESS",
                       help="split the search over a running Dask scheduler, e.g. "
                       "tcp://127.0.0.1:8786 (extra 'cluster')")
    parser.add_argument("--checkpoint", type=path, metavar="FILE",
                        help="record finished subproblems in FILE (JSON; with --disassemble, "
                        "each assembly taken apart); run the same command again to resume")
    parser.add_argument("--split-depth", type=at_least(0), metavar="D",
                        help="split at depth D of the search tree (default: about 8 "
                        "subproblems per worker)")


def add_solve(solve: argparse.ArgumentParser) -> None:
    solve.description = "Find solutions."
    add_puzzle_arg(solve)
    how_many = solve.add_mutually_exclusive_group()
    how_many.add_argument("--limit", type=at_least(1), default=1, metavar="N",
                          help="stop after N solutions (default 1)")
    how_many.add_argument("--all", action="store_true", help="every solution")
    solve.add_argument("--format", choices=["text", "outline", "json", "svg", "png"],
                       default="text",
                       help="text: piece letters; outline: piece boundaries on the square "
                       "grid, and on other lattices a letter per placement (copies of a piece "
                       "told apart) with a legend under it; json: one object per solution; "
                       "svg, png: pictures (need --out)")
    solve.add_argument("--json", action="store_true",
                       help="the same as --format json, as with count, estimate, sweep and order")
    solve.add_argument("--out", type=path, metavar="FILE|DIR/",
                       help="pictures: one sheet in FILE, or one file per solution in DIR/")
    add_resolution_args(solve)
    solve.add_argument("--seed", type=int, metavar="SEED",
                       help="randomise the search (shuffled order, restarts with growing "
                       "node budgets): different seeds find different first solutions")
    solve.add_argument("--distinct", action="store_true",
                       help="one solution of each symmetry class (searched on the problem cut "
                       "down by the puzzle's symmetries)")
    solve.add_argument("--why", action="store_true", help=WHY_HELP)
    add_run_args(solve, "with --all: enumerate")
    solve.set_defaults(disassemble=False)


def add_count(count: argparse.ArgumentParser) -> None:
    count.description = "Count every solution, as placed and up to symmetry."
    add_puzzle_arg(count)
    count.add_argument("--json", action="store_true", help="print one JSON object per board")
    count.add_argument("--why", action="store_true", help=WHY_HELP)
    add_run_args(count, "count")
    count.set_defaults(disassemble=False)


def more_solve(parser: argparse.ArgumentParser) -> None:
    """``--disassemble`` and its limits (#24; their logic is in disassembly.py), added only
    when the command line has a word the parser without them does not know exactly (one of
    them, an abbreviation, a mistake) or asks for help (dispatch.py)."""
    from puzzlebox.cli import disassembly

    disassembly.add_arguments(parser)


more_count = more_solve
