"""The disassembly commands (#24): count --disassemble, solve --disassemble, moves; the
[disassembly] table; and BurrTools' own examples where the peer checkout is beside the repo.

Every move sequence printed is replayed here cell by cell: each slide must pass through
free cells only, and each move marked ``out`` must be free for good.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from puzzlebox.cli import main

BOX = """
title = "A block in a box"
[board]
grid = "#.##/####/####/####"
optional = "..../.++./..+./...."
[pieces]
Box = "#.##/#..#/##.#/####"
Block = "#"
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


def _replay(obj: dict) -> None:
    """Slide each move's pieces one cell at a time; nothing may overlap, and an ``out``
    move must stay clear for as far as the whole assembly reaches."""
    cells = [[tuple(c) for c in p["cells"]] for p in obj["placements"]]
    reach = 2 + 2 * max(abs(v) for piece in cells for c in piece for v in c)
    for move in obj["moves"]:
        moving = set(move["placements"])
        step = move["direction"]
        others = {c for k, piece in enumerate(cells) if k not in moving for c in piece}
        distance = reach if move["distance"] is None else move["distance"]
        for _ in range(distance):
            for k in moving:
                cells[k] = [tuple(v + d for v, d in zip(c, step, strict=True))
                            for c in cells[k]]
                assert not set(cells[k]) & others, f"{move} runs into a piece"


