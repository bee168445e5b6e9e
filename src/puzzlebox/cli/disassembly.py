"""The command line's part of disassembly (#24): ``count --disassemble``, ``solve
--disassemble`` and ``moves``. search.py only adds the arguments and calls these; everything
else (which assemblies, levels, text and JSON) is here.

Assemblies are the puzzle's solutions up to symmetry (BurrTools counts them so), each taken
apart in turn with the file's ``[disassembly]`` rules. ``--max-time`` bounds the whole command
(finding the assemblies and taking each apart: one deadline), ``--max-memory`` the search for
assemblies and each take-apart, ``--max-states`` each take-apart (#35): past any of them, one
line and exit status 3.
"""

from __future__ import annotations

import argparse
import json
import queue
import sys
import threading
import time
from collections import Counter
from collections.abc import Callable, Iterator
from typing import Any, TypeVar, cast

from puzzlebox.cli.common import number, path, showing
from puzzlebox.cli.puzzle import load
from puzzlebox.disassembly import browse
from puzzlebox.disassembly.assemblies import (
    Disassembled,
    Rules,
    check_slides,
    level_key,
    take_apart,
)
from puzzlebox.disassembly.search import DEFAULT_MAX_STATES, Deadline, Move
from puzzlebox.engine.memory import parse_memory
from puzzlebox.errors import PuzzleboxError
from puzzlebox.formats.reader import PuzzleFile
from puzzlebox.puzzles.polyomino import PolyominoPuzzle
from puzzlebox.render.json_out import solution_json
from puzzlebox.render.progress import JsonLines, ProgressLine
from puzzlebox.run import Limits
from puzzlebox.safety import printable

AXES = "xyz"  # x the column, y the row, z the layer (moves are given so, as BurrTools does)


class NoSuchAssembly(PuzzleboxError):
    """``moves --solution N`` past the assemblies that come apart."""


def add_arguments(parser: argparse.ArgumentParser, flag: bool = True) -> None:
    """``--disassemble`` (for count and solve) and the search's own limits."""
    if flag:
        parser.add_argument("--disassemble", action="store_true",
                            help="take each assembly (solution up to symmetry) apart by "
                            "sliding pieces: say which come apart and their levels")
    parser.add_argument("--thorough", action="store_true",
                        help="disassembly: try every separation, not only the first one met "
                        "(BurrTools judges by the first)")
    parser.add_argument("--max-states", type=int, default=DEFAULT_MAX_STATES, metavar="N",
                        help="disassembly: give up after N positions of one assembly "
                        f"(default {DEFAULT_MAX_STATES:,}; exit status 3)")


def refuse_others(args: argparse.Namespace) -> None:
    """Options of count and solve that --disassemble does not use are refused, not dropped:
    assemblies are found in one process, each orbit once, and taken apart there or shared
    out (``--jobs``, ``--cluster``, ``--checkpoint``: disassembly/split.py)."""
    unused = [flag for flag, on in (
        ("--split-depth", getattr(args, "split_depth", None) is not None),
        ("--seed", getattr(args, "seed", None) is not None),
        ("--why", getattr(args, "why", False))) if on]
    if unused:
        raise NoSuchAssembly(f"--disassemble finds the assemblies in one process: drop "
                             f"{', '.join(unused)}")
    if _split_asked(args) and getattr(args, "open", None):
        raise NoSuchAssembly("--open works in one process: drop --jobs, --cluster and "
                             "--checkpoint")
    if getattr(args, "format", "text") in ("svg", "png") and not getattr(args, "out", None):
        raise NoSuchAssembly(f"--disassemble --format {args.format} needs --out FILE (one "
                             "picture of the assemblies that come apart, with their levels)")


def rules_of(pf: PuzzleFile, args: argparse.Namespace) -> Rules:
    declared = getattr(pf.puzzles[0], "disassembly", None) if pf.puzzles else None
    return Rules(
        fixed=frozenset(declared.fixed) if declared else frozenset(),
        groups=tuple(frozenset(g) for g in declared.groups) if declared else (),
        thorough=bool(getattr(args, "thorough", False)),
        max_states=int(getattr(args, "max_states", DEFAULT_MAX_STATES)),
    )


