"""Moving pieces by hand (disassembly/browse.py, #36 item 3: the page's movement browser).

A slide is refused exactly where a brute force over the cells finds two pieces on one
cell, a take-out exactly where one meets another anywhere along the axis; the level from
the assembly is the one ``take_apart`` (and so ``moves`` and ``solve --disassemble``)
gives, and one move along the first move of the shortest separation leaves a level whose
first number is one less (the search is breadth first: the fewest moves).
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from typing import Any

import pytest

from puzzlebox.cli.puzzle import load
from puzzlebox.disassembly import browse
from puzzlebox.disassembly.assemblies import Disassembled, Rules, check_slides, take_apart

Cell = tuple[int, int, int]


def _xyz(cell: tuple[int, ...], dims: int) -> Cell:
    return (cell[1], cell[0], 0) if dims == 2 else (cell[2], cell[1], cell[0])


def assemblies(name: str) -> Iterator[tuple[Disassembled, list[list[Cell]], list[str],
                                              list[int], list[list[int]], int]]:
    """Each assembly of a catalog puzzle taken apart, with its pieces as the browser takes
    them (x y z cells in the order of ``done.names``), fixed pieces and groups by number."""
    puzzle: Any = load(name).puzzles[0]
    dims = check_slides(puzzle, name)
    declared = puzzle.disassembly
    rules = Rules(fixed=frozenset(declared.fixed) if declared else frozenset(),
                  groups=tuple(frozenset(g) for g in declared.groups) if declared else ())
    for done in take_apart(puzzle, rules):
        names = list(done.names)
        pieces = [[_xyz(c, dims) for c in p.cells] for p in done.placements]
        fixed = [k for k, n in enumerate(names) if n in rules.fixed]
        groups = [[k for k, n in enumerate(names) if n in g] for g in rules.groups]
        yield done, pieces, names, fixed, groups, dims


def _placed(pieces: list[list[Cell]], offsets: list[Cell], members: Any,
            shift: Cell = (0, 0, 0)) -> set[Cell]:
    return {(x + offsets[p][0] + shift[0], y + offsets[p][1] + shift[1],
             z + offsets[p][2] + shift[2]) for p in members for x, y, z in pieces[p]}


def _brute_hits(pieces: list[list[Cell]], offsets: list[Cell], part: list[int],
                group: list[int], direction: int, distances: range) -> bool:
    step = [0, 0, 0]
    step[direction >> 1] = -1 if direction & 1 else 1
    others = _placed(pieces, offsets, [p for p in part if p not in group])
    return any(_placed(pieces, offsets, group, (step[0] * k, step[1] * k, step[2] * k))
               & others for k in distances)


@pytest.mark.parametrize("name", ["framed-slack", "burr-bills-baffling"])
def test_the_level_at_the_assembly_is_the_take_aparts(name: str) -> None:
    seen = apart = 0
    for done, pieces, _, fixed, groups, dims in assemblies(name):
        seen += 1
        here = browse.outlook(pieces, [(0, 0, 0)] * len(pieces), range(len(pieces)), dims,
                              fixed, groups)
        assert not here.done
        assert here.level == done.level
        if done.separation is not None:
            apart += 1
            assert here.separation is not None
            assert ([m.text() for m in here.separation.all_moves()]
                    == [m.text() for m in done.separation.all_moves()])
    # count --disassemble's figures (docs/disassembly.md)
    assert (seen, apart) == {"framed-slack": (48, 34), "burr-bills-baffling": (24, 1)}[name]


@pytest.mark.parametrize("name", ["framed-slack", "burr-bills-baffling"])
def test_one_move_along_the_shortest_way_leaves_one_move_less(name: str) -> None:
    tried = 0
    for done, pieces, names, fixed, groups, dims in assemblies(name):
        if done.separation is None:
            continue
        first = done.separation.moves[0]
        group = list(first.pieces)
        direction = browse.DIRECTIONS[first.text().split()[1]]
        offsets = [(0, 0, 0)] * len(pieces)
        part = list(range(len(pieces)))
        if first.distance is None:  # the first move takes a part out: allowed here
            left, out = browse.take_out(pieces, offsets, part, group, direction, dims, names,
                                        fixed)
            assert sorted(out) == sorted(group) and sorted(left + out) == part
            continue
        for _ in range(first.distance):  # a move of k units passes through free cells
            offsets = browse.slide(pieces, offsets, part, group, direction, dims, names, fixed)
        after = browse.outlook(pieces, offsets, part, dims, fixed, groups)
        assert done.level is not None and after.level is not None
        assert int(after.level.split(".")[0]) == int(done.level.split(".")[0]) - 1
        tried += 1
    assert tried


def test_a_slide_is_refused_exactly_where_the_cells_collide() -> None:
    """Random walks of framed-slack's assemblies (the frame fixed, so only the loose pieces
    move) and of Bill's Baffling Burr, every step checked against a brute force."""
    rng = random.Random(36)
    refused = moved = out = 0
    for name in ("framed-slack", "burr-bills-baffling"):
        for number, (_, pieces, names, fixed, _, dims) in enumerate(assemblies(name)):
            if number >= 12:
                break
            offsets = [(0, 0, 0)] * len(pieces)
            part = list(range(len(pieces)))
            loose = [p for p in part if p not in fixed]
            span = 2 + max(abs(v) for piece in pieces for c in piece for v in c)
            for _ in range(40):
                group = sorted(rng.sample(loose, rng.randint(1, max(1, len(loose) // 2))))
                direction = rng.randrange(2 * dims)
                hits = _brute_hits(pieces, offsets, part, group, direction, range(1, 2))
                try:
                    offsets = browse.slide(pieces, offsets, part, group, direction, dims,
                                           names, fixed)
                    assert not hits
                    moved += 1
                except browse.MoveRefused as refusal:
                    assert hits, refusal
                    line = str(refusal)
                    assert "cannot move" in line and ("runs into" in line or "run into" in line)
                    refused += 1
                clear = not _brute_hits(pieces, offsets, part, group, direction,
                                        range(1, 4 * span))
                try:
                    browse.take_out(pieces, offsets, part, group, direction, dims, names,
                                    fixed)
                    assert clear
                    out += 1
                except browse.MoveRefused as refusal:
                    assert not clear and "in the way" in str(refusal)
    assert refused and moved and out


def test_what_the_browser_refuses_in_one_line() -> None:
    done, pieces, names, fixed, groups, dims = next(
        a for a in assemblies("framed-slack") if a[0].level == "2.3")
    zero = [(0, 0, 0)] * len(pieces)
    part = list(range(len(pieces)))
    frame, domino = names.index("Frame"), names.index("D")
    with pytest.raises(browse.MoveRefused, match=r"^Frame is fixed"):
        browse.slide(pieces, zero, part, [frame], 0, dims, names, fixed)
    with pytest.raises(browse.MoveRefused, match=r"^D cannot move \+x: it runs into Frame$"):
        browse.slide(pieces, zero, part, [domino], browse.DIRECTIONS["+x"], dims, names, fixed)
    with pytest.raises(browse.MoveRefused, match="no direction '\\+z': pieces slide"):
        browse.direction_of("+z", 2)
    with pytest.raises(browse.MoveRefused, match="whole part"):
        browse.slide(pieces, zero, part, part, 0, dims, names)
    moved = list(zero)
    moved[domino] = (0, 1, 0)
    with pytest.raises(browse.MoveRefused, match="overlap at"):
        browse.check_position(pieces, moved, part, names)
    # what is left once the domino is out: the frame with L and J, level 3 (docs/disassembly.md)
    offsets = browse.slide(pieces, zero, part, [domino], browse.DIRECTIONS["-x"], dims, names)
    left, out = browse.take_out(pieces, offsets, part, [domino], browse.DIRECTIONS["-y"], dims,
                                names, fixed)
    assert out == [domino]
    assert browse.outlook(pieces, offsets, left, dims, fixed, groups).level == "3"
    assert browse.outlook(pieces, offsets, out, dims, fixed, groups).done


def _cli(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    from puzzlebox.cli import main

    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_moves_after_asks_the_same_of_the_command_line(capsys) -> None:
    """``puzzlebox moves FILE --solution N --after MOVES``: the browser's question on the
    command line, answered by the same library (replay, then outlook)."""
    code, out, _ = _cli(capsys, "moves", "framed-slack", "--solution", "6", "--after",
                        "D -x 1; D -y out")
    assert code == 0
    assert out.splitlines() == [
        "framed-slack: assembly 6 after D -x 1; D -y out",
        "Frame L J: comes apart from here at level 3 in 4 moves",
        "   1. L -y 1", "   2. L -x 1", "   3. L -y out", "   4. J -y out",
        "D: one piece, done"]
    code, out, _ = _cli(capsys, "moves", "framed-slack", "--solution", "6", "--after",
                        "D -x 1", "--json")
    assert json.loads(out) == {
        "puzzle": "framed-slack", "solution": 6, "after": ["D -x 1"],
        "parts": [{"pieces": ["Frame", "L", "J", "D"], "done": False, "level": "1.3",
                   "moves": ["D -y out", "L -y 1", "L -x 1", "L -y out", "J -y out"]}]}
    # the first move of Bill's Baffling Burr by hand: one move less (level 5, then 4)
    code, out, _ = _cli(capsys, "moves", "burr-bills-baffling", "--after", "K103 -y 1")
    assert code == 0 and "comes apart from here at level 4 in 8 moves" in out
    for after, line in [
        ("D +x 1", "D cannot move +x: it runs into Frame"),
        ("D -x 2", "D cannot move -x: it runs into Frame"),
        ("Q +x 1", "move 'Q +x 1': 'Q' names no piece of the assembly (its pieces: Frame, L, "
                   "J, D)"),
        ("D -x", "move 'D -x': write the pieces, a direction and a distance or 'out', "
                 "e.g. 'D -x 1'"),
        ("D -x 0", "move 'D -x 0': the distance is 1 to 10000 units, or 'out'"),
        ("D +z 1", "no direction '+z': pieces slide +x, -x, +y, -y"),
        ("Frame +y 1", "Frame is fixed ([disassembly] fixed): move the other pieces"),
        ("D -x 1; D -y out; D L +y 1", "L, D are in different parts: take one part apart "
                                       "at a time"),
    ]:
        code, out, err = _cli(capsys, "moves", "framed-slack", "--solution", "6", "--after",
                              after)
        assert (code, out, err) == (2, "", f"puzzlebox: {line}\n"), after
    code, _, err = _cli(capsys, "moves", "framed-slack", "--after", "D -x 1", "--format",
                        "svg", "--out", "x.svg")
    assert code == 2 and "drop --format svg" in err
