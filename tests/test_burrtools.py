"""`puzzlebox import`: BurrTools files (.xmpuzzle) to puzzlebox TOML.

The files are written here from BurrTools' documented format (lib-doc "The xmpuzzle
format": voxel spaces x fastest, then y, then z; ``_`` empty, ``#`` filled, ``+`` variable,
colour numbers after a voxel; problems with ``<shape id count|min max>``, ``<result id>``
and ``<bitmap><pair piece result>``). The geometry checks compare with the test's own
reading of the voxels (and tests/oracle.py's own search), not with the importer's.

BurrTools' example files (burr-tools/burr-tools, examples/*.xmpuzzle) are GPL and the
designs their designers' own, so none is copied here: set BURRTOOLS_EXAMPLES to a folder
of them to run the checks on those too.
"""

from __future__ import annotations

import gzip
import os
import random
import tomllib
from pathlib import Path

import pytest

from oracle import polyomino_solutions
from puzzlebox.cli import main
from puzzlebox.formats import burrtools as bt
from puzzlebox.formats import read_text

Voxel = tuple[int, int, int]


# -- writing files from the documented format ------------------------------------------------


def voxel_text(size: tuple[int, int, int], cells: dict[Voxel, int] | set[Voxel],
               variable: set[Voxel] = frozenset()) -> str:
    colours = cells if isinstance(cells, dict) else {c: 0 for c in cells}
    sx, sy, sz = size
    out = []
    for z in range(sz):
        for y in range(sy):
            for x in range(sx):
                v = (x, y, z)
                if v in variable:
                    out.append("+")
                elif v in colours:
                    out.append("#" + (str(colours[v]) if colours[v] else ""))
                else:
                    out.append("_")
    return "".join(out)


def shape_xml(cells, name: str = "", variable: set[Voxel] = frozenset()) -> str:
    every = set(cells) | set(variable)
    size = tuple(1 + max(v[i] for v in every) for i in range(3))
    named = f' name="{name}"' if name else ""
    return (f'<voxel x="{size[0]}" y="{size[1]}" z="{size[2]}"{named} type="0">'
            f"{voxel_text(size, cells, variable)}</voxel>")


def puzzle_xml(shapes: list[str], problems: list[str], grid: int | None = 0,
               colours: int = 0, comment: str = "") -> str:
    grid_tag = "" if grid is None else f'<gridType type="{grid}"/>'
    colour_tags = "".join('<color red="200" green="10" blue="10"/>' for _ in range(colours))
    return (
        '<?xml version="1.0"?>\n<puzzle version="2">\n'
        f" {grid_tag}\n <colors>{colour_tags}</colors>\n"
        " <shapes>\n  " + "\n  ".join(shapes) + "\n </shapes>\n"
        " <problems>\n  " + "\n  ".join(problems) + "\n </problems>\n"
        f" <comment>{comment}</comment>\n</puzzle>\n"
    )


def problem_xml(parts: list[tuple[int, int, int]], result: int, name: str = "",
                pairs: list[tuple[int, int]] = ()) -> str:
    tags = []
    for shape, lo, hi in parts:
        tags.append(f'<shape id="{shape}" count="{lo}"/>' if lo == hi
                    else f'<shape id="{shape}" min="{lo}" max="{hi}"/>')
    bitmap = "".join(f'<pair piece="{p}" result="{r}"/>' for p, r in pairs)
    named = f' name="{name}"' if name else ""
    return (f'<problem{named} state="0"><shapes>{"".join(tags)}</shapes>'
            f'<result id="{result}"/><bitmap>{bitmap}</bitmap></problem>')


def write(tmp_path: Path, xml: str, zipped: bool = True, name: str = "p.xmpuzzle") -> Path:
    path = tmp_path / name
    data = xml.encode("utf-8")
    path.write_bytes(gzip.compress(data, mtime=0) if zipped else data)
    return path


def flat(rows: str, axis: int = 2) -> set[Voxel]:
    """A drawing ('#' cells, rows split by '/') as one layer of voxels, thin along
    ``axis`` (2: the x-y plane, 1: x-z, 0: y-z)."""
    out = set()
    for r, row in enumerate(rows.split("/")):
        for c, ch in enumerate(row):
            if ch == "#":
                out.add({2: (c, r, 0), 1: (c, 0, r), 0: (0, c, r)}[axis])
    return out


def run(capsys, *argv) -> tuple[int, str, str]:
    code = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return code, out, err


P = "##/##/#."
L = "#./#./#./##"
I3 = "###"


# -- flat cube puzzles: the square lattice ----------------------------------------------------


