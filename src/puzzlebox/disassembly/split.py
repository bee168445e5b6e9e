"""Taking a puzzle's assemblies apart on every core and every machine (#35 item 2).

The assemblies are found here, as in one process (``puzzle.distinct_solutions`` held to the
command's limits); then batches of them go to local worker processes (``jobs``) or a Dask
scheduler (``cluster``) through parallel/backends.py, which replaces a worker that dies and
runs its batch again. Each task carries what a worker needs to rebuild the puzzle (the
puzzle file's text, its source and name, the board's index), the rules, the time left and
the batch of assemblies as numbers of the placements it uses (:class:`Codes`); a worker keeps
the puzzle it built, and the placements it has met, for its next batch.
Results come back as they finish and are given out in the assemblies' order, so that the
answer (assemblies, come apart, levels, the order of ``solve --disassemble``) is one
process's.

The checkpoint (``checkpoint``) records each assembly's result as it comes back, one signed
JSON line each, as a design search's does (designs/checkpoint.py: the key of
parallel/checkpoint.py); its first line names the puzzle file's text, the board, the rules
and the assemblies themselves, so a checkpoint of anything else is refused in one line. A
resumed run takes apart only the assemblies the file lacks; a line cut short at the very
end (a kill) is dropped and its assembly taken apart again; a damaged line anywhere else is
refused in one line.
"""

from __future__ import annotations

import hashlib
import importlib
import json
import time
from array import array
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from operator import attrgetter
from pathlib import Path
from typing import Any, cast

from puzzlebox import catalog
from puzzlebox.disassembly.assemblies import (
    Disassembled,
    HeldTo,
    Rules,
    check_slides,
    disassemble_solution,
    in_order,
)
from puzzlebox.disassembly.image import burrtools_image
from puzzlebox.disassembly.search import Deadline, Move, Separation
from puzzlebox.engine.memory import OutOfTime
from puzzlebox.errors import PuzzleboxError
from puzzlebox.formats.reader import file_text, read_text
from puzzlebox.parallel.backends import DaskBackend, ProcessBackend, SerialBackend
from puzzlebox.parallel.journal import Journal
from puzzlebox.puzzles.polyomino import Placement, PolyominoPuzzle, PolyominoSolution

MAGIC = "puzzlebox disassembly checkpoint"
VERSION = 3  # 2: the shared journal (parallel/journal.py); 3: assemblies as placement numbers
MOST_BATCH = 64  # assemblies a task carries at most


@dataclass(frozen=True)
class _Held:
    """A worker's limits (a :class:`~puzzlebox.disassembly.assemblies.HeldTo`): its memory;
    its time is the command's deadline, sent apart."""

    time: float | None
    memory: int | None


class DisassemblyCheckpointError(PuzzleboxError):
    """A checkpoint that cannot be used: another puzzle or rules, damaged, or not one."""


@dataclass(frozen=True)
class Origin:
    """Where a worker rebuilds the puzzle from: the file's text, source and name, and the
    index of the board among the file's puzzles."""

    text: str
    source: str
    name: str
    board: int = 0


def origin_of(name_or_path: str, board: int = 0) -> Origin:
    """The :class:`Origin` of a catalog name or a puzzle file (as ``catalog.load_file``
    reads it)."""
    path = Path(name_or_path)
    if not (path.suffix == ".toml" or path.exists() or "/" in name_or_path):
        path, name = catalog.path_of(name_or_path), name_or_path
    else:
        name = path.stem
    return Origin(file_text(path), str(path), name, board)


# -- what travels: separations and placements as plain data --------------------------------

def separation_json(separation: Separation | None) -> Any:
    if separation is None:
        return None
    return {"pieces": list(separation.pieces),
            "moves": [[list(m.pieces), list(m.direction), m.distance] for m in separation.moves],
            "left": separation_json(separation.left),
            "removed": separation_json(separation.removed),
            "removed_pieces": list(separation.removed_pieces)}


def separation_from_json(data: Any) -> Separation | None:
    if data is None:
        return None
    moves = tuple(Move(tuple(int(p) for p in pieces), cast(Any, tuple(int(d) for d in step)),
                       None if distance is None else int(distance))
                  for pieces, step, distance in data["moves"])
    return Separation(tuple(int(p) for p in data["pieces"]), moves,
                      separation_from_json(data["left"]), separation_from_json(data["removed"]),
                      tuple(int(p) for p in data["removed_pieces"]))


