"""Sweeps (every choice of uncovered cells), polyomino orders, and their command lines."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import oracle
from puzzlebox.catalog import load_file as load
from puzzlebox.cli import main
from puzzlebox.geometry import Shape
from puzzlebox.puzzles import Piece, PolyominoPuzzle
from puzzlebox.puzzles.order import parse_shape, polyomino_order, rectangles
from puzzlebox.puzzles.sweep import count_grid, filled, sweep

DATA = Path(__file__).parent / "data"
DOMINO = Shape.from_cells({(0, 0), (0, 1)})


def _rectangle(rows: int, cols: int) -> dict[tuple[int, int], str]:
    return {(r, c): "#" for r in range(rows) for c in range(cols)}


def run(capsys, *argv):
    code = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return code, out, err


# -- sweeps ---------------------------------------------------------------------------------
def test_dominoes_on_3x3_with_one_cell_left():
    """The hole in a corner: 4 tilings; in the centre: 2; on an edge: none (5 dark cells
    would be left against 3 light ones)."""
    puzzle = PolyominoPuzzle("d3", _rectangle(3, 3), [Piece("D", DOMINO, 4, 4)])
    results = list(sweep(puzzle, 1, count=True, engine="reference"))
    assert count_grid(puzzle, results, count=True) == ["4 0 4", "0 2 0", "4 0 4"]
    edge = next(r for r in results if r.uncovered == ((0, 1),))
    assert edge.proof == "checkerboard" and not edge.solvable
    # one corner, one edge and the centre are solved; the rest are copied by symmetry
    assert sum(r.same_as is None for r in results) == 3
    assert count_grid(puzzle, list(sweep(puzzle, 1)), count=False) == ["o - o", "- o -", "o - o"]


def test_a_hexagon_sweep_map_offsets_its_rows_as_solutions_do(tmp_path, capsys):
    """The seven-hexagon flower less one cell, by three dominoes: the centre left leaves a
    ring of six (2 tilings); a petal left leaves a path of five petals and the centre, which
    pairs with an end petal or the middle one (3). The map puts each count where a
    solution's letter goes (rows half a cell apart), not flush left as the file writes
    them; wider counts keep the half-field offset and a space between cells."""
    from puzzlebox.render.text import layout_lines

    path = tmp_path / "flower.toml"
    path.write_text('lattice = "hexagon"\n[board]\ngrid = ".##/###/##."\n[pieces]\n'
                    'D = { shape = "##", count = 3 }\n')
    code, out, _ = run(capsys, "sweep", path, "--uncover", "1", "--count")
    assert code == 0
    assert "\n 3 3\n3 2 3\n 3 3\neach cell:" in out
    assert out.rstrip().endswith("as the hexagons lie; a file writes rows flush left)")
    puzzle = load(path).puzzles[0]
    results = list(sweep(puzzle, 1))
    marks = {r.uncovered[0]: "o" if r.solvable else "-" for r in results}
    assert count_grid(puzzle, results, count=False) == layout_lines(puzzle.lattice, marks)
    wide = tmp_path / "wide.toml"  # counts of two digits: fields of 2, rows 2 characters apart
    wide.write_text('lattice = "hexagon"\n[board]\ngrid = "####/####/####"\n[pieces]\n'
                    'D = { shape = "##", count = 5 }\nM = { shape = "#", count = 1 }\n')
    board = load(wide).puzzles[0]
    results = list(sweep(board, 1, count=True))
    assert max(r.solutions or 0 for r in results) >= 10
    grid = count_grid(board, results, count=True)
    for r in results:  # cell (row, q) at half-field 2q + row: characters 2(2q + row) on
        (row, q), = r.uncovered
        at = 2 * (2 * q + row)
        assert grid[row][at:at + 2] == str(r.solutions).rjust(2)
        assert grid[row][at + 2:at + 4].strip() == ""
    assert grid[0].endswith("   .") and grid[2].startswith(" .  ")  # no cell there


def test_two_cells_left_match_brute_force():
    board = _rectangle(3, 4)
    puzzle = PolyominoPuzzle("d34", board, [Piece("D", DOMINO, 5, 5)])
    results = list(sweep(puzzle, 2, count=True, engine="reference"))
    assert len(results) == 66
    for r in results:
        rest = {cell: "#" for cell in board if cell not in r.uncovered}
        expected = oracle.polyomino_solutions(rest, [("D", {(0, 0): "#", (0, 1): "#"}, 5, 5)],
                                              True, True, False)  # fmt: skip
        assert r.solutions == len(expected), r.uncovered
        assert r.solvable == bool(expected)


def test_the_hole_of_the_7x7_blocks_can_go_anywhere():
    """Nine blocks (48 cells, turned, never flipped) on the 7x7 square: all 49 places for
    the hole work. Turns map the puzzle onto itself, so only 13 choices are searched."""
    puzzle = load(DATA / "blocks-7x7-full.toml").puzzles[0]
    results = list(sweep(puzzle, 1))
    assert len(results) == 49 and all(r.solvable for r in results)
    assert sum(r.same_as is None for r in results) == 13
    # the catalog's puzzle has its hole at the bottom-left corner; filled, it is this board
    catalog_board = load("blocks-7x7").puzzles[0]
    assert filled(catalog_board).board == puzzle.board


def test_sweep_json_and_grid_on_the_command_line(capsys):
    code, out, _ = run(capsys, "sweep", DATA / "blocks-7x7-full.toml", "--uncover", "1",
                       "--json", "--quiet")  # fmt: skip
    assert code == 0
    objs = [json.loads(line) for line in out.splitlines()]
    assert len(objs) == 49
    assert objs[0] == {"puzzle": "blocks-7x7-full", "uncovered": [[0, 0]], "solvable": True}
    assert sorted(tuple(o["uncovered"][0]) for o in objs) == sorted(_rectangle(7, 7))


def test_sweep_text_with_counts(capsys, tmp_path):
    path = tmp_path / "d3.toml"
    path.write_text('[board]\ngrid = "###/###/###"\n[pieces]\nD = { shape = "##", count = 4 }\n')
    code, out, _ = run(capsys, "sweep", path, "--uncover", "1", "--count", "--quiet")
    assert code == 0
    assert "9 choices of 1 uncovered cell, 5 solvable" in out
    assert out.rstrip().splitlines()[-4:] == [
        "4 0 4", "0 2 0", "4 0 4",
        "each cell: the number of solutions with that cell uncovered; . no cell"]


def test_sweep_catalog_with_holes_says_how_to_fill_them(capsys):
    code, out, err = run(capsys, "sweep", "blocks-7x7", "--uncover", "1", "--quiet")
    assert code == 0 and "48 choices" in out and "0 solvable" in out
    assert "--fill-holes" in err
    code, out, _ = run(capsys, "sweep", "blocks-7x7", "--uncover", "1", "--fill-holes",
                       "--quiet")  # fmt: skip
    assert "49 choices of 1 uncovered cell, 49 solvable" in out


def test_sweep_bad_input_is_one_line(capsys):
    code, _, err = run(capsys, "sweep", "queens-8", "--uncover", "1")
    assert code == 2 and err.count("\n") == 1 and "polyomino" in err
    code, _, err = run(capsys, "sweep", DATA / "blocks-7x7-full.toml", "--uncover", "49")
    assert code == 2 and err.count("\n") == 1 and "0 to 48" in err


# -- orders ---------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("shape", "order", "rectangle"),
    [
        ("#####", 1, (1, 5)),  # the I pentomino is a rectangle itself
        ("##/#.", 2, (2, 3)),  # L tromino
        ("###/#..", 2, (2, 4)),  # L tetromino
        ("###/.#.", 4, (4, 4)),  # T tetromino
        ("P", 2, (2, 5)),
        ("L", 2, (2, 5)),
        ("Y", 10, (5, 10)),
    ],
)
def test_known_orders(shape, order, rectangle):
    result = polyomino_order(parse_shape(shape), max_area=60, engine="auto")
    assert result.order == order
    assert result.puzzle is not None and result.solution is not None
    rows = 1 + max(r for r, _ in result.puzzle.board)
    cols = 1 + max(c for _, c in result.puzzle.board)
    assert (rows, cols) == rectangle
    cells = [cell for p in result.solution.placements for cell in p.cells]
    assert sorted(cells) == sorted(_rectangle(rows, cols))  # each cell exactly once
    assert len(result.solution.placements) == order


def test_the_x_pentomino_tiles_no_rectangle():
    result = polyomino_order(parse_shape("X"), max_area=100)
    assert result.order is None
    assert result.summary() == "no rectangle up to area 100"
    assert {a.how for a in result.attempts} <= {"placement", "checkerboard"}


def test_rectangles_by_increasing_area():
    y = parse_shape("Y")
    found = list(rectangles(y, 50))
    assert found[:4] == [(2, 5), (3, 5), (2, 10), (4, 5)]
    assert found[-1] == (5, 10) and (1, 5) not in found
    areas = [r * c for r, c in found]
    assert areas == sorted(areas) and all(a % 5 == 0 for a in areas)


def test_order_on_the_command_line(capsys):
    code, out, _ = run(capsys, "order", "###/.#.", "--why", "--quiet")
    assert code == 0
    assert "order 4: 4 copies tile a 4x4 rectangle" in out
    assert "2x6 (3 copies): no (checkerboard:" in out
    code, out, _ = run(capsys, "order", "x", "--max-area", "40", "--json", "--quiet")
    assert json.loads(out) == {"shape": ".#./###/.#.", "order": None, "max_area": 40}
    code, out, _ = run(capsys, "order", "##/#.", "--json", "--quiet")
    obj = json.loads(out)
    assert (obj["order"], obj["rows"], obj["cols"], len(obj["placements"])) == (2, 2, 3, 2)


@pytest.mark.parametrize(("shape", "what"), [("#.#", "not one piece"), ("Q", "pentomino"),
                                            ("...", "no cells")])  # fmt: skip
def test_order_bad_shape_is_one_line(capsys, shape, what):
    code, _, err = run(capsys, "order", shape)
    assert code == 2 and err.count("\n") == 1 and what in err


@pytest.mark.parametrize("command", ["sweep", "order"])
def test_help(capsys, command):
    with pytest.raises(SystemExit) as stop:
        main([command, "--help"])
    assert stop.value.code == 0
    assert "usage" in capsys.readouterr().out


# -- --why and --distinct ---------------------------------------------------------------------
def test_why_names_the_argument_or_the_search(capsys, tmp_path):
    code, out, _ = run(capsys, "count", DATA / "mutilated-chessboard.toml", "--why", "--json")
    assert json.loads(out)["why"] == "checkerboard"
    code, out, _ = run(capsys, "count", DATA / "tetrominoes-4x5.toml", "--why")
    assert "why: proved before search by the checkerboard argument" in out
    l3 = tmp_path / "l3.toml"
    l3.write_text('[board]\ngrid = "###/###/###"\n[pieces]\nL = { shape = "##/#.", count = 3 }\n')
    code, out, _ = run(capsys, "count", l3, "--why", "--engine", "reference")
    assert "why: searched exhaustively: no solution (" in out and " nodes)" in out
    code, _, err = run(capsys, "solve", l3, "--why", "--engine", "reference")
    assert "l3: searched exhaustively: no solution (" in err


def test_solve_distinct_gives_one_solution_per_orbit(capsys):
    code, out, _ = run(capsys, "solve", "queens-8", "--distinct", "--all", "--format", "json",
                       "--engine", "reference")  # fmt: skip
    assert code == 0
    solutions = [json.loads(line)["placements"] for line in out.splitlines()]
    assert len(solutions) == 12
    forms = set()
    for queens in solutions:
        cells = [(q["row"], q["col"]) for q in queens]
        images = []
        for f in (lambda r, c: (r, c), lambda r, c: (c, 7 - r), lambda r, c: (7 - r, 7 - c),
                  lambda r, c: (7 - c, r), lambda r, c: (r, 7 - c), lambda r, c: (7 - r, c),
                  lambda r, c: (c, r), lambda r, c: (7 - c, 7 - r)):  # fmt: skip
            images.append(tuple(sorted(f(r, c) for r, c in cells)))
        forms.add(min(images))
    assert len(forms) == 12
