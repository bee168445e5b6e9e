"""The memoised count (engine/memo.py): known values, and the enumerating engine as oracle."""

from __future__ import annotations

import json
from random import Random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine_runs import reference_count, reference_solutions
from puzzlebox import catalog
from puzzlebox.cli import main
from puzzlebox.cover.problem import CoverBuilder, CoverProblem
from puzzlebox.engine import memo
from puzzlebox.engine.memo import (
    MemoDeclined,
    SweepPlan,
    build_sweep,
)
from puzzlebox.engine.memory import parse_memory
from puzzlebox.engine.registry import EngineDeclined, choose, start
from puzzlebox.engine.search import Job, Mode, count_all
from puzzlebox.formats.reader import read_text
from puzzlebox.puzzles import Puzzle


def tiling(rows: int, cols: int, pieces: str) -> Puzzle:
    grid = "/".join("#" * cols for _ in range(rows))
    return read_text(f'[board]\ngrid = "{grid}"\n[pieces]\n{pieces}\n', "test", "t").puzzles[0]


MONO_DOMINO = 'm = { shape = "#", count = "any" }\nd = { shape = "##", count = "any" }'
DOMINO = 'd = { shape = "##", count = "any" }'


def enumerated(puzzle: Puzzle) -> tuple[int, int]:
    """Raw and distinct counts by plain enumeration of the full problem."""
    keys = {
        puzzle.canonical_key(puzzle.decode(chosen))
        for chosen in reference_solutions(puzzle.problem)
    }
    raw = reference_count(puzzle.problem)
    return raw, len(keys)


@pytest.mark.parametrize(
    ("rows", "cols", "pieces", "raw"),
    [
        (1, 12, MONO_DOMINO, 233),
        (2, 10, MONO_DOMINO, 78_243),
        (3, 12, MONO_DOMINO, 1_820_552_297),
        (3, 50, MONO_DOMINO, 2530373879400570618547163034787837890646),
        (8, 8, DOMINO, 12_988_816),
    ],
)
def test_known_tiling_counts(rows: int, cols: int, pieces: str, raw: int) -> None:
    result = tiling(rows, cols, pieces).count(engine="memo")
    assert result.solutions == raw
    assert result.stats.engine == "memo"


def test_sweep_is_the_same_across_and_along() -> None:
    """A tall board is swept row by row: 12x3 has as many tilings as 3x12."""
    assert tiling(12, 3, MONO_DOMINO).count(engine="memo").solutions == 1_820_552_297


@pytest.mark.parametrize(
    ("n", "raw", "distinct"),
    [(4, 36, 9), (6, 6728, 930), (8, 12_988_816, 1_629_189)],  # OEIS A004003, A316535
)
def test_domino_squares_up_to_symmetry(n: int, raw: int, distinct: int) -> None:
    result = tiling(n, n, DOMINO).count(engine="memo")
    assert (result.solutions, result.distinct) == (raw, distinct)