def _square_cells(voxels: set[Voxel]) -> dict[tuple[int, int], str]:
    """The test's own projection of a one-layer set of voxels to (row, col)."""
    for axis in (2, 1, 0):
        if len({v[axis] for v in voxels}) == 1:
            keep = [a for a in (0, 1, 2) if a != axis]
            return {(v[keep[1]], v[keep[0]]): "#" for v in voxels}
    raise AssertionError("not flat")


def test_a_flat_cube_puzzle_becomes_a_square_puzzle_with_the_same_solutions(tmp_path):
    # pieces lying in three different planes; the result in the x-y plane
    pieces = [flat(P, 2), flat(L, 1), flat(I3, 0), flat("##/#.", 1)]
    result = flat("####/####/####/####", 2)
    xml = puzzle_xml([shape_xml(result, "Box")] + [shape_xml(p) for p in pieces],
                     [problem_xml([(1, 1, 1), (2, 1, 1), (3, 1, 1), (4, 1, 1)], 0)])
    text = bt.import_file(write(tmp_path, xml))
    assert "lattice" not in tomllib.loads(text)  # the default, square
    puzzle = read_text(text, "imported", "imported").puzzles[0]
    assert puzzle.rotate and puzzle.reflect  # a flat piece may be turned over
    assert sorted(p.name for p in puzzle.pieces) == ["S2", "S3", "S4", "S5"]
    oracle = polyomino_solutions(
        _square_cells(result),
        [(f"S{i + 2}", _square_cells(p), 1, 1) for i, p in enumerate(pieces)],
        True, True, False)
    assert len(oracle) > 0
    assert puzzle.count().solutions == len(oracle)


def test_the_board_keeps_its_drawing_rows_from_y_columns_from_x(tmp_path):
    result = flat("###./.###", 2)
    xml = puzzle_xml([shape_xml(result), shape_xml(flat("###"))],
                     [problem_xml([(1, 2, 2)], 0)])
    doc = tomllib.loads(bt.import_file(write(tmp_path, xml)))
    assert doc["board"]["grid"].strip() == "###.\n.###"
    assert doc["pieces"]["S2"] == {"shape": "###", "count": 2}


def test_uncompressed_xml_is_read_too(tmp_path):
    xml = puzzle_xml([shape_xml(flat("##")), shape_xml(flat("#"))],
                     [problem_xml([(1, 2, 2)], 0)])
    (tmp_path / "z").mkdir()
    assert bt.import_file(write(tmp_path, xml, zipped=False)) == bt.import_file(
        write(tmp_path / "z", xml))


def test_no_grid_type_means_cubes(tmp_path):
    xml = puzzle_xml([shape_xml(flat("##")), shape_xml(flat("#"))],
                     [problem_xml([(1, 2, 2)], 0)], grid=None)
    assert "S2" in tomllib.loads(bt.import_file(write(tmp_path, xml)))["pieces"]


# -- solid cube puzzles: the cube lattice ------------------------------------------------------

CUBE_2 = {(x, y, z) for x in range(2) for y in range(2) for z in range(2)}
TRI_L = {(0, 0, 0), (1, 0, 0), (0, 1, 0)}  # an L tricube, flat
TRI_UP = {(0, 0, 0), (1, 0, 0), (1, 0, 1)}  # an L tricube standing in the x-z plane


def _cube_problem() -> str:
    return puzzle_xml([shape_xml(CUBE_2, "Result"), shape_xml(TRI_L, "L"),
                       shape_xml({(0, 0, 0), (0, 0, 1)}, "domino")],
                      [problem_xml([(1, 2, 2), (2, 1, 1)], 0, name="two L and a domino")])


def test_a_solid_puzzle_becomes_a_cube_puzzle_layer_by_layer(tmp_path):
    text = bt.import_file(write(tmp_path, _cube_problem()))
    doc = tomllib.loads(text)
    assert doc["lattice"] == "cube"
    assert doc["title"] == "two L and a domino"
    assert doc["rules"] == {"rotate": True, "reflect": False}  # solids: no mirror images
    assert doc["board"]["grid"] == ["##/##", "##/##"]
    assert doc["pieces"]["L"] == {"shape": ["##/#."], "count": 2}
    assert doc["pieces"]["domino"] == ["#", "#"]  # two layers: (z, y, x) -> layer, row, col


def test_layers_are_z_rows_y_columns_x(tmp_path):
    standing = {(0, 0, 0), (1, 0, 0), (2, 0, 0), (2, 1, 0), (2, 1, 1)}
    xml = puzzle_xml([shape_xml(CUBE_2 | {(2, 0, 0), (2, 1, 0), (2, 0, 1), (2, 1, 1)}),
                      shape_xml(standing)], [problem_xml([(1, 1, 1)], 0)])
    doc = tomllib.loads(bt.import_file(write(tmp_path, xml)))
    assert doc["pieces"]["S2"] == ["###/..#", ".../..#"]