def test_a_block_in_a_box(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "box.toml"
    path.write_text(BOX)
    code, out, _ = _run(capsys, "count", str(path), "--disassemble", "--json")
    assert code == 0
    report = json.loads(out)
    assert report["assemblies"] == 3  # the block on any of the three optional cells
    assert report["come_apart"] == 3
    levels = sorted(level["level"] for level in report["levels"])
    assert levels == ["1", "2", "3"]  # the block in the slot, one bend in, two bends in
    code, out, _ = _run(capsys, "solve", str(path), "--disassemble", "--all", "--json")
    lines = [json.loads(line) for line in out.splitlines()]
    assert len(lines) == 3
    for number, obj in enumerate(lines, 1):
        _replay(obj)
        assert all(move["pieces"] == ["Block"] for move in obj["moves"])  # the box is fixed
        code, out, _ = _run(capsys, "moves", str(path), "--solution", str(number), "--json")
        assert code == 0 and json.loads(out)["level"] == obj["level"]
    code, out, _ = _run(capsys, "moves", str(path), "--solution", "1")
    assert code == 0 and "Block" in out and "out" in out.splitlines()[-1]
    svg = tmp_path / "strip.svg"
    code, _, _ = _run(capsys, "moves", str(path), "--format", "svg", "--out", str(svg))
    assert code == 0 and svg.read_text().startswith("<svg") and "polygon" in svg.read_text()
    assert svg.read_text().count('<g class="frame"') == 1 + len(lines[0]["moves"])  # a position
    pytest.importorskip("matplotlib")
    png = tmp_path / "strip.png"
    code, _, _ = _run(capsys, "moves", str(path), "--format", "png", "--out", str(png))
    assert code == 0 and png.read_bytes().startswith(b"\x89PNG")
    code, _, err = _run(capsys, "moves", str(path), "--solution", "4")
    assert code == 2 and "3 of 3 assemblies come apart" in err and "\n" not in err.strip()


def test_the_state_limit_refuses_in_one_line(tmp_path: Path,
                                             capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "box.toml"
    path.write_text(BOX)
    code, _, err = _run(capsys, "count", str(path), "--disassemble", "--max-states", "1")
    assert code == 3 and "--max-states" in err and "\n" not in err.strip()


def test_options_it_does_not_use_are_refused(tmp_path: Path,
                                             capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "box.toml"
    path.write_text(BOX)
    code, _, err = _run(capsys, "solve", str(path), "--disassemble", "--format", "svg")
    assert code == 2 and "needs --out" in err and "\n" not in err.strip()
    code, _, err = _run(capsys, "moves", str(path), "--animate", "--out",
                        str(tmp_path / "x.png"), "--format", "png")
    assert code == 2 and "--format svg" in err and not (tmp_path / "x.png").exists()
    code, _, err = _run(capsys, "count", str(path), "--disassemble", "--split-depth", "2")
    assert code == 2 and "drop --split-depth" in err  # --jobs splits it (#35 item 2)


def test_disassembly_rules_are_checked(tmp_path: Path,
                                       capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "bad.toml"
    path.write_text(BOX.replace('fixed = ["Box"]', 'fixed = ["Crate"]'))
    code, _, err = _run(capsys, "count", str(path))
    assert code == 2 and "'Crate' is not a piece" in err


def test_other_lattices_are_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "hex.toml"
    path.write_text('lattice = "hexagon"\n[board]\ngrid = "##"\n[pieces]\nA = "#"\nB = "#"\n')
    code, _, err = _run(capsys, "count", str(path), "--disassemble")
    assert code == 2 and "square and cube" in err


# -- BurrTools' examples (GPL: read from the peer checkout, never copied) --------------------

def _examples() -> Path | None:
    named = os.environ.get("BURRTOOLS_EXAMPLES")
    here = Path(named) if named else Path(__file__).resolve().parents[1] / ".." / "shared" / \
        "peers" / "burrtools" / "examples"
    return here if (here / "CubeInCage.xmpuzzle").exists() else None


EXAMPLES = _examples()
needs_examples = pytest.mark.skipif(
    EXAMPLES is None, reason="BurrTools' examples are not here (set BURRTOOLS_EXAMPLES or "
    "check out shared/peers/burrtools beside the repository)")


@needs_examples
@pytest.mark.parametrize("name, assemblies, level", [
    ("CubeInCage", 96, "4.9.3"),  # a group of three frame pieces may stay together
    ("PelikanBurr", 12, "98.2.4.2"),
    # colours: red and black voxels each on their own, neutral ones anywhere ([rules] neutral)
    ("DraculasDentalDesaster", 84, "3.5.16.6.4"),
])
def test_burrtools_examples(name: str, assemblies: int, level: str, tmp_path: Path,
                            capsys: pytest.CaptureFixture[str]) -> None:
    assert EXAMPLES is not None
    toml = tmp_path / f"{name}.toml"
    code, _, err = _run(capsys, "import", str(EXAMPLES / f"{name}.xmpuzzle"), "-o", str(toml))
    assert code == 0, err
    code, out, _ = _run(capsys, "count", str(toml), "--disassemble", "--json")
    report = json.loads(out)
    assert report["assemblies"] == assemblies  # as burrTxt counts them
    assert report["come_apart"] == 1
    assert report["levels"] == [{"level": level, "assemblies": 1}]  # as burrTxt -d says


@needs_examples
@pytest.mark.parametrize("name", ["CubeInCage", "PelikanBurr", "DraculasDentalDesaster"])
def test_burrtools_examples_same_moves_with_every_implementation(name: str) -> None:
    """Assembly by assembly, the C search (the whole breadth-first loop, _cdisasm.c), numba's
    step under the Python loop and the Python reference of the step find the same
    separations: the same levels and the same moves, sub-part by sub-part (CubeInCage's
    thorough searches too)."""
    from puzzlebox.disassembly import disassemble
    from puzzlebox.disassembly.assemblies import arrange, check_slides
    from puzzlebox.engine import kernel_choice
    from puzzlebox.formats import burrtools
    from puzzlebox.formats.reader import read_text
    from puzzlebox.puzzles.polyomino import PolyominoPuzzle

    assert EXAMPLES is not None
    puzzle = read_text(burrtools.import_file(EXAMPLES / f"{name}.xmpuzzle"), name,
                       name).puzzles[0]
    assert isinstance(puzzle, PolyominoPuzzle)
    dims = check_slides(puzzle, name)
    rules = puzzle.disassembly
    levels = []
    for solution in puzzle.distinct_solutions():
        arranged = arrange(puzzle, solution, dims, rules.fixed if rules else (),
                           rules.groups if rules else ())
        options = {"dims": dims, "fixed": arranged.fixed, "groups": arranged.groups}
        pieces = arranged.pieces
        for thorough in (False, True) if name == "CubeInCage" else (False,):
            reference = disassemble(pieces, compiled=False, thorough=thorough,
                                    **options)  # type: ignore[arg-type]
            for backend in kernel_choice.available():
                kernel_choice.use(backend)
                try:
                    assert disassemble(pieces, thorough=thorough,
                                       **options) == reference, backend  # type: ignore[arg-type]
                finally:
                    kernel_choice.use(None)
        levels.append(None if reference is None else reference.level)
    assert len([lv for lv in levels if lv]) == 1  # as burrTxt -d says (above)


# -- the catalog's packing puzzle with slack, checked independently --------------------------

def test_framed_slack_against_independent_counts() -> None:
    from itertools import product

    from puzzlebox import catalog
    from puzzlebox.disassembly.assemblies import Rules, disassemble_solution
    from puzzlebox.formats.reader import read_text
    from puzzlebox.puzzles import PolyominoPuzzle
    from test_disassembly import brute

    puzzle = catalog.load_file("framed-slack").puzzles[0]
    assert isinstance(puzzle, PolyominoPuzzle)
    # one plain count (every cell covered) for each choice of the inside cell left empty
    total = 0
    for empty in product(range(1, 4), range(1, 4)):
        rows = [list("#..##"), *[list("#####") for _ in range(4)]]
        rows[empty[0]][empty[1]] = "."
        text = (f'[board]\ngrid = "{"/".join("".join(r) for r in rows)}"\n[pieces]\n'
                'Frame = "#..##/#...#/#...#/#...#/#####"\nL = "##/#."\nJ = "##/.#"\n'
                'D = "##"\n[rules]\nrotate = true\nreflect = false\n')
        total += read_text(text, "plain.toml", "plain").puzzles[0].count().solutions
    assert puzzle.count().solutions == total == 48
    apart = thorough_apart = 0
    for solution in puzzle.distinct_solutions():
        rules = Rules(fixed=frozenset({"Frame"}))
        done = disassemble_solution(puzzle, solution, rules)
        deep = disassemble_solution(puzzle, solution, Rules(rules.fixed, thorough=True))
        cells = [frozenset((c[1], c[0], 0) for c in p.cells) for p in done.placements]
        # the brute force knows no fixed pieces: with one fixed piece the answers agree
        assert (deep.separation is not None) == brute(cells, 2)[0]
        apart += done.separation is not None
        thorough_apart += deep.separation is not None
    assert apart == 34  # the figure in the catalog's notes
    assert thorough_apart >= apart
