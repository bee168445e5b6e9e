"""BurrTools' prism examples (#37): Bill Cutler's Bermuda and the two problems of Prisgon,
triangular prisms in layers (grid type 1), and the 4-Piece-Tetrahedron (grid type 4),
imported and counted as BurrTools counts them.

The figures are burrTxt's own (BurrTools 0.7.1 built from the peer checkout:
``burrTxt -d FILE``, ``burrTxt -d -o 1 Prisgon.xmpuzzle`` and ``burrTxt -q
FourPieceTetrahedron.xmpuzzle``): Bermuda 1 assembly, level 1; Prisgon "Markus" 1
assembly, level 9.6.4.2.2.2.1.2; "Philos" 1 assembly, level 9.5.1.1.2.2.2;
FourPieceTetrahedron 1 assembly. The files are GPL and stay in the peer checkout: the
tests skip where it is not beside the repository.
"""

from __future__ import annotations

import json
import os
import tomllib
from pathlib import Path

import pytest

from puzzlebox.cli import main
from puzzlebox.cover.symmetry import images_of
from puzzlebox.disassembly.assemblies import Rules, _as_placed, disassemble_solution
from puzzlebox.disassembly.image import burrtools_image, frame_of
from puzzlebox.formats import burrtools
from puzzlebox.formats.reader import read_text
from puzzlebox.puzzles.polyomino import PolyominoPuzzle, PolyominoSolution


def _examples() -> Path | None:
    named = os.environ.get("BURRTOOLS_EXAMPLES")
    here = Path(named) if named else Path(__file__).resolve().parents[1] / ".." / "shared" / \
        "peers" / "burrtools" / "examples"
    return here if (here / "Bermuda.xmpuzzle").exists() else None


EXAMPLES = _examples()
pytestmark = pytest.mark.skipif(
    EXAMPLES is None, reason="BurrTools' examples are not here (set BURRTOOLS_EXAMPLES or "
    "check out shared/peers/burrtools beside the repository)")


def _run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    try:
        code = main(list(args))
    except SystemExit as stop:
        code = int(stop.code or 0)
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def _puzzle(name: str, problem: str | None = None) -> PolyominoPuzzle:
    assert EXAMPLES is not None
    text = burrtools.import_file(EXAMPLES / f"{name}.xmpuzzle", problem)
    puzzle = read_text(text, name, name).puzzles[0]
    assert isinstance(puzzle, PolyominoPuzzle)
    return puzzle


@pytest.mark.parametrize("name, problem, assemblies, level", [
    ("Bermuda", None, 1, "1"),
    ("Prisgon", "1", 1, "9.6.4.2.2.2.1.2"),  # "Markus": BurrTools' image taken apart
    ("Prisgon", "2", 1, "9.5.1.1.2.2.2"),  # "Philos"
])
def test_prism_examples_count_and_come_apart_as_burrtxt(
        name: str, problem: str | None, assemblies: int, level: str, tmp_path: Path,
        capsys: pytest.CaptureFixture[str]) -> None:
    assert EXAMPLES is not None
    toml = tmp_path / f"{name}.toml"
    extra = ["--problem", problem] if problem else []
    code, _, err = _run(capsys, "import", str(EXAMPLES / f"{name}.xmpuzzle"), *extra,
                        "-o", str(toml))
    assert code == 0, err
    doc = tomllib.loads(toml.read_text())
    assert doc["lattice"] == "prism" and doc["rules"]["reflect"] is False
    assert len(doc["board"]["grid"]) in (3, 5)  # layers: Bermuda 3, Prisgon 5
    code, out, _ = _run(capsys, "count", str(toml), "--disassemble", "--json")
    report = json.loads(out)
    assert report["assemblies"] == assemblies  # as burrTxt counts them
    assert report["come_apart"] == 1
    assert report["levels"] == [{"level": level, "assemblies": 1}]  # as burrTxt -d says


