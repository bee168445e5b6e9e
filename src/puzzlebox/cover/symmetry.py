"""Distinct solutions by breaking symmetry before the search, not by filtering after it.

A puzzle's symmetry group G is given in one form only: permutations of the options of its
cover problem, identity first (a puzzle kind builds them: board maps that keep the colours
and send each piece's orientations onto its own or onto those of a piece it exchanges with,
whole-board turns of an edge-matching board, the eight symmetries of the queens' board).
Nothing here knows a puzzle: :func:`options_by_items` and :func:`options_by_labels` help a
kind build the permutations, :func:`group_of` checks them, and what needs a board map
derives it (:func:`item_permutations`). G maps solutions to solutions. Counting every
solution and keeping the canonical one of each orbit searches |G| times too much. Instead:

* **Anchor.** Pick a primary item ``x`` covered exactly once (a piece used exactly once, a
  card, a cell) whose options form a set that G maps onto itself. Every solution holds
  exactly one of them, its *anchor*, and symmetric solutions have symmetric anchors. Keep one
  anchor option per G-orbit (the smallest) and delete the others: every orbit of solutions
  is still met, and about |G| times fewer nodes are searched.
* **Trivial stabiliser.** A solution whose anchor ``o`` is moved by every non-identity
  symmetry is the only member of its orbit that is searched, and its orbit has |G| members:
  these are *counted* by the engine (no enumeration): ``raw += |G| * n``, ``distinct += n``.
* **Symmetric anchors.** An anchor kept by a subgroup ``H`` (the X pentomino on a diagonal)
  needs a second anchor: an item whose options ``H`` maps onto themselves (a cell on the
  diagonal, another piece). Its options are cut to one per H-orbit *only when* ``o`` is
  chosen: a secondary item shared by ``o`` and each deleted option makes them exclusive.
  Solutions whose two anchors are fixed together only by the identity are again counted.
* **What is left** (both anchors symmetric, or no anchor for the whole group, as for queens
  whose rows move under turns) is enumerated, and each solution ``s`` is weighed on its own
  orbit: of the members of ``G s`` that the restricted search finds, only the smallest
  counts, for ``|G s|`` raw solutions and one distinct one. That is exact whatever the
  restriction, and every weight belongs to one solution, so any split of the restricted
  search into subproblems adds up to the same totals.

The restricted problem only deletes options and adds secondary items, so its solutions are
solutions of the puzzle, and the split work (``forced``/``excluded``) refers to its options.

Two forms: plain Python and numpy
---------------------------------
numpy's import costs 0.14-0.27 s of CPU, more than a small puzzle's whole count (issue
#23), so the group of a small problem is built, checked, broken and weighed in plain Python
(rows of ``array('q')``, lists and tuples) while numpy is not loaded, and in numpy
otherwise. :func:`plain_path` alone decides (numpy not loaded, the work under
:data:`PLAIN_WORK`); the form of the permutations then carries the choice on: a kind builds
them with :func:`options_by_items_all` or :func:`options_by_labels` and :func:`in_form`,
:func:`group_of` keeps the form it is given, and :class:`SymmetryBreaking` plans in it.
Consumers read either form through :func:`perm_lists`, :func:`images_of` and
:func:`perms_bytes`. Both forms give the same group, plan, restricted problem and weights
(tests/test_symmetry_plain.py). numpy is imported inside the numpy path's functions only.

Weighing many solutions at once
-------------------------------
A puzzle whose pieces come in any number and whose board has no cell fixed by every
symmetry has no anchor for its whole group: every solution is weighed. Weighing one at a
time in Python (the orbit as a set of tuples, each image checked by a loop) cost 20 to 35 us
a solution, most of a count's time. :meth:`SymmetryBreaking.leader_weights` weighs a step's
solutions together: ``P[:, chosen]`` moves a block of them by the whole group in one gather,
each image is sorted, compared with its solution where they first differ (the order of
sorted tuples, as before, so the representatives shown do not change), and the orbit's size
is the group's order over the number of maps that fix the solution. Measured at 11:26 UTC
2026-11-24 on the 2-core VM, load average about 1.1 (other sessions running), before ->
after, bitboard engine (the auto choice for the first):

* a 4x8x8 box of 2x2x4 bricks, ``count = 16`` (32,000 / 2,856; 16 maps, the anchor a corner
  kept by one mirror, 22,524 solutions weighed): weighing 0.786 s -> 0.091 s; the count's
  ``seconds`` 1.33 -> 0.50; ``time puzzlebox count brick16.toml --json --quiet`` 1.80 s ->
  0.94 s wall, of which the rest is starting Python, numba's cached kernels and the search;
* dominoes on a 6x8 board, ``count = 24`` (167,089 / 42,873; 4 maps, no anchor, every
  solution weighed): weighing 3.57 s -> 0.44 s (2.6 us a solution; 0.31 s in one batch, a
  third of it turning the engine's tuples into an array); ``puzzlebox count dom68.toml
  --engine bitboard --json`` ``seconds`` 4.47 -> 1.19 (the auto choice, memo, counts it by
  sweeping in 0.02 s);
* dominoes on an 8x8 board, ``count = 32`` (12,988,816 / 1,629,189; 8 maps, the anchor a
  corner kept by the diagonal mirror): the first 50,000 solutions weighed one at a time
  28 us each, in one batch 4.4 us each; projected over the 6.5 million weighed, about
  180 s -> 27.5 s measured, and ``puzzlebox count dom8.toml --engine bitboard --json``
  takes 44 s in all (the rest: the search and the engine's solutions as tuples).

Weighing was measured by wrapping ``PartsCount.weigh`` with ``time.perf_counter`` around a
``count_puzzle_search(puzzle, "bitboard")`` stepped to the end. The "about 9 s of weights"
once reported for the brick box was a cProfile figure under load: cProfile's per-call cost
inflates the Python loop (4.7 s profiled against 1.3 s plain at the same hour). Tried and
dropped: comparing an image with its solution without sorting (the smallest option of their
symmetric difference, from a mark table per solution): the same time as sorting. Left: a
numba kernel for the weights (engine/ could hold one; at a microsecond a solution, a
guess, it would take some 20 s off the 8x8 count above) and the number of solutions weighed.
Where no cell or piece is fixed by the whole group, only a subgroup's anchor cuts the
search. An anchor on the orbit O of the anchor cell x would cut more: the placements on x
fall into classes (orbits of the subgroup K fixing x), a placement on another cell of O has
the class of its image on x, and the part for class c holds c's representative on x and no
placement of a smaller class anywhere on O; the weights then count an image as searched
only if it passes the same test. Counted over every solution by a sketch (not in the
library): the brick box would search 10,632 tilings instead of 22,524, the 6x8 dominoes
95,370 instead of 167,089, the 8x8 dominoes none fewer (one class: the corner's two
dominoes are exchanged by its mirror). Not written: a gain under 2.2x for a new kind of
part and a second searched-test, on a path the counts of the hypothesis tests must cover.
"""

from __future__ import annotations

import dataclasses
import sys
from array import array
from collections import Counter
from collections.abc import Callable, Hashable, Iterable, Sequence
from itertools import compress
from operator import eq, itemgetter
from typing import TYPE_CHECKING, Any, Protocol

from puzzlebox.cover.problem import CHECK_EVERY, NO_COLOR, CoverProblem, building, int64_array

