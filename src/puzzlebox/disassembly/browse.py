"""Moving pieces by hand (#36 item 3, the page's movement browser): one piece or a group
slid one unit along an axis, refused where it would run into another piece; a group taken
out where nothing is in its way along the axis for ever; and, from wherever the pieces
stand, how what is left comes apart and at what level.

Everything is asked of the same parts as the search: a collision is the blocking relation
(:class:`~puzzlebox.disassembly.blocking.BlockingCache`: how far piece ``i`` can slide
past piece ``j`` at their offset), and the level from a position is
:func:`~puzzlebox.disassembly.search.disassemble` run on the pieces where they stand, so
that at the assembly it is the level ``puzzlebox moves`` and ``solve --disassemble`` give.

Pieces are given as the search takes them: each a list of (x, y, z) cells as assembled (x
the column, y the row, z the layer; z 0 on the square lattice), numbered in the puzzle's
order of pieces (:func:`~puzzlebox.disassembly.assemblies.arrange`), with an offset each.
A *part* is the set of pieces still together (the assembly, or a group taken out of it).
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass, replace

from puzzlebox.disassembly.blocking import FREE, BlockingCache
from puzzlebox.disassembly.search import (
    DEFAULT_MAX_STATES,
    Deadline,
    Move,
    Separation,
    disassemble,
    needs_work,
)
from puzzlebox.errors import PuzzleboxError

Cell = tuple[int, int, int]
Offset = tuple[int, int, int]
AXES = "xyz"
# directions as the blocking relation numbers them: 2 * axis up the axis, 2 * axis + 1 down
DIRECTIONS = {f"{sign}{axis}": 2 * k + (sign == "-") for k, axis in enumerate(AXES)
              for sign in "+-"}


class MoveRefused(PuzzleboxError):
    """A move the pieces cannot make (one line says why: the pieces in the way)."""


def direction_of(text: str, dims: int) -> int:
    """``+x``, ``-x``, ``+y``, ``-y`` (and ``+z``, ``-z`` on the cube lattice) as a number
    of the blocking relation, or a one-line refusal."""
    number = DIRECTIONS.get(text)
    if number is None or number >= 2 * dims:
        shown = ", ".join(d for d, n in DIRECTIONS.items() if n < 2 * dims)
        raise MoveRefused(f"no direction {text!r}: pieces slide {shown}")
    return number


def _unit(direction: int) -> Offset:
    step = [0, 0, 0]
    step[direction >> 1] = -1 if direction & 1 else 1
    return (step[0], step[1], step[2])


def _relative(offsets: Sequence[Offset], i: int, j: int) -> Offset:
    a, b = offsets[i], offsets[j]
    return (b[0] - a[0], b[1] - a[1], b[2] - a[2])


def _check(pieces: Sequence[Sequence[Cell]], offsets: Sequence[Offset],
           part: Collection[int], group: Collection[int], names: Sequence[str]) -> None:
    if len(offsets) != len(pieces):
        raise MoveRefused(f"{len(offsets)} offsets for {len(pieces)} pieces")
    if not group:
        raise MoveRefused("choose a piece or a group to move")
    outside = [p for p in (*part, *group) if not 0 <= p < len(pieces)]
    if outside:
        raise MoveRefused(f"no piece {outside[0]}")
    stray = [names[p] for p in group if p not in part]
    if stray:
        raise MoveRefused(f"{', '.join(stray)}: not in the part being taken apart")
    if set(group) >= set(part):
        raise MoveRefused("the whole part moved together stays where it is: choose fewer "
                          "pieces")
    check_position(pieces, offsets, part, names)


def check_position(pieces: Sequence[Sequence[Cell]], offsets: Sequence[Offset],
                   part: Collection[int], names: Sequence[str]) -> None:
    """Refused (one line) where two pieces of ``part`` stand on one cell."""
    if len(offsets) != len(pieces) or any(not 0 <= p < len(pieces) for p in part):
        raise MoveRefused(f"{len(offsets)} offsets for {len(pieces)} pieces")
    seen: dict[Cell, int] = {}
    for p in sorted(part):
        dx, dy, dz = offsets[p]
        for x, y, z in pieces[p]:
            cell = (x + dx, y + dy, z + dz)
            if cell in seen:
                raise MoveRefused(f"pieces {names[seen[cell]]} and {names[p]} overlap at "
                                  f"{list(cell)}")
            seen[cell] = p


def _unfixed(group: Collection[int], fixed: Collection[int], names: Sequence[str]) -> None:
    held = [names[p] for p in sorted(group) if p in fixed]
    if held:
        raise MoveRefused(f"{', '.join(held)} {'is' if len(held) == 1 else 'are'} fixed "
                          "([disassembly] fixed): move the other pieces")


def in_the_way(pieces: Sequence[Sequence[Cell]], offsets: Sequence[Offset],
               part: Collection[int], group: Collection[int], direction: int, dims: int,
               distance: int = 1) -> list[int]:
    """The pieces of ``part`` outside ``group`` that ``group`` would run into sliding
    ``distance`` units along ``direction`` (:data:`FREE`: for ever), in piece order."""
    cache = BlockingCache(pieces, dims)
    moving = set(group)
    hit = set()
    for i in moving:
        for j in part:
            if j in moving:
                continue
            if cache.free(i, j, _relative(offsets, i, j))[direction] < distance:
                hit.add(j)
    return sorted(hit)


def slide(pieces: Sequence[Sequence[Cell]], offsets: Sequence[Offset],
          part: Collection[int], group: Collection[int], direction: int, dims: int,
          names: Sequence[str], fixed: Collection[int] = ()) -> list[Offset]:
    """The offsets after ``group`` slides one unit along ``direction``; refused (one line
    naming what is in the way) where it would run into a piece of ``part``, and for a
    group that holds a fixed piece (a box or a frame stays put: move the others)."""
    _check(pieces, offsets, part, group, names)
    _unfixed(group, fixed, names)
    text = next(d for d, n in DIRECTIONS.items() if n == direction)
    hit = in_the_way(pieces, offsets, part, group, direction, dims)
    if hit:
        raise MoveRefused(f"{', '.join(names[p] for p in sorted(group))} cannot move {text}: "
                          f"{'it runs' if len(group) == 1 else 'they run'} into "
                          f"{', '.join(names[p] for p in hit)}")
    step = _unit(direction)
    return [(o[0] + step[0], o[1] + step[1], o[2] + step[2]) if p in group else o
            for p, o in enumerate(offsets)]


def take_out(pieces: Sequence[Sequence[Cell]], offsets: Sequence[Offset],
             part: Collection[int], group: Collection[int], direction: int, dims: int,
             names: Sequence[str], fixed: Collection[int] = ()) -> tuple[list[int], list[int]]:
    """``part`` split in two by taking ``group`` away along ``direction`` for good: (the
    pieces left, the pieces taken out), each in piece order; refused where a piece of
    ``part`` is in the way anywhere along that axis, and for a group that holds a fixed
    piece."""
    _check(pieces, offsets, part, group, names)
    _unfixed(group, fixed, names)
    text = next(d for d, n in DIRECTIONS.items() if n == direction)
    hit = in_the_way(pieces, offsets, part, group, direction, dims, distance=FREE)
    if hit:
        raise MoveRefused(f"{', '.join(names[p] for p in sorted(group))} cannot be taken out "
                          f"{text}: {', '.join(names[p] for p in hit)} "
                          f"{'is' if len(hit) == 1 else 'are'} in the way")
    moving = set(group)
    return sorted(p for p in part if p not in moving), sorted(moving)


@dataclass(frozen=True)
class Outlook:
    """How a part comes apart from where its pieces stand: ``done`` when it needs nothing
    more (one piece, only fixed pieces, one declared group); else ``separation`` (None:
    it does not come apart from here), its moves numbered by piece as given."""

    done: bool
    separation: Separation | None

    @property
    def level(self) -> str | None:
        return None if self.separation is None else self.separation.level


def outlook(pieces: Sequence[Sequence[Cell]], offsets: Sequence[Offset],
            part: Collection[int], dims: int, fixed: Collection[int] = (),
            groups: Sequence[Collection[int]] = (), max_states: int = DEFAULT_MAX_STATES,
            deadline: Deadline | None = None, max_memory: int | None = None,
            label: str = "what is left") -> Outlook:
    """How ``part`` comes apart from here: the search of
    :func:`~puzzlebox.disassembly.search.disassemble` (its limits, its errors) on its
    pieces where they stand, so that at the assembly it gives the assembly's level."""
    members = sorted(part)
    local = {p: k for k, p in enumerate(members)}
    fixed_here = [local[p] for p in members if p in fixed]
    groups_here = [[local[p] for p in g if p in local] for g in groups]
    if not needs_work(range(len(members)), fixed_here, groups_here):
        return Outlook(True, None)
    placed = [[(x + offsets[p][0], y + offsets[p][1], z + offsets[p][2])
               for x, y, z in pieces[p]] for p in members]
    found = disassemble(placed, dims=dims, fixed=fixed_here, groups=groups_here,
                        max_states=max_states, deadline=deadline, max_memory=max_memory,
                        label=label)
    if found is None:
        return Outlook(False, None)
    return Outlook(False, _renumbered(found, members))


