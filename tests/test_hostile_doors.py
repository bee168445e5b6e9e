"""Hostile input, second round (#28): the doors added since #18 (BurrTools files, exports,
other lattices, checkpoints). Each test is built from one of the issue's smallest examples;
each refusal is one line naming the file and what is wrong, exit status 2.
"""

from __future__ import annotations

import gzip
import json
from pathlib import Path

import pytest

from puzzlebox.cli import main
from puzzlebox.formats import burrtools as bt
from puzzlebox.formats import read_file
from puzzlebox.puzzles import PolyominoPuzzle
from puzzlebox.render import sheet, stl


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


# -- BurrTools files: bounded before and while parsing ----------------------------------------
def _import(tmp_path, capsys, data: bytes, zipped: bool = False) -> tuple[int, str, str]:
    path = tmp_path / "p.xmpuzzle"
    path.write_bytes(gzip.compress(data, mtime=0) if zipped else data)
    code = main(["import", str(path), "-o", str(tmp_path / "out.toml")])
    out, err = capsys.readouterr()
    return code, out, err


def _refused(tmp_path, capsys, data: bytes, words: str, zipped: bool = False) -> None:
    code, out, err = _import(tmp_path, capsys, data, zipped)
    assert code == 2 and out == "", err
    assert err.count("\n") == 1 and "Traceback" not in err, err
    assert "p.xmpuzzle" in err and words in err, err
    assert not (tmp_path / "out.toml").exists()


ONE_CUBE = '<voxel x="1" y="1" z="1" type="0">#</voxel>'


