"""Knuth's tree estimate, the progress hook of the engines, and the estimate command."""

from __future__ import annotations

import json

import numpy as np
import pytest

import puzzlebox
from puzzlebox.cli import main
from puzzlebox.cover.problem import CoverBuilder, CoverProblem
from puzzlebox.engine.bitboard import BitboardEngine
from puzzlebox.engine.compiled import CompiledEngine
from puzzlebox.engine.estimate import engine_lookahead, estimate_tree, exact_tree
from puzzlebox.engine.registry import start
from puzzlebox.engine.search import Job, Mode, count_all, each_solution
from puzzlebox.formats import read_text
from puzzlebox.progress import duration_text, following, wanted


def queens(n: int) -> CoverProblem:
    return read_text(f'kind = "queens"\nn = {n}\n', "q", f"queens-{n}").puzzles[0].problem


def uniform(depth: int, degree: int) -> CoverProblem:
    """``depth`` items with ``degree`` options each, no option touching another item: every
    node at depth d < ``depth`` has exactly ``degree`` children."""
    b = CoverBuilder()
    for i in range(depth):
        b.primary(i)
    for i in range(depth):
        for k in range(degree):
            b.option([i], (i, k))
    return b.build()


def engine_nodes(problem: CoverProblem) -> tuple[int, int]:
    engine = CompiledEngine(problem)
    found = engine.count()
    return engine.stats.nodes, found


def test_uniform_tree_is_exact_with_one_probe():
    problem = uniform(5, 3)
    nodes = sum(3**d for d in range(6))  # 1 + 3 + ... + 3^5
    assert engine_nodes(problem) == (nodes, 3**5)
    est = estimate_tree(problem, probes=1, seed=7)
    assert (est.nodes, est.solutions) == (nodes, 3**5)


def test_a_path_is_exact_with_one_probe():
    problem = uniform(6, 1)  # one option per item: the tree is a path of 7 nodes
    assert engine_nodes(problem) == (7, 1)
    est = estimate_tree(problem, probes=1)
    assert (est.nodes, est.solutions, est.mean_depth) == (7, 1, 6)


@pytest.mark.parametrize("n", [6, 7, 8])
def test_the_estimators_tree_is_the_engines_tree(n):
    problem = queens(n)
    assert exact_tree(problem) == engine_nodes(problem)


def test_same_tree_with_colours_multiplicities_and_subproblems():
    for name in ("blocks-3x3", "fibonacci-1x12", "pentomino-3x20"):
        problem = puzzlebox.load(name).problem
        assert exact_tree(problem) == engine_nodes(problem), name
    problem = queens(7)
    forced, excluded = CompiledEngine(problem).subproblems(2)[3]
    engine = CompiledEngine(problem, forced, excluded)
    found = engine.count()
    assert exact_tree(problem, forced, excluded) == (engine.stats.nodes, found)


def test_both_tree_rules_and_the_engines_choice():
    problem = queens(6)
    # entering every branch, or leaving out those seen dead while being taken (known sizes)
    assert exact_tree(problem, lookahead=False) == (93, 4)  # rows and columns middle out
    assert exact_tree(problem, lookahead=True) == (67, 4)
    for rule in (False, True):
        est = estimate_tree(problem, probes=3000, seed=1, lookahead=rule)
        assert est.nodes == pytest.approx(exact_tree(problem, lookahead=rule)[0], rel=0.1)
    # the engine searches the tree it declares, and not the other one
    declared = engine_lookahead()
    for puzzle in (problem, copies_of_one_piece()):
        assert engine_nodes(puzzle)[0] == exact_tree(puzzle, lookahead=declared)[0]
    assert engine_nodes(problem)[0] != exact_tree(problem, lookahead=not declared)[0]


def copies_of_one_piece() -> CoverProblem:
    """Four L-trominoes (one piece, four copies) in a 3x4 rectangle: items with room."""
    cells = {(r, c) for r in range(3) for c in range(4)}
    b = CoverBuilder()
    for cell in sorted(cells):
        b.primary(cell)
    b.primary("L", 4, 4)
    for shape in (((0, 0), (1, 0), (1, 1)), ((0, 0), (0, 1), (1, 0)), ((0, 0), (0, 1), (1, 1)),
                  ((0, 1), (1, 0), (1, 1))):  # fmt: skip
        for dr in range(3):
            for dc in range(4):
                placed = [(r + dr, c + dc) for r, c in shape]
                if cells.issuperset(placed):
                    b.option(["L", *placed], placed)
    return b.build()


@pytest.mark.parametrize("n", [6, 7, 8])
def test_mean_of_many_probes_is_close_to_the_true_size(n):
    problem = queens(n)
    nodes, solutions = engine_nodes(problem)
    est = estimate_tree(problem, probes=4000, seed=n)
    assert est.probes == 4000
    assert abs(est.nodes - nodes) <= 4 * est.nodes_error
    assert est.nodes == pytest.approx(nodes, rel=0.1)
    assert abs(est.solutions - solutions) <= 4 * est.solutions_error


def test_estimates_are_reproducible_and_stop_in_time():
    problem = queens(8)
    a = estimate_tree(problem, probes=300, seed=3)
    b = estimate_tree(problem, probes=300, seed=3)
    assert (a.nodes, a.solutions) == (b.nodes, b.solutions)
    quick = estimate_tree(puzzlebox.load("pentomino-6x10").problem, probes=10**6,
                          max_seconds=0.2)
    assert 1 <= quick.probes < 10**6


def test_a_contradictory_subproblem_has_no_nodes():
    problem = queens(5)
    a, b = 0, 1  # both queens on row 0
    assert estimate_tree(problem, forced=[a, b]).nodes == 0
    assert exact_tree(problem, forced=[a, b]) == (0, 0)


