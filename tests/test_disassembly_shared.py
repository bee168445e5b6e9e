"""What the take-aparts of one puzzle share (#35 item 1) gives the answers of each alone.

A book of shapes (disassembly/search.py's ``Shapes``, _cdisasm.c's book) keeps the free
distance between two shapes at an offset for every later assembly; ``disassemble_shaped``
makes an assembly's first breadth-first search straight from a shared book; ``take_apart``
hands the assemblies to its runner in batches. Each is checked against the search of one
assembly alone (its own pieces, nothing kept from before) and, on small random assemblies,
against the Python reference of the step, separation for separation (moves included).
"""

from __future__ import annotations

import random
from typing import cast

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from puzzlebox import catalog
from puzzlebox.disassembly import search
from puzzlebox.disassembly.assemblies import (
    Rules,
    arrange,
    check_slides,
    disassemble_solution,
    shared_book,
    take_apart,
)
from puzzlebox.disassembly.search import (
    DisassemblyTooBig,
    Shapes,
    disassemble,
    disassemble_shaped,
)
from puzzlebox.puzzles.polyomino import PolyominoSolution

Cell = tuple[int, int, int]

needs_c = pytest.mark.skipif(search._cdisasm is None, reason="the C search is not built")


def _assembly(seed: int, box: tuple[int, int, int], pieces: int, holes: int
              ) -> list[list[Cell]]:
    """A box cut into ``pieces`` connected pieces grown from random seeds, less ``holes``
    cells (so that pieces have room to slide), each piece as its cells."""
    rng = random.Random(seed)
    cells = [(x, y, z) for x in range(box[0]) for y in range(box[1]) for z in range(box[2])]
    owner: dict[Cell, int] = {}
    for k, cell in enumerate(rng.sample(cells, pieces)):
        owner[cell] = k
    while len(owner) < len(cells):
        x, y, z = rng.choice(list(owner))
        step = rng.choice([(1, 0, 0), (-1, 0, 0), (0, 1, 0), (0, -1, 0), (0, 0, 1), (0, 0, -1)])
        near = (x + step[0], y + step[1], z + step[2])
        if near in owner or not all(0 <= near[a] < box[a] for a in range(3)):
            continue
        owner[near] = owner[x, y, z]
    for cell in rng.sample(cells, holes):
        if sum(1 for c, k in owner.items() if k == owner.get(cell, -1)) > 1:
            del owner[cell]
    return [sorted(c for c, k in owner.items() if k == piece) for piece in range(pieces)]


# one book for every example: the distances kept from one assembly serve the next
_SHARED = Shapes(3)


@needs_c
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10**6), pieces=st.integers(2, 6), holes=st.integers(0, 5),
       fixed=st.booleans())
def test_a_shared_book_gives_what_each_assembly_gives_alone(seed: int, pieces: int, holes: int,
                                                            fixed: bool) -> None:
    import numpy as np

    cells = _assembly(seed, (3, 3, 2), pieces, holes)
    held = [0] if fixed else []
    options = {"dims": 3, "fixed": held, "max_states": 20_000}
    try:
        alone = disassemble(cells, **options)
    except DisassemblyTooBig:
        return  # loose pieces in a frame that never part: not this test's question
    reference = disassemble(cells, compiled=False, **options)
    shared = disassemble(cells, shapes=_SHARED, **options)
    arrays = [np.array(c, dtype=np.int64) for c in cells]
    lean = disassemble_shaped(arrays, _SHARED, **options)
    assert alone == reference
    assert shared == alone
    assert lean == alone
    thorough = disassemble(cells, thorough=True, **options)
    assert disassemble(cells, thorough=True, shapes=_SHARED, **options) == thorough


@needs_c
def test_the_catalog_burrs_come_apart_alike_with_and_without_the_book() -> None:
    """The three six-piece burrs (tests/test_burr_catalog.py has their published figures):
    every assembly taken apart through one book (the command line's way) and alone, the
    same separations, and the levels 1, 5 and 8.3."""
    for name, level in (("burr-305", "1"), ("burr-bills-baffling", "5"),
                        ("burr-computers-choice-4-hole", "8.3")):
        puzzle = catalog.load_file(name).puzzles[0]
        dims = check_slides(puzzle, name)
        shapes = Shapes(dims)
        levels = []
        for solution in puzzle.distinct_solutions():
            arranged = arrange(puzzle, solution, dims)
            alone = disassemble(arranged.pieces, dims=dims)
            assert disassemble(arranged.pieces, dims=dims, shapes=shapes) == alone
            assert disassemble_shaped(arranged.pieces, shapes, dims=dims) == alone
            done = disassemble_solution(puzzle, solution)  # BurrTools' image (image.py)
            assert (done.separation is None) == (alone is None)
            assert done.separation == disassemble(
                arrange(puzzle, cast(PolyominoSolution, done.solution), dims).pieces, dims=dims)
            levels.append(None if alone is None else alone.level)
        assert [lv for lv in levels if lv is not None] == [level]
        assert shapes.info()["shapes"] > 0 and shapes.info()["computed"] > 0


