"""Sudoku as a kind (#27 item 4): counts against published figures and an independent
brute force, uniqueness of published puzzles, jigsaw regions, proofs, drawings, and one
line for every malformed file.

The brute force (:func:`brute_count`) is a plain backtracker over cells with Python sets:
it shares nothing with puzzlebox (no cover problem, no engine).
"""

from __future__ import annotations

import itertools
import json
import random

import pytest

from puzzlebox import catalog
from puzzlebox.cli import main
from puzzlebox.formats import read_text
from puzzlebox.puzzles.sudoku import SudokuPuzzle, SudokuSolution

# Wikipedia's example puzzle and its published solution (catalog: sudoku-classic).
CLASSIC_SOLUTION = [
    "534678912", "672195348", "198342567", "859761423", "426853791",
    "713924856", "961537284", "287419635", "345286179",
]


def brute_count(rows: list[str], regions: list[list[int]], symbols: str) -> int:
    """Completions of a grid ('.' empty) by plain backtracking, fewest candidates first."""
    n = len(rows)
    grid = [[symbols.find(ch) for ch in row] for row in rows]
    cells = [(r, c) for r in range(n) for c in range(n)]

    def allowed(r: int, c: int) -> set[int]:
        used = {grid[r][j] for j in range(n)} | {grid[i][c] for i in range(n)}
        used |= {grid[i][j] for i, j in cells if regions[i][j] == regions[r][c]}
        return set(range(n)) - used

    def walk() -> int:
        empty = [(r, c) for r, c in cells if grid[r][c] < 0]
        if not empty:
            return 1
        r, c = min(empty, key=lambda rc: len(allowed(*rc)))
        total = 0
        for d in allowed(r, c):
            grid[r][c] = d
            total += walk()
            grid[r][c] = -1
        return total

    return walk()


