"""Knuth's tree estimate, the progress hook of the engines, and the estimate command."""

from __future__ import annotations

import json

import numpy as np
import pytest

import puzzlebox
from puzzlebox.cli import main
from puzzlebox.cover.problem import CoverBuilder, CoverProblem
from puzzlebox.engine import registry
from puzzlebox.engine.estimate import (
    SOLUTION_FACTOR,
    TreeEstimate,
    engine_speed,
    estimate_tree,
)
from puzzlebox.engine.registry import start
from puzzlebox.engine.search import Job, Mode, count_all, each_solution
from puzzlebox.engine.stats import SearchStats
from puzzlebox.formats import read_text
from puzzlebox.words import duration_text


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


def engine_nodes(problem: CoverProblem, forced=(), excluded=()) -> tuple[int, int]:
    """``(nodes, solutions)`` of the compiled engine's count: the tree the probes walk."""
    search = registry.get("compiled").start(Job(problem, Mode.COUNT, tuple(forced),
                                                tuple(excluded)))
    found, _ = count_all(search)
    return search.stats.nodes, found


@pytest.mark.parametrize("subtree", [0, 10, 1000])
def test_uniform_tree_is_exact_with_one_probe(subtree):
    problem = uniform(5, 3)
    nodes = sum(3**d for d in range(6))  # 1 + 3 + ... + 3^5
    assert engine_nodes(problem) == (nodes, 3**5)
    # one plain probe; one probe down to where subtrees have 3 levels; or one search of it all
    est = estimate_tree(problem, probes=1, seed=7, subtree_nodes=subtree)
    assert (est.nodes, est.solutions) == (nodes, 3**5)
    assert est.exact == (subtree == 1000)


def test_a_path_is_exact_with_one_probe():
    problem = uniform(6, 1)  # one option per item: the tree is a path of 7 nodes
    assert engine_nodes(problem) == (7, 1)
    for subtree in (0, 1000):
        est = estimate_tree(problem, probes=1, subtree_nodes=subtree)
        assert (est.nodes, est.solutions, est.mean_depth) == (7, 1, 6)


def close_to_the_engines_tree(problem: CoverProblem, probes: int, seed: int,
                              forced=(), excluded=(), subtree_nodes=0) -> TreeEstimate:
    """The mean of many probes is the engine's node count, within 10% and 4 standard errors
    (a probe that left the engine's tree, or mistook a node's degree, would be far off).
    Plain probes (Knuth's) by default; with ``subtree_nodes``, probes that search the
    subtrees of about that size in full."""
    nodes, found = engine_nodes(problem, forced, excluded)
    est = estimate_tree(problem, probes=probes, seed=seed, forced=forced, excluded=excluded,
                        subtree_nodes=subtree_nodes)
    assert est.probes == probes and not est.exact
    assert abs(est.nodes - nodes) <= 4 * est.nodes_error
    assert est.nodes == pytest.approx(nodes, rel=0.1)
    if est.solution_probes:
        assert abs(est.solutions - found) <= 4 * est.solutions_error
    return est


@pytest.mark.parametrize("n", [6, 7, 8])
def test_mean_of_many_probes_is_close_to_the_true_size(n):
    close_to_the_engines_tree(queens(n), 4000, n)


def test_probes_walk_the_engines_tree_with_colours_multiplicities_and_subproblems():
    # blocks: covered items; fibonacci: items with room (each option, or "no more");
    # cards: secondary items with colours; four L-trominoes: one piece with four copies
    for name in ("blocks-3x3", "fibonacci-1x12", "cards-3x3-corrected", "y-pentomino-5x10"):
        close_to_the_engines_tree(puzzlebox.load(name).problem, 4000, 2)
    close_to_the_engines_tree(copies_of_one_piece(), 4000, 3)
    problem = queens(7)
    frontier = registry.get("compiled").frontier
    assert frontier is not None
    forced, excluded = frontier(Job(problem), 2)[3]
    close_to_the_engines_tree(problem, 4000, 4, forced, excluded)


def test_probes_on_a_big_tree():
    # pentomino trees are heavy-tailed (docs/estimates.md): 20,000 plain probes for 10%
    close_to_the_engines_tree(puzzlebox.load("pentomino-3x20").problem, 20_000, 5)


@pytest.mark.parametrize("n", [10, 11])
def test_probes_that_search_subtrees_in_full(n):
    # 1000 subtrees of about 8 nodes: fewer than the tree has (11,578 and 45,393 nodes)
    est = close_to_the_engines_tree(queens(n), 1000, n, subtree_nodes=8)
    assert est.solution_probes > 0
    problem = puzzlebox.load("fibonacci-1x12").problem  # items with room: "no more" branches
    close_to_the_engines_tree(problem, 300, 1, subtree_nodes=2)  # 609 nodes


