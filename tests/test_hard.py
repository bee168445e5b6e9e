"""Hard instances: parallelogram polyominoes, the SAT engine, random edge-matching puzzles,
the scan-row edge-matching solver, randomised restarts and block tiling."""

from __future__ import annotations

import functools
import itertools
import sys
import time

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine_runs import reference_solutions
from puzzlebox import catalog
from puzzlebox.catalog.generate_families import SEMIPERIMETERS, family_files, family_name
from puzzlebox.cli import main
from puzzlebox.cover.problem import CoverBuilder, CoverProblem
from puzzlebox.engine import registry
from puzzlebox.engine.errors import EngineError
from puzzlebox.engine.restarts import HedgedSearch, RestartSearch, luby, permuted
from puzzlebox.engine.sat import SatEngine
from puzzlebox.engine.search import Job, Mode, Search, count_all, each_solution
from puzzlebox.geometry import Shape
from puzzlebox.puzzles import EdgeMatchingPuzzle, PolyominoPuzzle
from puzzlebox.puzzles.edge_matching.solver import EdgeSearch
from puzzlebox.puzzles.families import (
    catalan,
    family_board_side,
    parallelogram_polyominoes,
)
from puzzlebox.puzzles.generate import random_edge_matching
from puzzlebox.puzzles.polyomino.repair_tiling import is_tiling

# Checks of the parallelogram families' shapes, made on the cells and not on the paths the
# generator draws (they lived in puzzles/families.py, where nothing but these tests read them).


def semiperimeter_of(shape: Shape) -> int:
    """Half the perimeter of a polyomino: count its boundary edges."""
    cells = set(shape.cells)
    edges = sum(
        (r + dr, c + dc) not in cells
        for r, c in cells
        for dr, dc in ((1, 0), (-1, 0), (0, 1), (0, -1))
    )
    return edges // 2


def is_parallelogram_polyomino(shape: Shape) -> bool:
    """True when the shape is the region between two N/E paths that meet only at their ends.

    Checked directly on the cells: every column is one interval, the intervals' bottoms and
    tops rise (weakly) from left to right, and neighbouring columns share at least one row
    (so the two boundary paths never touch between the corners).
    """
    cells = set(shape.cells)
    height = shape.height
    columns: list[tuple[int, int]] = []
    for col in range(shape.width):
        ys = sorted(height - 1 - r for r, c in cells if c == col)
        if not ys or ys[-1] - ys[0] + 1 != len(ys):
            return False
        columns.append((ys[0], ys[-1]))
    for (b0, t0), (b1, t1) in zip(columns, columns[1:]):
        if b1 < b0 or t1 < t0 or b1 > t0:
            return False
    return True


@pytest.fixture
def compiled():
    """The compiled engine's registry name."""
    assert "compiled" in registry.names()
    return "compiled"


@functools.cache
def shared_puzzle(name: str) -> PolyominoPuzzle:
    """One catalog puzzle for the whole module: the first check of a tiling of
    parallelogram-7 builds its placements (3.6 s of CPU), and four tests check one."""
    puzzle = catalog.load_file(name).puzzles[0]
    assert isinstance(puzzle, PolyominoPuzzle)
    return puzzle


def restart_search(problem: CoverProblem, limit: int | None = None, **options) -> RestartSearch:
    """Randomised restarts around the compiled engine."""
    start = registry.get("compiled").start
    return RestartSearch(Job(problem, limit=limit), start, "compiled", **options)


def hedged_search(problem: CoverProblem, limit: int | None, **options) -> HedgedSearch:
    """The plain general engine hedged by restarts, as "auto" runs a first-few search."""
    spec = registry.general(Job(problem))
    return HedgedSearch(Job(problem, limit=limit), spec.start, spec.name, **options)


# -- parallelogram polyominoes ---------------------------------------------------------------


