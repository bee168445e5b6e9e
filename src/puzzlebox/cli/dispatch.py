"""The ``puzzlebox`` command line: parse arguments, call the library, print. Nothing else.

The top of the package (docs/DESIGN.md, the command line's own layers). Every command is one
row of :data:`COMMANDS`: its line of help, one example, and the module of this package that
has its options (``add_<name>(parser)``) and runs it (``cmd_<name>(args) -> int``). Start-up
is the whole cost of a small command (issue #23), so this module imports nothing that loads
numpy, a kind or an engine: ``--help`` and ``--version`` are answered from a parser that
names every command but fills in only the one asked for, whose module is imported (by name,
from the table) when the command line names it. Every error a user can cause is a
PuzzleboxError, caught once in :func:`main`.

To add a command: a module here (or a group's module) with ``add_<name>`` and ``cmd_<name>``,
and one row in :data:`COMMANDS`.
"""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Callable, Sequence
from types import ModuleType
from typing import NamedTuple

from puzzlebox import __version__
from puzzlebox.cli.common import error_line
from puzzlebox.errors import PuzzleboxError


class Command(NamedTuple):
    """One command: its line in ``--help``, the module of this package that has its
    options and runs it, and the example shown at the end of its own ``--help``. (A named
    tuple: a dataclass would load inspect, ast and dis, 10-20 ms of every start-up.)"""

    help: str
    module: str
    example: str


COMMANDS: dict[str, Command] = {
    "list": Command("list the built-in catalog", "show", "puzzlebox list --json"),
    "show": Command("show a puzzle's board and pieces", "show",
                    "puzzlebox show soma-cube --format svg --out soma.svg"),
    "solve": Command("find solutions", "search", "puzzlebox solve pentomino-6x10 --limit 3"),
    "count": Command("count solutions, raw and distinct up to symmetry", "search",
                     "puzzlebox count pentomino-6x10 --jobs 2"),
    "moves": Command("how an assembly comes apart, move by move", "disassembly",
                     "puzzlebox moves burr-computers-choice-4-hole --json"),
    "estimate": Command("estimate the search tree's size and the time to search it", "tools",
                        "puzzlebox estimate pentomino-6x10 --probes 5000"),
    "generate": Command("write a random solvable puzzle", "tools",
                        "puzzlebox generate edge-matching --size 5 --seed 7 --out cards.toml"),
    "sweep": Command("solve a board once for each choice of cells left uncovered", "tools",
                     "puzzlebox sweep blocks-7x7 --uncover 1 --fill-holes"),
    "order": Command("the fewest copies of a polyomino that tile a rectangle", "tools",
                     "puzzlebox order Y --why"),
    "import": Command("convert a BurrTools puzzle (.xmpuzzle) to a puzzlebox TOML file",
                      "tools", "puzzlebox import puzzle.xmpuzzle --problem 1 -o puzzle.toml"),
    "export": Command("write the pieces at real size: a sheet (SVG, PDF) or STL solids",
                      "tools", "puzzlebox export pentomino-6x10 --sheet pieces.pdf"),
    "serve": Command("the web page: design a puzzle, solve it, watch the search", "tools",
                     "puzzlebox serve --port 8765 --no-browser"),
    "design": Command("try every design of a space: which puzzle is worth making", "design",
                      "puzzlebox design calendar-sets --jobs 2 --out kept/"),
}
DESCRIPTION = ("Solve placement puzzles (polyominoes, coloured strips, edge-matching cards, "
               "n-queens) by exact cover.")
EPILOG = "'puzzlebox COMMAND --help' shows a command's options and an example"
VERSION = f"puzzlebox {__version__}"


def module_of(name: str) -> ModuleType:
    """The module that has command ``name``'s options and runs it, imported on first use."""
    return importlib.import_module(f"puzzlebox.cli.{COMMANDS[name].module}")


def _command_of(argv: Sequence[str]) -> str | None:
    """The command named (the first word that is not an option: the top level's options,
    --help and --version, take no value), or None."""
    return next((word for word in argv if not word.startswith("-")), None)


def _asks_more(parser: argparse.ArgumentParser, words: Sequence[str]) -> bool:
    """Whether the command line has a word ``parser`` does not know exactly (an option it
    lacks, an abbreviation, a mistake: each then parsed, or refused, as with every option)
    or asks for the help that lists every option."""
    known = set(parser._option_string_actions) - {"-h", "--help"}
    for word in words:
        if word == "--":
            return False
        if word.startswith("-") and word.split("=", 1)[0] not in known:
            return True
    return False


def build_parser(argv: Sequence[str] | None = None,
                 everything: bool = False) -> argparse.ArgumentParser:  # fmt: skip
    """The parser for ``argv``: every command named with its line of help, and the one
    ``argv`` names with its options (its module's ``add_<name>``, and ``more_<name>`` where
    the module keeps options that load more and ``argv`` may use them). ``everything``:
    every command with every option (what the help of each shows)."""
    words = sys.argv[1:] if argv is None else list(argv)
    command = _command_of(words)
    parser = argparse.ArgumentParser(prog="puzzlebox", description=DESCRIPTION, epilog=EPILOG)
    parser.add_argument("--version", action="version", version=VERSION)
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name, row in COMMANDS.items():
        one = sub.add_parser(name, help=row.help, epilog=f"example: {row.example}")
        if everything or name == command:
            module = module_of(name)
            getattr(module, f"add_{name}")(one)
            more = getattr(module, f"more_{name}", None)
            if more is not None and (everything or _asks_more(one, words)):
                more(one)
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


def _misspelt(word: str) -> str:
    """The line that refuses a command that does not exist, with the nearest one."""
    import difflib

    near = difflib.get_close_matches(word, COMMANDS, n=1, cutoff=0.6)
    guess = f" (did you mean '{near[0]}'?)" if near else ""
    return f"no command '{word}'{guess}; 'puzzlebox --help' lists them"


def _help(words: list[str]) -> list[str]:
    """``puzzlebox help [COMMAND]`` as ``puzzlebox [COMMAND] --help``."""
    at = words.index("help")
    return [*words[:at], *words[at + 1 : at + 2], "--help"]


def main(argv: Sequence[str] | None = None) -> int:
    words = sys.argv[1:] if argv is None else list(argv)
    command = _command_of(words)
    if command == "help":  # not a command: the help, or a command's
        words = _help(words)
        command = _command_of(words)
    parser = build_parser(words)
    if command is not None and command not in COMMANDS:
        parser.print_usage(sys.stderr)
        print(f"puzzlebox: {_misspelt(command)}", file=sys.stderr)
        return 2
    args, unknown = parser.parse_known_args(words)
    if args.command is None:
        if unknown:  # an option of no command ('--foo', '-V'): refused, as every mistake
            parser.error(f"unrecognized arguments: {' '.join(unknown)}")
        parser.print_help()  # a bare 'puzzlebox': the help, and no failure
        return 0
    parser = args.command_parser
    if unknown:
        parser.error(f"unrecognized arguments: {' '.join(unknown)}")
    run: Callable[[argparse.Namespace], int] = getattr(module_of(args.command),
                                                        f"cmd_{args.command}")
    try:
        return run(args)
    except PuzzleboxError as error:
        print(error_line(error), file=sys.stderr)
        return error.exit_status
    except KeyboardInterrupt:
        print("puzzlebox: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return 0
