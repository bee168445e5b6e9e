"""`puzzlebox export`: piece sheets (SVG, PDF) at real size and STL solids.

Everything written is read back and checked against the pieces themselves: the SVG
parses and is sized in millimetres, each outline's extent is cell-mm times its piece's,
no two outlines come near each other; the PDF's cross-reference offsets and stream
lengths are right and its paths are the SVG's; an STL is closed (every edge meets the
same edge the other way) with the right volume and outward normals.
"""

from __future__ import annotations

import itertools
import math
import random
import re
import shutil
import struct
import subprocess
import xml.etree.ElementTree as ET
from collections import Counter
from pathlib import Path

import pytest

from puzzlebox import catalog
from puzzlebox.cli import main
from puzzlebox.render import sheet as sh
from puzzlebox.render import stl
from puzzlebox.render.outline import boundary_loops
from puzzlebox.safety import file_component

SVG = "{http://www.w3.org/2000/svg}"


def run(capsys, *argv) -> tuple[int, str, str]:
    code = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return code, out, err


def random_polyomino(rng: random.Random, size: int) -> set[tuple[int, int]]:
    cells = {(0, 0)}
    while len(cells) < size:
        r, c = rng.choice(sorted(cells))
        dr, dc = rng.choice([(0, 1), (1, 0), (0, -1), (-1, 0)])
        cells.add((r + dr, c + dc))
    return cells


# -- outlines ----------------------------------------------------------------------------------


@pytest.mark.parametrize("seed", range(40))
def test_outline_is_the_boundary_that_render_outline_traces(seed):
    """Two programs, one boundary: the sheet's edge cancellation on polygons and
    render/outline.py's walk on square cells give the same loops."""
    rng = random.Random(seed)
    cells = random_polyomino(rng, rng.randrange(1, 30))
    mine = sh.outline(sh.cell_polygon(None, cell) for cell in cells)
    theirs = boundary_loops(cells)
    canon = sorted(tuple((float(x), float(y)) for x, y in loop) for loop in theirs)
    assert sorted(tuple(loop) for loop in mine) == canon
    # outer loops count positive, holes negative: together the piece's area
    assert sum(sh._area(loop) for loop in mine) == pytest.approx(len(cells))


def test_a_ring_is_one_outline_with_a_hole():
    ring = [(r, c) for r in range(3) for c in range(3) if (r, c) != (1, 1)]
    loops = sh.outline(sh.cell_polygon(None, cell) for cell in ring)
    assert sorted(sh._area(loop) for loop in loops) == [-1.0, 9.0]


# -- SVG ---------------------------------------------------------------------------------------


def _svg_pieces(path: Path) -> tuple[ET.Element, list[tuple[str, list[list[tuple[float, float]]]]]]:
    root = ET.parse(path).getroot()
    pieces = []
    for element in root.iter(f"{SVG}path"):
        loops = []
        for sub in re.findall(r"M ([^MZ]*) Z", element.get("d", "")):
            numbers = [float(v) for v in re.findall(r"-?[0-9.]+", sub)]
            loops.append(list(zip(numbers[::2], numbers[1::2], strict=True)))
        pieces.append((element.get("data-piece", ""), loops))
    return root, pieces


def _box(loops):
    xs = [x for loop in loops for x, _ in loop]
    ys = [y for loop in loops for _, y in loop]
    return min(xs), min(ys), max(xs), max(ys)


@pytest.mark.parametrize("puzzle, cell_mm", [("pentomino-6x10", 20), ("pentomino-6x10", 7.5),
                                              ("dominoes-8x8", 15)])
