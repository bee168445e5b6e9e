"""Optional cells (#24): board cells that may stay empty, against an independent count.

The independent count chooses which optional cells are filled, builds for each choice a
plain board without the others (every cell covered exactly once, the contract as it was),
and adds up their counts.
"""

from __future__ import annotations

import json
from itertools import combinations
from pathlib import Path

import pytest

from puzzlebox.cli import main
from puzzlebox.formats.reader import read_text
from puzzlebox.puzzles import PolyominoPuzzle


def _puzzle(text: str) -> PolyominoPuzzle:
    puzzle = read_text(text, "t.toml", "t").puzzles[0]
    assert isinstance(puzzle, PolyominoPuzzle)
    return puzzle


def _grid_rows(cells: set[tuple[int, int]]) -> str:
    rows = 1 + max(r for r, _ in cells)
    cols = 1 + max(c for _, c in cells)
    return "/".join("".join("#" if (r, c) in cells else "." for c in range(cols))
                    for r in range(rows))


def _by_subsets(board: set[tuple[int, int]], optional: set[tuple[int, int]],
                pieces: str) -> int:
    total = 0
    for size in range(len(optional) + 1):
        for kept in combinations(sorted(optional), size):
            cells = (board - optional) | set(kept)
            if not cells:
                continue
            plain = _puzzle(f'[board]\ngrid = "{_grid_rows(cells)}"\n{pieces}')
            # a plain board whose rows start with gaps is the same board shifted: fine
            total += plain.count().solutions
    return total


CASES = [
    ({(r, c) for r in range(2) for c in range(3)}, {(0, 2)},
     '[pieces]\nL = "##/#."\nI = "#/#"\n'),
    ({(r, c) for r in range(3) for c in range(3)}, {(0, 0), (2, 2), (1, 1)},
     '[pieces]\nL = { shape = "##/#.", count = [0, 3] }\nD = { shape = "##", count = [0, 2] }\n'),
    ({(r, c) for r in range(2) for c in range(4)}, {(0, 0), (0, 3), (1, 0), (1, 3)},
     '[pieces]\nT = "###/.#."\nM = { shape = "#", count = "any" }\n'),
]


@pytest.mark.parametrize("case", range(len(CASES)))
def test_counts_agree_with_a_sum_over_filled_subsets(case: int) -> None:
    board, optional, pieces = CASES[case]
    marks = "/".join("".join("+" if (r, c) in optional else "." for c in range(
        1 + max(c for _, c in board))) for r in range(1 + max(r for r, _ in board)))
    puzzle = _puzzle(f'[board]\ngrid = "{_grid_rows(board)}"\noptional = "{marks}"\n{pieces}')
    assert puzzle.optional == frozenset(optional)
    expected = _by_subsets(board, optional, pieces)
    assert expected > 0
    result = puzzle.count()
    assert result.solutions == expected
    # every solution leaves only optional cells empty
    for solution in puzzle.solutions():
        covered = {cell for p in solution.placements for cell in p.cells}
        assert board - covered <= optional


def test_optional_cells_change_the_symmetry() -> None:
    # a 1 x 3 strip with its left end optional: the mirror no longer maps it to itself
    plain = _puzzle('[board]\ngrid = "###"\n[pieces]\nM = { shape = "#", count = "any" }\n')
    assert len(plain.grid_symmetries()) == 4  # both turns and mirrors of a strip
    marked = _puzzle('[board]\ngrid = "###"\noptional = "+.."\n'
                     '[pieces]\nM = { shape = "#", count = "any" }\n')
    assert len(marked.grid_symmetries()) == 2  # only the flip along it
    assert marked.count().solutions == 2


def test_area_becomes_a_range() -> None:
    too_small = _puzzle('[board]\ngrid = "#####"\noptional = "+...."\n[pieces]\nI = "###"\n')
    proof = next(too_small.proofs())
    assert proof.argument == "area"
    assert "4 to 5 cells" in proof.sentence
    assert too_small.count().solutions == 0
    fits = _puzzle('[board]\ngrid = "####"\noptional = "+..."\n[pieces]\nI = "###"\n')
    assert fits.impossibility() is None
    assert fits.count().solutions == 1


def test_an_optional_cell_off_the_board_is_one_line(tmp_path: Path,
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "bad.toml"
    path.write_text('[board]\ngrid = "##"\noptional = "..+"\n[pieces]\nD = "##"\n')
    assert main(["count", str(path)]) == 2
    err = capsys.readouterr().err.strip()
    assert "\n" not in err and "optional" in err and "[0, 2]" in err


def test_optional_cells_are_shown_and_drawn(tmp_path: Path,
                                            capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "slack.toml"
    path.write_text('[board]\ngrid = "###/###"\noptional = "..+/..."\n'
                    '[pieces]\nL = "##/#."\nI = "#/#"\n')
    assert main(["show", str(path)]) == 0
    out = capsys.readouterr().out
    assert "cells that may stay empty (1, drawn +):" in out and "##+" in out
    assert main(["solve", str(path)]) == 0
    assert "?" in capsys.readouterr().out  # the empty optional cell in the letters
    svg = tmp_path / "s.svg"
    assert main(["solve", str(path), "--format", "svg", "--out", str(svg)]) == 0
    assert '-empty"' in svg.read_text()  # hatched, not a missing cell


def test_a_sweep_keeps_optional_cells(tmp_path: Path,
                                      capsys: pytest.CaptureFixture[str]) -> None:
    # uncovering the first cell leaves three, the last optional: one domino is enough
    path = tmp_path / "strip.toml"
    path.write_text('[board]\ngrid = "####"\noptional = "...+"\n[pieces]\nD = "##"\n')
    assert main(["sweep", str(path), "--uncover", "1", "--json"]) == 0
    rows = [line for line in capsys.readouterr().out.splitlines() if line.startswith("{")]
    solvable = {tuple(map(tuple, obj["uncovered"])): obj["solvable"]
                for obj in map(json.loads, rows)}
    assert solvable[((0, 0),)] is True  # (0,1)+(0,2) covered, (0,3) left empty
    assert solvable[((0, 1),)] is False  # (0,0) alone cannot be covered


def test_each_of_several_boards_has_its_own_optional_cells(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # [[boards]]: a board's optional cells are its own, checked against the same
    # independent count as a single [board]
    pieces = ('[pieces]\nL = { shape = "##/#.", count = [0, 3] }\n'
              'D = { shape = "##", count = [0, 2] }\n')
    text = ('[[boards]]\nname = "slack"\ngrid = "###/###/###"\noptional = "+../.+./..+"\n'
            '[[boards]]\nname = "tight"\ngrid = "###/###/###"\n' + pieces)
    slack, tight = read_text(text, "t.toml", "t").puzzles
    assert isinstance(slack, PolyominoPuzzle) and isinstance(tight, PolyominoPuzzle)
    assert slack.optional == {(0, 0), (1, 1), (2, 2)} and tight.optional == frozenset()
    square = {(r, c) for r in range(3) for c in range(3)}
    assert slack.count().solutions == _by_subsets(square, {(0, 0), (1, 1), (2, 2)}, pieces)
    assert tight.count().solutions == _by_subsets(square, set(), pieces)
    assert slack.count().solutions != tight.count().solutions
    path = tmp_path / "bad.toml"
    path.write_text('[[boards]]\ngrid = "##"\n[[boards]]\ngrid = "##"\noptional = "..+"\n'
                    '[pieces]\nD = "##"\n')
    assert main(["count", str(path)]) == 2
    err = capsys.readouterr().err.strip()
    assert "\n" not in err and "boards.1.optional" in err and "[0, 2]" in err