def limits_of(args: argparse.Namespace) -> Limits:
    """The run layer's limits of the command: ``--max-time`` for all of it (one deadline),
    ``--max-memory``, ``--no-limit`` (of the search for assemblies)."""
    return Limits(time=getattr(args, "max_time", None), memory=getattr(args, "max_memory", None),
                  refuse=not getattr(args, "no_limit", False))


def _polyomino(pf: PuzzleFile) -> Iterator[PolyominoPuzzle]:
    for puzzle in pf.puzzles:
        check_slides(puzzle, puzzle.name)
        yield cast(PolyominoPuzzle, puzzle)  # check_slides: a kind whose pieces slide


T = TypeVar("T")


class _Aside:
    """A thread of its own that takes the assemblies apart while this one waits.

    The assemblies come from a run whose time rule judges the search by the CPU time of the
    thread that drives it (run/limits.py: past a second it estimates the tree, which loads
    numba's kernels, half a second and more). Taken apart on that thread, the assemblies'
    disassembly counted as search and paid for that estimate on BurrTools' examples
    (PelikanBurr, SolidSixPieceBurrs); on a thread of its own it does not. One thread
    serves a whole run (a thread each cost 0.1 ms of CPU per assembly); it is a daemon, so
    that a Ctrl-C in the wait ends the process without waiting for it."""

    def __init__(self) -> None:
        self._tasks: queue.SimpleQueue[Callable[[], Any] | None] = queue.SimpleQueue()
        self._results: queue.SimpleQueue[tuple[bool, Any]] = queue.SimpleQueue()
        threading.Thread(target=self._serve, name="puzzlebox-disassembly", daemon=True).start()

    def _serve(self) -> None:
        while (work := self._tasks.get()) is not None:
            try:
                self._results.put((True, work()))
            except BaseException as error:  # handed to the waiting thread, raised there
                self._results.put((False, error))

    def run(self, work: Callable[[], T]) -> T:
        """``work()``, run there."""
        self._tasks.put(work)
        done, value = self._results.get()
        if not done:
            raise value
        return cast(T, value)

    def close(self) -> None:
        self._tasks.put(None)


def _assemblies(puzzle: PolyominoPuzzle, rules: Rules, limits: Limits,
                engine: str = "auto") -> Iterator[Disassembled]:
    """The library's :func:`take_apart` (the same limits as every door), each take-apart on
    the thread aside."""
    aside = _Aside()
    try:
        yield from take_apart(puzzle, rules, limits, engine, aside.run, batch=64)
    finally:
        aside.close()


def _split_asked(args: argparse.Namespace) -> bool:
    return (getattr(args, "jobs", 1) != 1 or getattr(args, "cluster", None) is not None
            or getattr(args, "checkpoint", None) is not None)


def _each(args: argparse.Namespace, puzzle: PolyominoPuzzle, board: int, rules: Rules,
          limits: Limits) -> Iterator[Disassembled]:
    """The assemblies taken apart: here, or shared out as ``--jobs``, ``--cluster`` and
    ``--checkpoint`` ask (disassembly/split.py), with progress on a terminal or as JSON."""
    if not _split_asked(args):
        yield from _assemblies(puzzle, rules, limits, args.engine)
        return
    from puzzlebox.disassembly.split import origin_of, split_take_apart

    display: Any = None
    if getattr(args, "progress", "auto") == "json":
        display = JsonLines()
    elif getattr(args, "progress", "auto") == "auto":
        display = ProgressLine(printable(puzzle.name), showing(args))
    checkpoint = getattr(args, "checkpoint", None)
    try:
        yield from split_take_apart(
            puzzle, origin_of(args.puzzle, board), rules, limits, args.engine,
            jobs=getattr(args, "jobs", 1), cluster=getattr(args, "cluster", None),
            checkpoint=checkpoint, on_progress=display)
    except KeyboardInterrupt:
        if checkpoint:
            print(printable(f"puzzlebox: the checkpoint {checkpoint} is kept; run the same "
                            "command again to resume"), file=sys.stderr)
        raise
    finally:
        if hasattr(display, "close"):
            display.close()