def test_svg_sheet_is_real_size_and_nothing_overlaps(tmp_path, capsys, puzzle, cell_mm):
    out = tmp_path / "sheet.svg"
    code, printed, _ = run(capsys, "export", puzzle, "--sheet", out, "--cell-mm", cell_mm)
    assert code == 0 and printed.strip() == str(out)
    root, drawn = _svg_pieces(out)
    width, height = root.get("width"), root.get("height")
    assert width == "210mm" and height.endswith("mm")
    assert root.get("viewBox") == f"0 0 210 {height[:-2]}"  # one user unit is one mm
    pieces = catalog.load_file(puzzle).puzzles[0].pieces
    expected = Counter()
    for piece in pieces:
        expected[piece.name] += piece.hi if piece.hi is not None else max(piece.lo, 1)
    assert Counter(name for name, _ in drawn) == expected
    extents = {p.name: (p.shape.width * cell_mm, p.shape.height * cell_mm) for p in pieces}
    boxes = []
    for name, loops in drawn:
        x0, y0, x1, y1 = _box(loops)
        assert (x1 - x0, y1 - y0) == pytest.approx(extents[name], abs=1e-3)
        assert x0 >= 5 - 1e-6 and x1 <= 205 + 1e-6 and y0 >= 5 - 1e-6  # the margins
        boxes.append((x0, y0, x1, y1))
    # no two boxes overlap, and every two are a margin apart in x or in y
    for a, b in itertools.combinations(boxes, 2):
        apart = max(b[0] - a[2], a[0] - b[2], b[1] - a[3], a[1] - b[3])
        assert apart >= 5 - 1e-6


def test_svg_outlines_have_the_pieces_areas(tmp_path, capsys):
    out = tmp_path / "sheet.svg"
    run(capsys, "export", "pentomino-6x10", "--sheet", out, "--cell-mm", 10)
    _, drawn = _svg_pieces(out)
    for _, loops in drawn:  # a pentomino: 5 cells of 10 x 10 mm
        assert sum(sh._area(loop) for loop in loops) == pytest.approx(500)
    assert 'fill="none"' in out.read_text()  # outlines only


# -- PDF ---------------------------------------------------------------------------------------


def _pdf_objects(data: bytes) -> dict[int, bytes]:
    """The objects of a PDF found through its cross-reference table (which must be right)."""
    start = int(re.search(rb"startxref\n(\d+)\n%%EOF\n$", data).group(1))
    assert data[start:].startswith(b"xref\n")
    head = re.match(rb"xref\n0 (\d+)\n", data[start:])
    count = int(head.group(1))
    table = data[start + head.end():]
    objects = {}
    for number in range(1, count):
        entry = table[20 * number: 20 * number + 20]
        offset = int(entry[:10])
        assert entry[10:] == b" 00000 n \n"
        match = re.match(rb"(\d+) 0 obj\n(.*?)\nendobj\n", data[offset:], re.S)
        assert match and int(match.group(1)) == number
        objects[number] = match.group(2)
    return objects


def _pdf_paths(objects: dict[int, bytes]) -> list[list[list[tuple[float, float]]]]:
    pages = []
    for body in objects.values():
        stream = re.match(rb"<< /Length (\d+) >>\nstream\n", body)
        if not stream:
            continue
        content = body[stream.end(): stream.end() + int(stream.group(1))]
        assert body[stream.end() + int(stream.group(1)):] == b"endstream"
        loops, loop = [], []
        for line in content.decode().splitlines():
            parts = line.split()
            if parts[-1] in ("m", "l"):
                loop.append((float(parts[0]), float(parts[1])))
            elif parts[-1] == "h":
                loops.append(loop)
                loop = []
        pages.append(loops)
    return pages


def test_pdf_reads_back_with_the_svgs_outlines(tmp_path, capsys):
    svg, pdf = tmp_path / "s.svg", tmp_path / "s.pdf"
    for out in (svg, pdf):
        assert run(capsys, "export", "pentomino-6x10", "--sheet", out, "--cell-mm", 12)[0] == 0
    data = pdf.read_bytes()
    assert data.startswith(b"%PDF-1.4\n")
    objects = _pdf_objects(data)
    assert b"/Type /Catalog" in objects[1] and b"/Count 1" in objects[2]
    a4 = f"[0 0 {595.2756:.4f} {841.8898:.4f}]".encode()
    assert any(b"/MediaBox " + a4 in body for body in objects.values())
    (pdf_loops,) = _pdf_paths(objects)
    k = 72 / 25.4
    in_mm = sorted(tuple((round(x / k, 3), round((841.8898 - y) / k, 3)) for x, y in loop)
                   for loop in pdf_loops)
    _, drawn = _svg_pieces(svg)
    svg_loops = sorted(tuple((round(x, 3), round(y, 3)) for x, y in loop)
                       for _, loops in drawn for loop in loops)
    assert in_mm == svg_loops


