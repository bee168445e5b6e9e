"""Pictures: piece outlines traced as polygons, SVG/PNG output, sheets, notebook reprs, CLI."""

from __future__ import annotations

import colorsys
import re
import struct
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import puzzlebox
from puzzlebox.cli import main
from puzzlebox.formats import read_text
from puzzlebox.render.outline import boundary_loops, enclosed, label_spot, signed_area
from puzzlebox.render.palette import rgb

pictures = pytest.importorskip("puzzlebox.render.pictures")
queens_pictures = pytest.importorskip("puzzlebox.puzzles.queens.pictures")
card_pictures = pytest.importorskip("puzzlebox.puzzles.edge_matching.pictures")
pytest.importorskip("matplotlib")

SVG = "{http://www.w3.org/2000/svg}"

RING = """
[board]
grid = "####/####/####/####"
[pieces]
O = "###/#.#/###"
dot = "#"
I = "####"
J = "###"
"""

CARDS = """
kind = "edge-matching"
[board]
rows = 2
cols = 2
[cards]
1 = "p1 c1 a2 o2"
2 = "o1 a2 c2 p1"
3 = "a1 p2 o2 c1"
4 = "c2 o1 p2 a1"
[rules.complements]
p1 = "p2"
c1 = "c2"
a1 = "a2"
o1 = "o2"
"""


def shoelace(points: list[tuple[float, float]]) -> float:
    n = len(points)
    return 0.5 * sum(
        points[i][0] * points[(i + 1) % n][1] - points[(i + 1) % n][0] * points[i][1]
        for i in range(n)
    )


def path_area(d: str) -> float:
    """Net area of an SVG path of straight segments (M/L/z): holes run the other way round,
    so their signed areas cancel."""
    total = 0.0
    for sub in re.split(r"(?=M)", d.strip()):
        numbers = [float(v) for v in re.findall(r"-?\d+(?:\.\d+)?(?:e-?\d+)?", sub)]
        points = list(zip(numbers[::2], numbers[1::2], strict=True))
        if len(points) >= 3:
            total += shoelace(points)
    return abs(total)


def groups(svg: str) -> dict[str, ET.Element]:
    root = ET.fromstring(svg)
    return {g.get("id"): g for g in root.iter(f"{SVG}g") if g.get("id")}


def paths_of(group: ET.Element) -> list[str]:
    return [p.get("d") for p in group.iter(f"{SVG}path")]


def svg_text(figure) -> str:
    return pictures.figure_bytes(figure, "svg").decode()


# -- outlines ---------------------------------------------------------------------------------

cell_sets = st.sets(st.tuples(st.integers(0, 5), st.integers(0, 5)), min_size=1, max_size=20)


