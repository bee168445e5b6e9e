"""The engine registry (engine/registry.py) is the one description of the engines: the
README's table, ``--help``, the error for an unknown engine and ``--json``'s engine field all
come from it; "auto" is chosen there; every engine runs as a step-wise search."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from puzzlebox import catalog, puzzles  # noqa: F401  (the kinds register their engines)
from puzzlebox.cli import main
from puzzlebox.engine import registry
from puzzlebox.engine.search import Capability, Job, Mode, count_all, each_solution

README = Path(__file__).resolve().parent.parent / "README.md"
# registered by a module another branch of the reshaping brings (engine/queens_bitmask.py)
LATE = {"queens-bitmask"}


def _readme_engines() -> dict[str, str]:
    text = README.read_text()
    table = text[text.index("| engine | what it is for |"):].split("\n\n")[0]
    rows = {}
    for line in table.splitlines()[2:]:
        match = re.fullmatch(r"\| `([^`]+)` \| (.*) \|", line)
        assert match, f"README engine row not in the form | `name` | summary |: {line!r}"
        rows[match.group(1)] = match.group(2)
    return rows


def test_the_readme_table_is_the_registry() -> None:
    readme = _readme_engines()
    registered = {spec.name: spec.summary for spec in registry.specs()}
    for name in LATE - set(registered):
        readme.pop(name, None)  # not in this branch's registry yet: checked once it is
    assert readme == registered
    assert registry.names()[0] == registry.AUTO and len(set(registry.names())) == len(
        registry.names())  # fmt: skip


@pytest.mark.parametrize("command", ["count", "solve"])
def test_help_lists_every_engine(command: str, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as stop:
        main([command, "--help"])
    assert stop.value.code == 0
    text = " ".join(capsys.readouterr().out.split())
    for name in registry.names():
        assert name in text, name


def test_an_unknown_engine_is_one_line_and_status_2(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as stop:
        main(["count", "queens-8", "--engine", "warp-drive"])
    assert stop.value.code == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert "unknown engine 'warp-drive'" in err[-1]
    assert all(name in err[-1] for name in registry.names())
    with pytest.raises(registry.UnknownEngine, match="warp-drive"):
        registry.get("warp-drive")


def test_json_names_the_engine_that_ran(capsys: pytest.CaptureFixture[str]) -> None:
    for engine, expected in [("reference", "reference"), ("compiled", "compiled"),
                             ("auto", "bitboard")]:  # fmt: skip
        assert main(["count", "pentomino-3x20", "--engine", engine, "--json"]) == 0
        out = json.loads(capsys.readouterr().out)
        assert (out["solutions"], out["distinct"], out["engine"]) == (8, 2, expected)


def test_count_queens_8_with_the_queens_bitmask_engine(capsys: pytest.CaptureFixture[str]) -> None:
    if "queens-bitmask" not in registry.names():
        pytest.skip("the queens-bitmask spec is not registered in this branch (it comes with "
                    "engine/queens_bitmask.py's step-wise search)")  # fmt: skip
    assert main(["count", "queens-8", "--engine", "queens-bitmask", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert (out["solutions"], out["distinct"], out["engine"]) == (92, 12, "queens-bitmask")


def test_an_engine_that_cannot_take_the_job_says_why() -> None:
    queens = catalog.load_file("queens-8").puzzles[0]
    with pytest.raises(registry.EngineDeclined, match="bitboard"):
        queens.count(engine="bitboard")
    with pytest.raises(registry.EngineDeclined, match="only counts"):
        queens.solve(engine="memo")
    with pytest.raises(registry.EngineDeclined, match="polyomino"):
        queens.solve(engine="sink")


def test_importing_the_registry_loads_no_numba() -> None:
    """Listing engines, reading puzzles and memo counts must not pay for numba (issue #16)."""
    code = (
        "import sys; from puzzlebox.engine import registry; from puzzlebox import catalog; "
        "p = catalog.load_file('tiling-3x12').puzzles[0]; names = registry.names(); "
        "r = p.count(); print(len(names), r.solutions, r.stats.engine, 'numba' in sys.modules)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    count, raw, engine, numba = out.stdout.split()
    assert (int(count), int(raw), engine, numba) == (len(registry.names()), 1_820_552_297,
                                                     "memo", "False")  # fmt: skip


# -- the choice of auto, measured in bench/engines.py -------------------------------------------


def _bench(name: str):  # type: ignore[no-untyped-def]
    path = Path(__file__).resolve().parent.parent / "bench" / "instances" / f"{name}.toml"
    return catalog.load_file(str(path)).puzzles[0]


@pytest.mark.parametrize("name", ["aztec-diamond-10", "squares-10x10"])
def test_auto_counts_big_tilings_by_sweeping(name: str) -> None:
    puzzle = _bench(name)
    job = Job(puzzle.problem, Mode.COUNT, puzzle=puzzle)
    assert registry.choose(job).name == "memo"


def test_auto_sweeps_and_counts_the_squares_of_a_10x10_square() -> None:
    result = _bench("squares-10x10").count()
    assert (result.solutions, result.stats.engine) == (1_500_957_422_222, "memo")


def test_a_sweep_that_outgrows_its_cap_hands_the_count_over() -> None:
    """auto's memo with a tiny state cap: the count goes on by enumeration, same answer."""
    from puzzlebox.engine.memo import MemoSearch
    from puzzlebox.engine.parts import count_puzzle_search
    from puzzlebox.formats import read_text

    text = '[board]\ngrid = "####/####/####"\n[pieces]\nm = { shape = "#", count = "any" }\n'
    text += 'd = { shape = "##", count = "any" }\n'
    puzzle = read_text(text, "t", "t").puzzles[0]  # monominoes and dominoes in 3x4
    job = Job(puzzle.problem, Mode.COUNT, puzzle=puzzle)
    search = MemoSearch(job, max_states=2, fallback=lambda: count_puzzle_search(puzzle, None))
    raw, distinct = count_all(search)
    assert search.handed_over is not None and search.stats.engine != "memo"
    swept = puzzle.count(engine="memo")
    assert (raw, distinct) == (swept.solutions, swept.distinct) and raw == 823  # OEIS A030186


PENTOMINO_BOARDS = ["pentomino-6x10", "pentomino-5x12", "pentomino-4x15", "pentomino-3x20",
                    "pentomino-3x20-tube"]


def test_auto_sweeps_the_one_sided_pentominoes_in_5x18() -> None:
    """18 pieces used once each, an enumeration tree of some 5e9 nodes (Knuth's estimate):
    auto sweeps (17 s of CPU where the bitboard engine takes about 1,090 s, bench/RESULTS.md)
    with the memory limit as its cap, and enumerates past it. Starting builds nothing."""
    from puzzlebox.engine.memo import BYTES_PER_STATE, MemoSearch
    from puzzlebox.engine.memory import memory_limit

    puzzle = catalog.load("one-sided-pentominoes-5x18")
    for max_memory in (None, 1 << 30):
        job = Job(puzzle.problem, Mode.COUNT, puzzle=puzzle, max_memory=max_memory)
        spec = registry.choose(job)
        assert spec.name == "memo"
        search = spec.start(job)
        assert isinstance(search, MemoSearch) and search._sweeps is None
        assert search.max_states == memory_limit(max_memory) // BYTES_PER_STATE
        assert search._fallback is not None


def test_a_small_tree_of_many_pieces_is_enumerated(monkeypatch: pytest.MonkeyPatch) -> None:
    """The probe decides, not the number of pieces: with a threshold above its tree, the
    5x18 board is enumerated."""
    puzzle = catalog.load("one-sided-pentominoes-5x18")
    job = Job(puzzle.problem, Mode.COUNT, puzzle=puzzle)
    monkeypatch.setattr(registry, "MEMO_TREE_NODES", 1e12)
    assert registry.choose(job).name == "bitboard"


def test_a_wide_sweep_of_many_pieces_is_enumerated(monkeypatch: pytest.MonkeyPatch) -> None:
    """The Bedlam cube: 13 pieces used once each, but its sweep's window is 41 positions
    (its layers pass the 2 GB default at position 7 of 64): auto enumerates it, and pays for
    no probe; the 5x18 strip's window is 21."""
    from puzzlebox.engine.memo import sweep_window

    def probe(job: Job) -> bool:
        raise AssertionError("probed")

    bedlam = catalog.load("bedlam-cube")
    job = Job(bedlam.problem, Mode.COUNT, puzzle=bedlam)
    assert sweep_window(job) > registry.MEMO_MAX_WINDOW
    monkeypatch.setattr(registry, "enumeration_is_long", probe)
    assert registry.choose(job).name == "bitboard"
    strip = catalog.load("one-sided-pentominoes-5x18")
    assert sweep_window(Job(strip.problem, Mode.COUNT, puzzle=strip)) <= registry.MEMO_MAX_WINDOW


@pytest.mark.parametrize("name", PENTOMINO_BOARDS)
def test_auto_enumerates_the_twelve_pentominoes_without_probing(
    name: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Twelve pieces (trees of 6.6e5 to 2.0e7 nodes, where the bitboard engine wins): no
    probe is paid for (it would load numba's kernels)."""
    def probe(job: Job) -> bool:
        raise AssertionError("probed")

    monkeypatch.setattr(registry, "enumeration_is_long", probe)
    puzzle = catalog.load(name)
    assert registry.choose(Job(puzzle.problem, Mode.COUNT, puzzle=puzzle)).name == "bitboard"


# -- every engine is a step-wise search ---------------------------------------------------------


@pytest.mark.parametrize("engine", ["reference", "compiled", "bitboard"])
def test_steps_respect_their_node_budget(engine: str) -> None:
    problem = catalog.load_file("pentomino-3x20").puzzles[0].problem
    _, search = registry.start(Job(problem, Mode.COUNT), engine)
    counted, steps, last = 0, 0, 0
    while True:
        step = search.step(100)
        counted += step.counted
        steps += 1
        assert search.stats.nodes - last <= 100 + 1  # at most the budget (and one node over)
        last = search.stats.nodes
        if step.done:
            break
    assert counted == 8 and steps > 10 and search.stats.complete
    assert search.step(100).done  # a finished search stays finished


@pytest.mark.parametrize("engine", ["reference", "compiled", "bitboard"])
def test_a_limit_stops_the_search_early(engine: str) -> None:
    problem = catalog.load_file("pentomino-5x12").puzzles[0].problem
    _, search = registry.start(Job(problem, limit=3), engine)
    found = list(each_solution(search, max_nodes=1000))
    assert len(found) == 3 and all(problem.is_solution(s) for s in found)
    assert not search.stats.complete  # stopped at the limit, not at the end of the tree


def test_memo_and_edges_are_step_wise_too() -> None:
    puzzle = catalog.load_file("dominoes-8x8").puzzles[0]
    _, memo = registry.start(Job(puzzle.problem, Mode.COUNT, puzzle=puzzle), "memo")
    steps = []
    while not (step := memo.step(50)).done:
        steps.append(memo.stats.walked)
    assert (step.counted, step.distinct) == (12_988_816, 1_629_189)
    assert len(steps) > 10 and steps == sorted(steps)
    cards = catalog.load_file("cards-3x3-corrected").puzzles[0]
    _, edges = registry.start(Job(cards.problem, Mode.COUNT, puzzle=cards), "edges")
    assert count_all(edges, max_nodes=10)[0] == 16 and edges.stats.complete


def test_every_registered_engine_declares_what_it_does() -> None:
    for spec in registry.specs():
        assert spec.can, spec.name
        assert (spec.frontier is not None) == spec.does(Capability.SPLIT), spec.name
        assert spec.summary and "\n" not in spec.summary
