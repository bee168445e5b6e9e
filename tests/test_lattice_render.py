"""Text and pictures on the triangle, hexagon and cube lattices (issue #14, item 4).

Pieces are one outlined polygon merged from the lattice's cell polygons; polycube solutions
are an isometric view (only faces the viewer can see, checked against ray casting) beside
the layers; text puts each character where ``lattice.text_position`` says (hexagon rows
offset, cube layers under headings). Solutions are made by hand, so the expected drawings
do not depend on which solution a search finds first.
"""

from __future__ import annotations

import math
import re
import xml.etree.ElementTree as ET

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from puzzlebox.formats import read_text
from puzzlebox.geometry import lattice_named
from puzzlebox.geometry.square import SQUARE
from puzzlebox.puzzles.polyomino import Placement, PolyominoSolution
from puzzlebox.render.isometric import SIDES, exposed_faces, piece_edges, visible_faces
from puzzlebox.render.outline import (
    boundary_loops,
    cell_loops,
    cell_polygons,
    enclosed_cells,
    polygon_label_spot,
    signed_area,
)
from puzzlebox.render.terminal import colored_solution
from puzzlebox.render.text import describe, solution_lines

TRIANGLE = lattice_named("triangle")
HEXAGON = lattice_named("hexagon")
CUBE = lattice_named("cube")
SVG = "{http://www.w3.org/2000/svg}"

TRI = """
lattice = "triangle"
[board]
grid = "###/###"
[pieces]
A = "###"
B = "##"
M = "#"
"""
TRI_SOLUTION = {"A": [(0, 0), (0, 1), (0, 2)], "B": [(1, 0), (1, 1)], "M": [(1, 2)]}

HEX = """
lattice = "hexagon"
[board]
grid = ".##/###/##."
[pieces]
M = "#"
D = { shape = "##", count = 3 }
"""
HEX_SOLUTION = [("M", [(1, 1)]), ("D", [(0, 1), (0, 2)]), ("D", [(1, 0), (2, 0)]),
                ("D", [(1, 2), (2, 1)])]

CUBE_TEXT = """
lattice = "cube"
[board]
grid = ["##/##", "##/##"]
[pieces]
L = { shape = "##/#.", count = 2 }
D = "##"
"""
CUBE_SOLUTION = [("L", [(0, 0, 0), (0, 0, 1), (0, 1, 0)]), ("L", [(0, 1, 1), (1, 1, 0), (1, 1, 1)]),
                 ("D", [(1, 0, 0), (1, 0, 1)])]


def load(text: str):
    return read_text(text, "t", "t").puzzles[0]


def solved(text: str, placements) -> tuple:
    puzzle = load(text)
    items = placements.items() if isinstance(placements, dict) else placements
    solution = PolyominoSolution(tuple(Placement(name, tuple(sorted(cells)))
                                       for name, cells in items))
    assert sorted(c for p in solution.placements for c in p.cells) == sorted(puzzle.board)
    return puzzle, solution


def test_the_hand_made_solutions_are_solutions_the_search_finds():
    for text, placements in ((TRI, TRI_SOLUTION), (HEX, HEX_SOLUTION),
                             (CUBE_TEXT, CUBE_SOLUTION)):
        puzzle, mine = solved(text, placements)
        assert mine.key() in {s.key() for s in puzzle.solutions()}


# -- outlines -----------------------------------------------------------------------------------


def test_one_cell_is_a_triangle_or_a_hexagon_and_two_make_a_rhombus():
    assert [len(loop) for loop in cell_loops(TRIANGLE, [(0, 0)])] == [3]
    assert [len(loop) for loop in cell_loops(TRIANGLE, [(0, 1)])] == [3]
    assert [len(loop) for loop in cell_loops(HEXAGON, [(3, -2)])] == [6]
    for pair in ([(0, 0), (0, 1)], [(0, 0), (1, 0)], [(1, 1), (1, 2)]):  # three directions
        assert [len(loop) for loop in cell_loops(TRIANGLE, pair)] == [4]
    # six triangles round a point are a hexagon; seven hexagons a hexagon of side 2
    assert [len(loop) for loop in cell_loops(TRIANGLE, [(r, c) for r in (0, 1)
                                                        for c in (0, 1, 2)])] == [6]
    flower = load(HEX).board
    assert [len(loop) for loop in cell_loops(HEXAGON, flower)] == [18]


def test_a_ring_of_hexagons_is_an_outline_and_a_hole():
    ring = [(0, 1), (0, 2), (1, 0), (1, 2), (2, 0), (2, 1)]
    loops = cell_loops(HEXAGON, ring)
    areas = sorted(signed_area(loop) for loop in loops)
    one = signed_area(cell_polygons(HEXAGON, [(1, 1)])[0])
    assert [len(loop) for loop in sorted(loops, key=signed_area)] == [6, 18]
    assert areas[0] == pytest.approx(-one) and areas[1] == pytest.approx(7 * abs(one))
    assert enclosed_cells(HEXAGON, ring) == {(1, 1)}
    assert enclosed_cells(HEXAGON, load(HEX).board) == set()


