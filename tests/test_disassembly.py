"""Disassembly (issue #24) against an independent brute force on small made-up assemblies.

The brute force knows nothing of blocking caches, closed groups or levels: it tries every
group of pieces, every direction and every distance, checks the cells directly, and walks
the positions breadth first. It answers: can the pieces be taken apart completely, and how
many moves does the first separation take at the fewest.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from itertools import combinations

import pytest

from puzzlebox.disassembly import DisassemblyTooBig, disassemble
from puzzlebox.engine import kernel_choice

Cell = tuple[int, int, int]


def _cells(piece: Sequence[Sequence[int]]) -> frozenset[Cell]:
    return frozenset((c[0], c[1], c[2] if len(c) > 2 else 0) for c in piece)


def _shift(piece: frozenset[Cell], v: Cell) -> frozenset[Cell]:
    return frozenset((x + v[0], y + v[1], z + v[2]) for x, y, z in piece)


def _escapes(moving: list[frozenset[Cell]], rest: list[frozenset[Cell]], v: Cell) -> bool:
    """Can the union ``moving`` slide along ``v`` for ever without meeting ``rest``?"""
    mine = frozenset().union(*moving)
    theirs = frozenset().union(*rest)
    span = 2 + max(abs(a) for c in mine | theirs for a in c) * 2
    return all(not (_shift(mine, (v[0] * k, v[1] * k, v[2] * k)) & theirs)
               for k in range(1, span + 1))


def _slides(moving: list[frozenset[Cell]], rest: list[frozenset[Cell]], v: Cell) -> int:
    """How many units ``moving`` can slide along ``v`` (capped) without meeting ``rest``."""
    mine = frozenset().union(*moving)
    theirs = frozenset().union(*rest)
    k = 0
    while k < 12 and not (_shift(mine, (v[0] * (k + 1), v[1] * (k + 1), v[2] * (k + 1)))
                          & theirs):
        k += 1
    return k


def _directions(dims: int) -> list[Cell]:
    out = []
    for axis in range(dims):
        for sign in (1, -1):
            v = [0, 0, 0]
            v[axis] = sign
            out.append((v[0], v[1], v[2]))
    return out


def brute(pieces: list[frozenset[Cell]], dims: int) -> tuple[bool, int | None]:
    """(comes apart completely, fewest moves to the first separation or None). Like the
    thorough search, it does not move on from a position where a group can leave."""
    n = len(pieces)
    if n < 2:
        return True, None
    start = tuple(pieces)
    seen = {_key(start)}
    front = [start]
    depth = 0
    first: int | None = None
    apart = False
    while front and depth < 40:
        nxt = []
        for state in front:
            moves = []
            escaped = False
            for size in range(1, n):
                for group in combinations(range(n), size):
                    moving = [state[i] for i in group]
                    rest = [state[i] for i in range(n) if i not in group]
                    for v in _directions(dims):
                        if _escapes(moving, rest, v):
                            if first is None:
                                first = depth + 1
                            if not apart and brute(moving, dims)[0] and brute(rest, dims)[0]:
                                apart = True
                            escaped = True
                            continue
                        for k in range(1, _slides(moving, rest, v) + 1):
                            new = list(state)
                            for i in group:
                                new[i] = _shift(state[i], (v[0] * k, v[1] * k, v[2] * k))
                            moves.append(tuple(new))
            if escaped:
                continue  # a position that falls apart is not moved on from (as the search)
            for new_state in moves:
                key = _key(new_state)
                if key not in seen:
                    seen.add(key)
                    nxt.append(new_state)
        front = nxt
        depth += 1
    return apart, first


def _key(state: tuple[frozenset[Cell], ...]) -> tuple[frozenset[Cell], ...]:
    """A position up to a common translation: everything relative to piece 0's least cell."""
    base = min(state[0])
    return tuple(_shift(p, (-base[0], -base[1], -base[2])) for p in state)


def _first_number(level: str) -> int:
    return int(level.split(".")[0])


# -- hand-made cases ---------------------------------------------------------------------

U = [(0, 0), (1, 0), (2, 0), (0, 1), (2, 1)]
RING = [(x, y) for x in range(3) for y in range(3) if (x, y) != (1, 1)]
# a box with an L-shaped channel: the block must go right, then up
CHANNEL = [(0, 0), (0, 1), (0, 2), (1, 0), (1, 2), (2, 0), (3, 0), (3, 1), (3, 2)]


