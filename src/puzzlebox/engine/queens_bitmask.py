"""n-queens counted with bitmasks: the classic fast path, as a step-wise, splittable engine.

**The search.** A row is filled by choosing one bit of ``~(cols | left | right)``: the
columns still free, less the squares the queens above attack along their two diagonals (the
numba kernels are in engine/_queens_kernels.py). A job's forced and excluded options become
one mask of allowed columns per row, exactly: a solution has one queen per row, so it holds
the option ``(r, c)`` iff row ``r``'s queen is in column ``c``. Any subproblem of the queens
cover problem is therefore searched by the same kernel, with no generic engine behind it.

**The mirror.** When every row's allowed columns are symmetric under the left-right mirror,
the mirror maps the job's solutions onto themselves, so only the left half of the first row
is searched and counted twice; for odd ``n`` the middle column is its own mirror and is
searched once, with the same trick one row down.

**Splitting.** :func:`frontier` cuts the tree at a depth into subproblems that keep the
mirror: a subproblem allows, in each of the top ``depth`` rows, one column and its mirror
image (``{c, n-1-c}``, written as excluded options), so it is closed under the mirror and is
again counted on one half. The subproblems partition the job's solutions: a solution falls in
the one named by the pairs its top rows' queens lie in.

**Distinct solutions** of a whole board come from Burnside's lemma: the number of orbits
under the eight symmetries of the square is ``(1/8) sum over solutions s of |stabiliser(s)|``.
For ``n > 1`` no solution is fixed by a reflection (a mirror in a side would put two queens on
a row or column, a mirror in a diagonal two on the other diagonal), so that sum is
``Q + F180 + 2 F90`` with ``F180`` and ``F90`` the solutions fixed by a half and a quarter
turn, counted by a search that places the whole orbit of each queen at once.

A subproblem's share of that sum is not a whole number of orbits, so a subproblem counts its
*leaders* instead: the solutions that are the smallest of their eight images (compared as the
tuple of their queens' columns, row by row). Every orbit has exactly one leader, and it lies
in exactly one subproblem, so the distinct counts of the subproblems are whole numbers, never
above their raw counts, and add up to the board's. The leader is found where the row search
ends: an image's first column is the distance of a border queen from a corner, so the four
border queens decide almost every solution, and only ties compare whole images. (A leader is
never the right-hand image of a mirror pair, so the mirror's halving still holds.)
"""

from __future__ import annotations

import functools
import time
from array import array
from collections.abc import Callable, Iterator, Sequence
from typing import Any, NamedTuple, Protocol

from puzzlebox.cover.problem import CoverBuilder, CoverProblem
from puzzlebox.engine import kernel_choice
from puzzlebox.engine._queens_kernels import fixed, walk_rows, walk_symmetric, walk_torus
from puzzlebox.engine.kernel_cache import announce
from puzzlebox.engine.search import Job, Mode, Step, Subproblem
from puzzlebox.engine.stats import SearchStats, once_per_process

NAME = "queens-bitmask"
MAX_N = 31  # diagonals of the symmetric search fit in one int64 (2n - 1 bits)

GROUP_ORDER = 8  # the symmetries of the square


# -- what a job asks for, as masks -----------------------------------------------------------


class Board(NamedTuple):
    """What the engine reads off a job's cover problem: the side, whether the diagonals
    wrap (a torus), and the board's symmetry group as the set of the square's eight maps it
    keeps (bit ``k`` for map ``k``, numbered as the kernels' ``_map``; on a torus the group
    also holds translations, which the Burnside kernel finds itself)."""

    n: int
    torus: bool
    group: int


def _board(job: Job) -> Board | str:
    """The board when the job is a count of a queens cover problem this engine searches,
    else why not.

    The engine reads ``n`` off the cover problem alone (its options are squares of the
    ``n x n`` board, its items exactly :func:`queens_problem`'s or :func:`torus_problem`'s),
    so it asks nothing of a puzzle: another kind's problem with square labels is declined.
    Any set of squares is taken (holes, and the squares givens attack, #38): the row search
    reads one mask of allowed columns a row, and the distinct count is Burnside's over the
    maps that keep the squares (a subgroup of the square's eight, times the translations
    that keep them on a torus)."""
    problem = job.problem
    whole = "it counts queens on an n x n board or torus only"
    n = sum(1 for name in problem.item_names[: problem.n_primary]
            if isinstance(name, tuple) and name[:1] == ("row",))
    names = set(problem.item_names)
    if n == 0 or names not in (_item_names(n), _torus_item_names(n)):
        return whole
    torus = names == _torus_item_names(n)
    if n > MAX_N:
        return f"it counts n-queens for n in 1..{MAX_N}, not {n}"
    if not _queens_shaped(problem, n, torus):
        return whole
    if job.mode is not Mode.COUNT:
        return "it counts solutions; it does not list them"
    if job.limit is not None:
        return "it counts the whole tree; it takes no limit"
    if torus and (job.forced or job.excluded):
        return "on a torus it counts a whole board only (its distinct count is Burnside's)"
    return Board(n, torus, _group(n, problem.labels))