@needs_c
def test_a_book_at_its_memory_bound_begins_again_and_answers_alike() -> None:
    """Random assemblies through one book held to a small memory limit (a quarter of it
    for the book): its cache empties itself and begins again, and every separation is the
    one found alone."""
    import numpy as np

    shapes = Shapes(3)
    compared = 0
    for seed in range(60):
        cells = _assembly(seed, (3, 3, 2), 6, seed % 4)
        options = {"dims": 3, "max_states": 5_000}
        try:
            alone = disassemble(cells, **options)
            small = disassemble_shaped([np.array(c, dtype=np.int64) for c in cells], shapes,
                                       max_memory=200_000, **options)
        except DisassemblyTooBig:
            continue
        assert small == alone
        compared += 1
    assert compared > 40
    assert shapes.info()["cleared"] > 0


@needs_c
def test_a_renewed_book_answers_alike() -> None:
    """A full book is renewed (room for 16,384 shapes): an empty one gives the same."""
    puzzle = catalog.load_file("burr-bills-baffling").puzzles[0]
    dims = check_slides(puzzle, "burr")
    shapes = Shapes(dims)
    for solution in puzzle.distinct_solutions():
        arranged = arrange(puzzle, solution, dims)
        first = disassemble_shaped(arranged.pieces, shapes, dims=dims)
        shapes.renew()
        assert disassemble_shaped(arranged.pieces, shapes, dims=dims) == first


def _seen(found: object) -> list[tuple[str, ...]]:
    return [(d.names, d.level) for d in found]  # type: ignore[attr-defined]


def test_batches_give_the_same_assemblies_in_the_same_order() -> None:
    puzzle = catalog.load_file("framed-slack").puzzles[0]
    rules = Rules(fixed=frozenset(puzzle.disassembly.fixed)) if puzzle.disassembly else Rules()
    one = list(take_apart(puzzle, rules))
    runs: list[int] = []

    def runner(work):  # type: ignore[no-untyped-def]
        runs.append(1)
        return work()

    many = list(take_apart(puzzle, rules, on=runner, batch=8))
    assert [(d.solution, d.separation) for d in many] == [(d.solution, d.separation)
                                                          for d in one]
    assert len(one) == 48 and len(runs) < len(one)  # 1, 2, 4, then 8 at a time


def test_a_limit_met_in_a_batch_comes_after_the_assemblies_before_it() -> None:
    """An assembly past the state limit raises its one line after the assemblies before it
    have come, batch or not."""
    puzzle = catalog.load_file("framed-slack").puzzles[0]
    fixed = frozenset(puzzle.disassembly.fixed) if puzzle.disassembly else frozenset()
    rules = Rules(fixed=fixed, max_states=3)

    def upto(batch: int) -> tuple[list[object], str]:
        got: list[object] = []
        with pytest.raises(DisassemblyTooBig) as raised:
            for done in take_apart(puzzle, rules, batch=batch):
                got.append((done.solution, done.separation))
        return got, str(raised.value)

    assert upto(1) == upto(16)


@needs_c
@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10**6), pieces=st.integers(2, 5), far=st.integers(67, 95))
def test_pieces_far_apart_take_the_long_way_alike(seed: int, pieces: int, far: int) -> None:
    """A piece ``far`` cells away along x, on a line of the others: free distances of 64
    and more, which the C search closes one distinct distance at a time (its other way
    keeps masks by distance below 64): the Python reference's separation."""
    cells = _assembly(seed, (3, 3, 2), pieces, 2)
    cells.append([(far, 1, 0), (far + 1, 1, 0)])
    try:
        alone = disassemble(cells, max_states=5_000)
    except DisassemblyTooBig:
        return
    assert disassemble(cells, compiled=False, max_states=5_000) == alone
    assert disassemble(cells, shapes=_SHARED, max_states=5_000) == alone


@needs_c
def test_a_second_puzzle_of_the_same_pieces_finds_its_distances_in_the_book() -> None:
    """#34 item 3: a design search's worker tries design after design of the same pieces,
    each a puzzle of its own; the process's book keeps the distances between their shapes,
    so a second puzzle read afresh, taken apart after the first, works out none again and
    comes apart alike."""
    name = "burr-computers-choice-4-hole"
    first, second = (catalog.load_file(name).puzzles[0] for _ in range(2))
    assert first is not second
    dims = check_slides(first, name)
    book = shared_book(dims)
    levels = [disassemble_solution(first, s).level for s in first.distinct_solutions()]
    before = book.info()
    assert before["shapes"] > 0 and before["computed"] > 0
    again = [disassemble_solution(second, s).level for s in second.distinct_solutions()]
    after = book.info()
    assert again == levels and "8.3" in levels
    assert (after["shapes"], after["computed"]) == (before["shapes"], before["computed"])