def test_block_in_a_u_leaves_in_one_move() -> None:
    found = disassemble([U, [(1, 1)]], dims=2)
    assert found is not None
    assert found.level == "1"
    assert [m.text() for m in found.all_moves()] == ["1 +y out"]


def test_two_interlocked_pieces_cannot_part() -> None:
    assert disassemble([RING, [(1, 1)]], dims=2) is None
    # in space: an L of three cubes through two faces of a 3 x 3 x 3 block holding it
    ell = [(1, 1, 1), (2, 1, 1), (1, 1, 2)]
    block = [(x, y, z) for x in range(3) for y in range(3) for z in range(3)
             if (x, y, z) not in ell]
    assert brute([_cells(block), _cells(ell)], 3) == (False, None)
    assert disassemble([block, ell]) is None
    # a straight bar through the same block slides out
    bar = [(1, 1, 1), (2, 1, 1)]
    rest = [(x, y, z) for x in range(3) for y in range(3) for z in range(3)
            if (x, y, z) not in bar]
    found = disassemble([rest, bar])
    assert found is not None and found.level == "1"


def test_a_channel_takes_two_moves() -> None:
    found = disassemble([CHANNEL, [(1, 1)]], dims=2)
    assert found is not None
    assert found.level == "2"
    assert [m.text() for m in found.all_moves()] == ["1 +x 1", "1 +y out"]
    assert brute([_cells(CHANNEL), _cells([(1, 1)])], 2) == (True, 2)


def test_three_pieces_need_two_moves() -> None:
    # a frame with two openings, a bar and a domino inside: the domino must first slide
    # left, then it rises out; the bar rises one unit and the frame is off
    frame = [(0, 0), (0, 1), (0, 3), (0, 4), (1, 0), (2, 0), (2, 4), (3, 4), (4, 0), (4, 1),
             (4, 2), (4, 3), (4, 4)]
    bar, domino = [(1, 1), (2, 1), (3, 1)], [(3, 2), (3, 3)]
    pieces = [frame, bar, domino]
    assert brute([_cells(p) for p in pieces], 2) == (True, 2)
    found = disassemble(pieces, dims=2)
    assert found is not None
    assert found.level == "2.2"
    assert [m.text() for m in found.all_moves()] == [
        "2 -x 2", "2 +y out", "1 +y 1", "0 +x out"]
    assert found.removed_pieces == (2,)


def test_fixed_frame_never_moves() -> None:
    found = disassemble([CHANNEL, [(1, 1)]], dims=2, fixed=[0])
    assert found is not None
    assert all(0 not in move.pieces for move in found.all_moves())


def test_a_group_may_stay_together() -> None:
    assert disassemble([RING, [(1, 1)]], dims=2, groups=[{0, 1}]) is None  # nothing to do
    three = [RING, [(1, 1)], [(0, 3), (1, 3)]]
    assert disassemble(three, dims=2) is None
    found = disassemble(three, dims=2, groups=[{0, 1}])
    assert found is not None and found.level == "1"


def test_state_limit_refuses_in_one_line() -> None:
    with pytest.raises(DisassemblyTooBig) as error:
        disassemble([CHANNEL, [(1, 1)]], dims=2, max_states=1, label="x.txt")
    assert "x.txt" in str(error.value) and "\n" not in str(error.value)
    assert error.value.exit_status == 3


def test_time_limit_refuses_in_one_line() -> None:
    # a closed frame with room inside: thousands of positions, none that parts
    frame = [(x, y) for x in range(9) for y in range(9) if x in (0, 8) or y in (0, 8)]
    pieces = [frame, [(1, 1), (2, 1)], [(4, 4)], [(6, 6), (6, 5)]]
    for backend in kernel_choice.available():
        with pytest.raises(DisassemblyTooBig) as error:
            _with_kernels(backend, pieces, dims=2, max_seconds=0, label="x.txt")
        assert "x.txt" in str(error.value) and "time" in str(error.value)
        assert "\n" not in str(error.value)
    assert _with_kernels(kernel_choice.available()[0], pieces, dims=2) is None


def test_overlapping_pieces_are_a_bug_not_an_answer() -> None:
    with pytest.raises(ValueError):
        disassemble([[(0, 0)], [(0, 0)]], dims=2)


# -- random small assemblies against the brute force -------------------------------------