def test_the_gzip_bomb_of_millions_of_problems_is_refused_at_the_problem_limit(
        tmp_path, capsys):
    # the 130 KB file: 6.7 million <problem/> in 64 MiB of XML (it ran 47 s, 2.9 GB)
    head = f'<puzzle version="2"><shapes>{ONE_CUBE}</shapes><problems>'.encode()
    tail = b"</problems></puzzle>"
    data = head + b"<problem/>" * ((bt.MAX_XML_BYTES - len(head) - len(tail)) // 10) + tail
    assert len(gzip.compress(data, mtime=0)) < 140_000
    _refused(tmp_path, capsys, data, f"more than {bt.MAX_PROBLEMS} problems", zipped=True)


@pytest.mark.parametrize(("body", "words"), [
    (b"<shapes>" + b"<a/>" * (bt.MAX_ELEMENTS + 10) + b"</shapes>", "elements"),
    (b"<problems><problem><shapes>" + b'<shape id="0"/>' * (bt.MAX_PARTS + 1)
     + b"</shapes></problem></problems>", "<shape> entries"),
    (b"<colors>" + b'<color red="1" green="2" blue="3"/>' * 64 + b"</colors>", "63 colours"),
])
def test_element_counts_are_bounded_while_parsing(tmp_path, capsys, body, words):
    _refused(tmp_path, capsys, b'<puzzle version="2">' + body + b"</puzzle>", words,
             zipped=True)


BILLION_LAUGHS = b"""<?xml version="1.0"?>
<!DOCTYPE lolz [<!ENTITY lol "lol">
<!ENTITY lol2 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">
<!ENTITY lol3 "&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;">
<!ENTITY lol4 "&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;">]>
<puzzle version="2"><comment>&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;</comment></puzzle>
"""
XXE = b"""<?xml version="1.0"?>
<!DOCTYPE p [<!ENTITY xxe SYSTEM "file:///etc/passwd">]>
<puzzle version="2"><comment>&xxe;</comment></puzzle>
"""
XXE_PARAMETER = b"""<?xml version="1.0"?>
<!DOCTYPE p SYSTEM "http://example.invalid/evil.dtd">
<puzzle version="2"><comment>x</comment></puzzle>
"""


@pytest.mark.parametrize("data", [BILLION_LAUGHS, XXE, XXE_PARAMETER],
                         ids=["billion-laughs", "xxe", "external-dtd"])
def test_no_entity_is_expanded_and_no_external_entity_read(tmp_path, capsys, data):
    for zipped in (False, True):
        _refused(tmp_path, capsys, data, "document type declaration", zipped)


def test_an_undeclared_entity_is_not_well_formed(tmp_path, capsys):
    _refused(tmp_path, capsys, b'<puzzle version="2"><comment>&xxe;</comment></puzzle>',
             "undefined entity")


@pytest.mark.parametrize(("encoding", "why"), [("x-bogus", "LookupError"),
                                               ("utf-32", "ValueError")])
def test_an_unknown_encoding_is_one_line(tmp_path, capsys, encoding, why):
    data = f'<?xml version="1.0" encoding="{encoding}"?>\n<puzzle version="2"></puzzle>\n'
    _refused(tmp_path, capsys, data.encode(), f"encoding '{encoding}' cannot be read ({why}")


def test_shapes_named_a_and_a_space_are_imported(tmp_path, capsys):
    data = (b'<puzzle version="2"><gridType type="0"/><shapes>'
            b'<voxel x="2" y="1" z="1" type="0">##</voxel>'
            b'<voxel x="1" y="1" z="1" name="a" type="0">#</voxel>'
            b'<voxel x="1" y="1" z="1" name="a " type="0">#</voxel>'
            b'<voxel x="1" y="1" z="1" name="b" type="0">#</voxel></shapes><problems>'
            b'<problem><shapes><shape id="1"/><shape id="2"/></shapes><result id="0"/>'
            b"</problem></problems></puzzle>")
    code, _, err = _import(tmp_path, capsys, data)
    assert code == 0, err
    pf = read_file(tmp_path / "out.toml")
    assert [p.name for p in pf.puzzles[0].pieces] == ["S2", "S3"]
    assert pf.puzzles[0].count().solutions == 2


# -- checkpoints: verified, not trusted -------------------------------------------------------
RUN = ["count", "queens-8", "--engine", "reference", "--split-depth", "1", "--checkpoint"]


def _checkpoint(tmp_path, capsys) -> Path:
    path = tmp_path / "run.json"
    assert main([*RUN, str(path)]) == 0
    assert "92 solutions, 12 distinct" in capsys.readouterr().out
    return path


def _pending(board: dict, *keys: str) -> None:
    """Make subproblems pending again (deleting a result is allowed: it is searched again)."""
    for key in keys:
        board["done"].pop(key)


def _dup_pending(b: dict) -> None:
    _pending(b, "2", "3")
    b["subproblems"].append(b["subproblems"][3])


def _dup_finished(b: dict) -> None:
    b["subproblems"].append(b["subproblems"][0])
    b["done"][str(len(b["subproblems"]) - 1)] = b["done"]["0"]


def _drop_one(b: dict) -> None:
    b["subproblems"].pop()
    b["done"].pop(str(len(b["subproblems"])))


def _change_forced(b: dict) -> None:
    b["subproblems"][3][0][0] = 40  # another option of the problem


def _plan_of_one(b: dict) -> None:
    b["subproblems"] = [[[], []]]
    b["done"] = {"0": [1, 1, 5, 0.1]}


def _mark_done(b: dict) -> None:
    _pending(b, "3")
    b["done"]["3"] = [0, 0, 10, 0.01]


def _swap_results(b: dict) -> None:
    b["done"]["0"], b["done"]["1"] = b["done"]["1"], b["done"]["0"]


TAMPERED = {  # the hand edits that used to resume with a wrong total, and others
    "count-plus-one": (lambda b: b["done"]["0"].__setitem__(0, b["done"]["0"][0] + 1),
                       "the result of subproblem 0"),
    "count-times-ten": (lambda b: b["done"].__setitem__(
        "2", [b["done"]["2"][0] * 10, b["done"]["2"][1] * 10, *b["done"]["2"][2:]]),
        "the result of subproblem 2"),
    "pending-duplicated": (_dup_pending, "subproblem 4 repeats subproblem 3"),
    "finished-duplicated": (_dup_finished, "subproblem 4 repeats subproblem 0"),
    "one-deleted": (_drop_one, "do not match their checksum"),
    "forced-changed": (_change_forced, "do not match their checksum"),
    "plan-of-one": (_plan_of_one, "do not match their checksum"),
    "marked-done": (_mark_done, "the result of subproblem 3 ([0, 0, 10, 0.01])"),
    "results-swapped": (_swap_results, "does not match its checksum"),
    "option-twice": (lambda b: b["subproblems"][1][0].append(b["subproblems"][1][0][0]),
                     "subproblem 1 names an option twice"),
}


@pytest.mark.parametrize("case", sorted(TAMPERED))
def test_a_tampered_checkpoint_is_refused_naming_what_changed(case, tmp_path, capsys):
    path = _checkpoint(tmp_path, capsys)
    data = json.loads(path.read_text())
    change, fragment = TAMPERED[case]
    change(data["boards"][0])
    path.write_text(json.dumps(data))
    code = main([*RUN, str(path)])
    line = _one_error_line(capsys)
    assert code == 2 and fragment in line and str(path) in line, line


@pytest.mark.parametrize(("change", "fragment"), [
    (lambda d: d.pop("checksums"), "its fields must be exactly"),
    (lambda d: d["checksums"][0].__setitem__("plan", "0" * 64), "do not match their checksum"),
    (lambda d: d["checksums"].__setitem__(0, []), "its checksums must be"),
    (lambda d: d.__setitem__("version", 1), "checkpoint version 1 is not 3"),
    (lambda d: d["checksums"][0]["done"].pop("2"), "subproblem 2 is marked done by hand"),
])
def test_checksums_themselves_are_checked(change, fragment, tmp_path, capsys):
    path = _checkpoint(tmp_path, capsys)
    data = json.loads(path.read_text())
    change(data)
    path.write_text(json.dumps(data))
    assert main([*RUN, str(path)]) == 2
    line = _one_error_line(capsys)
    assert fragment in line, line


def test_a_checkpoint_of_another_puzzle_is_refused(tmp_path, capsys):
    path = _checkpoint(tmp_path, capsys)
    assert main(["count", "queens-5", *RUN[2:], str(path)]) == 2
    assert "another puzzle" in _one_error_line(capsys)


def test_a_partial_checkpoint_resumes_to_the_right_total(tmp_path, capsys):
    path = _checkpoint(tmp_path, capsys)
    data = json.loads(path.read_text())
    _pending(data["boards"][0], "1", "3")
    path.write_text(json.dumps(data))
    assert main([*RUN, str(path)]) == 0
    assert "92 solutions, 12 distinct" in capsys.readouterr().out


# -- exports: what will be built is checked before building ----------------------------------
def _write(tmp_path, text: str) -> Path:
    path = tmp_path / "big.toml"
    path.write_text(text, encoding="utf-8")
    return path


SQUARE_100 = "/".join(["#" * 100] * 100)


def test_a_sheet_of_ten_thousand_large_copies_is_refused_before_drawing(tmp_path, capsys):
    # the 20 KB file: 10,000 copies of a 100 x 100 piece (it ran out of memory)
    path = _write(tmp_path, f'[board]\ngrid = "{SQUARE_100}"\n[pieces.A]\nshape = '
                            f'"{SQUARE_100}"\ncount = 10000\n')
    assert path.stat().st_size < 21_000
    out = tmp_path / "out" / "sheet.svg"
    out.parent.mkdir()
    assert main(["export", str(path), "--sheet", str(out)]) == 2
    line = _one_error_line(capsys)
    assert "100000000 cells" in line and str(sheet.MAX_SHEET_CELLS) in line, line
    assert not any(out.parent.iterdir())


def test_a_sheet_of_too_many_small_copies_is_refused(tmp_path, capsys):
    pieces = "".join(f'[pieces.P{i}]\nshape = "#"\ncount = 10000\n' for i in range(3))
    path = _write(tmp_path, f'[board]\ngrid = "{SQUARE_100}"\n{pieces}')
    assert main(["export", str(path), "--sheet", str(tmp_path / "s.pdf")]) == 2
    assert "30000 pieces" in _one_error_line(capsys)
    assert not (tmp_path / "s.pdf").exists()


def test_stl_files_of_too_many_cells_are_refused_before_any_is_written(tmp_path, capsys):
    pieces = "".join(f'[pieces.P{i}]\nshape = "{SQUARE_100}"\ncount = 0\n' for i in range(3))
    path = _write(tmp_path, f'[board]\ngrid = "{SQUARE_100}"\n{pieces}')
    folder = tmp_path / "stl"
    assert main(["export", str(path), "--stl", str(folder)]) == 2
    line = _one_error_line(capsys)
    assert "30000 cells" in line and str(stl.MAX_STL_CELLS) in line, line
    assert not folder.exists()


def test_a_sheet_skips_pieces_of_no_copies(tmp_path):
    from puzzlebox.formats import read_text

    pf = read_text(f'[board]\ngrid = "{SQUARE_100}"\n[pieces.A]\nshape = "##"\ncount = 1\n'
                   f'[pieces.Z]\nshape = "{SQUARE_100}"\ncount = 0\n', "f.toml", "f")
    assert [name for name, _ in sheet.piece_copies(pf.puzzles[0])] == ["A"]


# -- proofs that need no placements run before placements are built --------------------------
def _column(layers: int, pieces: int) -> str:
    """The issue's column: a board of single-cell layers on the cube lattice, and named
    dominoes standing up, one piece too many."""
    grid = ", ".join(['"#"'] * layers)
    named = "".join(f'P{i} = ["#", "#"]\n' for i in range(pieces))
    return f'lattice = "cube"\n[board]\ngrid = [{grid}]\n[pieces]\n{named}'


@pytest.fixture
def no_building(monkeypatch):
    def refuse(self):  # the test fails if any placement is built
        raise AssertionError("placements were built")

    monkeypatch.setattr(PolyominoPuzzle, "build_problem", refuse)


@pytest.mark.parametrize("command", ["count", "solve"])
def test_a_column_of_cubes_is_settled_by_area_before_any_placement(command, tmp_path, capsys,
                                                                   no_building):
    path = tmp_path / "column.toml"
    path.write_text(_column(400, 201), encoding="utf-8")
    main([command, str(path), "--quiet"])
    out, err = capsys.readouterr()
    assert "the board has 400 cells, which is not a sum" in out + err, out + err
    assert "Traceback" not in err


def test_the_library_asks_the_area_proof_before_building(no_building):
    from puzzlebox.formats import read_text

    puzzle = read_text(_column(40, 21), "c.toml", "c").puzzles[0]
    assert puzzle.count().solutions == 0
    assert list(puzzle.solutions()) == []


def test_proof_without_placements_names_area_and_colouring():
    from puzzlebox.formats import read_text
    from puzzlebox.puzzles.proofs import proof_without_placements

    area = read_text(_column(4, 3), "c.toml", "c").puzzles[0]
    proof = proof_without_placements(area)
    assert proof is not None and proof.argument == "area"
    chess = "/".join("." + "#" * 7 if r == 0 else "#" * 7 + "." if r == 7 else "#" * 8
                     for r in range(8))
    mutilated = read_text(f'[board]\ngrid = "{chess}"\n[pieces.D]\nshape = "##"\ncount = 31\n',
                          "m.toml", "m").puzzles[0]
    proof = proof_without_placements(mutilated)
    assert proof is not None and proof.argument == "checkerboard"
    fine = read_text(_column(4, 2), "c.toml", "c").puzzles[0]
    assert proof_without_placements(fine) is None


def test_a_sweep_whose_every_combination_fails_by_area_searches_nothing(tmp_path, capsys,
                                                                        monkeypatch):
    # the calendar variant: three extra monominoes, so no date can work
    from puzzlebox import catalog
    from puzzlebox.engine import search

    text = catalog.path_of("calendar").read_text(encoding="utf-8")
    path = tmp_path / "calendar3.toml"
    path.write_text(text + 'M1 = "#"\nM2 = "#"\nM3 = "#"\n', encoding="utf-8")

    def no_search(*args, **kwargs):
        raise AssertionError("a combination was searched")

    monkeypatch.setattr(search, "each_solution", no_search)  # the tally of every date
    monkeypatch.setattr(PolyominoPuzzle, "count", no_search)  # one date's count
    assert main(["sweep", str(path), "--quiet"]) == 0
    out = capsys.readouterr().out
    assert "366 combinations of month, day, 0 solvable, 0 solutions" in out
    # the shared proof told once, each date referring to it (#38 item 9)
    assert out.count("area: the board has 41 cells") == 1 and out.count("(area: see [1])") == 366
