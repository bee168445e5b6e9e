"""The image of an assembly that is taken apart: BurrTools' (disassembly/image.py, #35 item 4).

The levels are ``burrTxt -d``'s own (BurrTools 0.7.1 built from the peer checkout): Knot in
Frame VII (Lohe, puzzlecad's history, commit a290b2c9) 19.4.2.2, where puzzlebox wrote
19.4.2.3.2 taking apart its own image.
"""

from __future__ import annotations

import subprocess
from itertools import product as pairs
from pathlib import Path
from typing import cast

import pytest

from puzzlebox.cover.symmetry import images_of
from puzzlebox.disassembly.assemblies import disassemble_solution, take_apart
from puzzlebox.disassembly.image import ROTATIONS, burrtools_image, orientations
from puzzlebox.formats import burrtools
from puzzlebox.formats.reader import read_text
from puzzlebox.puzzles.polyomino import PolyominoPuzzle, PolyominoSolution

MIRROR = Path("/work/.mirror/aaron-siegel+puzzlecad/repo")
KNOT = ("a290b2c94273cb05d84bfe0a095f1e36e48f0a3a",
        "src/main/scad/christoph-lohe/corsage/Knot in Frame VII Ab unique 19ID68.xmpuzzle")


def test_burrtools_orientations_are_the_48_symmetries_of_the_cube() -> None:
    """48 distinct signed permutation matrices, the first 24 turns (determinant 1), closed
    under products, and 24 + t the mirror in x followed by t."""
    ms = orientations()
    assert len(set(ms)) == 48

    def det(m: tuple[tuple[int, ...], ...]) -> int:
        return (m[0][0] * (m[1][1] * m[2][2] - m[1][2] * m[2][1])
                - m[0][1] * (m[1][0] * m[2][2] - m[1][2] * m[2][0])
                + m[0][2] * (m[1][0] * m[2][1] - m[1][1] * m[2][0]))

    assert all(det(m) == 1 for m in ms[:ROTATIONS]) and all(det(m) == -1 for m in ms[ROTATIONS:])
    mul = {(a, b): tuple(tuple(sum(a[i][k] * b[k][j] for k in range(3)) for j in range(3))
                         for i in range(3)) for a, b in pairs(ms, ms)}
    assert set(mul.values()) == set(ms)
    mirror = ((-1, 0, 0), (0, 1, 0), (0, 0, 1))
    assert all(mul[(ms[t], mirror)] == ms[ROTATIONS + t] for t in range(ROTATIONS))
    # BurrTools' numbering: 0 the identity, 1 a quarter turn about x taking y to z
    assert ms[0] == ((1, 0, 0), (0, 1, 0), (0, 0, 1))
    assert ms[1] == ((1, 0, 0), (0, 0, -1), (0, 1, 0))


def _knot() -> PolyominoPuzzle:
    if not MIRROR.is_dir():
        pytest.skip(f"puzzlecad's mirror is not here ({MIRROR})")
    shown = subprocess.run(["git", "-C", str(MIRROR), "show", f"{KNOT[0]}:{KNOT[1]}"],
                           capture_output=True)
    if shown.returncode != 0:
        pytest.skip(f"Knot in Frame VII is not in the mirror ({KNOT[0][:12]})")
    text = burrtools.import_data(shown.stdout, "knot.xmpuzzle")
    return cast(PolyominoPuzzle, read_text(text, "knot.toml", "knot").puzzles[0])


def test_knot_in_frame_vii_comes_apart_at_burrtxts_level_from_every_image() -> None:
    """``count --disassemble``'s way (take_apart) and each of the assembly's images (as
    ``solve --disassemble`` meets them) give burrTxt's 19.4.2.2; every image leads to the
    same one, and the answer's placements are the image taken apart."""
    puzzle = _knot()
    found = list(take_apart(puzzle))
    assert [d.level for d in found] == ["19.4.2.2"]
    solution = cast(PolyominoSolution, found[0].solution)
    images = [puzzle.decode(tuple(row)) for row in images_of(puzzle.symmetries,
                                                             puzzle.encode(solution))]
    assert len({cast(PolyominoSolution, i).key() for i in images}) == 3
    chosen = {burrtools_image(puzzle, cast(PolyominoSolution, i)).key() for i in images}
    assert chosen == {solution.key()}
    for image in images:
        done = disassemble_solution(puzzle, cast(PolyominoSolution, image))
        assert done.level == "19.4.2.2"
        assert cast(PolyominoSolution, done.solution).key() == solution.key()
