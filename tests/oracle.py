"""Brute-force oracles, written independently of the library (own geometry, own search).

They are slow and simple: every test that checks a count against them compares two programs
that share no code.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable

Cell = tuple[int, int]


def _norm(cells: Iterable[tuple[Cell, str]]) -> tuple[tuple[Cell, str], ...]:
    cells = list(cells)
    r0 = min(r for (r, _), _ in cells)
    c0 = min(c for (_, c), _ in cells)
    return tuple(sorted(((r - r0, c - c0), k) for (r, c), k in cells))


def _images(cells, rotate: bool, reflect: bool):
    """All orientations by repeated quarter turns and a left-right mirror."""
    shapes = []
    base = list(cells)
    starts = [base]
    if reflect:
        starts.append([((r, -c), k) for (r, c), k in base])
    for s in starts:
        cur = s
        for _ in range(4 if rotate else 1):
            shapes.append(_norm(cur))
            cur = [((c, -r), k) for (r, c), k in cur]
    return set(shapes)


def polyomino_solutions(board: dict[Cell, str], pieces, rotate, reflect, match_colors):
    """Every solution as a frozenset of (piece name, frozenset of cells).

    ``pieces`` is a list of (name, {cell: colour}, lo, hi) with hi None for unlimited.
    """
    placements = {}
    for name, cells, _, _ in pieces:
        items = cells.items() if match_colors else [(c, "#") for c in cells]
        found = set()
        for shape in _images(items, rotate, reflect):
            for dr in range(-10, 12):
                for dc in range(-10, 12):
                    moved = [((r + dr, c + dc), k) for (r, c), k in shape]
                    if all(
                        cell in board and (not match_colors or board[cell] == k)
                        for cell, k in moved
                    ):
                        found.add(frozenset(cell for cell, _ in moved))
        placements[name] = sorted(found, key=sorted)
    bounds = {name: (lo, hi) for name, _, lo, hi in pieces}
    order = sorted(board)
    results = set()

    def go(covered: frozenset, used: dict, chosen: list):
        free = [c for c in order if c not in covered]
        if not free:
            if all(used[n] >= bounds[n][0] for n in used):
                results.add(frozenset(chosen))
            return
        first = free[0]
        for name in placements:
            hi = bounds[name][1]
            if hi is not None and used[name] >= hi:
                continue
            for cells in placements[name]:
                if first in cells and not (cells & covered):
                    used[name] += 1
                    chosen.append((name, cells))
                    go(covered | cells, used, chosen)
                    chosen.pop()
                    used[name] -= 1

    go(frozenset(), {name: 0 for name, *_ in pieces}, [])
    return results


def board_symmetries(board: dict[Cell, str], pieces, rotate, reflect, match_colors):
    """The symmetries of the whole puzzle, as the contract (puzzle-format.md) defines them:
    each a pair (cell map, piece renaming), for each of the 8 grid symmetries that keeps the
    board (and its colours when they must match) and sends every piece's set of orientations
    onto its own set, or else onto the set of exactly one other piece with the same count."""
    mats = [(1, 0, 0, 1), (0, 1, -1, 0), (-1, 0, 0, -1), (0, -1, 1, 0),
            (1, 0, 0, -1), (-1, 0, 0, 1), (0, 1, 1, 0), (0, -1, -1, 0)]  # fmt: skip
    out = []
    colored = [(c, k if match_colors else "#") for c, k in board.items()]
    sets = {}
    for name, cells, _, _ in pieces:
        items = list(cells.items()) if match_colors else [(x, "#") for x in cells]
        sets[name] = _images(items, rotate, reflect)
    bounds = {name: (lo, hi) for name, _, lo, hi in pieces}
    for a, b, c, d in mats:
        moved = [((a * r + b * q, c * r + d * q), k) for (r, q), k in colored]
        if _norm(moved) != _norm(colored):
            continue
        rename = {}
        for name, mine in sets.items():
            theirs = {
                _norm([((a * r + b * q, c * r + d * q), k) for (r, q), k in s]) for s in mine
            }
            if theirs == mine:
                rename[name] = name
                continue
            others = [m for m in sets if sets[m] == theirs and bounds[m] == bounds[name]]
            if len(others) == 1:
                rename[name] = others[0]
        if len(rename) != len(sets) or len(set(rename.values())) != len(sets):
            continue
        r0 = min(r for (r, _), _ in colored)
        c0 = min(q for (_, q), _ in colored)
        r1 = min(r for (r, _), _ in moved)
        c1 = min(q for (_, q), _ in moved)

        def f(cell, a=a, b=b, c=c, d=d, dr=r0 - r1, dc=c0 - c1):
            r, q = cell
            return (a * r + b * q + dr, c * r + d * q + dc)

        out.append((f, rename))
    return out


def distinct(solutions: set, maps) -> int:
    """Number of orbits, by keeping one canonical form per solution (``maps``: the pairs
    of :func:`board_symmetries`)."""

    def key(sol):
        return tuple(sorted((n, tuple(sorted(cells))) for n, cells in sol))

    forms = set()
    for sol in solutions:
        forms.add(
            min(
                key({(rename[n], frozenset(m(x) for x in cells)) for n, cells in sol})
                for m, rename in maps
            )
        )
    return len(forms)


def queens(n: int) -> tuple[int, int]:
    """(solutions, distinct) for n-queens by permutations."""
    sols = []
    for perm in itertools.permutations(range(n)):
        if len({r + c for r, c in enumerate(perm)}) == n and len(
            {r - c for r, c in enumerate(perm)}
        ) == n:
            sols.append(frozenset(enumerate(perm)))
    maps = [
        lambda r, c: (r, c), lambda r, c: (c, n - 1 - r), lambda r, c: (n - 1 - r, n - 1 - c),
        lambda r, c: (n - 1 - c, r), lambda r, c: (r, n - 1 - c), lambda r, c: (n - 1 - r, c),
        lambda r, c: (c, r), lambda r, c: (n - 1 - c, n - 1 - r),
    ]  # fmt: skip
    forms = {min(tuple(sorted(m(r, c) for r, c in s)) for m in maps) for s in sols}
    return len(sols), len(forms)


def edge_matching(rows, cols, cards: dict, rotate=True, complements=None, border=None):
    """(solutions, distinct) by trying every arrangement and turn of the cards."""
    comp = dict(complements or {})

    def faces(a, b):
        return b == comp.get(a) if comp else a == b

    def turn(labels, t):
        return tuple(labels[(i - t) % 4] for i in range(4))

    names = list(cards)
    # identical-looking turns of one card are one placement
    turns_of = {}
    for name in names:
        seen = {}
        for t in range(4 if rotate else 1):
            seen.setdefault(turn(cards[name], t), t)
        turns_of[name] = sorted(seen.values())
    cells = [(r, c) for r in range(rows) for c in range(cols)]
    sols = set()
    if len(names) != len(cells):
        return 0, 0
    for perm in itertools.permutations(names):
        for turns in itertools.product(*[turns_of[n] for n in perm]):
            grid = {cell: turn(cards[n], t) for cell, n, t in zip(cells, perm, turns)}
            ok = True
            for (r, c), (top, right, bottom, left) in grid.items():
                if c + 1 < cols and not faces(right, grid[(r, c + 1)][3]):
                    ok = False
                if r + 1 < rows and not faces(bottom, grid[(r + 1, c)][0]):
                    ok = False
                if border is not None:
                    for label, outer in ((top, r == 0), (bottom, r == rows - 1),
                                         (left, c == 0), (right, c == cols - 1)):  # fmt: skip
                        if outer and label != border:
                            ok = False
                if not ok:
                    break
            if ok:
                sols.add(frozenset((cell, n, t) for cell, n, t in zip(cells, perm, turns)))
    if not rotate:
        return len(sols), len(sols)

    def canon_turn(n, t):
        look = turn(cards[n], t % 4)
        return min(x for x in turns_of[n] if turn(cards[n], x) == look)

    def rot(sol, q):
        out = set()
        for (r, c), n, t in sol:
            for _ in range(q):
                r, c = c, rows - 1 - r
            out.add(((r, c), n, canon_turn(n, t + q)))
        return frozenset(out)

    def rot180(sol):
        return frozenset(
            ((rows - 1 - r, cols - 1 - c), n, canon_turn(n, t + 2)) for (r, c), n, t in sol
        )

    forms = set()
    for s in sols:
        images = [s, rot180(s)] + ([rot(s, 1), rot(s, 3)] if rows == cols else [])
        forms.add(min(tuple(sorted(i)) for i in images))
    return len(sols), len(forms)


def queens_variant(n: int, torus: bool = False, holes=frozenset(), givens=()) -> tuple[int, int]:
    """(solutions, distinct) of the queens variants by permutations: holes no queen takes,
    given queens every solution holds, diagonals that wrap on a torus; distinct up to the
    board maps (the square's eight, times the translations on a torus) that keep the
    squares a queen may take (not a hole, not attacked by a given)."""

    def attack(a, b):
        (r1, c1), (r2, c2) = a, b
        if r1 == r2 or c1 == c2:
            return True
        if torus:
            return (r1 + c1 - r2 - c2) % n == 0 or (r1 - c1 - r2 + c2) % n == 0
        return abs(r1 - r2) == abs(c1 - c2)

    sols = []
    for perm in itertools.permutations(range(n)):
        queens = list(enumerate(perm))
        if any(q in holes for q in queens) or not set(givens) <= set(queens):
            continue
        if all(not attack(a, b) for i, a in enumerate(queens) for b in queens[i + 1:]):
            sols.append(frozenset(queens))
    free = {(r, c) for r in range(n) for c in range(n) if (r, c) not in holes
            and ((r, c) in givens or not any(attack((r, c), g) for g in givens))}
    turns = [
        lambda r, c: (r, c), lambda r, c: (c, n - 1 - r), lambda r, c: (n - 1 - r, n - 1 - c),
        lambda r, c: (n - 1 - c, r), lambda r, c: (r, n - 1 - c), lambda r, c: (n - 1 - r, c),
        lambda r, c: (c, r), lambda r, c: (n - 1 - c, n - 1 - r),
    ]  # fmt: skip
    shifts = [(a, b) for a in range(n) for b in range(n)] if torus else [(0, 0)]
    maps = []
    for t in turns:
        for a, b in shifts:
            def m(r, c, t=t, a=a, b=b):
                x, y = t(r, c)
                return (x + a) % n, (y + b) % n
            if {m(r, c) for r, c in free} == free:
                maps.append(m)
    forms = {min(tuple(sorted(m(r, c) for r, c in s)) for m in maps) for s in sols}
    return len(sols), len(forms)