def test_fibonacci_strip_up_to_symmetry() -> None:
    # 233 tilings; the mirror fixes 13 + 8 = 21 of them (halves of 6, or of 5 and a domino)
    result = tiling(1, 12, MONO_DOMINO).count(engine="memo")
    assert (result.solutions, result.distinct) == (233, (233 + 21) // 2)


@pytest.mark.parametrize("rows,cols", [(2, 3), (3, 3), (2, 4)])
def test_small_rectangles_match_enumeration(rows: int, cols: int) -> None:
    puzzle = tiling(rows, cols, MONO_DOMINO)
    result = puzzle.count(engine="memo")
    assert (result.solutions, result.distinct) == enumerated(puzzle)


SHAPES = ["#", "##", "###", "##/#.", "##/##", "###/.#.", "#../###"]
COUNTS = ["1", "2", '"any"', "[0, 2]", "[1, 3]"]


@st.composite
def polyomino_puzzles(draw: st.DrawFn) -> Puzzle:
    rows = draw(st.integers(1, 3))
    cols = draw(st.integers(1, 4))
    full = draw(st.booleans())
    grid = [
        "".join("#" if full or draw(st.integers(0, 4)) else "." for _ in range(cols))
        for _ in range(rows)
    ]
    if "#" not in "".join(grid):
        grid[0] = "#" + grid[0][1:]
    if draw(st.booleans()):  # tall boards are swept the other way
        grid = ["".join(row[c] for row in grid) for c in range(cols)]
    area = "".join(grid).count("#")
    fits = [shape for shape in SHAPES if shape.count("#") <= area]
    names = draw(st.lists(st.sampled_from(fits), min_size=1, max_size=3, unique=True))
    lines = [
        f'p{i} = {{ shape = "{shape}", count = {draw(st.sampled_from(COUNTS))} }}'
        for i, shape in enumerate(names)
    ]
    rotate, reflect = draw(st.booleans()), draw(st.booleans())
    text = (
        f'[board]\ngrid = "{"/".join(grid)}"\n[pieces]\n' + "\n".join(lines) + "\n"
        f"[rules]\nrotate = {str(rotate).lower()}\nreflect = {str(reflect).lower()}\n"
    )
    return read_text(text, "hypothesis", "h").puzzles[0]


@settings(max_examples=60, deadline=None)
@given(polyomino_puzzles())
def test_memo_matches_enumeration_on_random_puzzles(puzzle: Puzzle) -> None:
    counted = puzzle.count(engine="memo")
    assert counted.stats.engine == "memo" or counted.reason is not None  # (proved none)
    assert (counted.solutions, counted.distinct) == enumerated(puzzle)


@st.composite
def cover_problems(draw: st.DrawFn) -> tuple[CoverProblem, list[int], list[int]]:
    """Random exact covers of a line of cells, with counters bounded [lo, hi]."""
    n = draw(st.integers(1, 9))
    counters = draw(st.lists(st.tuples(st.integers(0, 2), st.integers(0, 3)), max_size=2))
    builder = CoverBuilder()
    for c in range(n):
        builder.primary(("cell", c))
    for j, (lo, extra) in enumerate(counters):
        builder.primary(("counter", j), lo, lo + extra)
    options = draw(
        st.lists(
            st.tuples(
                st.integers(0, n - 1),
                st.sets(st.integers(0, 3), max_size=3),
                st.sets(st.integers(0, max(len(counters) - 1, 0)), max_size=len(counters)),
            ),
            max_size=14,
        )
    )
    for first, offsets, uses in options:
        cells = sorted({first} | {first + d for d in offsets if first + d < n})
        items = [("cell", c) for c in cells] + [("counter", j) for j in sorted(uses)]
        builder.option(items, None)
    problem = builder.build()
    k = problem.n_options
    forced = draw(st.lists(st.integers(0, max(k - 1, 0)), max_size=2)) if k else []
    excluded = draw(st.lists(st.integers(0, max(k - 1, 0)), max_size=3)) if k else []
    return problem, forced, excluded


@settings(max_examples=150, deadline=None)
@given(cover_problems())
def test_sweep_matches_reference(case: tuple[CoverProblem, list[int], list[int]]) -> None:
    problem, forced, excluded = case
    order = list(range(problem.n_primary))
    order = [i for i in order if problem.item_names[i][0] == "cell"]
    max_states = 1 << 20
    assert build_sweep(problem, order).run(max_states)[0] == reference_count(problem)
    # options left out are dropped from the sweep (the forced ones of a case are not used:
    # the memo engine counts whole puzzles, never a split search's subproblems)
    sweep = build_sweep(problem, order, excluded=frozenset(excluded))
    assert sweep.run(max_states)[0] == reference_count(problem, (), excluded)


def test_the_memo_search_counts_a_tiling() -> None:
    puzzle = tiling(2, 5, MONO_DOMINO)
    _, search = start(Job(puzzle.problem, Mode.COUNT, puzzle=puzzle), "memo")
    assert count_all(search)[0] == reference_count(puzzle.problem)
    assert search.stats.engine == "memo" and search.stats.complete


def test_pieces_with_bounds_are_tracked() -> None:
    # exactly two dominoes and any monominoes on a 1x6 strip: two disjoint dominoes among
    # the 5 positions, C(4, 2) = 6 ways
    puzzle = tiling(1, 6, 'm = { shape = "#", count = "any" }\nd = { shape = "##", count = 2 }')
    assert puzzle.count(engine="memo").solutions == 6


def test_window_follows_the_short_side() -> None:
    puzzle = tiling(3, 50, MONO_DOMINO)
    plan = puzzle.sweep_plan()
    assert build_sweep(puzzle.problem, plan.order).window == 4
    tall = tiling(50, 3, MONO_DOMINO)
    assert build_sweep(tall.problem, tall.sweep_plan().order).window == 4


def test_auto_sweeps_many_copies_and_enumerates_single_pieces() -> None:
    assert tiling(3, 12, MONO_DOMINO).count().stats.engine == "memo"
    pentominoes = catalog.load_file("pentomino-6x10").puzzles[0]
    job = Job(pentominoes.problem, Mode.COUNT, puzzle=pentominoes)
    assert memo.auto_reason(job) is not None and choose(job).name == "bitboard"


def _dominoes(side: int) -> Puzzle:
    grid = "/".join(["#" * side] * side)
    text = f'[board]\ngrid = "{grid}"\n[pieces]\nD = {{ shape = "##", count = "any" }}\n'
    return read_text(text, "d.toml", "d").puzzles[0]


def test_a_sweep_too_wide_at_its_start_is_turned_away_before_its_tables(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Dominoes on 40x40: the profiles of the first column alone (Fibonacci many) pass
    auto's cap, seen by sweeping the first positions' moves; no sweep's tables are built
    and auto enumerates. On 8x8 the first positions stay small: auto sweeps."""
    built: list[int] = []
    real = memo.build_sweep
    monkeypatch.setattr(memo, "build_sweep", lambda *a, **k: built.append(1) or real(*a, **k))
    wide = _dominoes(40)
    job = Job(wide.problem, Mode.COUNT, puzzle=wide)
    before = memo.start_sweeps
    reason = memo.outgrows_at_start(job, 1 << 17)
    assert reason is not None and "states" in reason and memo.start_sweeps == before + 1
    assert choose(job).name != "memo" and built == []
    small = _dominoes(8)
    job = Job(small.problem, Mode.COUNT, puzzle=small)
    assert memo.outgrows_at_start(job, 1 << 17) is None and choose(job).name == "memo"
    assert small.count().solutions == 12_988_816 and built  # now the sweep is built


def test_declines_with_a_reason() -> None:
    queens = catalog.load_file("queens-8").puzzles[0]
    with pytest.raises(EngineDeclined, match="memo: this kind of puzzle gives no sweep order"):
        queens.count(engine="memo")  # refused by the registry before any search
    big = tiling(3, 50, MONO_DOMINO)
    with pytest.raises(MemoDeclined, match="memory limit"):
        big.count(engine="memo", max_memory=parse_memory("1K"))
    # auto with too little memory enumerates instead: check the decision, not the search
    _, search = start(Job(big.problem, Mode.COUNT, puzzle=big, max_memory=1024))
    assert isinstance(search, memo.MemoSearch)
    while search.handed_over is None:
        assert not search.step(1 << 10).done
    assert search.stats.engine != "memo"
    problem = CoverBuilder()
    problem.primary("a")
    problem.secondary("s")
    problem.option(["a", "s"], None)
    class Coloured:  # a puzzle whose problem gives a secondary item a colour
        def __init__(self) -> None:
            self.problem = problem.build()

        def sweep_plan(self) -> SweepPlan:
            return SweepPlan((0,))

    coloured = Coloured()
    with pytest.raises(MemoDeclined, match="may stay uncovered"):
        memo.MemoSearch(Job(coloured.problem, Mode.COUNT, puzzle=coloured))


def test_parse_memory() -> None:
    assert parse_memory("2G") == 2 * 1024**3
    assert parse_memory("512M") == 512 * 1024**2
    assert parse_memory("1.5GiB") == 3 * 1024**3 // 2
    assert parse_memory("1000") == 1000
    for bad in ("lots", "-1G", "0", "2X"):
        with pytest.raises(ValueError):
            parse_memory(bad)


@pytest.mark.parametrize(
    ("name", "raw"),
    [
        ("tiling-3x12", 1_820_552_297),
        ("tiling-3x50", 2530373879400570618547163034787837890646),
        ("dominoes-8x8", 12_988_816),
    ],
)
def test_catalog_counts_with_json(name: str, raw: int, capsys: pytest.CaptureFixture) -> None:
    assert catalog.load_file(name).title
    assert main(["count", name, "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["solutions"] == raw and out["engine"] == "memo"
    assert isinstance(out["distinct"], int) and 0 < out["distinct"] <= raw


def test_cli_memo_errors_are_one_line(capsys: pytest.CaptureFixture) -> None:
    assert main(["count", "queens-8", "--engine", "memo"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "memo" in err
    assert main(["count", "tiling-3x50", "--engine", "memo", "--max-memory", "2K"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "--max-memory" in err
    with pytest.raises(SystemExit) as stop:
        main(["count", "tiling-3x50", "--max-memory", "lots"])
    assert stop.value.code == 2


@settings(max_examples=100, deadline=None)
@given(cover_problems())
def test_array_layer_matches_the_dict(case: tuple[CoverProblem, list[int], list[int]]) -> None:
    """The array layer (numpy keys and ways) and the dict count alike, state for state."""
    problem, _, excluded = case
    order = [i for i in range(problem.n_primary) if problem.item_names[i][0] == "cell"]
    sweep = build_sweep(problem, order, excluded=frozenset(excluded))
    runs = [memo.SweepRun(sweep, 1 << 20, arrays=flag) for flag in (True, False)]
    for run in runs:
        while not run.done:
            run.advance(1)
    assert runs[0].total == runs[1].total == reference_count(problem, (), excluded)
    assert runs[0].visited == runs[1].visited


def test_array_layer_hands_big_ways_to_the_dict() -> None:
    """3x50 strips of monominoes and dominoes have 2.5 x 10^39 tilings: the sweep starts in
    arrays and goes on in the dict once the ways might overflow an int64."""
    puzzle = tiling(3, 50, MONO_DOMINO)
    run = memo.SweepRun(build_sweep(puzzle.problem, puzzle.sweep_plan().order), 1 << 20)
    assert run.arrays is not None
    handed = False
    while not run.done:
        run.advance(1)
        handed = handed or (run.arrays is None and not run.done)
    assert handed and run.total == 2530373879400570618547163034787837890646


def test_one_sided_style_pieces_each_once() -> None:
    """Pieces used once each (one-bit counters, the array layer's single AND): the twelve
    pentominoes in 3x20 have 2 tilings up to symmetry, 8 as placed (published)."""
    result = catalog.load_file("pentomino-3x20").puzzles[0].count(engine="memo")
    assert (result.solutions, result.distinct) == (8, 2)
    assert result.stats.engine == "memo"


@pytest.mark.parametrize(
    ("name", "raw"), [("pentomino-3x20", 8), ("tiling-3x12", 1_820_552_297)]
)
def test_merging_mirror_states_keeps_the_count(name: str, raw: int) -> None:
    """The identity sweep merges each state with its image under the board's mirror across
    the sweep (Sweep.set_symmetries): the same count from fewer states."""
    puzzle = catalog.load_file(name).puzzles[0]
    plan = puzzle.sweep_plan()
    plain = build_sweep(puzzle.problem, plan.order)
    merged = build_sweep(puzzle.problem, plan.order, merge_by=plan.symmetries())
    assert merged.symmetries and not plain.symmetries
    # the mirror across the sweep keeps the columns before each column start, the others not
    assert merged.key_maps(3 * 3) and not merged.key_maps(3 * 3 + 1)
    n_plain, visited_plain = plain.run(1 << 20)
    n_merged, visited_merged = merged.run(1 << 20)
    assert n_plain == n_merged == raw
    assert visited_merged < visited_plain


@settings(max_examples=60, deadline=None)
@given(polyomino_puzzles())
def test_merged_sweep_matches_the_plain_one(puzzle: Puzzle) -> None:
    """With every symmetry of a random puzzle offered for merging, the count is unchanged."""
    plan = puzzle.sweep_plan()
    try:
        plain = build_sweep(puzzle.problem, plan.order)
    except MemoDeclined:
        return
    merged = build_sweep(puzzle.problem, plan.order, merge_by=plan.symmetries())
    assert merged.run(1 << 20)[0] == plain.run(1 << 20)[0]


ONE_SIDED_TETROMINOES = """
I = { shape = "####", count = [0, 2] }
O = { shape = "##/##", count = [0, 2] }
T = { shape = "###/.#.", count = [0, 2] }
L = { shape = "###/#..", count = [0, 2] }
Lm = { shape = "###/..#", count = [0, 2] }
S = { shape = ".##/##.", count = [0, 2] }
Sm = { shape = "##./.##", count = [0, 2] }
"""


def test_merging_with_pieces_the_mirror_exchanges() -> None:
    """One-sided pieces (turned, never flipped), as in the 5x18 long count: the mirror that
    merges states exchanges L with Lm and S with Sm, whose counters (two bits each here)
    move with it. The enumerating engine is the oracle."""
    text = (
        '[board]\ngrid = "##########/##########/##########/##########"\n[pieces]'
        + ONE_SIDED_TETROMINOES
        + "[rules]\nrotate = true\nreflect = false\n"
    )
    puzzle = read_text(text, "test", "t").puzzles[0]
    plan = puzzle.sweep_plan()
    assert build_sweep(puzzle.problem, plan.order, merge_by=plan.symmetries()).symmetries
    swept = puzzle.count(engine="memo")
    enumerated_ = puzzle.count(engine="bitboard")
    assert (swept.solutions, swept.distinct) == (enumerated_.solutions, enumerated_.distinct)
    assert swept.solutions > 0 and swept.stats.engine == "memo"


@settings(max_examples=150, deadline=None)
@given(cover_problems(), st.randoms(use_true_random=False))
def test_the_plain_shape_is_the_numpy_one(
    case: tuple[CoverProblem, list[int], list[int]], rng: Random
) -> None:
    """memo._shape reads small problems in plain Python (no numpy for a small count, #23),
    larger ones with numpy: both give the same window, counters and counted options."""
    problem = case[0]
    if problem.n_options == 0:
        return
    cells = [i for i in range(problem.n_primary) if problem.item_names[i][0] == "cell"]
    order = rng.sample(cells, rng.randint(1, len(cells)))  # any order, any swept subset
    assert memo._shape_plain(problem, order) == memo._shape_numpy(problem, order)


@pytest.mark.parametrize("name", ["pentomino-6x10", "tiling-3x50", "soma-cube"])
def test_the_plain_shape_is_the_numpy_one_on_the_catalog(name: str) -> None:
    puzzle = catalog.load(name)
    plan = puzzle.sweep_plan() if hasattr(puzzle, "sweep_plan") else None
    order = plan.order if plan is not None else list(range(puzzle.problem.n_primary // 2))
    assert memo._shape_plain(puzzle.problem, order) == memo._shape_numpy(puzzle.problem, order)