tri_sets = st.sets(st.tuples(st.integers(0, 4), st.integers(0, 7)), min_size=1, max_size=16)
hex_sets = st.sets(st.tuples(st.integers(0, 4), st.integers(-2, 4)), min_size=1, max_size=16)
square_sets = st.sets(st.tuples(st.integers(0, 5), st.integers(0, 5)), min_size=1, max_size=20)


@settings(max_examples=60, deadline=None)
@given(st.one_of(tri_sets.map(lambda s: (TRIANGLE, s)), hex_sets.map(lambda s: (HEXAGON, s))))
def test_outlines_enclose_exactly_the_cells(case):
    lattice, cells = case
    loops = cell_loops(lattice, cells)
    area = sum(abs(signed_area(p)) for p in cell_polygons(lattice, cells))
    assert sum(signed_area(loop) for loop in loops) == pytest.approx(area)
    corners = {(round(x, 6), round(y, 6)) for p in cell_polygons(lattice, cells) for x, y in p}
    for loop in loops:  # every corner of an outline is a corner of a cell
        assert all((round(x, 6), round(y, 6)) in corners for x, y in loop)


@settings(max_examples=60, deadline=None)
@given(square_sets)
def test_squares_keep_their_outlines(cells):
    """The generic polygon path draws squares exactly as the square walk did."""
    assert cell_loops(SQUARE, cells) == [[(float(x), float(y)) for x, y in loop]
                                         for loop in boundary_loops(cells)]


def _inside(point, polygon) -> bool:
    """Point in a convex polygon (or on its border)."""
    signs = set()
    for i, a in enumerate(polygon):
        b = polygon[(i + 1) % len(polygon)]
        cross = (b[0] - a[0]) * (point[1] - a[1]) - (b[1] - a[1]) * (point[0] - a[0])
        if abs(cross) > 1e-9:
            signs.add(cross > 0)
    return len(signs) <= 1


@settings(max_examples=60, deadline=None)
@given(st.one_of(tri_sets.map(lambda s: (TRIANGLE, s)), hex_sets.map(lambda s: (HEXAGON, s))),
       st.floats(0.5, 3))
def test_a_label_sits_inside_its_piece(case, width):
    lattice, cells = case
    polygons = cell_polygons(lattice, cells)
    spot = polygon_label_spot(polygons, width)
    assert 0 < spot.size <= 0.6
    assert any(_inside((spot.x, spot.y), p) for p in polygons)


# -- isometric view -----------------------------------------------------------------------------


def _seen_by_ray(face, cells) -> bool:
    """Oracle: some point of the face (a grid of points inside it, off its diagonals, where
    a face hidden by two cubes is seen along the line between them) sees the viewer along
    +(1, 1, 1) without entering a cube of the set."""
    layer, row, col = face.cell
    axis = {"top": 0, "front": 1, "right": 2}[face.side]
    for i in range(8):
        for j in range(8):
            u, v = (i + 0.31) / 8, (j + 0.67) / 8
            point = [layer + 0.0, row + 0.0, col + 0.0]
            others = [k for k in range(3) if k != axis]
            point[axis] += 1
            point[others[0]] += u
            point[others[1]] += v
            blocked = False
            t = 1e-3
            while t < 12:
                cube = tuple(math.floor(point[k] + t) for k in range(3))
                if cube in cells:
                    blocked = True
                    break
                t += 0.01
            if not blocked:
                return True
    return False


def test_a_cube_shows_three_faces_and_a_box_shows_only_its_outside():
    assert [f.side for f in visible_faces([(0, 0, 0)])] == list(SIDES)
    box = [(k, r, c) for k in range(2) for r in range(3) for c in range(2)]
    faces = visible_faces(box)
    assert len(faces) == 2 * 3 + 2 * 2 + 3 * 2  # top, front and right of a 2x3x2 box
    # a cube right in front of another (one step up, forward and right) hides it entirely
    assert {f.cell for f in visible_faces([(0, 0, 0), (1, 1, 1)])} == {(1, 1, 1)}


def test_bold_lines_outline_each_piece_as_seen():
    one = {(0, 0, 0): 0}
    assert len(piece_edges(one)) == 6  # a single cube's silhouette: a hexagon of six sides
    box = {(k, r, c): 0 for k in range(2) for r in range(2) for c in range(2)}
    assert len(piece_edges(box)) == 12  # the same hexagon, sides two long
    halves = {cell: cell[2] for cell in box}  # left and right halves of the box
    # the seam shows on the top (2 sides) and the front (2 sides)
    assert len(piece_edges(halves)) == 12 + 4