def _paths_oracle(sp: int) -> set[frozenset[tuple[int, int]]]:
    """Parallelogram polyominoes straight from the definition: an upper path starting north
    and a lower path starting east, both of ``sp`` N/E steps from (0, 0) to (w, h), sharing
    no point but their ends; the cells between them (column x lies between the heights at
    which the two paths step east from x)."""

    def walk(path):
        x = y = 0
        points, east_at = [], {}
        for step in path:
            if step == "E":
                east_at[x] = y
                x += 1
            else:
                y += 1
            points.append((x, y))
        return points[:-1], east_at

    found = set()
    for upper, lower in itertools.product(itertools.product("NE", repeat=sp), repeat=2):
        if upper[0] != "N" or lower[0] != "E" or upper.count("E") != lower.count("E"):
            continue
        w, h = upper.count("E"), sp - upper.count("E")
        if w == 0 or h == 0:
            continue
        up_points, top = walk(upper)
        low_points, bottom = walk(lower)
        if set(up_points) & set(low_points):
            continue
        found.add(
            frozenset((h - 1 - y, x) for x in range(w) for y in range(bottom[x], top[x]))
        )
    return found


@pytest.mark.parametrize("sp", range(2, 9))
def test_generator_counts_areas_and_shapes(sp):
    shapes = parallelogram_polyominoes(sp)
    assert len(shapes) == catalan(sp - 1)
    assert sum(len(s) for s in shapes) == 4 ** (sp - 2) == family_board_side(sp) ** 2
    assert len(set(shapes)) == len(shapes)
    assert all(is_parallelogram_polyomino(s) and semiperimeter_of(s) == sp for s in shapes)


def test_known_family_sizes():
    assert [len(parallelogram_polyominoes(sp)) for sp in (5, 6, 7)] == [14, 42, 132]


@pytest.mark.parametrize("sp", range(2, 7))
def test_generator_matches_the_two_path_definition(sp):
    mine = {frozenset(s.cells) for s in parallelogram_polyominoes(sp)}
    assert mine == _paths_oracle(sp)


def test_checker_rejects_other_shapes():
    assert is_parallelogram_polyomino(Shape.from_cells([(0, 1), (1, 0), (1, 1), (2, 0)]))
    for text in ["#.#", "##/.#/##", "#./##/.#", "#./##", "##./.##", ".#./###"]:
        cells = [(r, c) for r, row in enumerate(text.split("/")) for c, ch in enumerate(row)
                 if ch == "#"]
        shape = Shape.from_cells(cells)
        assert not is_parallelogram_polyomino(shape), text


def test_catalog_files_are_what_the_generator_writes():
    for path, text in family_files().items():
        assert path.read_text() == text, f"{path} is stale: rerun generate_families"


@pytest.mark.parametrize("sp", SEMIPERIMETERS)
@pytest.mark.parametrize("rotate", [False, True])
def test_catalog_pieces_are_the_family(sp, rotate):
    puzzle = catalog.load_file(family_name(sp, rotate)).puzzles[0]
    assert isinstance(puzzle, PolyominoPuzzle)
    side = family_board_side(sp)
    assert len(puzzle.board) == side * side
    assert {p.shape for p in puzzle.pieces} == set(parallelogram_polyominoes(sp))
    assert all(p.lo == p.hi == 1 for p in puzzle.pieces)
    assert puzzle.rotate is rotate and puzzle.reflect is False


def test_parallelogram_5_has_3204_tilings():
    puzzle = catalog.load_file("parallelogram-5").puzzles[0]
    # the bitboard engine (the compiled one is checked against the reference engine, and
    # took 27 s of the suite here)
    assert registry.count(puzzle.problem, "bitboard") == 3204


def test_recorded_tilings_are_valid():
    """Every tiling kept in docs/solutions/ (contract JSON) is checked as a cover."""
    import json
    from pathlib import Path

    from puzzlebox.puzzles.polyomino import Placement, PolyominoSolution

    folder = Path(__file__).resolve().parent.parent / "docs" / "solutions"
    records = sorted(folder.glob("parallelogram-*.json"))
    if not records:
        pytest.skip("no recorded tilings")
    for path in records:
        record = json.loads(path.read_text())
        assert record["puzzle"] == path.stem
        puzzle = shared_puzzle(record["puzzle"])
        placements = tuple(
            Placement(p["piece"], tuple(tuple(c) for c in p["cells"]))
            for p in record["placements"]
        )
        assert len(placements) == len(puzzle.pieces)
        assert is_tiling(puzzle, PolyominoSolution(placements)), path.name


# -- the SAT engine --------------------------------------------------------------------------