class Codes:
    """The placements of a run's assemblies, each numbered once in the order first met,
    so that an assembly travels as a few numbers rather than every cell of every piece.

    Onega's 132,958 assemblies of 14 pieces hold 46 million cells: written out whole for
    the tasks they took 53 s and 6.5 GB in the client before a worker started (and their
    fingerprint 79 s); they use 171 placements. The puzzle hands out one placement object
    for each of its options (``decode``), so a placement is looked up by its identity first
    and by its value only when new."""

    def __init__(self) -> None:
        self.placements: list[Placement] = []
        self.written: list[list[Any]] = []  # each placement as a task writes it
        self._by_value: dict[Placement, int] = {}
        self._by_id: dict[int, tuple[Placement, int]] = {}

    def code(self, placement: Placement) -> int:
        seen = self._by_id.get(id(placement))
        if seen is not None and seen[0] is placement:
            return seen[1]
        number = self._by_value.get(placement)
        if number is None:
            number = self._by_value[placement] = len(self.placements)
            self.placements.append(placement)
            self.written.append([placement.piece, len(placement.cells[0]) if placement.cells
                                 else 0, [x for cell in placement.cells for x in cell]])
        self._by_id[id(placement)] = (placement, number)  # held: its id stays its own
        return number

    def of(self, solution: PolyominoSolution) -> list[int]:
        """The numbers of ``solution``'s placements, in its order."""
        return [self.code(p) for p in solution.placements]


def batch_json(codes: Codes, batch: list[tuple[int, list[int]]]) -> list[Any]:
    """A task's assemblies: ``[placements, assemblies]``, the placements they use (piece,
    cells as one flat list) numbered afresh from 0 and each assembly as ``[number, [its
    placements' numbers]]``."""
    local: dict[int, int] = {}
    used: list[list[Any]] = []
    shown = []
    for number, numbers in batch:
        mine = []
        for code in numbers:
            k = local.get(code)
            if k is None:
                k = local[code] = len(used)
                used.append(codes.written[code])
            mine.append(k)
        shown.append([number, mine])
    return [used, shown]


def batch_from_json(data: list[Any], known: dict[tuple[str, tuple[int, ...], int],
                                               Placement]) -> list[tuple[int, PolyominoSolution]]:
    """The assemblies of :func:`batch_json`'s ``data``, each placement the one ``known``
    holds for its value (kept from batch to batch: the take-apart knows a placement it has
    seen by its identity, assemblies.py's ``_Shared.record``)."""
    used, shown = data
    placements = []
    for piece, width, flat in used:
        key = (str(piece), tuple(int(x) for x in flat), int(width))
        found = known.get(key)
        if found is None:
            width = max(1, key[2])
            cells = tuple(key[1][k:k + width] for k in range(0, len(key[1]), width))
            found = known[key] = Placement(key[0], cells)
        placements.append(found)
    return [(int(number), PolyominoSolution(tuple(placements[k] for k in mine)))
            for number, mine in shown]


def rules_json(rules: Rules) -> dict[str, Any]:
    return {"fixed": sorted(rules.fixed), "groups": [sorted(g) for g in rules.groups],
            "thorough": rules.thorough, "max_states": rules.max_states,
            "max_seconds": rules.max_seconds}


def rules_from_json(data: dict[str, Any]) -> Rules:
    return Rules(frozenset(data["fixed"]), tuple(frozenset(g) for g in data["groups"]),
                 bool(data["thorough"]), int(data["max_states"]), data["max_seconds"])


# -- a worker's part -----------------------------------------------------------------------

# a worker's puzzle, by its origin's hash, and the placements met in its assemblies so far
_PUZZLES: dict[str, tuple[PolyominoPuzzle, dict[Any, Placement]]] = {}


def _puzzle(text: str, source: str, name: str, board: int
            ) -> tuple[PolyominoPuzzle, dict[Any, Placement]]:
    key = hashlib.sha256(f"{source}\0{name}\0{board}\0{text}".encode()).hexdigest()
    if key not in _PUZZLES:
        _PUZZLES.clear()  # one puzzle at a time: a worker serves one run
        _PUZZLES[key] = (cast(PolyominoPuzzle, read_text(text, source, name).puzzles[board]),
                         {})
    return _PUZZLES[key]