cube_sets = st.sets(st.tuples(st.integers(0, 2), st.integers(0, 2), st.integers(0, 2)),
                    min_size=1, max_size=14)


@settings(max_examples=25, deadline=None)
@given(cube_sets)
def test_the_view_has_exactly_the_faces_a_viewer_sees(cells):
    faces = visible_faces(cells)
    for face in faces:  # only faces towards the viewer with no cube across them
        step = {"top": (1, 0, 0), "front": (0, 1, 0), "right": (0, 0, 1)}[face.side]
        assert tuple(a + b for a, b in zip(face.cell, step, strict=True)) not in cells
    kept = {(f.cell, f.side) for f in faces}
    for face in exposed_faces(cells):
        assert ((face.cell, face.side) in kept) == _seen_by_ray(face, cells)
    depths = [f.depth for f in faces]
    assert depths == sorted(depths)  # painter's order: back to front


# -- text -----------------------------------------------------------------------------------------


def test_triangles_print_as_their_grid_reads():
    puzzle, solution = solved(TRI, TRI_SOLUTION)
    assert solution_lines(puzzle, solution) == ["AAA", "BBM"]
    # outline asks to see each placement: on triangles that is a letter per placement
    assert solution_lines(puzzle, solution, "outline") == ["AAA", "BBC", "", "A=A B=B C=M"]


def test_hexagon_rows_are_offset_half_a_cell_each():
    puzzle, solution = solved(HEX, HEX_SOLUTION)
    assert solution_lines(puzzle, solution) == [
        " B B",
        "C A D",
        " C D",
        "",
        "A=M B-D=D",
    ]
    shown = describe(puzzle)
    assert shown[1:4] == ["   # #", "  # # #", "   # #"]
    assert any("flush left" in line for line in shown)


def test_cube_layers_print_bottom_first_under_headings():
    puzzle, solution = solved(CUBE_TEXT, CUBE_SOLUTION)
    assert solution_lines(puzzle, solution) == [
        "layer 0 (bottom)",
        "AA",
        "AB",
        "",
        "layer 1 (top)",
        "CC",
        "BB",
        "",
        "A-B=L C=D",
    ]
    shown = describe(puzzle)
    assert shown[1:7] == ["  layer 0 (bottom)", "  ##", "  ##", "", "  layer 1 (top)", "  ##"]


@pytest.mark.parametrize("text, placements", [(TRI, TRI_SOLUTION), (HEX, HEX_SOLUTION),
                                              (CUBE_TEXT, CUBE_SOLUTION)])
def test_terminal_colours_follow_the_layout(text, placements):
    puzzle, solution = solved(text, placements)
    colored = colored_solution(puzzle, solution)
    assert colored is not None
    assert colored.plain == "\n".join(solution_lines(puzzle, solution)) + "\n"
    owners = puzzle.text_owners(solution)
    lines = solution_lines(puzzle, solution)
    for line, row in zip(lines, owners, strict=False):
        for ch, who in zip(line, row, strict=True):
            if who is not None:  # each coloured character is its placement's letter
                assert ch not in " .", (line, row)


# -- pictures -----------------------------------------------------------------------------------


@pytest.fixture
def pictures():
    """render/pictures.py; these tests are skipped where matplotlib (an extra) is missing."""
    pytest.importorskip("matplotlib")
    from puzzlebox.render import pictures

    return pictures


def _groups(svg: str) -> dict[str, ET.Element]:
    root = ET.fromstring(svg)  # well-formed XML, or this raises
    return {g.get("id"): g for g in root.iter(f"{SVG}g") if g.get("id")}


def _paths(group: ET.Element) -> list[str]:
    return [p.get("d") for p in group.iter(f"{SVG}path")]


def _points(d: str) -> list[list[tuple[float, float]]]:
    loops = []
    for sub in re.split(r"(?=M)", d.strip()):
        numbers = [float(v) for v in re.findall(r"-?\d+(?:\.\d+)?(?:e-?\d+)?", sub)]
        if numbers:
            loops.append(list(zip(numbers[::2], numbers[1::2], strict=True)))
    return loops


def _area(d: str) -> float:
    return abs(sum(signed_area(loop) for loop in _points(d) if len(loop) >= 3))


@pytest.mark.parametrize("text, placements, corners", [
    (TRI, TRI_SOLUTION, {"A": 4, "B": 4, "M": 3}),
    (HEX, HEX_SOLUTION, {"M": 6, "D": 10}),
])
def test_each_piece_is_one_polygon_of_its_area(pictures, text, placements, corners):
    puzzle, solution = solved(text, placements)
    found = _groups(pictures.solution_svg(puzzle, solution))
    unit = _area(_paths(found["p0-board"])[0]) / len(puzzle.board)
    for i, placement in enumerate(solution.placements):
        (d,) = _paths(found[f"p0-piece-{i}"])
        assert _area(d) / unit == pytest.approx(len(placement.cells), rel=0.01)
        assert [len(loop) for loop in _points(d)] == [corners[placement.piece]]
    assert f"p0-piece-{len(solution.placements)}" not in found