def _random_partition(rng: random.Random, size: tuple[int, int, int],
                      parts: int) -> list[frozenset[Cell]]:
    """Cut a box into ``parts`` connected pieces by growing them from random seeds."""
    cells = [(x, y, z) for x in range(size[0]) for y in range(size[1]) for z in range(size[2])]
    owner: dict[Cell, int] = {}
    for index, seed in enumerate(rng.sample(cells, parts)):
        owner[seed] = index
    while len(owner) < len(cells):
        cell = rng.choice(list(owner))
        x, y, z = cell
        free = [c for c in ((x + 1, y, z), (x - 1, y, z), (x, y + 1, z), (x, y - 1, z),
                            (x, y, z + 1), (x, y, z - 1)) if c in cells and c not in owner]
        if free:
            owner[rng.choice(free)] = owner[cell]
    pieces = [frozenset(c for c, o in owner.items() if o == k) for k in range(parts)]
    return pieces


def _framed(rng: random.Random) -> list[frozenset[Cell]]:
    """A 5 x 5 frame with one to three openings holding two pieces with room to move."""
    border = [(x, y, 0) for x in range(5) for y in range(5) if x in (0, 4) or y in (0, 4)]
    sides = [c for c in border if c[0] not in (0, 4) or c[1] not in (0, 4)]
    holes = set(rng.sample(sides, rng.choice((1, 2, 3))))
    frame = frozenset(c for c in border if c not in holes)
    inner = _random_partition(rng, (3, 3, 1), 3)[:2]
    return [frame] + [frozenset((x + 1, y + 1, 0) for x, y, _ in q) for q in inner]


# 80 framed cases: about half locked, some that part but lock after the split, some that
# come apart in one or two moves
FRAMED = range(80)


@pytest.mark.parametrize("case", [f"box{s}" for s in range(30)] + [f"frame{s}" for s in FRAMED])
def test_random_assemblies_agree_with_brute_force(case: str) -> None:
    seed = int(case.lstrip("boxframe"))
    rng = random.Random(seed)
    dims = 2
    if case.startswith("frame"):
        pieces = _framed(rng)
    elif seed % 2:
        pieces = _random_partition(rng, (4, 4, 1), 3)
    else:
        pieces, dims = _random_partition(rng, (3, 2, 2), 3), 3
    apart, first = brute(pieces, dims)
    thorough = disassemble(pieces, dims=dims, thorough=True)
    assert (thorough is not None) == apart
    quick = disassemble(pieces, dims=dims)
    if quick is not None:
        assert apart
        assert _first_number(quick.level) == first
    if thorough is not None:
        assert _first_number(thorough.level) >= (first or 0)


# -- the compiled search and step against the Python reference -----------------------------
#
# The C extension (_cdisasm.c) runs the whole breadth-first search and the step of thorough
# searches, numba's kernel (_kernel.py) the step under the Python loop where C is not built;
# both are checked against the Python reference of the step (search.py), which they port.


def _with_kernels(backend: str, pieces: list[frozenset[Cell]], **options: object) -> object:
    """disassemble() with ``backend``'s compiled code (C: the whole search; numba: the step)."""
    kernel_choice.use(backend)
    try:
        return disassemble(pieces, **options)  # type: ignore[arg-type]
    finally:
        kernel_choice.use(None)

def _big_frame(rng: random.Random, keep: int) -> list[frozenset[Cell]]:
    """A 7 x 7 frame with two or three openings holding ``keep`` pieces of a 5 x 5 square
    cut in seven: some need several moves and levels like 1.3.1.2.2, most lock."""
    border = [(x, y, 0) for x in range(7) for y in range(7) if x in (0, 6) or y in (0, 6)]
    sides = [c for c in border if c[0] not in (0, 6) or c[1] not in (0, 6)]
    holes = set(rng.sample(sides, rng.choice((2, 3))))
    frame = frozenset(c for c in border if c not in holes)
    inner = _random_partition(rng, (5, 5, 1), 7)[:keep]
    return [frame] + [frozenset((x + 1, y + 1, 0) for x, y, _ in q) for q in inner]


