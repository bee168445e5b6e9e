"""The six-piece burrs of the catalog (#24) against their published figures.

Source: Aaron N. Siegel's "Starter Burr Set" booklet (2020), which gives each puzzle as six
Känel numbers with its level and its number of solutions and assemblies. A Känel number k
names a 2x2x6 stick: of its 12 inner cubes (the ones other sticks may cross), cube i is cut
away when bit i - 1 of k - 1 is set (Bill Cutler's binary piece number, as IBM Research's
"Burr Puzzles" pages define it). The sticks are rebuilt here from that rule, independently
of the catalog files, and compared with the files' pieces up to rotation.

The booklet counts assemblies up to rotation with mirror images apart; puzzlebox counts up
to the puzzle's symmetries, which include a mirror only when the piece set is its own mirror
image. For these three sets it is not (checked below), so the two counts are the same.
BurrTools' ``burrTxt -d`` gives the same assemblies, solutions and levels (5, 8.3, 1) on the
same pieces (bench/burr_booklet.py writes the files and compares).
"""

from __future__ import annotations

import json
from collections import Counter
from itertools import permutations, product

import pytest

from puzzlebox import catalog
from puzzlebox.cli import main

Cell = tuple[int, int, int]

# name: (Känel numbers, level in the booklet, solutions, assemblies, level in BurrTools'
# notation as puzzlebox and burrTxt -d both find it)
PUBLISHED = {
    "burr-bills-baffling": ((103, 760, 960, 992, 996, 1024), 5, 1, 24, "5"),
    "burr-computers-choice-4-hole": ((369, 871, 928, 956, 1000, 1024), 8, 1, 5, "8.3"),
    "burr-305": ((52, 615, 792, 960, 975, 992), 1, 1, 1, "1"),
}

# Cutler's 12 inner cubes as (layer, row, col) of a 2x2x6 stick: the inner layer (1), whose
# middle four columns other sticks cross, holds cubes 1-4 in one row and 5-8 in the other;
# the outer layer (0) holds 9-10 and 11-12 in its middle two columns. An end-for-end turn
# swaps 1 and 8, 2 and 7, 3 and 6, 4 and 5, 9 and 12, 10 and 11 (Cutler's "usual flip").
INNER_CUBES = [(1, 0, 1), (1, 0, 2), (1, 0, 3), (1, 0, 4),
               (1, 1, 1), (1, 1, 2), (1, 1, 3), (1, 1, 4),
               (0, 0, 2), (0, 0, 3), (0, 1, 2), (0, 1, 3)]  # fmt: skip


def kaenel_stick(number: int) -> frozenset[Cell]:
    """The stick with Känel number ``number`` (1 is the uncut stick)."""
    cut = {INNER_CUBES[i] for i in range(12) if (number - 1) >> i & 1}
    whole = product(range(2), range(2), range(6))
    return frozenset(cell for cell in whole if cell not in cut)


def _rotations() -> list[tuple[tuple[int, int, int], tuple[int, int, int]]]:
    """The 24 turns of space as (axis order, signs) with determinant +1."""
    turns = []
    for order in permutations(range(3)):
        parity = sum(order[i] > order[j] for i in range(3) for j in range(i + 1, 3)) % 2
        for signs in product((1, -1), repeat=3):
            if (signs[0] * signs[1] * signs[2] == 1) == (parity == 0):
                turns.append((order, signs))
    return turns


TURNS = _rotations()


def _normal(cells: frozenset[Cell]) -> tuple[Cell, ...]:
    lows = [min(c[i] for c in cells) for i in range(3)]
    return tuple(sorted(tuple(c[i] - lows[i] for i in range(3)) for c in cells))  # type: ignore[misc]


def up_to_rotation(cells: frozenset[Cell]) -> tuple[Cell, ...]:
    """One name for a shape and all its turns: the least of their normal forms."""
    return min(_normal(frozenset(
        tuple(s * c[o] for o, s in zip(order, signs, strict=True)) for c in cells))  # type: ignore[misc]
        for order, signs in TURNS)  # fmt: skip