if TYPE_CHECKING:
    from typing import TypeAlias

    import numpy as np

    # A group's option permutations (and item permutations), one row each, identity first,
    # in one of two forms: a numpy int64 array (the numpy path, for big problems) or a
    # sequence of ``array('q')`` rows (the plain path, :func:`plain_path`). Every consumer
    # takes both (:func:`perm_lists`, :func:`images_of`, :func:`perms_bytes`).
    Perms: TypeAlias = np.ndarray | Sequence[array[int]]


class Symmetric(Protocol):
    """Anything with a cover problem and its symmetries as option permutations (a puzzle)."""

    @property
    def problem(self) -> CoverProblem: ...

    @property
    def symmetries(self) -> Perms: ...


# -- which path: plain Python or numpy ------------------------------------------------------
# Work (permutation entries touched: maps x entries of the problem to build and break the
# group, or maps x options of the solutions weighed) up to which the plain path is taken while
# numpy is not loaded. numpy's import costs 0.14-0.27 s of CPU (issue #23). Measured at 00:43
# UTC 2026-12-02 on the shared 2-core VM (load 0.8-1.2), numpy preloaded for both, best of 2,
# the group built (options_by_items_all, group_of) and broken (SymmetryBreaking, its parts)
# after the kind's board maps: the plain path costs 0.14-0.20
# us more a unit than numpy's (pentomino-6x10: 4 maps x 12,336 entries, 19.7 against 10.1 ms;
# soma-cube 48 x 3,296, 43.9 against 22.3 ms; bedlam-cube 24 x 24,804, 148 against 65 ms;
# solid-pentominoes-3x4x5 8 x 14,640, 57 against 34 ms); weighing 0.035-0.08 us more (plain
# 0.06-0.12 us a unit, numpy 0.02-0.04: 9,356 to 15,014 solutions of pentomino-6x10,
# soma-cube and dominoes-8x8). At 700,000 units the plain path's extra time is at most 0.14 s
# (0.2 us a unit), numpy's import at least that: past it numpy is the cheaper. A breaking
# counts its weighing over all its batches (a count weighs step after step), so a count that
# weighs millions of solutions moves to numpy once and stays there.
PLAIN_WORK = 700_000


def plain_path(work: int) -> bool:
    """Whether a symmetry step of ``work`` entries runs in plain Python: only while numpy is
    not loaded (once it is, its path is the cheaper) and only for small work. The one place
    the choice is made; the form of the permutations (:data:`Perms`) carries it on."""
    return sys.modules.get("numpy") is None and work <= PLAIN_WORK


def is_plain(perms: Any) -> bool:
    """Are these permutations the plain form (a sequence of ``array('q')`` rows)?"""
    return not hasattr(perms, "__array_interface__") and all(
        isinstance(row, array) for row in perms
    )


def perm_lists(perms: Perms) -> list[list[int]]:
    """The rows of either form as lists of ints."""
    if is_plain(perms):
        return [row.tolist() for row in perms]
    rows: list[list[int]] = perms.tolist()  # type: ignore[union-attr]
    return rows


def images_of(perms: Perms, chosen: Sequence[int]) -> list[list[int]]:
    """The sorted images of a set of options under each permutation, identity first."""
    if is_plain(perms):
        return [sorted(map(row.__getitem__, chosen)) for row in perms]
    import numpy as np

    images: list[list[int]] = np.sort(np.asarray(perms)[:, list(chosen)], axis=1).tolist()
    return images


def perms_bytes(perms: Perms) -> bytes:
    """The permutations as little-endian int64 bytes, row after row: the same bytes for both
    forms (a fingerprint of a puzzle must not depend on which path built its group)."""
    if not is_plain(perms):
        data: bytes = perms.astype("<i8").tobytes()  # type: ignore[union-attr]
        return data
    out = array("q")
    for row in perms:
        out.extend(row)
    if sys.byteorder == "big":
        out.byteswap()
    return out.tobytes()


class SymmetryError(RuntimeError):
    """Permutations said to be a puzzle's symmetries that are not: a bug in that kind."""


# -- building the group ---------------------------------------------------------------------
def options_by_items(
    problem: CoverProblem,
    item_perm: Sequence[int],
    tags: Sequence[int] | None = None,
    tag_perm: Sequence[int] | None = None,
) -> Sequence[int]:
    """The option permutation that moves items by ``item_perm``, for problems whose options
    are told apart by their items and a tag (a polyomino placement: its cells and its piece).

    Option ``k`` (items ``I``, tag ``t``) goes to the option with items ``item_perm[I]`` and
    tag ``tag_perm[t]``; tags default to 0 and are kept when ``tag_perm`` is None. Works on
    whole arrays (a puzzle may have hundreds of thousands of options). Raises SymmetryError
    when some image is no option. :func:`options_by_items_all` does many at once.
    """
    tag_perms = None if tag_perm is None else [tag_perm]
    perm: Sequence[int] = options_by_items_all(problem, [item_perm], tags, tag_perms)[0]
    return perm


def options_by_items_all(
    problem: CoverProblem,
    item_perms: Sequence[Sequence[int]],
    tags: Sequence[int] | None = None,
    tag_perms: Sequence[Sequence[int]] | None = None,
) -> Perms:
    """:func:`options_by_items` for each row of ``item_perms`` (and of ``tag_perms``), one
    option permutation a row: the options' own rows are sorted and hashed once for all of
    them (the 48 maps of a cube took 48 passes: issue #23). In plain Python (rows of
    ``array('q')``) when :func:`plain_path` says so, else with numpy (an int64 array)."""
    if plain_path(len(item_perms) * len(problem.arrays.items)):
        return _options_by_items_plain(problem, item_perms, tags, tag_perms)
    return _options_by_items_numpy(problem, item_perms, tags, tag_perms)


