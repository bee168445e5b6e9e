"""What every command of the command line shares: its error, the hints added to a library
error, the argument types, and printing. The bottom of the package: it imports no other
module of it (docs/DESIGN.md, the command line's own layers), and nothing that loads numpy,
a kind or an engine, since every command loads it at start-up.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from typing import Any

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
    # a take-apart's limits (#35): the time limit's line is every other time limit's (no
    # hint: the command was given it), the others name the flag that raises them
    "puzzlebox.disassembly.search.DisassemblyOutOfTime": "",
    "puzzlebox.disassembly.search.DisassemblyOverMemory": "--max-memory SIZE",
    "puzzlebox.disassembly.search.DisassemblyTooBig": "--max-states N",
    "puzzlebox.formats.burrtools.ProblemNeeded": "--problem NAME|N",
    "puzzlebox.render.sheet.SolidPieces": "export them with --stl DIR",
    "puzzlebox.render.sheet.PieceTooLarge": "a smaller --cell-mm or a larger --page",
    "puzzlebox.designs.run.TooManyDesigns": "--no-limit tries them anyway, --max-time "
    "SECONDS tries them until then",
}


class CommandError(PuzzleboxError):
    """Options that do not go together, or an output file that cannot be written."""


def error_line(error: PuzzleboxError) -> str:
    """The one line printed for ``error``, with the command line's hint when it has one."""
    names = (f"{kind.__module__}.{kind.__qualname__}" for kind in type(error).__mro__)
    hint = next((HINTS[name] for name in names if name in HINTS), None)  # "": none
    text = printable(str(error))
    return f"puzzlebox: {text} ({hint})" if hint else f"puzzlebox: {text}"


# -- argument types: a bad value is refused by the parser (its usage and one line, exit 2) --

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


def number(kind: Callable[[str], Any], what: str) -> Callable[[str], Any]:
    """A ``size`` (``kind`` says why one is refused) or a positive number of ``seconds``."""

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


def path(text: str) -> str:
    """A file or folder to read or write: an empty one names none (``--out ''`` would be
    ignored, ``--stl ''`` write into the current folder, ``--checkpoint ''`` run without a
    checkpoint), so it is refused."""
    if not text:
        raise argparse.ArgumentTypeError("an empty path names no file: give one")
    return text


# -- output ---------------------------------------------------------------------------------

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