def _random_problem(data) -> CoverProblem:
    """A small random MCC problem: bounds, secondary items and colours."""
    b = CoverBuilder()
    n_primary = data.draw(st.integers(1, 4))
    n_secondary = data.draw(st.integers(0, 2))
    for i in range(n_primary):
        lo = data.draw(st.integers(0, 2))
        b.primary(("p", i), lo, lo + data.draw(st.integers(0, 1)))
    for j in range(n_secondary):
        b.secondary(("s", j))
    for k in range(data.draw(st.integers(1, 7))):
        prim = data.draw(st.sets(st.integers(0, n_primary - 1), min_size=1, max_size=n_primary))
        sec = data.draw(st.sets(st.integers(0, max(n_secondary - 1, 0)), max_size=n_secondary))
        items = [("p", i) for i in sorted(prim)] + [("s", j) for j in sorted(sec)]
        colors = [None] * len(prim) + [data.draw(st.sampled_from([None, "a", "b"])) for _ in sec]
        b.option(items, k, colors)
    return b.build()


@settings(max_examples=40, deadline=None)
@given(st.data())
def test_sat_enumeration_matches_the_reference(data):
    problem = _random_problem(data)
    expected = set(reference_solutions(problem))
    got = list(SatEngine(problem, workers=1).solutions())
    assert len(got) == len(set(got))
    assert set(got) == expected


@pytest.mark.parametrize("name", ["queens-5", "cards-3x3-corrected", "cards-3x3"])
def test_sat_on_catalog_puzzles(name):
    problem = catalog.load_file(name).puzzles[0].problem
    expected = set(reference_solutions(problem))
    _, search = registry.start(Job(problem), "sat")
    assert set(each_solution(search)) == expected
    assert search.stats.complete


def test_sat_first_solution_of_a_packing_is_a_cover():
    problem = catalog.load_file("pentomino-6x10").puzzles[0].problem
    engine = SatEngine(problem, workers=2)
    (solution,) = engine.solutions(limit=1)
    assert problem.is_solution(solution)


def test_sat_forced_and_excluded(compiled):
    problem = catalog.load_file("queens-8").puzzles[0].problem
    reference = list(reference_solutions(problem))
    forced, excluded = reference[0][:1], reference[0][1:2]
    expected = {s for s in reference if forced[0] in s and excluded[0] not in s}
    assert set(SatEngine(problem, forced, excluded, workers=1).solutions()) == expected


def test_sat_count_refuses_large_counts():
    problem = catalog.load_file("queens-8").puzzles[0].problem
    assert SatEngine(problem, workers=1, count_cap=100).count() == 92
    with pytest.raises(EngineError, match="at most 10 solutions"):
        SatEngine(problem, workers=1, count_cap=10).count()


def test_sat_missing_extra_is_one_clear_line(monkeypatch, capsys):
    monkeypatch.setitem(sys.modules, "ortools", None)
    monkeypatch.setitem(sys.modules, "ortools.sat", None)
    monkeypatch.setitem(sys.modules, "ortools.sat.python", None)
    with pytest.raises(EngineError, match=r"install -e .*\[sat\]"):  # the clone's form
        SatEngine(catalog.load_file("queens-5").puzzles[0].problem)
    assert main(["solve", "queens-5", "--engine", "sat"]) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and "OR-Tools" in err


def test_cli_solve_with_sat_prints_a_verified_solution(capsys):
    import json

    assert main(["solve", "y-pentomino-5x10", "--engine", "sat", "--format", "json"]) == 0
    placements = json.loads(capsys.readouterr().out)["placements"]
    assert len(placements) == 10


# -- choosing an engine ----------------------------------------------------------------------


def test_choose_engine_keeps_small_and_named_searches():
    problem = catalog.load_file("pentomino-6x10").puzzles[0].problem
    assert registry.resolve(Job(problem, limit=1), "reference").name == "reference"
    assert not registry.worth_probing(Job(problem, limit=1))  # small: never probed
    assert registry.choose(Job(problem, limit=1)).name == "bitboard"
    assert registry.choose(Job(problem)).name == "bitboard"  # every solution: backtracking


