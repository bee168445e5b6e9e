"""Text output that shows the answer (issue #16 item 4): copies told apart, marks explained,
board cells told from no cell, sweep maps with a legend."""

from __future__ import annotations

from collections import Counter

import puzzlebox
from puzzlebox.cli import main
from puzzlebox.puzzles.edge_matching.text import CARD_KEY
from puzzlebox.render.terminal import colored_solution
from puzzlebox.render.text import describe, solution_lines


def _grid_and_legend(lines):
    blank = lines.index("")
    return lines[:blank], lines[blank + 1:]


def _solved(name):
    puzzle = puzzlebox.load(name)
    solution = puzzle.solve()
    assert solution is not None
    return puzzle, solution


def test_copies_of_one_piece_have_letters_of_their_own():
    """Ten Y pentominoes once printed as a solid block of Y."""
    puzzle, solution = _solved("y-pentomino-5x10")
    grid, legend = _grid_and_legend(solution_lines(puzzle, solution))
    letters = Counter("".join(grid))
    assert len(letters) == 10 and set(letters.values()) == {5}
    assert legend == ["A-J=Y"]


def test_thirty_two_dominoes_are_thirty_two_letters():
    puzzle, solution = _solved("dominoes-8x8")
    grid, legend = _grid_and_legend(solution_lines(puzzle, solution))
    letters = Counter("".join(grid))
    assert len(letters) == 32 and set(letters.values()) == {2}
    assert legend == ["A-f=domino"]
    # each letter's two cells are neighbours: the letters are the placements, not a pattern
    cells = {}
    for r, line in enumerate(grid):
        for c, ch in enumerate(line):
            cells.setdefault(ch, []).append((r, c))
    for (a, b) in cells.values():
        assert abs(a[0] - b[0]) + abs(a[1] - b[1]) == 1


def test_pieces_placed_once_keep_their_own_letters():
    puzzle, solution = _solved("pentomino-6x10")
    lines = solution_lines(puzzle, solution)
    assert len(lines) == 6 and "" not in lines
    assert set("".join(lines)) == set("FILNPTUVWXYZ")


def test_more_copies_than_letters_are_drawn_as_outlines():
    """tiling-3x50 places up to 150 pieces: more than 62 characters, so outlines."""
    puzzle, solution = _solved("tiling-3x50")
    assert len(solution.placements) > 62
    lines = solution_lines(puzzle, solution)
    assert lines == solution_lines(puzzle, solution, "outline")
    assert colored_solution(puzzle, solution) is None  # no colours on outlines


def test_terminal_colours_keep_the_legend_lines():
    puzzle, solution = _solved("y-pentomino-5x10")
    text = colored_solution(puzzle, solution)
    assert text is not None
    assert text.plain == "\n".join(solution_lines(puzzle, solution)) + "\n"
    assert text.plain.rstrip().endswith("A-J=Y")


def test_edge_matching_text_explains_its_turn_marks_and_stays_aligned():
    puzzle, solution = _solved("cards-3x3-corrected")
    lines = solution_lines(puzzle, solution)
    assert lines[-1] == CARD_KEY and "quarter turn" in CARD_KEY
    grid = lines[:-2]
    assert len({len(line) for line in grid if not line.startswith("-")}) == 1
    assert any("'" in line for line in grid)


def test_show_says_which_marks_are_cells_and_which_are_none():
    text = describe(puzzlebox.load("digital-jigsaw"))
    assert text[0] == "board (88 cells):"
    assert text[12] == "  (#: a cell to cover; .: no cell)"  # under the 11 rows of the tray
    coloured = describe(puzzlebox.load("black-and-white-final"))
    assert coloured[6] == "  (b, w: a cell to cover, by colour; .: no cell)"


def test_sweep_map_has_a_legend(capsys):
    assert main(["sweep", "blocks-7x7", "--uncover", "1", "--fill-holes"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[-1] == "o: solvable with that cell uncovered; -: not solvable; . no cell"
    assert all(set(line) <= set("o-. ") for line in out[-8:-1])