def _drawn_moves(puzzle: PolyominoPuzzle) -> None:
    """Pictures of the moves are drawn in cubes (square and cube lattices): refused in one
    line on a lattice whose pieces slide along steps of its own (rhombic, #37)."""
    if puzzle.lattice.slide_steps() is not None:
        raise NoSuchAssembly(
            f"{puzzle.name}: pictures of the moves are drawn for square and cube cells only; "
            f"use --format text or json for {puzzle.lattice.cell_word} cells")


def lattice_direction(move: Move, dims: int) -> list[int]:
    """A move's direction in the lattice's coordinates ([row, col] or [layer, row, col])."""
    x, y, z = move.direction
    return [y, x] if dims == 2 else [z, y, x]


def move_json(move: Move, done: Disassembled, dims: int) -> dict[str, Any]:
    """``{"pieces": names, "placements": their indices in the solution's "placements"
    (copies of a piece told apart), "direction": a unit step in the lattice's coordinates,
    "distance": cells, or null for the move that takes them away}``."""
    index = {id(p): k for k, p in enumerate(done.solution.placements)}
    return {"pieces": [done.names[p] for p in move.pieces],
            "placements": [index[id(done.placements[p])] for p in move.pieces],
            "direction": lattice_direction(move, dims),
            "distance": move.distance}


def move_text(move: Move, names: tuple[str, ...]) -> str:
    """``S5 S6 +y 3``: the pieces, the axis (x columns, y rows, z layers), how far."""
    return printable(move.text(list(names)).replace(",", " "))


# -- count --disassemble -------------------------------------------------------------------

def run_count(args: argparse.Namespace, pf: PuzzleFile) -> int:
    refuse_others(args)
    rules, limits = rules_of(pf, args), limits_of(args)
    for board, puzzle in enumerate(_polyomino(pf)):
        began = time.perf_counter()
        levels: Counter[str] = Counter()
        total = 0
        for done in _each(args, puzzle, board, rules, limits):
            total += 1
            if done.level is not None:
                levels[done.level] += 1
        apart = sum(levels.values())
        ranked = sorted(levels.items(), key=lambda kv: level_key(kv[0]), reverse=True)
        seconds = time.perf_counter() - began
        if args.json:
            print(json.dumps({
                "puzzle": puzzle.name, "assemblies": total, "come_apart": apart,
                "levels": [{"level": level, "assemblies": n} for level, n in ranked],
                "seconds": round(seconds, 4)}), flush=True)
            continue
        shown = ", ".join(level if n == 1 else f"{level} (x{n})" for level, n in ranked[:12])
        more = f", and {len(ranked) - 12} more" if len(ranked) > 12 else ""
        print(printable(
            f"{puzzle.name}: {total} assemblies (up to symmetry), {apart} come"
            f"{'s' if apart == 1 else ''} apart"
            + (f"; levels {shown}{more}" if ranked else "") + f" ({seconds:.3f} s)"),
            flush=True)
    return 0


# -- solve --disassemble -------------------------------------------------------------------