def test_a_small_solve_does_not_import_ortools():
    """Importing OR-Tools costs about a quarter of a second: only a problem big enough to be
    probed may look for it."""
    import subprocess

    code = (
        "import sys; from puzzlebox import catalog; "
        "assert catalog.load_file('pentomino-6x10').puzzles[0].solve() is not None; "
        "print('ortools' in sys.modules)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


# -- randomised restarts ---------------------------------------------------------------------


def test_luby_sequence():
    assert [luby(i) for i in range(1, 16)] == [1, 1, 2, 1, 1, 2, 4, 1, 1, 2, 1, 1, 2, 4, 8]


def test_permuted_problem_has_the_same_solutions():
    problem = catalog.load_file("y-pentomino-5x10").puzzles[0].problem
    relabelled = permuted(problem, np.random.default_rng(5))
    assert relabelled.problem.n_graph == problem.n_graph
    original = set(reference_solutions(catalog.load_file("queens-5").puzzles[0].problem))
    queens = catalog.load_file("queens-5").puzzles[0].problem
    shuffled = permuted(queens, np.random.default_rng(1))
    back = {shuffled.back(s) for s in reference_solutions(shuffled.problem)}
    assert back == original


@pytest.mark.parametrize("seed", range(4))
def test_restarts_find_solutions_of_small_puzzles(compiled, seed):
    puzzle = catalog.load_file("pentomino-6x10").puzzles[0]
    engine = restart_search(puzzle.problem, 1, seed=seed, base_budget=50)
    (solution,) = each_solution(engine)
    assert puzzle.problem.is_solution(solution)
    assert engine.restarts > 0  # 50 nodes is too few for the first run: it was restarted


def test_restarts_enumerate_everything_once(compiled):
    problem = catalog.load_file("queens-8").puzzles[0].problem
    engine = restart_search(problem, seed=3, base_budget=5)
    found = list(each_solution(engine))
    assert len(found) == len(set(found)) == 92
    assert engine.stats.complete


def test_restarts_prove_no_solution(compiled):
    problem = catalog.load_file("cards-3x3").puzzles[0].problem
    engine = restart_search(problem, 1, seed=1, base_budget=16)  # 2: 8x the restarts
    assert list(each_solution(engine)) == []
    assert engine.stats.complete


def queens_problem(n: int) -> CoverProblem:
    from puzzlebox.puzzles.queens import QueensPuzzle

    return QueensPuzzle("q", n).problem


def test_hedged_search_keeps_the_plain_answer_of_an_easy_puzzle():
    problem = catalog.load_file("pentomino-6x10").puzzles[0].problem
    hedged = hedged_search(problem, 1)
    assert list(each_solution(hedged)) == list(registry.solve(problem, "bitboard", limit=1))
    assert hedged.restarts == 0 and hedged.stats.engine == "bitboard"


def test_hedged_search_escapes_a_heavy_tail():
    problem = queens_problem(60)
    plain = registry.get("compiled").start(Job(problem, limit=1))
    while plain.stats.nodes < 4_000_000:  # the plain search is lost in its first choices
        step = plain.step(1 << 16)
        assert not step.solutions and not step.done
    hedged = hedged_search(problem, 3)
    found = list(each_solution(hedged))
    assert len(set(found)) == 3 and all(problem.is_solution(s) for s in found)
    assert hedged.restarts > 0 and hedged.stats.engine == "restarts(compiled)"
    assert hedged.stats.nodes < 4_000_000


def test_hedged_bitboard_runs_take_turns(monkeypatch):
    import puzzlebox.engine.restarts as restarts

    monkeypatch.setattr(restarts, "_SLICE", 8)  # a turn for the restarts every 8 nodes
    problem = catalog.load_file("pentomino-3x20").puzzles[0].problem
    hedged = hedged_search(problem, 1, head_start=0, base_budget=20)
    (solution,) = each_solution(hedged)
    assert problem.is_solution(solution) and hedged.inner == "bitboard"
    assert hedged.restarts > 0


def test_solve_says_when_restarts_found_it(tmp_path, capsys):
    path = tmp_path / "queens-60.toml"
    path.write_text('kind = "queens"\nn = 60\n')
    assert main(["solve", str(path), "--why", "--format", "json"]) == 0
    _, err = capsys.readouterr()
    assert "found by search with restarts" in err
    assert main(["solve", "queens-8", "--why"]) == 0
    out, err = capsys.readouterr()
    assert "found by search (" in out + err and "restarts" not in out + err


@pytest.mark.parametrize("head_start", [0, 1 << 20])
def test_hedged_search_proves_there_is_none(head_start):
    problem = catalog.load_file("cards-3x3").puzzles[0].problem  # as posted: no solution
    hedged = hedged_search(problem, 1, head_start=head_start, base_budget=2)
    assert list(each_solution(hedged)) == []
    assert hedged.stats.complete
    assert (hedged.restarts > 0) == (head_start == 0)


def test_seeded_solve_through_the_cli(capsys, compiled):
    import json

    outs = []
    for seed in (1, 2):
        assert main(["solve", "pentomino-6x10", "--seed", str(seed), "--format", "json"]) == 0
        outs.append(json.loads(capsys.readouterr().out)["placements"])
    puzzle = catalog.load_file("pentomino-6x10").puzzles[0]
    for placements in outs:
        covered = sorted(tuple(c) for p in placements for c in p["cells"])
        assert covered == sorted(puzzle.board)


def test_a_seeded_search_restarts(compiled):
    problem = catalog.load_file("queens-8").puzzles[0].problem
    spec, search = registry.start(Job(problem, limit=1, seed=7), compiled)
    assert isinstance(search, RestartSearch) and spec.name == compiled
    (solution,) = each_solution(search)
    assert problem.is_solution(solution)


# -- random edge-matching puzzles and the scan-row solver ------------------------------------


def edges(puzzle, seed=None, limit=None, mode=Mode.SOLUTIONS) -> Search:
    """The edges solver's search, started as every caller starts it: through the registry."""
    job = Job(puzzle.problem, mode, limit=limit, seed=seed, puzzle=puzzle)
    return registry.get("edges").start(job)


def _hidden_options(puzzle: EdgeMatchingPuzzle, hidden) -> list[int]:
    index = {(p.card, p.row, p.col, p.turns): k for k, p in enumerate(puzzle.problem.labels)}
    return [
        index[(card, r, c, puzzle.canonical_turn(card, t))] for card, (r, c, t) in hidden.items()
    ]


@pytest.mark.parametrize("size", [3, 4])
@pytest.mark.parametrize("border", [False, True])
@pytest.mark.parametrize("seed", range(3))
def test_generated_puzzles_are_solvable(size, border, seed):
    puzzle, hidden = random_edge_matching(size, size, 4, border=border, seed=seed)
    assert len(puzzle.cards) == size * size
    assert puzzle.problem.is_solution(_hidden_options(puzzle, hidden))
    solution = puzzle.solve()
    assert solution is not None
    assert puzzle.problem.is_solution(next(each_solution(edges(puzzle, seed=seed, limit=1))))


@pytest.mark.parametrize("seed", range(4))
def test_edge_solver_matches_the_compiled_engine(seed):
    for border in (False, True):
        puzzle, _ = random_edge_matching(3, 3, 3 if border else 6, border=border, seed=seed)
        expected = set(each_solution(registry.get("compiled").start(Job(puzzle.problem))))
        assert set(each_solution(edges(puzzle))) == expected
        # restarts after 3, 3, 6, 3, 3, 6, 12, ... nodes until a run finds a solution
        seeded = EdgeSearch(Job(puzzle.problem, seed=seed, puzzle=puzzle), base_budget=3)
        assert set(each_solution(seeded)) == expected


def test_edge_solver_reports_the_share_of_its_tree_walked():
    puzzle = catalog.load_file("cards-3x3-corrected").puzzles[0]
    reports = []
    on_step = lambda st: reports.append((st.walked, st.nodes))  # noqa: E731
    # steps of 7 nodes: a report every few nodes
    assert count_all(edges(puzzle, mode=Mode.COUNT), max_nodes=7, on_step=on_step) == (16, None)
    shares = [walked for walked, _ in reports]
    assert len(shares) > 10 and shares == sorted(shares)
    assert all(0 <= share < 1 for share in shares[:-1]) and shares[-1] == 1.0
    assert 0.2 < shares[len(shares) // 2] < 0.8  # it moves along, not only at the end
    seeded = []  # a shuffled, restarting run is no complete tree: no share
    on_step = lambda st: seeded.append(st.walked)  # noqa: E731
    next(each_solution(edges(puzzle, seed=1, limit=1), max_nodes=7, on_step=on_step))
    assert seeded and all(share is None for share in seeded)


def test_edge_solver_with_complements_and_without_turning():
    for name, expected in [("cards-3x3-corrected", 16), ("cards-3x3", 0)]:
        puzzle = catalog.load_file(name).puzzles[0]
        assert count_all(edges(puzzle, mode=Mode.COUNT)) == (expected, None)
    puzzle, _ = random_edge_matching(3, 3, 3, seed=2, rotate=False)
    assert set(each_solution(edges(puzzle))) == set(reference_solutions(puzzle.problem))


def test_edge_solver_solves_an_8x8_eternity_style_puzzle():
    puzzle, _ = random_edge_matching(8, 8, 10, border=True, seed=1)
    search, began = edges(puzzle, limit=1), time.process_time()
    found: list[tuple[int, ...]] = []
    # the time limit of the old loop, in CPU seconds: a busy machine must not fail it (#38)
    while not found and time.process_time() - began < 30:
        step = search.step(1 << 21)
        found += step.solutions
        assert found or not step.done, "the solver says there is no solution"
    (solution,) = found
    assert puzzle.problem.is_solution(solution)


def test_cli_generate_writes_a_solvable_file(tmp_path, capsys):
    out = tmp_path / "em.toml"
    argv = ["generate", "edge-matching", "--size", "4", "--colors", "5", "--border",
            "--seed", "3", "--out", str(out)]
    assert main(argv) == 0
    assert capsys.readouterr().out.strip() == str(out)
    text = out.read_text()
    assert text.startswith("# Generated by: puzzlebox generate edge-matching --size 4")
    puzzle = catalog.load_file(out).puzzles[0]
    generated, _ = random_edge_matching(4, 4, 5, border=True, seed=3)
    assert isinstance(puzzle, EdgeMatchingPuzzle)
    assert puzzle.cards == generated.cards and puzzle.border == "0"
    assert main(["solve", str(out), "--format", "json"]) == 0
    assert '"card"' in capsys.readouterr().out
    assert main(["generate", "edge-matching", "--size", "2", "--seed", "1"]) == 0
    assert 'kind = "edge-matching"' in capsys.readouterr().out


def test_cli_generate_rejects_bad_sizes(capsys):
    with pytest.raises(SystemExit) as stop:
        main(["generate", "edge-matching", "--size", "0"])
    assert stop.value.code == 2


# -- block tiling ----------------------------------------------------------------------------


# -- repair tiling (large neighbourhood search) ----------------------------------------------


def test_pack_window_leaves_holes_only_where_allowed():
    from puzzlebox.puzzles.polyomino.repair_tiling import _pack_window

    # three cells in a row, one domino on cells (0, 1) and one on (1, 2): one cell stays empty
    anchor_start = np.array([0, 1, 2, 2, 2])
    anchor_opts = np.array([0, 1])
    opt_piece = np.array([0, 0])  # the same piece: at most one of them
    opt_start = np.array([0, 2, 4])
    opt_cells = np.array([0, 1, 1, 2])
    args = (3, anchor_start, anchor_opts, opt_piece, opt_start, opt_cells, 1)
    status, _, _ = _pack_window(*args, np.ones(3, dtype=np.bool_), 0, 1000)
    assert status == 0  # no hole allowed: proved impossible
    status, _, chosen = _pack_window(*args, np.array([False, False, True]), 1, 1000)
    assert status == 1 and chosen.tolist() == [0]  # the hole must be the last cell
    status, _, chosen = _pack_window(*args, np.array([True, False, False]), 1, 1000)
    assert status == 1 and chosen.tolist() == [1]


def test_sink_tiling_finds_a_tiling_of_parallelogram_6():
    from puzzlebox.puzzles.polyomino.repair_tiling import tile_by_sink

    puzzle = shared_puzzle("parallelogram-6")
    solution, report = tile_by_sink(puzzle, seed=0, max_attempts=3)  # sink 6
    assert solution is not None and report.found
    assert is_tiling(puzzle, solution)
    assert report.packed >= 1 and report.finishes >= 1
    # every finish before the last one was decided (proved impossible), none ran out
    assert report.proved == report.finishes - 1 and report.spent == 0


def test_sink_tiling_needs_a_limit():
    from puzzlebox.puzzles.polyomino.repair_tiling import tile_by_sink

    with pytest.raises(ValueError):
        tile_by_sink(catalog.load_file("parallelogram-5").puzzles[0])


def test_parallelogram_7_tiling_is_recorded():
    """The tiling of the 32x32 square kept in docs/solutions/ (found by tile_by_sink)."""
    puzzle = shared_puzzle("parallelogram-7")
    solution = _recorded_parallelogram_7_tiling()
    pieces = sorted(p.piece for p in solution.placements)
    assert pieces == sorted(piece.name for piece in puzzle.pieces)
    assert is_tiling(puzzle, solution)


def test_solve_engine_sink_from_the_command_line(capsys):
    import json

    from puzzlebox.puzzles.polyomino import Placement, PolyominoSolution

    assert main(["solve", "parallelogram-6", "--engine", "sink", "--seed", "1",
                 "--format", "json"]) == 0
    record = json.loads(capsys.readouterr().out)
    puzzle = shared_puzzle("parallelogram-6")
    placements = tuple(
        Placement(p["piece"], tuple(tuple(c) for c in p["cells"])) for p in record["placements"]
    )
    assert is_tiling(puzzle, PolyominoSolution(placements))
    # one line and status 2 where it does not apply
    for argv in (["count", "parallelogram-6", "--engine", "sink"],
                 ["solve", "parallelogram-6", "--engine", "sink", "--all"],
                 ["solve", "queens-8", "--engine", "sink"]):
        if argv[0] == "count":  # refused while parsing the arguments
            with pytest.raises(SystemExit) as stop:
                main(argv)
            assert stop.value.code == 2
        else:
            assert main(argv) == 2
        err = capsys.readouterr().err.strip().splitlines()
        assert "sink" in err[-1]


def test_solve_engine_sink_that_finds_nothing_says_it_proves_nothing(monkeypatch, capsys):
    from puzzlebox.puzzles.polyomino import repair_tiling

    def gives_up(puzzle, **options):
        return None, repair_tiling.SinkReport(attempts=3, seconds=1.5)

    monkeypatch.setattr(repair_tiling, "tile_by_sink", gives_up)
    assert main(["solve", "parallelogram-6", "--engine", "sink"]) == 0
    err = capsys.readouterr().err
    assert "no tiling found by the sink search" in err and "proves nothing" in err
    assert "no solution" not in err



def _recorded_parallelogram_7_tiling():
    import json
    from pathlib import Path

    from puzzlebox.puzzles.polyomino import Placement, PolyominoSolution

    path = Path(__file__).resolve().parent.parent / "docs" / "solutions" / "parallelogram-7.json"
    record = json.loads(path.read_text())
    return PolyominoSolution(tuple(
        Placement(p["piece"], tuple(tuple(c) for c in p["cells"])) for p in record["placements"]
    ))


def test_auto_tries_the_sink_search_where_backtracking_is_hopeless(monkeypatch):
    """parallelogram-7's first solution goes to the sink search (stood in for here by the
    recorded tiling: the real one takes a minute and a half); 6x10 never does."""
    from puzzlebox.engine.stats import SearchStats
    from puzzlebox.puzzles.polyomino import repair_tiling

    calls = []

    def recorded(tiler, deadline=None):  # an attempt of the sink search that succeeds
        calls.append(tiler.puzzle.name)
        tiler.solution = _recorded_parallelogram_7_tiling()
        yield 1  # its one slice of work
        return True

    monkeypatch.setattr(repair_tiling.SinkTiler, "attempt_steps", recorded)
    puzzle = shared_puzzle("parallelogram-7")
    stats = SearchStats()
    (solution,) = puzzle.solutions(limit=1, stats=stats)
    assert calls == ["parallelogram-7"] and stats.engine == "sink"
    assert is_tiling(puzzle, solution)
    small = catalog.load_file("pentomino-6x10").puzzles[0]
    assert small.solve() is not None and calls == ["parallelogram-7"]