def test_prisgon_markus_comes_apart_as_burrtxt_from_every_image() -> None:
    """Prisgon's "Markus": one assembly, taken apart in 9 moves first as burrTxt finds. Which
    separation the search meets first among equally short ones depends on how the assembly
    lies, and its six images under the result's rotations come apart as 9.6.4.2.2.2.1.2
    (burrTxt's), 9.6.4.2.2.2.2.2 (puzzlebox's own, taken apart as placed) or
    9.6.4.2.2.1.2(.2). Taken apart as the image BurrTools' assembler keeps (image.py's
    prism order), every image gives burrTxt's level, through the same image."""
    puzzle = _puzzle("Prisgon", "1")
    assert puzzle.count().distinct == 1
    own = next(s for s in puzzle.solutions() if isinstance(s, PolyominoSolution))
    images = [puzzle.decode(tuple(row)) for row in images_of(puzzle.symmetries,
                                                             puzzle.encode(own))]
    keys = {image.key() for image in images}
    assert len(keys) == 6
    raw = {_as_placed(puzzle, image, Rules(), "Markus", None, None, 3).level for image in images}
    assert {"9.6.4.2.2.2.1.2", "9.6.4.2.2.2.2.2"} <= raw
    chosen = {burrtools_image(puzzle, image).key() for image in images}
    assert len(chosen) == 1 and chosen <= keys
    assert {disassemble_solution(puzzle, image).level for image in images} == {"9.6.4.2.2.2.1.2"}


def test_burrtools_prism_orientations_are_the_lattices_maps() -> None:
    """BurrTools' 24 prism orientations (image.py, on the prisms' centres) are the prism
    lattice's own 24 maps, each once, up to a translation of the grid: 0 to 11 its
    rotations (proper), 12 to 23 its mirrors; 1 turns 60 degrees (a prism in 6 steps)."""
    lattice = _puzzle("Prisgon", "1").lattice
    frame = frame_of(lattice)
    assert frame is not None and frame.rotations == 12
    shape = [(0, 0, 0), (0, 0, 1), (0, 0, 2), (0, 1, 2), (1, 0, 0)]  # no symmetry
    assert all(frame.cell(frame.point(c)) == c for c in shape)

    def canonical(cells: list[tuple[int, ...]]) -> frozenset[tuple[int, ...]]:
        points = [frame.point(c) for c in cells]
        low = frame.low(points)
        return frozenset((p[0] - low[0], p[1] - low[1], p[2] - low[2]) for p in points)

    ours = {canonical([t(c) for c in shape]): t for t in lattice.transforms}
    assert len(ours) == 24
    theirs = [canonical([frame.cell(tuple(sum(m[i][k] * frame.point(c)[k] for k in range(3))
                                          for i in range(3))) for c in shape])
              for m in frame.orientations]
    assert set(theirs) == set(ours)
    assert [ours[k].proper for k in theirs] == [True] * 12 + [False] * 12
    turned = shape
    for _ in range(6):
        turned = [frame.cell(tuple(sum(frame.orientations[1][i][k] * frame.point(c)[k]
                                       for k in range(3)) for i in range(3))) for c in turned]
    assert canonical(turned) == canonical(shape) != theirs[1]


def test_prisgon_cage_and_its_variable_cells() -> None:
    """The result's '+' voxels (may stay empty) become optional cells; the cage is a piece
    like the others (BurrTools' weight 2 is noted, not used)."""
    assert EXAMPLES is not None
    text, ignored = burrtools.import_noted((EXAMPLES / "Prisgon.xmpuzzle").read_bytes(),
                                           "Prisgon.xmpuzzle", "1")
    doc = tomllib.loads(text)
    assert "optional" in doc["board"] and any("weights" in line for line in ignored)
    assert len(doc["pieces"]) == 9


def test_four_piece_tetrahedron_counts_as_burrtxt(tmp_path: Path,
                                                  capsys: pytest.CaptureFixture[str]) -> None:
    """Wayne Daniel's 4-Piece-Tetrahedron (grid type 4, tetrahedra and octahedra): one
    assembly, as ``burrTxt -q`` counts ("1 assemblies"); taking it apart is refused in one
    line (``burrTxt -d`` has no movements for this grid and stops with a crash)."""
    assert EXAMPLES is not None
    toml = tmp_path / "fpt.toml"
    code, _, err = _run(capsys, "import", str(EXAMPLES / "FourPieceTetrahedron.xmpuzzle"),
                        "-o", str(toml))
    assert code == 0, err
    assert tomllib.loads(toml.read_text())["lattice"] == "tetra-octa"
    code, out, _ = _run(capsys, "count", str(toml), "--json")
    assert code == 0 and json.loads(out)["distinct"] == 1
    code, _, err = _run(capsys, "count", str(toml), "--disassemble")
    assert code == 2 and "other neighbours" in err and err.count("\n") == 1