def _item_names(n: int) -> set[tuple[str, int]]:
    """The items of ``n`` queens: rows, columns and both diagonals."""
    lines = [("row", i) for i in range(n)] + [("col", i) for i in range(n)]
    return set(lines + [(d, k) for d in ("diag", "anti") for k in range(2 * n - 1)])


def _torus_item_names(n: int) -> set[tuple[str, int]]:
    """The items of ``n`` queens on a torus: rows, columns and the n wrapped diagonals of
    each direction."""
    lines = [("row", i) for i in range(n)] + [("col", i) for i in range(n)]
    return set(lines + [(d, k) for d in ("wrapped diag", "wrapped anti") for k in range(n)])


def _queens_shaped(problem: CoverProblem, n: int, torus: bool = False) -> bool:
    """Whether ``problem`` is :func:`queens_problem` (or :func:`torus_problem`) of ``n`` on
    the squares it labels, option for option."""
    labels = problem.labels
    if not all(isinstance(x, tuple) and len(x) == 2 for x in labels):
        return False
    if len(labels) == n * n:
        whole = _whole_torus(n) if torus else _whole_problem(n)
    else:
        try:
            whole = (torus_problem if torus else queens_problem)(n, labels)
        except (TypeError, ValueError):
            return False
    mine, its = problem.arrays, whole.arrays  # array('q'): compared without numpy
    return (problem.item_names == whole.item_names and problem.labels == whole.labels
            and problem.n_primary == whole.n_primary and mine.lo == its.lo
            and mine.hi == its.hi and mine.start == its.start and mine.items == its.items)


def _square_map(n: int, k: int, r: int, c: int) -> tuple[int, int]:
    """Square ``(r, c)``'s image under map ``k`` of the square (the kernels' ``_map``: 0 the
    identity, 1 the mirror, 2 the flip, 3 the half turn, 4 the transpose, 5 the other
    diagonal's mirror, 6 and 7 the quarter turns)."""
    t = n - 1
    return [(r, c), (r, t - c), (t - r, c), (t - r, t - c), (c, r), (t - c, t - r),
            (c, t - r), (t - c, r)][k]


FULL_GROUP = 0xFF
HALF_TURN = 3
QUARTER_TURN = 6
MIRROR = 1


def _group(n: int, squares: Sequence[tuple[int, int]]) -> int:
    """The maps of the square that keep ``squares``, as bits (bit ``k``: map ``k``)."""
    if len(squares) == n * n:
        return FULL_GROUP
    board = set(squares)
    group = 0
    for k in range(8):
        if all(_square_map(n, k, r, c) in board for r, c in board):
            group |= 1 << k
    return group


def _keeps_squares(n: int, squares: Sequence[tuple[int, int]]) -> bool:
    """Whether every symmetry of the square maps ``squares`` onto themselves."""
    return _group(n, squares) == FULL_GROUP


def _masks(n: int, job: Job) -> list[int]:
    """The columns each row may hold: the board's squares in it; forced options pin a row,
    excluded ones clear a bit."""
    allowed = [0] * n
    labels = job.problem.labels
    for r, c in labels:
        allowed[r] |= 1 << c
    for k in job.excluded:
        r, c = labels[k]
        allowed[r] &= ~(1 << c)
    for k in job.forced:
        r, c = labels[k]
        allowed[r] &= 1 << c
    return allowed


def _mirror(n: int, mask: int) -> int:
    return int(format(mask, f"0{n}b")[::-1], 2) if n else 0


def _symmetric(n: int, allowed: list[int]) -> bool:
    """True when the left-right mirror maps the job's solutions onto themselves."""
    return all(_mirror(n, m) == m for m in allowed)


