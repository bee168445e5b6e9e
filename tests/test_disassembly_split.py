"""Disassembly split like a count (#35 item 2): the assemblies shared out over processes
(``--jobs``) or a Dask scheduler (``--cluster``), recorded in a signed checkpoint and
resumed, give what one process gives, in the same order."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, cast

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from puzzlebox import catalog
from puzzlebox.cli import main
from puzzlebox.disassembly.assemblies import Disassembled, Rules, take_apart
from puzzlebox.disassembly.split import (
    Codes,
    DisassemblyCheckpointError,
    DisassemblyProgress,
    Origin,
    batch_from_json,
    batch_json,
    origin_of,
    split_take_apart,
)
from puzzlebox.formats.reader import read_text
from puzzlebox.puzzles.polyomino import PolyominoPuzzle

CATALOG = ["framed-slack", "burr-computers-choice-4-hole"]


def _puzzle(name: str) -> tuple[PolyominoPuzzle, Origin]:
    return cast(PolyominoPuzzle, catalog.load_file(name).puzzles[0]), origin_of(name)


def _rules(puzzle: PolyominoPuzzle) -> Rules:
    declared = getattr(puzzle, "disassembly", None)
    return Rules(fixed=frozenset(declared.fixed) if declared else frozenset(),
                 groups=tuple(frozenset(g) for g in declared.groups) if declared else ())


def _seen(found: Any) -> list[Any]:
    """What a take-apart says of each assembly, in order: its placements, the pieces in
    the moves' numbering, the level and every move."""
    out = []
    for done in cast(list[Disassembled], list(found)):
        moves = None if done.separation is None else [
            (m.pieces, m.direction, m.distance) for m in done.separation.all_moves()]
        out.append((done.solution.key(), done.names, done.placements, done.level, moves))
    return out


@pytest.mark.parametrize("name", CATALOG)
def test_split_over_processes_is_one_process(name: str) -> None:
    puzzle, origin = _puzzle(name)
    rules = _rules(puzzle)
    alone = _seen(take_apart(puzzle, rules))
    assert alone and any(level is not None for _, _, _, level, _ in alone)
    assert _seen(split_take_apart(puzzle, origin, rules, jobs=2, batch=2)) == alone


