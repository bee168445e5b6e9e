"""The plain-Python and the numpy forms of a puzzle's symmetry (cover/symmetry.py, issue #23
item 1: a small count loads no numpy) give the same group, plan, restricted problem, weights
and counts. The form is forced by patching ``symmetry.plain_path``, the one place it is
chosen; in a fresh interpreter with numpy blocked the plain path must need no numpy."""

from __future__ import annotations

import copy
import subprocess
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from itertools import islice
from typing import Any
from unittest import mock

import pytest
from hypothesis import HealthCheck, given, settings

from puzzlebox import catalog
from puzzlebox.cover import symmetry
from puzzlebox.cover.symmetry import (
    SymmetryBreaking,
    SymmetryError,
    images_of,
    is_plain,
    perm_lists,
    perms_bytes,
)
from puzzlebox.engine.registry import Job, start
from puzzlebox.engine.search import each_solution
from puzzlebox.puzzles import Puzzle
from test_memo import polyomino_puzzles
from test_symmetry import _check_polyomino, _puzzle, symmetric_polyomino


@contextmanager
def forced(plain: bool) -> Iterator[None]:
    """Every choice of :func:`symmetry.plain_path` inside the block is ``plain``."""
    with mock.patch.object(symmetry, "plain_path", lambda work: plain):
        yield


def built(make: Callable[[], Puzzle], plain: bool) -> Puzzle:
    """A fresh puzzle whose group and symmetry breaking were built in the form asked."""
    with forced(plain):
        puzzle = make()
        assert puzzle.symmetry_breaking.plain is plain
        assert is_plain(puzzle.symmetries) is plain
    return puzzle


def plan(sb: SymmetryBreaking) -> dict[str, Any]:
    """What a symmetry breaking decided, in plain ints (either form)."""
    p = sb.problem
    return {
        "order": sb.order,
        "kept": [int(k) for k in sb.kept],
        "search_index": [int(k) for k in sb.search_index],
        "mask": [bool(k) for k in sb._kept_mask],
        "anchor": sb.anchor_item,
        "full": sb.full,
        "symmetric": sb.symmetric_anchors,
        "anchors": sb._anchor_options,
        "level2": sb.level2,
        "z": sb._z,
        "parts": sb.parts(),
        "describe": sb.describe(),
        "restricted": (p.item_names, p.n_primary, p.labels, p.arrays),
    }


def solutions_and_images(sb: SymmetryBreaking, engine: str, limit: int) -> list[tuple[int, ...]]:
    """Up to ``limit`` solutions of the restricted search and all their images under the
    group (original options): leaders, non-leaders and solutions the search never meets."""
    _, search = start(Job(sb.problem), engine)
    found = [sb.original(c) for c in islice(each_solution(search), limit)]
    return sorted({image for s in found for image in sb.orbit(s)})


def check_equal(make: Callable[[], Puzzle], engine: str, limit: int) -> list[int]:
    """Compare the two forms of ``make()``'s symmetry; the weights of the solutions tried."""
    plain, numpy = built(make, True), built(make, False)
    assert perm_lists(plain.symmetries) == perm_lists(numpy.symmetries)
    assert perm_lists(plain._group[1]) == perm_lists(numpy._group[1])  # the item maps
    assert perms_bytes(plain.symmetries) == perms_bytes(numpy.symmetries)  # a task's hash
    some = list(range(min(3, plain.problem.n_options)))
    assert images_of(plain.symmetries, some) == images_of(numpy.symmetries, some)
    assert plain._symmetry_pairs() == numpy._symmetry_pairs()  # a memo sweep's maps
    a, b = plain.symmetry_breaking, numpy.symmetry_breaking
    assert plan(a) == plan(b)
    every = solutions_and_images(b, engine, limit)
    with forced(False):
        expected = b.leader_weights(every)
        assert a.leader_weights(every) == expected  # plain plan, numpy weights
    with forced(True):
        assert a.leader_weights(every) == expected  # plain plan, plain weights
    assert [a.leader_weight(s) for s in every] == expected
    searched = [s for s in every if a._searched(s)]  # as an engine gives them: restricted
    restricted = [tuple(int(a.search_index[k]) for k in reversed(s)) for s in searched]
    with forced(True):
        mine = a.leader_weights(restricted, restricted=True)
    with forced(False):
        assert b.leader_weights(restricted, restricted=True) == mine
    return expected