def test_pdf_fills_more_pages_when_one_is_too_small(tmp_path, capsys):
    pdf = tmp_path / "small.pdf"
    code, _, _ = run(capsys, "export", "pentomino-6x10", "--sheet", pdf, "--cell-mm", 10,
                     "--page", "70x70")
    assert code == 0
    objects = _pdf_objects(pdf.read_bytes())
    pages = _pdf_paths(objects)
    assert len(pages) > 1 and f"/Count {len(pages)}".encode() in objects[2]
    assert sum(len(p) for p in pages) == 12  # twelve pentominoes, no holes: one loop each


@pytest.mark.skipif(shutil.which("pdftoppm") is None, reason="pdftoppm (poppler) is not "
                    "installed")
def test_pdftoppm_renders_the_sheet(tmp_path, capsys):
    pdf = tmp_path / "s.pdf"
    run(capsys, "export", "pentomino-6x10", "--sheet", pdf)
    done = subprocess.run(["pdftoppm", "-r", "20", "-gray", pdf, tmp_path / "page"],
                          capture_output=True, timeout=120)
    assert done.returncode == 0 and done.stderr == b""
    pgm = (tmp_path / "page-1.pgm").read_bytes()
    header = re.match(rb"P5\s+(\d+)\s+(\d+)\s+255\s", pgm)
    pixels = pgm[header.end():]
    a4_at_20_dpi = (math.ceil(210 / 25.4 * 20), math.ceil(297 / 25.4 * 20))
    assert (int(header.group(1)), int(header.group(2))) == a4_at_20_dpi
    assert 0 < sum(1 for p in pixels if p < 128) < len(pixels) // 4  # lines, not fills


FLAT_LATTICES = {
    "triangle": '[board]\ngrid = "######/######"\n[pieces]\nA = "######"\n'
                'B = { shape = "###/###", count = 2 }\nH = "#/#"\n',
    "hexagon": '[board]\ngrid = ".##/###/##."\n[pieces]\nA = "###"\n'
               'B = { shape = "##/#.", count = 2 }\nR = ".##/###/##."\n',
}


@pytest.mark.parametrize("lattice", sorted(FLAT_LATTICES))
def test_sheets_and_tiles_on_the_other_flat_lattices(tmp_path, capsys, lattice):
    from puzzlebox.geometry import lattice_named

    puzzle = tmp_path / f"{lattice}.toml"
    puzzle.write_text(f'lattice = "{lattice}"\n' + FLAT_LATTICES[lattice])
    out = tmp_path / "sheet.svg"
    assert run(capsys, "export", puzzle, "--sheet", out, "--cell-mm", 20)[0] == 0
    shape = lattice_named(lattice)
    pieces = {p.name: p for p in catalog.load_file(str(puzzle)).puzzles[0].pieces}
    _, drawn = _svg_pieces(out)
    assert Counter(name for name, _ in drawn) == {n: p.hi for n, p in pieces.items()}
    boxes = []
    for name, loops in drawn:
        cells = sum(abs(sh._area(shape.polygon(c))) for c in pieces[name].shape.cells)
        assert sum(sh._area(loop) for loop in loops) == pytest.approx(cells * 400, rel=1e-6)
        boxes.append(_box(loops))
    for a, b in itertools.combinations(boxes, 2):
        assert max(b[0] - a[2], a[0] - b[2], b[1] - a[3], a[1] - b[3]) >= 5 - 1e-6
    folder = tmp_path / "stl"
    assert run(capsys, "export", puzzle, "--stl", folder, "--cell-mm", 20)[0] == 0
    for name, piece in pieces.items():
        triangles = [t for _, t in stl.read_stl((folder / f"{name}.stl").read_bytes())]
        area = sum(abs(sh._area(shape.polygon(c))) for c in piece.shape.cells)
        directed = Counter()
        for t in triangles:
            a, b, c = (tuple(round(v, 3) for v in p) for p in t)
            directed.update([(a, b), (b, c), (c, a)])
        assert all(directed[(b, a)] == n for (a, b), n in directed.items())
        assert stl.signed_volume(triangles) == pytest.approx(area * 20 ** 3, rel=1e-4)


# -- sheet errors --------------------------------------------------------------------------------


