"""The engines on the triangle, hexagon and cube lattices (#14, item 3).

The engines see only a cover problem and a graph of cells, so nothing in them should care
which lattice a puzzle stands on. These tests hold them to that: every general engine gives
the reference engine's raw and distinct counts on random small puzzles of every lattice, the
bitboard engine fills a 256-cell box (four words of cells) to the count of a tiling counter
written here from scratch, and symmetry breaking works with the cube's 48 maps, including
the mirrors that exchange the Soma cube's two chiral pieces.
"""

from __future__ import annotations

from functools import cache
from itertools import permutations, product

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from puzzlebox.engine import registry
from puzzlebox.engine.registry import EngineDeclined
from puzzlebox.formats import read_text
from puzzlebox.geometry.lattice import Cell, Lattice, lattice_named

# bitboard, compiled and reference take every polyomino count; these may decline (saying why)
SOMETIMES = ("memo", "sat")

PATCHES: dict[str, list[Cell]] = {
    "triangle": [(r, c) for r in range(3) for c in range(6)],
    "hexagon": [(r, q) for r in range(3) for q in range(4)],
    "cube": [(lay, r, c) for lay in range(2) for r in range(2) for c in range(3)],
}


def grid_value(lattice: Lattice, cells: dict[Cell, str]) -> str:
    """The grid as a TOML value, the cells at the coordinates they have (no shifting: on
    triangle a shift by one column would turn every triangle over)."""
    if lattice.dimensions == 3:
        layers = max(c[0] for c in cells) + 1
        rows = max(c[1] for c in cells) + 1
        cols = max(c[2] for c in cells) + 1
        texts = [
            "/".join("".join(cells.get((lay, r, c), ".") for c in range(cols)) for r in range(rows))
            for lay in range(layers)
        ]
        return "[" + ", ".join(f'"{t}"' for t in texts) + "]"
    rows = max(c[0] for c in cells) + 1
    cols = max(c[1] for c in cells) + 1
    text = "/".join("".join(cells.get((r, c), ".") for c in range(cols)) for r in range(rows))
    return f'"{text}"'


@st.composite
def lattice_puzzles(draw: st.DrawFn) -> str:
    name = draw(st.sampled_from(sorted(PATCHES)))
    lattice = lattice_named(name)
    board = {cell: "#" for cell in PATCHES[name] if draw(st.integers(0, 5)) > 0}
    if not board:
        board = {PATCHES[name][0]: "#"}
    lines = [f'lattice = "{name}"', "[board]", f"grid = {grid_value(lattice, board)}", "[pieces]"]
    for i in range(draw(st.integers(1, 3))):
        size = draw(st.integers(1, min(4, len(board))))
        cells = {(0,) * lattice.dimensions}
        while len(cells) < size:
            cell = draw(st.sampled_from(sorted(cells)))
            cells.add(draw(st.sampled_from(lattice.neighbours(cell))))
        shape = lattice.normalize({c: "#" for c in cells})
        count = draw(st.sampled_from(["1", "2", "[0, 1]", "[1, 2]", "[0, 3]", '"any"']))
        lines.append(
            f"P{i} = {{ shape = {grid_value(lattice, shape.color_map())}, count = {count} }}"
        )
    if draw(st.integers(0, 2)) > 0:  # fillers, so that most puzzles have solutions
        # one single cell of each kind (up and down triangles are two shapes without turns)
        origin = (0,) * lattice.dimensions
        singles = {lattice.normalize({c: "#"}) for c in (origin, *lattice.neighbours(origin))}
        for k, single in enumerate(sorted(singles, key=lambda s: s.cells)):
            value = grid_value(lattice, single.color_map())
            lines.append(f'F{k} = {{ shape = {value}, count = "any" }}')
    lines += [
        "[rules]",
        f"rotate = {str(draw(st.booleans())).lower()}",
        f"reflect = {str(draw(st.booleans())).lower()}",
    ]
    return "\n".join(lines)


REFERENCE_MAX = 2000  # the reference engine is plain Python: larger counts take seconds