def boxes(n: int, h: int, w: int) -> list[list[int]]:
    return [[(r // h) * (n // w) + c // w for c in range(n)] for r in range(n)]


def sudoku(text: str) -> SudokuPuzzle:
    puzzle = read_text(text, "test.toml", "test").puzzles[0]
    assert isinstance(puzzle, SudokuPuzzle)
    return puzzle


def toml(rows: list[str], extra: str = "") -> str:
    return 'kind = "sudoku"\ngrid = """\n' + "\n".join(rows) + '\n"""\n' + extra


def test_empty_4x4_counts_288_and_its_classes_under_the_square():
    """OEIS A107739: 288 completed 4x4 grids; distinct = orbits under the 8 maps of the
    square, counted here from the brute force's own list of grids."""
    puzzle = catalog.load_file("sudoku-4x4-empty").puzzles[0]
    result = puzzle.count()
    assert result.solutions == 288
    assert brute_count(["...."] * 4, boxes(4, 2, 2), "1234") == 288
    grids = {s.key() for s in puzzle.solutions(limit=None)}
    assert len(grids) == 288
    maps = [
        lambda r, c: (r, c), lambda r, c: (c, 3 - r), lambda r, c: (3 - r, 3 - c),
        lambda r, c: (3 - c, r), lambda r, c: (r, 3 - c), lambda r, c: (3 - r, c),
        lambda r, c: (c, r), lambda r, c: (3 - c, 3 - r),
    ]

    def image(grid, f):
        out = [[0] * 4 for _ in range(4)]
        for r, c in itertools.product(range(4), repeat=2):
            r2, c2 = f(r, c)
            out[r2][c2] = grid[r][c]
        return tuple(tuple(row) for row in out)

    orbits = {min(image(g, f) for f in maps) for g in grids}
    assert result.distinct == len(orbits)
    assert len(puzzle.symmetries) == 8


def _blank(solution: list[str], digits: str) -> list[str]:
    return ["".join("." if ch in digits else ch for ch in row) for row in solution]


@pytest.mark.parametrize("digits", ["12", "123", "159", "78", "369"])
def test_partial_9x9_counts_match_brute_force(digits):
    """The classic grid with every cell of some digits emptied: at least the relabellings
    of those digits complete it, and the counts are checked against the brute force."""
    rows = _blank(CLASSIC_SOLUTION, digits)
    puzzle = sudoku(toml(rows))
    expected = brute_count(rows, boxes(9, 3, 3), "123456789")
    assert expected >= 2
    assert puzzle.count().solutions == expected


def test_random_partial_9x9_counts_match_brute_force():
    rng = random.Random(27)
    for _ in range(4):
        keep = set(rng.sample(range(81), 30))
        rows = ["".join(ch if 9 * r + c in keep else "." for c, ch in enumerate(row))
                for r, row in enumerate(CLASSIC_SOLUTION)]
        assert sudoku(toml(rows)).count().solutions == brute_count(
            rows, boxes(9, 3, 3), "123456789")


def test_published_puzzles_have_exactly_one_solution():
    classic = catalog.load_file("sudoku-classic").puzzles[0]
    found = list(classic.solutions(limit=2))  # the setter's question: stop at a second
    assert len(found) == 1
    assert isinstance(found[0], SudokuSolution) and found[0].rows() == CLASSIC_SOLUTION
    assert classic.count().solutions == 1
    inkala = catalog.load_file("sudoku-inkala").puzzles[0]
    assert len(list(inkala.solutions(limit=2))) == 1


def test_a_solutions_digits_and_placements_are_the_symbols_shown():
    """#38 item 10: ``digits`` held indices (4, 2, 3 for a row shown as 5 3 4) and
    ``placements``, listed by ``dir()``, raised AttributeError."""
    solution = catalog.load_file("sudoku-classic").puzzles[0].solve()
    assert solution is not None
    assert solution.digits[0] == tuple(CLASSIC_SOLUTION[0]) == ("5", "3", "4", "6", "7", "8",
                                                                "9", "1", "2")
    assert str(solution).splitlines()[0].startswith("5 3 4 |")
    assert "placements" in dir(solution) and len(solution.placements) == 81
    first = solution.placements[0]
    assert (first.row, first.col, first.digit) == (0, 0, "5") == tuple(first)
    assert [{"row": r, "col": c, "digit": d} for r, c, d in solution.placements] == \
        json.loads(solution.to_json())["placements"]  # the --json contract, unchanged
    for name in dir(solution):  # every name dir() lists is there
        getattr(solution, name)
    big = sudoku(toml(["." * 16] * 16)).solve()  # 16 x 16: symbols 1-9, A-G
    assert big is not None and "G" in {d for row in big.digits for d in row}


def test_catalog_jigsaw_is_unique_for_the_brute_force_too():
    puzzle = catalog.load_file("sudoku-jigsaw").puzzles[0]
    assert isinstance(puzzle, SudokuPuzzle) and puzzle.box is None
    rows = ["".join(puzzle.symbols[puzzle.givens[r, c]] if (r, c) in puzzle.givens else "."
                    for c in range(9)) for r in range(9)]
    assert brute_count(rows, [list(row) for row in puzzle.regions], puzzle.symbols) == 1
    assert len(list(puzzle.solutions(limit=2))) == 1


def test_solve_limit_2_answers_uniqueness_on_the_command_line(capsys):
    assert main(["solve", "sudoku-classic", "--limit", "2", "--json"]) == 0
    out = capsys.readouterr().out.strip().splitlines()
    assert len(out) == 1  # one solution, and the search looked for a second one


JIGSAW_6 = """
AAABBB
ACCCBB
ACDDBE
ACDDEE
FCDDEE
FFFFFE
"""


def test_jigsaw_regions_count_against_brute_force():
    letters = "".join(JIGSAW_6.split())
    number = {ch: k for k, ch in enumerate(dict.fromkeys(letters))}
    numbers = [[number[ch] for ch in row] for row in JIGSAW_6.split()]
    empty = sudoku(toml(["......"] * 6, f'regions = """{JIGSAW_6}"""\n'))
    assert empty.box is None and len(empty.region_cells()) == 6
    assert empty.describe_lines()[-6:] == ["  " + " ".join(row) for row in JIGSAW_6.split()]
    solution = empty.solve()
    assert isinstance(solution, SudokuSolution)
    assert brute_count(solution.rows(), numbers, "123456") == 1  # a valid grid
    for digits in ("12", "345", "16"):
        rows = _blank(solution.rows(), digits)
        puzzle = sudoku(toml(rows, f'regions = """{JIGSAW_6}"""\n'))
        assert puzzle.count().solutions == brute_count(rows, numbers, "123456")


def test_6x6_boxes_and_16x16_letters():
    rows = ["12....", "......", "......", "......", "......", "......"]
    six = sudoku(toml(rows, "box = [2, 3]\n"))
    assert six.box == (2, 3)
    # 2x3 boxes: a quarter turn makes them 3x2, so only the half turn and two mirrors stay
    assert len(sudoku(toml(["......"] * 6, "box = [2, 3]\n")).symmetries) == 4
    # a brute force over all completions of this grid is slow; a fuller grid instead
    fuller = ["123456", "456123", "2.....", "......", "......", "......"]
    assert sudoku(toml(fuller, "box = [2, 3]\n")).count().solutions == brute_count(
        fuller, boxes(6, 2, 3), "123456")
    # 16 x 16: a pattern grid with every 1, A and G emptied solves and uses letters
    symbols = "123456789ABCDEFG"
    full = ["".join(symbols[(4 * (r % 4) + r // 4 + c) % 16] for c in range(16))
            for r in range(16)]
    assert brute_count(full, boxes(16, 4, 4), symbols) == 1  # a valid grid
    rows16 = _blank(full, "1AG")
    puzzle = sudoku(toml(rows16))
    assert puzzle.count().solutions == brute_count(rows16, boxes(16, 4, 4), symbols)
    solution = puzzle.solve()
    assert isinstance(solution, SudokuSolution) and "G" in "".join(solution.rows())


def test_symmetries_keep_givens():
    """A given off the centre breaks the square's symmetries; a centred one keeps them."""
    assert len(sudoku(toml(["." * 9] * 4 + ["....5...."] + ["." * 9] * 4)).symmetries) == 8
    assert len(sudoku(toml(["5........"] + ["." * 9] * 8)).symmetries) == 2  # the diagonal
    assert len(sudoku(toml(["5.......5"] + ["." * 9] * 8)).symmetries) == 2  # the mirror
    assert len(sudoku(toml(["5.......6"] + ["." * 9] * 8)).symmetries) == 1


def test_clashing_givens_are_proved_impossible(capsys):
    puzzle = sudoku(toml(["5.......5"] + ["." * 9] * 8))
    result = puzzle.count()
    assert result.solutions == 0 and result.reason is not None
    assert "row 1 has two givens 5" in result.reason
    stuck = sudoku(toml(["12345678.", "........9"] + ["." * 9] * 7))
    assert stuck.count().reason == ("cell r1c9 can hold no digit: its row, column and "
                                    "region already have every one")


def test_text_drawing_reads_back():
    classic = catalog.load_file("sudoku-classic").puzzles[0]
    assert isinstance(classic, SudokuPuzzle)
    drawn = "\n".join(classic.describe_lines()[1:])
    again = sudoku(toml([drawn]))
    assert again.givens == classic.givens
    solution = classic.solve()
    assert solution is not None
    lines = classic.text_lines(solution)
    assert lines[0] == "5 3 4 | 6 7 8 | 9 1 2" and lines[3] == "------+-------+------"


def test_picture_draws_grid_and_digits():
    pytest.importorskip("matplotlib")
    classic = catalog.load_file("sudoku-classic").puzzles[0]
    solution = classic.solve()
    assert solution is not None
    svg = solution.svg()
    assert svg.startswith("<?xml") and "<svg" in svg
    assert classic.svg().count("<path") < svg.count("<path")  # the solution adds digits


BAD = {
    "no-grid": ('kind = "sudoku"\n', "grid: is missing"),
    "grid-number": ('kind = "sudoku"\ngrid = 5\n', ":2: grid: must be a string"),
    "short-row": ('kind = "sudoku"\ngrid = """\n1234\n123\n1234\n1234\n"""\n',
                  ":4: grid: row 1 has 3 cells"),  # from 0, at the row's line (#38)
    "bad-symbol": ('kind = "sudoku"\ngrid = """\n12.4\n....\n..X.\n....\n"""\n',
                   ":5: grid: row 2, column 2: 'X' is not a symbol"),
    "not-square": ('kind = "sudoku"\ngrid = """\n' + "......\n" * 6 + '"""\n',
                   "has no square boxes"),
    "box-wrong": ('kind = "sudoku"\nbox = [2, 2]\ngrid = """\n' + "......\n" * 6 + '"""\n',
                  "boxes of 2 x 2 hold 4 cells"),
    "box-and-regions": ('kind = "sudoku"\nbox = [2, 2]\nregions = "AABB/AABB/CCDD/CCDD"\n'
                        'grid = "..../..../..../...."\n', "either box or regions"),
    "region-size": ('kind = "sudoku"\nregions = "AAAB/AABB/CCDD/CCDD"\n'
                    'grid = "..../..../..../...."\n', "region 'A' has 5 cells"),
    "symbols-short": ('kind = "sudoku"\nsymbols = "abc"\ngrid = "..../..../..../...."\n',
                      "must be 4 different characters"),
    "unknown-key": ('kind = "sudoku"\nsize = 9\ngrid = "..../..../..../...."\n',
                    "size: unknown key"),
    "one-row": ('kind = "sudoku"\ngrid = "5.......5"\n',
                "has 1 row of 9 cells; a sudoku grid is square"),
    "too-big": ('kind = "sudoku"\ngrid = """\n' + ("." * 26 + "\n") * 26 + '"""\n',
                "the largest sudoku read is 25 x 25"),
}


@pytest.mark.parametrize("case", sorted(BAD))
def test_malformed_sudoku_file_is_one_line(case, tmp_path, capsys):
    text, fragment = BAD[case][0], BAD[case][-1]
    path = tmp_path / f"{case}.toml"
    path.write_text(text)
    assert main(["count", str(path)]) == 2
    out, err = capsys.readouterr()
    lines = err.strip().splitlines()
    assert out == "" and len(lines) == 1, err
    assert f"{path}:" in lines[0] and fragment in lines[0], lines[0]
