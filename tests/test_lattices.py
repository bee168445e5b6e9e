"""The four lattices checked against facts that could be false (#14).

The groups are checked as maps (size, distinctness, closure, neighbours kept); the
independent check of groups *and* normal forms together is the enumeration of polyforms,
whose counts are published (OEIS): fixed, one-sided and free polyiamonds, polyhexes and
polycubes. A wrong map, a missing one or a normal form that is not unique changes them.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from itertools import product

import pytest
from hypothesis import given
from hypothesis import strategies as st

from puzzlebox.geometry.lattice import Cell, GridError, Lattice, Shape, lattice_named, lattice_names

SQUARE = lattice_named("square")
TRIANGLE = lattice_named("triangle")
HEXAGON = lattice_named("hexagon")
CUBE = lattice_named("cube")
ALL = [SQUARE, TRIANGLE, HEXAGON, CUBE]
FLAT = [SQUARE, TRIANGLE, HEXAGON]

# name: (group size, proper ones, neighbours of a cell)
SIZES = {"square": (8, 4, 4), "triangle": (12, 6, 3), "hexagon": (12, 6, 6), "cube": (48, 24, 6)}


def patch(lattice: Lattice, radius: int = 3) -> list[Cell]:
    return list(product(range(-radius, radius + 1), repeat=lattice.dimensions))


def key(lattice: Lattice, f: Callable[[Cell], Cell]) -> Shape:
    """A map of the lattice up to translation: the normal form of a small patch whose cells
    all have different colours (so no symmetry of the patch can hide a difference)."""
    cells = patch(lattice, 1)
    return lattice.normalize({f(c): chr(65 + i) for i, c in enumerate(cells)})


def test_registry_has_the_lattices() -> None:
    assert list(lattice_names()) == ["cube", "hexagon", "prism", "rhombic", "sphere", "square",
                                     "tetra-octa", "triangle"]
    for lattice in ALL:
        assert lattice_named(lattice.name) is lattice
    with pytest.raises(KeyError, match="known"):
        lattice_named("octagon")


@pytest.mark.parametrize("lattice", ALL, ids=lambda lat: lat.name)
def test_group_is_a_group_of_distinct_maps(lattice: Lattice) -> None:
    size, proper, _ = SIZES[lattice.name]
    group = lattice.group()
    assert len(group) == size
    assert len({t.name for t in group}) == size
    assert sum(t.proper for t in group) == proper
    assert all(group[0](c) == c for c in patch(lattice))
    keys = {key(lattice, t): t for t in group}
    assert len(keys) == size  # distinct as maps, even up to translation
    for a in group:
        for b in group:
            product_key = key(lattice, lambda c, a=a, b=b: a(b(c)))
            assert product_key in keys, (a.name, b.name)
            assert keys[product_key].proper == (a.proper == b.proper)


@pytest.mark.parametrize("lattice", ALL, ids=lambda lat: lat.name)
def test_transforms_and_allowed_translations_keep_neighbours(lattice: Lattice) -> None:
    _, _, degree = SIZES[lattice.name]
    cells = patch(lattice, 2 if lattice.dimensions == 3 else 3)
    for cell in cells:
        near = lattice.neighbours(cell)
        assert len(set(near)) == degree
        assert all(cell in lattice.neighbours(n) for n in near)
    for t in lattice.group():
        for cell in cells:
            images = set(lattice.neighbours(t(cell)))
            assert {t(n) for n in lattice.neighbours(cell)} == images, t.name
    for vector in patch(lattice, 2):
        if not lattice.can_translate(vector):
            continue
        for cell in cells:
            moved = tuple(a + b for a, b in zip(cell, vector))
            shifted = {tuple(a + b for a, b in zip(n, vector)) for n in lattice.neighbours(cell)}
            assert shifted == set(lattice.neighbours(moved))


def test_translations_of_the_triangle_lattice_keep_triangles_pointing_the_same_way() -> None:
    assert TRIANGLE.can_translate((1, 1)) and TRIANGLE.can_translate((0, 2))
    assert not TRIANGLE.can_translate((1, 0)) and not TRIANGLE.can_translate((0, -1))
    assert all(lat.can_translate((1, 0, 0)[: lat.dimensions]) for lat in (SQUARE, HEXAGON, CUBE))


@pytest.mark.parametrize("lattice", ALL, ids=lambda lat: lat.name)
def test_orientation_transforms_follow_the_rules(lattice: Lattice) -> None:
    group = lattice.group()
    both = lattice.orientation_transforms(True, True)
    assert set(both) == set(group) and both[0] == group[0]
    rotations = lattice.orientation_transforms(True, False)
    assert rotations[0] == group[0] and set(rotations) == {t for t in group if t.proper}
    assert lattice.orientation_transforms(False, False) == (group[0],)
    ident, mirror = lattice.orientation_transforms(False, True)
    assert ident == group[0] and not mirror.proper
    if lattice is HEXAGON:
        # col -> -col of the picture: x = q + r/2 changes sign, the row stays
        for r, q in patch(lattice):
            r2, q2 = mirror((r, q))
            assert r2 == r and q2 + r2 / 2 == -(q + r / 2)
    else:
        for cell in patch(lattice):
            assert mirror(cell) == (*cell[:-1], -cell[-1])


def test_flat_pieces_turn_over_by_rotations_of_space() -> None:
    l_tromino = CUBE.parse("#./##")
    shape = CUBE.normalize(l_tromino)
    flat = CUBE.normalize({(0, r, -c): "#" for _, r, c in l_tromino})
    assert flat in CUBE.orientations(shape, rotate=True, reflect=False)
    assert CUBE.orientations(shape, rotate=False, reflect=True) == [shape, flat]
    assert CUBE.orientations(shape, rotate=False, reflect=False) == [shape]
    assert len(CUBE.orientations(shape, rotate=True, reflect=False)) == 12  # 3 planes x 4


def _polyforms(lattice: Lattice, n: int, rotate: bool, reflect: bool) -> list[int]:
    """How many n-cell connected shapes there are for 1..n, up to translation and the
    orientations the rules allow: grown cell by cell, each kept in its least orientation."""
    return [len(level) for level in _levels(lattice, n, rotate, reflect)]


def _free_shapes(lattice: Lattice, n: int) -> set[Shape]:
    return _levels(lattice, n, True, True)[-1]


def _levels(lattice: Lattice, n: int, rotate: bool, reflect: bool) -> list[set[Shape]]:

    def canonical(cells: set[Cell]) -> Shape:
        shape = lattice.normalize({c: "#" for c in cells})
        return min(lattice.orientations(shape, rotate, reflect), key=lambda s: s.cells)

    origin = (0,) * lattice.dimensions
    level = {canonical({cell}) for cell in [origin, *lattice.neighbours(origin)]}
    levels = [level]
    for _ in range(n - 1):
        grown: set[Shape] = set()
        for shape in level:
            cells = set(shape.cells)
            for cell in cells:
                for near in lattice.neighbours(cell):
                    if near not in cells:
                        grown.add(canonical(cells | {near}))
        level = grown
        levels.append(level)
    return levels


# (lattice, sizes up to, fixed, one-sided, free): OEIS A001168/A000988/A000105 (square),
# A001420/A006534/A000577 (triangle), A001207/A006535/A000228 (hexagon),
# A001931/A000162/A038119 (cube; "one-sided" = rotations of space only).
POLYFORMS = [
    (SQUARE, 6, [1, 2, 6, 19, 63, 216], [1, 1, 2, 7, 18, 60], [1, 1, 2, 5, 12, 35]),
    (TRIANGLE, 6, [2, 3, 6, 14, 36, 94], [1, 1, 1, 4, 6, 19], [1, 1, 1, 3, 4, 12]),
    (HEXAGON, 5, [1, 3, 11, 44, 186], [1, 1, 3, 10, 33], [1, 1, 3, 7, 22]),
    (CUBE, 5, [1, 3, 15, 86, 534], [1, 1, 2, 8, 29], [1, 1, 2, 7, 23]),
]


@pytest.mark.parametrize(
    "lattice,n,fixed,one_sided,free", POLYFORMS, ids=lambda x: getattr(x, "name", "")
)
def test_polyform_counts(
    lattice: Lattice, n: int, fixed: list[int], one_sided: list[int], free: list[int]
) -> None:
    assert _polyforms(lattice, n, rotate=False, reflect=False) == fixed
    assert _polyforms(lattice, n, rotate=True, reflect=False) == one_sided
    assert _polyforms(lattice, n, rotate=True, reflect=True) == free


def test_twelve_hexiamonds_and_their_orientations() -> None:
    # the 12 free hexiamonds: their orientations under all 12 maps are the 94 fixed ones
    # (every fixed hexiamond is an orientation of exactly one free one)
    free = _free_shapes(TRIANGLE, 6)
    assert len(free) == 12
    assert sum(len(TRIANGLE.orientations(s)) for s in free) == 94
    bar = TRIANGLE.normalize(TRIANGLE.parse("######"))  # the parallelogram strip
    hexagon = TRIANGLE.normalize(TRIANGLE.parse("###/###"))
    assert len(TRIANGLE.orientations(hexagon)) == 1
    assert len(TRIANGLE.orientations(bar)) == 6  # 3 directions x its mirror image
    assert len(TRIANGLE.orientations(bar, rotate=True, reflect=False)) == 3


@st.composite
def shapes(draw: st.DrawFn, lattice: Lattice) -> dict[Cell, str]:
    cells = draw(st.lists(st.sampled_from(patch(lattice, 2)), min_size=1, max_size=8, unique=True))
    return {cell: draw(st.sampled_from("#ab")) for cell in cells}


@pytest.mark.parametrize("lattice", ALL, ids=lambda lat: lat.name)
@given(data=st.data())
def test_normal_forms_are_unique_up_to_allowed_translations(
    lattice: Lattice, data: st.DataObject
) -> None:
    cells = data.draw(shapes(lattice))
    vector = data.draw(st.tuples(*[st.integers(-5, 5)] * lattice.dimensions))
    shape = lattice.normalize(cells)
    moved = {tuple(a + b for a, b in zip(c, vector)): col for c, col in cells.items()}
    if lattice.can_translate(vector):
        assert lattice.normalize(moved) == shape
    # the normal form is a translate of the cells by an allowed vector, in normal position
    offset = lattice.normalize_offset(cells)
    assert lattice.can_translate(offset)
    lows = [min(c[i] for c in shape.cells) for i in range(lattice.dimensions)]
    if lattice is TRIANGLE:
        assert lows[0] == 0 and lows[1] in (0, 1)
    else:
        assert lows == [0] * lattice.dimensions
    # orientations: each is the image of one transform, and transforming any of them
    # again gives an orientation of the same set (closure under the allowed maps)
    group_orientations = lattice.orientations(shape)
    for other in group_orientations[:3]:
        assert set(lattice.orientations(other)) == set(group_orientations)


def test_triangle_normal_form_keeps_directions() -> None:
    down = TRIANGLE.normalize({(5, 2): "#"})  # odd sum: down
    assert down.cells == ((0, 1),)
    up = TRIANGLE.normalize({(5, 3): "#"})
    assert up.cells == ((0, 0),)


def _shared_vertices(a: list[tuple[float, float]], b: list[tuple[float, float]]) -> int:
    return sum(1 for p in a for q in b if math.dist(p, q) < 1e-9)


@pytest.mark.parametrize("lattice", FLAT, ids=lambda lat: lat.name)
def test_polygons_touch_exactly_where_cells_are_neighbours(lattice: Lattice) -> None:
    cells = patch(lattice, 2)
    polygons = {c: lattice.polygon(c) for c in cells}
    for a in cells:
        pa = polygons[a]
        assert pa is not None
        for b in cells:
            pb = polygons[b]
            assert pb is not None
            if a == b:
                continue
            if b in lattice.neighbours(a):
                assert _shared_vertices(pa, pb) == 2
            # cells never overlap: their centres are at least a cell's inradius*2 apart
            ca = (sum(x for x, _ in pa) / len(pa), sum(y for _, y in pa) / len(pa))
            cb = (sum(x for x, _ in pb) / len(pb), sum(y for _, y in pb) / len(pb))
            assert math.dist(ca, cb) > 0.5


def test_triangle_polygons() -> None:
    h = math.sqrt(3) / 2
    up = TRIANGLE.polygon((0, 0))
    down = TRIANGLE.polygon((0, 1))
    assert up is not None and down is not None
    assert min(up, key=lambda p: p[1]) == pytest.approx((0.5, 0.0))  # apex at the top
    assert sorted(y for _, y in up) == pytest.approx([0.0, h, h])
    assert sorted(y for _, y in down) == pytest.approx([0.0, 0.0, h])
    for poly in (up, down):
        sides = [math.dist(poly[i], poly[i - 1]) for i in range(3)]
        assert sides == pytest.approx([1.0, 1.0, 1.0])


def test_hexagon_of_seven_cells_is_regular() -> None:
    cells = HEXAGON.parse(".##/###/##.")
    assert len(cells) == 7 and HEXAGON.is_connected(cells)
    centre = (1, 1)
    assert set(HEXAGON.neighbours(centre)) == set(cells) - {centre}
    centres = {}
    for c in cells:
        poly = HEXAGON.polygon(c)
        assert poly is not None and len(poly) == 6
        sides = [math.dist(poly[i], poly[i - 1]) for i in range(6)]
        assert sides == pytest.approx([sides[0]] * 6)
        centres[c] = (sum(x for x, _ in poly) / 6, sum(y for _, y in poly) / 6)
        assert max(p[1] for p in poly) - min(p[1] for p in poly) > 1.0  # pointy top
    ring = [math.dist(centres[centre], centres[c]) for c in cells if c != centre]
    assert ring == pytest.approx([1.0] * 6)
    assert len(HEXAGON.orientations(HEXAGON.normalize(cells))) == 1


def test_two_colourings() -> None:
    assert HEXAGON.two_colouring() is None
    triangle = TRIANGLE.two_colouring()
    assert triangle.name == "up and down triangles"
    assert (triangle.dark_word, triangle.light_word) == ("up", "down")
    assert triangle.is_dark((0, 0)) and not triangle.is_dark((0, 1))
    for lattice in (SQUARE, TRIANGLE, CUBE):
        colouring = lattice.two_colouring()
        assert colouring is not None
        cells = patch(lattice, 2)
        for c in cells:
            assert all(colouring.is_dark(n) != colouring.is_dark(c) for n in lattice.neighbours(c))
        for t in lattice.group():  # each map keeps the classes or exchanges them
            kept = {colouring.is_dark(t(c)) == colouring.is_dark(c) for c in cells}
            assert len(kept) == 1, t.name


def test_parse_flat_lattices() -> None:
    assert len(TRIANGLE.parse("###/###")) == 6
    assert TRIANGLE.is_connected(TRIANGLE.parse("###/###"))
    assert TRIANGLE.is_connected(TRIANGLE.parse("#/#"))  # a rhombus: up over down
    assert not TRIANGLE.is_connected(TRIANGLE.parse(".#/#."))  # (0,1) down, (1,0) down
    for lattice in FLAT:
        with pytest.raises(GridError, match='lattice = "cube"') as info:
            lattice.parse(["##", "##"])
        assert "\n" not in str(info.value)
        with pytest.raises(GridError):
            lattice.parse(3)


def test_parse_cube() -> None:
    cells = CUBE.parse(["##/#.", "#./.."])
    assert cells == {(0, 0, 0): "#", (0, 0, 1): "#", (0, 1, 0): "#", (1, 0, 0): "#"}
    assert CUBE.parse("##") == {(0, 0, 0): "#", (0, 0, 1): "#"}  # one layer: a flat piece
    assert CUBE.parse([]) == {}
    box = CUBE.parse(["###/###/###"] * 3)
    assert len(box) == 27 and CUBE.is_connected(box)
    with pytest.raises(
        GridError, match="^layer 2 has 2 rows, layer 0 has 3; write empty rows with dots$"
    ):
        CUBE.parse(["###/###/###", "###/###/###", "###/###"])
    with pytest.raises(GridError, match="layer 1 .* not int"):  # layers from 0 (#38)
        CUBE.parse(["#", 5])
    with pytest.raises(GridError, match="not dict"):
        CUBE.parse({"a": 1})
    assert not CUBE.is_connected(CUBE.parse(["#.", ".#"]))
    assert CUBE.polygon((0, 0, 0)) is None
    assert CUBE.text_position((2, 1, 3)) == (2, 1, 3)
    assert TRIANGLE.text_position((1, 3)) == (0, 1, 3)
    shape = CUBE.normalize(CUBE.parse(["##/#.", "#./.."]))
    assert (shape.depth, shape.height, shape.width) == (2, 2, 2)
    assert shape.to_text() == "##\n#.\n\n#.\n.."