def _renumbered(found: Separation, members: Sequence[int]) -> Separation:
    """A separation of a part's pieces (numbered 0, 1, ...) in the whole's numbers."""
    def back(pieces: tuple[int, ...]) -> tuple[int, ...]:
        return tuple(members[k] for k in pieces)

    return Separation(
        back(found.pieces),
        tuple(replace(m, pieces=back(m.pieces)) for m in found.moves),
        None if found.left is None else _renumbered(found.left, members),
        None if found.removed is None else _renumbered(found.removed, members),
        back(found.removed_pieces))


@dataclass(frozen=True)
class Step:
    """A move by hand: pieces (numbered), a direction (as :data:`DIRECTIONS` numbers
    them) and a distance in units, or None to take the pieces out."""

    group: tuple[int, ...]
    direction: int
    distance: int | None


def parse_steps(text: str, names: Sequence[str], dims: int) -> list[Step]:
    """Moves written as ``puzzlebox moves`` prints them, separated by ``;`` (``D -x 1;
    D -y out``; a group's pieces separated by spaces: ``S5 S6 +y 3``), with each name
    naming one piece of the assembly; a one-line refusal otherwise."""
    steps: list[Step] = []
    for written in text.split(";"):
        words = written.split()
        if not words:
            continue
        if len(words) < 3:
            raise MoveRefused(f"move {written.strip()!r}: write the pieces, a direction and "
                              "a distance or 'out', e.g. 'D -x 1'")
        *who, direction, far = words
        group = []
        for name in who:
            found = [k for k, n in enumerate(names) if n == name]
            if len(found) != 1:
                raise MoveRefused(
                    f"move {written.strip()!r}: {name!r} names "
                    f"{'no piece' if not found else f'{len(found)} pieces'} of the assembly "
                    f"(its pieces: {', '.join(dict.fromkeys(names))})")
            group.append(found[0])
        if far == "out":
            distance = None
        elif far.isdigit() and 0 < int(far) <= 10_000:
            distance = int(far)
        else:
            raise MoveRefused(f"move {written.strip()!r}: the distance is 1 to 10000 units, "
                              "or 'out'")
        steps.append(Step(tuple(sorted(set(group))), direction_of(direction, dims), distance))
    return steps


