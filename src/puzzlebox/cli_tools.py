"""The command line's full parser and its tools beside solving and counting: show, estimate,
generate, sweep, order, import, export, serve and moves. Each parses its options, calls the
library and prints, as cli_search.py does for the searches (split out so that each module
stays one screenful of purpose; cli.py imports this one only for a command that needs it)."""

from __future__ import annotations

import argparse
import contextlib
import sys
from collections.abc import Callable
from typing import Any

from puzzlebox import catalog
from puzzlebox import cli_disassembly as disassembly_command
from puzzlebox.cli import DESCRIPTION, HELP, VERSION, add_list_args, remember_parsers
from puzzlebox.engine.memo import parse_memory
from puzzlebox.engine.memory import check_cover_size
from puzzlebox.engine.registry import names
from puzzlebox.errors import PuzzleboxError
from puzzlebox.formats import PuzzleFile
from puzzlebox.puzzles.generate import edge_matching_toml, random_edge_matching
from puzzlebox.puzzles.labels import label_sweep_report
from puzzlebox.puzzles.order import (
    DEFAULT_MAX_AREA,
    PENTOMINOES,
    blocks,
    parse_shape,
    polyomino_order,
    read_lattice,
)
from puzzlebox.render import describe
from puzzlebox.render.drawing import pictures
from puzzlebox.render.json_out import estimate_json, label_sweep_json, order_json, sweep_json
from puzzlebox.render.progress import Bar
from puzzlebox.render.report_text import estimate_text, label_sweep_text, order_text, sweep_text
from puzzlebox.reports import OrderReport, label
from puzzlebox.run.reports import estimate_report, sweep_report
from puzzlebox.safety import printable


class CommandError(PuzzleboxError):
    """Options that do not go together, or an output file that cannot be written."""


WHY_HELP = ("say what settled it: a proof before search (area, checkerboard, placement, "
            "region) or the search itself, with its nodes")


def at_least(least: int) -> Callable[[str], int]:
    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{text!r} is not an integer") from None
        if value < least:
            raise argparse.ArgumentTypeError(f"must be at least {least}, not {value}")
        return value

    return parse



def write(out: str, writer: Callable[[], object]) -> None:
    """Run ``write``; a file that cannot be written is the user's error, in one line."""
    try:
        writer()
    except OSError as error:
        raise CommandError(f"cannot write {out}: {error.strerror or error}") from None



def showing(args: argparse.Namespace) -> bool:
    """Progress on stderr: only on a terminal, and not with --quiet."""
    return sys.stderr.isatty() and not getattr(args, "quiet", False)


def say(lines: Any) -> None:
    """Print report lines; text from a file is escaped (safety.printable)."""
    print("\n".join(map(printable, lines)), flush=True)


def engine_help() -> str:
    return ", ".join(names())