def take_apart_batch(task: tuple[Any, ...]) -> dict[str, Any]:
    """A worker's part: take each assembly of the batch apart. ``{"results": [[number,
    separation as JSON, the order of its placements that the moves number], ...]}``, and
    ``"error": [module, class, message]`` where a limit or a refusal stopped it (the
    results before it kept; raised again, with its class and exit status, by the client)."""
    text, source, name, board, rules_data, seconds, memory, batch = task
    results: list[list[Any]] = []
    try:
        puzzle, known = _puzzle(text, source, name, board)
        rules = rules_from_json(rules_data)
        limits = _Held(time=None, memory=memory)
        # the command's deadline by the wall clock (tasks wait in a queue before they run)
        deadline = None if seconds is None else Deadline(
            time.monotonic() + max(0.0, seconds[0] - time.time()), seconds[1])
        for number, solution in batch_from_json(batch, known):
            done = disassemble_solution(puzzle, solution, rules,
                                        f"{puzzle.name}: assembly {number}", limits, deadline)
            # the order its moves number the pieces in, as places in the assembly it took
            # apart (BurrTools' image of it where it comes apart: image.py)
            where = {id(p): k for k, p in enumerate(done.solution.placements)}
            results.append([number, separation_json(done.separation),
                            [where[id(p)] for p in done.placements]])
        return {"results": results}
    except PuzzleboxError as error:
        kind = type(error)
        return {"results": results, "error": [kind.__module__, kind.__qualname__, str(error)]}


def _raise(error: list[str]) -> None:
    module, qualname, message = error
    kind: Any = PuzzleboxError
    try:
        found = importlib.import_module(module)
        for part in qualname.split("."):
            found = getattr(found, part)
        if isinstance(found, type) and issubclass(found, PuzzleboxError):
            kind = found
    except (ImportError, AttributeError):
        pass
    raised = kind.__new__(kind)
    Exception.__init__(raised, message)
    raise raised


# -- the checkpoint ------------------------------------------------------------------------

def fingerprint(origin: Origin, rules: Rules, codes: Codes, coded: list[list[int]]) -> str:
    """The run a checkpoint belongs to: the file's text, the board, the rules and every
    assembly (in its order), as ``coded`` numbers of ``codes``' placements."""
    digest = hashlib.sha256(json.dumps([origin.text, origin.board, rules_json(rules)],
                                       sort_keys=True).encode("utf-8"))
    for placement in codes.placements:
        digest.update(json.dumps([placement.piece, placement.cells]).encode("utf-8"))
    digest.update(b"\0")
    for numbers in coded:
        digest.update(array("q", numbers).tobytes())
        digest.update(b"\0")
    return digest.hexdigest()


class DisassemblyCheckpoint:
    """The results kept in ``path`` (read at once: assembly number to separation as JSON)
    and the file to append new ones to (parallel/journal.py)."""

    def __init__(self, path: str | Path, fingerprint: str) -> None:
        self.journal = Journal(path, MAGIC, VERSION, fingerprint, _entry,
                               DisassemblyCheckpointError, "disassembly",
                               "puzzle, board or rules")
        self.results: dict[int, Any] = {}
        for number, separation in self.journal.entries:
            self.results.setdefault(number, separation)

    def start(self) -> None:
        """Write the first line of a new file (and drop a line cut short at the end)."""
        self.journal.start()

    def record(self, number: int, separation: Any) -> None:
        """Append assembly ``number``'s result (one already recorded is not written again)."""
        if number in self.results:
            return
        self.journal.append({"assembly": number, "separation": separation})
        self.results[number] = separation

    def close(self) -> None:
        self.journal.close()


def _entry(result: dict[str, Any]) -> tuple[int, Any]:
    """One line's result: the assembly's number and its separation (checked by reading it)."""
    separation_from_json(result["separation"])
    return int(result["assembly"]), result["separation"]


_piece = attrgetter("piece")


# -- the run -------------------------------------------------------------------------------

@dataclass(frozen=True)
class DisassemblyProgress:
    """One update of a split take-apart: assemblies found, done (resumed ones included) and
    taken apart (come apart) so far."""

    elapsed: float
    assemblies: int
    taken: int  # assemblies done so far (resumed ones included)
    apart: int  # of them, those that come apart
    resumed: int
    workers: int
    done: bool = False  # the last event: every assembly is done

    def json(self) -> dict[str, Any]:
        return {"event": "disassembly", "elapsed": round(self.elapsed, 3),
                "assemblies": self.assemblies, "assemblies_done": self.taken,
                "come_apart": self.apart, "resumed": self.resumed, "workers": self.workers,
                "done": self.done}

    def text(self) -> str:
        share = 100 * self.taken / self.assemblies if self.assemblies else 100.0
        return (f"{self.taken:,} of {self.assemblies:,} assemblies done ({share:.1f} %), "
                f"{self.apart:,} come apart, {self.elapsed:.1f} s")