def _options_by_items_plain(
    problem: CoverProblem,
    item_perms: Sequence[Sequence[int]],
    tags: Sequence[int] | None,
    tag_perms: Sequence[Sequence[int]] | None,
) -> list[array[int]]:
    """:func:`options_by_items_all` with a dict from each option's key to the option: its
    items as the bits of one int, its tag above them (exact: an option's items are
    distinct, so their bits sum to their union). An image's key is one ``sum`` over the
    option's items of the map's bits instead of each image sorted into a tuple: soma-cube's
    48 maps 18.4 -> 10.4 ms, pentomino-6x10's 4 maps 5.6 -> 4.7 ms (best of 7, load 2.5).

    A map that is the product of two maps already worked out (items and tags alike) is
    their product on the options too, one ``itemgetter`` call: the maps asked for are
    usually a group, generated by a few of them, so most are products: Bedlam's 24
    rotations 75 -> 38 ms (best of 5, 2026-12-07)."""
    a = problem.arrays
    n = problem.n_options
    shift = problem.n_items
    tag = [0] * n if tags is None else [int(t) for t in tags]
    n_tags = max(tag, default=-1) + 1
    moves = [tuple(int(i) for i in perm) for perm in item_perms]
    renames = [tuple(range(n_tags)) if tag_perms is None else
               tuple(int(tag_perms[g][t]) for t in range(n_tags)) for g in range(len(moves))]
    asked = set(zip(moves, renames, strict=True))
    rows: list[list[int]] | None = None
    index: dict[int, int] = {}
    made: dict[tuple[tuple[int, ...], tuple[int, ...]], array[int]] = {}
    gens: list[tuple[tuple[int, ...], tuple[int, ...]]] = []  # the maps worked out one by one
    out: list[array[int]] = []
    missing = n
    for key in zip(moves, renames, strict=True):
        building(1 + n // 64)  # a run's time limit holds here too (#28)
        if key in made:
            out.append(made[key])
            continue
        if rows is None:
            rows = [a.items[a.start[k] : a.start[k + 1]].tolist() for k in range(n)]
            bit = [1 << i for i in range(shift)]
            for k, row in enumerate(rows):
                index.setdefault(sum(map(bit.__getitem__, row)) | tag[k] << shift, k)
        moved = [1 << i for i in key[0]].__getitem__
        image_tag = [key[1][t] for t in tag]
        get = index.get
        perm = array("q", [get(sum(map(moved, row)) | t << shift, -1)
                           for t, row in zip(image_tag, rows)])  # fmt: skip
        out.append(perm)
        if -1 in perm:
            missing = min(missing, perm.index(-1))
            continue  # no product is taken with it
        _close(made, gens, key, perm, asked)
    if missing < n:
        label = problem.labels[missing]
        raise SymmetryError(f"option {missing} ({label!r}) is mapped to no option")
    return out


def _close(made: dict[tuple[tuple[int, ...], tuple[int, ...]], array[int]],
           gens: list[tuple[tuple[int, ...], tuple[int, ...]]],
           key: tuple[tuple[int, ...], tuple[int, ...]], perm: array[int],
           asked: set[tuple[tuple[int, ...], tuple[int, ...]]]) -> None:
    """Add the map ``key`` (item and tag permutations) with its option permutation to
    ``made`` as a generator, then every map asked for that is a generator after a map made
    (``(g h)(x) = g(h(x))`` on items, tags and options alike), until no new one appears:
    about (maps) x (generators) products."""
    made[key] = perm
    gens.append(key)
    todo = list(made)
    while todo:
        first = todo.pop()
        for then in gens:
            product = (tuple(map(then[0].__getitem__, first[0])),
                       tuple(map(then[1].__getitem__, first[1])))
            if product in made or product not in asked:
                continue
            made[product] = array("q", map(made[then].__getitem__, made[first]))
            todo.append(product)


def _options_by_items_numpy(
    problem: CoverProblem,
    item_perms: Sequence[Sequence[int]],
    tags: Sequence[int] | None,
    tag_perms: Sequence[Sequence[int]] | None,
) -> np.ndarray:
    """:func:`options_by_items_all` on whole arrays: rows sorted, hashed and matched."""
    import numpy as np

    n = problem.n_options
    moves = np.asarray(item_perms, dtype=np.int64).reshape(len(item_perms), -1)
    g = len(moves)
    tag = np.zeros(n, dtype=np.int64) if tags is None else np.asarray(tags, dtype=np.int64)
    image_tag = (np.broadcast_to(tag, (g, n)) if tag_perms is None
                 else np.asarray(tag_perms, dtype=np.int64)[:, tag])
    sizes = np.diff(problem.start)
    perm = np.full((g, n), -1, dtype=np.int64)
    for size in _distinct(sizes):
        group = np.flatnonzero(sizes == size)
        rows = problem.items[problem.start[group][:, None] + np.arange(size)]
        here = np.concatenate([tag[group][:, None], np.sort(rows, axis=1)], axis=1)
        there = np.concatenate([image_tag[:, group][:, :, None],
                                np.sort(moves[:, rows], axis=2)], axis=2)
        perm[:, group] = _match_rows(here, there.reshape(g * len(group), size + 1),
                                     group).reshape(g, len(group))
    if (perm < 0).any():
        k = int(np.flatnonzero((perm < 0).any(axis=0))[0])
        raise SymmetryError(f"option {k} ({problem.labels[k]!r}) is mapped to no option")
    return perm


def _distinct(sizes: np.ndarray) -> list[int]:
    """The distinct values of an array of small non-negative integers, in order. Not
    ``np.unique``, which imports numpy.ma (10-13 ms of a small count's start-up, #23)."""
    import numpy as np

    values: list[int] = np.flatnonzero(np.bincount(sizes)).tolist()
    return values


def options_by_labels(problem: CoverProblem, move: Callable[[Any], Any]) -> array[int]:
    """The option permutation that sends the option labelled ``x`` to the one labelled
    ``move(x)`` (labels must be distinct and hashable); for kinds with few options. A row of
    ``array('q')``: the kind hands its rows to :func:`in_form`."""
    index = problem.label_index
    if len(index) < problem.n_options:
        first: dict[Any, int] = {}
        for k, label in enumerate(problem.labels):
            if first.setdefault(label, k) != k:
                raise SymmetryError(f"options {first[label]} and {k} have one label {label!r}")
    labels = problem.labels
    get = index.get
    perm = array("q", bytes(8 * problem.n_options))
    for k, label in enumerate(labels):
        if not k % CHECK_EVERY:
            building(CHECK_EVERY)  # a run's time limit holds here too (#28)
        image = get(move(label))
        if image is None:
            raise SymmetryError(f"option {k} ({label!r}) is mapped to no option")
        perm[k] = image
    return perm


def in_form(problem: CoverProblem, rows: Sequence[array[int]]) -> Perms:
    """Option permutations built row by row (:func:`options_by_labels`) in the form that
    :func:`plain_path` chooses for the group's work: kept as rows, or one numpy array."""
    if plain_path(len(rows) * len(problem.arrays.items)):
        return list(rows)
    import numpy as np

    return np.array(rows, dtype=np.int64).reshape(len(rows), problem.n_options)


def group_of(problem: CoverProblem, perms: Iterable[Sequence[int]]) -> tuple[Perms, Perms]:
    """Distinct option permutations, identity first, checked: each is one-to-one, keeps
    the problem (an option's items go onto its image's items, bounds kept) and together they
    form a group. Maps that move no option collapse into the identity. Returned with the
    item permutation of each (:func:`item_permutations`), in the form given: plain rows of
    ``array('q')`` stay plain (the plain path, :func:`plain_path`), anything else is numpy."""
    given: list[Any] = list(perms)
    if is_plain(given):
        return _group_of_plain(problem, given)
    import numpy as np

    n = problem.n_options
    identity = np.arange(n, dtype=np.int64)
    rows: dict[bytes, np.ndarray] = {identity.tobytes(): identity}
    for each in given:
        perm = np.asarray(each, dtype=np.int64)
        if perm.shape != (n,) or not np.array_equal(np.sort(perm), identity):
            raise SymmetryError("a symmetry is not a permutation of the options")
        rows.setdefault(perm.tobytes(), perm)
    _check_closed(rows, n)
    group = np.array(list(rows.values()), dtype=np.int64).reshape(len(rows), n)
    return group, item_permutations(problem, group)  # raises unless each keeps the problem


def _group_of_plain(
    problem: CoverProblem, perms: list[array[int]]
) -> tuple[list[array[int]], list[array[int]]]:
    """:func:`group_of` on rows of ``array('q')``."""
    n = problem.n_options
    identity = array("q", range(n))
    everyone = identity.tolist()
    rows: dict[bytes, array[int]] = {identity.tobytes(): identity}
    for perm in perms:
        if len(perm) != n or sorted(perm) != everyone:
            raise SymmetryError("a symmetry is not a permutation of the options")
        rows.setdefault(perm.tobytes(), perm)
    recipe = _check_closed_plain([row.tolist() for row in rows.values()])
    group = list(rows.values())
    return group, _item_permutations_plain(problem, group, recipe)


def _check_closed(rows: dict[bytes, np.ndarray], n: int) -> None:
    """Raise unless the permutations (keyed by their bytes, the identity among them) form a
    group: the group generated by some of them is grown one generator at a time and must
    stay inside the set and end up as all of it. That takes about |G| x (generators)
    compositions; checking every pair (|G|^2) took 11 s under cProfile for the 1,352 maps of
    a 13 x 13 torus, and its whole count 3.7 s of CPU against 0.7 s now. The rows are
    numpy's (:func:`_check_closed_plain` does the same on tuples)."""
    generators: list[np.ndarray] = []
    first = next(iter(rows.values()))
    reached = {first.tobytes(): first}
    for perm in rows.values():
        if perm.tobytes() in reached:
            continue
        generators.append(perm)
        queue = list(reached.values())
        while queue:
            x = queue.pop()
            for g in generators:
                building(1 + n // 64)  # a run's time limit holds here too (#28)
                y = g[x]
                key = y.tobytes()
                if key in reached:
                    continue
                if key not in rows:
                    raise SymmetryError("the symmetries do not form a group")
                reached[key] = y
                queue.append(y)


def _check_closed_plain(rows: list[list[int]]) -> list[tuple[int, int] | None]:
    """:func:`_check_closed` on tuples: a composition is one ``itemgetter`` call (5 us for
    the 688 options of the Soma cube, against 89 us for ``array('q', map(...))``). Returns
    how each row was reached: None for the first (the identity) and each generator, else
    ``(g, x)``, the rows whose product it is (``x`` first, then ``g``), ``x`` reached
    before it."""
    how: list[tuple[int, int] | None] = [None] * len(rows)
    if len(rows[0]) <= 1:
        return how  # one permutation of at most one option: the identity
    where = {tuple(row): k for k, row in enumerate(rows)}
    generators: list[tuple[int, ...]] = []
    reached = {tuple(rows[0])}
    for row in rows:
        perm = tuple(row)
        if perm in reached:
            continue
        generators.append(perm)
        reached.add(perm)  # worked out on its own (how: None)
        queue = list(reached)
        while queue:
            x = queue.pop()
            take = itemgetter(*x)  # y = g[x]: y[i] = g[x[i]]
            for g in generators:
                building(1 + len(x) // 64)  # a run's time limit holds here too (#28)
                y = take(g)
                if y in reached:
                    continue
                if y not in where:
                    raise SymmetryError("the symmetries do not form a group")
                reached.add(y)
                how[where[y]] = (where[g], where[x])
                queue.append(y)
    return how


def _item_permutations_plain(
    problem: CoverProblem, perms: Sequence[array[int]],
    how: Sequence[tuple[int, int] | None] | None = None,
) -> list[array[int]]:
    """:func:`item_permutations` with each item's options as a tuple (a dict key), not a
    hash: the same matching (twins in order of their bounds and numbers), the same checks.
    A map that ``how`` gives as a product of two others (:func:`_check_closed_plain`) is
    their product on the items too: matching every item under every map was most of
    Bedlam's ``group_of``, 60 -> 36 ms (24 rotations, best of 5, 2026-12-07)."""
    a = problem.arrays
    n_items, n, n_primary = problem.n_items, problem.n_options, problem.n_primary
    covering: list[list[int]] = [[] for _ in range(n_items)]
    for k in range(n):
        for i in a.items[a.start[k] : a.start[k + 1]]:
            covering[i].append(k)  # each in increasing order
    bounds = [(a.lo[i], a.hi[i]) if i < n_primary else (0, -1) for i in range(n_items)]
    twins: dict[tuple[int, ...], list[int]] = {}  # the items covered by these options
    for i in sorted(range(n_items), key=lambda i: (bounds[i], i)):
        twins.setdefault(tuple(covering[i]), []).append(i)
    rank = [0] * n_items  # place among the items with the same options
    for same in twins.values():
        for r, i in enumerate(same):
            rank[i] = r
    own = [twins[tuple(c)] for c in covering]
    everyone = list(range(n_items))
    made: dict[int, array[int]] = {}
    for g in _reached_order(how, len(perms)):
        building(CHECK_EVERY)  # each map: a pass over every entry (#28: the time limit)
        product = None if how is None else how[g]
        if product is not None:  # a product of maps checked: it keeps the problem too
            then, first = made[product[0]], made[product[1]]
            made[g] = array("q", map(then.__getitem__, first))
            continue
        perm = perms[g]
        move = perm.tolist().__getitem__
        image = array("q", bytes(8 * n_items))
        for i, options in enumerate(covering):
            there = twins.get(tuple(sorted(map(move, options))))
            if there is None or len(there) != len(own[i]):
                raise SymmetryError(f"symmetry {g} maps the options of an item onto no item's")
            image[i] = there[rank[i]]
        if sorted(image) != everyone:
            raise SymmetryError(f"symmetry {g} does not permute the items")
        if any(bounds[j] != bounds[i] for i, j in enumerate(image)):
            raise SymmetryError(f"symmetry {g} does not keep the items' bounds")
        # No incidence check is needed: each item's options go exactly onto its image's
        # options (compared as tuples, not hashes), so an option k's items go into the items
        # of perm[k]; image is one-to-one and perm a permutation (group_of checked), so the
        # sizes add up to the same total and every option's items go onto exactly perm[k]'s
        made[g] = image
    return [made[g] for g in range(len(perms))]


def _reached_order(how: Sequence[tuple[int, int] | None] | None, n: int) -> list[int]:
    """The maps in an order where a product comes after its two factors: those worked out
    on their own first (in their order), then the products as :func:`_check_closed_plain`
    reached them (each after the map it was reached from)."""
    if how is None:
        return list(range(n))
    alone = [g for g in range(n) if how[g] is None]
    done = set(alone)
    order = list(alone)
    left = [g for g in range(n) if how[g] is not None]
    while left:
        later = []
        for g in left:
            pair = how[g]
            assert pair is not None
            if pair[0] in done and pair[1] in done:
                done.add(g)
                order.append(g)
            else:
                later.append(g)
        assert len(later) < len(left), "a product was reached before its factors"
        left = later
    return order


def _weights(seed: int, size: int) -> np.ndarray:
    """``size`` pseudo-random odd weights in [1, 2**62), the same on every run, for hashing
    rows and sets (every match they find is checked exactly): splitmix64 (Steele, Lea and
    Flood 2014) in numpy's wrapping uint64 arithmetic. Not numpy.random, whose import alone
    costs 12-15 ms of a small count's start-up (issue #23)."""
    import numpy as np

    z = np.arange(1, size + 1, dtype=np.uint64) * np.uint64(0x9E3779B97F4A7C15) + np.uint64(seed)
    z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
    z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    z ^= z >> np.uint64(31)
    weights: np.ndarray = (z >> np.uint64(2)).astype(np.int64) | 1
    return weights


def item_permutations(problem: CoverProblem, perms: np.ndarray) -> np.ndarray:
    """The item permutation of each option permutation (one row each): item ``i`` goes to
    the item covered by exactly the images of the options that cover ``i``.

    This is how board maps are derived from the one representation of symmetry. Items
    covered by the same options ("twins": two cells only ever covered together) are matched
    in order of their bounds and numbers; any such matching keeps the problem, and a count
    or a sweep cannot tell them apart. Raises SymmetryError when some permutation does not
    keep the problem (checked exactly, not by hash).
    """
    import numpy as np

    n_items, n = problem.n_items, problem.n_options
    entry_option = np.repeat(np.arange(n), np.diff(problem.start))
    weights = _weights(54321, max(n, 1))
    lo = np.zeros(n_items, dtype=np.int64)
    hi = np.full(n_items, -1, dtype=np.int64)  # secondary items: -1
    lo[: problem.n_primary] = problem.lo
    hi[: problem.n_primary] = problem.hi
    home = _set_hashes(n_items, problem.items, weights[entry_option])
    order = np.lexsort((np.arange(n_items), hi, lo, home))  # by options, then bounds
    sorted_home = home[order]
    first = np.ones(n_items, dtype=bool)
    first[1:] = sorted_home[1:] != sorted_home[:-1]
    starts = np.flatnonzero(first)
    counts = np.diff(np.append(starts, n_items))
    ranks = np.empty(n_items, dtype=np.int64)  # place among the items with the same options
    ranks[order] = np.arange(n_items) - np.repeat(starts, counts)
    keys = sorted_home[starts]
    out = np.empty((len(perms), n_items), dtype=np.int64)
    for g, perm in enumerate(np.asarray(perms, dtype=np.int64)):
        building(CHECK_EVERY)  # each map: a pass over every entry (#28: the time limit)
        moved = _set_hashes(n_items, problem.items, weights[perm[entry_option]])
        at = np.minimum(np.searchsorted(keys, moved), max(len(keys) - 1, 0))
        found = keys[at] == moved if n_items else np.zeros(0, dtype=bool)
        own = np.searchsorted(keys, home)
        if not found.all() or (counts[at] != counts[own]).any():
            raise SymmetryError(f"symmetry {g} maps the options of an item onto no item's")
        image = order[starts[at] + ranks]
        if not np.array_equal(np.sort(image), np.arange(n_items)):
            raise SymmetryError(f"symmetry {g} does not permute the items")
        if (lo[image] != lo).any() or (hi[image] != hi).any():
            raise SymmetryError(f"symmetry {g} does not keep the items' bounds")
        _check_incidence(problem, image, perm, g)
        out[g] = image
    return out


def _set_hashes(n_items: int, items: np.ndarray, weights: np.ndarray) -> np.ndarray:
    """For each item, the sum (mod 2**64) of the weights of the entries that cover it."""
    import numpy as np

    out = np.zeros(n_items, dtype=np.int64)
    with np.errstate(over="ignore"):
        np.add.at(out, items, weights)
    return out


def _check_incidence(problem: CoverProblem, image: np.ndarray, perm: np.ndarray, g: int) -> None:
    """Each option's items, moved, are exactly its image option's items."""
    import numpy as np

    sizes = np.diff(problem.start)
    if not np.array_equal(sizes[perm], sizes):
        raise SymmetryError(f"symmetry {g} maps an option onto one of another size")
    for size in _distinct(sizes):
        if size == 0:
            continue
        group = np.flatnonzero(sizes == size)
        rows = problem.items[problem.start[group][:, None] + np.arange(size)]
        theirs = problem.items[problem.start[perm[group]][:, None] + np.arange(size)]
        if not np.array_equal(np.sort(image[rows], axis=1), np.sort(theirs, axis=1)):
            raise SymmetryError(f"symmetry {g} does not map options onto options")


def _match_rows(here: np.ndarray, there: np.ndarray, names: np.ndarray) -> np.ndarray:
    """For each row of ``there``, the name of the equal row of ``here`` (rows of ``here``
    are distinct), or -1. Rows are hashed to one number each, and every match is checked
    against the rows themselves, so a hash collision can cost time but never correctness."""
    import numpy as np

    weights = _weights(12345, here.shape[1])
    with np.errstate(over="ignore"):
        h_here = (here * weights).sum(axis=1)
        h_there = (there * weights).sum(axis=1)
    order = np.argsort(h_here, kind="stable")
    at = np.minimum(np.searchsorted(h_here[order], h_there), len(order) - 1)
    candidate = order[at]
    good = (h_here[candidate] == h_there) & (here[candidate] == there).all(axis=1)
    ordered = h_here[order]
    if not good.all() and (ordered[1:] == ordered[:-1]).any():
        # equal hashes among distinct rows: match the slow, exact way
        _, ids = np.unique(np.concatenate([here, there]), axis=0, return_inverse=True)
        ids = ids.reshape(-1)
        where = np.full(ids.max() + 1, -1, dtype=np.int64)
        where[ids[: len(here)]] = names
        return where[ids[len(here) :]]
    return np.where(good, names[candidate], -1)


@dataclasses.dataclass(frozen=True)
class CountPart:
    """One search of a count cut down by symmetry: the solutions of the restricted problem
    holding every ``forced`` option and no ``excluded`` one. ``weighed`` False: counted,
    each solution standing for ``order`` raw solutions and 1 distinct; True: enumerated,
    each solution weighed by :meth:`SymmetryBreaking.leader_weight`."""

    forced: tuple[int, ...]
    excluded: tuple[int, ...]
    weighed: bool


@dataclasses.dataclass
class _Level2:
    """The second anchor for a first anchor ``o`` with a non-trivial stabiliser ``H``."""

    options: frozenset[int]  # the second anchor item's options (search indices)
    symmetric: tuple[int, ...]  # kept second anchors that some h != id in H also keeps


@dataclasses.dataclass
class _Choice:
    item: int
    keeps: Sequence[int]  # the group elements that map the item's options onto themselves
    cut: Sequence[int]  # the item's options that are not the smallest of their orbit
    symmetric: list[int]  # kept options (compatible with the anchor) with a non-trivial stabiliser


# Image entries (group order x solution size) weighed in one block: 2**21 int64 entries are
# 16 MB per array, so a block stays well under 100 MB with its temporaries.
_BLOCK = 1 << 21


class SymmetryBreaking:
    """A cover problem restricted by its symmetry group, and exact counts through it.

    Planned in the form of the permutations given (:data:`Perms`): numpy for a numpy array,
    plain Python for rows of ``array('q')`` (a small problem built while numpy was not
    loaded, :func:`plain_path`). Both give the same plan, restricted problem and weights
    (tests/test_symmetry_plain.py); weights are weighed in plain Python or numpy as
    :func:`plain_path` says for each batch of solutions."""

    def __init__(self, problem: CoverProblem, perms: Perms | Sequence[Sequence[int]]) -> None:
        """``perms``: the group as permutations of the problem's options, identity first."""
        self.base = problem
        self.plain = is_plain(perms)
        self.order = len(perms)
        n = problem.n_options
        self._numpy_forms: tuple[np.ndarray, np.ndarray, np.ndarray] | None = None
        self._weighed = 0  # entries weighed on the plain path (see PLAIN_WORK)
        self.P: Any  # (order, n_options): a numpy array, or a list of array('q') rows
        self.kept: Any  # the kept options: a numpy array, or an array('q')
        self.search_index: Any  # original option -> restricted option (-1: cut)
        self._kept_mask: Any  # original option -> kept? (numpy bool array, or list of bool)
        if self.plain:
            self.P = [int64_array(row) for row in perms]
            self._rows = [row.tolist() for row in self.P]  # lists: a faster getitem
            self._plain_tables()
        else:
            import numpy as np

            self.P = np.array(perms, dtype=np.int64).reshape(len(perms), n)
            self._numpy_tables()
        self.anchor_item: int | None = None
        self.full = True  # the anchor's options are mapped onto themselves by all of G
        n1: list[int] = []
        level2: dict[int, _Choice] = {}
        cut: list[int] = []
        if self.order > 1:
            n1, level2, cut = self._plan()
        removed: Any  # option -> deleted? (a list of bool, or a numpy bool array)
        if self.plain:
            removed = [False] * n
            for k in cut:
                removed[k] = True
            self.kept = array("q", [k for k in range(n) if not removed[k]])
            self.search_index = array("q", [-1]) * n
            for new, k in enumerate(self.kept):
                self.search_index[k] = new
            self._kept_mask = [not r for r in removed]
        else:
            import numpy as np

            removed = np.zeros(n, dtype=bool)
            removed[np.array(cut, dtype=np.int64)] = True
            self.kept = np.flatnonzero(~removed)
            self._kept_mask = ~removed
            self.search_index = np.full(n, -1, dtype=np.int64)
            self.search_index[self.kept] = np.arange(len(self.kept))
        search_index = self.search_index
        self._z: dict[int, list[int]] = {}  # original option -> its extra secondary items
        self._z_table: np.ndarray | None = None  # the same as a padded table, when weighed
        self.problem = self._restricted(level2)
        self._anchor_options: frozenset[int]
        if self.anchor_item is not None:
            anchors = self._covering(self.anchor_item)
            self._anchor_options = frozenset(int(search_index[k]) for k in anchors
                                             if not removed[k])  # fmt: skip
        else:
            self._anchor_options = frozenset()
        self.symmetric_anchors = tuple(int(search_index[o]) for o in n1)
        self.level2: dict[int, _Level2 | None] = {}
        for o in n1:
            choice = level2.get(o)
            if choice is None:
                self.level2[int(search_index[o])] = None
                continue
            options = self._covering(choice.item)
            self.level2[int(search_index[o])] = _Level2(
                frozenset(int(search_index[k]) for k in options if not removed[k]),
                tuple(int(search_index[k]) for k in choice.symmetric),
            )

    @classmethod
    def of(cls, puzzle: Symmetric) -> SymmetryBreaking:
        """The breaking of a puzzle's problem by its symmetry group."""
        return cls(puzzle.problem, puzzle.symmetries)

    def _plain_tables(self) -> None:
        """Each item's options (in order), and which items two options never share."""
        p = self.base
        a = p.arrays
        cov: list[list[int]] = [[] for _ in range(p.n_items)]
        for k in range(p.n_options):
            for i in a.items[a.start[k] : a.start[k + 1]]:
                cov[i].append(k)
        self._cov = cov
        self._strict: Any = [i < p.n_primary and a.hi[i] <= 1 for i in range(p.n_items)]

    def _numpy_tables(self) -> None:
        import numpy as np

        problem = self.base
        sizes = np.diff(problem.start)
        entry_option = np.repeat(np.arange(problem.n_options), sizes)
        by_item = np.argsort(problem.items, kind="stable")
        self._cov_opts = entry_option[by_item]
        self._cov_start = np.concatenate(
            [[0], np.cumsum(np.bincount(problem.items, minlength=problem.n_items))]
        )
        # Two options sharing one of these items are never chosen together. Secondary items
        # are left out: options that give one the same colour are compatible.
        strict = np.zeros(problem.n_items, dtype=bool)
        strict[: problem.n_primary] = problem.hi <= 1
        self._strict = strict

    # -- planning --------------------------------------------------------------------------
    def _covering(self, item: int) -> Any:
        """The options that cover ``item``, in increasing order (a list, or a numpy array)."""
        if self.plain:
            return self._cov[item]
        at = self._cov_start
        covering: Any = self._cov_opts[at[item] : at[item + 1]]
        return covering

    def _option_items(self, k: int) -> array[int]:
        a = self.base.arrays
        return a.items[a.start[k] : a.start[k + 1]]

    def _conflicts(self, option: int) -> set[int]:
        """Options sharing with ``option`` a primary item covered at most once: never chosen
        with it (the option itself included). Only sure conflicts are marked: a missed one
        costs some enumeration, a wrong one would cost correctness."""
        out: set[int] = set()
        for i in self._option_items(option):
            if self._strict[i]:
                out.update(int(k) for k in self._covering(i))
        return out

    def _choose(
        self, group: Sequence[int], candidates: Iterable[int], anchor: int | None
    ) -> _Choice | None:
        """The item whose options, cut to one per orbit, leave the least to enumerate.

        With ``anchor`` given, the whole ``group`` must keep the item's options and only
        options compatible with the anchor are weighed.
        """
        blocked = self._conflicts(anchor) if anchor is not None else None
        make = self._weigher_plain if self.plain else self._weigher_numpy
        weigh = make(group, blocked, anchor is not None)
        best: tuple[tuple[int, int, int], _Choice] | None = None
        for item in candidates:
            if len(self._covering(item)) == 0:
                continue
            found = weigh(item)
            if found is None:
                continue
            weighed, choice = found
            score = (-len(choice.keeps), len(choice.symmetric), weighed)
            if best is None or score < best[0]:
                best = (score, choice)
        return None if best is None else best[1]

    def _weigher_plain(
        self, group: Sequence[int], blocked: set[int] | None, whole: bool
    ) -> Callable[[int], tuple[int, _Choice] | None]:
        """For :meth:`_choose`: a function of an item that tells how many of its kept
        options would be weighed, and the choice (the maps of ``group`` that keep its
        options, those cut, the symmetric ones); None when only the identity keeps them, or
        (``whole``) when some map of ``group`` does not."""
        moves = [self._rows[g] for g in group]

        def weigh(item: int) -> tuple[int, _Choice] | None:
            options = self._cov[item]
            mine = set(options)
            take = itemgetter(*options)
            images = [take(m) for m in moves]
            if len(options) == 1:  # itemgetter of one index gives the element, not a tuple
                images = [(image,) for image in images]
            kept_by = [mine.issuperset(image) for image in images]
            keeps = [g for g, k in zip(group, kept_by, strict=True) if k]
            if len(keeps) == 1 or (whole and len(keeps) < len(group)):
                return None
            kept = [image for image, k in zip(images, kept_by, strict=True) if k]
            smallest = list(map(min, *kept))
            reps = [o for o, s in zip(options, smallest, strict=True) if s == o]
            weighed = reps if blocked is None else [o for o in reps if o not in blocked]
            # how many kept maps fix each option (the identity too), counted in C: a sum
            # per option cost the 3x4x5 solid pentominoes' breaking 37 ms, now 23 ms
            fixed: Counter[int] = Counter()
            for image in kept:
                fixed.update(compress(options, map(eq, image, options)))
            symmetric = [o for o in weighed if fixed[o] > 1]
            cut = [o for o, s in zip(options, smallest, strict=True) if s != o]
            return len(weighed), _Choice(item, keeps, cut, symmetric)

        return weigh

    def _weigher_numpy(
        self, group: Sequence[int], blocked: set[int] | None, whole: bool
    ) -> Callable[[int], tuple[int, _Choice] | None]:
        """:meth:`_weigher_plain` on whole arrays: the group's rows and the marks made once."""
        import numpy as np

        n = self.base.n_options
        group_a = np.asarray(group, dtype=np.int64)
        moves = self.P[group_a]
        mark = np.zeros(n, dtype=bool)
        block = None
        if blocked is not None:
            block = np.zeros(n, dtype=bool)
            block[np.fromiter(blocked, dtype=np.int64, count=len(blocked))] = True

        def weigh(item: int) -> tuple[int, _Choice] | None:
            options: Any = self._covering(item)
            mark[options] = True
            kept_by = mark[moves[:, options]].all(axis=1)
            mark[options] = False
            keeps = group_a[kept_by]
            if len(keeps) == 1 or (whole and len(keeps) < len(group_a)):
                return None
            images = moves[kept_by][:, options]
            smallest = images.min(axis=0)
            reps = options[smallest == options]
            weighed = reps if block is None else reps[~block[reps]]
            stab = (moves[kept_by][:, weighed] == weighed).sum(axis=0)
            symmetric = weighed[stab > 1]
            cut = options[smallest != options]
            return len(weighed), _Choice(item, keeps.tolist(), cut.tolist(), symmetric.tolist())

        return weigh

    def _plan(self) -> tuple[list[int], dict[int, _Choice], list[int]]:
        """The first anchor's symmetric options, the second anchor of each, and the first
        anchor's options to delete (not the smallest of their orbit)."""
        p = self.base
        lo, hi = p.arrays.lo, p.arrays.hi
        everyone = list(range(self.order))
        once = [i for i in range(p.n_primary) if lo[i] == 1 and hi[i] == 1]
        choice = self._choose(everyone, once, None)
        if choice is None:
            self.full = False
            return [], {}, []
        self.anchor_item = choice.item
        self.full = len(choice.keeps) == self.order
        cut = list(choice.cut)
        if not self.full:
            return [], {}, cut
        level2: dict[int, _Choice] = {}
        for o in choice.symmetric:
            stab = [g for g in everyone if self.P[g][o] == o]  # the maps that keep o
            # an item that o covers itself would cut nothing: o is its option in every case
            mine = set(self._option_items(o))
            second = self._choose(stab, [i for i in once if i not in mine], o)
            if second is not None:
                level2[o] = second
        return list(choice.symmetric), level2, cut

    def _restricted(self, level2: dict[int, _Choice]) -> CoverProblem:
        """The problem with the cut options deleted and one exclusion item per symmetric
        first anchor; item numbers of the original problem are unchanged."""
        p = self.base
        extra_names: list[Hashable] = []
        for o, choice in sorted(level2.items()):
            z = p.n_items + len(extra_names)
            extra_names.append(("symmetry-break", o))
            for k in [o, *choice.cut]:
                if self._kept_mask[k]:
                    self._z.setdefault(int(k), []).append(z)
        if len(self.kept) == p.n_options and not extra_names:
            return p
        if not self.plain:
            return self._restricted_numpy(extra_names)
        a = p.arrays
        start = [0]
        items: list[int] = []
        colors: list[int] = []
        for k in self.kept:  # each kept option's own entries, then its extra items
            items += a.items[a.start[k] : a.start[k + 1]]
            colors += a.colors[a.start[k] : a.start[k + 1]]
            zs = self._z.get(k, ())
            items += zs
            colors += [NO_COLOR] * len(zs)
            start.append(len(items))
        return p.replace(
            item_names=p.item_names + tuple(extra_names),
            start=array("q", start),
            items=array("q", items),
            colors=array("q", colors),
            labels=tuple(p.labels[k] for k in self.kept),
        )

    def _restricted_numpy(self, extra_names: list[Hashable]) -> CoverProblem:
        """:meth:`_restricted`'s arrays built on whole arrays (a big problem's options)."""
        import numpy as np

        p = self.base
        sizes = np.diff(p.start)[self.kept]
        extra = np.zeros(len(self.kept), dtype=np.int64)
        for k, zs in self._z.items():
            extra[self.search_index[k]] = len(zs)
        start = np.concatenate([[0], np.cumsum(sizes + extra)]).astype(np.int64)
        items = np.empty(start[-1], dtype=np.int64)
        colors = np.full(start[-1], NO_COLOR, dtype=np.int64)
        # each kept option's own entries go first in its new block
        src = np.flatnonzero(np.repeat(self._kept_mask, np.diff(p.start)))
        block = np.repeat(np.arange(len(self.kept)), sizes)  # new option of each entry
        dst = start[:-1][block] + np.arange(len(src)) - np.cumsum(sizes)[block] + sizes[block]
        items[dst] = p.items[src]
        colors[dst] = p.colors[src]
        for k, zs in self._z.items():
            i = self.search_index[k]
            items[start[i] + sizes[i] : start[i + 1]] = zs
        return p.replace(
            item_names=p.item_names + tuple(extra_names),
            start=start,
            items=items,
            colors=colors,
            labels=tuple(p.labels[k] for k in self.kept),
        )

    # -- per-solution weights --------------------------------------------------------------
    def original(self, chosen: Iterable[int]) -> tuple[int, ...]:
        """Options of the restricted problem as options of the puzzle's own problem."""
        return tuple(sorted(int(self.kept[k]) for k in chosen))

    def _searched(self, solution: Sequence[int]) -> bool:
        """Is this solution of the puzzle also a solution of the restricted problem?"""
        if not all(self._kept_mask[k] for k in solution):
            return False
        extra = [z for k in solution for z in self._z.get(k, ())]
        return len(extra) == len(set(extra))

    def orbit(self, solution: tuple[int, ...]) -> set[tuple[int, ...]]:
        """Every image of a solution (original option indices) under the group."""
        return {tuple(row) for row in images_of(self.P, solution)}

    def leader_weight(self, solution: tuple[int, ...]) -> int:
        """The size of the solution's orbit when it is the smallest member of its orbit that
        the restricted problem has, else 0: summed over the restricted solutions, the raw
        count; the number of non-zero weights is the distinct count.

        One solution at a time, in Python, for :func:`representatives`' lazy walk (numpy's
        calls cost more than this loop for one solution); counts use :meth:`leader_weights`.
        """
        orbit = self.orbit(solution)
        if min(t for t in orbit if self._searched(t)) != solution:
            return 0
        return len(orbit)

    def leader_weights(
        self, solutions: Sequence[Sequence[int]], restricted: bool = False
    ) -> list[int]:
        """:meth:`leader_weight` of many solutions at once: original option indices, or
        with ``restricted`` the options of the restricted problem (an engine's solutions).

        Weighing one solution at a time in Python cost about 36 us each (a dozen tuples and
        a set per solution); with numpy a block of solutions is moved by the whole group in
        one gather, each image sorted, and compared with its solution as arrays (see the note
        at :data:`_BLOCK`). A few solutions, numpy not loaded, are weighed in plain Python
        (:func:`plain_path`). "Smallest" is the order of sorted option tuples, as before, so
        the representatives shown do not change.
        """
        work = self._weighed + self.order * sum(map(len, solutions))
        if self.plain and plain_path(work):
            self._weighed = work  # the plain path's work so far, over every batch
            return self._leader_weights_plain(solutions, restricted)
        return self._leader_weights_numpy(solutions, restricted)

    def _leader_weights_plain(
        self, solutions: Sequence[Sequence[int]], restricted: bool
    ) -> list[int]:
        """:meth:`leader_weights` one solution at a time: its images, sorted, as tuples."""
        out: list[int] = []
        kept = self.kept
        for solution in solutions:
            chosen = sorted(map(kept.__getitem__, solution)) if restricted else sorted(solution)
            mine = tuple(chosen)
            fixed = 0
            leader = self._searched(mine)
            for row in self._rows:
                image = tuple(sorted(map(row.__getitem__, mine)))
                if image == mine:
                    fixed += 1
                elif leader and image < mine and self._searched(image):
                    leader = False
            out.append(self.order // fixed if leader else 0)
        return out

    def _numpy(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """The permutations, the kept options and the kept mask as numpy arrays (made once
        from the plain form when a batch of weights is big enough for numpy)."""
        if self._numpy_forms is None:
            import numpy as np

            if self.plain:
                self._numpy_forms = (
                    np.array(self.P, dtype=np.int64).reshape(self.order, self.base.n_options),
                    np.frombuffer(self.kept, dtype=np.int64) if len(self.kept)
                    else np.zeros(0, dtype=np.int64),
                    np.array(self._kept_mask, dtype=bool),
                )
            else:
                self._numpy_forms = (self.P, self.kept, self._kept_mask)
        return self._numpy_forms

    def _leader_weights_numpy(
        self, solutions: Sequence[Sequence[int]], restricted: bool
    ) -> list[int]:
        """:meth:`leader_weights` in blocks of solutions of one size, on whole arrays."""
        import numpy as np

        _, kept, _ = self._numpy()
        out = np.zeros(len(solutions), dtype=np.int64)
        sizes = np.fromiter(map(len, solutions), dtype=np.int64, count=len(solutions))
        for size in _distinct(sizes):
            if size == 0:
                out[sizes == 0] = 1  # the empty solution is its own orbit
                continue
            if sizes[0] == sizes[-1] == size and (sizes == size).all():  # the usual case
                rows = np.arange(len(solutions))
                chosen = np.array(solutions, dtype=np.int64)
            else:
                rows = np.flatnonzero(sizes == size)
                chosen = np.array([solutions[k] for k in rows.tolist()], dtype=np.int64)
            chosen = chosen.reshape(len(rows), size)
            chosen = np.sort(kept[chosen] if restricted else chosen, axis=1)
            step = max(1, _BLOCK // (self.order * size))
            for at in range(0, len(rows), step):
                out[rows[at : at + step]] = self._weigh_block(chosen[at : at + step])
        weights: list[int] = out.tolist()
        return weights

    def _weigh_block(self, chosen: np.ndarray) -> np.ndarray:
        """Weights of the solutions in the rows of ``chosen`` (sorted, one size)."""
        import numpy as np

        P, _, _ = self._numpy()
        images = np.sort(P[:, chosen], axis=2)  # (group, solution, option)
        differ = images != chosen
        moved = differ.any(axis=2)
        first = differ.argmax(axis=2)  # where an image first differs from its solution
        rows = np.arange(len(chosen))
        mine = chosen[rows, first]  # (group, solution), broadcast over the group
        theirs = np.take_along_axis(images, first[..., None], axis=2)[..., 0]
        searched = self._searched_images(images)
        # a leader: searched itself, and no searched image is smaller
        leader = searched[0] & ~(moved & (theirs < mine) & searched).any(axis=0)
        fixed = (~moved).sum(axis=0)  # the stabiliser: orbit size is order / |stabiliser|
        weights: np.ndarray = np.where(leader, self.order // fixed, 0)
        return weights

    def _searched_images(self, images: np.ndarray) -> np.ndarray:
        """:meth:`_searched` of each image (last axis: its sorted options), as a mask."""
        import numpy as np

        _, kept, kept_mask = self._numpy()
        if not self._z and len(kept) == self.base.n_options:
            return np.ones(images.shape[:-1], dtype=bool)  # nothing cut: every image searched
        ok: np.ndarray = kept_mask[images].all(axis=-1)
        if not self._z:
            return ok
        if self._z_table is None:  # each option's extra items, padded with -1
            width = max(len(zs) for zs in self._z.values())
            table = np.full((self.base.n_options, width), -1, dtype=np.int64)
            for k, zs in self._z.items():
                table[k, : len(zs)] = zs
            self._z_table = table
        extra = np.sort(self._z_table[images].reshape(*images.shape[:-1], -1), axis=-1)
        twice: np.ndarray = (extra[..., 1:] == extra[..., :-1]) & (extra[..., 1:] >= 0)
        return ok & ~twice.any(axis=-1)

    # -- counting --------------------------------------------------------------------------
    def parts(self, forced: Sequence[int] = (), excluded: Sequence[int] = ()) -> list[CountPart]:
        """The searches a count of the restricted problem is made of, for the solutions that
        hold every ``forced`` option and no ``excluded`` one (restricted indices): parts not
        weighed are counted, each solution standing for ``order`` raw ones and one distinct;
        weighed parts are enumerated, each solution weighed by :meth:`leader_weight`."""
        must = set(forced)
        out = set(excluded)
        if must & out:
            return []

        def part(yes: set[int], no: set[int], weighed: bool) -> CountPart:
            return CountPart(tuple(sorted(yes)), tuple(sorted(no)), weighed)

        def cut(
            must: set[int],
            symmetric: Sequence[int],
            options: frozenset[int],
            then: Callable[[int, set[int]], list[CountPart]],
        ) -> list[CountPart]:
            # one level of the cut: the solutions that hold none of the level's symmetric
            # options are counted; those that hold one of them are searched as ``then`` says
            parts = []
            if not must & set(symmetric):
                parts.append(part(must, out | set(symmetric), False))
            for o in symmetric:
                if o in out or (must & options) - {o}:
                    continue
                parts += then(o, must | {o})
            return parts

        def weighed(o: int, must: set[int]) -> list[CountPart]:
            return [part(must, out, True)]

        def second(o: int, must: set[int]) -> list[CountPart]:
            level = self.level2[o]
            if level is None:
                return weighed(o, must)
            return cut(must, level.symmetric, level.options, weighed)

        if not self.full:
            return [part(must, out, True)]
        return cut(must, self.symmetric_anchors, self._anchor_options, second)

    def describe(self) -> str:
        """A line saying how the symmetry was broken (for --why and debugging)."""
        if self.order == 1:
            return "the puzzle has no symmetry"
        cut = self.base.n_options - len(self.kept)
        name = self.base.item_names[self.anchor_item] if self.anchor_item is not None else None
        if name is None:
            return f"{self.order} symmetries, no anchor: every solution is weighed on its orbit"
        how = "all" if self.full else "some"
        return (
            f"{self.order} symmetries; anchor {name!r} kept by {how} of them: {cut} of its "
            f"options cut, {len(self.symmetric_anchors)} symmetric anchors kept"
        )

