"""The ``puzzlebox`` command line: parse arguments, call the library, print. Nothing else.

Start-up is the whole cost of a small command (issue #23), so this module imports nothing
that loads numpy, a kind or an engine: ``--help``, ``--version`` and ``list`` are answered
here from a parser that names every command but fills in only what was asked for, and the
catalog's names and titles (read from its files). Any other command loads its own module
when it runs: cli_search.py (solve, count: each through :class:`puzzlebox.run.Run`) or
cli_tools.py (the full parser and the other tools). Every error a user can cause is a
PuzzleboxError, caught once in :func:`main`.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable, Sequence
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
}
DESCRIPTION = ("Solve placement puzzles (polyominoes, coloured strips, edge-matching cards, "
               "n-queens) by exact cover.")
VERSION = f"puzzlebox {__version__}"
LIGHT = {None, "list"}  # the commands this module's own parser answers


def error_line(error: PuzzleboxError) -> str:
    """The one line printed for ``error``, with the command line's hint when it has one."""
    names = (f"{kind.__module__}.{kind.__qualname__}" for kind in type(error).__mro__)
    hint = next((HINTS[name] for name in names if name in HINTS), None)
    text = printable(str(error))
    return f"puzzlebox: {text} ({hint})" if hint else f"puzzlebox: {text}"


def add_list_args(listing: argparse.ArgumentParser) -> None:
    listing.add_argument("--json", action="store_true",
                         help='one JSON object per puzzle: {"puzzle": name, "title": title}')


def _command_of(argv: Sequence[str]) -> str | None:
    """The command named (the first word that is not an option: the top level's options,
    --help and --version, take no value), or None."""
    return next((word for word in argv if not word.startswith("-")), None)


def build_parser(argv: Sequence[str] | None = None) -> argparse.ArgumentParser:
    """The parser for ``argv``: this module's light one when the command is ``list`` or
    none (``--help``, ``--version``: every command named, with its line of help), else every
    command with all its options (cli_tools.py)."""
    command = _command_of(sys.argv[1:] if argv is None else argv)
    if command in HELP and command not in LIGHT:
        from puzzlebox import cli_tools

        return cli_tools.build_parser()
    parser = argparse.ArgumentParser(prog="puzzlebox", description=DESCRIPTION)
    parser.add_argument("--version", action="version", version=VERSION)
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name, line in HELP.items():
        named = sub.add_parser(name, help=line)
        if name == "list":
            named.description = "List the catalog."
            add_list_args(named)
    remember_parsers(parser)
    return parser


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


COMMANDS: dict[str, Callable[[argparse.Namespace], int]] = {
    "list": cmd_list, "show": _tool("cmd_show"), "solve": _search("cmd_solve"),
    "count": _search("cmd_count"), "estimate": _tool("cmd_estimate"),
    "generate": _tool("cmd_generate"), "sweep": _tool("cmd_sweep"),
    "order": _tool("cmd_order"), "import": _tool("cmd_import"),
    "export": _tool("cmd_export"), "serve": _tool("cmd_serve"), "moves": _tool("cmd_moves"),
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