def split_take_apart(puzzle: PolyominoPuzzle, origin: Origin, rules: Rules | None = None,
                     limits: HeldTo | None = None, engine: str = "auto", *, jobs: int = 1,
                     cluster: str | None = None, checkpoint: str | None = None,
                     on_progress: Callable[[DisassemblyProgress], None] | None = None,
                     batch: int | None = None) -> Iterator[Disassembled]:
    """Each assembly of ``puzzle`` taken apart, as :func:`~puzzlebox.disassembly.assemblies.
    take_apart` gives them (the same order and results), shared out over ``jobs`` processes
    or the Dask scheduler at ``cluster``, with ``checkpoint`` recorded and resumed (see the
    module's docstring). ``origin`` is where workers rebuild ``puzzle`` from; ``batch``
    assemblies per task (None: about four rounds of tasks for each worker, at most
    :data:`MOST_BATCH`)."""
    rules = rules if rules is not None else Rules()
    dims = check_slides(puzzle, puzzle.name)
    began = time.perf_counter()
    deadline = None if limits is None or limits.time is None else Deadline.after(limits.time)
    run: dict[str, Any] = {} if limits is None else {"limits": limits}
    assemblies = [cast(PolyominoSolution, s)
                  for s in puzzle.distinct_solutions(engine=engine, **run)]
    codes = Codes()
    coded = [codes.of(s) for s in assemblies]
    book = None if checkpoint is None else DisassemblyCheckpoint(
        checkpoint, fingerprint(origin, rules, codes, coded))
    backend: Any = None
    try:
        held: dict[int, Any] = {}
        orders: dict[int, list[int]] = {}  # the order of each assembly's placements, by number
        if book is not None:
            book.start()
            held.update(book.results)
        resumed = sum(1 for n in held if 1 <= n <= len(assemblies))
        todo = [n for n in range(1, len(assemblies) + 1) if n not in held]
        if cluster is not None:
            backend = DaskBackend(cluster, take_apart_batch)
        elif jobs > 1 and todo:
            backend = ProcessBackend(jobs, take_apart_batch, share=False)
        else:
            backend = SerialBackend(take_apart_batch)
        workers = backend.workers
        size = batch or max(1, min(MOST_BATCH, len(todo) // (4 * max(1, workers)) or 1))
        memory = None if limits is None else limits.memory
        tasks = []
        for k in range(0, len(todo), size):
            numbers = todo[k:k + size]
            left = None if deadline is None else (
                time.time() + deadline.at - time.monotonic(), deadline.seconds)
            tasks.append((k // size, (origin.text, origin.source, origin.name, origin.board,
                                      rules_json(rules), left, memory,
                                      batch_json(codes, [(n, coded[n - 1]) for n in numbers]))))
        apart = sum(1 for n, s in held.items() if s is not None and 1 <= n <= len(assemblies))
        last = [0.0]

        def progress(finished: bool = False) -> None:
            if on_progress is None:
                return
            now = time.perf_counter()
            if not finished and now - last[0] < 0.25:
                return
            last[0] = now
            on_progress(DisassemblyProgress(now - began, len(assemblies), len(held), apart,
                                            resumed, workers, finished))

        def given(number: int) -> Disassembled:
            solution = assemblies[number - 1]
            order = orders.pop(number, None)  # None: a result the checkpoint kept
            if held[number] is not None:  # taken apart as BurrTools' image (image.py)
                solution = burrtools_image(puzzle, solution)
            placements = in_order(puzzle, solution, dims) if order is None else \
                tuple(map(solution.placements.__getitem__, order))
            return Disassembled(solution, tuple(map(_piece, placements)),
                                separation_from_json(held[number]), placements)

        following = 1  # the next assembly to give out, in order
        answered: set[int] = set()
        failed: dict[int, list[str]] = {}  # a limit met, by batch: raised once every
        # earlier batch is in, the earliest one's (one process meets that one first)
        progress()
        for index, answer in backend.run(tasks):
            answered.add(index)
            if "error" in answer:
                failed[index] = answer["error"]
            for number, separation, order in answer["results"]:
                held[number] = separation
                orders[number] = order
                if separation is not None:
                    apart += 1
                if book is not None:
                    book.record(number, separation)
            progress()
            while following in held and following <= len(assemblies):
                yield given(following)
                following += 1
            if failed and all(k in answered for k in range(min(failed))):
                _raise(failed[min(failed)])
            if deadline is not None and deadline.at <= time.monotonic():
                raise OutOfTime(f"{puzzle.name}: the disassembly stopped at its time limit "
                                f"({deadline.seconds:g} s)")
        while following <= len(assemblies):
            yield given(following)
            following += 1
        progress(True)
    finally:
        if backend is not None:
            backend.close()
        if book is not None:
            book.close()
