"""The command line's ``puzzlebox design FILE``: try every design of a space, stream the
kept ones, end with the ranked table (issue #34). Everything it prints comes from
:class:`puzzlebox.designs.DesignRun`; this module parses, prints and writes files.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from puzzlebox import catalog
from puzzlebox.cli.common import path
from puzzlebox.designs import DesignResult, DesignRun, DesignSpace, describe, load_space
from puzzlebox.designs.table import ranking, summary_line, table
from puzzlebox.errors import PuzzleboxError
from puzzlebox.outfile import write_text
from puzzlebox.run.limits import Limits
from puzzlebox.safety import file_component, printable


class DesignCommandError(PuzzleboxError):
    """Options that do not go together, or an output folder that cannot be written."""


def add_design(design: argparse.ArgumentParser) -> None:
    """``design``'s options."""
    design.description = (
        "Try every design of a design file (a puzzle file with a [design] table: the pieces "
        "taken from a pool, the holes or optional cells, the board; what is wanted and how "
        "to rank it), cheapest test first. Each kept design is printed as it is found; a "
        "ranked table ends the run.")
    design.add_argument("space", type=path, nargs="?",
                        help="a design file, or a catalog design ('--list' names them)")
    design.add_argument("--list", action="store_true", help="list the catalog's designs")
    design.add_argument("--json", action="store_true",
                        help="one JSON object per kept design as found, then a summary object")
    design.add_argument("--every", action="store_true",
                        help="print every design tried, kept or not (with the reason)")
    design.add_argument("--out", metavar="DIR", type=path,
                        help="write each kept design as a puzzle file of its own in DIR")
    design.add_argument("--jobs", type=int, default=1, metavar="N",
                        help="try designs on N local processes (default 1)")
    design.add_argument("--cluster", metavar="ADDRESS",
                        help="try designs on a Dask cluster (tcp://host:8786)")
    design.add_argument("--checkpoint", metavar="FILE", type=path,
                        help="record each design tried in FILE; run again to resume")
    design.add_argument("--no-limit", action="store_true",
                        help="try a space of more than a million designs anyway")
    design.add_argument("--max-time", type=float, metavar="SECONDS",
                        help="stop after SECONDS (exit status 3; what was kept is printed)")
    design.add_argument("--progress", choices=["auto", "json", "none"], default="auto",
                        help="a live line on a terminal (auto), JSON lines on standard "
                        "error, or nothing")
    design.add_argument("--quiet", action="store_true", help="no progress display")


def _check(args: argparse.Namespace) -> None:
    if args.cluster is not None and not args.cluster.strip():
        raise DesignCommandError("--cluster needs an address (tcp://host:8786)")
    if args.jobs < 1:
        raise DesignCommandError(f"--jobs {args.jobs}: at least 1")
    if args.cluster is not None and args.jobs != 1:
        raise DesignCommandError("--jobs and --cluster: choose one")
    if args.max_time is not None and not args.max_time > 0:
        raise DesignCommandError(f"--max-time {args.max_time:g}: a time above 0")
    if args.space is None and not args.list:
        raise DesignCommandError("design needs a design file or a catalog design (--list "
                                 "names them)")


class _Progress:
    """The live line (a terminal) or JSON lines on standard error."""

    def __init__(self, mode: str) -> None:
        self.mode = mode
        self.shown = False

    def __call__(self, event: Any) -> None:
        if self.mode == "json":
            data = {"elapsed": round(event.elapsed, 3), "tried": event.tried,
                    "total": event.total, "kept": event.kept, "undecided": event.undecided,
                    "rate": round(event.rate, 3), "share": event.share,
                    "eta": None if event.eta is None else round(event.eta, 1),
                    "done": event.done}
            print(json.dumps(data), file=sys.stderr, flush=True)
            return
        if event.done:
            self.clear()
            return
        left = f", about {event.eta:.0f} s left" if event.eta is not None else ""
        line = (f"designs {event.tried:,}/{event.total:,} tried, {event.kept:,} kept, "
                f"{event.rate:.1f} a second, {event.elapsed:.0f} s{left}")
        print("\r" + line[:120].ljust(80), end="", file=sys.stderr, flush=True)
        self.shown = True

    def clear(self) -> None:
        if self.shown:
            print("\r" + " " * 80 + "\r", end="", file=sys.stderr, flush=True)
            self.shown = False