@pytest.mark.parametrize("seed", range(6))
def test_compiled_step_gives_the_python_references_moves(seed: int) -> None:
    """The C search and the numba step (blocking matrix in one pass, movement analysis)
    and the reference in search.py must find the same separations in the same order, so
    the same moves."""
    rng = random.Random(1000 + seed)
    cases = [(_random_partition(rng, (4, 3, 3), 5), 3), (_framed(rng), 2),
             (_random_partition(rng, (5, 4, 1), 4), 2)]
    for pieces, dims in cases:
        fixed = [0] if seed % 3 == 0 else []
        for thorough in (False, True):
            slow = disassemble(pieces, dims=dims, fixed=fixed, thorough=thorough,
                               compiled=False)
            for backend in kernel_choice.available():
                fast = _with_kernels(backend, pieces, dims=dims, fixed=fixed,
                                     thorough=thorough)
                assert fast == slow, backend


@pytest.mark.parametrize("seed", [0, 3, 12, 17])  # searches of 150 to 300+ positions
def test_compiled_step_agrees_position_by_position(seed: int) -> None:
    """Breadth first over the positions of a locked frame puzzle (hundreds of them), the
    C step's and numba's separations, moves and next positions equal the reference's at
    every one."""
    from puzzlebox.disassembly import search
    from puzzlebox.disassembly.search import _arrays, _Budget, _Part, _Solver

    rng = random.Random(2000 + seed)
    pieces = _arrays(_big_frame(rng, 4 + seed % 2))
    budget = _Budget(10**6, None, "test")
    fast = []
    for backend in kernel_choice.available():
        if backend == kernel_choice.C and search._cdisasm is None:
            continue  # the engines' C kernels built, the disassembly's not: numba's step runs
        kernel_choice.use(backend)
        try:
            solver = _Solver(2, pieces, [0] if seed % 2 else [], [], False, budget)
        finally:
            kernel_choice.use(None)
        part = _Part(solver, tuple(range(len(pieces))))
        assert (part.native if backend == kernel_choice.C else part.kernel) is not None
        fast.append(part)
    slow = _Part(_Solver(2, pieces, [0] if seed % 2 else [], [], False, budget, False),
                 tuple(range(len(pieces))))
    assert slow.kernel is None and slow.native is None
    start = (0,) * (3 * len(pieces))
    seen, queue, compared, moving = {start}, [start], 0, 0
    while queue and compared < 300:
        pos = queue.pop(0)
        theirs = slow.expand(pos)
        for part in fast:
            assert part.expand(pos) == theirs
        compared += 1
        moving += len(theirs[1])
        for new, _ in theirs[1]:
            if new not in seen:
                seen.add(new)
                queue.append(new)
    assert compared > 100 and moving > compared  # a real search, not one stuck position


def test_groups_merge_with_the_newest_first_as_burrtools() -> None:
    """Three pieces in pockets of a comb, each free to slide one cell +x: BurrTools (its
    ``movementAnalysator_c::find``, merging each new group with the groups met before it,
    newest first: its ``countingNodeHash`` adds at the head of a list) moves P1, P2, then
    P1+P2, P3, then P3 with P1+P2, with P2, with P1. Found so: aracna (Eyckmans) came
    apart as 13.1.2 where ``burrTxt -d`` says 13.1.3 (merged oldest first, the 12th move
    took D, F, H along where BurrTools' took D, E, F, H, K, L). Every backend alike."""
    from puzzlebox.disassembly import search
    from puzzlebox.disassembly.search import _arrays, _Budget, _Part, _Solver

    wall = frozenset([(0, y, 0) for y in range(7)] + [(3, y, 0) for y in range(7)]
                     + [(x, y, 0) for x in (1, 2) for y in (0, 2, 4, 6)])
    pieces = _arrays([wall] + [frozenset({(1, y, 0)}) for y in (1, 3, 5)])
    budget = _Budget(10**6, None, "test")
    parts = [_Part(_Solver(2, pieces, [], [], False, budget, False), (0, 1, 2, 3))]
    for backend in kernel_choice.available():
        if backend == kernel_choice.C and search._cdisasm is None:
            continue
        kernel_choice.use(backend)
        try:
            parts.append(_Part(_Solver(2, pieces, [], [], False, budget), (0, 1, 2, 3)))
        finally:
            kernel_choice.use(None)
    for part in parts:
        splits, moves = part.expand((0,) * 12)
        assert splits == []
        right = [mask for _, (mask, direction, distance) in moves
                 if direction == 0 and distance == 1]
        assert right == [0b0010, 0b0100, 0b0110, 0b1000, 0b1110, 0b1100, 0b1010]