def run_solve(args: argparse.Namespace, pf: PuzzleFile,
              show: Any = None) -> int:
    """The assemblies that come apart, up to ``--limit`` (or ``--all``), with their levels.
    ``show(puzzle, solution)`` prints a drawing (cli's own printer)."""
    refuse_others(args)
    rules, limits = rules_of(pf, args), limits_of(args)
    limit = None if args.all else max(args.limit, 0)
    pictured = args.format in ("svg", "png")
    drawn: list[tuple[Disassembled, str]] = []
    dims = 3
    for board, puzzle in enumerate(_polyomino(pf)):
        dims = check_slides(puzzle, puzzle.name)
        if pictured:
            _drawn_moves(puzzle)
        found = 0
        for done in _each(args, puzzle, board, rules, limits):
            if limit is not None and found >= limit:
                break
            if done.separation is None:
                continue
            found += 1
            if pictured:
                drawn.append((done, f"{puzzle.name if len(pf.puzzles) > 1 else 'solution'} "
                                    f"{found}: level {done.level}"))
                continue
            if args.format == "json":
                obj = json.loads(solution_json(puzzle, done.solution))
                obj["level"] = done.level
                obj["moves"] = [move_json(m, done, dims) for m in done.separation.all_moves()]
                print(json.dumps(obj), flush=True)
                continue
            print(printable(f"{puzzle.name}: solution {found}, level {done.level} "
                            f"({done.separation.total_moves} moves)"))
            if show is not None:
                show(puzzle, done.solution)
            print()
        if not found and args.format != "json":
            print(printable(f"{puzzle.name}: no assembly comes apart"))
    if pictured and drawn:
        from puzzlebox.disassembly.strip import write_sheet

        try:
            write_sheet(drawn, dims, args.out, args.format)
        except OSError as error:
            raise NoSuchAssembly(f"cannot write {args.out}: {error.strerror or error}"
                                 ) from None
        print(printable(args.out))
    return 0


# -- moves ---------------------------------------------------------------------------------

def _after(args: argparse.Namespace, puzzle: PolyominoPuzzle, chosen: Disassembled, dims: int,
           rules: Rules) -> None:
    """``moves --after MOVES``: the moves made by hand from the assembly (one unit at a
    time, refused where they collide: disassembly/browse.py, as the page's movement browser
    makes them), then how each part comes apart from where its pieces stand."""
    names = list(chosen.names)
    pieces = [[(c[1], c[0], 0) if dims == 2 else (c[2], c[1], c[0]) for c in p.cells]
              for p in chosen.placements]
    fixed = [k for k, n in enumerate(names) if n in rules.fixed]
    groups = [[k for k, n in enumerate(names) if n in g] for g in rules.groups]
    steps = browse.parse_steps(args.after, names, dims)
    offsets, parts = browse.replay(pieces, names, dims, steps, fixed)
    deadline = None if args.max_time is None else Deadline.after(args.max_time)
    shown: list[dict[str, Any]] = []
    for part in parts:
        who = [names[p] for p in part]
        found = browse.outlook(pieces, offsets, part, dims, fixed, groups, rules.max_states,
                               deadline, args.max_memory,
                               label=f"{puzzle.name}: {' '.join(who)}")
        moves = [] if found.separation is None else [
            move_text(m, chosen.names) for m in found.separation.all_moves()]
        shown.append({"pieces": who, "done": found.done, "level": found.level,
                      "moves": moves})
    if args.format == "json":
        print(json.dumps({"puzzle": puzzle.name, "solution": args.solution,
                          "after": [move_text(browse.as_move(s), chosen.names) for s in steps],
                          "parts": shown}), flush=True)
        return
    print(printable(f"{puzzle.name}: assembly {args.solution} after "
                    + "; ".join(move_text(browse.as_move(s), chosen.names) for s in steps)))
    for told in shown:
        listed = " ".join(told["pieces"])
        if told["done"]:
            what = "one piece" if len(told["pieces"]) == 1 else "nothing more to take apart"
            print(printable(f"{listed}: {what}, done"))
        elif told["level"] is None:
            print(printable(f"{listed}: does not come apart from here"))
        else:
            count = len(told["moves"])
            print(printable(f"{listed}: comes apart from here at level {told['level']} in "
                            f"{count} move{'' if count == 1 else 's'}"))
            for number, text in enumerate(told["moves"], 1):
                print(f"{number:4}. {text}")


