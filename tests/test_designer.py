"""A designer's rules (#17, items 1-3): per-piece rotate/reflect, givens, labelled sweeps.

Counts are checked three ways: by hand on puzzles small enough to draw, against a brute
force written here with its own geometry (it shares no code with the library), and, for the
calendar puzzle, against published figures.
"""

from __future__ import annotations

import itertools
import json
import random
from pathlib import Path

import pytest

from puzzlebox import catalog
from puzzlebox.cli import main
from puzzlebox.formats import PuzzleFileError, read_text
from puzzlebox.puzzles import PolyominoPuzzle
from puzzlebox.puzzles.labels import LabelSweepError, label_sweep, label_sweep_report

# -- an independent brute force ---------------------------------------------------------------

MATS = [(1, 0, 0, 1), (0, 1, -1, 0), (-1, 0, 0, -1), (0, -1, 1, 0),
        (1, 0, 0, -1), (-1, 0, 0, 1), (0, 1, 1, 0), (0, -1, -1, 0)]  # fmt: skip


def _norm(cells):
    r0 = min(r for r, _ in cells)
    c0 = min(c for _, c in cells)
    return frozenset((r - r0, c - c0) for r, c in cells)


def _apply(mat, cells):
    a, b, c, d = mat
    return [(a * r + b * q, c * r + d * q) for r, q in cells]


def _allowed(cells, rotate, reflect):
    """The orientations the rules allow: turns from MATS[0:4], the mirror MATS[4]."""
    mats = MATS[:4] if rotate else MATS[:1]
    out = {_norm(_apply(m, cells)) for m in mats}
    if reflect:
        mirrored = _apply(MATS[4], cells)
        out |= {_norm(_apply(m, mirrored)) for m in mats}
    return out


def brute(board, pieces, givens=()):
    """Every solution (a frozenset of (name, frozenset cells)) and the distinct count.

    ``pieces``: (name, cells, count, rotate, reflect), exact counts; ``givens``: (name,
    cells). A solution must contain every given; a map of the board counts as a symmetry
    when it keeps the board, sends each piece's orientations onto its own (or onto exactly
    one other piece's with the same count) and the givens onto givens."""
    board = set(board)
    shapes = {name: _allowed(cells, rot, ref) for name, cells, _, rot, ref in pieces}
    counts = {name: n for name, _, n, _, _ in pieces}
    places = {
        name: [frozenset((r + dr, c + dc) for r, c in shape)
               for shape in shapes[name] for dr in range(-6, 8) for dc in range(-6, 8)
               if all((r + dr, c + dc) in board for r, c in shape)]
        for name in shapes
    }  # fmt: skip
    order = sorted(board)
    found = set()

    def go(covered, used, chosen):
        free = [c for c in order if c not in covered]
        if not free:
            if used == counts:
                found.add(frozenset(chosen))
            return
        for name, options in places.items():
            if used[name] >= counts[name]:
                continue
            for cells in set(options):
                if free[0] in cells and not cells & covered:
                    used[name] += 1
                    go(covered | cells, used, chosen + [(name, cells)])
                    used[name] -= 1

    go(frozenset(), {name: 0 for name in counts}, [])
    wanted = {(name, frozenset(cells)) for name, cells in givens}
    solutions = {s for s in found if wanted <= s}
    maps = []
    for mat in MATS:
        moved = _apply(mat, order)
        if _norm(moved) != _norm(order):
            continue
        r0, c0 = min(r for r, _ in order), min(c for _, c in order)
        r1, c1 = min(r for r, _ in moved), min(c for _, c in moved)

        def f(cell, mat=mat, dr=r0 - r1, dc=c0 - c1):
            (r, c), = _apply(mat, [cell])
            return (r + dr, c + dc)

        rename = {}
        for name, mine in shapes.items():
            image = {_norm(_apply(mat, s)) for s in mine}
            if image == mine:
                rename[name] = name
            else:
                others = [o for o in shapes if shapes[o] == image and counts[o] == counts[name]]
                if len(others) == 1:
                    rename[name] = others[0]
        if len(rename) != len(shapes) or len(set(rename.values())) != len(shapes):
            continue
        if {(rename[n], frozenset(map(f, c))) for n, c in wanted} != wanted:
            continue
        maps.append((f, rename))

    def key(sol):
        return tuple(sorted((n, tuple(sorted(c))) for n, c in sol))

    forms = {
        min(key({(rename[n], frozenset(map(f, c))) for n, c in sol}) for f, rename in maps)
        for sol in solutions
    }
    return solutions, len(forms)