def test_a_cube_puzzle_reads_back_and_counts(tmp_path):
    text = bt.import_file(write(tmp_path, _cube_problem()))
    puzzle = read_text(text, "imported", "imported").puzzles[0]
    assert sum(len(p.shape) * p.hi for p in puzzle.pieces) == len(puzzle.board) == 8
    assert puzzle.count().solutions > 0


# The Soma cube (Piet Hein): seven pieces, two of them mirror images of each other (A, B).
SOMA = {
    "V": {(0, 0, 0), (1, 0, 0), (0, 1, 0)},
    "L": {(0, 0, 0), (1, 0, 0), (2, 0, 0), (0, 1, 0)},
    "T": {(0, 0, 0), (1, 0, 0), (2, 0, 0), (1, 1, 0)},
    "Z": {(0, 0, 0), (1, 0, 0), (1, 1, 0), (2, 1, 0)},
    "A": {(0, 0, 0), (1, 0, 0), (0, 1, 0), (0, 1, 1)},
    "B": {(0, 0, 0), (1, 0, 0), (0, 1, 0), (1, 0, 1)},
    "P": {(0, 0, 0), (1, 0, 0), (0, 1, 0), (0, 0, 1)},
}


def test_the_soma_cube_keeps_its_mirror_pair_apart(tmp_path):
    cube = {(x, y, z) for x in range(3) for y in range(3) for z in range(3)}
    xml = puzzle_xml([shape_xml(cube, "cube")] + [shape_xml(v, n) for n, v in SOMA.items()],
                     [problem_xml([(i, 1, 1) for i in range(1, 8)], 0)])
    doc = tomllib.loads(bt.import_file(write(tmp_path, xml)))
    assert doc["rules"]["reflect"] is False  # else A and B would be the same piece
    assert doc["pieces"]["A"] == ["##/#.", "../#."] and doc["pieces"]["B"] == ["##/#.", ".#/.."]
    puzzle = read_text(bt.import_file(write(tmp_path, xml)), "soma", "soma").puzzles[0]
    counted = puzzle.count()
    # Berlekamp, Conway and Guy, Winning Ways: 240 solutions up to the cube's 48
    # symmetries, 11,520 as placed
    assert (counted.solutions, counted.distinct) == (11520, 240)


def test_the_pentominoes_file_in_tests_data_is_the_catalog_puzzle():
    """tests/data/pentominoes-6x10.xmpuzzle (written for the docs, pieces standing in all
    three planes) imports as the catalog's pentomino-6x10, piece for piece up to turning
    and flipping; docs/import-export.md counts it (9356 and 2339, as the catalog)."""
    from puzzlebox import catalog
    from puzzlebox.geometry import orientations

    data = Path(__file__).parent / "data" / "pentominoes-6x10.xmpuzzle"
    imported = read_text(bt.import_file(data), "x", "x").puzzles[0]
    known = catalog.load_file("pentomino-6x10").puzzles[0]
    assert sorted(imported.board) == sorted(known.board)
    ours = {p.name: set(orientations(p.shape)) for p in imported.pieces}
    assert ours == {p.name: set(orientations(p.shape)) for p in known.pieces}


def test_a_piece_larger_than_the_result_is_refused_by_the_reader(tmp_path, capsys):
    xml = puzzle_xml([shape_xml(flat("##")), shape_xml(flat("#")), shape_xml(flat("###"))],
                     [problem_xml([(1, 2, 2), (2, 0, 1)], 0)])
    code, _, err = run(capsys, "import", write(tmp_path, xml))
    assert code == 2 and "reader refuses the result" in err and "more than the board" in err


# -- triangular prisms: the triangle lattice ---------------------------------------------------


def _bt_triangle_neighbours(x: int, y: int) -> set[tuple[int, int]]:
    """BurrTools' voxel_1 neighbours in a layer: x - 1, x + 1, and y - 1 for a triangle
    with x + y even (its base below), y + 1 for one with x + y odd."""
    return {(x - 1, y), (x + 1, y), (x, y - 1 if (x + y) % 2 == 0 else y + 1)}


def _our_triangle_neighbours(r: int, c: int) -> set[tuple[int, int]]:
    """The contract: [row, col] points up when row + col is even; its third neighbour is
    row + 1 (up) or row - 1 (down)."""
    return {(r, c - 1), (r, c + 1), (r + 1 if (r + c) % 2 == 0 else r - 1, c)}