@pytest.mark.parametrize("argv, words", [
    (["--sheet", "x.png"], "x.png: a sheet's file name must end in .svg or .pdf"),
    (["--sheet", "x.svg", "--cell-mm", "80"], "larger than the 210 x 297 mm page less its "
     "margins (a smaller --cell-mm or a larger --page)"),
    (["--sheet", "x.svg", "--cell-mm", "0"], "a cell of 0 mm"),
    (["--sheet", "x.svg", "--page", "B5"], "page 'B5'"),
    (["--sheet", "x.svg", "--margin-mm", "-1"], "a margin of -1 mm"),
])
def test_sheet_errors_are_one_line_exit_2(tmp_path, capsys, monkeypatch, argv, words):
    monkeypatch.chdir(tmp_path)
    code, out, err = run(capsys, "export", "pentomino-6x10", *argv)
    assert code == 2 and out == "" and words in err and err.count("\n") == 1


def test_a_puzzle_without_pieces_has_no_sheet(tmp_path, capsys):
    code, _, err = run(capsys, "export", "queens-8", "--sheet", tmp_path / "q.svg")
    assert code == 2 and "has none" in err


# -- STL -----------------------------------------------------------------------------------------


def _check_solid(triangles, cells: int, cell_mm: float, manifold: bool = True) -> None:
    """Closed, outward, and of the right volume."""
    directed = Counter()
    for t in triangles:
        a, b, c = (tuple(round(v, 4) for v in p) for p in t)
        directed.update([(a, b), (b, c), (c, a)])
    for (a, b), n in directed.items():
        assert directed[(b, a)] == n  # every edge meets itself the other way: closed
        if manifold:
            assert n == 1  # each edge in exactly two triangles
    assert stl.signed_volume(triangles) == pytest.approx(cells * cell_mm ** 3, rel=1e-5)


def _edge_only_contact(cells: set[tuple[int, int, int]]) -> bool:
    for a, b in itertools.combinations(cells, 2):
        d = [abs(x - y) for x, y in zip(a, b, strict=True)]
        if sorted(d) == [0, 1, 1]:
            between = [tuple(a[i] if d[i] == 0 or i == j else b[i] for i in range(3))
                       for j in range(3) if d[j] == 1]
            if not any(c in cells for c in between):
                return True
    return False


def random_polycube(rng: random.Random, size: int) -> set[tuple[int, int, int]]:
    cells = {(0, 0, 0)}
    steps = [(1, 0, 0), (-1, 0, 0), (0, 1, 0), (0, -1, 0), (0, 0, 1), (0, 0, -1)]
    while len(cells) < size:
        cell = rng.choice(sorted(cells))
        step = rng.choice(steps)
        cells.add(tuple(a + b for a, b in zip(cell, step, strict=True)))
    return cells


@pytest.mark.parametrize("seed", range(30))
def test_stl_of_cubes_is_closed_with_the_right_volume(seed):
    rng = random.Random(seed)
    cells = random_polycube(rng, rng.randrange(1, 25))
    cell_mm = rng.choice([1.0, 7.5, 20.0])
    data = stl.stl_bytes(stl.cube_surface(cells, cell_mm), f"piece {seed}")
    read = stl.read_stl(data)
    triangles = [t for _, t in read]
    _check_solid(triangles, len(cells), cell_mm, manifold=not _edge_only_contact(cells))
    for written, t in read:  # the normal written is the winding's, and it points out
        assert written == pytest.approx(stl.normal(t), abs=1e-6)
    assert not data.startswith(b"solid")  # never mistaken for ASCII STL


def test_stl_drops_every_shared_face():
    cube = {(z, y, x) for x in range(3) for y in range(3) for z in range(3)}
    triangles = stl.cube_surface(cube)
    assert len(triangles) == 6 * 9 * 2  # only the outside: 54 unit squares
    _check_solid(triangles, 27, 1.0)


def test_stl_keeps_the_inside_of_a_hollow_box():
    box = {(z, y, x) for x in range(3) for y in range(3) for z in range(3)} - {(1, 1, 1)}
    triangles = stl.cube_surface(box)
    assert len(triangles) == (54 + 6) * 2  # the cavity's six faces, facing in
    _check_solid(triangles, 26, 1.0)