def test_a_tree_within_the_probes_budget_is_searched_exactly():
    problem = queens(9)
    nodes, found = engine_nodes(problem)
    est = estimate_tree(problem, probes=1000)  # about 3,000 nodes: less than 1000 subtrees
    assert est.exact and (est.nodes, est.solutions, est.nodes_error) == (nodes, found, 0)
    assert est.solutions_estimated and "352 solutions in the tree" in est.solutions_text()
    assert est.probes_text().startswith("the whole tree searched in")


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


def test_estimates_are_reproducible_and_stop_in_time():
    problem = puzzlebox.load("pentomino-6x10").problem
    for subtree in (0, 1000):
        a, b, c = (estimate_tree(problem, probes=100, seed=s, subtree_nodes=subtree)
                   for s in (3, 3, 4))
        assert (a.nodes, a.solutions) == (b.nodes, b.solutions) != (c.nodes, c.solutions)
    quick = estimate_tree(puzzlebox.load("pentomino-6x10").problem, probes=10**7,
                          max_seconds=0.2)
    assert 1 <= quick.probes < 10**7


@pytest.mark.parametrize("name, seed", [("pentomino-5x12", 0), ("pentomino-5x12", 1),
                                        ("pentomino-6x10", 1)])
def test_solution_estimates_are_within_the_stated_factor(name, seed):
    # issue 16: plain probes found no solution of these (1000 probes said "0 solutions");
    # probes that search subtrees in full do, and say how many probes found one
    problem = puzzlebox.load(name).problem
    known = {"pentomino-5x12": 4040, "pentomino-6x10": 9356}[name]  # known tilings
    est = estimate_tree(problem, probes=1000, seed=seed)
    assert not est.exact and est.solutions_estimated
    assert known / SOLUTION_FACTOR <= est.solutions <= known * SOLUTION_FACTOR
    assert "probes found one" in est.solutions_text()


def test_no_solution_estimate_when_no_probe_found_one():
    problem = puzzlebox.load("pentomino-5x12").search_problem()  # 1010 solutions
    est = estimate_tree(problem, probes=1000, seed=0, subtree_nodes=0)  # plain probes
    assert est.solution_probes == 0 and not est.solutions_estimated
    assert est.solutions_text().startswith("solutions not estimated: none of 1000 probes")
    few = TreeEstimate(1e6, 1e5, 50.0, 40.0, 1000, 10.0, 0.1, solution_probes=2)
    assert "only 2 of 1000 probes" in few.solutions_text() and not few.solutions_estimated


def test_engine_speed_is_a_short_run_of_the_engines_steps():
    speed, searched = engine_speed(queens(8))  # finished within the time: the exact size
    assert speed > 0 and searched == engine_nodes(queens(8))[0]
    speed, searched = engine_speed(puzzlebox.load("pentomino-6x10").problem, seconds=0.01)
    assert speed > 0 and searched is None  # 3.6 million nodes: cut short


def test_a_contradictory_subproblem_has_no_nodes():
    problem = queens(5)
    a, b = 0, 1  # both queens on row 0
    est = estimate_tree(problem, forced=[a, b])
    assert est.nodes == 0 and est.solutions_estimated  # no tree: exactly no solutions
    assert engine_nodes(problem, forced=[a, b])[1] == 0


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
    search = registry.get("bitboard").start(Job(binary_tree(3), Mode.COUNT))
    reports = []
    on_step = lambda st: reports.append((st.walked, st.solutions))  # noqa: E731
    assert count_all(search, max_nodes=1, on_step=on_step) == (8, None)
    assert len(reports) > 3
    for walked, found in reports[:-1]:
        assert walked == found / 8  # the leaves behind the path, exactly
    assert reports[-1][0] == 1.0


