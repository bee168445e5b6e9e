"""The ``puzzlebox`` command line: parse arguments, call the library, print. Nothing else.

Start-up is the whole cost of a small command (issue #23), so this module imports nothing
that loads numpy, a kind or an engine: ``--help``, ``--version``, ``list`` and ``show`` are
answered here, from a parser that names every command but fills in only what was asked
for. A search loads its own module when it runs: cli_search.py (solve, count: each through
:class:`puzzlebox.run.Run`, with their parsers), and every other tool cli_tools.py (the full
parser and the tools). Every error a user can cause is a PuzzleboxError, caught once in
:func:`main`.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from puzzlebox import __version__, catalog
from puzzlebox.errors import PuzzleboxError
from puzzlebox.safety import printable

# What the command line adds to a library error: the flag or command that helps. Named by
# the error's class (module.Class), so that no command imports a module only for its hint.
HINTS: dict[str, str] = {
    "puzzlebox.catalog.files.UnknownPuzzle": "see 'puzzlebox list'",
    "puzzlebox.engine.memo.MemoTooLarge": "--max-memory SIZE",
    "puzzlebox.puzzles.labels.NoDeclaredSweep": "--uncover K, or --uncover-groups GROUP,...",
    "puzzlebox.engine.memory.OverMemory": "--max-memory SIZE",
    "puzzlebox.run.limits.Hopeless": "--no-limit runs it anyway, --max-time SECONDS runs it "
    "until then",
    "puzzlebox.disassembly.search.DisassemblyTooBig": "--max-states N, --max-time SECONDS",
    "puzzlebox.formats.burrtools.ProblemNeeded": "--problem NAME|N",
    "puzzlebox.render.sheet.SolidPieces": "export them with --stl DIR",
    "puzzlebox.designs.run.TooManyDesigns": "--no-limit tries them anyway, --max-time "
    "SECONDS tries them until then",
    "puzzlebox.render.sheet.PieceTooLarge": "a smaller --cell-mm or a larger --page",
}
SOLVE_LINE_AFTER = 2.0  # seconds before a search of the first solutions shows a live line

# Every command's one line in ``--help`` (cli_tools.py's full parser gives the same lines).
HELP: dict[str, str] = {
    "list": "list the built-in catalog",
    "show": "show a puzzle's board and pieces",
    "solve": "find solutions",
    "count": "count solutions, raw and distinct up to symmetry",
    "moves": "how an assembly comes apart, move by move",
    "estimate": "estimate the search tree's size and the time to search it",
    "generate": "write a random solvable puzzle",
    "sweep": "solve a board once for each choice of cells left uncovered",
    "order": "the fewest copies of a polyomino that tile a rectangle",
    "import": "convert a BurrTools puzzle (.xmpuzzle) to a puzzlebox TOML file",
    "export": "write the pieces at real size: a sheet (SVG, PDF) or STL solids",
    "serve": "the web page: design a puzzle, solve it, watch the search",
    "design": "try every design of a space: which puzzle is worth making",
}
DESCRIPTION = ("Solve placement puzzles (polyominoes, coloured strips, edge-matching cards, "
               "n-queens) by exact cover.")
VERSION = f"puzzlebox {__version__}"
LIGHT = {None, "list", "show"}  # the commands this module's own parser answers
SEARCHES = {"solve", "count"}  # the commands whose parsers cli_search.py builds

# Adds one command's parser, with all its options, to the subparsers given.
Adder = Callable[[Any], object]


class CommandError(PuzzleboxError):
    """Options that do not go together, or an output file that cannot be written."""


def error_line(error: PuzzleboxError) -> str:
    """The one line printed for ``error``, with the command line's hint when it has one."""
    names = (f"{kind.__module__}.{kind.__qualname__}" for kind in type(error).__mro__)
    hint = next((HINTS[name] for name in names if name in HINTS), None)
    text = printable(str(error))
    return f"puzzlebox: {text} ({hint})" if hint else f"puzzlebox: {text}"


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


def add_resolution_args(parser: argparse.ArgumentParser) -> None:
    """How large a PNG is (an SVG scales without loss and takes neither)."""
    size = parser.add_mutually_exclusive_group()
    size.add_argument("--size", type=at_least(16), metavar="PX",
                      help="png: the picture's width in pixels (the height follows)")
    size.add_argument("--dpi", type=at_least(10), metavar="N",
                      help="png: dots per inch (default 100, 40 px a polyomino cell)")


def resolution(args: argparse.Namespace) -> Any:
    """The PNG resolution asked for; refused for anything but png."""
    from puzzlebox.render.drawing import pictures

    if (args.size is not None or args.dpi is not None) and args.format != "png":
        raise CommandError("--size and --dpi set a png's pixels: use them with --format png "
                           "(an svg scales without loss)")
    if args.size is None and args.dpi is None:
        return pictures().NATURAL
    return pictures().Resolution(dpi=args.dpi, width=args.size)