CATALOG = ["pentomino-6x10", "pentomino-5x12", "soma-cube",
           "hexiamonds-4x9-parallelogram",  # triangles
           "tetrahexes-4x7-parallelogram"]  # hexagons  # fmt: skip


@pytest.mark.parametrize("name", CATALOG)
def test_catalog_puzzles_plain_and_numpy_agree(name: str) -> None:
    weights = check_equal(lambda: catalog.load(name), "bitboard", 30)
    assert any(w == 0 for w in weights) and any(w > 0 for w in weights)


# kinds that build their permutations label by label (options_by_labels, in_form)
BY_LABELS = ["sudoku-4x4-empty", "cards-3x3", "queens-8",
             "polysticks-123-4x4-clipped-corners-1"]  # fmt: skip


@pytest.mark.parametrize("name", BY_LABELS)
def test_kinds_by_labels_plain_and_numpy_agree(name: str) -> None:
    check_equal(lambda: catalog.load(name), "compiled", 30)


@pytest.mark.parametrize("name", ["pentomino-6x10", "soma-cube"])
def test_catalog_counts_plain_and_numpy_agree(name: str) -> None:
    counts = []
    for plain in (True, False):
        puzzle = built(lambda: catalog.load(name), plain)
        with forced(plain):
            raw, distinct, _ = puzzle.count_search("bitboard")
        counts.append((raw, distinct))
    assert counts[0] == counts[1]
    assert counts[0] == {"pentomino-6x10": (9356, 2339), "soma-cube": (11520, 240)}[name]


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(puzzle=polyomino_puzzles())
def test_random_polyominoes_plain_and_numpy_agree(puzzle: Puzzle) -> None:
    # a fresh copy each time (the group and the breaking are cached on a puzzle): ``puzzle``
    # itself is never built
    def make() -> Puzzle:
        return copy.deepcopy(puzzle)

    check_equal(make, "reference", 50)
    counts = []
    for plain in (True, False):
        with forced(plain):
            raw, distinct, _ = built(make, plain).count_search("reference")
        counts.append((raw, distinct))
    assert counts[0] == counts[1]


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(case=symmetric_polyomino())
def test_symmetric_polyominoes_plain_and_numpy_agree(case: Any) -> None:
    """Symmetric boards: anchors kept by subgroups, second anchors, weighed parts."""
    check_equal(lambda: _puzzle(*case[:5]), "reference", 200)
    with forced(True):
        _check_polyomino(case)  # the plain path's counts against brute force


def test_weighing_counts_its_work_over_every_batch() -> None:
    """A count weighs step after step: the plain path holds while the sum of the batches'
    work is small, and once past the bound every later batch goes to numpy."""
    puzzle = built(lambda: catalog.load("soma-cube"), True)
    sb = puzzle.symmetry_breaking
    every = solutions_and_images(sb, "bitboard", 5)
    asked: list[int] = []

    def choose(work: int) -> bool:
        asked.append(work)
        return work <= 3 * sb.order * 7  # three solutions of seven pieces

    expected = sb.leader_weights(every)
    with mock.patch.object(symmetry, "plain_path", choose):
        weights = [w for s in every for w in sb.leader_weights([s])]
    assert weights == expected
    assert asked[:4] == [k * sb.order * 7 for k in (1, 2, 3, 4)]  # summed, then refused
    assert sb._weighed == 3 * sb.order * 7  # only the plain batches counted
    assert all(work > 3 * sb.order * 7 for work in asked[3:])


# A count's symmetry steps in a fresh interpreter with numpy blocked: building the group,
# the breaking and its parts, and weighing solutions need no numpy.
PROBE = """
import sys
sys.modules["numpy"] = None  # any import of numpy fails
from puzzlebox import catalog
from puzzlebox.cover.symmetry import SymmetryBreaking
puzzle = catalog.load(sys.argv[1])
sb = SymmetryBreaking.of(puzzle)
sb.parts()
# option sets weighed as a count weighs solutions (the weights do not ask for solutions)
weights = sb.leader_weights([tuple(range(k, k + 7)) for k in range(0, 70, 7)])
print(sb.plain, sb.order, len(sb.kept), weights)
"""