def mirror(cells: frozenset[Cell]) -> frozenset[Cell]:
    return frozenset((a, b, -c) for a, b, c in cells)


def test_the_numbering_rule_gives_cutlers_landmarks() -> None:
    """Känel 1 is the uncut stick; 1024 (binary piece number 000000000011) is the lightest
    usable piece, only cubes 11 and 12 left of the twelve; the end-for-end turn maps a
    stick's cuts as Cutler's flip says."""
    assert len(kaenel_stick(1)) == 24
    lightest = kaenel_stick(1024)
    assert len(lightest) == 14 and not {INNER_CUBES[i] for i in range(10)} & lightest
    flip = {INNER_CUBES[i - 1]: INNER_CUBES[j - 1]
            for i, j in [(1, 8), (2, 7), (3, 6), (4, 5), (9, 12), (10, 11)]}
    for a, b in flip.items():  # turning about the layers' axis: row and column reversed
        assert b == (a[0], 1 - a[1], 5 - a[2])


@pytest.mark.parametrize("name", sorted(PUBLISHED))
def test_the_pieces_are_the_published_kaenel_numbers(name: str) -> None:
    numbers = PUBLISHED[name][0]
    puzzle = catalog.load(name)
    found: Counter[tuple[Cell, ...]] = Counter()
    for piece in puzzle.pieces:
        assert piece.lo == piece.hi
        found[up_to_rotation(frozenset(piece.shape.cells))] += piece.lo
        assert piece.name.startswith("K") and int(piece.name[1:]) in numbers
        assert up_to_rotation(frozenset(piece.shape.cells)) == up_to_rotation(
            kaenel_stick(int(piece.name[1:])))
    assert found == Counter(up_to_rotation(kaenel_stick(k)) for k in numbers)
    # not its own mirror image: so puzzlebox's "up to symmetry" is "up to rotation"
    assert found != Counter(up_to_rotation(mirror(kaenel_stick(k))) for k in numbers)
    # the board is the six-piece burr: 104 cubes, the 32 where sticks cross may stay empty
    cells = puzzle.board
    assert len(cells) == 104 and sum(len(kaenel_stick(k)) for k in numbers) <= 104


@pytest.mark.parametrize("name", sorted(PUBLISHED))
def test_assemblies_and_level_as_published(name: str, capsys: pytest.CaptureFixture[str]) -> None:
    _, level, solutions, assemblies, burrtools_level = PUBLISHED[name]
    assert main(["count", name, "--json"]) == 0
    count = json.loads(capsys.readouterr().out)
    assert count["distinct"] == assemblies and count["solutions"] == 12 * assemblies
    assert main(["count", name, "--disassemble", "--json"]) == 0
    found = json.loads(capsys.readouterr().out)
    assert found["assemblies"] == assemblies and found["come_apart"] == solutions
    assert [lv["level"] for lv in found["levels"]] == [burrtools_level]
    assert int(burrtools_level.split(".")[0]) == level


def test_the_level_8_moves_replay(capsys: pytest.CaptureFixture[str]) -> None:
    """Computer's Choice 4-Hole: eight moves, each through free cubes only, before the
    first piece leaves."""
    assert main(["moves", "burr-computers-choice-4-hole", "--json"]) == 0
    obj = json.loads(capsys.readouterr().out)
    cells = [[tuple(c) for c in p["cells"]] for p in obj["placements"]]
    first_out = next(k for k, m in enumerate(obj["moves"]) if m["distance"] is None)
    assert first_out + 1 == 8 and obj["level"] == "8.3"
    for move in obj["moves"][:first_out]:
        moving = set(move["placements"])
        others = {c for k, piece in enumerate(cells) if k not in moving for c in piece}
        for _ in range(move["distance"]):
            for k in moving:
                cells[k] = [tuple(v + d for v, d in zip(c, move["direction"], strict=True))
                            for c in cells[k]]
                assert not set(cells[k]) & others, move