@pytest.mark.parametrize("seed", range(6))
def test_flat_prisms_become_triangles_with_the_same_neighbours(tmp_path, seed):
    rng = random.Random(seed)
    voxels = {(x, y, 0) for x in range(7) for y in range(4) if rng.random() < 0.7}
    voxels.add((rng.randrange(3), 3, 0))
    xml = puzzle_xml([shape_xml(voxels), shape_xml({(0, 0, 0)})],
                     [problem_xml([(1, len(voxels), len(voxels))], 0)], grid=1)
    doc = tomllib.loads(bt.import_file(write(tmp_path, xml)))
    assert doc["lattice"] == "triangle"
    assert doc["rules"]["reflect"] is True  # a prism turned over is the mirror image
    rows = doc["board"]["grid"].strip("\n").split("\n")
    ours = {(r, c) for r, row in enumerate(rows) for c, ch in enumerate(row) if ch == "#"}
    assert len(ours) == len(voxels)
    # rows count down where BurrTools' y counts up; a translation does the rest
    top = min(r for r, _ in ours) + max(y for _, y, _ in voxels)
    dc = min(c for _, c in ours) - min(x for x, _, _ in voxels)
    assert {(top - y, x + dc) for x, y, _ in voxels} == ours
    for x, y, _ in voxels:
        cell = (top - y, x + dc)
        assert ((x + y) % 2 == 0) == (sum(cell) % 2 == 0)  # up stays up
        here = {(top - b, a + dc) for a, b in _bt_triangle_neighbours(x, y)
                if (a, b, 0) in voxels}
        assert here == _our_triangle_neighbours(*cell) & ours


def test_a_thick_prism_puzzle_imports_in_layers(tmp_path, capsys):
    """Prisms stacked (#37): BurrTools' z layers become the prism lattice's layers."""
    xml = puzzle_xml([shape_xml({(0, 0, 0), (0, 0, 1), (1, 0, 1)}),
                      shape_xml({(0, 0, 0), (1, 0, 0)}), shape_xml({(0, 0, 0)})],
                     [problem_xml([(1, 1, 1), (2, 1, 1)], 0)], grid=1)
    code, out, err = run(capsys, "import", write(tmp_path, xml))
    assert code == 0, err
    doc = tomllib.loads(out)
    assert doc["lattice"] == "prism" and doc["board"]["grid"] == ["#.", "##"]
    assert doc["rules"] == {"rotate": True, "reflect": False}
    # the pair side by side (sharing a side face) lies in the top layer: it cannot stand
    # up, two prisms stacked share a triangle instead
    assert read_text(out, "x", "x").puzzles[0].count().solutions == 1


def test_tetrahedra_and_octahedra_import_as_burrtools_places_them(tmp_path, capsys):
    """Grid 4 (#37): a unit cube of BurrTools' positions (its tetrahedron at the centre,
    four octahedron eighths at corners) filled by a tetrahedron with an eighth and three
    eighths: the eighth goes on any of the four corners, one way up to symmetry."""
    cube = {(1, 1, 1), (2, 0, 0), (0, 2, 0), (0, 0, 2), (2, 2, 2)}
    xml = puzzle_xml([shape_xml(cube), shape_xml({(1, 1, 1), (2, 0, 0)}),
                      shape_xml({(2, 0, 0)})],
                     [problem_xml([(1, 1, 1), (2, 3, 3)], 0)], grid=4)
    code, out, err = run(capsys, "import", write(tmp_path, xml))
    assert code == 0, err
    doc = tomllib.loads(out)
    assert doc["lattice"] == "tetra-octa" and doc["rules"]["reflect"] is False
    counted = read_text(out, "x", "x").puzzles[0].count()
    assert (counted.solutions, counted.distinct) == (4, 1)


@pytest.mark.parametrize("grid, words", [(9, "unknown")])
def test_other_grids_are_refused_by_name(tmp_path, capsys, grid, words):
    xml = puzzle_xml([shape_xml({(0, 0, 0)}), shape_xml({(0, 0, 0)})],
                     [problem_xml([(1, 1, 1)], 0)], grid=grid)
    code, _, err = run(capsys, "import", write(tmp_path, xml))
    assert code == 2 and f"grid type {grid}" in err and words in err
    assert err.count("\n") == 1


# -- counts, colours, variable voxels -----------------------------------------------------------


def test_counts_and_ranges_map_and_unused_shapes_are_left_out(tmp_path):
    xml = puzzle_xml([shape_xml(flat("####")), shape_xml(flat("#")), shape_xml(flat("##")),
                      shape_xml(flat("###"))],
                     [problem_xml([(1, 0, 4), (2, 2, 2), (3, 0, 0)], 0)])
    doc = tomllib.loads(bt.import_file(write(tmp_path, xml)))
    assert doc["pieces"] == {"S2": {"shape": "#", "count": [0, 4]},
                             "S3": {"shape": "##", "count": 2}}


def test_a_range_over_the_limit_is_refused(tmp_path, capsys):
    xml = puzzle_xml([shape_xml(flat("##")), shape_xml(flat("#"))],
                     [problem_xml([(1, 0, 20000)], 0)])
    code, _, err = run(capsys, "import", write(tmp_path, xml))
    assert code == 2 and "up to 20000 times; the limit is 10000" in err


