"""The n-queens bitmask fast path against known values and a brute-force oracle of its own."""

from __future__ import annotations

import pytest

from puzzlebox.engine.queens_bitmask import count_queens, fixed_by_rotation, queens_counts
from puzzlebox.puzzles.queens import QueensPuzzle

# OEIS A000170 and A002562
ALL = [1, 0, 0, 2, 10, 4, 40, 92, 352, 724, 2680, 14200, 73712, 365596]
DISTINCT = [1, 0, 0, 1, 2, 1, 6, 12, 46, 92, 341, 1787, 9233, 45752]


def brute_force(n: int) -> list[tuple[int, ...]]:
    """Every solution as the column of the queen in each row, by plain backtracking."""
    found: list[tuple[int, ...]] = []

    def go(cols: list[int]) -> None:
        r = len(cols)
        if r == n:
            found.append(tuple(cols))
            return
        for c in range(n):
            if all(c != q and abs(c - q) != r - i for i, q in enumerate(cols)):
                go(cols + [c])

    go([])
    return found


def images(n: int, cols: tuple[int, ...]) -> list[tuple[int, ...]]:
    """The solution under the eight symmetries of the square (identity first)."""
    cells = [(r, c) for r, c in enumerate(cols)]
    maps = [
        lambda r, c: (r, c),
        lambda r, c: (c, n - 1 - r),
        lambda r, c: (n - 1 - r, n - 1 - c),
        lambda r, c: (n - 1 - c, r),
        lambda r, c: (r, n - 1 - c),
        lambda r, c: (n - 1 - r, c),
        lambda r, c: (c, r),
        lambda r, c: (n - 1 - c, n - 1 - r),
    ]
    result = []
    for f in maps:
        moved = sorted(f(r, c) for r, c in cells)
        result.append(tuple(c for _, c in moved))
    return result


@pytest.mark.parametrize("n", range(1, 15))
def test_counts_match_known_values(n: int) -> None:
    raw, distinct, stats = queens_counts(n)
    assert (raw, distinct) == (ALL[n - 1], DISTINCT[n - 1])
    assert stats.engine == "queens-bitmask" and stats.solutions == raw and stats.complete
    assert stats.nodes >= raw


@pytest.mark.parametrize("n", range(1, 11))
def test_against_brute_force(n: int) -> None:
    solutions = brute_force(n)
    canonical = {min(images(n, s)) for s in solutions}
    assert int(count_queens(n)[0]) == len(solutions)
    assert queens_counts(n)[1] == len(canonical)
    for turns, index in ((1, 1), (2, 2)):
        fixed = sum(1 for s in solutions if images(n, s)[index] == s)
        assert fixed_by_rotation(n, turns) == fixed


def test_puzzle_count_uses_the_fast_path_only_under_auto() -> None:
    from puzzlebox.engine.registry import names

    if "queens-bitmask" not in names():
        pytest.skip("the queens-bitmask engine is not registered in this branch (its spec "
                    "comes with engine/queens_bitmask.py's step-wise search)")
    puzzle = QueensPuzzle("q8", 8)
    fast = puzzle.count()
    assert (fast.solutions, fast.distinct, fast.stats.engine) == (92, 12, "queens-bitmask")
    slow = puzzle.count(engine="reference")
    assert (slow.solutions, slow.distinct) == (92, 12)
    assert slow.stats.engine != "queens-bitmask"


def test_bad_arguments() -> None:
    with pytest.raises(ValueError):
        queens_counts(0)
    with pytest.raises(ValueError):
        fixed_by_rotation(8, 3)


@pytest.mark.slow
def test_sixteen_queens() -> None:
    assert int(count_queens(16)[0]) == 14_772_512