def _place(n: int, c: int, cols: int, left: int, right: int, torus: bool = False
           ) -> tuple[int, int, int]:
    """The masks after a queen in column ``c``, shifted down to the next row (on a torus,
    rotated: the diagonals wrap)."""
    bit = 1 << c
    full = (1 << n) - 1
    left, right = left | bit, right | bit
    if torus:
        return cols | bit, ((left << 1) | (left >> (n - 1))) & full, \
            ((right >> 1) | (right << (n - 1))) & full
    return cols | bit, (left << 1) & full, right >> 1


Unit = tuple[int, int, int, int, int, tuple[int, ...]]
# (first row, cols, left, right, multiplier, the columns of the queens above the first row)


def _units(n: int, allowed: list[int], torus: bool = False, mirror: bool = True
           ) -> tuple[list[Unit], int]:
    """The searches that count the job: the whole tree once, or with the mirror, the left
    half of the first row (and of the second below a middle queen), each counted twice; and
    the queens placed to set them up (search nodes too). ``mirror`` False: no halving (a
    count of leaders whose group lacks the mirror).

    A whole torus (every square a queen's) is cut further: a shift along the rows maps its
    solutions onto themselves one to one and moves the first row's queen anywhere, so only
    those with it in column 0 are searched, each standing for ``n``; and the mirror
    ``c -> -c`` (mod n) keeps column 0, so the second row's left half ``1 <= c < n - c``
    stands for its mirror image too (n times fewer nodes than the whole torus, #38)."""
    full = (1 << n) - 1
    if torus and n > 2 and all(m == full for m in allowed):
        units: list[Unit] = []
        c0, l0, r0 = _place(n, 0, 0, 0, 0, True)
        free = full & ~(c0 | l0 | r0)
        placed = 1
        for c in range(1, n):
            if c > n - c or not (free >> c) & 1:
                continue
            placed += 1
            nc, nl, nr = _place(n, c, c0, l0, r0, True)
            units.append((2, nc, nl, nr, n * (1 if c == n - c else 2), (0, c)))
        return units, placed
    if not (mirror and _symmetric(n, allowed)):
        return [(0, 0, 0, 0, 1, ())], 0
    units = []
    placed = 0

    def go(r: int, cols: int, left: int, right: int, above: tuple[int, ...]) -> None:
        if r == n:  # every queen so far in the middle column: n == 1
            units.append((n, cols, left, right, 1, above))
            return
        nonlocal placed
        free = allowed[r] & ~(cols | left | right)
        for c in range((n + 1) // 2):
            if not (free >> c) & 1:
                continue
            placed += 1
            nc, nl, nr = _place(n, c, cols, left, right, torus)
            if 2 * c < n - 1:
                units.append((r + 1, nc, nl, nr, 2, above + (c,)))
            else:  # the middle column: the mirror is not broken yet
                go(r + 1, nc, nl, nr, above + (c,))

    go(0, 0, 0, 0, ())
    return units, placed


# -- the search state: plain for the C kernels, numpy for numba's ---------------------------

class Ints(Protocol):
    """An int64 buffer the kernels read and write: an ``array('q')`` or a numpy array."""

    def __getitem__(self, k: int, /) -> Any: ...

    def __setitem__(self, k: int, value: int, /) -> None: ...



class State(NamedTuple):
    """How the search's state is made for one backend of the kernels: ``ints(values)`` an
    int64 buffer the kernels write into, ``scalar(x)`` an int argument."""

    ints: Callable[[Sequence[int]], Ints]
    scalar: Callable[[int], Any]


def _plain_ints(values: Sequence[int]) -> Ints:
    return array("q", values)


PLAIN = State(_plain_ints, int)


def _numpy_state() -> State:
    import numpy as np

    return State(lambda values: np.array(values, dtype=np.int64), np.int64)


def state_for(backend: str) -> State:
    """The state ``backend``'s kernels take, chosen here alone: the C kernels read any buffer
    and plain ints, so a count loads no numpy (it costs 0.14-0.27 s of CPU to import, a
    hundred times the search of 8 queens, issue #23); numba's kernels take numpy arrays and
    ``np.int64`` scalars (one compiled specialisation)."""
    return PLAIN if backend == kernel_choice.C else _numpy_state()


# -- the search ------------------------------------------------------------------------------


class QueensSearch:
    """A count of one job, step by step: the rows (unit by unit), then, for the distinct
    count of a whole board, the solutions fixed by a half turn and by a quarter turn where
    the board's group holds them (on a torus: by every map of its group, one Burnside
    phase); a subproblem counts the leaders of their orbits as it goes instead."""

    def __init__(self, job: Job, rows: bool = True, turns: tuple[int, ...] = (2, 1),
                 state: State | None = None) -> None:
        """``state``: how the kernels' arguments are made (tests give one; None: the one
        the backend in use takes, :func:`state_for`)."""
        board = _board(job)
        if isinstance(board, str):
            raise ValueError(f"{NAME} cannot take this job: {board}")
        self.n = n = board.n
        self.torus = board.torus
        self.group = board.group
        # the distinct count needs every part; count_queens and fixed_by_rotation run one
        partial = bool(job.forced or job.excluded)
        self.whole = not partial and rows and turns == (2, 1)
        self.lead = partial and rows  # a subproblem: count the leaders of orbits
        # the images a leader is compared with: those of the board's group (bit 0, the
        # identity, always there: a nonzero mask asks for leaders even of a trivial group)
        self._lead_mask = (self.group | 1) if self.lead else 0
        if self.lead or self.torus:
            turns = ()
        elif self.whole:  # Burnside's terms: the turns the group holds (a mirror fixes none)
            turns = tuple(t for t, k in ((2, HALF_TURN), (1, QUARTER_TURN))
                          if (self.group >> k) & 1)
        self.stats = SearchStats(engine=NAME, compile_seconds=_warm_up(board.torus))
        self._state = state = state or state_for(kernel_choice.backend())
        masks = _masks(n, job)
        self._allowed = state.ints(masks)
        # a leader is never the right-hand image of a mirror pair only if the mirror is in
        # the group: without it, no halving
        halves = not self.lead or bool((self.group >> MIRROR) & 1)
        # A torus's solutions with holes (and the squares givens attack) are those of the
        # whole torus whose queens avoid them: its tree is walked, cut by the shifts and the
        # mirror, and each leaf's images are tested against the board (walk_torus's
        # ``images``). Measured (bench/queens_dlx.py): a 17-torus with 6 holes walked on its
        # own squares took 178 M nodes, 1.5 s, Knuth's DLX2 1.7 s; the whole torus's cut
        # tree is 6.3 M nodes.
        full = (1 << n) - 1
        self._images = 0
        walked = masks
        if self.torus and n > 2:
            walked = [full] * n
            self._images = 0 if masks == walked else 1
        self._units, placed = _units(n, walked, self.torus, halves) if rows else ([], 0)
        self._walked = state.ints(walked)
        self.stats.nodes = placed
        burnside = [("burnside", 0)] if self.torus and self.whole and n > 1 else []
        self._phases: Iterator[tuple[str, int]] = iter(
            [("rows", i) for i in range(len(self._units))]
            + [("turn", t) for t in turns if n > 1 or not rows] + burnside
        )
        self._phase: tuple[str, int] | None = None
        self._multiplier = 1
        zeros = [0] * (n + 2)
        self._stack = [state.ints(zeros) for _ in range(6)]
        self._prefix = state.ints(zeros)
        self._top = state.ints([-1])
        self._burnside = state.ints([0, 0, 0])  # next map, fixed solutions, the group's order
        self.raw = 0
        self.leaders = 0
        self.fixed = {1: 0, 2: 0}
        self._done = False

    def _begin(self, phase: tuple[str, int]) -> None:
        kind, value = phase
        self._top[0] = 0
        if kind == "rows":
            row0, cols, left, right, self._multiplier, above = self._units[value]
            if row0 == self.n:  # nothing left to place: one solution, its own orbit
                self._top[0] = -1
                self.raw += self._multiplier
                self.leaders += 1
                return
            for k, column in enumerate(above):
                self._prefix[k] = column
            c, lft, rgt, free = self._stack[:4]
            c[0], lft[0], rgt[0] = cols, left, right
            free[0] = int(self._walked[row0]) & ~(cols | left | right)
        elif kind == "burnside":
            if self.raw == 0:  # no solution: none is fixed by anything
                self._top[0] = -1
        else:
            for array in self._stack:
                array[0] = 0  # row 0, column 0, nothing taken

    def step(self, max_nodes: int) -> Step:
        """Run about ``max_nodes`` nodes; the last step carries the distinct count."""
        if self._done:
            return Step(done=True)

        began = time.perf_counter()
        budget = max(1, int(max_nodes))
        counted = 0
        number = self._state.scalar
        while budget > 0:
            if self._phase is None or self._top[0] < 0:
                self._phase = next(self._phases, None)
                if self._phase is None:
                    break
                before = self.raw
                self._begin(self._phase)
                counted += self.raw - before
                continue
            kind, value = self._phase
            if kind == "rows":
                row0 = self._units[value][0]
                c, lft, rgt, free = self._stack[:4]
                if self.torus:
                    images = self._images and (2 if self._multiplier == 2 * self.n else 1)
                    found, nodes = walk_torus(
                        number(self.n), self._walked, self._allowed, number(row0),
                        self._prefix, c, lft, rgt, free, self._top, number(budget),
                        number(images),
                    )
                    weight = 1 if images else self._multiplier  # images: each counted there
                else:
                    found, nodes, leaders = walk_rows(
                        number(self.n), self._allowed, number(row0), self._prefix, c, lft,
                        rgt, free, self._top, number(budget), number(self._lead_mask),
                    )
                    self.leaders += int(leaders)
                    weight = self._multiplier
                found = int(found) * weight
                self.raw += found
                counted += found
            elif kind == "burnside":
                nodes = fixed(number(self.n), number(1), self._allowed, self._burnside,
                              number(budget))
                if int(self._burnside[0]) >= 8 * self.n * self.n:
                    self._top[0] = -1
            else:
                row, col, rows, cols, diag, anti = self._stack
                found, nodes = walk_symmetric(
                    number(self.n), number(value), self._allowed, row, col, rows, cols,
                    diag, anti, self._top, number(budget),
                )
                self.fixed[value] += int(found)
            budget -= int(nodes)
            self.stats.nodes += int(nodes)
        self.stats.search_seconds += time.perf_counter() - began
        self.stats.solutions = self.raw
        if self._phase is not None:
            return Step(counted=counted)
        self._done = True
        self.stats.complete = True
        counts_distinct = self.lead or self.whole
        return Step(counted=counted, done=True,
                    distinct=self.distinct() if counts_distinct else None)

    def order(self) -> int:
        """The order of the board's group: the square's maps it keeps (on a torus, with the
        translations: the Burnside kernel counts them)."""
        if self.torus:
            return int(self._burnside[2])
        return bin(self.group).count("1")

    def distinct(self) -> int:
        """The job's solutions up to symmetry: Burnside's count for a whole board, the
        leaders of their orbits for a subproblem.

        Burnside over the board's group: ``(1/|G|) sum over g in G of fix(g)``. On a board
        with straight diagonals and ``n > 1`` no solution is fixed by a reflection (a mirror
        in a side would put two queens on a row or column, a mirror in a diagonal two on the
        other diagonal), so the sum is ``Q + F180 + 2 F90`` over the turns the group holds.
        On a torus the kernel sums every map of the group."""
        if self.lead or self.n == 1:
            return self.leaders
        if self.raw == 0:
            return 0
        if self.torus:
            total = self.raw + int(self._burnside[1])
        else:
            total = self.raw
            if (self.group >> HALF_TURN) & 1:
                total += self.fixed[2]
            if (self.group >> QUARTER_TURN) & 1:
                total += 2 * self.fixed[1]
        orbits, rest = divmod(total, self.order())
        if rest:
            raise ArithmeticError(f"Burnside's count for {self.n} queens is not whole: a bug")
        return orbits


def start(job: Job) -> QueensSearch:
    return QueensSearch(job)


def accepts(job: Job) -> str | None:
    board = _board(job)
    return board if isinstance(board, str) else None


# -- splitting -------------------------------------------------------------------------------


def _settled(n: int, allowed: list[int], mirror: bool) -> int:
    """How many top rows the job has already cut: each allows one column (with the mirror:
    one column and its mirror image) at most."""
    rows = 0
    for mask in allowed:
        widest = 2 if mirror else 1
        if bin(mask).count("1") > widest:
            break
        rows += 1
    return rows


def frontier(job: Job, depth: int) -> list[Subproblem]:
    """Subproblems partitioning the job's solutions, one per pattern of the ``depth`` rows
    below those the job has already cut (with the mirror: per pattern of column pairs
    ``{c, n-1-c}``), each as the job's forced options and its excluded ones plus the columns
    those rows give up. Depth 0 gives the job itself, and so does a torus at any depth (it
    is counted whole: its distinct count is Burnside's over the whole board)."""
    board = _board(job)
    if isinstance(board, str):
        raise ValueError(f"{NAME} cannot split this job: {board}")
    if depth < 0:
        raise ValueError(f"split depth must be at least 0, not {depth}")
    n = board.n
    if board.torus:
        return [(tuple(sorted(job.forced)), tuple(sorted(job.excluded)))]
    allowed = _masks(n, job)
    mirror = _symmetric(n, allowed)
    depth = min(n, _settled(n, allowed, mirror) + depth) if depth else 0
    patterns: dict[tuple[int, ...], None] = {}  # in the order the search meets them

    def go(r: int, cols: int, left: int, right: int, key: tuple[int, ...]) -> None:
        if r == depth:
            patterns.setdefault(key, None)
            return
        free = allowed[r] & ~(cols | left | right)
        for c in range(n):
            if (free >> c) & 1:
                named = min(c, n - 1 - c) if mirror else c
                go(r + 1, *_place(n, c, cols, left, right), key + (named,))

    go(0, 0, 0, 0, ())
    number = job.problem.label_index
    subs = []
    for key in patterns:
        excluded = set(job.excluded)
        for r, c0 in enumerate(key):
            keep = {c0, n - 1 - c0} if mirror else {c0}
            excluded.update(number[r, c] for c in range(n)
                            if c not in keep and (r, c) in number)
        subs.append((tuple(sorted(job.forced)), tuple(sorted(excluded - set(job.forced)))))
    return subs


# The engine's spec lives with the queens kind (puzzles/queens/model.py), which registers
# it: the engine layer never imports the kinds above it, and a registry that lists the
# engines does not import this module.


# -- plain functions (the bench, the tests) --------------------------------------------------

def _warm_up(torus: bool = False) -> float:
    """Seconds spent making the kernels ready: none for the C kernels, built at installation;
    numba's are compiled (or loaded from its cache) once per process, the torus's only for a
    torus (they double the compile of an empty cache: 4.4-4.9 s of CPU against 1.8-1.9 s for
    the plain board's alone, load 5, #38)."""
    if kernel_choice.backend() == kernel_choice.C:
        return 0.0
    return _warm_up_numba() + (_warm_up_numba_torus() if torus else 0.0)


@once_per_process
def _warm_up_numba() -> None:
    """Compile (or load from numba's cache) numba's kernels once per process, and time it."""
    import numpy as np

    announce("n-queens", walk_rows)
    z = np.zeros(4, dtype=np.int64)
    walk_rows(np.int64(2), z + 3, np.int64(0), z.copy(), z.copy(), z.copy(), z.copy(),
              z.copy(), np.zeros(1, dtype=np.int64), np.int64(1), np.int64(0xFE))
    walk_symmetric(np.int64(2), np.int64(1), z + 3, z.copy(), z.copy(), z.copy(), z.copy(),
                   z.copy(), z.copy(), np.zeros(1, dtype=np.int64), np.int64(1))


@once_per_process
def _warm_up_numba_torus() -> None:
    """The same for the torus's kernels (its row walk, Burnside's fixed solutions)."""
    import numpy as np

    announce("n-queens", walk_torus)
    z = np.zeros(4, dtype=np.int64)
    walk_torus(np.int64(2), z + 3, z + 3, np.int64(0), z.copy(), z.copy(), z.copy(), z.copy(),
               z.copy(), np.zeros(1, dtype=np.int64), np.int64(1), np.int64(0))
    fixed(np.int64(2), np.int64(1), z + 3, np.zeros(3, dtype=np.int64), np.int64(1))


def queens_problem(n: int, squares: Sequence[tuple[int, int]] | None = None) -> CoverProblem:
    """The cover problem of ``n`` queens (the queens kind's ``build_problem``): rows and
    columns primary (one queen each), diagonals secondary (at most one), one option
    ``(row, col)`` per square, in reading order; ``squares`` (in reading order) are the only
    squares a queen may take, when not all of them."""
    b = CoverBuilder()
    # Rows and columns from the middle out ("organ-pipe" order, as Knuth does for DLX):
    # engines break ties between items by their order, and a middle row is the more
    # constrained choice (its queens attack more). 13-queens: 1.05 M nodes instead of
    # 1.68 M for the compiled engine.
    for i in sorted(range(n), key=lambda i: (abs(2 * i - (n - 1)), i)):
        b.primary(("row", i))
        b.primary(("col", i))
    for d in range(2 * n - 1):
        b.secondary(("diag", d))
        b.secondary(("anti", d))
    board = [(r, c) for r in range(n) for c in range(n)] if squares is None else squares
    for r, c in board:
        if not (0 <= r < n and 0 <= c < n):
            raise ValueError(f"square {(r, c)} is off the {n} x {n} board")
        b.option([("row", r), ("col", c), ("diag", r + c), ("anti", r - c + n - 1)], (r, c))
    return b.build()


def torus_problem(n: int, squares: Sequence[tuple[int, int]] | None = None) -> CoverProblem:
    """Toroidal queens (the queens kind's ``build_problem`` on a torus): rows, columns and
    the n wrapped diagonals of each direction are all primary (n queens on n distinct
    diagonals of a direction cover each exactly once); one option ``(row, col)`` per square
    a queen may take (``squares``, in reading order; None: all of them)."""
    b = CoverBuilder()
    for i in sorted(range(n), key=lambda i: (abs(2 * i - (n - 1)), i)):  # organ pipe
        b.primary(("row", i))
        b.primary(("col", i))
    for d in range(n):
        b.primary(("wrapped diag", d))
        b.primary(("wrapped anti", d))
    board = [(r, c) for r in range(n) for c in range(n)] if squares is None else squares
    for r, c in board:
        if not (0 <= r < n and 0 <= c < n):
            raise ValueError(f"square {(r, c)} is off the {n} x {n} board")
        b.option([("row", r), ("col", c), ("wrapped diag", (r + c) % n),
                  ("wrapped anti", (r - c) % n)], (r, c))
    return b.build()


_whole_problem = functools.lru_cache(maxsize=8)(queens_problem)  # compared against, read-only
_whole_torus = functools.lru_cache(maxsize=8)(torus_problem)


def whole_job(n: int) -> Job:
    """The count of all ``n``-queens solutions, as a job for this engine."""
    return Job(queens_problem(n), Mode.COUNT)


def run(search: QueensSearch, max_nodes: int = 1 << 22) -> QueensSearch:
    """Step a search to its end (in steps of about ``max_nodes``: a few ms each)."""
    while not search.step(max_nodes).done:
        pass
    return search


def queens_counts(n: int) -> tuple[int, int, SearchStats]:
    """``(all solutions, solutions up to the board's eight symmetries, statistics)``."""
    if not 1 <= n <= MAX_N:
        raise ValueError(f"n must lie in 1..{MAX_N}")
    search = run(QueensSearch(whole_job(n)))
    return search.raw, search.distinct(), search.stats


def count_queens(n: int) -> tuple[int, int]:
    """``(solutions, nodes)``: the ways to place ``n`` non-attacking queens on an ``n x n``
    board, and the queens the row search placed (the fixed-point searches not included)."""
    if not 1 <= n <= MAX_N:
        raise ValueError(f"n must lie in 1..{MAX_N}")
    search = run(QueensSearch(whole_job(n), turns=()))
    return search.raw, search.stats.nodes


def fixed_by_rotation(n: int, turns: int) -> int:
    """Solutions that a rotation by ``turns`` quarter turns (1 or 2) maps onto themselves."""
    if turns not in (1, 2):
        raise ValueError("turns must be 1 (a quarter turn) or 2 (a half turn)")
    if not 1 <= n <= MAX_N:
        raise ValueError(f"n must lie in 1..{MAX_N}")
    search = run(QueensSearch(whole_job(n), rows=False, turns=(turns,)))
    return search.fixed[turns]


def describe(job: Job) -> dict[str, Any]:
    """How the engine will count ``job`` (for tests and --why): units and whether the
    mirror halves the work."""
    board = _board(job)
    if isinstance(board, str):
        return {"declined": board}
    n = board.n
    allowed = _masks(n, job)
    walked = [(1 << n) - 1] * n if board.torus and n > 2 else allowed  # as QueensSearch
    return {"n": n, "torus": board.torus, "mirror": _symmetric(n, allowed),
            "units": len(_units(n, walked, board.torus)[0])}