def test_a_long_bitboard_count_walks_forward_to_the_end():
    puzzle = puzzlebox.catalog.load_file("pentomino-5x12").puzzles[0]
    shares = []
    _, search = start(Job(puzzle.problem, Mode.COUNT), "bitboard")
    assert count_all(search, max_nodes=1 << 14, on_step=lambda st: shares.append(st.walked))[
        0] == 4040  # fmt: skip
    shown = [s for s in shares if s is not None]
    assert len(shown) >= 3 and shown == sorted(shown)
    assert 0 < shown[len(shown) // 2] < 1 and shown[-1] == 1.0


def test_no_display_without_a_terminal(capsys):
    code = main(["count", "queens-8", "--json"])
    out, err = capsys.readouterr()
    assert code == 0 and err == ""
    assert json.loads(out)["solutions"] == 92


@pytest.mark.parametrize("command", ["count", "solve"])
def test_no_progress_events_without_a_terminal(command, monkeypatch, capsys):
    """Events nobody sees are not made: a count's events start Knuth's estimate on a thread
    of its own (run/progress.py), up to a second of CPU (#38 item 6: 0.25-0.3 s of
    tetrasticks-6x6's 3.5 s, with its output in a pipe)."""
    from puzzlebox.run import progress

    made: list[object] = []
    event = progress.Meter.event

    def recorded(self: progress.Meter, *args: object) -> progress.Progress:
        made.append(args)
        return event(self, *args)  # type: ignore[arg-type]

    monkeypatch.setattr(progress.Meter, "event", recorded)
    assert main([command, "pentomino-6x10"]) == 0
    capsys.readouterr()
    assert made == []
    assert main([command, "pentomino-6x10", "--progress", "json"]) == 0  # asked for: made
    assert made and '"done": true' in capsys.readouterr().err


def test_estimate_command(capsys):
    code = main(["estimate", "queens-8", "--json", "--probes", "2000"])
    out, _ = capsys.readouterr()
    assert code == 0
    obj = json.loads(out)
    problem = puzzlebox.load("queens-8").search_problem()
    nodes, _ = engine_nodes(problem)
    assert obj["searched_nodes"] == nodes  # a tree this small is searched while timing
    # ... and by the estimate: exactly, once
    assert (obj["nodes"], obj["tree_solutions"], obj["tree_exact"]) == (nodes, 92 // 2, True)
    assert obj["tree_solutions_estimated"] and obj["nodes_per_second"] > 0
    code = main(["estimate", "pentomino-6x10", "--probes", "100"])
    out, _ = capsys.readouterr()
    assert code == 0 and "probes found one" in out and " 0 solutions" not in out
    code = main(["estimate", "pentomino-6x10-two-holes"])
    out, _ = capsys.readouterr()
    assert code == 0 and "no search needed" in out


def test_node_counts_read_at_a_glance():
    from puzzlebox.render.progress import short

    assert [short(x) for x in (5, 1234, 5.67e6, 9.99e14, 3.73e15)] == [
        "5", "1.23k", "5.67M", "999T", "3.73e+15"]  # fmt: skip


def test_durations_read_at_a_glance():
    assert [duration_text(s) for s in (0.0004, 4.25, 90, 7200, 3 * 86400)] == [
        "0.4 ms", "4.2 s", "1.5 min", "2 h", "3 days"]
    assert duration_text(float("inf")) == "unknown"
    assert duration_text(float(np.float64(12.0))) == "12 s"


# -- one progress model (run/progress.py): the share tells the truth or nothing (#22) -------
KEYS = {"elapsed", "solutions", "distinct", "nodes", "share", "eta"}


def events_of(monkeypatch, puzzle, engine: str, mode: str = "count", **options):
    """Every progress event of a run of ``puzzle``, in many small steps."""
    from puzzlebox.run import Run
    from puzzlebox.run import run as run_module

    monkeypatch.setattr(run_module, "STEP_SECONDS", 0.0005)
    events = []
    run = Run(puzzle, mode, engine=engine, on_progress=events.append, every=0.0, **options)
    if mode == "count":
        run.count()
    else:
        list(run.solutions())
    return events


@pytest.mark.parametrize(("name", "engine"), [("pentomino-4x15", "compiled"),
                                              ("pentomino-4x15", "bitboard"),
                                              ("dominoes-8x8", "memo"),
                                              ('kind = "queens"\nn = 13', "queens-bitmask")])
def test_progress_events_obey_the_share_and_eta_rules(monkeypatch, name, engine):
    """Never 0.99 of the run while a tenth of it (in nodes) is to come, 1 only at its end,
    no time left where none was measured (run/progress.py: ETA_MEASURED)."""
    from puzzlebox.run.progress import ETA_MEASURED, SHARE_CAP

    puzzle = puzzlebox.loads(name) if "\n" in name else puzzlebox.load(name)
    events = events_of(monkeypatch, puzzle, engine)
    final = events[-1]
    assert final.done and final.share == 1.0 and final.eta == 0.0
    assert final.solutions == puzzle.count(engine=engine).solutions
    running = events[:-1]
    assert len(running) >= 2 and not any(e.done for e in running)
    shares = [e.share for e in running if e.share is not None]
    for event in running:
        if event.share is not None and event.share >= 0.99:
            assert event.nodes >= 0.9 * final.nodes, (event, final)
        assert event.share is None or 0.0 <= event.share <= SHARE_CAP
        assert event.eta is None or ETA_MEASURED
    assert shares == sorted(shares)  # a share goes forward
    if engine == "memo":
        assert shares, "the sweep reports the share it walked"
    if engine == "bitboard":  # a count by parts: the first part's share says nothing
        assert shares == []


def test_a_share_past_the_estimate_is_unknown_not_all():
    """Nodes past Knuth's estimate: the share is None (count solid-pentominoes-3x4x5 said
    100 % from 2 s to its end at 10.5 s)."""
    from puzzlebox.run.progress import Meter

    puzzle = puzzlebox.load("pentomino-5x12")
    meter = Meter(puzzle.search_problem)
    stats = SearchStats(engine="compiled", nodes=1)
    meter.share(stats)
    meter.close()  # the estimate is in
    assert meter.share(stats)[0] is not None
    assert meter.event(SearchStats(engine="compiled", nodes=10**15), 5.0, 1, None,
                       False).share is None
    assert meter.event(stats, 5.0, 1, None, True).share == 1.0


@pytest.mark.parametrize("command", [["count", "pentomino-4x15", "--engine", "compiled"],
                                     ["solve", "pentomino-4x15", "--all", "--format", "json"]])
def test_progress_json_writes_one_object_per_update_on_stderr(command, capsys):
    assert main([*command, "--progress", "json"]) == 0
    out, err = capsys.readouterr()
    lines = [json.loads(line) for line in err.splitlines()]
    assert lines and all(set(line) >= KEYS for line in lines)
    assert lines[-1]["share"] == 1.0 and lines[-1]["done"]
    assert lines[-1]["solutions"] == 1472  # 4x15: 1472 tilings, 368 distinct
    assert all(line["eta"] is None for line in lines[:-1])
    assert ("1472 solutions" in out) == (command[0] == "count")


def test_the_progress_events_name_the_final_lines_counts(monkeypatch):
    from puzzlebox.render.progress import solutions_text
    from puzzlebox.render.report_text import count_text
    from puzzlebox.run.reports import count_report

    # 18 tilings, 3 up to symmetry; the searches themselves find fewer than 18
    text = '[board]\ngrid = "###/###/###"\n[pieces]\nA = "#"\nB = { shape = "##", count = 4 }\n'
    puzzle = read_text(text, "t", "t").puzzles[0]
    for engine in ("compiled", "bitboard"):
        final = events_of(monkeypatch, puzzle, engine)[-1]
        shown = solutions_text(final.solutions, final.distinct)
        assert shown == "18 solutions, 3 distinct"
        line = count_text(count_report(puzzle, puzzle.count(engine=engine)))[0]
        assert line.startswith(f"t: {shown} up to symmetry")


def test_a_search_that_is_not_a_count_names_its_solutions():
    from puzzlebox.render.progress import solutions_text

    assert solutions_text(1, None) == "1 solution"
    assert solutions_text(1234, None) == "1234 solutions"  # as the final line
    assert solutions_text(40, 5) == "40 solutions, 5 distinct"


def test_the_first_solutions_get_a_live_line_after_two_seconds():
    """solve (the first solution) shows a line of nodes, rate and time once it has run
    two seconds: the line is drawn from the events, none before."""
    from puzzlebox.cli.search import SOLVE_LINE_AFTER
    from puzzlebox.render.progress import ProgressLine, progress_text
    from puzzlebox.run import Progress

    assert SOLVE_LINE_AFTER == 2.0
    line = ProgressLine("p", enabled=True, after=SOLVE_LINE_AFTER)
    line(Progress(1.9, 0, None, 10, None, None))
    assert line._live is None
    line(Progress(2.1, 0, None, 4_200_000, None, None))
    assert line._live is not None
    line.close()
    assert progress_text(Progress(2.0, 0, None, 4_200_000, None, None)) == (
        "0 solutions, 4.2M nodes (2.1M/s), 2 s")


def test_a_count_looks_early_and_then_in_steps_of_its_size():
    """count_all's steps start at FIRST_STEP_NODES and double up to the size asked for, so
    that its hook looks early (a split count stops trying the whole count after 16,384
    nodes: with a first step of 65,536 it searched four times that, #38 item 6)."""
    from puzzlebox.engine.search import FIRST_STEP_NODES, Step

    class Recorded:
        def __init__(self) -> None:
            self.stats = SearchStats()
            self.asked: list[int] = []

        def step(self, max_nodes: int) -> Step:
            self.asked.append(max_nodes)
            self.stats.nodes += max_nodes
            return Step(counted=1, done=len(self.asked) == 7)

    search = Recorded()
    seen: list[int] = []
    assert count_all(search, 1 << 16, on_step=lambda s: seen.append(s.nodes)) == (7, None)
    assert FIRST_STEP_NODES == 4096
    assert search.asked == [4096, 8192, 16384, 32768, 65536, 65536, 65536]
    assert seen[2] == 28672  # past 16,384 nodes within three steps
    small = Recorded()
    count_all(small, 100)
    assert small.asked == [100] * 7
