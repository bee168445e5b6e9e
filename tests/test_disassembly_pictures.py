"""The pictures of a disassembly a designer reads (#35 item 5), read back from the SVG:
frames in rows of at most six, a key with every piece's name, the moving piece highlighted
and the others faded, a part taken away gone from the later frames, a box around a move
inside it drawn as a wire frame, the animated SVG one step a position, and ``solve
--disassemble --format svg`` drawing the assemblies that come apart with their levels."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from puzzlebox.cli import main
from puzzlebox.disassembly.strip import PER_ROW

SVG = "{http://www.w3.org/2000/svg}"

# a cube in a closed box: in its first assembly it slides along inside (hidden) to the
# hole in the lid, then leaves through it
CLOSED_BOX = """
title = "A cube in a closed box"
lattice = "cube"
[board]
grid = ["####/####/####", "####/####/####", "####/####/####"]
optional = ["..../..../....", "..../.++./....", "..../..+./...."]
[pieces]
Box = ["####/####/####", "####/#..#/####", "####/##.#/####"]
Block = ["#"]
[rules]
rotate = false
reflect = false
[disassembly]
fixed = ["Box"]
"""


def _run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def _frames(svg: Path) -> tuple[ET.Element, list[ET.Element]]:
    root = ET.parse(svg).getroot()
    frames = [g for g in root.iter(f"{SVG}g") if g.get("class") == "frame"]
    return root, sorted(frames, key=lambda g: int(g.get("data-step", "0")))


def _shapes(frame: ET.Element) -> list[ET.Element]:
    return [e for e in frame if e.tag in (f"{SVG}polygon", f"{SVG}polyline")]


def _moves(capsys: pytest.CaptureFixture[str], *argv: str) -> dict:
    code, out, _ = _run(capsys, "moves", *argv, "--json")
    assert code == 0
    return json.loads(out)


def test_a_long_sequence_wraps_under_a_key(tmp_path: Path,
                                           capsys: pytest.CaptureFixture[str]) -> None:
    """burr-computers-choice-4-hole: 14 moves, 15 frames in rows of six, every piece in the
    key, each frame's moving pieces highlighted and every other piece faded."""
    obj = _moves(capsys, "burr-computers-choice-4-hole")
    moves = obj["moves"]
    svg = tmp_path / "ccc.svg"
    code, _, _ = _run(capsys, "moves", "burr-computers-choice-4-hole", "--format", "svg",
                      "--out", str(svg))
    assert code == 0
    root, frames = _frames(svg)
    assert len(frames) == 1 + len(moves)
    rows: dict[int, list[int]] = {}
    for frame in frames:
        rows.setdefault(int(frame.get("data-row", "-1")), []).append(
            int(frame.get("data-col", "-1")))
    assert sorted(rows) == list(range(len(rows)))
    assert all(cols == list(range(len(cols))) for cols in rows.values())
    assert max(len(cols) for cols in rows.values()) == PER_ROW
    assert len(rows) == -(-len(frames) // PER_ROW)
    width = float(root.get("width", "0"))
    assert width < 1400  # six frames wide, not fifteen
    # rows stand one under the other: every shape of a later row lies lower
    tops = {}
    for frame in frames:
        ys = [float(p.split(",")[1]) for s in _shapes(frame)
              for p in s.get("points", "").split()]
        row = int(frame.get("data-row", "0"))
        tops[row] = (min(tops.get(row, (1e9, 0))[0], min(ys)),
                     max(tops.get(row, (0, -1e9))[1], max(ys)))
    assert all(tops[r][1] < tops[r + 1][0] for r in range(len(rows) - 1))
    # the key: a swatch and a name for every piece
    key = next(g for g in root.iter(f"{SVG}g") if g.get("class") == "key")
    names = {p["piece"] for p in obj["placements"]}
    assert {r.get("data-piece") for r in key.iter(f"{SVG}rect")} == names
    assert {t.text for t in key.iter(f"{SVG}text")} == names
    # nothing highlighted in the assembly; then the move's pieces, and only they
    assert all(s.get("class") == "still" for s in _shapes(frames[0]))
    for frame, move in zip(frames[1:], moves, strict=True):
        moving = set(move["pieces"])
        assert set(frame.get("data-moving", "").split()) == moving
        shapes = _shapes(frame)
        lit = {s.get("data-piece") for s in shapes if "moving" in s.get("class", "")}
        assert lit == moving
        for s in shapes:
            kind = s.get("class", "")
            if s.get("data-piece") in moving:
                assert "moving" in kind
            else:
                assert kind in ("faded", "wire")
        fills = {s.get("fill") for s in shapes if s.get("class") == "faded"}
        bright = {s.get("fill") for s in _shapes(frames[0])}
        assert not fills & bright  # faded: washed out, not the piece's own colours


def test_a_part_taken_away_leaves_the_later_frames(tmp_path: Path,
                                                   capsys: pytest.CaptureFixture[str]
                                                   ) -> None:
    """framed-slack's assembly 6 (level 2.3): each piece that goes out is drawn once, in
    the frame of the move that takes it, and is absent from every frame after it."""
    obj = _moves(capsys, "framed-slack", "--solution", "6")
    svg = tmp_path / "fs.svg"
    code, _, _ = _run(capsys, "moves", "framed-slack", "--solution", "6", "--format", "svg",
                      "--out", str(svg))
    assert code == 0
    _, frames = _frames(svg)
    gone: set[str] = set()
    outs = 0
    for frame, move in zip(frames[1:], obj["moves"], strict=True):
        pieces = {s.get("data-piece") for s in _shapes(frame)}
        assert not pieces & gone, f"{gone & pieces} drawn after leaving"
        if move["distance"] is None:
            outs += 1
            assert set(move["pieces"]) <= pieces  # drawn once, beside the rest
            assert all("leaving" in s.get("class", "") for s in _shapes(frame)
                       if s.get("data-piece") in move["pieces"])
            gone |= set(move["pieces"])
    assert outs == 3 and gone == {"D", "L", "J"}


def test_a_move_inside_a_box_shows_the_box_as_a_wire_frame(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "box.toml"
    path.write_text(CLOSED_BOX)
    obj = _moves(capsys, str(path), "--solution", "1")
    assert [m["distance"] for m in obj["moves"]] == [1, None]  # along inside, then out
    svg = tmp_path / "box.svg"
    code, _, _ = _run(capsys, "moves", str(path), "--solution", "1", "--format", "svg",
                      "--out", str(svg))
    assert code == 0
    _, frames = _frames(svg)
    inside = _shapes(frames[1])
    assert {s.get("class") for s in inside if s.get("data-piece") == "Box"} == {"wire"}
    assert all(s.get("fill") == "none" for s in inside if s.get("class") == "wire")
    assert any(s.get("data-piece") == "Block" and s.get("class") == "moving" for s in inside)
    # in the assembly and as the block leaves through the lid the box is solid
    for frame in (frames[0], frames[2]):
        assert not any(s.get("class") == "wire" for s in _shapes(frame))


def test_the_animated_svg_steps_once_a_move(tmp_path: Path,
                                            capsys: pytest.CaptureFixture[str]) -> None:
    obj = _moves(capsys, "framed-slack", "--solution", "6")
    svg = tmp_path / "anim.svg"
    code, out, _ = _run(capsys, "moves", "framed-slack", "--solution", "6", "--format", "svg",
                        "--animate", "--out", str(svg))
    assert code == 0 and out.strip() == str(svg)
    root, frames = _frames(svg)
    steps = len(obj["moves"]) + 1  # the assembly, then one frame a move
    assert len(frames) == steps
    animations = [a for f in frames for a in f if a.tag == f"{SVG}animate"]
    assert len(animations) == steps
    begins = []
    for animate in (next(a for a in f if a.tag == f"{SVG}animate") for f in frames):
        assert animate.get("attributeName") == "visibility"
        assert animate.get("repeatCount") == "indefinite"
        assert animate.get("dur") == f"{steps}s"
        times = [float(t) for t in animate.get("keyTimes", "").split(";")]
        values = animate.get("values", "").split(";")
        assert times[0] == 0 and times == sorted(times) and len(values) == len(times)
        assert values.count("visible") == 1  # shown once a loop, for one step
        begins.append(times[values.index("visible")])
    assert begins == pytest.approx([k / steps for k in range(steps)])  # one after another
    assert [f.get("visibility") for f in frames[1:]] == ["hidden"] * (steps - 1)
    key = next(g for g in root.iter(f"{SVG}g") if g.get("class") == "key")
    assert {r.get("data-piece") for r in key.iter(f"{SVG}rect")} == {"D", "Frame", "J", "L"}


def test_solve_disassemble_draws_the_assemblies_with_their_levels(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "box.toml"
    path.write_text(CLOSED_BOX)
    svg = tmp_path / "apart.svg"
    code, out, _ = _run(capsys, "solve", str(path), "--disassemble", "--all", "--format",
                        "svg", "--out", str(svg))
    assert code == 0 and out.strip() == str(svg)
    root, frames = _frames(svg)
    captions = [next(t for t in f if t.tag == f"{SVG}text").text for f in frames]
    assert captions == ["solution 1: level 2", "solution 2: level 1", "solution 3: level 1"]
    key = next(g for g in root.iter(f"{SVG}g") if g.get("class") == "key")
    assert {r.get("data-piece") for r in key.iter(f"{SVG}rect")} == {"Box", "Block"}
    pytest.importorskip("matplotlib")
    png = tmp_path / "apart.png"
    code, _, _ = _run(capsys, "solve", str(path), "--disassemble", "--limit", "2",
                      "--format", "png", "--out", str(png))
    assert code == 0 and png.read_bytes().startswith(b"\x89PNG")