def replay(pieces: Sequence[Sequence[Cell]], names: Sequence[str], dims: int,
           steps: Sequence[Step], fixed: Collection[int] = ()
           ) -> tuple[list[Offset], list[list[int]]]:
    """The offsets and the parts after ``steps`` from the assembly: each step moves its
    pieces within the part that holds them all, one unit at a time (a move of ``k`` units
    passes through free cells), or takes them out of it (the part then splits in two, the
    part left first); refused, in one line, where a unit step collides, where the pieces
    are in several parts, or where they are fixed."""
    offsets: list[Offset] = [(0, 0, 0)] * len(pieces)
    parts: list[list[int]] = [list(range(len(pieces)))]
    for step in steps:
        holding = [k for k, part in enumerate(parts) if set(step.group) <= set(part)]
        if not holding:
            raise MoveRefused(f"{', '.join(names[p] for p in step.group)} are in different "
                              "parts: take one part apart at a time")
        part = parts[holding[0]]
        if step.distance is None:
            left, out = take_out(pieces, offsets, part, step.group, step.direction, dims,
                                 names, fixed)
            parts[holding[0]:holding[0] + 1] = [left, out]
            continue
        for _ in range(step.distance):
            offsets = slide(pieces, offsets, part, step.group, step.direction, dims, names,
                            fixed)
    return offsets, parts


def as_move(step: Step) -> Move:
    """A step as the search's :class:`~puzzlebox.disassembly.search.Move` (its words)."""
    return Move(step.group, _unit(step.direction), step.distance)