def test_each_colour_on_itself_becomes_match_colors(tmp_path):
    board = {v: (1 if v[0] < 2 else 2) for v in flat("####/####")}
    red = {(0, 0, 0): 1, (1, 0, 0): 1}
    blue = {(0, 0, 0): 2, (1, 0, 0): 2}
    xml = puzzle_xml([shape_xml(board), shape_xml(red, "red"), shape_xml(blue, "blue")],
                     [problem_xml([(1, 2, 2), (2, 2, 2)], 0, pairs=[(0, 0), (1, 1)])],
                     colours=2)
    text = bt.import_file(write(tmp_path, xml))
    doc = tomllib.loads(text)
    assert doc["rules"]["match_colors"] is True
    assert doc["board"]["grid"].strip() == "aabb\naabb"  # a multi-line string of rows
    assert doc["pieces"]["red"]["shape"] == "aa"
    assert "# a: BurrTools colour 1 (#c80a0a)" in text
    puzzle = read_text(text, "x", "x").puzzles[0]
    oracle = polyomino_solutions(
        {(r, c): "ab"[c // 2] for r in range(2) for c in range(4)},
        [("red", {(0, 0): "a", (0, 1): "a"}, 2, 2), ("blue", {(0, 0): "b", (0, 1): "b"}, 2, 2)],
        True, True, True)
    assert puzzle.count().solutions == len(oracle) == 4


def test_colours_without_rules_that_bite_are_dropped(tmp_path):
    board = {v: 1 for v in flat("####")}
    xml = puzzle_xml([shape_xml(board), shape_xml(flat("##"))],  # neutral pieces: go anywhere
                     [problem_xml([(1, 2, 2)], 0)], colours=1)
    doc = tomllib.loads(bt.import_file(write(tmp_path, xml)))
    assert "match_colors" not in doc["rules"] and doc["board"]["grid"].strip() == "####"


def test_colour_rules_other_than_equal_colours_are_refused(tmp_path, capsys):
    board = {v: 1 + v[0] % 2 for v in flat("####")}
    piece = {(0, 0, 0): 1, (1, 0, 0): 2}
    # colour 1 on 1 and colour 2 on 1: not "each colour only on itself"
    xml = puzzle_xml([shape_xml(board), shape_xml(piece)],
                     [problem_xml([(1, 2, 2)], 0, pairs=[(0, 0), (1, 0)])], colours=2)
    code, _, err = run(capsys, "import", write(tmp_path, xml))
    assert code == 2 and "colour rules" in err


def _neutral_brute(board: dict[tuple[int, int], str],
                   pieces: list[tuple[str, dict[tuple[int, int], str]]]) -> int:
    """Tilings of ``board`` by any number of each piece (turned and flipped), a piece cell
    on a board cell of its colour or either of them neutral ('#'): an independent count."""
    def images(cells: dict[tuple[int, int], str]) -> list[list[tuple[tuple[int, int], str]]]:
        out = []
        items = list(cells.items())
        for _ in range(2):
            for _ in range(4):
                items = [((c, -r), k) for (r, c), k in items]
                out.append(items)
            items = [((r, -c), k) for (r, c), k in items]
        return out

    options = set()
    for name, cells in pieces:
        for image in images(cells):
            for (br, bc) in board:
                (r0, c0), _ = image[0]
                moved = [((r - r0 + br, c - c0 + bc), k) for (r, c), k in image]
                if all(cell in board and "#" in (board[cell], k) or board.get(cell) == k
                       for cell, k in moved):
                    options.add((name, frozenset(cell for cell, _ in moved)))
    order = sorted(board)
    found = set()

    def go(covered: frozenset, chosen: frozenset) -> None:
        free = [c for c in order if c not in covered]
        if not free:
            found.add(chosen)
            return
        for name, cells in options:
            if free[0] in cells and not cells & covered:
                go(covered | cells, chosen | {(name, cells)})

    go(frozenset(), frozenset())
    return len(found)


def test_neutral_voxels_among_coloured_ones_become_rules_neutral(tmp_path):
    # red (1) on red, black (2) on black, and neutral voxels (0), on the board or on a
    # piece, anywhere: Dracula's Dental Disaster's rule (#24), [rules] neutral = "#"
    board = {v: (0 if v in {(1, 0, 0), (2, 1, 0)} else 1 if v[0] < 2 else 2)
             for v in flat("####/####")}
    red = {(0, 0, 0): 1, (1, 0, 0): 1}
    black = {(0, 0, 0): 2, (1, 0, 0): 2}
    tooth = {(0, 0, 0): 1, (1, 0, 0): 0}
    xml = puzzle_xml([shape_xml(board), shape_xml(red, "red"), shape_xml(black, "black"),
                      shape_xml(tooth, "tooth")],
                     [problem_xml([(1, 0, 4), (2, 0, 4), (3, 0, 4)], 0,
                                  pairs=[(0, 0), (1, 1)])], colours=2)
    text = bt.import_file(write(tmp_path, xml))
    doc = tomllib.loads(text)
    assert doc["rules"]["match_colors"] is True and doc["rules"]["neutral"] == "#"
    assert doc["board"]["grid"].strip() == "a#bb\naa#b"
    assert "# #: BurrTools' neutral colour (on any colour)" in text
    puzzle = read_text(text, "x", "x").puzzles[0]
    grid = {(r, c): ch for r, row in enumerate(["a#bb", "aa#b"]) for c, ch in enumerate(row)}
    expected = _neutral_brute(grid, [("red", {(0, 0): "a", (0, 1): "a"}),
                                     ("black", {(0, 0): "b", (0, 1): "b"}),
                                     ("tooth", {(0, 0): "a", (0, 1): "#"})])
    assert puzzle.count().solutions == expected
    # the neutral cells matter: without the rule fewer (or no) tilings fit
    strict = read_text(text.replace('neutral = "#"\n', ""), "y", "y").puzzles[0]
    assert strict.count().solutions < expected


def test_a_neutral_colour_needs_matched_colours(tmp_path, capsys):
    path = tmp_path / "n.toml"
    path.write_text('[board]\ngrid = "##"\n[pieces]\nD = "##"\n[rules]\nneutral = "#"\n')
    code, _, err = run(capsys, "count", path)
    assert code == 2 and err.count("\n") == 1 and "match_colors" in err
    path.write_text('[board]\ngrid = "##"\n[pieces]\nD = "##"\n[rules]\n'
                    'match_colors = true\nneutral = "##"\n')
    code, _, err = run(capsys, "count", path)
    assert code == 2 and err.count("\n") == 1 and "rules.neutral" in err


def test_a_given_may_lie_on_neutral_cells(tmp_path, capsys):
    # "ab" on "a#": the neutral cell takes the b; on "bb" it is refused in one line
    rules = '[rules]\nmatch_colors = true\nneutral = "#"\n'
    path = tmp_path / "g.toml"
    path.write_text('[board]\ngrid = "a#/bb"\n[pieces]\nX = "ab"\nB = "b#"\n'
                    '[[givens]]\npiece = "X"\ncells = [[0, 0], [0, 1]]\n' + rules)
    code, out, _ = run(capsys, "count", path)
    assert code == 0 and "1 solution" in out
    code, out, _ = run(capsys, "show", path)
    assert code == 0 and "colours must match, # goes with any colour" in out
    path.write_text('[board]\ngrid = "a#/bb"\n[pieces]\nX = "ab"\nB = "b#"\n'
                    '[[givens]]\npiece = "X"\ncells = [[1, 0], [1, 1]]\n' + rules)
    code, _, err = run(capsys, "count", path)
    assert code == 2 and err.count("\n") == 1 and "given" in err


def test_variable_voxels_become_optional_cells(tmp_path, capsys):
    # the result ### with a fourth voxel that may stay empty, and 0..4 monominoes (#24)
    xml = puzzle_xml([shape_xml(flat("###"), variable={(3, 0, 0)}), shape_xml(flat("#"))],
                     [problem_xml([(1, 0, 4)], 0)])
    code, out, err = run(capsys, "import", write(tmp_path, xml))
    assert code == 0, err
    assert 'optional = "...+"' in out
    toml = tmp_path / "p.toml"
    toml.write_text(out)
    code, out, _ = run(capsys, "count", str(toml), "--json")
    assert code == 0 and '"solutions": 2' in out  # the fourth cell empty or filled
    # a piece's variable voxels mean nothing: refused, with their number
    xml = puzzle_xml([shape_xml(flat("###")), shape_xml(flat("#"), variable={(1, 0, 0)})],
                     [problem_xml([(1, 0, 4)], 0)])
    code, _, err = run(capsys, "import", write(tmp_path, xml))
    assert code == 2 and "has 1 variable voxels" in err


# -- problems, names, the command ---------------------------------------------------------------


def _two_problems() -> str:
    return puzzle_xml([shape_xml(flat("##")), shape_xml(flat("#")), shape_xml(flat("###"))],
                      [problem_xml([(1, 2, 2)], 0, name="small"),
                       problem_xml([(1, 3, 3)], 2, name="large")])


def test_several_problems_need_a_choice(tmp_path, capsys):
    path = write(tmp_path, _two_problems())
    code, _, err = run(capsys, "import", path)
    assert code == 2 and err.strip().endswith(
        "2 problems: choose one (1 'small', 2 'large') (--problem NAME|N)")
    code, out, _ = run(capsys, "import", path, "--problem", "large")
    assert code == 0 and tomllib.loads(out)["board"]["grid"].strip() == "###"
    code, out, _ = run(capsys, "import", path, "--problem", "1")
    assert code == 0 and tomllib.loads(out)["title"] == "small"
    code, _, err = run(capsys, "import", path, "--problem", "3")
    assert code == 2 and "no problem '3'" in err


def test_import_writes_the_file_named_by_out(tmp_path, capsys):
    out_file = tmp_path / "out.toml"
    code, out, _ = run(capsys, "import", write(tmp_path, _cube_problem()), "-o", out_file)
    assert code == 0 and out.strip() == str(out_file)
    assert tomllib.loads(out_file.read_text())["lattice"] == "cube"


def test_names_with_any_characters_come_out_as_valid_toml(tmp_path):
    xml = puzzle_xml([shape_xml(flat("##")), shape_xml(flat("#"),
                                                        'a &quot;q&quot; \\ &amp; &#127; x'),
                      shape_xml(flat("#"), "twin"), shape_xml(flat("#"), "twin")],
                     [problem_xml([(1, 1, 1), (2, 0, 1), (3, 0, 1)], 0)],
                     comment="line one\nline &lt;two&gt;")
    doc = tomllib.loads(bt.import_file(write(tmp_path, xml)))
    # the duplicated name falls back to BurrTools' own S<n> names
    assert set(doc["pieces"]) == {'a "q" \\ & \x7f x', "S3", "S4"}
    assert doc["notes"] == "line one\nline <two>"


def test_latin1_text_without_a_declaration_is_read(tmp_path):
    xml = puzzle_xml([shape_xml(flat("##")), shape_xml(flat("#"))],
                     [problem_xml([(1, 2, 2)], 0)], comment="Designed by: Markus G\xf6tz")
    path = tmp_path / "latin.xmpuzzle"
    path.write_bytes(gzip.compress(xml.encode("latin-1")))
    assert tomllib.loads(bt.import_file(path))["notes"] == "Designed by: Markus G\xf6tz"


# -- hostile files --------------------------------------------------------------------------------


@pytest.mark.parametrize("xml, words", [
    ('<?xml version="1.0"?>\n<!DOCTYPE lolz [<!ENTITY lol "lol">]>\n<puzzle version="2">'
     "<comment>&lol;</comment></puzzle>", "document type declaration"),
    ('<puzzle version="2"><shapes><voxel x="2" y="1" z="1" type="0">#</voxel></shapes>'
     "</puzzle>", "1 voxels given for a 2 x 1 x 1 space"),
    ('<puzzle version="2"><shapes><voxel x="1" y="1" z="1" type="0">#?</voxel></shapes>'
     "</puzzle>", "unknown character '?'"),
    ('<puzzle version="2"><shapes><voxel x="1000" y="1000" z="1000" type="0"></voxel>'
     "</shapes></puzzle>", "the limit is 1000000 positions"),
    ('<puzzle version="2"><shapes><voxel x="1" y="1" z="1" type="0">#99</voxel></shapes>'
     "</puzzle>", "colour 99"),
    ('<puzzle version="3"></puzzle>', "version 1 or 2"),
    ("<html></html>", "not <puzzle>"),
    ('<puzzle version="2"><shapes><voxel x="1" y="1" type="0">#</voxel>', "'z' attribute"),
    ('<puzzle version="2"><shapes>', "not well-formed XML"),
    ('<puzzle version="2"><problems><problem><shapes><shape id="x"/></shapes></problem>'
     "</problems></puzzle>", "not a whole number"),
    ('<puzzle version="2">' + "<a>" * 100 + "</a>" * 100 + "</puzzle>", "nested more than"),
    ('<puzzle version="2"><shapes><voxel x="1" y="1" z="1" type="0">#</voxel></shapes>'
     '<problems><problem><shapes><shape id="0"/></shapes><result id="5"/></problem>'
     "</problems></puzzle>", "the result is shape 5, but the file has 1 shapes"),
    ('<puzzle version="2"><shapes><voxel x="1" y="1" z="1" type="0">3#</voxel></shapes>'
     "</puzzle>", "a colour number before the first voxel"),
    ("just text", "no XML: not a BurrTools file"),
])
def test_malformed_files_are_one_line_and_exit_2(tmp_path, capsys, xml, words):
    for zipped in (True, False):
        code, out, err = run(capsys, "import", write(tmp_path, xml, zipped=zipped))
        assert code == 2 and out == ""
        assert words in err, err
        assert err.count("\n") == 1 and "Traceback" not in err


def test_a_huge_number_is_too_large_not_a_fraction(tmp_path, capsys):
    """#38 item 9: a piece count of 25 digits was called "not a whole number"."""
    for count, shown in (("9" * 25, "99999999999999999999... (25 digits)"),
                         ("3000000000", "3000000000")):
        xml = ('<puzzle version="2"><shapes><voxel x="1" y="1" z="1" type="0">#</voxel>'
               f'</shapes><problems><problem><shapes><shape id="0" count="{count}"/></shapes>'
               '<result id="0"/></problem></problems></puzzle>')
        code, out, err = run(capsys, "import", write(tmp_path, xml))
        assert code == 2 and out == ""
        assert f"<shape> count={shown} is too large: the limit is 2147483648" in err, err
        assert "whole number" not in err and err.count("\n") == 1


def test_a_gzip_bomb_stops_at_the_cap(tmp_path, capsys, monkeypatch):
    monkeypatch.setattr(bt, "MAX_XML_BYTES", 1 << 20)
    path = tmp_path / "bomb.xmpuzzle"
    path.write_bytes(gzip.compress(b"<puzzle>" + b" " * (8 << 20)))  # 8 MiB from 8 KiB
    assert path.stat().st_size < 64 << 10
    code, _, err = run(capsys, "import", path)
    assert code == 2 and "decompresses to more than 1048576 bytes" in err


def test_voxel_spaces_are_capped_for_the_whole_file(tmp_path, capsys):
    empty = '<voxel x="100" y="100" z="100" type="0">' + "_" * 999_999 + "#</voxel>"
    xml = '<puzzle version="2"><shapes>' + empty * 5 + "</shapes></puzzle>"
    code, _, err = run(capsys, "import", write(tmp_path, xml))
    assert code == 2 and "the voxel spaces so far have 5000000 positions; the limit for a " \
        "file is 4000000" in err  # refused before the voxels are expanded
    full = '<voxel x="1000" y="300" z="1" type="0">' + "#" * 300_000 + "</voxel>"
    code, _, err = run(capsys, "import", write(tmp_path, '<puzzle version="2"><shapes>'
                                               + full + "</shapes></puzzle>"))
    assert code == 2 and "300000 filled voxels; the limit for a file is 200000" in err


def test_truncated_and_corrupted_gzip_never_give_a_traceback(tmp_path, capsys):
    data = gzip.compress(_cube_problem().encode(), mtime=0)
    rng = random.Random(17)
    path = tmp_path / "bad.xmpuzzle"
    for i in range(60):
        bad = bytearray(data[: rng.randrange(2, len(data))] if i % 2 else data)
        for _ in range(rng.randrange(1, 4)):
            bad[rng.randrange(len(bad))] = rng.randrange(256)
        path.write_bytes(bytes(bad))
        code, _, err = run(capsys, "import", path)
        assert code in (0, 2)
        assert "Traceback" not in err and (code == 0 or err.count("\n") == 1)


def test_a_missing_file_is_one_line(tmp_path, capsys):
    code, _, err = run(capsys, "import", tmp_path / "none.xmpuzzle")
    assert code == 2 and "cannot read" in err


# -- BurrTools' own example files, where a copy is at hand ---------------------------------------

EXAMPLES = os.environ.get("BURRTOOLS_EXAMPLES")


@pytest.mark.skipif(not EXAMPLES, reason="set BURRTOOLS_EXAMPLES to a folder of BurrTools' "
                    "examples/*.xmpuzzle to check them")
def test_burrtools_examples(capsys):  # pragma: no cover - needs the files
    folder = Path(str(EXAMPLES))
    # AlPackino (Ronald Kint-Bruynseels): a box and 12 pieces filling a 6 x 6 x 5 block
    doc = tomllib.loads(bt.import_file(folder / "AlPackino.xmpuzzle"))
    assert doc["lattice"] == "cube" and len(doc["board"]["grid"]) == 5
    assert {name: (v["count"] if isinstance(v, dict) else 1)
            for name, v in doc["pieces"].items()} == {"Box": 1, "S2": 4, "S3": 4, "S4": 4}
    # BurrTools recorded one assembly (up to symmetry) for it: puzzlebox finds one too
    counted = read_text(bt.import_file(folder / "AlPackino.xmpuzzle"), "al", "al")
    assert counted.puzzles[0].count().distinct == 1
    # every example either converts or is refused in one line (grids, '+' voxels, choices)
    for path in sorted(folder.glob("*.xmpuzzle")):
        code, out, err = run(capsys, "import", path)
        assert (code == 0 and tomllib.loads(out)) or (code == 2 and err.count("\n") == 1)
        if code == 2:
            assert any(words in err for words in (
                "has no puzzlebox lattice", "variable voxels", "--problem NAME|N",
                "no problem (nothing to solve)", "more than one layer")), err
