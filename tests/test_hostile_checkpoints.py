"""Tampered checkpoints of bedlam-cube (#28): the issue's hand edits, on the puzzle they were
made on (its split plan of 22 subproblems), each refused at resume before any search.

The checkpoint is written by the run itself (``split_run``, as ``puzzlebox count bedlam-cube
--checkpoint FILE`` makes it: the same plan, fingerprint and checksums), but its subproblems
are not searched: a stand-in task answers each one at once (the whole count takes about a
minute, which tests do not spend), and a Ctrl-C after 12 of them leaves the rest pending, as
a killed run would. Each edit is then refused by the command line with one line naming what
is wrong, and ``count_subproblem`` is made to fail the test if any search starts.
"""

from __future__ import annotations

import hashlib
import json
import shutil
from pathlib import Path
from typing import Any

import pytest

from puzzlebox import catalog
from puzzlebox.cli import main
from puzzlebox.engine.registry import AUTO
from puzzlebox.parallel import Interrupted, checkpoint
from puzzlebox.parallel import run as parallel_run
from puzzlebox.parallel import tasks as parallel_tasks
from puzzlebox.run import Limits
from puzzlebox.run.run import Split, split_run

FINISHED = 12  # subproblems recorded before the stand-in's Ctrl-C; the rest stay pending