def add_list_parser(sub: Any) -> None:
    listing = sub.add_parser("list", help=HELP["list"], description="List the catalog.")
    listing.add_argument("--json", action="store_true",
                         help='one JSON object per puzzle: {"puzzle": name, "title": title}')


def add_show_parser(sub: Any) -> None:
    show = sub.add_parser("show", help=HELP["show"],
                          description="Show a puzzle's board and pieces, as text or as a "
                          "picture (svg, png: the 'pictures' extra).")
    show.add_argument("puzzle", help="a catalog name or a .toml file")
    show.add_argument("--format", choices=["text", "svg", "png"], default="text",
                      help="text, or a picture of the board(s) and every piece (needs --out)")
    show.add_argument("--out", metavar="FILE", help="where to write a picture")
    add_resolution_args(show)


def parser_with(full: Mapping[str, Adder]) -> argparse.ArgumentParser:
    """The command line's parser: each command of ``full`` with all its options (its adder
    adds its parser), every other one named with its line of help only, so that a command
    builds (and imports) only what it runs."""
    parser = argparse.ArgumentParser(prog="puzzlebox", description=DESCRIPTION)
    parser.add_argument("--version", action="version", version=VERSION)
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name, line in HELP.items():
        if name in full:
            full[name](sub)
        else:
            sub.add_parser(name, help=line)
    remember_parsers(parser)
    return parser


def _command_of(argv: Sequence[str]) -> str | None:
    """The command named (the first word that is not an option: the top level's options,
    --help and --version, take no value), or None."""
    return next((word for word in argv if not word.startswith("-")), None)


def build_parser(argv: Sequence[str] | None = None) -> argparse.ArgumentParser:
    """The parser for ``argv``: this module's light one for ``list``, ``show`` or no command
    (``--help``, ``--version``: every command named, with its line of help); cli_search.py's
    for ``solve`` and ``count``; else every command with all its options (cli_tools.py)."""
    words = sys.argv[1:] if argv is None else list(argv)
    command = _command_of(words)
    if command in SEARCHES:
        from puzzlebox import cli_search

        return cli_search.build_parser(words)
    if command in HELP and command not in LIGHT:
        from puzzlebox import cli_tools

        return cli_tools.build_parser()
    return parser_with({"list": add_list_parser, "show": add_show_parser})


def remember_parsers(parser: argparse.ArgumentParser) -> None:
    """Give every subcommand's parser itself as the default ``command_parser``, so that an
    error found after parsing (an unknown option, an engine that cannot count) prints the
    usage of the subcommand the user typed, not the top-level one (issue #16)."""
    parser.set_defaults(command_parser=parser)
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for sub in action.choices.values():
                remember_parsers(sub)


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


def _search(name: str) -> Callable[[argparse.Namespace], int]:
    """Command ``name`` of cli_search.py, imported when it runs."""

    def command(args: argparse.Namespace) -> int:
        from puzzlebox import cli_search

        result: int = getattr(cli_search, name)(args)
        return result

    return command


def _tool(name: str) -> Callable[[argparse.Namespace], int]:
    """Command ``name`` of cli_tools.py, imported when it runs."""

    def command(args: argparse.Namespace) -> int:
        from puzzlebox import cli_tools

        result: int = getattr(cli_tools, name)(args)
        return result

    return command


def _design(args: argparse.Namespace) -> int:
    """``design``, cli_design.py's, imported when it runs."""
    from puzzlebox import cli_design

    return cli_design.cmd_design(args)


COMMANDS: dict[str, Callable[[argparse.Namespace], int]] = {
    "list": cmd_list, "show": cmd_show, "solve": _search("cmd_solve"),
    "count": _search("cmd_count"), "estimate": _tool("cmd_estimate"),
    "generate": _tool("cmd_generate"), "sweep": _tool("cmd_sweep"),
    "order": _tool("cmd_order"), "import": _tool("cmd_import"),
    "export": _tool("cmd_export"), "serve": _tool("cmd_serve"), "moves": _tool("cmd_moves"),
    "design": _design,
}


def _check_engine(parser: argparse.ArgumentParser, args: Any) -> str | None:
    """An ``--engine`` that cannot do what the command asks (cli_search.py says)."""
    from puzzlebox import cli_search

    return cli_search.check_engine(parser, args)


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser(argv)
    args, unknown = parser.parse_known_args(argv)
    if args.command is None:  # a bare 'puzzlebox': the help, and no failure
        parser.print_help()
        return 0
    parser = args.command_parser
    if unknown:
        parser.error(f"unrecognized arguments: {' '.join(unknown)}")
    refused = _check_engine(parser, args) if hasattr(args, "engine") else None
    if refused is not None:
        print(f"puzzlebox: {refused}", file=sys.stderr)
        return 2
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
