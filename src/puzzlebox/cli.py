"""The ``puzzlebox`` command line: parse arguments, call the library, print. Nothing else.

The answers come from the library as report objects (puzzlebox.reports) and are printed by
the formatters of render/; every error a user can cause is a PuzzleboxError, caught once in
:func:`main`. Only this module knows the command's flags.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import Any

from puzzlebox import catalog
from puzzlebox.budget import Hopeless, OverMemory
from puzzlebox.catalog import UnknownPuzzle
from puzzlebox.engine.memo import MemoTooLarge, parse_memory
from puzzlebox.engine.stats import SearchStats
from puzzlebox.errors import PuzzleboxError
from puzzlebox.formats import PuzzleFile
from puzzlebox.parallel import Interrupted, SplitRun
from puzzlebox.puzzles import CountResult, Puzzle, Solution
from puzzlebox.puzzles.base import SINK
from puzzlebox.puzzles.labels import NoDeclaredSweep
from puzzlebox.render import describe, side_by_side, solution_json, solution_lines
from puzzlebox.render.drawing import pictures
from puzzlebox.render.json_out import count_json, estimate_json, order_json, sweep_json
from puzzlebox.render.report_text import count_text, estimate_text, order_text, sweep_text
from puzzlebox.reports import (
    OrderReport,
    count_report,
    estimate_report,
    label,
    sweep_report,
    why,
)
from puzzlebox.safety import printable


class CommandError(PuzzleboxError):
    """Options that do not go together, or an output file that cannot be written."""


# What the command line adds to a library error: the flag or command that helps.
HINTS: dict[type[PuzzleboxError], str] = {
    UnknownPuzzle: "see 'puzzlebox list'",
    MemoTooLarge: "--max-memory SIZE",
    NoDeclaredSweep: "--uncover K, or --uncover-groups GROUP,...",
    OverMemory: "--max-memory SIZE",
    Hopeless: "--no-limit runs it anyway, --max-time SECONDS runs it until then",
}


def _late_hints() -> dict[type[PuzzleboxError], str]:
    """Hints for the errors of modules imported only by the commands that use them
    (import, export), so that no other command pays their start-up time."""
    from puzzlebox.formats.burrtools import ProblemNeeded
    from puzzlebox.render.sheet import PieceTooLarge, SolidPieces

    return {
        ProblemNeeded: "--problem NAME|N",
        SolidPieces: "export them with --stl DIR",
        PieceTooLarge: "a smaller --cell-mm or a larger --page",
    }


def error_line(error: PuzzleboxError) -> str:
    """The one line printed for ``error``, with the command line's hint when it has one."""
    hints = HINTS | _late_hints()
    hint = next((h for kind, h in hints.items() if isinstance(error, kind)), None)
    text = printable(str(error))
    return f"puzzlebox: {text} ({hint})" if hint else f"puzzlebox: {text}"


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

    listing = sub.add_parser("list", help="list the built-in catalog",
                             description="List the catalog.")
    listing.add_argument("--json", action="store_true",
                         help='one JSON object per puzzle: {"puzzle": name, "title": title}')

    show = sub.add_parser("show", help="show a puzzle's board and pieces",
                          description="Show a puzzle's board and pieces, as text or as a "
                          "picture (svg, png: the 'pictures' extra).")
    show.add_argument("puzzle", help="a catalog name or a .toml file")
    show.add_argument("--format", choices=["text", "svg", "png"], default="text",
                      help="text, or a picture of the board(s) and every piece (needs --out)")
    show.add_argument("--out", metavar="FILE", help="where to write a picture")
    _add_resolution_args(show)

    solve = sub.add_parser("solve", help="find solutions", description="Find solutions.")
    _add_puzzle_arg(solve)
    how_many = solve.add_mutually_exclusive_group()
    how_many.add_argument("--limit", type=int, default=1, metavar="N",
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
    solve.add_argument("--out", metavar="FILE|DIR/",
                       help="pictures: one sheet in FILE, or one file per solution in DIR/")
    _add_resolution_args(solve)
    solve.add_argument("--seed", type=int, metavar="S",
                       help="randomise the search (shuffled order, restarts with growing "
                       "node budgets): different seeds find different first solutions")
    _add_split_args(solve)
    solve.add_argument("--distinct", action="store_true",
                       help="one solution of each symmetry class (searched on the problem cut "
                       "down by the puzzle's symmetries)")
    solve.add_argument("--why", action="store_true", help=WHY_HELP)
    _add_open_arg(solve)
    _add_max_memory(solve)
    _add_time_limits(solve, "with --all: enumerate")

    count = sub.add_parser("count", help="count solutions, raw and distinct up to symmetry",
                           description="Count every solution, as placed and up to symmetry.")
    _add_puzzle_arg(count)
    count.add_argument("--json", action="store_true", help="print one JSON object per board")
    _add_max_memory(count)
    _add_time_limits(count, "count")
    _add_split_args(count)
    count.add_argument("--why", action="store_true", help=WHY_HELP)
    _add_open_arg(count)
    _add_disassembly_parsers(sub, solve, count)  # #24

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
    _add_import_export_parsers(sub)
    _add_serve_parser(sub)
    _remember_parsers(parser)
    return parser


def _add_serve_parser(sub: Any) -> None:
    serve = sub.add_parser(
        "serve", help="the web page: design a puzzle, solve it, watch the search",
        description="Serve the web page (extra 'web'): an editor of puzzle files, searches "
        "with live progress and a Stop button, and the search animated step by step. Binds "
        "to 127.0.0.1 (this machine only) unless --host says otherwise; Ctrl-C stops it.")
    serve.add_argument("--host", default="127.0.0.1",
                       help="address to listen on (default 127.0.0.1: this machine only)")
    serve.add_argument("--port", type=_at_least(1), default=8765, help="port (default 8765)")
    serve.add_argument("--no-browser", action="store_true",
                       help="do not open the page in a browser")


def cmd_serve(args: argparse.Namespace) -> int:
    import contextlib

    from puzzlebox.web import serve

    with contextlib.suppress(KeyboardInterrupt):  # Ctrl-C is how the server stops: no failure
        serve(args.host, args.port, open_browser=not args.no_browser)
    print("puzzlebox: server stopped", file=sys.stderr)
    return 0


def _remember_parsers(parser: argparse.ArgumentParser) -> None:
    """Give every subcommand's parser itself as the default ``command_parser``, so that an
    error found after parsing (an unknown option, an engine that cannot count) prints the
    usage of the subcommand the user typed, not the top-level one (issue #16)."""
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for sub in action.choices.values():
                sub.set_defaults(command_parser=sub)
                _remember_parsers(sub)


def _add_resolution_args(parser: argparse.ArgumentParser) -> None:
    """How large a PNG is (an SVG scales without loss and takes neither)."""
    size = parser.add_mutually_exclusive_group()
    size.add_argument("--size", type=_at_least(16), metavar="PX",
                      help="png: the picture's width in pixels (the height follows)")
    size.add_argument("--dpi", type=_at_least(10), metavar="N",
                      help="png: dots per inch (default 100, 40 px a polyomino cell)")


def _resolution(args: argparse.Namespace) -> Any:
    """The PNG resolution asked for; refused for anything but png."""
    _check_resolution(args)
    if args.size is None and args.dpi is None:
        return pictures().NATURAL
    return pictures().Resolution(dpi=args.dpi, width=args.size)


def _check_resolution(args: argparse.Namespace) -> None:
    if (args.size is not None or args.dpi is not None) and args.format != "png":
        raise CommandError("--size and --dpi set a png's pixels: use them with --format png "
                           "(an svg scales without loss)")


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
    from puzzlebox.puzzles.generate import edge_matching_toml, random_edge_matching

    rows, cols = args.rows or args.size, args.cols or args.size
    options = dict(border=args.border, border_colors=args.border_colors, seed=args.seed,
                   rotate=not args.no_rotate)
    puzzle, _ = random_edge_matching(rows, cols, args.colors, **options)
    text = edge_matching_toml(puzzle, _generate_command(args, rows, cols))
    if args.out is None:
        print(text, end="")
        return 0

    def write_text() -> None:
        with open(args.out, "w") as handle:
            handle.write(text)

    _write(args.out, write_text)
    print(args.out)
    return 0


def _generate_command(args: argparse.Namespace, rows: int, cols: int) -> str:
    """The command line that generates this puzzle again (written into the file)."""
    size = f"--size {rows}" if rows == cols else f"--rows {rows} --cols {cols}"
    parts = [f"puzzlebox generate edge-matching {size} --colors {args.colors}"]
    if args.border:
        parts.append("--border")
    if args.border_colors is not None:
        parts.append(f"--border-colors {args.border_colors}")
    if args.no_rotate:
        parts.append("--no-rotate")
    parts.append(f"--seed {args.seed}")
    return " ".join(parts)


def _write(out: str, write: Callable[[], object]) -> None:
    """Run ``write``; a file that cannot be written is the user's error, in one line."""
    try:
        write()
    except OSError as error:
        raise CommandError(f"cannot write {out}: {error.strerror or error}") from None


def _add_open_arg(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--open", metavar="LABEL,...",
                        help="leave the cells of these labels of [board.labels] uncovered "
                        "(as 'Jan,1' on the calendar; 'group=label' where groups share one)")


def _opened(pf: PuzzleFile, names: str | None) -> PuzzleFile:
    """The file's boards with the labels named by ``--open`` left uncovered."""
    if names is None:
        return pf
    from dataclasses import replace

    from puzzlebox.puzzles.labels import opened

    wanted = [n.strip() for n in names.split(",") if n.strip()]
    if not wanted:
        raise CommandError("--open needs at least one label")
    return replace(pf, puzzles=[opened(puzzle, wanted) for puzzle in pf.puzzles])


def _load(name: str, open_labels: str | None = None) -> PuzzleFile:
    """A puzzle file to work on (with the labels of ``--open`` left uncovered): refused at
    once when its cover problem would not fit."""
    from puzzlebox.budget import check_cover_size

    pf = _opened(catalog.load(name), open_labels)
    for puzzle in pf.puzzles:
        check_cover_size(puzzle, printable(puzzle.label))
    return pf


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


def _add_max_memory(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--max-memory", type=_memory_size, metavar="SIZE",
                        help="memory any engine may use, e.g. 512M or 2G (default 2G; more is "
                        "refused at once, exit status 3); '--engine memo' counts by sweeping "
                        "the board instead of enumerating")


def _seconds(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number of seconds") from None
    if not value > 0 or value == float("inf"):
        raise argparse.ArgumentTypeError(f"must be a positive number of seconds, not {text}")
    return value


def _memory_size(text: str) -> int:
    try:
        return parse_memory(text)
    except ValueError as error:
        raise argparse.ArgumentTypeError(str(error)) from None


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
    if getattr(args, "open", None):  # workers rebuild the puzzle from the file's text
        raise CommandError("--open works in one process: drop --jobs, --cluster, --checkpoint "
                           "and --split-depth")
    if getattr(args, "max_time", None) is not None:
        raise CommandError("--max-time works in one process: drop --jobs, --cluster, "
                           "--checkpoint and --split-depth (--no-limit goes on past the "
                           "estimate there)")
    show = _showing(args)
    every = command == "solve"

    def judge(board: int, estimate: Any) -> None:
        from puzzlebox.budget import judge_split

        puzzle = pf.puzzles[board]
        judge_split(puzzle, label(puzzle), estimate, _stderr_say, args.no_limit, every)

    return SplitRun(
        pf, command, engine=args.engine, jobs=args.jobs, cluster=args.cluster,
        checkpoint=args.checkpoint, split_depth=args.split_depth,
        progress=show and (command == "count" or not sys.stdout.isatty()),
        on_plan=judge, before_record=sys.stdout.flush,
    )


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


def _showing(args: argparse.Namespace) -> bool:
    """Progress on stderr: only on a terminal, and not with --quiet."""
    return sys.stderr.isatty() and not getattr(args, "quiet", False)


def _add_time_limits(parser: argparse.ArgumentParser, doing: str) -> None:
    """The time rule's two ways on (budget.py): a hopeless run is refused otherwise."""
    parser.add_argument("--no-limit", action="store_true",
                        help=f"{doing} even when Knuth's estimate says it would take more "
                        "than a thousand years (refused otherwise, exit status 3)")
    parser.add_argument("--max-time", type=_seconds, metavar="SECONDS",
                        help=f"{doing} past such an estimate, but stop after SECONDS "
                        "(exit status 3)")


def _stderr_say(line: str) -> None:
    """The time rule's one line (budget.py), on stderr whether a terminal or not."""
    print(printable(f"puzzlebox: {line}"), file=sys.stderr, flush=True)


def _say(lines: Iterable[str]) -> None:
    """Print report lines; text from a file is escaped (safety.printable)."""
    print("\n".join(map(printable, lines)), flush=True)


def _count_one(
    args: argparse.Namespace, run: SplitRun | None, board: int, puzzle: Puzzle
) -> CountResult:
    """Count one board; an interrupted split count prints what it has, marked partial."""
    if run is None:
        from puzzlebox.budget import CountWatch

        watch = CountWatch(puzzle, label(puzzle), _stderr_say, args.no_limit, args.max_time)
        watch.before(args.engine, args.max_memory)
        bar = _Bar(f"{label(puzzle)}: sweeping", _showing(args))
        try:
            with _following(args, label(puzzle), puzzle) as on_step:
                def step(stats: SearchStats) -> None:
                    watch(stats)
                    if on_step is not None:
                        on_step(stats)

                return puzzle.count(engine=args.engine, max_memory=args.max_memory,
                                    progress=bar, on_step=step)
        finally:
            bar.close()
    try:
        return run.count(board)
    except Interrupted as stop:
        if stop.result is not None:
            report = count_report(puzzle, stop.result, interrupted=True, done=stop.done,
                                  total=stop.total)
            _say([count_json(report)] if args.json else count_text(report))
        if args.checkpoint:
            print(f"puzzlebox: the checkpoint {args.checkpoint} is kept; run the same command "
                  "again to resume", file=sys.stderr)
        raise


def cmd_list(args: argparse.Namespace) -> int:
    import json

    for name in catalog.names():
        title = catalog.load(name).title
        if args.json:
            print(json.dumps({"puzzle": name, "title": title}, ensure_ascii=False))
        else:
            print(printable(f"{name:32} {title}"))
    return 0


def cmd_show(args: argparse.Namespace) -> int:
    _check_resolution(args)
    pf = catalog.load(args.puzzle)  # showing builds no cover problem
    if args.format != "text":
        return _write_picture(args, lambda: pictures().puzzle_figure(pf.puzzles))
    print(printable(f"{pf.name}: {pf.title}" if pf.title else pf.name))
    for puzzle in pf.puzzles:
        for line in describe(puzzle):
            print(printable(line))
    return 0


def cmd_solve(args: argparse.Namespace) -> int:
    if args.json:
        if args.format not in ("text", "json"):
            raise CommandError(f"--json and --format {args.format} ask for different outputs")
        args.format = "json"
    _check_resolution(args)
    pf = _load(args.puzzle, args.open)
    limit = None if args.all else max(args.limit, 0)
    if args.disassemble:  # #24: the assemblies that come apart, with their levels
        from puzzlebox.disassembly.command import run_solve

        if args.format in ("svg", "png"):
            raise CommandError("--disassemble prints text or json; 'puzzlebox moves "
                               "--format svg' draws how an assembly comes apart")
        return run_solve(args, pf, lambda puzzle, solution: _print_solution(
            puzzle, solution, args.format, sys.stdout.isatty() and args.format == "text"))
    if args.format in ("svg", "png"):
        if args.distinct:
            raise CommandError("--distinct draws no pictures; use text, outline or json")
        return _solve_pictures(pf, args, limit)
    if pf.batch and limit == 1 and args.format in ("text", "outline"):
        return _solve_batch_sheet(pf, args)
    colour = sys.stdout.isatty() and args.format == "text"
    split = (args.jobs > 1 or args.cluster or args.checkpoint or args.split_depth is not None)
    if split and not args.all:
        raise CommandError("--jobs, --cluster, --checkpoint and --split-depth need --all")
    if args.distinct and (split or args.seed is not None):
        raise CommandError("--distinct searches in one process, without --seed")
    if args.engine == SINK and (args.all or args.limit != 1 or args.distinct or split):
        raise CommandError("--engine sink finds one tiling: drop --all, --limit, --distinct, "
                           "--jobs, --cluster, --checkpoint and --split-depth")
    run = _split_run(args, pf, "solve")
    for board, puzzle in enumerate(pf.puzzles):
        watch = _enumeration_watch(args, puzzle) if run is None and limit is None else None
        reason = puzzle.impossibility()
        name = label(puzzle)
        found = run.already_found(board) if run else 0
        stats = SearchStats()

        def search(on_step: Any = None, puzzle: Puzzle = puzzle, stats: SearchStats = stats,
                   board: int = board, watch: Any = watch) -> Any:  # fmt: skip
            if watch is not None:
                on_step = watch.wrap(on_step)
            return (
                run.solutions(board) if run
                else _sink_solutions(args, puzzle, stats) if args.engine == SINK
                else puzzle.distinct_solutions(limit, args.engine, stats, on_step) if args.distinct
                else puzzle.solutions(limit, args.engine, args.seed, stats, on_step,
                                      args.max_memory)
            )

        following = run is None and limit is None
        solutions = _followed(args, name, puzzle, search) if following else search()
        for solution in solutions:
            found += 1
            if args.format == "json":
                print(solution_json(puzzle, solution), flush=True)
                continue
            print(f"{name}: solution {found}")
            _print_solution(puzzle, solution, args.format, colour)
            print()
        if not found and args.engine == SINK and reason is None:
            print(f"{name}: no tiling found by the sink search in {stats.search_seconds:.0f} s "
                  "(a local search: this proves nothing; try another --seed)", file=sys.stderr)
        elif not found:
            print(printable(f"{name}: no solution" + (f": {reason}" if reason else "")),
                  file=sys.stderr)
        if args.why and run is None:
            print(printable(f"{name}: {why(puzzle, found, stats).sentence}"), file=sys.stderr)
    if run is not None:
        run.close()
    return 0


def _enumeration_watch(args: argparse.Namespace, puzzle: Puzzle) -> Any:
    """The time rule of ``solve --all`` (budget.CountWatch): every solution is enumerated,
    on the problem as built (with ``--distinct``: cut by symmetry, a count's tree)."""
    from puzzlebox.budget import CountWatch

    watch = CountWatch(puzzle, label(puzzle), _stderr_say, args.no_limit, args.max_time,
                       every=not args.distinct)
    watch.before(args.engine, args.max_memory)
    return watch


def _print_solution(puzzle: Puzzle, solution: Solution, style: str, colour: bool) -> None:
    """A solution's drawing; in colour on a terminal, where its kind has colours."""
    if colour:
        from puzzlebox.render.terminal import colored_solution

        text = colored_solution(puzzle, solution)
        if text is not None:
            from rich.console import Console

            Console().print(text, end="")
            return
    print("\n".join(map(printable, solution_lines(puzzle, solution, style))))


def _sink_solutions(args: argparse.Namespace, puzzle: Puzzle, stats: SearchStats) -> Any:
    """The sink search's one tiling, with its attempts reported on a terminal (a search
    that may take minutes and has no tree to show progress through)."""
    from puzzlebox.engine.registry import EngineDeclined, get
    from puzzlebox.engine.search import Job

    # the registry's sink engine decides which puzzles it takes (the polyomino kind's own)
    reason = get(SINK).accepts(Job(puzzle.problem, limit=1, seed=args.seed, puzzle=puzzle))
    if reason is not None:
        raise EngineDeclined(f"{puzzle.label}: {reason}")
    # its attempts are reported as they go, in words, which the step-wise search's stats
    # do not carry: the kind's own entry point takes the reporter
    sink_solutions = getattr(puzzle, "sink_solutions")  # noqa: B009
    say = None
    if _showing(args):
        def say(line: str) -> None:
            print(printable(f"{puzzle.name}: {line}"), file=sys.stderr, flush=True)
    return sink_solutions(args.seed, stats, progress=say)


def _solve_batch_sheet(pf: PuzzleFile, args: argparse.Namespace) -> int:
    """One solution of every board of a batch, drawn side by side, five to a row."""
    blocks = []
    for puzzle in pf.puzzles:
        name = puzzle.board_name or puzzle.name
        solution = next(iter(puzzle.solutions(1, args.engine, args.seed)), None)
        if solution is None:
            reason = puzzle.impossibility()
            print(printable(f"{label(puzzle)}: no solution" + (f": {reason}" if reason else "")),
                  file=sys.stderr)
            blocks.append([printable(name), "(no solution)"])
        else:
            blocks.append(list(map(printable, [name, *solution_lines(puzzle, solution,
                                                                     args.format)])))
    print("\n".join(side_by_side(blocks, per_row=5)))
    return 0


def _write_picture(args: argparse.Namespace, draw: Callable[[], Any]) -> int:
    if args.out is None:
        raise CommandError(f"--format {args.format} needs --out FILE")
    resolution = _resolution(args)
    _write(args.out, lambda: pictures().write_figure(draw(), args.out, args.format,
                                                     resolution))
    print(args.out)
    return 0


def _following(args: argparse.Namespace, name: str, puzzle: Puzzle) -> Any:
    """A progress display (stderr, terminals only) for the searches of one count."""
    from puzzlebox.progress import following, wanted

    return following(wanted(args.quiet), name, puzzle.search_problem)


def _followed(args: argparse.Namespace, name: str, puzzle: Puzzle, items: Any) -> Any:
    """The enumeration ``items(on_step)`` passed through a progress display (terminals
    only), which hears the search after every step."""
    from puzzlebox.progress import follow, wanted

    return follow(wanted(args.quiet), name, lambda: puzzle.problem, items)


def _solve_pictures(pf: PuzzleFile, args: argparse.Namespace, limit: int | None) -> int:
    """Pictures of solutions: one sheet in --out FILE, or one file each in --out DIR/."""
    draw = pictures()
    if args.out is None:
        raise CommandError(f"--format {args.format} needs --out FILE (a sheet) or --out DIR/ "
                           "(one file per solution)")
    if limit is None and not draw.is_folder(args.out):
        raise CommandError("--all with pictures needs --out DIR/ (one file per solution)")

    def found() -> Iterator[tuple[Puzzle, Solution]]:
        for puzzle in pf.puzzles:
            def search(on_step: Any = None, puzzle: Puzzle = puzzle) -> Iterator[Solution]:
                return puzzle.solutions(limit, args.engine, args.seed, on_step=on_step)

            solutions = (
                _followed(args, label(puzzle), puzzle, search) if limit is None else search()
            )
            n = 0
            for solution in solutions:
                n += 1
                yield puzzle, solution
            if not n:
                reason = puzzle.impossibility()
                why_not = f": {reason}" if reason else ""
                print(printable(f"{label(puzzle)}: no solution{why_not}"), file=sys.stderr)

    written: list[Any] = []
    resolution = _resolution(args)
    _write(args.out, lambda: written.extend(draw.save_solutions(found(), args.format, args.out,
                                                                pf.name, resolution)))
    for path in written:
        print(path)
    return 0


def cmd_estimate(args: argparse.Namespace) -> int:
    """Knuth's estimate of each board's search tree, and the engine's speed on it."""
    for puzzle in _load(args.puzzle).puzzles:
        report = estimate_report(puzzle, args.probes, args.seed)
        _say([estimate_json(report)] if args.json else estimate_text(report))
    return 0


def cmd_count(args: argparse.Namespace) -> int:
    pf = _load(args.puzzle, args.open)
    if args.disassemble:  # #24: the disassembly package says it all
        from puzzlebox.disassembly.command import run_count

        return run_count(args, pf)
    run = _split_run(args, pf, "count")
    for board, puzzle in enumerate(pf.puzzles):
        result = _count_one(args, run, board, puzzle)
        settled = why(puzzle, result.solutions, result.stats) if args.why else None
        report = count_report(puzzle, result, settled)
        _say([count_json(report)] if args.json else count_text(report))
    if run is not None:
        run.close()
    return 0


WHY_HELP = ("say what settled it: a proof before search (area, checkerboard, placement, "
            "region) or the search itself, with its nodes")


def _add_sweep_order_parsers(sub: Any) -> None:
    from puzzlebox.puzzles.order import DEFAULT_MAX_AREA, PENTOMINOES

    sweep = sub.add_parser(
        "sweep", help="solve a board once for each choice of cells left uncovered",
        description="Solve the board with every choice of K of its cells left uncovered "
        "(where may the hole of a one-hole puzzle go?). Choices that a symmetry of the "
        "puzzle maps onto each other are solved once.")
    _add_puzzle_arg(sweep)
    sweep.add_argument("--uncover", type=_at_least(0), metavar="K",
                       help="how many board cells each choice leaves uncovered")
    sweep.add_argument("--uncover-groups", metavar="GROUP,...",
                       help="leave one label of each named group of [board.labels] uncovered "
                       "(as 'month,day') and count each combination; with neither this nor "
                       "--uncover, the sweep the file declares ([sweep] uncover = [...])")
    sweep.add_argument("--count", action="store_true",
                       help="count the solutions of each choice (default: only say whether "
                       "it has one, one search each; a sweep of labels always counts)")
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
    order.add_argument("--lattice", default="square", metavar="NAME",
                       help="the shape's lattice: square (default), triangle, hexagon or cube "
                       "(layers split by '|', bottom first); its regions are tried: "
                       "rectangles, boxes, parallelograms, triangles and hexagons")
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


def cmd_sweep(args: argparse.Namespace) -> int:
    if args.uncover is None:
        return _label_sweep(args)
    if args.uncover_groups is not None:
        raise CommandError("--uncover K and --uncover-groups ask for different sweeps")
    for puzzle in _load(args.puzzle).puzzles:
        bar = _Bar(f"{label(puzzle)}: sweep", _showing(args))
        try:
            report = sweep_report(puzzle, args.uncover, args.count, args.fill_holes,
                                  args.engine, bar)
        finally:
            bar.close()
        _say(sweep_json(report) if args.json else sweep_text(report))
        if report.solvable == 0 and not args.fill_holes and report.holes_left:
            print(f"puzzlebox: {report.label}: no choice is solvable; --fill-holes sweeps the "
                  "whole rectangle, holes included", file=sys.stderr)
    return 0


def _label_sweep(args: argparse.Namespace) -> int:
    """``sweep`` by labels (puzzles/labels.py): the groups named, or the file's own sweep."""
    from puzzlebox.puzzles.labels import label_sweep_report
    from puzzlebox.render.json_out import label_sweep_json
    from puzzlebox.render.report_text import label_sweep_text

    if args.fill_holes:
        raise CommandError("--fill-holes goes with --uncover K: a sweep of labels leaves "
                           "labelled board cells open")
    groups = None
    if args.uncover_groups is not None:
        groups = tuple(g.strip() for g in args.uncover_groups.split(",") if g.strip())
        if not groups:
            raise CommandError("--uncover-groups needs at least one group name")
    for puzzle in _load(args.puzzle).puzzles:
        bar = _Bar(f"{label(puzzle)}: sweep", _showing(args))
        try:
            report = label_sweep_report(puzzle, groups, args.engine, bar)
        finally:
            bar.close()
        _say(label_sweep_json(report) if args.json else label_sweep_text(report))
    return 0


def cmd_order(args: argparse.Namespace) -> int:
    from puzzlebox.puzzles.order import blocks, parse_shape, polyomino_order, read_lattice

    lattice = read_lattice(args.lattice)
    shape = parse_shape(args.shape, lattice)
    total = sum(1 for _ in blocks(shape, args.max_area, lattice, not args.no_reflect))
    bar = _Bar(f"order of {args.shape}", _showing(args))
    tried: list[object] = []

    def step(attempt: object) -> None:
        tried.append(attempt)
        bar(len(tried), total)

    try:
        result = polyomino_order(shape, args.max_area, args.engine,
                                 reflect=not args.no_reflect, progress=step, lattice=lattice)
    finally:
        bar.close()
    report = OrderReport(result, tried=args.why)
    _say([order_json(report)] if args.json else order_text(report))
    return 0


def _add_import_export_parsers(sub: Any) -> None:
    """``import`` (BurrTools files to TOML) and ``export`` (piece sheets, STL): issue #17."""
    imp = sub.add_parser(
        "import", help="convert a BurrTools puzzle (.xmpuzzle) to a puzzlebox TOML file",
        description="Read a BurrTools file (gzip or plain XML) and write one of its problems "
        "as puzzlebox TOML (docs/import-export.md says what maps and what is refused).")
    imp.add_argument("file", help="a BurrTools .xmpuzzle file")
    imp.add_argument("-o", "--out", metavar="OUT.toml", help="write here instead of stdout")
    imp.add_argument("--problem", metavar="NAME|N",
                     help="which problem, by name or number from 1 (needed when there are "
                     "several)")
    exp = sub.add_parser(
        "export", help="write the pieces at real size: a sheet (SVG, PDF) or STL solids",
        description="Write every piece at real size: outlines on a sheet for printing or "
        "laser cutting (--sheet), or one STL solid per piece for 3-D printing (--stl).")
    exp.add_argument("puzzle", help="a catalog name or a .toml file")
    what = exp.add_mutually_exclusive_group(required=True)
    what.add_argument("--sheet", metavar="OUT.svg|OUT.pdf",
                      help="piece outlines, packed in rows, in a .svg or .pdf file")
    what.add_argument("--stl", metavar="DIR", help="one binary STL per piece in DIR")
    exp.add_argument("--cell-mm", type=float, default=20.0, metavar="MM",
                     help="the width of one cell in millimetres (default 20)")
    exp.add_argument("--margin-mm", type=float, default=5.0, metavar="MM",
                     help="sheet: space between pieces and around the page (default 5)")
    exp.add_argument("--page", default="A4", metavar="SIZE",
                     help="sheet: A4 (default), A3, letter or WIDTHxHEIGHT in mm")


def _add_disassembly_parsers(sub: Any, solve: argparse.ArgumentParser,
                             count: argparse.ArgumentParser) -> None:
    """#24: ``--disassemble`` on solve and count, and the ``moves`` command (their logic
    is in disassembly/command.py)."""
    from puzzlebox.disassembly.command import add_arguments, add_moves_parser

    add_arguments(solve)
    add_arguments(count)
    add_moves_parser(sub)


def cmd_moves(args: argparse.Namespace) -> int:
    """``puzzlebox moves FILE``: how an assembly comes apart (#24)."""
    from puzzlebox.disassembly.command import run_moves

    return run_moves(args, _load(args.puzzle))


def cmd_import(args: argparse.Namespace) -> int:
    from puzzlebox.formats.burrtools import import_file

    text = import_file(args.file, args.problem)
    if args.out is None:
        print(text, end="")
        return 0

    def write_text() -> None:
        with open(args.out, "w", encoding="utf-8") as handle:
            handle.write(text)

    _write(args.out, write_text)
    print(printable(args.out))
    return 0


def cmd_export(args: argparse.Namespace) -> int:
    from puzzlebox.render.sheet import parse_page, write_sheet
    from puzzlebox.render.stl import write_stls

    pf = catalog.load(args.puzzle)
    if args.stl is not None:
        written: list[Any] = []
        _write(args.stl, lambda: written.extend(write_stls(pf.puzzles, args.stl,
                                                           args.cell_mm)))
        for path in written:
            print(printable(str(path)))
        return 0
    page = parse_page(args.page)
    _write(args.sheet, lambda: write_sheet(pf.puzzles, args.sheet, args.cell_mm, page,
                                           args.margin_mm, pf.title or pf.name))
    print(printable(args.sheet))
    return 0


COMMANDS: dict[str, Callable[[argparse.Namespace], int]] = {
    "list": cmd_list,
    "show": cmd_show,
    "solve": cmd_solve,
    "count": cmd_count,
    "estimate": cmd_estimate,
    "generate": cmd_generate,
    "sweep": cmd_sweep,
    "order": cmd_order,
    "import": cmd_import,
    "export": cmd_export,
    "serve": cmd_serve,
    "moves": cmd_moves,
}


def _counts_whole(engine: str) -> bool:
    """A named engine that counts distinct solutions itself and cannot cut its tree (the
    memo sweep): a split count of it would be one task, so splitting is refused."""
    from puzzlebox.engine.registry import AUTO, get
    from puzzlebox.engine.search import Capability

    if engine == AUTO:
        return False
    spec = get(engine)
    return spec.does(Capability.DISTINCT) and not spec.does(Capability.SPLIT)


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args, unknown = parser.parse_known_args(argv)
    parser = args.command_parser
    if unknown:
        parser.error(f"unrecognized arguments: {' '.join(unknown)}")
    if hasattr(args, "engine"):
        _check_engine(parser, args.engine, args.command)
    split = args.command == "count" and (
        args.jobs != 1 or args.cluster or args.checkpoint or args.split_depth is not None
    )
    if split and _counts_whole(args.engine):
        parser.error(f"--engine {args.engine} counts in one process: drop --jobs, --cluster, "
                     "--checkpoint and --split-depth")
    try:
        return COMMANDS[args.command](args)
    except PuzzleboxError as error:
        print(error_line(error), file=sys.stderr)
        return error.exit_status
    except KeyboardInterrupt:
        print("puzzlebox: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return 0


if __name__ == "__main__":
    sys.exit(main())
