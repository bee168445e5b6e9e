"""Hostile input, second round (#28): the doors added since #18 (BurrTools files, exports,
other lattices, checkpoints). Each test is built from one of the issue's smallest examples;
each refusal is one line naming the file and what is wrong, exit status 2.
"""

from __future__ import annotations

import pytest

from puzzlebox.cli import main


def _one_error_line(capsys) -> str:
    out, err = capsys.readouterr()
    lines = err.splitlines()
    assert len(lines) == 1, err
    assert lines[0].startswith("puzzlebox: ") and "Traceback" not in err
    return lines[0]


# -- a piece named "" is drawn ----------------------------------------------------------------
EMPTY_NAME = '[board]\ngrid = "##"\n[pieces]\n"" = "##"\n'


@pytest.mark.parametrize("name", ["", " ", "\u200b"])
@pytest.mark.parametrize("command", ["solve", "show"])
def test_a_piece_with_an_inkless_name_is_drawn(name, command, tmp_path, capsys):
    pytest.importorskip("matplotlib")
    path = tmp_path / "f.toml"
    path.write_text(EMPTY_NAME.replace('""', f'"{name}"'), encoding="utf-8")
    out = tmp_path / "out.svg"
    assert main([command, str(path), "--format", "svg", "--out", str(out)]) == 0
    assert out.read_text(encoding="utf-8").lstrip().startswith("<?xml")