def add_moves(moves: argparse.ArgumentParser) -> None:
    moves.description = (
        "Take the puzzle's assemblies (solutions up to symmetry) apart by "
        "sliding pieces along the axes and print the moves of the N-th one that comes "
        "apart: its level (BurrTools' notation) and each move (pieces, axis: x columns, "
        "y rows, z layers, and distance; 'out' takes them away).")
    moves.add_argument("puzzle", type=path, help="a catalog name or a .toml file")
    moves.add_argument("--solution", type=int, default=1, metavar="N",
                       help="the N-th assembly that comes apart (default 1)")
    moves.add_argument("--json", action="store_true",
                       help='one JSON object: {"puzzle", "solution", "level", "moves", '
                       '"placements"}')
    moves.add_argument("--format", choices=["text", "json", "svg", "png"], default="text",
                       help="text, json, or svg, png: every position in a grid (6 a row), "
                       "drawn isometrically under a key, the moving piece highlighted "
                       "(needs --out)")
    moves.add_argument("--out", type=path, metavar="FILE", help="where to write the picture")
    moves.add_argument("--animate", action="store_true",
                       help="with --format svg: one frame after another in one place (an "
                       "animated SVG, a second a move, looping) instead of the grid")
    moves.add_argument("--after", metavar="MOVES",
                       help="make these moves by hand first, as moves prints them and "
                       "separated by ';' (e.g. 'D -x 1; D -y out'; a move that collides is "
                       "refused), then say how each part comes apart from there (the page's "
                       "movement browser)")
    add_arguments(moves, flag=False)
    moves.add_argument("--max-time", type=number(float, "seconds"), metavar="SECONDS",
                       help="stop after SECONDS: finding the assemblies and taking them apart "
                       "(exit status 3)")
    moves.add_argument("--max-memory", type=number(parse_memory, "size"), metavar="SIZE",
                       help="memory the search for assemblies and each take-apart may use, "
                       "e.g. 512M or 2G (default 2G; exit status 3)")


def cmd_moves(args: argparse.Namespace) -> int:
    """``puzzlebox moves FILE``: how an assembly comes apart (#24)."""
    return run_moves(args, load(args.puzzle))


def run_moves(args: argparse.Namespace, pf: PuzzleFile) -> int:
    if args.json:
        args.format = "json"
    if args.format in ("svg", "png") and not args.out:
        raise NoSuchAssembly(f"moves --format {args.format} needs --out FILE")
    if args.animate and args.format != "svg":
        raise NoSuchAssembly("--animate draws an animated SVG: add --format svg --out FILE")
    if args.solution < 1:
        raise NoSuchAssembly(f"--solution {args.solution}: assemblies are numbered from 1")
    if args.after is not None and args.format in ("svg", "png"):
        raise NoSuchAssembly("--after says how the parts come apart from there, as text or "
                             "JSON: drop --format " + args.format)
    rules, limits = rules_of(pf, args), limits_of(args)
    for puzzle in _polyomino(pf):
        dims = check_slides(puzzle, puzzle.name)
        if args.format in ("svg", "png"):
            _drawn_moves(puzzle)
        seen = 0
        chosen: Disassembled | None = None
        total = 0
        for done in _assemblies(puzzle, rules, limits):
            total += 1
            if done.separation is not None:
                seen += 1
                if seen == args.solution:
                    chosen = done
                    break
        if chosen is None or chosen.separation is None:
            raise NoSuchAssembly(
                f"{puzzle.name}: {seen} of {total} assemblies come apart; there is no "
                f"assembly {args.solution} to take apart")
        if args.after is not None:
            _after(args, puzzle, chosen, dims, rules)
            continue
        moves = chosen.separation.all_moves()
        if args.format == "json":
            obj = json.loads(solution_json(puzzle, chosen.solution))
            obj["solution"] = args.solution
            obj["level"] = chosen.level
            obj["moves"] = [move_json(m, chosen, dims) for m in moves]
            print(json.dumps(obj), flush=True)
        elif args.format in ("svg", "png"):
            from puzzlebox.disassembly.strip import write_strip

            try:
                write_strip(chosen, dims, args.out, args.format, args.animate)
            except OSError as error:
                raise NoSuchAssembly(f"cannot write {args.out}: {error.strerror or error}"
                                     ) from None
            print(printable(args.out))
        else:
            print(printable(f"{puzzle.name}: assembly {args.solution} comes apart at level "
                            f"{chosen.level} in {len(moves)} moves"))
            for number, move in enumerate(moves, 1):
                print(f"{number:4}. {move_text(move, chosen.names)}")
    return 0