@settings(max_examples=50, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(toml=lattice_puzzles())
def test_every_engine_agrees_with_the_reference_engine(toml: str) -> None:
    puzzle = read_text(toml, "<random>", "random").puzzles[0]
    first = puzzle.count(engine="bitboard")
    counts = {"bitboard": (first.solutions, first.distinct)}
    if first.solutions <= REFERENCE_MAX:
        expected = puzzle.count(engine="reference")
        counts["reference"] = (expected.solutions, expected.distinct)
    for engine in ("compiled", "memo", "sat"):
        if engine == "sat" and first.solutions > 20:
            continue  # CP-SAT enumerates with one solver call per solution: slow, not wrong
        try:
            result = puzzle.count(engine=engine)
        except EngineDeclined:
            assert engine in SOMETIMES, toml
            continue
        counts[engine] = (result.solutions, result.distinct)
    assert len(set(counts.values())) == 1, (counts, toml)


# -- a 256-cell box ------------------------------------------------------------------------


def _box_toml(layers: int, rows: int, cols: int, piece: str) -> str:
    layer = "/".join(["#" * cols] * rows)
    grid = ", ".join(f'"{layer}"' for _ in range(layers))
    return (
        f'lattice = "cube"\n[board]\ngrid = [{grid}]\n[pieces]\n'
        f'P = {{ shape = {piece}, count = "any" }}\n[rules]\nrotate = true\nreflect = true\n'
    )


def brick_tilings(box: tuple[int, int, int], brick: tuple[int, int, int]) -> int:
    """Tilings of a box by a cuboid brick in any of its axis-parallel positions, counted from
    scratch: the first empty cell in (layer, row, col) order is the corner of the brick that
    covers it; filled cells as a bit mask, memoised."""
    size = box[0] * box[1] * box[2]

    def index(cell: tuple[int, int, int]) -> int:
        return (cell[0] * box[1] + cell[1]) * box[2] + cell[2]

    cells = [(a, b, c) for a in range(box[0]) for b in range(box[1]) for c in range(box[2])]
    masks: dict[int, list[int]] = {i: [] for i in range(size)}
    for dims in set(permutations(brick)):
        for corner in cells:
            block = [
                tuple(x + d for x, d in zip(corner, step)) for step in product(*map(range, dims))
            ]
            if all(0 <= v < box[k] for cell in block for k, v in enumerate(cell)):
                masks[index(corner)].append(sum(1 << index(cell) for cell in block))  # type: ignore[arg-type]
    full = (1 << size) - 1

    @cache
    def count(filled: int) -> int:
        if filled == full:
            return 1
        first = (~filled & (filled + 1)).bit_length() - 1  # the lowest empty cell
        return sum(count(filled | m) for m in masks[first] if not filled & m)

    return count(0)


def test_bitboard_engine_fills_a_box_of_256_cells() -> None:
    puzzle = read_text(_box_toml(4, 8, 8, '["####/####", "####/####"]'), "<box>", "box").puzzles[0]
    problem = puzzle.problem
    assert problem.n_graph == 256  # four 64-bit words of cells
    expected = brick_tilings((4, 8, 8), (2, 2, 4))
    assert expected > 1000  # a real search, not a forced tiling
    assert registry.count(problem, "bitboard") == expected
    assert registry.general(registry.Job(problem, registry.Mode.COUNT)).name == "bitboard"


def test_dominoes_in_a_small_box_match_the_tiling_counter() -> None:
    puzzle = read_text(_box_toml(2, 3, 4, '"##"'), "<box>", "box").puzzles[0]
    expected = brick_tilings((2, 3, 4), (1, 1, 2))
    for engine in ("reference", "compiled", "bitboard", "memo"):
        assert puzzle.count(engine=engine).solutions == expected, engine


# -- symmetry breaking with the cube's 48 maps -----------------------------------------------

SOMA = """
lattice = "cube"
[board]
grid = ["###/###/###", "###/###/###", "###/###/###"]
[pieces]
V = "##/#."
L = "###/#.."
T = "###/.#."
Z = "##./.##"
A = ["##/#.", ".#/.."]
B = ["##/#.", "../#."]
P = ["##/#.", "#./.."]
[rules]
rotate = true
reflect = false
"""


@pytest.mark.parametrize("engine", ["compiled", "bitboard"])
def test_soma_cube_counts_with_mirrors_exchanging_the_screws(engine: str) -> None:
    # 11,520 assemblies, 240 up to the cube's 48 maps: the mirrors are symmetries of the
    # puzzle because they exchange the two screws A and B (Berlekamp, Conway and Guy,
    # Winning Ways, ch. 24; the figure every Soma program reproduces)
    puzzle = read_text(SOMA, "<soma>", "soma").puzzles[0]
    assert len(puzzle.symmetries) == 48
    result = puzzle.count(engine=engine)
    assert (result.solutions, result.distinct) == (11520, 240)