def test_a_layer_reads_as_drawn_from_above():
    # an L in layer 0: row 0 is the far side (largest y), column 0 the left (smallest x)
    cells = {(0, 0, 0), (0, 1, 0), (0, 1, 1)}
    top = [t for t in stl.cube_surface(cells) if stl.normal(t) == (0.0, 0.0, 1.0)]
    centres = {(round(sum(p[0] for p in t) / 3 - 0.5), round(sum(p[1] for p in t) / 3 - 0.5))
               for t in top}
    assert {(x, y) for x, y in centres} == {(0, 0), (0, -1), (1, -1)}


@pytest.mark.parametrize("seed", range(10))
def test_stl_of_flat_cells_is_a_closed_tile(seed):
    rng = random.Random(seed)
    cells = random_polyomino(rng, rng.randrange(1, 20))
    triangles = stl.prism_surface([sh.cell_polygon(None, c) for c in cells], 5.0)
    as_cubes = stl.cube_surface({(0, r, c) for r, c in cells}, 5.0)
    _check_solid(triangles, len(cells), 5.0, manifold=False)
    assert stl.signed_volume(triangles) == pytest.approx(stl.signed_volume(as_cubes))


def test_export_stl_writes_one_file_per_piece_named_safely(tmp_path, capsys):
    puzzle = tmp_path / "odd.toml"
    puzzle.write_text('[board]\ngrid = "####/####"\n[pieces]\n"../up" = "##/##"\n'
                      '"a b" = "##/##"\n')
    folder = tmp_path / "out"
    code, out, _ = run(capsys, "export", puzzle, "--stl", folder, "--cell-mm", 10)
    assert code == 0
    names = sorted(p.name for p in folder.iterdir())
    assert names == sorted(file_component(n) + ".stl" for n in ("../up", "a b"))
    assert all(Path(line).parent == folder for line in out.split())
    assert sorted(tmp_path.iterdir()) == [puzzle, folder]  # nothing outside the folder
    for path in folder.iterdir():
        triangles = [t for _, t in stl.read_stl(path.read_bytes())]
        _check_solid(triangles, 4, 10.0)


def test_hostile_names_make_a_well_formed_svg(tmp_path, capsys):
    puzzle = tmp_path / "odd.toml"
    puzzle.write_text('title = "<b>&\\u001b[31m\\uffff"\n[board]\ngrid = "####"\n'
                      '[pieces]\n"a\\"<x/>&\\u000a" = "##"\n"\\ufffe" = "##"\n')
    out = tmp_path / "s.svg"
    assert run(capsys, "export", puzzle, "--sheet", out)[0] == 0
    root, drawn = _svg_pieces(out)  # parses
    assert {name for name, _ in drawn} == {'a"<x/>&\\n', "\\ufffe"}
    assert "\x1b" not in out.read_text()


def test_export_stl_into_a_file_is_refused(tmp_path, capsys):
    (tmp_path / "f").write_text("")
    code, _, err = run(capsys, "export", "pentomino-6x10", "--stl", tmp_path / "f")
    assert code == 2 and "not a folder" in err


def test_binary_stl_layout():
    data = stl.stl_bytes(stl.cube_surface({(0, 0, 0)}), "one")
    assert len(data) == 84 + 12 * 50 and struct.unpack_from("<I", data, 80) == (12,)


def test_export_stl_of_a_cube_puzzle(tmp_path, capsys):
    puzzle = tmp_path / "cubes.toml"
    puzzle.write_text('lattice = "cube"\n[board]\ngrid = ["##/##", "##/##"]\n[pieces]\n'
                      'L = { shape = ["##/#."], count = 2 }\nd = ["#", "#"]\n')
    folder = tmp_path / "stl"
    code, _, _ = run(capsys, "export", puzzle, "--stl", folder, "--cell-mm", 20)
    assert code == 0
    volumes = {p.stem: stl.signed_volume(t for _, t in stl.read_stl(p.read_bytes()))
               for p in folder.iterdir()}
    assert volumes == pytest.approx({"L": 3 * 8000.0, "d": 2 * 8000.0})
    code, _, err = run(capsys, "export", puzzle, "--sheet", tmp_path / "s.svg")
    assert code == 2 and err.strip().endswith("(export them with --stl DIR)")