def toml_of(board, pieces, givens=(), rules="") -> str:
    rows = 1 + max(r for r, _ in board)
    cols = 1 + max(c for _, c in board)
    grid = "/".join("".join("#" if (r, c) in board else "." for c in range(cols))
                    for r in range(rows))
    lines = [f'[board]\ngrid = "{grid}"', rules]
    for name, cells, count, rotate, reflect in pieces:
        h = 1 + max(r for r, _ in cells)
        w = 1 + max(c for _, c in cells)
        shape = "/".join("".join("#" if (r, c) in cells else "." for c in range(w))
                         for r in range(h))
        lines.append(f'[pieces.{name}]\nshape = "{shape}"\ncount = {count}')
        lines.append(f"rotate = {str(rotate).lower()}\nreflect = {str(reflect).lower()}")
    for name, cells in givens:
        lines.append(f'[[givens]]\npiece = "{name}"\ncells = {[list(c) for c in sorted(cells)]}')
    return "\n".join(lines) + "\n"


def ours(text: str) -> PolyominoPuzzle:
    puzzle = read_text(text, "test.toml", "test").puzzles[0]
    assert isinstance(puzzle, PolyominoPuzzle)
    return puzzle


def solution_set(puzzle: PolyominoPuzzle):
    return {
        frozenset((p.piece, frozenset(p.cells)) for p in s.placements)  # type: ignore[attr-defined]
        for s in puzzle.solutions()
    }


# -- 1. per-piece rules -------------------------------------------------------------------------


def test_an_upright_piece_kills_the_rotations():
    """Two named dominoes on a 2x2 square: free, 4 solutions in one orbit of the 8 maps; with
    ``a`` kept horizontal, 2 solutions (a on top or below), and only the 4 maps that keep a
    horizontal domino horizontal are symmetries, under which the 2 are one."""
    free = ours('[board]\ngrid = "##/##"\n[pieces]\na = "##"\nb = "##"\n')
    assert len(free.symmetries) == 8
    assert (free.count().solutions, free.count().distinct) == (4, 1)
    upright = ours('[board]\ngrid = "##/##"\n[pieces]\nb = "##"\n'
                   '[pieces.a]\nshape = "##"\nrotate = false\n')
    assert len(upright.symmetries) == 4
    assert (upright.count().solutions, upright.count().distinct) == (2, 1)


def test_one_sided_pieces_in_a_free_set_are_exchanged_by_a_mirror():
    """An L tetromino and its mirror image, each one-sided (``reflect = false``) in a set
    whose rules are free, with two free dominoes, on a 2x6 rectangle: a mirror maps each one's
    orientations onto the other's, so it is a symmetry that exchanges them (counted against
    the brute force)."""
    text = ('[board]\ngrid = "######/######"\n[pieces.d]\nshape = "##"\ncount = 2\n'
            '[pieces.L]\nshape = "###/#.."\nreflect = false\n'
            '[pieces.J]\nshape = "###/..#"\nreflect = false\n')
    puzzle = ours(text)
    pieces = [("L", [(0, 0), (0, 1), (0, 2), (1, 0)], 1, True, False),
              ("J", [(0, 0), (0, 1), (0, 2), (1, 2)], 1, True, False),
              ("d", [(0, 0), (0, 1)], 2, True, True)]
    solutions, distinct = brute({(r, c) for r in range(2) for c in range(6)}, pieces)
    assert len(solutions) > distinct > 0
    result = puzzle.count()
    assert solution_set(puzzle) == solutions
    assert (result.solutions, result.distinct) == (len(solutions), distinct)
    assert any(goes == {"L": "J", "J": "L", "d": "d"} for *_, goes in puzzle.grid_symmetries())