def _write_design(space: DesignSpace, result: DesignResult, folder: Path) -> str:
    """Write a kept design into ``folder`` (whole or not at all: outfile.py)."""
    target = folder / (file_component(space.design_name(result.design)) + ".toml")
    try:
        write_text(target, space.design_text(result.design))
    except OSError as error:
        raise DesignCommandError(f"cannot write {target}: {error.strerror or error}") from None
    return str(target)


def _measures(result: DesignResult) -> str:
    parts = []
    if result.labels_total is not None:
        parts.append(f"{result.labels_solvable} of {result.labels_total} label combinations "
                     "solvable")
        if result.hardest is not None:
            parts.append(f"hardest {' '.join(result.hardest.values())}: "
                         f"{result.hardest_solutions} solutions")
    if result.assemblies is not None:
        parts.append(f"{result.assemblies} assemblies, {result.come_apart} come"
                     f"{'s' if result.come_apart == 1 else ''} apart")
        if result.level is not None:
            parts.append(f"level {result.level} ({result.moves} moves)")
    elif result.solutions is not None:
        parts.append(f"{result.solutions} solution{'s' if result.solutions != 1 else ''} "
                     "up to symmetry")
    return "; ".join(parts)


def _line(space: DesignSpace, result: DesignResult) -> str:
    head = f"{space.name}: design {result.design.index}: {describe(space, result.design)}"
    if result.kept:
        text = f"{head}: kept; {_measures(result)}" if _measures(result) else f"{head}: kept"
    else:
        word = "undecided" if not result.decided else "dropped"
        text = f"{head}: {word}: {result.reason}"
    return printable(text + f" ({result.seconds:.2f} s)")


def _table(space: DesignSpace, ranked: list[DesignResult]) -> list[str]:
    header, rows = table(ranked, lambda r: describe(space, r.design))
    widths = [max(len(header[i]), *(len(row[i]) for row in rows)) for i in range(len(header))]
    lines = ["  ".join(h.rjust(w) if i < len(header) - 1 else h
                       for i, (h, w) in enumerate(zip(header, widths)))]
    for row in rows:
        lines.append("  ".join(v.rjust(w) if i < len(row) - 1 else v
                               for i, (v, w) in enumerate(zip(row, widths))))
    return [printable(line) for line in lines]


def cmd_design(args: argparse.Namespace) -> int:
    _check(args)
    if args.list:
        for name in catalog.design_names():
            print(name)
        return 0
    space = load_space(args.space)
    folder = None
    if args.out is not None:
        folder = Path(args.out)
        try:
            folder.mkdir(exist_ok=True)
        except OSError as error:
            raise DesignCommandError(f"cannot make {args.out}: {error.strerror or error}"
                                     ) from None
        if not folder.is_dir():
            raise DesignCommandError(f"--out {args.out}: not a folder")
    limits = Limits(time=args.max_time, refuse=not args.no_limit)
    mode = "none" if args.quiet else args.progress
    if mode == "auto":
        mode = "line" if sys.stderr.isatty() else "none"
    display = _Progress(mode) if mode != "none" else None
    if (args.jobs > 1 or args.cluster is not None) and space.together():
        print("puzzlebox: this space's designs are found together, in one search of the "
              "whole pool in this process: --jobs and --cluster share out designs tried one "
              "by one (strategy = \"each\")", file=sys.stderr)
    run = DesignRun(space, limits, jobs=args.jobs, cluster=args.cluster,
                    checkpoint=args.checkpoint, on_progress=display)
    try:
        for result in run.results():
            if not (result.kept or args.every):
                continue
            if result.kept and folder is not None:
                result.file = _write_design(space, result, folder)
            if display is not None:
                display.clear()
            if args.json:
                print(json.dumps({"puzzle": space.name, **result.to_json()}), flush=True)
            else:
                print(_line(space, result) + (f" -> {result.file}" if result.file else ""),
                      flush=True)
    finally:
        if display is not None:
            display.clear()
    summary = run.summary
    assert summary is not None
    ranked = run.ranked()
    if args.json:
        print(json.dumps({"puzzle": space.name, "summary": summary.to_json(),
                          "ranked": [r.design.index for r in ranked]}), flush=True)
        return 0
    print(printable(summary_line(space.name, summary)))
    if ranked:
        print(printable(f"ranked ({ranking(space.wanted.rank)}):"))
        for line in _table(space, ranked):
            print(line)
    for result in run.undecided[:5]:
        print(_line(space, result))
    return 0
