"""``list`` and ``show``: the catalog and a puzzle, read and drawn, nothing searched.

Start-up is the whole cost of these commands (issue #23: under 0.15 s of CPU), so this module
loads no numpy, no kind and no engine: ``list`` reads the catalog's titles, and the text
drawings (render/, the lattices) and the pictures' door are imported by ``show`` alone.
"""

from __future__ import annotations

import argparse
import json

from puzzlebox import catalog
from puzzlebox.cli.common import CommandError, add_resolution_args, path, resolution, write
from puzzlebox.safety import printable


def add_list(parser: argparse.ArgumentParser) -> None:
    parser.description = "List the catalog."
    parser.add_argument("--json", action="store_true",
                        help='one JSON object per puzzle: {"puzzle": name, "title": title}')


def add_show(parser: argparse.ArgumentParser) -> None:
    parser.description = ("Show a puzzle's board and pieces, as text or as a picture (svg, "
                          "png: the 'pictures' extra).")
    parser.add_argument("puzzle", type=path, help="a catalog name or a .toml file")
    parser.add_argument("--format", choices=["text", "svg", "png"], default="text",
                        help="text, or a picture of the board(s) and every piece (needs --out)")
    parser.add_argument("--out", type=path, metavar="FILE", help="where to write a picture")
    add_resolution_args(parser)


def cmd_list(args: argparse.Namespace) -> int:
    for name, title in catalog.titles().items():
        if args.json:
            print(json.dumps({"puzzle": name, "title": title}, ensure_ascii=False))
        else:
            print(printable(f"{name:32} {title}"))
    return 0


def cmd_show(args: argparse.Namespace) -> int:
    from puzzlebox.render import describe

    pf = catalog.load_file(args.puzzle)  # showing builds no cover problem
    if args.format != "text" or args.size is not None or args.dpi is not None:
        from puzzlebox.render.drawing import pictures

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