@pytest.mark.parametrize("name", CATALOG)
def test_a_resumed_checkpoint_is_one_process(name: str, tmp_path: Path) -> None:
    """A run killed part of the way (its checkpoint cut after a few lines, the last one cut
    short) resumes: only the missing assemblies are taken apart, and the answer is one
    process's."""
    puzzle, origin = _puzzle(name)
    rules = _rules(puzzle)
    alone = _seen(take_apart(puzzle, rules))
    path = tmp_path / "apart.jsonl"
    assert _seen(split_take_apart(puzzle, origin, rules, checkpoint=str(path))) == alone
    lines = path.read_text().splitlines()
    assert len(lines) == 1 + len(alone)
    kept = max(1, len(alone) // 2)
    path.write_text("\n".join(lines[:1 + kept]) + "\n" + lines[1 + kept][:25])
    events: list[DisassemblyProgress] = []
    again = _seen(split_take_apart(puzzle, origin, rules, jobs=2, checkpoint=str(path),
                                   on_progress=events.append))
    assert again == alone
    assert events[-1].done and events[-1].resumed == kept
    assert events[-1].taken == len(alone)
    assert events[-1].apart == sum(level is not None for _, _, _, level, _ in alone)
    # every assembly is in the file now, once: a second resume takes nothing apart
    events.clear()
    assert _seen(split_take_apart(puzzle, origin, rules, checkpoint=str(path),
                                  on_progress=events.append)) == alone
    assert events[-1].resumed == len(alone)


def test_a_checkpoint_of_other_rules_is_refused(tmp_path: Path) -> None:
    puzzle, origin = _puzzle("framed-slack")
    path = tmp_path / "apart.jsonl"
    list(split_take_apart(puzzle, origin, _rules(puzzle), checkpoint=str(path)))
    with pytest.raises(DisassemblyCheckpointError, match="another puzzle"):
        list(split_take_apart(puzzle, origin, Rules(thorough=True), checkpoint=str(path)))


def _cli(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def _counted(out: str) -> list[dict[str, Any]]:
    lines = [json.loads(line) for line in out.splitlines()]
    for line in lines:
        line.pop("seconds")
    return lines


@pytest.mark.parametrize("name", CATALOG)
def test_jobs_two_is_jobs_one_through_the_command_line(
        name: str, capsys: pytest.CaptureFixture[str]) -> None:
    code, one, _ = _cli(capsys, "count", name, "--disassemble", "--json", "--jobs", "1")
    assert code == 0
    code, two, _ = _cli(capsys, "count", name, "--disassemble", "--json", "--jobs", "2")
    assert code == 0 and _counted(two) == _counted(one)
    code, one, _ = _cli(capsys, "solve", name, "--disassemble", "--all", "--format", "json")
    assert code == 0
    code, two, _ = _cli(capsys, "solve", name, "--disassemble", "--all", "--format", "json",
                        "--jobs", "2")
    assert code == 0 and two == one and one.strip()


def test_progress_json_shows_assemblies_done_and_apart(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "apart.jsonl"
    code, out, err = _cli(capsys, "count", "framed-slack", "--disassemble", "--json",
                          "--checkpoint", str(path), "--progress", "json")
    assert code == 0
    last = json.loads(err.splitlines()[-1])
    counted = json.loads(out)
    assert last["done"] and last["assemblies_done"] == counted["assemblies"]
    assert last["come_apart"] == counted["come_apart"]


def test_a_damaged_checkpoint_is_refused_in_one_line(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "apart.jsonl"
    code, first, _ = _cli(capsys, "count", "framed-slack", "--disassemble", "--json",
                          "--checkpoint", str(path))
    assert code == 0
    lines = path.read_text().splitlines()
    lines[2] = lines[2].replace('"separation": null', '"separation": 1') if (
        '"separation": null' in lines[2]) else lines[2].replace('"moves": [[[', '"moves": [[[9, ')
    path.write_text("\n".join(lines) + "\n")
    code, out, err = _cli(capsys, "count", "framed-slack", "--disassemble", "--json",
                          "--checkpoint", str(path))
    assert code != 0 and not out
    assert len(err.strip().splitlines()) == 1 and "damaged line" in err and ":3:" in err
    # a file that is no checkpoint at all, refused too
    path.write_text("hello\n")
    code, _, err = _cli(capsys, "count", "framed-slack", "--disassemble", "--checkpoint",
                        str(path))
    assert code != 0 and len(err.strip().splitlines()) == 1 and "not a disassembly" in err


def test_a_dask_cluster_gives_what_one_process_gives() -> None:
    """The assemblies shared out over a Dask scheduler (a cluster of threads in this
    process) come back as one process takes them apart."""
    pytest.importorskip("dask.distributed")
    from dask.distributed import LocalCluster

    puzzle, origin = _puzzle("framed-slack")
    rules = _rules(puzzle)
    with LocalCluster(n_workers=1, threads_per_worker=2, processes=False,
                      dashboard_address=None) as cluster:
        split = _seen(split_take_apart(puzzle, origin, rules,
                                       cluster=cluster.scheduler_address, batch=5))
    assert split == _seen(take_apart(puzzle, rules))


SHAPES = ["##", "###", "##/#.", "#"]


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(rows=st.integers(1, 3), cols=st.integers(2, 4),
       picks=st.lists(st.integers(0, 2), min_size=4, max_size=4),
       fixed_first=st.booleans(), cut=st.integers(0, 3))
def test_small_made_puzzles_split_and_resumed(rows: int, cols: int, picks: list[int],
                                              fixed_first: bool, cut: int,
                                              tmp_path_factory: pytest.TempPathFactory) -> None:
    """Small boards filled with a few trominoes and dominoes (monominoes for the rest), one
    piece fixed or none: split one assembly a task and resumed after a cut, the answer is
    one process's."""
    area, pieces = rows * cols, []
    for pick in picks:
        size = SHAPES[pick].count("#")
        if size <= area - sum(s.count("#") for s in pieces):
            pieces.append(SHAPES[pick])
    while sum(s.count("#") for s in pieces) < area:
        pieces.append("#")
    names = [f"P{k}" for k in range(len(pieces))]
    grid = "/".join("#" * cols for _ in range(rows))
    text = (f'title = "made"\n[board]\ngrid = "{grid}"\n[pieces]\n'
            + "".join(f'{n} = "{s}"\n' for n, s in zip(names, pieces))
            + (f'[disassembly]\nfixed = ["{names[0]}"]\n' if fixed_first else ""))
    puzzle = cast(PolyominoPuzzle, read_text(text, "made.toml", "made").puzzles[0])
    origin = Origin(text, "made.toml", "made", 0)
    rules = _rules(puzzle)
    alone = _seen(take_apart(puzzle, rules))
    path = tmp_path_factory.mktemp("made") / "apart.jsonl"
    assert _seen(split_take_apart(puzzle, origin, rules, checkpoint=str(path), batch=1)) == alone
    lines = path.read_text().splitlines()
    path.write_text("\n".join(lines[:1 + min(cut, len(alone))]) + "\n")
    assert _seen(split_take_apart(puzzle, origin, rules, checkpoint=str(path), batch=2)) == alone


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_a_state_limit_met_on_a_worker_is_one_process_s_line(
        jobs: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A limit met on a worker comes back as its one line and exit status 3: the earliest
    assembly's, as one process meets it."""
    code, _, alone = _cli(capsys, "count", "framed-slack", "--disassemble", "--max-states", "2")
    assert code == 3
    code, out, err = _cli(capsys, "count", "framed-slack", "--disassemble", "--max-states", "2",
                          "--jobs", jobs, "--checkpoint", str(tmp_path / "apart.jsonl"))
    assert code == 3 and not out and err == alone and len(err.strip().splitlines()) == 1


def test_max_time_goes_with_a_split_take_apart(capsys: pytest.CaptureFixture[str]) -> None:
    """--max-time is one deadline for the split command too (not refused as for a split
    count): a generous one changes nothing."""
    code, one, _ = _cli(capsys, "count", "framed-slack", "--disassemble", "--json")
    code, two, err = _cli(capsys, "count", "framed-slack", "--disassemble", "--json",
                          "--jobs", "2", "--max-time", "600")
    assert code == 0 and _counted(two) == _counted(one), err


def test_the_progress_line_says_assemblies_done_and_apart() -> None:
    event = DisassemblyProgress(1.5, 48, 12, 9, 0, 2)
    assert event.text().startswith("12 of 48 assemblies done (25.0 %), 9 come apart")
    assert event.json()["assemblies_done"] == 12 and not event.json()["done"]


def test_assemblies_travel_as_placement_numbers_and_come_back_whole() -> None:
    """A task carries each placement once (its cells written out) and each assembly as
    numbers; the worker rebuilds equal assemblies, one placement object for each value
    met, from batch to batch (the take-apart knows a placement by its identity)."""
    puzzle, _ = _puzzle("burr-computers-choice-4-hole")
    assemblies = list(puzzle.distinct_solutions())
    assert len(assemblies) >= 2
    codes = Codes()
    coded = [codes.of(cast(Any, s)) for s in assemblies]
    assert len(codes.placements) < sum(len(c) for c in coded)  # shared placements
    known: dict[Any, Any] = {}
    first = batch_from_json(json.loads(json.dumps(batch_json(codes, [(1, coded[0])]))), known)
    again = batch_from_json(json.loads(json.dumps(
        batch_json(codes, [(n + 1, c) for n, c in enumerate(coded)]))), known)
    assert [n for n, _ in again] == list(range(1, len(assemblies) + 1))
    assert [s for _, s in again] == assemblies
    assert first[0][1] == assemblies[0]
    for a, b in zip(first[0][1].placements, again[0][1].placements, strict=True):
        assert a is b


def test_a_checkpoint_of_an_older_format_is_refused_as_such(tmp_path: Path) -> None:
    """A checkpoint written before assemblies travelled as placement numbers (format 2)
    is refused in one line that says it is another version's, not another puzzle's."""
    puzzle, origin = _puzzle("framed-slack")
    path = tmp_path / "old.jsonl"
    list(split_take_apart(puzzle, origin, _rules(puzzle), checkpoint=str(path)))
    lines = path.read_text().split("\n")
    head = json.loads(lines[0])
    assert head["version"] == 3
    head["version"] = 2
    path.write_text("\n".join([json.dumps(head), *lines[1:]]))
    with pytest.raises(DisassemblyCheckpointError, match="another version of puzzlebox"):
        list(split_take_apart(puzzle, origin, _rules(puzzle), checkpoint=str(path)))
