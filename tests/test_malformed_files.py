"""Every malformed file gets one line naming the file and the place, and exit status 2."""

from __future__ import annotations

import subprocess
import sys

import pytest

from puzzlebox.cli import main

PENT = '[board]\ngrid = "###"\n[pieces]\nA = "#"\n'
CASES = {
    "bad-toml": ("[board\ngrid = 1", ":1:", "not valid TOML"),
    "unterminated": ('[board]\ngrid = "##', ":2:", "not valid TOML"),
    "unknown-kind": ('kind = "kakuro"\n', ":1:", "unknown kind"),
    "unknown-top-key": ("colour = 1\n" + PENT, ":1:", "colour: unknown key"),
    "unknown-rule": (PENT + "[rules]\nrotat = true\n", ":6:", "rules.rotat: unknown key"),
    "rule-not-bool": (PENT + '[rules]\nrotate = "yes"\n', ":6:", "must be true or false"),
    "empty-board": ('[board]\ngrid = "..."\n[pieces]\nA = "#"\n', ":2:", "no cells"),
    "board-not-string": ("[board]\ngrid = 3\n[pieces]\nA = \"#\"\n", ":2:", "must be a string"),
    "no-board": ('[pieces]\nA = "#"\n', None, "board: is missing"),
    "no-pieces": ('[board]\ngrid = "##"\n', None, "pieces: is missing"),
    "empty-piece": ('[board]\ngrid = "##"\n[pieces]\nA = ""\n', ":4:", "pieces.A"),
    "piece-too-big": ('[board]\ngrid = "##"\n[pieces]\nA = "###"\n', ":4:", "more than"),
    "negative-count": (
        '[board]\ngrid = "##"\n[pieces]\nA = { shape = "#", count = -1 }\n', ":4:", "negative"
    ),
    "bad-range": (
        '[board]\ngrid = "##"\n[pieces]\nA = { shape = "#", count = [3, 1] }\n', ":4:", "lo <= hi"
    ),
    "bad-count-word": (
        '[board]\ngrid = "##"\n[pieces]\nA = { shape = "#", count = "many" }\n', ":4:", "count"
    ),
    "count-bool": (
        '[board]\ngrid = "##"\n[pieces]\nA = { shape = "#", count = true }\n', ":4:", "count"
    ),
    "piece-unknown-key": (
        '[board]\ngrid = "##"\n[pieces]\nA = { shape = "#", copies = 2 }\n', ":4:", "unknown key"
    ),
    "board-and-boards": (
        PENT + '[[boards]]\nname = "x"\ngrid = "#"\n', ":5:", "either [board] or [[boards]]"
    ),
    "boards-dup-name": (
        '[[boards]]\nname = "x"\ngrid = "#"\n[[boards]]\nname = "x"\ngrid = "#"\n'
        '[pieces]\nA = "#"\n',
        ":5:",
        "used twice",
    ),
    "card-three-labels": (
        'kind = "edge-matching"\n[board]\nrows = 1\ncols = 1\n[cards]\n1 = "a b c"\n',
        ":6:",
        "a card needs 4",
    ),
    "card-not-string": (
        'kind = "edge-matching"\n[board]\nrows = 1\ncols = 1\n[cards]\n1 = 7\n', ":6:", "labels"
    ),
    "rows-zero": (
        'kind = "edge-matching"\n[board]\nrows = 0\ncols = 1\n[cards]\n1 = "a b c d"\n',
        ":3:",
        "at least 1",
    ),
    "complement-twice": (
        'kind = "edge-matching"\n[board]\nrows = 1\ncols = 1\n[cards]\n1 = "a b c d"\n'
        '[rules.complements]\na = "b"\nb = "c"\n',
        ":9:",
        "two complements",
    ),
    "edge-unknown-rule": (
        'kind = "edge-matching"\n[board]\nrows = 1\ncols = 1\n[cards]\n1 = "a b c d"\n'
        "[rules]\nreflect = true\n",
        ":8:",
        "unknown key",
    ),
    "queens-zero": ('kind = "queens"\nn = 0\n', ":2:", "at least 1"),
    "queens-text": ('kind = "queens"\nn = "eight"\n', ":2:", "must be an integer"),
    "queens-missing": ('kind = "queens"\n', None, "n: is missing"),
    "queens-extra": ('kind = "queens"\nn = 4\nsize = 1\n', ":3:", "unknown key"),
    "title-not-text": ('title = 3\n[board]\ngrid = "#"\n[pieces]\nA = "#"\n', ":1:", "string"),
}


@pytest.mark.parametrize("case", sorted(CASES))
def test_malformed_file_is_one_line_and_exit_2(case, tmp_path, capsys):
    text, place, fragment = CASES[case]
    path = tmp_path / f"{case}.toml"
    path.write_text(text)
    assert main(["count", str(path)]) == 2
    out, err = capsys.readouterr()
    assert out == ""
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    assert str(path) in lines[0]
    assert fragment in lines[0]
    if place is not None:
        assert f"{path}{place}" in lines[0]


def test_missing_file_and_unknown_name(tmp_path, capsys):
    assert main(["solve", str(tmp_path / "nothing.toml")]) == 2
    assert main(["count", "no-such-catalog-puzzle"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 2 and "no such file" in err[0] and "catalog" in err[1]


def test_not_utf8(tmp_path, capsys):
    path = tmp_path / "latin1.toml"
    path.write_bytes(b'title = "\xe9"\n')
    assert main(["show", str(path)]) == 2
    assert "UTF-8" in capsys.readouterr().err


def test_real_process_prints_no_traceback(tmp_path):
    path = tmp_path / "bad.toml"
    path.write_text('kind = "queens"\nn = -3\n')
    done = subprocess.run(
        [sys.executable, "-m", "puzzlebox.cli", "count", str(path)],
        capture_output=True,
        text=True,
    )
    assert done.returncode == 2
    assert "Traceback" not in done.stderr
    assert done.stderr.count("\n") == 1
