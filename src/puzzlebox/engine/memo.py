"""Counting by sweeping: memoise on the state of the search instead of enumerating.

Some items are *swept*: they must be covered exactly once and are visited in a fixed order
(the order comes from whoever built the problem). The sweep always covers the first uncovered
item with an option whose first swept item it is, so every solution is built by exactly one
sequence of choices. What the rest of the search depends on is only

- the position in the order,
- which of the next ``window - 1`` items are already covered (a bitmask), and
- how often each bounded primary item that is not swept (a *counter*) has been covered,

so equal states are merged and their numbers of ways added: a transfer-matrix (profile)
dynamic programme. Counts are exact Python integers. This pays when the window is short
(options span few positions of the order) and the counters have few values, which is when
enumeration is hopeless: a 3x50 strip has about 10^39 tilings and fewer than 16 states.

Solutions up to symmetry come from Burnside's lemma: the number of orbits is the mean over
the symmetry group of the number of solutions each element fixes. A solution fixed by ``g``
is a union of orbits of options under ``g``, so it is an exact cover of the orbits of items
by orbits of options (those whose members do not overlap): the same sweep counts it.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from puzzlebox.cover.problem import CoverProblem, ProblemError
from puzzlebox.engine.errors import EngineDeclined, EngineError
from puzzlebox.engine.memory import DEFAULT_MAX_MEMORY, size_text
from puzzlebox.engine.search import Job, Mode, Search, Step
from puzzlebox.engine.stats import SearchStats

if TYPE_CHECKING:
    from puzzlebox.engine.memo_layer import ArrayLayer

# One merged state costs a dict slot plus a key and a value (big) integer, in two layers
# (the one being read and the one being written): tracemalloc measured about 310 bytes per
# state of the widest layer on a 12x40 board of monominoes and dominoes (135-digit counts).
BYTES_PER_STATE = 400
# "auto" sweeps only when even the worst case (every state reachable) stays this small:
# then the sweep takes well under a second per few hundred positions.
AUTO_MAX_STATES = 1 << 18
# The array layer (SweepRun with numpy arrays): a state is two int64s in the layer, and while
# a position is swept its new states (before merging) are held several times over (keys and
# ways, grouped, packed, sorted, merged). Measured: 1.31 GB peak resident for 11.9 M new
# states at the widest position of one-sided pentominoes in 5x18 (about 150 MB of it the
# interpreter and its modules). A budget of max_states dict states allows
# max_states * BYTES_PER_STATE / ARRAY_BYTES_PER_STATE new states in the array layer.
ARRAY_BYTES_PER_STATE = 100
_KEY_BITS = 62  # mask and counters packed in one non-negative int64
# auto_reason's reason when every piece is used at most once (the registry may still sweep,
# where it measures that enumeration would be long: engine/registry.py)
ONCE_EACH = "every piece is used at most once, so enumeration is quick"

Symmetry = tuple[Sequence[int], Sequence[int]]  # (item permutation, option permutation)
Progress = Callable[[int, int], None]  # (positions swept, positions in all sweeps)



class MemoDeclined(EngineDeclined):
    """The memoised count does not apply or would not fit in memory; the message says why."""


class MemoTooLarge(MemoDeclined):
    """The sweep needs more states than ``max_memory`` holds (a larger limit may do)."""


@dataclass(frozen=True)
class SweepPlan:
    """How to sweep a cover problem: the order of its swept items, and its symmetries.

    ``symmetries()`` gives the non-identity elements of a group acting on the problem, each
    as ``(item_permutation, option_permutation)``: option ``k`` maps to option ``perm[k]``,
    whose items are the images of ``k``'s items. Counters must be fixed by every element.
    It is a function so that nobody builds the maps of a puzzle that will not be swept.
    """

    order: tuple[int, ...]
    symmetries: Callable[[], Sequence[Symmetry]] = tuple


@dataclass(frozen=True)
class _Move:
    bits: int  # swept positions covered, relative to the first one (bit 0 is always set)
    add: int  # the packed counter increments
    checks: tuple[tuple[int, int, int], ...]  # (shift, field mask, largest value before)


class Sweep:
    """One dynamic programme: swept positions, options as positions plus counter increments.

    ``options`` are ``(positions, increments)`` with ``increments[j]`` the number of times the
    option covers counter ``j``; counter ``j`` must end between ``lo[j]`` and ``hi[j]``.
    """

    def __init__(
        self,
        n_positions: int,
        options: Sequence[tuple[Sequence[int], Sequence[int]]],
        lo: Sequence[int],
        hi: Sequence[int],
    ) -> None:
        self.n_positions = n_positions
        n_counters = len(lo)
        # a counter needs no state when no solution could ever break its bounds
        most = [0] * n_counters
        for positions, incs in options:
            if not positions:
                raise ProblemError("every option must cover a swept item")
            for j, inc in enumerate(incs):
                if inc:
                    most[j] = max(most[j], n_positions * inc // len(positions))
        tracked = [j for j in range(n_counters) if lo[j] > 0 or hi[j] < most[j]]
        shift, self._fields = 0, []
        for j in tracked:
            width = max(1, int(hi[j]).bit_length())
            self._fields.append((shift, (1 << width) - 1, int(lo[j]), int(hi[j])))
            shift += width
        self.counter_bits = shift
        self._tracked = tracked
        # symmetries as (positions permutation, counters permutation): see set_symmetries
        self.symmetries: list[tuple[list[int], list[int]]] = []
        self.moves: list[list[_Move]] = [[] for _ in range(n_positions)]
        self.window = 1
        for positions, incs in options:
            first, last = min(positions), max(positions)
            if len(set(positions)) != len(positions) or not 0 <= first <= last < n_positions:
                raise ProblemError(f"option positions {sorted(positions)} are not valid")
            if any(incs[j] > hi[j] for j in range(n_counters)):
                continue  # it alone breaks a bound
            add, checks = 0, []
            for j, (s, mask, _lo, h) in zip(tracked, self._fields, strict=True):
                if incs[j]:
                    add += incs[j] << s
                    checks.append((s, mask, h - incs[j]))
            bits = sum(1 << (p - first) for p in positions)
            self.moves[first].append(_Move(bits, add, tuple(checks)))
            self.window = max(self.window, last - first + 1)

    def set_symmetries(self, maps: Sequence[tuple[Sequence[int], Sequence[int]]]) -> None:
        """Symmetries of the problem that the array layer may merge states by: each a
        permutation of the positions and one of the counters that maps options to options.

        Where a symmetry maps the positions before ``q`` onto themselves (a mirror of the
        cross-section, at the start of a cross-section), it maps the partial covers that the
        layer at ``q`` stands for onto themselves and their completions onto theirs; so a
        state and its image have as many completions, and the layer keeps the smaller key
        of the two with their ways added: the total is the same, and the states about half.
        """
        fields = {j: f for j, f in zip(self._tracked, self._fields, strict=True)}
        kept = []
        for positions, counters in maps:
            if sorted(positions) != list(range(self.n_positions)):
                raise ProblemError("a symmetry must permute the swept positions")
            if all(
                (counters[j] in fields and fields[counters[j]][1] == f[1])
                for j, f in fields.items()
            ):
                kept.append((list(positions), list(counters)))
        self.symmetries = kept

    def key_maps(self, q: int) -> list[list[int]]:
        """For each symmetry that keeps the positions before ``q``, where each bit of a key
        at ``q`` (counters, then the window's mask) goes."""
        fields = {j: f for j, f in zip(self._tracked, self._fields, strict=True)}
        span = self.window - 1
        out = []
        for positions, counters in self.symmetries:
            if q and max(positions[:q]) >= q:
                continue
            dest = list(range(self.counter_bits + span))
            ok = True
            for j in range(span):
                if q + j < self.n_positions:
                    to = positions[q + j] - q
                    if not 0 <= to < span:
                        ok = False
                        break
                    dest[self.counter_bits + j] = self.counter_bits + to
            if not ok:
                continue
            for j, (shift, mask, _, _) in fields.items():
                there = fields[counters[j]][0]
                for t in range(mask.bit_length()):
                    dest[shift + t] = there + t
            if dest != list(range(len(dest))):
                out.append(dest)
        return out

    def run(
        self, max_states: int, progress: Callable[[int], None] | None = None
    ) -> tuple[int, int]:
        """(number of exact covers, states visited); raises MemoDeclined past ``max_states``.

        ``progress`` is called after each position.
        """
        run = SweepRun(self, max_states)
        while not run.done:
            run.advance(1)
            if run.overflow is not None:
                raise MemoTooLarge(run.overflow)
            if progress is not None:
                progress(1)
        return run.total, run.visited

    def too_many(
        self, position: int, states: int, max_states: int, per_state: int = BYTES_PER_STATE
    ) -> str:
        """Why a sweep stopped: a layer outgrew the memory allowed (``max_states`` states of
        ``BYTES_PER_STATE``; ``per_state``, what one of ``states`` costs)."""
        limit = size_text(max_states * BYTES_PER_STATE)
        return (
            f"memo: the sweep reached {states} states at position {position} of "
            f"{self.n_positions}, more than the memory limit of {limit} holds "
            f"({per_state} bytes a state); raise the memory limit or use another engine"
        )


class SweepRun:
    """One sweep in progress, advanced a few positions at a time (the step-wise memo
    search). A layer larger than ``max_states`` stops it with ``overflow`` set to the
    reason, which the caller reports (``--engine memo``) or acts on (``auto`` enumerates)."""

    def __init__(self, sweep: Sweep, max_states: int, arrays: bool = True) -> None:
        self.sweep = sweep
        self.max_states = max_states
        self.position = 0
        self.layer: dict[int, int] = {0: 1}
        self.visited = 0
        self.total = 0
        self.done = False
        self.overflow: str | None = None
        # The layer as two sorted arrays (keys, ways) while the keys fit in an int64 and the
        # ways cannot overflow one: array operations merge the states about ten times faster
        # than the dict, in a fifth of the memory (ARRAY_BYTES_PER_STATE). The dict takes
        # over, exactly, when the ways grow too big (a 3x50 strip's 10^39 tilings).
        self.arrays: ArrayLayer | None = None
        if arrays and sweep.window - 1 + sweep.counter_bits <= _KEY_BITS:
            from puzzlebox.engine.memo_layer import ArrayLayer

            self.arrays = ArrayLayer(sweep, max_states * BYTES_PER_STATE // ARRAY_BYTES_PER_STATE)

    def advance(self, max_visits: int) -> None:
        """Sweep positions until about ``max_visits`` states were visited (one at least)."""
        sweep = self.sweep
        cbits = sweep.counter_bits
        cmask = (1 << cbits) - 1
        max_states = self.max_states
        stop = self.visited + max(1, max_visits)
        if self.arrays is not None:
            self._advance_arrays(self.arrays, stop)
            if self.arrays is not None or self.done or self.overflow is not None:
                return
        layer = self.layer
        while not self.done and self.overflow is None and self.visited < stop:
            p = self.position
            if p == sweep.n_positions or not layer:
                self._finish()
                return
            self.visited += len(layer)
            moves = [(m.bits, m.add, m.checks) for m in sweep.moves[p]]
            nxt: dict[int, int] = {}
            get = nxt.get
            if not cbits:
                for mask, ways in layer.items():
                    if mask & 1:
                        key = mask >> 1
                        nxt[key] = get(key, 0) + ways
                        continue
                    for bits, _, _ in moves:
                        if not mask & bits:
                            key = (mask | bits) >> 1
                            nxt[key] = get(key, 0) + ways
                    if len(nxt) > max_states:
                        self.overflow = sweep.too_many(p, len(nxt), max_states)
                        return
            else:
                for state, ways in layer.items():
                    mask = state >> cbits
                    counts = state & cmask
                    if mask & 1:
                        key = ((mask >> 1) << cbits) | counts
                        nxt[key] = get(key, 0) + ways
                        continue
                    for bits, add, checks in moves:
                        if mask & bits:
                            continue
                        for s, fmask, most in checks:
                            if (counts >> s) & fmask > most:
                                break
                        else:
                            key = (((mask | bits) >> 1) << cbits) | (counts + add)
                            nxt[key] = get(key, 0) + ways
                    if len(nxt) > max_states:
                        self.overflow = sweep.too_many(p, len(nxt), max_states)
                        return
            layer = self.layer = nxt
            self.position = p + 1
        if self.position == sweep.n_positions or not layer:
            self._finish()

    def _advance_arrays(self, arrays: ArrayLayer, stop: int) -> None:
        """Sweep with the array layer until ``stop`` visits; hand the layer to the dict when
        the next position's ways might overflow an int64."""
        sweep = self.sweep
        while self.visited < stop:
            p = self.position
            if p == sweep.n_positions or arrays.keys.size == 0:
                self.total = arrays.total()
                self.visited += arrays.keys.size
                self.arrays = None
                self.layer = {}
                self.done = True
                return
            if not arrays.safe(p):
                self.layer = dict(zip(arrays.keys.tolist(), arrays.ways.tolist(), strict=True))
                self.arrays = None
                return
            self.visited += arrays.keys.size
            if not arrays.advance(p):
                self.overflow = sweep.too_many(
                    p, arrays.candidates, self.max_states, ARRAY_BYTES_PER_STATE
                )
                return
            self.position = p + 1

    def _finish(self) -> None:
        if self.layer and self.position == self.sweep.n_positions:
            self.visited += len(self.layer)
            fields = self.sweep._fields
            for state, ways in self.layer.items():
                if all(lo <= (state >> s) & fm <= hi for s, fm, lo, hi in fields):
                    self.total += ways
        self.layer = {}
        self.done = True


def secondary_reason(problem: CoverProblem, words: Callable[[Hashable], str] = str) -> str:
    """Why the sweep refuses ``problem``'s secondary items (#38 item 9: they were called
    colours): items that may stay uncovered (optional cells, a queen's diagonals), the first
    few named in the puzzle's ``words``."""
    secondary = range(problem.n_primary, problem.n_items)
    named = ", ".join(words(problem.item_names[i]) for i in secondary[:3])
    more = ", ..." if len(secondary) > 3 else ""
    return (f"memo: it sweeps items that are covered exactly once, and this problem has "
            f"{len(secondary)} that may stay uncovered ({named}{more})")


def _check(problem: CoverProblem, order: Sequence[int]) -> list[int]:
    """The counters (primary items not swept); raise MemoDeclined where the sweep cannot go."""
    if problem.n_items > problem.n_primary:
        raise MemoDeclined(secondary_reason(problem))
    if len(set(order)) != len(order) or not all(0 <= i < problem.n_primary for i in order):
        raise ProblemError("the sweep order must list distinct primary items")
    lo, hi = problem.arrays.lo, problem.arrays.hi
    for i in order:
        if lo[i] != 1 or hi[i] != 1:
            raise MemoDeclined(f"memo: item {problem.item_names[i]!r} is not covered exactly once")
    swept = set(order)
    return [i for i in range(problem.n_primary) if i not in swept]


def build_sweep(
    problem: CoverProblem,
    order: Sequence[int],
    symmetry: Symmetry | None = None,
    excluded: frozenset[int] = frozenset(),
    merge_by: Sequence[Symmetry] = (),
) -> Sweep:
    """The sweep counting solutions fixed by ``symmetry`` (all solutions when it is None).

    Items in one orbit of the symmetry become one item placed where its earliest member is;
    options in one orbit become one option, dropped when its members overlap. ``merge_by``
    (only without ``symmetry`` or ``excluded``): symmetries of the problem whose images of
    states the array layer merges (Sweep.set_symmetries).
    """
    counters = _check(problem, order)
    position = {item: p for p, item in enumerate(order)}
    n = problem.n_options
    if symmetry is None:
        item_perm: Sequence[int] = range(problem.n_items)
        option_perm: Sequence[int] = range(n)
    else:
        item_perm, option_perm = symmetry
        if any(item_perm[i] not in counters for i in counters):
            raise ProblemError("a symmetry must map counter items to counter items")
        # A symmetry may exchange counters (pieces it swaps): in a fixed solution they are
        # used equally often, so one counter of each orbit is kept and its bounds hold them.
        counters = [i for i in counters if all(i <= j for j in _cycle(item_perm, i))]
    counter_index = {item: j for j, item in enumerate(counters)}
    # orbits of swept items, numbered by their earliest position
    orbit_of: dict[int, int] = {}
    firsts: list[int] = []
    for item in order:
        if item in orbit_of:
            continue
        members, x = [], item
        while x not in members:
            if x not in position:
                raise ProblemError("a symmetry must map swept items to swept items")
            members.append(x)
            x = item_perm[x]
        for m in members:
            orbit_of[m] = len(firsts)
        firsts.append(min(position[m] for m in members))
    rank = {o: r for r, o in enumerate(sorted(range(len(firsts)), key=firsts.__getitem__))}
    options: list[tuple[list[int], list[int]]] = []
    seen = [False] * n
    a, b = problem.start, problem.items
    for k in range(n):
        if seen[k]:
            continue
        cycle, x = [], k
        while not seen[x]:
            seen[x] = True
            cycle.append(x)
            x = option_perm[x]
        if x != k:
            raise ProblemError("the option map of a symmetry is not a permutation")
        if any(j in excluded for j in cycle):
            continue
        cells: set[int] = set()
        incs = [0] * len(counters)
        overlap = False
        for j in cycle:
            items = b[a[j] : a[j + 1]].tolist()
            mine = [i for i in items if i in position]
            if symmetry is not None:
                image = sorted(item_perm[i] for i in items)
                if image != sorted(b[a[option_perm[j]] : a[option_perm[j] + 1]].tolist()):
                    raise ProblemError("a symmetry's option map disagrees with its item map")
            if cells.intersection(mine):
                overlap = True
                break
            cells.update(mine)
            for i in items:
                if i in counter_index:
                    incs[counter_index[i]] += 1
        if overlap:
            continue
        if not cells:
            raise MemoDeclined("memo: an option covers no swept item")
        options.append((sorted({rank[orbit_of[i]] for i in cells}), incs))
    lo = [int(problem.lo[i]) for i in counters]
    hi = [int(problem.hi[i]) for i in counters]
    sweep = Sweep(len(firsts), options, lo, hi)
    if merge_by and symmetry is None and not excluded:
        maps = []
        for items, _ in merge_by:
            images = [items[i] for i in order]
            if all(i in position for i in images) and all(
                items[i] in counter_index for i in counters
            ):
                maps.append(
                    ([position[i] for i in images], [counter_index[items[i]] for i in counters])
                )
        sweep.set_symmetries(maps)
    return sweep


def _cycle(perm: Sequence[int], start: int) -> list[int]:
    """The cycle of ``perm`` through ``start``."""
    out, x = [start], perm[start]
    while x != start:
        out.append(x)
        x = perm[x]
    return out


# _shape reads the problem in plain Python up to this many entries (cells listed by all the
# options): 6x10's 10,280 take 3 ms, where importing numpy for it would cost 0.14-0.27 s of
# a small count's start-up (issue #23); past it numpy's array operations are the faster.
PLAIN_SHAPE_ENTRIES = 200_000


def _shape(problem: CoverProblem, order: Sequence[int]) -> tuple[int, list[int], list[bool]]:
    """(the sweep's window, the counters, which options cover a counter), read off the
    arrays (no sweep is built); the window is 0 when an option covers no swept item.

    Remembered for the last few problems: the registry asks it up to seven times while it
    chooses the engine of one count (auto_reason, key_bits, sweep_window)."""
    key = tuple(order)
    for known, asked, shape in _SHAPES:
        if known is problem and asked == key:
            return shape
    if len(problem.arrays.items) <= PLAIN_SHAPE_ENTRIES:
        shape = _shape_plain(problem, order)
    else:
        shape = _shape_numpy(problem, order)
    _SHAPES.append((problem, key, shape))
    del _SHAPES[:-4]
    return shape


_SHAPES: list[tuple[CoverProblem, tuple[int, ...], tuple[int, list[int], list[bool]]]] = []


def _shape_plain(problem: CoverProblem, order: Sequence[int]) -> tuple[int, list[int], list[bool]]:
    position = [-1] * problem.n_items
    for place, item in enumerate(order):
        position[item] = place
    at = position.__getitem__
    start, items = problem.arrays.start, problem.arrays.items
    window, counted = 1, []
    for k in range(problem.n_options):
        a, b = start[k], start[k + 1]
        swept = [p for p in map(at, items[a:b]) if p >= 0]
        counted.append(len(swept) < b - a)
        if not swept:
            window = 0
        elif window:
            window = max(window, max(swept) - min(swept) + 1)
    counters = [i for i in range(problem.n_primary) if position[i] < 0]
    return window, counters, counted


def _shape_numpy(problem: CoverProblem, order: Sequence[int]) -> tuple[int, list[int], list[bool]]:
    import numpy as np

    n = len(order)
    position = np.full(problem.n_items, -1, dtype=np.int64)
    position[np.asarray(order, dtype=np.int64)] = np.arange(n, dtype=np.int64)
    at = position[problem.items]
    swept = at >= 0
    starts = problem.start[:-1]
    first = np.minimum.reduceat(np.where(swept, at, n), starts)
    last = np.maximum.reduceat(np.where(swept, at, -1), starts)
    # the primary items not swept, in order (np.setdiff1d would import numpy.ma: 10-13 ms of
    # every count's start-up, issue #23)
    counters = np.flatnonzero(position[: problem.n_primary] < 0).tolist()
    counted = np.logical_or.reduceat(~swept, starts).tolist()
    if (first == n).any():
        return 0, counters, counted
    return int((last - first).max()) + 1, counters, counted


def key_bits(problem: CoverProblem, order: Sequence[int]) -> int | None:
    """The bits of a state's key (the window's mask and the counters, each as wide as its
    bound, as Sweep packs them; an upper bound, since Sweep leaves out counters that no
    solution can break), or None when an option covers no swept item."""
    if problem.n_options == 0:
        return None
    window, counters, _ = _shape(problem, order)
    if window == 0:
        return None
    return window - 1 + sum(max(1, int(problem.arrays.hi[i]).bit_length()) for i in counters)


def _auto_reason(
    problem: CoverProblem, order: Sequence[int], max_states: int | None
) -> str | None:
    """Why "auto" should enumerate instead, or None when sweeping is the better way.

    Read off the arrays (no sweep is built), so that a large problem is turned away quickly.
    """
    if problem.n_options == 0:
        return "there are no options"
    window, counters, counted = _shape(problem, order)
    if window == 0:
        return "an option covers no swept item"
    bound = 1 << (window - 1)
    hi = problem.arrays.hi
    for i in counters:
        bound *= hi[i] + 1
    if max_states is not None and bound > min(AUTO_MAX_STATES, max_states):
        return f"up to {bound} states per position"
    if all(counted) and all(hi[i] <= 1 for i in counters):
        return ONCE_EACH
    return None


def plan_of(job: Job) -> SweepPlan | None:
    """The sweep plan of the job's puzzle (None when it has none, or no puzzle)."""
    plan = getattr(job.puzzle, "sweep_plan", None)
    return None if plan is None else plan()


def accepts(job: Job) -> str | None:
    """Why the memo engine cannot count this job, or None (the registry's ``accepts``)."""
    if job.mode is not Mode.COUNT:
        return "the memo engine only counts: use 'count'"
    if job.forced or job.excluded:
        return "memo: it counts whole puzzles, not subproblems of a split search"
    if job.puzzle is None or job.problem is not job.puzzle.problem:
        return "memo: it needs the puzzle's own problem and sweep plan"
    plan = plan_of(job)
    if plan is None:
        return "memo: this kind of puzzle gives no sweep order"
    if job.problem.n_items > job.problem.n_primary:
        return secondary_reason(job.problem, getattr(job.puzzle, "item_words", str))
    try:
        _check(job.problem, plan.order)
    except MemoDeclined as declined:
        return str(declined)
    return None


def auto_reason(job: Job) -> str | None:
    """Why ``auto`` should not try sweeping this job, or None: read off the arrays, so a
    large problem is turned away quickly. Only the cheap tests of :func:`_auto_reason`
    decide here, not the worst-case number of states (2^99 for the 10x10 square tiled by
    squares, whose sweep meets 161,340 states in all): how many states the sweep really
    meets is seen while it runs (:class:`MemoSearch` with ``fallback``)."""
    reason = accepts(job)
    if reason is not None:
        return reason
    plan = plan_of(job)
    assert plan is not None
    problem, order = job.problem, plan.order
    reason = _auto_reason(problem, order, None)
    if reason is not None or _auto_reason(problem, order, AUTO_MAX_STATES) is None:
        return reason  # (the worst case is small: sweep)
    swept = set(order)
    lo, hi = problem.arrays.lo, problem.arrays.hi
    bounded = [
        i for i in range(problem.n_primary)
        if i not in swept and (lo[i] > 0 or hi[i] < len(order))
    ]
    if bounded:
        # pieces with bounded counts multiply the states by their counts' values, and then
        # a sweep that would outgrow the cap costs more than enumerating (the 6x10
        # pentomino board with 15 forbidden placements: 0.36 s of sweep to 0.06 s of search)
        return f"{len(bounded)} pieces with bounded counts multiply the sweep's states"
    return None


# The first positions that outgrows_at_start sweeps alone: this many windows' worth (two
# cross-sections of the board), and at most START_VISITS times the states it looks for
# visited in all (layers that grow geometrically, as a column's profiles do, visit fewer
# than three times their last layer in all).
START_WINDOWS = 2
START_VISITS = 4
# In the array layer, a layer's states may be merged with their images under the symmetries
# of a cross-section (Sweep.set_symmetries), which the sweep of the first positions leaves
# out: at most the 8 of a square's. (The dict layer, for keys past 62 bits, merges none.)
MERGE_MOST = 8
# How often outgrows_at_start built a sweep's first positions (a count, for the tests: the
# full tables of a sweep are built by build_sweep alone).
start_sweeps = 0


def outgrows_at_start(job: Job, max_states: int) -> str | None:
    """Why the sweep of ``job`` would hold more than ``max_states`` states, seen from its
    first positions swept alone (:data:`START_WINDOWS` windows of them, with only the
    options that start there: no tables of the whole sweep, no symmetries built), or None
    when they stay within it (or the job is not the memo engine's).

    A layer at position ``q`` depends only on the moves before ``q``, so these layers are
    the sweep's own, less the merging of mirror images (:data:`MERGE_MOST`): a 100x100
    board of dominoes passes 131,072 states within its first column, where building its
    eight sweeps takes seconds."""
    import numpy as np

    global start_sweeps
    plan = plan_of(job)
    if accepts(job) is not None or plan is None or job.problem.n_options == 0:
        return None
    problem, order = job.problem, plan.order
    n = len(order)
    position = np.full(problem.n_items, -1, dtype=np.int64)
    position[np.asarray(order, dtype=np.int64)] = np.arange(n, dtype=np.int64)
    at = position[problem.items]
    starts = problem.start[:-1]
    first = np.minimum.reduceat(np.where(at >= 0, at, n), starts)
    last = np.maximum.reduceat(np.where(at >= 0, at, -1), starts)
    if (first == n).any():
        return None
    reach = min(n, START_WINDOWS * (int((last - first).max()) + 1))
    counters = np.flatnonzero(position[: problem.n_primary] < 0)  # not swept (as in _shape)
    counter_index = {int(item): j for j, item in enumerate(counters.tolist())}
    a, b = problem.start, problem.items
    options: list[tuple[list[int], list[int]]] = []
    for k in np.flatnonzero(first < reach).tolist():
        cells = at[a[k] : a[k + 1]]
        incs = [0] * len(counter_index)
        for i in b[a[k] : a[k + 1]][cells < 0].tolist():
            incs[counter_index[i]] += 1
        options.append((cells[cells >= 0].tolist(), incs))
    start_sweeps += 1
    sweep = Sweep(n, options,
                  [int(problem.lo[i]) for i in counters], [int(problem.hi[i]) for i in counters])
    merged = sweep.window - 1 + sweep.counter_bits <= _KEY_BITS  # (only the arrays merge)
    run = SweepRun(sweep, max_states * (MERGE_MOST if merged else 1))
    most = run.arrays.max_candidates if run.arrays is not None else run.max_states
    while not run.done and run.position < reach and run.visited < START_VISITS * most:
        run.advance(1)
        if run.overflow is not None:
            return run.overflow
    return None


def once_each_pieces(job: Job) -> int | None:
    """The number of pieces of a job that :func:`auto_reason` turns away only because every
    piece is used at most once, where its sweep keeps its states in the array layer (keys
    of at most 62 bits); None for any other job. The registry sweeps such a job after all
    where it measures that enumerating it would be long (engine/registry.py)."""
    if auto_reason(job) != ONCE_EACH:
        return None
    plan = plan_of(job)
    assert plan is not None
    bits = key_bits(job.problem, plan.order)
    if bits is None or bits > _KEY_BITS:
        return None
    return job.problem.n_primary - len(plan.order)


def sweep_window(job: Job) -> int:
    """The window of the job's sweep: the most positions one option spans in the sweep's
    order (0 when the job has no sweep plan or an option covers no swept item). A layer
    holds up to 2^(window - 1) masks times the counters' values, so it says how wide the
    sweep grows before any is built."""
    plan = plan_of(job)
    if plan is None or job.problem.n_options == 0:
        return 0
    return _shape(job.problem, plan.order)[0]


class MemoSearch:
    """The memo engine's step-wise count (engine/search.py): the sweeps of the puzzle and
    of each of its symmetries (Burnside's lemma) in turn, ``max_nodes`` states at a time.

    With a ``fallback`` (what ``auto`` starts) a layer of more than ``max_states`` states
    hands the count over to the search ``fallback()`` builds, which then goes on in the
    same steps: the sweep was the wrong tool, and the states it visited are lost work,
    bounded by the cap. Without one, the overflow is a :class:`MemoDeclined` for the user.
    """

    def __init__(
        self,
        job: Job,
        max_states: int | None = None,
        fallback: Callable[[], Search] | None = None,
    ) -> None:
        reason = accepts(job)
        if reason is not None:
            raise MemoDeclined(reason)
        plan = plan_of(job)
        assert plan is not None
        self.job = job
        if max_states is None:
            max_states = max(1, (job.max_memory or DEFAULT_MAX_MEMORY) // BYTES_PER_STATE)
        self.max_states = max_states
        self._fallback = fallback
        self._plan = plan
        self._sweeps: list[Sweep] | None = None
        self._runs: list[SweepRun] = []
        self._fixed: list[int] = []
        self._work = 0
        self._done_positions = 0
        self.handed_over: Search | None = None  # the fallback search, once it took over
        self.stats = SearchStats(engine="memo")

    def _build(self) -> list[Sweep]:
        problem, order = self.job.problem, self._plan.order
        group = list(self._plan.symmetries())
        sweeps = [build_sweep(problem, order, merge_by=group)]
        sweeps += [build_sweep(problem, order, g) for g in group]
        return sweeps

    def step(self, max_nodes: int) -> Step:
        if self.handed_over is not None:
            step = self.handed_over.step(max_nodes)
            self.stats = self.handed_over.stats
            return step
        began = time.perf_counter()
        if self._sweeps is None:
            self._sweeps = self._build()
            self._work = sum(s.n_positions for s in self._sweeps)
        if self.stats.complete:
            return Step(done=True)
        sweep = self._sweeps[len(self._fixed)]
        if not self._runs or self._runs[-1].done:
            self._runs.append(SweepRun(sweep, self.max_states))
        run = self._runs[-1]
        before = run.position
        visited = run.visited
        run.advance(max_nodes)
        self._done_positions += run.position - before
        self.stats.nodes += run.visited - visited
        self.stats.search_seconds += time.perf_counter() - began
        if run.overflow is not None:
            if self._fallback is None:
                raise MemoTooLarge(run.overflow)
            self.handed_over = self._fallback()
            self.handed_over.stats.nodes += self.stats.nodes  # the sweep's work counts too
            self.stats = self.handed_over.stats
            return Step()
        self.stats.walked = min(1.0, self._done_positions / max(1, self._work))
        if not run.done:
            return Step()
        self._fixed.append(run.total)
        if len(self._fixed) < len(self._sweeps):
            return Step()
        raw = self._fixed[0]
        orbits, rest = divmod(sum(self._fixed), len(self._fixed))
        if rest:
            raise EngineError(
                f"memo: Burnside's sum {sum(self._fixed)} is not a multiple of the group order "
                f"{len(self._fixed)}: the puzzle's symmetries are not a group"
            )
        self.stats.solutions = raw
        self.stats.complete = True
        self.stats.walked = 1.0
        return Step(counted=raw, done=True, distinct=orbits)


def start(job: Job) -> MemoSearch:
    """The memo engine's count of ``job`` (the registry's ``start``, for ``--engine memo``)."""
    return MemoSearch(job)