def _stand_in(counter: list[int]) -> Any:
    """A task function answering a count subproblem at once, with a made-up result that
    depends on the subproblem (raw 48 times one more than its forced options, distinct that
    over 24), and a Ctrl-C once :data:`FINISHED` have been answered."""

    def run(task: tuple[Any, ...]) -> tuple[Any, ...]:
        if counter[0] >= FINISHED:
            raise KeyboardInterrupt
        counter[0] += 1
        forced = task[4]
        raw = 48 * (len(forced) + 1)
        return (raw, raw // 24, 1000, 0.01, task[3], 0.01, "stand-in")

    return run


@pytest.fixture(scope="module")
def bedlam_checkpoint(tmp_path_factory) -> Path:
    """A checkpoint of ``count bedlam-cube``: its 22 subproblems planned (at least 16, as
    the split planned before #38 cut finer), 12 recorded."""
    path = tmp_path_factory.mktemp("bedlam") / "bedlam.json"
    pf = catalog.load_file("bedlam-cube")
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(parallel_run, "LEAST", 16)
        splitter = split_run(pf, "count", AUTO, Split(checkpoint=path), Limits(),
                             lambda line: None, task_function=_stand_in([0]))
        with pytest.raises(Interrupted):
            splitter.count(0)
    splitter.close()
    data = json.loads(path.read_text())
    board = data["boards"][0]
    assert len(board["subproblems"]) == 22 and len(board["done"]) == FINISHED
    return path


@pytest.fixture
def no_search(monkeypatch) -> None:
    def refuse(*args: Any, **kwargs: Any) -> Any:
        raise AssertionError("a subproblem was searched before the checkpoint was refused")

    monkeypatch.setattr(parallel_tasks, "count_subproblem", refuse)


def _pending_keys(board: dict[str, Any]) -> list[int]:
    return [i for i in range(len(board["subproblems"])) if str(i) not in board["done"]]


def _raise_one(b: dict[str, Any]) -> None:  # 460,465 for 460,464
    b["done"]["0"][0] += 1


def _times_ten(b: dict[str, Any]) -> None:
    b["done"]["5"][0] *= 10
    b["done"]["5"][1] *= 10


def _dup_pending(b: dict[str, Any]) -> None:  # 472,968
    b["subproblems"].append(b["subproblems"][_pending_keys(b)[0]])


def _dup_finished(b: dict[str, Any]) -> None:  # 540,168
    b["subproblems"].append(b["subproblems"][3])
    b["done"][str(len(b["subproblems"]) - 1)] = b["done"]["3"]


def _delete_pending(b: dict[str, Any]) -> None:  # 447,960
    del b["subproblems"][_pending_keys(b)[-1]]


def _change_forced(b: dict[str, Any]) -> None:  # 399,168
    forced = b["subproblems"][_pending_keys(b)[0]][0]
    forced[0] = forced[0] + 1


def _plan_of_one(b: dict[str, Any]) -> None:  # total 1
    b["subproblems"] = [[[], []]]
    b["done"] = {"0": [1, 1, 5, 0.1]}


def _mark_done(b: dict[str, Any]) -> None:
    b["done"][str(_pending_keys(b)[0])] = [0, 0, 10, 0.01]


def _bool_for_number(b: dict[str, Any]) -> None:
    b["done"]["1"][0] = True


def _swap(b: dict[str, Any]) -> None:
    b["done"]["0"], b["done"]["1"] = b["done"]["1"], b["done"]["0"]


TAMPERED = {  # the seven edits that resumed with exit 0 and a wrong total, and others
    "count-raised-by-one": (_raise_one, "the result of subproblem 0"),
    "count-times-ten": (_times_ten, "the result of subproblem 5"),
    "pending-duplicated": (_dup_pending, "subproblem 22 repeats subproblem"),
    "finished-duplicated": (_dup_finished, "subproblem 22 repeats subproblem 3"),
    "one-deleted": (_delete_pending, "21 subproblems do not match their checksum"),
    "forced-changed": (_change_forced, "22 subproblems do not match their checksum"),
    "plan-of-one": (_plan_of_one, "1 subproblems do not match their checksum"),
    "marked-done": (_mark_done, "is marked done by hand"),
    "boolean-for-number": (_bool_for_number, "the result of subproblem 1 must hold whole"),
    "results-swapped": (_swap, "does not match its checksum"),
}


@pytest.mark.parametrize("case", sorted(TAMPERED))
def test_a_tampered_bedlam_checkpoint_is_refused_before_any_search(
        case, bedlam_checkpoint, tmp_path, capsys, no_search):
    path = tmp_path / "run.json"
    shutil.copy(bedlam_checkpoint, path)
    data = json.loads(path.read_text())
    change, fragment = TAMPERED[case]
    change(data["boards"][0])
    path.write_text(json.dumps(data))
    code = main(["count", "bedlam-cube", "--checkpoint", str(path)])
    out, err = capsys.readouterr()
    lines = err.splitlines()
    assert code == 2 and len(lines) == 1 and "Traceback" not in err, err
    assert lines[0].startswith(f"puzzlebox: {path}: not a usable checkpoint: board 0")
    assert fragment in lines[0], lines[0]
    assert json.loads(path.read_text()) == data  # a refused checkpoint is left as it was


def test_another_puzzles_checkpoint_is_refused(bedlam_checkpoint, tmp_path, capsys, no_search):
    path = tmp_path / "run.json"
    shutil.copy(bedlam_checkpoint, path)
    assert main(["count", "soma-cube", "--checkpoint", str(path)]) == 2
    err = capsys.readouterr().err
    assert "made for another puzzle" in err and len(err.splitlines()) == 1, err


def _plain_sha256(*parts: Any) -> str:
    """The checksum as version 2 took it: SHA-256 of the parts, which anyone can recompute."""
    blob = json.dumps(parts, separators=(",", ":"), sort_keys=True)
    return hashlib.sha256(blob.encode()).hexdigest()


def test_an_edit_with_its_plain_sha256_recomputed_is_refused(
        bedlam_checkpoint, tmp_path, capsys, no_search):
    """#38 item 12: a count raised by one, its checksum recomputed as plain SHA-256 (what the
    file's version 2 was), resumed into a wrong total; the checksums are signed now."""
    path = tmp_path / "run.json"
    data = json.loads(bedlam_checkpoint.read_text())
    board = data["boards"][0]
    board["done"]["0"][0] += 1
    data["checksums"][0]["done"]["0"] = _plain_sha256(
        "result", data["fingerprint"], 0, 0, board["subproblems"][0], board["done"]["0"])
    path.write_text(json.dumps(data))
    code = main(["count", "bedlam-cube", "--checkpoint", str(path)])
    lines = capsys.readouterr().err.splitlines()
    assert code == 2 and len(lines) == 1, lines
    assert lines[0] == (f"puzzlebox: {path}: not a usable checkpoint: board 0: the result of "
                        f"subproblem 0 ({board['done']['0']}) does not match its checksum "
                        "(changed after puzzlebox wrote it)")


def test_the_key_is_made_once_0600_in_the_users_config(bedlam_checkpoint, config_home):
    key = Path(config_home) / "puzzlebox" / checkpoint.KEY_FILE
    assert checkpoint.key_path() == key and key.exists()  # the fixture's run made it
    assert key.stat().st_mode & 0o777 == 0o600 and key.parent.stat().st_mode & 0o077 == 0
    assert len(bytes.fromhex(key.read_text())) == 32


def test_a_checkpoint_signed_with_another_key_is_refused(
        bedlam_checkpoint, tmp_path, capsys, no_search, monkeypatch):
    path = tmp_path / "run.json"
    shutil.copy(bedlam_checkpoint, path)
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "another-user"))
    assert main(["count", "bedlam-cube", "--checkpoint", str(path)]) == 2
    lines = capsys.readouterr().err.splitlines()
    assert len(lines) == 1 and "it was signed with another key than " in lines[0], lines
    assert str(tmp_path / "another-user" / "puzzlebox" / "checkpoint.key") in lines[0]