def add_puzzle_arg(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("puzzle", help="a catalog name (see 'puzzlebox list') or a .toml file")
    parser.add_argument(
        "--engine",
        default="auto",
        help=f"search engine: {engine_help()} (default: auto, the choice measured for each "
        "puzzle; the README's table says what each engine is for)",
    )
    parser.add_argument("--quiet", action="store_true",
                        help="no progress display on standard error")


def load(name: str) -> PuzzleFile:
    """A puzzle file, refused at once when a board's cover problem would not fit."""

    pf = catalog.load_file(name)
    for puzzle in pf.puzzles:
        check_cover_size(puzzle.cover_entries_bound(), printable(puzzle.label))
    return pf


def add_serve_parser(sub: Any) -> None:
    serve = sub.add_parser(
        "serve", help=HELP["serve"],
        description="Serve the web page (extra 'web'): an editor of puzzle files, searches "
        "with live progress and a Stop button, and the search animated step by step. Binds "
        "to 127.0.0.1 (this machine only) unless --host says otherwise; Ctrl-C stops it.")
    serve.add_argument("--host", default="127.0.0.1",
                       help="address to listen on (default 127.0.0.1: this machine only)")
    serve.add_argument("--port", type=at_least(1), default=8765, help="port (default 8765)")
    serve.add_argument("--no-browser", action="store_true",
                       help="do not open the page in a browser")


def cmd_serve(args: argparse.Namespace) -> int:
    from puzzlebox.web import serve

    with contextlib.suppress(KeyboardInterrupt):  # Ctrl-C is how the server stops: no failure
        serve(args.host, args.port, open_browser=not args.no_browser)
    print("puzzlebox: server stopped", file=sys.stderr)
    return 0


def add_disassembly_args(sub: Any, solve: argparse.ArgumentParser,
                         count: argparse.ArgumentParser) -> None:
    """``--disassemble`` on solve and count, and the ``moves`` command (#24; their logic is
    in cli_disassembly.py)."""
    disassembly_command.add_arguments(solve)
    disassembly_command.add_arguments(count)
    disassembly_command.add_moves_parser(sub)


def cmd_moves(args: argparse.Namespace) -> int:
    """``puzzlebox moves FILE``: how an assembly comes apart (#24)."""
    return disassembly_command.run_moves(args, load(args.puzzle))


def add_generate_parser(sub: Any) -> None:
    """``generate edge-matching``: a random puzzle that has a solution by construction."""
    generate = sub.add_parser("generate", help=HELP["generate"],
                              description="Write a random puzzle (TOML) that is solvable by "
                              "construction.")
    kinds = generate.add_subparsers(dest="kind", required=True, metavar="KIND")
    em = kinds.add_parser("edge-matching", help="random edge-matching cards",
                          description="Random labels on a grid's edges, cut into cards, "
                          "shuffled and turned.")
    em.add_argument("--size", type=at_least(1), default=4, metavar="N",
                    help="an N x N board (default 4)")
    em.add_argument("--rows", type=at_least(1), metavar="R", help="rows (default: --size)")
    em.add_argument("--cols", type=at_least(1), metavar="C", help="columns (default: --size)")
    em.add_argument("--colors", type=at_least(1), default=4, metavar="K",
                    help="labels on inner edges (default 4)")
    em.add_argument("--border", action="store_true",
                    help="label the outer border 0 and give frame edges their own labels")
    em.add_argument("--border-colors", type=at_least(1), metavar="B",
                    help="labels between frame cards (default: half of --colors)")
    em.add_argument("--no-rotate", action="store_true", help="cards may not turn")
    em.add_argument("--seed", type=int, default=0, help="random seed (default 0)")
    em.add_argument("--out", metavar="FILE", help="write the TOML here instead of stdout")


def cmd_generate(args: argparse.Namespace) -> int:
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

    write(args.out, write_text)
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


def add_sweep_order_parsers(sub: Any) -> None:
    sweep = sub.add_parser(
        "sweep", help=HELP["sweep"],
        description="Solve the board with every choice of K of its cells left uncovered "
        "(where may the hole of a one-hole puzzle go?). Choices that a symmetry of the "
        "puzzle maps onto each other are solved once.")
    add_puzzle_arg(sweep)
    sweep.add_argument("--uncover", type=at_least(0), metavar="K",
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
        "order", help=HELP["order"],
        description="Find the order of a polyomino: the fewest copies (turned and flipped "
        "freely) that tile some rectangle, trying rectangles by increasing area, and show "
        "one tiling.")
    order.add_argument("shape", help="a grid such as '####/.#..' (rows split by '/', '#' a "
                       f"cell, '.' a gap) or a pentomino letter ({''.join(PENTOMINOES)})")
    order.add_argument("--lattice", default="square", metavar="NAME",
                       help="the shape's lattice: square (default), triangle, hexagon or cube "
                       "(layers split by '|', bottom first); its regions are tried: "
                       "rectangles, boxes, parallelograms, triangles and hexagons")
    order.add_argument("--max-area", type=at_least(1), default=DEFAULT_MAX_AREA, metavar="N",
                       help=f"try rectangles up to this area (default {DEFAULT_MAX_AREA}); "
                       "beyond it the answer is 'no rectangle up to area N'")
    order.add_argument("--no-reflect", action="store_true",
                       help="copies may turn but not be flipped over")
    order.add_argument("--engine", default="auto",
                       help=f"search engine: {engine_help()} (default: auto)")
    order.add_argument("--json", action="store_true", help="print one JSON object")
    order.add_argument("--why", action="store_true",
                       help="list every rectangle tried and what ruled it out")
    order.add_argument("--quiet", action="store_true", help="no progress display")


def cmd_sweep(args: argparse.Namespace) -> int:
    if args.uncover is None:
        return _label_sweep(args)
    if args.uncover_groups is not None:
        raise CommandError("--uncover K and --uncover-groups ask for different sweeps")
    for puzzle in load(args.puzzle).puzzles:
        bar = Bar(f"{label(puzzle)}: sweep", showing(args))
        try:
            report = sweep_report(puzzle, args.uncover, args.count, args.fill_holes,
                                  args.engine, bar)
        finally:
            bar.close()
        say(sweep_json(report) if args.json else sweep_text(report))
        if report.solvable == 0 and not args.fill_holes and report.holes_left:
            print(f"puzzlebox: {report.label}: no choice is solvable; --fill-holes sweeps the "
                  "whole rectangle, holes included", file=sys.stderr)
    return 0


def _label_sweep(args: argparse.Namespace) -> int:
    """``sweep`` by labels (puzzles/labels.py): the groups named, or the file's own sweep."""

    if args.fill_holes:
        raise CommandError("--fill-holes goes with --uncover K: a sweep of labels leaves "
                           "labelled board cells open")
    groups = None
    if args.uncover_groups is not None:
        groups = tuple(g.strip() for g in args.uncover_groups.split(",") if g.strip())
        if not groups:
            raise CommandError("--uncover-groups needs at least one group name")
    for puzzle in load(args.puzzle).puzzles:
        bar = Bar(f"{label(puzzle)}: sweep", showing(args))
        try:
            report = label_sweep_report(puzzle, groups, args.engine, bar)
        finally:
            bar.close()
        say(label_sweep_json(report) if args.json else label_sweep_text(report))
    return 0


def cmd_order(args: argparse.Namespace) -> int:
    lattice = read_lattice(args.lattice)
    shape = parse_shape(args.shape, lattice)
    total = sum(1 for _ in blocks(shape, args.max_area, lattice, not args.no_reflect))
    bar = Bar(f"order of {args.shape}", showing(args))
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
    say([order_json(report)] if args.json else order_text(report))
    return 0


def add_import_export_parsers(sub: Any) -> None:
    """``import`` (BurrTools files to TOML) and ``export`` (piece sheets, STL): issue #17."""
    imp = sub.add_parser(
        "import", help=HELP["import"],
        description="Read a BurrTools file (gzip or plain XML) and write one of its problems "
        "as puzzlebox TOML (docs/import-export.md says what maps and what is refused).")
    imp.add_argument("file", help="a BurrTools .xmpuzzle file")
    imp.add_argument("-o", "--out", metavar="OUT.toml", help="write here instead of stdout")
    imp.add_argument("--problem", metavar="NAME|N",
                     help="which problem, by name or number from 1 (needed when there are "
                     "several)")
    exp = sub.add_parser(
        "export", help=HELP["export"],
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


def cmd_import(args: argparse.Namespace) -> int:
    from puzzlebox.formats.burrtools import import_file

    text = import_file(args.file, args.problem)
    if args.out is None:
        print(text, end="")
        return 0

    def write_text() -> None:
        with open(args.out, "w", encoding="utf-8") as handle:
            handle.write(text)

    write(args.out, write_text)
    print(printable(args.out))
    return 0


def cmd_export(args: argparse.Namespace) -> int:
    from puzzlebox.render.sheet import parse_page, write_sheet
    from puzzlebox.render.stl import write_stls

    pf = catalog.load_file(args.puzzle)
    if args.stl is not None:
        written: list[Any] = []
        write(args.stl, lambda: written.extend(write_stls(pf.puzzles, args.stl,
                                                           args.cell_mm)))
        for path in written:
            print(printable(str(path)))
        return 0
    page = parse_page(args.page)
    write(args.sheet, lambda: write_sheet(pf.puzzles, args.sheet, args.cell_mm, page,
                                           args.margin_mm, pf.title or pf.name))
    print(printable(args.sheet))
    return 0


def add_resolution_args(parser: argparse.ArgumentParser) -> None:
    """How large a PNG is (an SVG scales without loss and takes neither)."""
    size = parser.add_mutually_exclusive_group()
    size.add_argument("--size", type=at_least(16), metavar="PX",
                      help="png: the picture's width in pixels (the height follows)")
    size.add_argument("--dpi", type=at_least(10), metavar="N",
                      help="png: dots per inch (default 100, 40 px a polyomino cell)")


def resolution(args: argparse.Namespace) -> Any:
    """The PNG resolution asked for; refused for anything but png."""
    if (args.size is not None or args.dpi is not None) and args.format != "png":
        raise CommandError("--size and --dpi set a png's pixels: use them with --format png "
                           "(an svg scales without loss)")
    if args.size is None and args.dpi is None:
        return pictures().NATURAL
    return pictures().Resolution(dpi=args.dpi, width=args.size)


def number(kind: Callable[[str], Any], what: str) -> Callable[[str], Any]:
    def parse(text: str) -> Any:
        try:
            value = kind(text)
        except ValueError as error:
            raise argparse.ArgumentTypeError(str(error) if what == "size" else
                                             f"{text!r} is not a number of seconds") from None
        if what == "seconds" and (not value > 0 or value == float("inf")):
            raise argparse.ArgumentTypeError(f"must be a positive number of seconds, not {text}")
        return value

    return parse


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
    parser.add_argument("--checkpoint", metavar="FILE",
                        help="record finished subproblems in FILE (JSON); run the same "
                        "command again to resume")
    parser.add_argument("--split-depth", type=at_least(0), metavar="D",
                        help="split at depth D of the search tree (default: about 8 "
                        "subproblems per worker)")


def cmd_estimate(args: argparse.Namespace) -> int:
    """Knuth's estimate of each board's search tree, and the engine's speed on it."""

    for puzzle in load(args.puzzle).puzzles:
        report = estimate_report(puzzle, args.probes, args.seed)
        say([estimate_json(report)] if args.json else estimate_text(report))
    return 0


def cmd_show(args: argparse.Namespace) -> int:
    pf = catalog.load_file(args.puzzle)  # showing builds no cover problem
    if args.format != "text" or args.size is not None or args.dpi is not None:
        pixels = resolution(args)
        if args.out is None:
            raise CommandError(f"--format {args.format} needs --out FILE")
        write(args.out, lambda: pictures().write_figure(pictures().puzzle_figure(pf.puzzles),
                                                        args.out, args.format, pixels))
        print(args.out)
        return 0
    print(printable(f"{pf.name}: {pf.title}" if pf.title else pf.name))
    for puzzle in pf.puzzles:
        for line in describe(puzzle):
            print(printable(line))
    return 0


def build_parser() -> argparse.ArgumentParser:
    """Every command with all its options (cli.py builds the light one of ``list`` and
    ``--help`` itself)."""
    parser = argparse.ArgumentParser(prog="puzzlebox", description=DESCRIPTION)
    parser.add_argument("--version", action="version", version=VERSION)
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")

    add_list_args(sub.add_parser("list", help=HELP["list"], description="List the catalog."))

    show = sub.add_parser("show", help=HELP["show"],
                          description="Show a puzzle's board and pieces, as text or as a "
                          "picture (svg, png: the 'pictures' extra).")
    show.add_argument("puzzle", help="a catalog name or a .toml file")
    show.add_argument("--format", choices=["text", "svg", "png"], default="text",
                      help="text, or a picture of the board(s) and every piece (needs --out)")
    show.add_argument("--out", metavar="FILE", help="where to write a picture")
    add_resolution_args(show)

    solve = sub.add_parser("solve", help=HELP["solve"], description="Find solutions.")
    add_puzzle_arg(solve)
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
    add_resolution_args(solve)
    solve.add_argument("--seed", type=int, metavar="S",
                       help="randomise the search (shuffled order, restarts with growing "
                       "node budgets): different seeds find different first solutions")
    solve.add_argument("--distinct", action="store_true",
                       help="one solution of each symmetry class (searched on the problem cut "
                       "down by the puzzle's symmetries)")
    solve.add_argument("--why", action="store_true", help=WHY_HELP)
    add_run_args(solve, "with --all: enumerate")

    count = sub.add_parser("count", help=HELP["count"],
                           description="Count every solution, as placed and up to symmetry.")
    add_puzzle_arg(count)
    count.add_argument("--json", action="store_true", help="print one JSON object per board")
    count.add_argument("--why", action="store_true", help=WHY_HELP)
    add_run_args(count, "count")
    add_disassembly_args(sub, solve, count)

    estimate = sub.add_parser(
        "estimate", help=HELP["estimate"],
        description="Estimate, from random root-to-leaf probes (Knuth 1975), how many nodes "
        "the compiled engine's search tree for a count has, and how long searching it takes.")
    estimate.add_argument("puzzle", help="a catalog name or a .toml file")
    estimate.add_argument("--probes", type=at_least(1), default=1000, metavar="N",
                          help="random probes (default 1000)")
    estimate.add_argument("--seed", type=int, default=0, help="random seed (default 0)")
    estimate.add_argument("--json", action="store_true", help="print one JSON object per board")
    add_generate_parser(sub)
    add_sweep_order_parsers(sub)
    add_import_export_parsers(sub)
    add_serve_parser(sub)
    remember_parsers(parser)
    return parser
