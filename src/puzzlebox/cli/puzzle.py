"""What the commands that search a puzzle share (solve, count, estimate, sweep, order,
moves): reading the puzzle, refused at once when a board's cover problem would not fit, its
argument and ``--engine``, and the refusal of an engine that cannot do what is asked."""

from __future__ import annotations

import argparse

from puzzlebox import catalog
from puzzlebox.cli.common import path
from puzzlebox.engine.memory import check_cover_size
from puzzlebox.engine.registry import names
from puzzlebox.formats import PuzzleFile
from puzzlebox.run import choice
from puzzlebox.run.choice import EngineRefused
from puzzlebox.safety import printable


def load(name: str) -> PuzzleFile:
    """A puzzle file, refused at once when a board's cover problem would not fit."""
    pf = catalog.load_file(name)
    for puzzle in pf.puzzles:
        check_cover_size(puzzle.cover_entries_bound(), printable(puzzle.label))
    return pf


def engine_help() -> str:
    return ", ".join(names())


def add_puzzle_arg(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("puzzle", type=path,
                        help="a catalog name (see 'puzzlebox list') or a .toml file")
    parser.add_argument(
        "--engine",
        default="auto",
        help=f"search engine: {engine_help()} (default: auto, the choice measured for each "
        "puzzle; the README's table says what each engine is for)",
    )
    parser.add_argument("--quiet", action="store_true",
                        help="no progress display on standard error")


def check_engine(args: argparse.Namespace) -> None:
    """An ``--engine`` that cannot do what the command asks (count, or find solutions) is
    refused with the usage of the command typed (exit 2)."""
    parser: argparse.ArgumentParser = args.command_parser
    try:
        choice.check(args.engine, args.command == "count")
    except EngineRefused as error:
        other = {True: "count", False: "solve", None: None}[error.counts]
        parser.error(f"{error}: use 'puzzlebox {other} --engine {args.engine}'" if other
                     else str(error))