# -- 2. givens ----------------------------------------------------------------------------------


def test_a_given_domino_on_a_2x3_board_by_hand():
    """Three dominoes tile 2x3 in 3 ways, 2 up to symmetry (the two with one vertical domino
    at an end are mirror images). With a vertical domino given at the left end, 2 ways
    remain, and the mirror is no longer a symmetry (it moves the given to the right end):
    2 distinct, each solution containing the given."""
    base = '[board]\ngrid = "###/###"\n[pieces.d]\nshape = "##"\ncount = 3\n'
    assert (ours(base).count().solutions, ours(base).count().distinct) == (3, 2)
    given = ours(base + '[[givens]]\npiece = "d"\ncells = [[0, 0], [1, 0]]\n')
    assert (given.count().solutions, given.count().distinct) == (2, 2)
    assert len(given.symmetries) == 2  # the identity and the top-bottom flip
    for solution in given.solutions():
        assert ("d", ((0, 0), (1, 0))) in [(p.piece, p.cells) for p in solution.placements]


def test_givens_by_position_and_orientation_and_on_the_piece_table():
    """``at = [row, col]`` with ``turns`` and ``flip`` places the piece's drawing, and ``at``
    on a piece table gives its cells: the same given L four ways, the same counts, fewer than
    without it."""
    base = '[board]\ngrid = "####/####/####"\n[pieces]\nI = "####"\nJ = "###/..#"\n'

    def with_l(drawing: str, extra: str) -> PolyominoPuzzle:
        return ours(base + f'[pieces.L]\nshape = "{drawing}"\n' + extra)

    given = [
        with_l("###/#..", "at = [[0, 0], [0, 1], [0, 2], [1, 0]]\n"),
        with_l("###/#..", '[[givens]]\npiece = "L"\nat = [0, 0]\n'),
        with_l("..#/###", '[[givens]]\npiece = "L"\nat = [0, 0]\nturns = 2\n'),
        with_l("#../###", '[[givens]]\npiece = "L"\nat = [0, 0]\nturns = 2\nflip = true\n'),
    ]
    counts = {(p.count().solutions, p.count().distinct) for p in given}
    assert len(counts) == 1
    assert with_l("###/#..", "").count().solutions > next(iter(counts))[0] > 0
    for solution in given[2].solutions():
        assert ("L", ((0, 0), (0, 1), (0, 2), (1, 0))) in [
            (p.piece, p.cells) for p in solution.placements]  # type: ignore[attr-defined]


@pytest.mark.parametrize("seed", range(12))
def test_rules_and_givens_against_the_brute_force(seed):
    """Random small boards and pieces, each piece with random rules of its own, and a
    given taken from one of the brute force's solutions: every solution and the distinct
    count agree with the brute force (whose symmetries keep the givens)."""
    rng = random.Random(seed)
    shapes = [[(0, 0)], [(0, 0), (0, 1)], [(0, 0), (0, 1), (1, 0)], [(0, 0), (0, 1), (0, 2)],
              [(0, 0), (0, 1), (0, 2), (1, 0)], [(0, 0), (0, 1), (1, 1), (1, 2)],
              [(0, 0), (0, 1), (0, 2), (1, 1)], [(0, 0), (0, 1), (1, 0), (1, 1)]]
    for _ in range(200):
        rows, cols = rng.choice([(2, 3), (3, 3), (2, 4), (3, 4)])
        board = {(r, c) for r in range(rows) for c in range(cols)}
        pieces, area = [], 0
        names = iter("ABCDEFGH")
        while area < len(board):
            cells = rng.choice(shapes)
            count = rng.choice([1, 1, 2])
            if area + count * len(cells) > len(board):
                cells, count = [(0, 0)], len(board) - area
            pieces.append((next(names), cells, count, rng.random() < 0.6, rng.random() < 0.6))
            area += count * len(cells)
        solutions, _ = brute(board, pieces)
        if solutions:
            break
    chosen = sorted(rng.choice(sorted(solutions, key=sorted)), key=lambda p: sorted(p[1]))
    givens = [chosen[0]] if seed % 3 else []
    expected, distinct = brute(board, pieces, givens)
    puzzle = ours(toml_of(board, pieces, givens))
    assert solution_set(puzzle) == expected
    result = puzzle.count()
    assert (result.solutions, result.distinct) == (len(expected), distinct)