@pytest.mark.parametrize("name", ["pentomino-6x10", "soma-cube"])
def test_the_plain_path_needs_no_numpy(name: str) -> None:
    done = subprocess.run([sys.executable, "-c", PROBE, name], capture_output=True, text=True,
                          timeout=120, check=False)  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert done.stdout.split()[0] == "True"


def test_options_by_labels_maps_labels_and_refuses_what_it_cannot():
    """A permutation by labels: each option goes to the option labelled with its image. Two
    options with one label, or an image that labels no option, are refused in one line.
    The label index is the problem's own, made once (tetrasticks-6x6's 8 maps made it 8
    times)."""
    from puzzlebox.cover.problem import CoverBuilder

    def problem(labels: list[str]) -> Any:
        b = CoverBuilder()
        for cell in "abc":
            b.primary(cell)
        for cell, label in zip("abc", labels):
            b.option([cell], label)
        return b.build()

    p = problem(["x", "y", "z"])
    turn = {"x": "y", "y": "z", "z": "x"}
    assert list(symmetry.options_by_labels(p, turn.__getitem__)) == [1, 2, 0]
    assert p.label_index == {"x": 0, "y": 1, "z": 2} and "label_index" in vars(p)
    assert list(symmetry.options_by_labels(p, lambda x: x)) == [0, 1, 2]
    with pytest.raises(SymmetryError, match=r"option 0 \('x'\) is mapped to no option"):
        symmetry.options_by_labels(p, lambda x: x + "'")
    with pytest.raises(SymmetryError, match="options 0 and 2 have one label 'x'"):
        symmetry.options_by_labels(problem(["x", "y", "x"]), lambda x: x)


def test_maps_that_are_products_come_out_as_each_alone_would(
        monkeypatch: pytest.MonkeyPatch) -> None:  # fmt: skip
    """The plain path works out a few of the maps asked for one by one and the others as
    their products (items, tags and options alike), and so does the group's item maps: the
    same permutations as each map worked out alone, on Bedlam's 24 rotations."""
    asked: list[Any] = []
    real = symmetry.options_by_items_all

    def spy(*args: Any) -> Any:
        asked.append(args)
        return real(*args)

    monkeypatch.setattr(symmetry, "options_by_items_all", spy)
    monkeypatch.setattr(symmetry, "plain_path", lambda work: True)  # numpy may be loaded
    perms = catalog.load("bedlam-cube").build_symmetries()
    [(problem, item_perms, tags, tag_perms)] = asked
    assert len(item_perms) == 24 and symmetry.is_plain(perms)
    alone = [symmetry._options_by_items_plain(problem, [move], tags, [rename])[0]
             for move, rename in zip(item_perms, tag_perms, strict=True)]
    assert [list(p) for p in perms] == [list(p) for p in alone]
    # and the group's item maps: the products' composed, each the same as matched alone
    group, items = symmetry.group_of(problem, perms)
    how = symmetry._check_closed_plain([list(row) for row in group])
    assert len(how) == 24 and sum(h is None for h in how) <= 6  # the rest are products
    assert [list(p) for p in items] == [
        list(p) for p in symmetry._item_permutations_plain(problem, group)]


def test_a_map_that_sends_an_option_to_none_is_refused_among_products() -> None:
    """A map under which some option has no image is named by its first such option, and
    is never composed with the others."""
    from puzzlebox.cover.problem import CoverBuilder

    b = CoverBuilder()
    for cell in "abc":
        b.primary(cell, 0, 1)
    b.option(["a"], "A")
    b.option(["b"], "B")
    p = b.build()
    identity, swap, off = [0, 1, 2], [1, 0, 2], [2, 1, 0]  # off: a -> c, no option {c}
    with forced(True):
        assert [list(q) for q in symmetry.options_by_items_all(p, [identity, swap])] == [
            [0, 1], [1, 0]]
        with pytest.raises(SymmetryError, match=r"option 0 \('A'\) is mapped to no option"):
            symmetry.options_by_items_all(p, [identity, swap, off])
