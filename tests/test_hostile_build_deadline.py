"""A time limit holds while a cover problem is built (#28: ``--max-time 2`` did not apply
while placements were built). No test here reads a wall clock: the run's clock is moved
forward by a hook once a number of placements are built, and each test asserts the
refusal, its words, and that the build stopped soon after (never completed)."""

from __future__ import annotations

import time
import types

import pytest

from puzzlebox.cli import main
from puzzlebox.cover import problem as cover_problem
from puzzlebox.formats import read_text
from puzzlebox.run import Limits, OutOfTime
from puzzlebox.run import run as run_module

# 400 named monominoes on a 20 x 20 board: 160,000 placements (seconds to build and to
# break by symmetry), and no proof or floor that settles it before the build under a limit
MONOMINOES = ('[board]\ngrid = """\n' + "\n".join(["#" * 20] * 20) + '\n"""\n[pieces]\n'
              + "".join(f'm{i:03d} = "#"\n' for i in range(400)))
LIMIT = 60.0  # never reached by the real clock in these tests
JUMP_AFTER = 5_000  # placements built before the hook moves the clock past the limit
WORDS = "stopped at the time limit of 60 s while building its cover problem, before any search"


@pytest.fixture
def clock_jumps(monkeypatch) -> list[int]:
    """Count the placements built; once :data:`JUMP_AFTER` are, the run's clock reads an
    hour later. Returns the count (one element, updated as placements are built)."""
    built = [0]
    real = cover_problem.CoverBuilder.option

    def option(self, *args, **kwargs):
        built[0] += 1
        return real(self, *args, **kwargs)

    def perf_counter() -> float:
        return time.perf_counter() + (3600.0 if built[0] >= JUMP_AFTER else 0.0)

    monkeypatch.setattr(cover_problem.CoverBuilder, "option", option)
    monkeypatch.setattr(run_module, "time", types.SimpleNamespace(perf_counter=perf_counter))
    return built


def _built_until_stopped(built: list[int]) -> None:
    """The build stopped within one look at the clock of passing the limit: far short of
    the 160,000 placements of the whole problem."""
    assert JUMP_AFTER <= built[0] <= JUMP_AFTER + cover_problem.CHECK_EVERY, built[0]


@pytest.mark.parametrize("mode", ["count", "solutions", "distinct"])
def test_the_library_stops_the_build_at_the_time_limit(mode, clock_jumps):
    puzzle = read_text(MONOMINOES, "mono.toml", "mono").puzzles[0]
    with pytest.raises(OutOfTime) as refused:
        if mode == "count":
            puzzle.count(limits=Limits(time=LIMIT))
        else:
            list(puzzle.solutions(limit=1, limits=Limits(time=LIMIT), distinct=mode == "distinct"))
    assert str(refused.value) == f"mono: {WORDS}, unfinished"
    _built_until_stopped(clock_jumps)
    assert "problem" not in vars(puzzle)  # never completed, so never kept


@pytest.mark.parametrize("command", ["count", "solve"])
def test_the_command_line_stops_the_build_at_max_time(command, clock_jumps, tmp_path, capsys):
    path = tmp_path / "mono.toml"
    path.write_text(MONOMINOES, encoding="utf-8")
    code = main([command, str(path), "--max-time", f"{LIMIT:g}", "--quiet"])
    out, err = capsys.readouterr()
    assert code == 3, out + err
    assert err.strip() == f"puzzlebox: mono: {WORDS}, unfinished", err
    _built_until_stopped(clock_jumps)


def test_deadlines_nest_and_a_build_outside_any_looks_at_no_clock():
    looked = []
    with cover_problem.build_deadline(lambda: looked.append("outer")):
        with cover_problem.build_deadline(lambda: looked.append("inner")):
            cover_problem.building(cover_problem.CHECK_EVERY)
        cover_problem.building(cover_problem.CHECK_EVERY)
    cover_problem.building(cover_problem.CHECK_EVERY)  # no deadline: nothing is called
    assert looked == ["outer", "inner", "inner", "outer"]


def test_a_deadline_already_past_stops_before_the_first_placement():
    calls = []

    def past() -> None:
        calls.append(1)
        raise OutOfTime("past")

    with pytest.raises(OutOfTime), cover_problem.build_deadline(past):
        pytest.fail("the block ran")
    assert calls == [1] and getattr(cover_problem._local, "check", None) is None


def test_the_page_stops_the_build_at_its_time_in_the_same_words(clock_jumps, monkeypatch):
    """The page's search process (web/runs.py), run here in this process: a request's time
    holds while the problem is built, and the tab's error line is the library's. (Its
    count of this file is refused sooner, as hopeless, as the library's count is.)"""
    command = ("next", 0, 0, LIMIT)
    runs = pytest.importorskip("puzzlebox.web.runs")
    fake = types.SimpleNamespace(perf_counter=run_module.time.perf_counter,
                                 monotonic=time.monotonic)
    monkeypatch.setattr(runs, "time", fake)

    class Pipe:
        def __init__(self) -> None:
            self.sent: list[tuple] = []

        def send(self, message: tuple) -> None:
            self.sent.append(message)

    pipe = Pipe()
    puzzle = read_text(MONOMINOES, "mono.toml", "mono").puzzles[0]
    runs._command(runs._State(puzzle, pipe), command)
    updates = [m[1] for m in pipe.sent if m[0] == "update"]
    assert updates[-1] == {"state": "error", "message": f"mono: {WORDS}, unfinished"}
    assert pipe.sent[-1] == ("end",)
    _built_until_stopped(clock_jumps)