@pytest.mark.parametrize(
    "extra, message",
    [
        ('[[givens]]\npiece = "q"\ncells = [[0, 0], [0, 1]]\n', "givens.0.piece: no piece"),
        ('[[givens]]\npiece = "d"\ncells = [[0, 0], [0, 5]]\n', "is not on the board"),
        ('[[givens]]\npiece = "d"\ncells = [[0, 0], [1, 1]]\n', "are not piece 'd'"),
        ('[[givens]]\npiece = "d"\ncells = [[0, 0], [0, 1]]\n[[givens]]\npiece = "d"\n'
         'cells = [[0, 1], [1, 1]]\n', "covered by the given 'd' too"),
        ('[[givens]]\npiece = "d"\nat = [0, 0]\n[[givens]]\npiece = "d"\nat = [1, 0]\n'
         '[[givens]]\npiece = "d"\nat = [0, 2]\nturns = 1\n[[givens]]\npiece = "d"\n'
         'at = [1, 1]\n', "is given 4 times; its count allows 3"),
        ('[[givens]]\npiece = "d"\ncells = [[0, 0], [0, 1]]\nat = [0, 0]\n', "not both"),
        ('[[givens]]\npiece = "d"\nat = [0, 0]\nturns = 4\n', "must be at most 3"),
        ('[[givens]]\npiece = "d"\ncells = [0, 0]\n', "a cell is [row, col]"),
        ("[sweep]\nuncover = [\"month\"]\n", "needs [board.labels]"),
    ],
)
def test_bad_givens_are_one_line_errors_with_a_line(extra, message, tmp_path, capsys):
    path = tmp_path / "bad.toml"
    path.write_text('[board]\ngrid = "###/###"\n[pieces.d]\nshape = "##"\ncount = 3\n' + extra)
    assert main(["count", str(path), "--quiet"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and message in err
    assert f"{path}:" in err and err.split(f"{path}:")[1].split(":")[0].isdigit()


@pytest.mark.parametrize(
    "piece, message",
    [
        ('[pieces.d]\nshape = "##"\nrotate = "no"\n', "pieces.d.rotate: must be true or false"),
        ('[pieces.d]\nshape = "##"\nreflect = 1\n', "pieces.d.reflect: must be true or false"),
        ('[pieces.d]\nshape = "##"\nturn = true\n', "pieces.d.turn: unknown key"),
    ],
)
def test_bad_piece_rules_are_one_line_errors(piece, message):
    with pytest.raises(PuzzleFileError) as caught:
        read_text('[board]\ngrid = "##"\n' + piece, "x.toml", "x")
    assert message in str(caught.value) and "x.toml:" in str(caught.value)


def test_a_sweep_never_uncovers_a_given():
    """``sweep --uncover 1`` of a board with a given: a choice on the given's cells has no
    solution, said so; the others are solved around the given (uncovering [0, 1] leaves
    [0, 2] and [1, 1], which no domino joins)."""
    from puzzlebox.run.reports import sweep_report

    puzzle = ours('[board]\ngrid = "###/##."\n[pieces.d]\nshape = "##"\ncount = 2\n'
                  '[[givens]]\npiece = "d"\ncells = [[0, 0], [1, 0]]\n')
    report = sweep_report(puzzle, 1, count=True)
    by_cell = {r.uncovered[0]: r for r in report.results}
    assert by_cell[(0, 0)].proof == "given" and by_cell[(0, 0)].solutions == 0
    assert [by_cell[c].solutions for c in [(0, 1), (0, 2), (1, 1)]] == [0, 1, 1]


# -- 3. labels and labelled sweeps --------------------------------------------------------------

SMALL = """
[board]
grid = "###/###"
[board.labels]
col = "a b c/a b c"
[board.labels.corner]
NW = [0, 0]
SE = [1, 2]
pair = [[0, 1], [1, 1]]
[sweep]
uncover = ["corner", "col"]
skip = [["SE", "c"]]
[pieces]
d = { shape = "##", count = 2 }
"""


def test_labels_read_from_a_grid_and_a_table():
    puzzle = ours(SMALL)
    labels = puzzle.labels
    assert labels is not None
    assert labels.groups["col"] == {"a": ((0, 0), (1, 0)), "b": ((0, 1), (1, 1)),
                                    "c": ((0, 2), (1, 2))}
    assert labels.groups["corner"]["pair"] == ((0, 1), (1, 1))
    assert labels.text_of((0, 0)) == "a/NW"
    assert labels.combinations(("corner", "col")) == [
        ("NW", "a"), ("NW", "b"), ("NW", "c"), ("SE", "a"), ("SE", "b"),
        ("pair", "a"), ("pair", "b"), ("pair", "c")]


def test_a_labelled_sweep_counts_each_combination_against_the_brute_force():
    """Each combination leaves its labels' cells open; a combination naming a cell twice
    (NW with column a) is left out. Counts agree with the brute force on what is left."""
    puzzle = ours(SMALL)
    results = list(label_sweep(puzzle, ("corner", "col")))
    board = set(puzzle.board)
    seen = []
    for one in results:
        open_cells = set(one.result.uncovered)
        expected, _ = brute(board - open_cells, [("d", [(0, 0), (0, 1)], 2, True, True)])
        area_ok = len(board - open_cells) == 4
        assert one.result.solutions == (len(expected) if area_ok else 0)
        seen.append((one.labels["corner"], one.labels["col"]))
    assert ("NW", "a") not in seen and ("SE", "c") not in seen and ("SE", "a") in seen
    with pytest.raises(LabelSweepError, match="no label group 'week'"):
        list(label_sweep(puzzle, ("week",)))


def test_label_sweep_on_the_command_line(capsys, tmp_path):
    path = tmp_path / "small.toml"
    path.write_text(SMALL)
    assert main(["sweep", str(path), "--json", "--quiet"]) == 0
    rows = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [r["labels"] for r in rows][:2] == [{"corner": "NW", "col": "b"},
                                               {"corner": "NW", "col": "c"}]
    assert all({"solutions", "distinct", "uncovered", "solvable"} <= set(r) for r in rows)
    assert main(["sweep", str(path), "--uncover-groups", "col", "--quiet"]) == 0
    out = capsys.readouterr().out.splitlines()
    # column a or c open leaves a 2x2 square (2 ways), column b two separate dominoes (1 way);
    # a and c are mirror images, so one of them is copied
    assert out[0] == ("small: 3 combinations of col, 3 solvable, 5 solutions in all (2 counted, "
                      "the others are symmetric to one of them)")
    assert [line.split()[:2] for line in out[1:]] == [["a", "2"], ["b", "1"], ["c", "2"]]
    assert main(["sweep", str(path), "--uncover-groups", "week", "--quiet"]) == 2
    err = capsys.readouterr().err
    assert "no label group 'week'" in err and err.count("\n") == 1
    for wrong in (["--uncover", "1", "--uncover-groups", "col"], ["--fill-holes"]):
        assert main(["sweep", str(path), *wrong, "--quiet"]) == 2
        assert capsys.readouterr().err.count("\n") == 1


@pytest.mark.parametrize(
    "labels, message",
    [
        ('[board.labels]\nm = "A B C D"\n', "label 'D' is at [0, 3], which is not a board"),
        ('[board.labels.m]\nA = [5, 5]\n', "[5, 5] is not a board cell"),
        ('[board.labels.m]\nA = [0, 0]\nB = [0, 0]\n', "is named both 'A' and 'B'"),
        ('[board.labels]\nm = 3\n', "a group is a grid of labels"),
        ('[board.labels]\nm = "A"\n[sweep]\nuncover = ["n"]\n', "no label group is named 'n'"),
        ('[board.labels]\nm = "A"\n[sweep]\nuncover = ["m"]\nskip = [["Z"]]\n',
         "group 'm' has no label 'Z'"),
    ],
)
def test_bad_labels_are_one_line_errors(labels, message):
    text = '[board]\ngrid = "###/###"\n' + labels + '[pieces]\nd = "##"\n'
    text = text.replace('[pieces]\nd = "##"\n', '[pieces.d]\nshape = "##"\n', 1)
    with pytest.raises(PuzzleFileError) as caught:
        read_text(text, "x.toml", "x")
    assert message in str(caught.value) and "x.toml:" in str(caught.value)


# -- the calendar puzzle -------------------------------------------------------------------------

MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
DAYS_IN = dict(zip(MONTHS, [31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31]))


def calendar() -> PolyominoPuzzle:
    puzzle = catalog.load_file("calendar").puzzles[0]
    assert isinstance(puzzle, PolyominoPuzzle)
    return puzzle


def test_the_calendar_declares_the_366_real_dates():
    labels = calendar().labels
    assert labels is not None and labels.uncover == ("month", "day")
    dates = labels.combinations(labels.uncover)
    real = [(m, str(d)) for m in MONTHS for d in range(1, DAYS_IN[m] + 1)]
    assert dates == real and len(dates) == 366 and ("Feb", "29") in dates
    assert ("Feb", "30") not in dates and ("Apr", "31") not in dates
    # every label names one cell, months in the two top rows, days below
    assert all(len(c) == 1 for group in labels.groups.values() for c in group.values())
    assert labels.groups["month"]["Jul"] == ((1, 0),)
    assert labels.groups["day"]["31"] == ((6, 2),)


def test_the_calendar_pieces_cover_all_but_two_cells():
    puzzle = calendar()
    assert len(puzzle.board) == 43 and sum(len(p.shape) for p in puzzle.pieces) == 41
    assert sorted(len(p.shape) for p in puzzle.pieces) == [5] * 7 + [6]
    assert len(puzzle.symmetries) == 1  # the board has no symmetry


def test_may_1_has_the_published_57_solutions():
    """May 1 has 57 solutions (andrewmk/PuzzleADaySolver, README: "There are 57
    solutions"); Jan 1, 2 and 3 as the sweep counts them, each checked to be solutions."""
    puzzle = calendar()
    groups = ("month", "day")
    only = [("May", "1")]
    from puzzlebox.puzzles.labels import Labels

    assert puzzle.labels is not None
    one = Labels(puzzle.labels.groups, groups, tuple(only))
    small = PolyominoPuzzle(puzzle.name, puzzle.board, puzzle.pieces, labels=one)
    (result,) = list(label_sweep(small, groups))
    assert result.labels == {"month": "May", "day": "1"}
    assert (result.result.solutions, result.result.distinct) == (57, 57)


def test_too_many_solutions_to_list_fall_back_to_one_count_each(monkeypatch):
    """Past TALLY_MOST solutions the one search gives up and each combination is counted
    alone: the same answers."""
    from puzzlebox.puzzles import labels

    puzzle = ours(SMALL)
    listed = [r.result for r in label_sweep(puzzle, ("col",))]
    monkeypatch.setattr(labels, "TALLY_MOST", 2)
    assert labels._tally(puzzle, ("col",), "auto") is None
    counted = [r.result for r in label_sweep(puzzle, ("col",))]
    assert [(r.uncovered, r.solutions, r.distinct) for r in listed] == [
        (r.uncovered, r.solutions, r.distinct) for r in counted]
    assert [r.solutions for r in counted] == [2, 1, 2]


def test_one_search_for_all_combinations_agrees_with_one_count_each():
    """The sweep counts every combination from one search of the board with a hole per
    group (puzzles/labels.py: _tally); a named engine counts each combination's board
    alone. Both agree on January (31 dates) and on the small board's combinations, where
    some open boards have a symmetry of their own and are counted alone either way."""
    from puzzlebox.puzzles.labels import Labels

    puzzle = calendar()
    assert puzzle.labels is not None
    january = tuple(("Jan", str(d)) for d in range(1, 32))
    one = Labels(puzzle.labels.groups, ("month", "day"), january)
    small = PolyominoPuzzle(puzzle.name, puzzle.board, puzzle.pieces, labels=one)
    fast = [r.result for r in label_sweep(small, ("month", "day"))]
    alone = [r.result for r in label_sweep(small, ("month", "day"), engine="compiled")]
    assert [(r.uncovered, r.solutions, r.distinct) for r in fast] == [
        (r.uncovered, r.solutions, r.distinct) for r in alone]
    assert [r.solutions for r in fast][:3] == [64, 109, 47]
    other = ours(SMALL)
    for groups in [("corner", "col"), ("col",), ("corner",)]:
        fast = [r.result for r in label_sweep(other, groups)]
        alone = [r.result for r in label_sweep(other, groups, engine="compiled")]
        assert [(r.uncovered, r.solutions, r.distinct, r.reason) for r in fast] == [
            (r.uncovered, r.solutions, r.distinct, r.reason) for r in alone]


def test_the_whole_calendar_sweep_matches_the_published_figures():
    """``puzzlebox sweep calendar --json``: one object per real date (366); every date
    solvable; May 1 has 57; in all "over 24 thousand" solutions, "an average of 67 per date"
    (mrbjarksen/a-puzzle-a-day, README), exactly the 24,405 boards of that project's file
    of every solution, and each date as many as the file has for it (tests/data/
    calendar-published-counts.json, decoded from it). One search for all dates: about 1.5 s."""
    published = json.loads((Path(__file__).parent / "data" /
                            "calendar-published-counts.json").read_text())["dates"]
    report = label_sweep_report(calendar())
    assert len(report.results) == 366
    assert report.solvable == 366
    counts = {f"{r.labels['month']} {r.labels['day']}": r.result.solutions
              for r in report.results}
    assert counts["May 1"] == 57
    assert report.solutions >= 24_000 and round(report.solutions / 366) == 67
    assert report.solutions == sum(published.values()) == 24_405
    assert counts == published
    assert all(r.result.distinct == r.result.solutions for r in report.results)
    assert len({r.result.uncovered for r in report.results}) == 366


def test_combinations_are_products_in_order():
    """Without a declared restriction, a sweep over groups is their product, in order."""
    labels = calendar().labels
    assert labels is not None
    assert labels.combinations(("day", "month"))[:2] == [("1", "Jan"), ("1", "Feb")]
    assert len(labels.combinations(("day", "month"))) == 31 * 12
    assert list(itertools.islice(labels.combinations(("month",)), 3)) == [
        ("Jan",), ("Feb",), ("Mar",)]


# -- labels shown, and one combination solved ----------------------------------------------------


class _Recorder:
    """A canvas that records the text painted on it and ignores everything else."""

    def __init__(self) -> None:
        self.texts: list[tuple[float, float, str]] = []

    def text(self, x: float, y: float, s: str, size: float, **style: object) -> None:
        self.texts.append((x, y, s))

    def __getattr__(self, name: str):
        return lambda *args, **kwargs: 0.5


def test_show_draws_the_board_with_its_labels_and_the_declared_sweep():
    lines = calendar().describe_lines()
    at = lines.index("labels (month, day):")
    assert lines[at + 1].split() == ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "."]
    assert lines[at + 7].split() == ["29", "30", "31", ".", ".", ".", "."]
    assert lines[-1] == "sweep: one label of each of month, day left open (366 combinations)"
    rules = ours('[board]\ngrid = "###/###"\n[pieces.d]\nshape = "##"\ncount = 3\n'
                 'rotate = false\nat = [[0, 0], [0, 1]]\n').describe_lines()
    assert "own rules: d (rotate=no)" in rules and "given: d on [0, 0] [0, 1]" in rules


def test_pictures_write_each_label_in_its_cell():
    """The empty board: every label at its cell's centre; a solution of one date: only the
    two open cells' labels (the covered ones are under pieces)."""
    from puzzlebox.puzzles.labels import opened

    pytest.importorskip("matplotlib")
    puzzle = calendar()
    board = _Recorder()
    puzzle.puzzle_panels("calendar")[0].paint(board, 0.0, 0.0)  # type: ignore[arg-type]
    assert len(board.texts) == 43
    assert (0.5, 0.5, "Jan") in board.texts and (2.5, 6.5, "31") in board.texts
    one = opened(puzzle, ["Nov", "24"])
    solution = one.solve()
    assert solution is not None
    drawn = _Recorder()
    one.solution_panel(solution, "Nov 24").paint(drawn, 0.0, 0.0)  # type: ignore[arg-type]
    assert sorted(drawn.texts) == [(2.5, 5.5, "24"), (4.5, 1.5, "Nov")]  # (x, y): col, row


def test_solve_open_leaves_the_named_labels_uncovered(capsys):
    assert main(["solve", "calendar", "--open", "Nov,24", "--quiet"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0] == "calendar open Nov 24: solution 1"
    assert "open: Nov [1, 4], 24 [5, 2]" in out
    grid = out[1:8]
    assert grid[1][4] == "." and grid[5][2] == "." and sum(row.count(".") for row in grid) == 8
    assert main(["count", "calendar", "--open", "month=May,day=1", "--json", "--quiet"]) == 0
    row = json.loads(capsys.readouterr().out)
    assert (row["board"], row["solutions"]) == ("open month=May day=1", 57)
    assert main(["count", "calendar", "--open", "Maj", "--quiet"]) == 2
    assert "no label 'Maj'" in capsys.readouterr().err


def test_a_sweep_of_too_many_combinations_is_refused_in_one_line():
    from puzzlebox.puzzles.labels import MAX_COMBINATIONS, Labels

    wide = Labels({"a": {str(i): ((0, i),) for i in range(1001)},
                   "b": {str(i): ((1, i),) for i in range(1000)}})
    with pytest.raises(LabelSweepError, match=f"1001 x 1000 = 1001000 combinations; a sweep "
                       f"takes at most {MAX_COMBINATIONS}"):
        wide.combinations(("a", "b"))


def test_givens_stand_on_every_board_of_a_batch_and_must_fit_each():
    text = ('[[boards]]\nname = "a"\ngrid = "###/###"\n[[boards]]\nname = "b"\n'
            'grid = "####/##.."\n[pieces.d]\nshape = "##"\ncount = 3\n'
            '[[givens]]\npiece = "d"\ncells = [[0, 0], [1, 0]]\n')
    boards = read_text(text, "x.toml", "x").puzzles
    assert [(p.count().solutions, p.count().distinct) for p in boards] == [(2, 2), (1, 1)]
    with pytest.raises(PuzzleFileError, match=r"x.toml:15: givens.1.cells: the cell \[1, 2\] is "
                       r"not on the board \(board b\)"):
        read_text(text.replace("[1, 0]]", "[1, 0]]\n[[givens]]\npiece = \"d\"\n"
                               "cells = [[1, 1], [1, 2]]"), "x.toml", "x")


def test_a_given_on_a_coloured_board_must_match_its_colours():
    text = ('[board]\ngrid = "ab/ab"\n[rules]\nmatch_colors = true\n'
            '[pieces.d]\nshape = "ab"\ncount = 2\nat = [[0, 0], [0, 1]]\n')
    assert ours(text).count().solutions == 1
    with pytest.raises(PuzzleFileError, match="on cells of its colours"):
        read_text(text.replace("at = [[0, 0], [0, 1]]", "at = [[0, 0], [1, 0]]"), "x.toml", "x")


def test_a_declared_sweep_may_list_its_only_combinations():
    text = SMALL.replace('skip = [["SE", "c"]]', 'only = [["SE", "a"], ["pair", "c"]]')
    report = label_sweep_report(ours(text))
    assert [r.labels for r in report.results] == [{"corner": "SE", "col": "a"},
                                                  {"corner": "pair", "col": "c"}]