def test_show_draws_the_board_and_one_panel_per_piece(pictures):
    for text, pieces in ((TRI, 3), (HEX, 2), (CUBE_TEXT, 2)):
        found = _groups(pictures.puzzle_svg(load(text)))
        assert sum(1 for k in found if re.fullmatch(r"panel-\d+-piece", k)) == pieces
        assert sum(1 for k in found if re.fullmatch(r"panel-\d+-board", k)) == 1


def test_a_polycube_solution_is_a_view_and_its_layers(pictures):
    puzzle, solution = solved(CUBE_TEXT, CUBE_SOLUTION)
    found = _groups(pictures.solution_svg(puzzle, solution))
    faces = [k for k in found if k.startswith("p0-iso-")]
    assert len(faces) == len(visible_faces(puzzle.board)) == 12
    # every face is a rhombus in its piece's colour family; each piece shows at least once
    assert {int(k.split("-")[2]) for k in faces} == {0, 1, 2}
    for layer in (0, 1):
        drawn = {int(k.rsplit("-", 1)[1]) for k in found
                 if k.startswith(f"p0-layer{layer}-piece-")}
        assert drawn == {i for i, p in enumerate(solution.placements)
                         if any(c[0] == layer for c in p.cells)}
        for i in drawn:  # one outlined shape per piece and layer
            assert len(_paths(found[f"p0-layer{layer}-piece-{i}"])) == 1
    assert "p0-layer0-board" in found and "p0-layer1-board" in found


def test_png_is_written(pictures, tmp_path):
    for name, (text, placements) in {"tri": (TRI, TRI_SOLUTION), "hex": (HEX, HEX_SOLUTION),
                                     "cube": (CUBE_TEXT, CUBE_SOLUTION)}.items():
        puzzle, solution = solved(text, placements)
        path = tmp_path / f"{name}.png"
        pictures.write_figure(pictures.solution_figure(puzzle, solution), path, "png")
        assert path.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_the_command_line_draws_every_lattice(pictures, tmp_path, capsys):
    from puzzlebox.cli import main

    for name, text in (("tri", TRI), ("hex", HEX), ("cube", CUBE_TEXT)):
        source = tmp_path / f"{name}.toml"
        source.write_text(text)
        out = tmp_path / f"{name}.svg"
        assert main(["solve", str(source), "--format", "svg", "--out", str(out)]) == 0
        assert _groups(out.read_text())
        assert main(["show", str(source), "--format", "svg", "--out", str(out)]) == 0
        assert main(["solve", str(source)]) == 0
    capsys.readouterr()


def test_notebooks_draw_every_lattice(pictures):
    for text in (TRI, HEX, CUBE_TEXT):
        puzzle = load(text)
        solution = next(iter(puzzle.solutions()))
        for drawn in (puzzle._repr_svg_(), solution._repr_svg_()):
            assert drawn is not None and _groups(drawn)


def test_a_colour_matched_solid_shows_its_colours_in_the_layers(pictures):
    text = ('lattice = "cube"\n[board]\ngrid = ["bw/wb", "wb/bw"]\n[pieces]\nL = "bw/w."\n'
            'M = "wb/b."\nD = "bw"\n[rules]\nmatch_colors = true\n')
    puzzle = load(text)
    solution = next(iter(puzzle.solutions()))
    found = _groups(pictures.solution_svg(puzzle, solution))
    for layer in (0, 1):  # the darker colour ('b') veiled in each layer: its 2 cells
        (d,) = _paths(found[f"p0-layer{layer}-color-0"])
        assert len(_points(d)) == 2


def test_a_ring_of_hexagons_is_one_compound_path_round_its_hole(pictures):
    text = ('lattice = "hexagon"\n[board]\ngrid = ".##/###/##."\n[pieces]\n'
            'O = ".##/#.#/##."\nm = "#"\n')
    puzzle = load(text)
    solution = next(iter(puzzle.solutions()))
    found = _groups(pictures.solution_svg(puzzle, solution))
    ring = next(i for i, p in enumerate(solution.placements) if p.piece == "O")
    (d,) = _paths(found[f"p0-piece-{ring}"])
    assert sorted(len(loop) for loop in _points(d)) == [6, 18]  # the hole and the outside
    unit = _area(_paths(found["p0-board"])[0]) / 7
    assert _area(d) / unit == pytest.approx(6, rel=0.01)  # the hole is not filled