# -- the progress hook ------------------------------------------------------------------------


@pytest.mark.parametrize("engine", ["compiled", "reference"])
def test_searches_report_their_nodes_after_every_step(engine):
    problem = queens(8)
    reports = []
    _, first = start(Job(problem), engine)
    found = list(each_solution(first, max_nodes=50, on_step=lambda st: reports.append(
        (st.nodes, st.solutions))))  # fmt: skip
    assert len(found) == 92 and first.stats.complete
    assert len(reports) > 3 and reports[-1] == (first.stats.nodes, 92)
    assert [r[0] for r in reports] == sorted(r[0] for r in reports)  # only forward
    _, second = start(Job(problem, Mode.COUNT), engine)
    assert count_all(second)[0] == 92 and second.stats.nodes == first.stats.nodes


@pytest.mark.parametrize("engine", ["compiled", "reference"])
def test_a_count_of_several_searches_reports_their_sums(engine):
    # a monomino and four dominoes on a 3x3 board: 18 tilings, 3 up to symmetry, counted by
    # symmetry breaking in several searches (the monomino in the centre, corner, edge)
    text = '[board]\ngrid = "###/###/###"\n[pieces]\nA = "#"\nB = { shape = "##", count = 4 }\n'
    puzzle = read_text(text, "t", "t").puzzles[0]
    parts = puzzle.symmetry_breaking.parts()
    assert len(parts) > 1
    reports = []
    result = puzzle.count(engine=engine, on_step=lambda st: reports.append(
        (st.nodes, st.solutions)))  # fmt: skip
    assert (result.solutions, result.distinct) == (18, 3)
    nodes = [r[0] for r in reports]
    assert nodes == sorted(nodes) and reports[-1] == (result.stats.nodes, result.stats.solutions)
    total_nodes = total_found = 0  # the parts run one by one add up to what was reported
    for part in parts:
        mode = Mode.SOLUTIONS if part.weighed else Mode.COUNT
        _, search = start(Job(puzzle.search_problem(), mode, part.forced, part.excluded), engine)
        count_all(search)
        total_nodes += search.stats.nodes
        total_found += search.stats.solutions
    assert (total_nodes, total_found) == (result.stats.nodes, result.stats.solutions)


def binary_tree(depth: int) -> CoverProblem:
    """``depth`` cells with no neighbours, each filled by piece a or piece b: a tiling whose
    tree is binary and uniform, so the share walked is the share of its leaves found."""
    b = CoverBuilder()
    for i in range(depth):
        b.primary(("cell", i))
        b.neighbours(("cell", i), [])
    b.primary("a", 0, depth)
    b.primary("b", 0, depth)
    for i in range(depth):
        for piece in "ab":
            b.option([("cell", i), piece], (i, piece))
    return b.build()


def test_bitboard_reports_the_share_of_its_tree_walked():
    engine = BitboardEngine(binary_tree(3), node_budget=1)
    reports = []
    assert engine.count(progress=lambda st: reports.append((st.walked, st.solutions))) == 8
    assert len(reports) > 3
    for walked, found in reports[:-1]:
        assert walked == found / 8  # the leaves behind the path, exactly
    assert reports[-1][0] == 1.0


def test_a_long_bitboard_count_walks_forward_to_the_end():
    puzzle = puzzlebox.catalog.load("pentomino-5x12").puzzles[0]
    shares = []
    _, search = start(Job(puzzle.problem, Mode.COUNT), "bitboard")
    assert count_all(search, max_nodes=1 << 14, on_step=lambda st: shares.append(st.walked))[
        0] == 4040  # fmt: skip
    shown = [s for s in shares if s is not None]
    assert len(shown) >= 3 and shown == sorted(shown)
    assert 0 < shown[len(shown) // 2] < 1 and shown[-1] == 1.0


def test_no_display_without_a_terminal(capsys):
    assert not wanted(quiet=False)  # pytest's stderr is not a terminal
    with following(True, "queens-8", lambda: queens(8)) as on_step:
        puzzle = read_text('kind = "queens"\nn = 8\n', "q", "q").puzzles[0]
        assert on_step is not None
        # a forced display does not get in the way
        assert puzzle.count(on_step=on_step).solutions == 92
    capsys.readouterr()
    code = main(["count", "queens-8", "--json"])
    out, err = capsys.readouterr()
    assert code == 0 and err == ""
    assert json.loads(out)["solutions"] == 92


def test_estimate_command(capsys):
    code = main(["estimate", "queens-8", "--json", "--probes", "2000"])
    out, _ = capsys.readouterr()
    assert code == 0
    obj = json.loads(out)
    problem = puzzlebox.load("queens-8").search_problem()
    nodes, _ = engine_nodes(problem)
    assert obj["searched_nodes"] == nodes  # a tree this small is searched while timing
    assert obj["nodes"] == pytest.approx(nodes, rel=0.15)
    assert obj["probes"] == 2000 and obj["nodes_per_second"] > 0
    code = main(["estimate", "pentomino-6x10-two-holes"])
    out, _ = capsys.readouterr()
    assert code == 0 and "no search needed" in out


def test_node_counts_read_at_a_glance():
    from puzzlebox.progress import _short

    assert [_short(x) for x in (5, 1234, 5.67e6, 9.99e14, 3.73e15)] == [
        "5", "1.23k", "5.67M", "999T", "3.73e+15"]  # fmt: skip


def test_durations_read_at_a_glance():
    assert [duration_text(s) for s in (0.0004, 4.25, 90, 7200, 3 * 86400)] == [
        "0.4 ms", "4.2 s", "1.5 min", "2 h", "3 days"]
    assert duration_text(float("inf")) == "unknown"
    assert duration_text(float(np.float64(12.0))) == "12 s"
