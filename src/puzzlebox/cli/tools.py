"""The command line's tools beside showing, solving and counting: estimate, generate,
sweep, order, import, export and serve. Each adds its options, calls the library and prints,
as search.py does for the searches; the dispatcher (dispatch.py) imports this module only for
one of these commands."""

from __future__ import annotations

import argparse
import contextlib
import sys
from typing import Any

from puzzlebox import catalog
from puzzlebox.cli.common import CommandError, at_least, path, say, showing, write
from puzzlebox.cli.puzzle import add_puzzle_arg, check_engine, engine_help, load
from puzzlebox.outfile import write_text
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
from puzzlebox.render.json_out import estimate_json, label_sweep_json, order_json, sweep_json
from puzzlebox.render.progress import Bar
from puzzlebox.render.report_text import estimate_text, label_sweep_text, order_text, sweep_text
from puzzlebox.reports import OrderReport, label
from puzzlebox.run.reports import estimate_report, sweep_report
from puzzlebox.safety import printable


def add_serve(serve: argparse.ArgumentParser) -> None:
    serve.description = (
        "Serve the web page (extra 'web'): an editor of puzzle files, searches "
        "with live progress and a Stop button, and the search animated step by step. Binds "
        "to 127.0.0.1 (this machine only) unless --host says otherwise; Ctrl-C stops it.")
    serve.add_argument("--host", default="127.0.0.1",
                       help="address to listen on (default 127.0.0.1: this machine only)")
    serve.add_argument("--port", type=at_least(1), default=8765, help="port (default 8765)")
    serve.add_argument("--no-browser", action="store_true",
                       help="do not open the page in a browser")
    serve.add_argument("--state", metavar="DIR",
                       help="the folder where counts saved as they go are kept (default "
                       "$XDG_STATE_HOME/puzzlebox/web, i.e. ~/.local/state/puzzlebox/web)")


def cmd_serve(args: argparse.Namespace) -> int:
    from puzzlebox.web import serve

    with contextlib.suppress(KeyboardInterrupt):  # Ctrl-C is how the server stops: no failure
        serve(args.host, args.port, open_browser=not args.no_browser, state=args.state)
    print("puzzlebox: server stopped", file=sys.stderr)
    return 0


def add_generate(generate: argparse.ArgumentParser) -> None:
    """``generate edge-matching``: a random puzzle that has a solution by construction."""
    generate.description = "Write a random puzzle (TOML) that is solvable by construction."
    kinds = generate.add_subparsers(dest="kind", required=True, metavar="KIND")
    em = kinds.add_parser("edge-matching", help="random edge-matching cards",
                          description="Random labels on a grid's edges, cut into cards, "
                          "shuffled and turned.",
                          epilog="example: puzzlebox generate edge-matching --size 5 --border "
                          "--seed 7 --out cards.toml")
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
    em.add_argument("--seed", type=int, default=0, metavar="SEED",
                    help="random seed (default 0)")
    em.add_argument("--out", type=path, metavar="FILE",
                    help="write the TOML here instead of stdout")


def cmd_generate(args: argparse.Namespace) -> int:
    rows, cols = args.rows or args.size, args.cols or args.size
    options = dict(border=args.border, border_colors=args.border_colors, seed=args.seed,
                   rotate=not args.no_rotate)
    puzzle, _ = random_edge_matching(rows, cols, args.colors, **options)
    text = edge_matching_toml(puzzle, _generate_command(args, rows, cols))
    if args.out is None:
        print(text, end="")
        return 0

    write(args.out, lambda: write_text(args.out, text))  # whole or not at all (#38 item 5)
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


def add_sweep(sweep: argparse.ArgumentParser) -> None:
    sweep.description = (
        "Solve the board with every choice of K of its cells left uncovered "
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


def add_order(order: argparse.ArgumentParser) -> None:
    order.description = (
        "Find the order of a polyomino: the fewest copies (turned and flipped "
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
    check_engine(args)
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
    check_engine(args)
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


def add_import(imp: argparse.ArgumentParser) -> None:
    """``import``: BurrTools files to TOML (issue #17)."""
    imp.description = (
        "Read a BurrTools file (gzip or plain XML) and write one of its problems "
        "as puzzlebox TOML (docs/import-export.md says what maps and what is refused).")
    imp.add_argument("file", type=path, help="a BurrTools .xmpuzzle file")
    imp.add_argument("-o", "--out", type=path, metavar="OUT.toml",
                     help="write here instead of stdout")
    imp.add_argument("--problem", metavar="NAME|N",
                     help="which problem, by name or number from 1 (needed when there are "
                     "several)")


def add_export(exp: argparse.ArgumentParser) -> None:
    """``export``: piece sheets and STL solids (issue #17)."""
    exp.description = (
        "Write every piece at real size: outlines on a sheet for printing or "
        "laser cutting (--sheet), or one STL solid per piece for 3-D printing (--stl).")
    exp.add_argument("puzzle", type=path, help="a catalog name or a .toml file")
    what = exp.add_mutually_exclusive_group(required=True)
    what.add_argument("--sheet", type=path, metavar="OUT.svg|OUT.pdf",
                      help="piece outlines, packed in rows, in a .svg or .pdf file")
    what.add_argument("--stl", type=path, metavar="DIR", help="one binary STL per piece in DIR")
    exp.add_argument("--cell-mm", type=float, default=20.0, metavar="MM",
                     help="the width of one cell in millimetres (default 20)")
    exp.add_argument("--margin-mm", type=float, default=5.0, metavar="MM",
                     help="sheet: space between pieces and around the page (default 5)")
    exp.add_argument("--page", default="A4", metavar="SIZE",
                     help="sheet: A4 (default), A3, letter or WIDTHxHEIGHT in mm")


def cmd_import(args: argparse.Namespace) -> int:
    from puzzlebox.formats.burrtools import import_noted, read_raw

    text, ignored = import_noted(read_raw(args.file), str(args.file), args.problem)
    for line in ignored:  # what was not imported, one line each (#35: BurrTools' weights)
        print(printable(f"puzzlebox: {args.file}: {line}"), file=sys.stderr)
    if args.out is None:
        print(text, end="")
        return 0

    write(args.out, lambda: write_text(args.out, text))  # whole or not at all (#38 item 5)
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


def cmd_estimate(args: argparse.Namespace) -> int:
    """Knuth's estimate of each board's search tree, and the engine's speed on it."""

    for puzzle in load(args.puzzle).puzzles:
        report = estimate_report(puzzle, args.probes, args.seed)
        say([estimate_json(report)] if args.json else estimate_text(report))
    return 0


def add_estimate(estimate: argparse.ArgumentParser) -> None:
    estimate.description = (
        "Estimate, from random root-to-leaf probes (Knuth 1975), how many nodes "
        "the compiled engine's search tree for a count has, and how long searching it takes.")
    estimate.add_argument("puzzle", type=path, help="a catalog name or a .toml file")
    estimate.add_argument("--probes", type=at_least(1), default=1000, metavar="N",
                          help="random probes (default 1000)")
    estimate.add_argument("--seed", type=int, default=0, metavar="SEED",
                          help="random seed (default 0)")
    estimate.add_argument("--json", action="store_true", help="print one JSON object per board")
