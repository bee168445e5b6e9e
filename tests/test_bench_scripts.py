"""The scripts in bench/ import the library the way it is now, so they cannot silently rot
again (bench/run.py imported an ``ENGINES`` table for a whole merge after it was gone).

Each script is imported as a module (registered in ``sys.modules``, as dataclasses need),
its ``--help`` parsed, and the measurements whose imports sit inside functions (the workers
run in fresh processes, where a broken import would only show as a failed row) are run
in-process on the smallest instances."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

import pytest

BENCH = Path(__file__).resolve().parent.parent / "bench"
SCRIPTS = sorted(p.stem for p in BENCH.glob("*.py"))
WITH_MAIN = ["bitboard_plain", "browse_steps",
             "burr_booklet", "burr_booklet_design", "burrtools", "cutler_holey",
             "cover_kernels_ab", "design", "disassembly", "disassembly_jobs", "disassembly_public",
             "docs_commands",
             "fcc",
             "engines", "estimates", "hard",
             "kernel_ab", "lattices", "long_count", "memo", "oracle_counts", "parallel",
             "polysticks", "prisms",
             "progress_accuracy", "queens_dlx", "run", "startup", "sudoku_count", "xmpuzzle"]


def _load(name: str) -> ModuleType:
    if name in sys.modules and getattr(sys.modules[name], "__file__", None) == str(
        BENCH / f"{name}.py"
    ):
        return sys.modules[name]
    spec = importlib.util.spec_from_file_location(name, BENCH / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    sys.path.insert(0, str(BENCH))  # test_experiments imports tiling_experiments
    try:
        spec.loader.exec_module(module)
    finally:
        sys.path.remove(str(BENCH))
    return module


def test_every_script_is_listed():
    # a new script must be added to WITH_MAIN or be a module without a command line
    assert set(WITH_MAIN) <= set(SCRIPTS)
    assert set(SCRIPTS) - set(WITH_MAIN) == {"test_experiments", "tiling_experiments"}


@pytest.mark.parametrize("name", SCRIPTS)
def test_script_imports(name):
    module = _load(name)
    assert module.__doc__


@pytest.mark.parametrize("name", WITH_MAIN)
def test_script_help(name, monkeypatch, capsys):
    module = _load(name)
    monkeypatch.setattr(sys, "argv", [f"bench/{name}.py", "--help"])
    with pytest.raises(SystemExit) as stop:
        module.main()
    assert stop.value.code == 0
    assert "usage:" in capsys.readouterr().out


@pytest.mark.parametrize(
    ("task", "engine"),
    [("pb-raw", "bitboard"), ("pb-noprune", "bitboard"), ("pb-generic", "compiled")],
)
def test_run_counts_with_one_engine(task, engine):
    out = _load("run").worker(task, "pentomino-3x20")
    assert out["raw"] == 8 and out["engine"] == engine and out["nodes"] > 0


def test_run_first_solution_with_the_compiled_engine():
    out = _load("run").worker("pb-generic-first", "pentomino-3x20")
    assert out["result"] == "found" and out["engine"] == "compiled"


def test_engines_worker_counts_with_a_named_engine():
    out = _load("engines").worker("compiled", "count", "pentomino-3x20")
    assert out["solutions"] == 8 and out["engine"] == "compiled"


def test_estimates_table(monkeypatch, capsys):
    monkeypatch.setattr(sys, "argv", ["bench/estimates.py", "--probes", "5", "--repeats", "1",
                                      "queens-10"])
    _load("estimates").main()
    row = capsys.readouterr().out.splitlines()[-1]
    assert row.startswith("| queens-10 | 11,578 | 724 |")  # nodes and solutions of a count


def test_progress_accuracy_table(monkeypatch, capsys):
    monkeypatch.setattr(sys, "argv", ["bench/progress_accuracy.py", "queens-10:compiled",
                                      "pentomino-3x20:bitboard:all"])
    _load("progress_accuracy").main()
    rows = capsys.readouterr().out.splitlines()[-2:]
    assert rows[0].startswith("| queens-10:compiled | ")
    assert rows[1].startswith("| pentomino-3x20:bitboard:all | walked | ")
    assert all(row.count("|") == 10 for row in rows)
    assert all(row.endswith(" | none |") for row in rows)  # no time left shown (#22)


def test_lattices_sample_counts_the_same_parts_with_xcover_and_bitboard():
    pytest.importorskip("xcover")
    out = _load("lattices").worker("sample", "soma-cube")
    assert out["sampled"] == 3 and out["total"] > 3 and out["raw"] == out["ours_raw"] > 0


def test_bitboard_plain_tables_times_both_builds(monkeypatch, capsys):
    monkeypatch.setattr(sys, "argv", ["bench/bitboard_plain.py", "tables", "--rounds", "1",
                                      "tiling-3x12"])
    _load("bitboard_plain").main()
    rows = capsys.readouterr().out.splitlines()
    assert rows[1].startswith("tiling-3x12") and "tables" in rows[1] and "eligible" in rows[1]


def test_queens_dlx_writes_the_cover_problem_in_knuths_format():
    import puzzlebox

    bench = _load("queens_dlx")
    text = bench.to_dlx(puzzlebox.loads(bench.queens_toml(4)).problem)
    head, *options = text.splitlines()
    primary, secondary = head.split(" | ")
    assert len(primary.split()) == 8 and len(secondary.split()) == 14
    assert len(options) == 16 and all(len(o.split()) == 4 for o in options)
    torus = bench.to_dlx(puzzlebox.loads(bench.queens_toml(5, torus=True)).problem)
    assert "|" not in torus.splitlines()[0]  # every item primary on a torus
    assert all(puzzlebox.loads(i.text).problem.n_options > 0 for i in bench.instances())


def test_browse_steps_times_the_browser_against_the_take_apart():
    from puzzlebox.cli.puzzle import load

    row = _load("browse_steps").measure(load("framed-slack").puzzles[0], 1)
    assert (row["level"], row["moves"], row["pieces"]) == ("1.1.2", 4, 4)
    assert row["take-apart"] >= 0 and row["look"] >= 0 and row["slide"] >= 0