@settings(max_examples=150, deadline=None)
@given(cell_sets)
def test_outline_loops_enclose_exactly_the_cells(cells):
    loops = boundary_loops(cells)
    assert sum(signed_area(loop) for loop in loops) == len(cells)
    edges = []
    for loop in loops:
        for a, b in zip(loop, loop[1:] + loop[:1], strict=True):
            assert (a[0] == b[0]) != (a[1] == b[1])  # along grid lines, never standing still
            edges.append((a, b))
    assert len(set(edges)) == len(edges)  # no stretch of boundary is drawn twice
    # every unit edge between a cell of the set and a cell outside it is on some loop
    unit = set()
    for a, b in edges:
        (x0, y0), (x1, y1) = a, b
        n = abs(x1 - x0) + abs(y1 - y0)
        unit |= {(x0 + (x1 - x0) * k // n, y0 + (y1 - y0) * k // n) for k in range(n + 1)}
    for r, c in cells:
        if (r, c + 1) not in cells:
            assert (c + 1, r) in unit and (c + 1, r + 1) in unit


def test_a_ring_is_one_outer_loop_and_one_hole():
    ring = [(r, c) for r in range(3) for c in range(3) if (r, c) != (1, 1)]
    loops = boundary_loops(ring)
    assert sorted(signed_area(loop) for loop in loops) == [-1, 9]
    assert enclosed(ring) == {(1, 1)}


@settings(max_examples=100, deadline=None)
@given(cell_sets, st.floats(0.5, 4))
def test_a_label_sits_on_a_cell_of_its_piece(cells, width):
    spot = label_spot(cells, width)
    assert 0 < spot.size <= 0.6
    # the centre is inside or on the border of one of the cells
    assert any(c <= spot.x <= c + 1 and r <= spot.y <= r + 1 for r, c in cells)


# -- polyomino pictures -----------------------------------------------------------------------


def check_piece_areas(svg: str, puzzle, solution, panel: int = 0) -> None:
    found = groups(svg)
    board = paths_of(found[f"p{panel}-board"])
    assert len(board) == 1
    unit = path_area(board[0]) / len(puzzle.board)  # area of one cell in SVG units
    for i, placement in enumerate(solution.placements):
        piece = paths_of(found[f"p{panel}-piece-{i}"])
        assert len(piece) == 1, "one path per placed piece"
        assert path_area(piece[0]) / unit == pytest.approx(len(placement.cells), rel=0.01)
    assert f"p{panel}-piece-{len(solution.placements)}" not in found


def test_each_placed_piece_is_one_polygon_of_its_area():
    puzzle = puzzlebox.load("pentomino-3x20")
    solution = puzzle.solve()
    svg = pictures.solution_svg(puzzle, solution)
    check_piece_areas(svg, puzzle, solution)


def test_a_piece_with_a_hole_is_one_compound_path():
    puzzle = read_text(RING, "ring", "ring").puzzles[0]
    solution = puzzle.solve()
    svg = pictures.solution_svg(puzzle, solution)
    check_piece_areas(svg, puzzle, solution)
    ring = next(i for i, p in enumerate(solution.placements) if p.piece == "O")
    d = paths_of(groups(svg)[f"p0-piece-{ring}"])[0]
    assert d.count("M") == 2  # outer boundary and hole in one path


def test_board_holes_are_hatched_and_colours_shown():
    holes = puzzlebox.load("pentomino-6x10-two-holes")
    found = groups(pictures.puzzle_svg(holes))
    assert "p0-holes" in found
    svg = pictures.solution_svg(*_first_solution("black-and-white-final"))
    assert any(key.startswith("p0-color-") for key in groups(svg))


def _first_solution(name: str):
    puzzle = puzzlebox.load(name)
    return puzzle, puzzle.solve()


def test_svg_output_is_reproducible():
    puzzle, solution = _first_solution("queens-5")
    first = pictures.solution_svg(puzzle, solution)
    assert first == pictures.solution_svg(puzzle, solution)
    assert "<dc:date>" not in first


def test_png_has_the_expected_pixel_size(tmp_path):
    puzzle, solution = _first_solution("queens-8")
    puzzle.title = ""  # no caption: the sheet is the board, its name and the margins
    path = tmp_path / "q.png"
    pictures.write_figure(pictures.solution_figure(puzzle, solution), path, "png")
    data = path.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    width, height = struct.unpack(">II", data[16:24])
    cell = queens_pictures.QUEENS_PX
    assert width == round((8 + 2 * pictures.MARGIN) * cell)  # 8 squares and two margins
    title = pictures.TITLE_PT / (cell * 72 / pictures.DPI) * 1.8
    assert height == round((8 + 2 * pictures.MARGIN + title) * cell)


def test_queens_are_drawn_on_a_chessboard():
    puzzle, solution = _first_solution("queens-8")
    found = groups(pictures.solution_svg(puzzle, solution))
    assert sum(1 for key in found if key.startswith("p0-queen-")) == 8


def test_cards_are_four_triangles_in_related_shades():
    puzzle = read_text(CARDS, "cards", "cards").puzzles[0]
    solution = puzzle.solve()
    found = groups(pictures.solution_svg(puzzle, solution))
    triangles = [key for key in found if re.fullmatch(r"p0-card-\d-\d-\d", key)]
    assert len(triangles) == 16
    colors = card_pictures.label_colors(puzzle)
    assert len(set(colors.values())) == len(colors)  # every label its own colour
    for a, b in puzzle.complements.items():
        ha = colorsys.rgb_to_hsv(*rgb(colors[a]))[0]
        hb = colorsys.rgb_to_hsv(*rgb(colors[b]))[0]
        assert abs(ha - hb) < 0.02  # one hue per pair, in two shades


def test_a_batch_shows_as_25_titled_panels():
    pf = puzzlebox.load_file("black-and-white")
    found = groups(svg_text(pictures.puzzle_figure(pf.puzzles)))
    boards = [key for key in found if re.fullmatch(r"panel-\d+-board", key)]
    pieces = [key for key in found if re.fullmatch(r"panel-\d+-piece", key)]
    assert (len(boards), len(pieces)) == (25, 11)


def test_notebook_reprs():
    puzzle, solution = _first_solution("queens-5")
    assert solution.puzzle is puzzle
    assert solution._repr_svg_().lstrip().startswith("<?xml")
    assert puzzle._repr_svg_().lstrip().startswith("<?xml")
    by_hand = puzzle.decode(tuple(puzzle.problem.labels.index(q) for q in solution.queens))
    assert by_hand == solution and by_hand._repr_svg_() is None  # no puzzle to draw on


# -- the command line -------------------------------------------------------------------------


def run(capsys, *argv):
    code = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return code, out, err


def test_cli_solve_all_writes_one_file_per_solution(capsys, tmp_path):
    code, out, _ = run(capsys, "solve", "queens-5", "--all", "--format", "svg",
                       "--out", f"{tmp_path}/q/")
    assert code == 0
    names = sorted(p.name for p in (tmp_path / "q").iterdir())
    assert names == [f"queens-5-{k:04d}.svg" for k in range(1, 11)]
    assert out.split() == [str(tmp_path / "q" / n) for n in names]


def test_cli_batch_sheet_and_show(capsys, tmp_path):
    sheet = tmp_path / "bw.svg"
    code, _, _ = run(capsys, "solve", "black-and-white", "--format", "svg", "--out", sheet)
    assert code == 0
    found = groups(sheet.read_text())
    assert sum(1 for key in found if re.fullmatch(r"panel-\d+-solution", key)) == 25
    board = tmp_path / "board.png"
    code, _, _ = run(capsys, "show", "pentomino-6x10", "--format", "png", "--out", board)
    assert code == 0 and board.read_bytes()[:4] == b"\x89PNG"


@pytest.mark.parametrize(
    "argv, message",
    [
        (["solve", "queens-5", "--format", "png"], "needs --out"),
        (["solve", "queens-5", "--all", "--format", "svg", "--out", "one.svg"], "DIR/"),
        (["show", "queens-5", "--format", "svg"], "needs --out"),
    ],
)
def test_cli_picture_misuse_is_one_line_and_exit_2(capsys, argv, message):
    code, _, err = run(capsys, *argv)
    assert code == 2
    assert message in err and len(err.strip().splitlines()) == 1


# -- the example notebook ---------------------------------------------------------------------


def test_example_notebook_runs_and_shows_pictures():
    """docs/example.ipynb, executed in a real kernel (nbclient, ipykernel: the test extra)."""
    nbformat = pytest.importorskip("nbformat")
    nbclient = pytest.importorskip("nbclient")
    pytest.importorskip("ipykernel")
    docs = Path(__file__).resolve().parent.parent / "docs"
    notebook = nbformat.read(docs / "example.ipynb", as_version=4)
    nbclient.NotebookClient(notebook, timeout=300, kernel_name="python3",
                            resources={"metadata": {"path": str(docs)}}).execute()
    outputs = [o for cell in notebook.cells if cell.cell_type == "code" for o in cell.outputs]
    assert not [o for o in outputs if o.output_type == "error"]
    pictures_shown = [o for o in outputs if "image/svg+xml" in o.get("data", {})]
    assert len(pictures_shown) == 4  # puzzle, solution, own puzzle, its solution
    html = [o["data"]["text/html"] for o in outputs if "text/html" in o.get("data", {})]
    assert len(html) == 2  # the count's table, the four queens side by side
    assert html[0].startswith("<table><caption>92 solutions, 12 distinct (")
    assert html[1].count("<svg") == 4
    text = "".join(o.get("text", "") for o in outputs)
    assert "92 solutions, 12 distinct" in text and "16 solutions, 4 distinct" in text


def test_example_notebook_uses_only_the_public_api():
    """Issue #38: the notebook imported puzzlebox.formats and puzzlebox.render.pictures. It
    imports only ``puzzlebox`` itself, and every name it reads of it is in dir(puzzlebox)."""
    import ast
    import json

    import puzzlebox

    docs = Path(__file__).resolve().parent.parent / "docs"
    cells = json.loads((docs / "example.ipynb").read_text(encoding="utf-8"))["cells"]
    code = "\n".join("".join(cell["source"]) for cell in cells if cell["cell_type"] == "code")
    tree = ast.parse(code)
    imported = {alias.name for node in ast.walk(tree) if isinstance(node, ast.Import)
                for alias in node.names}  # fmt: skip
    imported |= {node.module or "" for node in ast.walk(tree)
                 if isinstance(node, ast.ImportFrom)}  # fmt: skip
    assert {name for name in imported if name.startswith("puzzlebox")} == {"puzzlebox"}
    read = {node.attr for node in ast.walk(tree) if isinstance(node, ast.Attribute)
            and isinstance(node.value, ast.Name) and node.value.id == "puzzlebox"}  # fmt: skip
    assert read and read <= set(dir(puzzlebox)), read - set(dir(puzzlebox))
    private = [node.attr for node in ast.walk(tree)
               if isinstance(node, ast.Attribute) and node.attr.startswith("_")]  # fmt: skip
    assert private == []


def _png_size(path):
    data = path.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    return struct.unpack(">II", data[16:24])


def test_the_puzzles_title_is_the_caption(tmp_path):
    """Issue #16: the picture was titled with the file name only."""
    puzzle, solution = _first_solution("queens-8")
    svg = svg_text(pictures.solution_figure(puzzle, solution))
    assert 'id="caption-0"' in svg
    plain = tmp_path / "plain.png"
    captioned = tmp_path / "captioned.png"
    pictures.write_figure(pictures.solution_figure(puzzle, solution), captioned, "png")
    puzzle.title = ""
    pictures.write_figure(pictures.solution_figure(puzzle, solution), plain, "png")
    (w1, h1), (w2, h2) = _png_size(captioned), _png_size(plain)
    assert w1 == w2 and h1 > h2
    assert 'id="caption-0"' not in svg_text(pictures.solution_figure(puzzle, solution))


def test_size_and_dpi_set_the_pngs_pixels(tmp_path):
    from puzzlebox.cli import main

    out = tmp_path / "a.png"
    assert main(["show", "pentomino-6x10", "--format", "png", "--out", str(out)]) == 0
    w, h = _png_size(out)
    assert main(["show", "pentomino-6x10", "--format", "png", "--out", str(out),
                 "--size", "1200"]) == 0
    w2, h2 = _png_size(out)
    assert w2 == 1200 and abs(h2 - h * 1200 / w) <= 1
    assert main(["solve", "queens-8", "--format", "png", "--out", str(out), "--dpi", "200"]) == 0
    w3, _ = _png_size(out)
    assert main(["solve", "queens-8", "--format", "png", "--out", str(out)]) == 0
    w4, _ = _png_size(out)
    assert w3 == 2 * w4
    assert main(["show", "queens-8", "--format", "svg", "--out", str(tmp_path / "a.svg"),
                 "--size", "100"]) == 2


def test_long_edge_labels_fit_inside_their_card(tmp_path):
    """Issue #16: labels longer than about six characters were cut off ("og-hea")."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg

    from puzzlebox.puzzles import EdgeMatchingPuzzle  # noqa: F401 (the kind is loaded)

    path = tmp_path / "long.toml"
    path.write_text('kind = "edge-matching"\n[board]\nrows = 1\ncols = 2\n[cards]\n'
                    '1 = "dog-head fox-tail-long x y"\n2 = "a b c fox-tail-long"\n'
                    '[rules]\nrotate = false\n')
    from puzzlebox import catalog

    puzzle = catalog.load_file(str(path)).puzzles[0]
    solution = puzzle.solve()
    assert solution is not None
    figure = pictures.solution_figure(puzzle, solution)
    renderer = FigureCanvasAgg(figure).get_renderer()
    ax = figure.axes[0]
    to_cells = ax.transData.inverted()
    board = None
    labels = {}
    for patch in ax.patches:
        if (patch.get_gid() or "").endswith("-board"):
            board = patch.get_bbox()
    for text in ax.texts:
        gid = text.get_gid() or ""
        if "-label-" in gid:
            (x0, y1), (x1, y0) = to_cells.transform(text.get_window_extent(renderer).get_points())
            labels[(gid, text.get_text())] = (min(x0, x1), min(y0, y1), max(x0, x1), max(y0, y1))
    assert board is not None and len(labels) == 8
    left = board.x0
    for (gid, label), (x0, y0, x1, y1) in labels.items():
        col = int(gid.split("card-0-")[1].split("-")[0])
        # inside its own card, a column of the board one cell wide
        assert left + col - 1e-6 <= x0 and x1 <= left + col + 1 + 1e-6, (label, x0, x1)
        assert board.y0 - 1e-6 <= y0 and y1 <= board.y1 + 1e-6, (label, y0, y1)
