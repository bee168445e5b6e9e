"""Polysticks (#27): pieces of unit sticks on a board of sticks, no two pieces crossing.

Counts are checked against Polyform Puzzler's published ones (docs/polysticks.txt) and
against a brute force written here from scratch: sticks as pairs of grid points, pieces
turned by matrices, a plain backtracking over the board's first uncovered stick, and
orbits counted by applying the board's symmetries to whole solutions. It shares nothing
with the kind but the file it reads.
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterable

import pytest

from puzzlebox import catalog
from puzzlebox.cli import main
from puzzlebox.formats import PuzzleFileError, read_text
from puzzlebox.puzzles.polysticks import PolysticksPuzzle, geometry

GPoint = tuple[int, int]
GStick = frozenset[GPoint]  # its two grid points, (row, col)

MATRICES = [(1, 0, 0, 1), (0, 1, -1, 0), (-1, 0, 0, -1), (0, -1, 1, 0),
            (1, 0, 0, -1), (-1, 0, 0, 1), (0, 1, 1, 0), (0, -1, -1, 0)]


# -- the brute force ---------------------------------------------------------------------------
def parse(drawing: str) -> set[GStick]:
    """Sticks of a drawing in the notation, read here on their own: a '-' (or letter) on
    an even line joins the '+' left and right of it, a '|' on an odd line the '+' above
    and below."""
    rows = drawing.split("\n") if "\n" in drawing else drawing.split("/")
    while rows and not rows[0].strip():
        rows.pop(0)
    out: set[GStick] = set()
    for y, row in enumerate(rows):
        for x, ch in enumerate(row):
            if ch in " .+":
                continue
            if y % 2 == 0:
                out.add(frozenset({(y // 2, (x - 1) // 2), (y // 2, (x + 1) // 2)}))
            else:
                out.add(frozenset({((y - 1) // 2, x // 2), ((y + 1) // 2, x // 2)}))
    return out


def shifted(sticks: Iterable[GStick]) -> frozenset[GStick]:
    sticks = list(sticks)
    r0 = min(r for s in sticks for r, _ in s)
    c0 = min(c for s in sticks for _, c in s)
    return frozenset(frozenset((r - r0, c - c0) for r, c in s) for s in sticks)


def turned(sticks: Iterable[GStick], m: tuple[int, int, int, int]) -> frozenset[GStick]:
    a, b, c, d = m
    return shifted(frozenset((a * r + b * c_, c * r + d * c_) for r, c_ in s) for s in sticks)


def claims(sticks: frozenset[GStick], touch: str) -> set[GPoint]:
    """The points a placed piece claims: passed straight through ("corners"), or where two
    of its sticks meet ("ends")."""
    meets: dict[GPoint, list[GStick]] = {}
    for s in sticks:
        for p in s:
            meets.setdefault(p, []).append(s)
    out = set()
    for p, here in meets.items():
        if touch == "ends" and len(here) >= 2:
            out.add(p)
        others = [next(iter(s - {p})) for s in here]
        for q in others:
            if (2 * p[0] - q[0], 2 * p[1] - q[1]) in others:
                out.add(p)
    return out


def brute_force(board: set[GStick], pieces: dict[str, tuple[str, int, int]],
                one_sided: bool = False, touch: str = "corners") -> list[frozenset]:
    """Every solution, as a set of (piece name, its sticks)."""
    maps = MATRICES[:4] if one_sided else MATRICES
    places: dict[str, list[frozenset[GStick]]] = {}
    for name, (drawing, _, _) in pieces.items():
        shapes = {turned(parse(drawing), m) for m in maps}
        found = set()
        for shape in shapes:
            for dr in range(-8, 9):
                for dc in range(-8, 9):
                    moved = frozenset(frozenset((r + dr, c + dc) for r, c in s) for s in shape)
                    if moved <= board:
                        found.add(moved)
        places[name] = sorted(found, key=sorted_key)
    order = sorted(board, key=lambda s: sorted(s))
    used = {name: 0 for name in pieces}
    solutions: list[frozenset] = []
    chosen: list[tuple[str, frozenset[GStick]]] = []

    def walk(covered: set[GStick], taken: set[GPoint]) -> None:
        first = next((s for s in order if s not in covered), None)
        if first is None:
            if all(used[n] >= lo for n, (_, lo, _) in pieces.items()):
                solutions.append(frozenset(chosen))
            return
        for name, (_, _, hi) in pieces.items():
            if used[name] == hi:
                continue
            for place in places[name]:
                if first not in place or place & covered:
                    continue
                claim = claims(place, touch)
                if claim & taken:
                    continue
                used[name] += 1
                chosen.append((name, place))
                walk(covered | place, taken | claim)
                chosen.pop()
                used[name] -= 1

    walk(set(), set())
    return solutions


def sorted_key(place: frozenset[GStick]) -> list[list[GPoint]]:
    return sorted(sorted(s) for s in place)


def orbits(solutions: list[frozenset], board: set[GStick], rename: dict[str, str]) -> int:
    """Classes of solutions under the maps of the square that keep the board (a reflection
    renames each one-sided piece to its twin, ``rename``)."""
    def apply(sol: frozenset, k: int) -> frozenset:
        a, b, c, d = MATRICES[k]
        every = [p for _, place in sol for s in place for p in s]
        image = [(a * r + b * c_, c * r + d * c_) for r, c_ in every]
        r0 = min(r for r, _ in image)
        c0 = min(c for _, c in image)
        out = set()
        for name, place in sol:
            moved = frozenset(frozenset((a * r + b * c_ - r0, c * r + d * c_ - c0)
                                        for r, c_ in s) for s in place)
            out.add((rename.get(name, name) if k >= 4 else name, moved))
        return frozenset(out)

    keep = [k for k in range(8) if apply(frozenset({("b", frozenset(board))}), k)
            == frozenset({("b", frozenset(board))})]
    seen: set[frozenset] = set()
    classes = 0
    for sol in solutions:
        if sol in seen:
            continue
        classes += 1
        seen.update(apply(sol, k) for k in keep)
    return classes


def file_of(board: str, pieces: dict[str, tuple[str, int, int]], reflect: bool = True,
            touch: str = "corners") -> str:
    lines = ['kind = "polysticks"', "[board]", f'grid = "{board}"', "[pieces]"]
    lines += [f'{n} = {{ shape = "{d}", count = [{lo}, {hi}] }}'
              for n, (d, lo, hi) in pieces.items()]
    lines += ["[rules]", f"reflect = {str(reflect).lower()}", f'touch = "{touch}"']
    return "\n".join(lines) + "\n"


def catalog_pieces(name: str) -> tuple[str, dict[str, tuple[str, int, int]]]:
    import tomllib

    doc = tomllib.loads(catalog.path_of(name).read_text("utf-8"))
    pieces = {}
    for n, v in doc["pieces"].items():
        if isinstance(v, dict):
            lo, hi = v["count"]
            pieces[n] = (v["shape"], lo, hi)
        else:
            pieces[n] = (v, 1, 1)
    return doc["board"]["grid"], pieces


# -- the families ------------------------------------------------------------------------------
def test_the_generator_counts_the_published_polysticks():
    """Polyform Puzzler's table (docs/polystick-notes.txt; OEIS A019988 for the free ones)."""
    assert [len(geometry.polysticks(n)) for n in range(1, 6)] == [1, 2, 5, 16, 55]
    assert [len(geometry.polysticks(n, one_sided=True)) for n in range(1, 6)] == [1, 2, 7, 25, 99]


def test_the_catalog_piece_sets_are_the_generated_families():
    def canon(puzzle: PolysticksPuzzle) -> list[tuple]:
        return sorted(geometry.canonical(p.sticks) for p in puzzle.pieces)

    tetra = catalog.load("tetrasticks-6x6")
    assert isinstance(tetra, PolysticksPuzzle)
    assert canon(tetra) == sorted(tuple(sorted(s)) for s in geometry.polysticks(4))
    small = catalog.load("polysticks-123-4x4-clipped-corners-1")
    assert isinstance(small, PolysticksPuzzle)
    assert canon(small) == sorted(tuple(sorted(s)) for n in (1, 2, 3)
                                  for s in geometry.polysticks(n))
    welded = catalog.load("one-sided-welded-tetrasticks-5x5")
    assert isinstance(welded, PolysticksPuzzle)
    one_sided = {geometry.canonical(s, geometry.ROTATIONS)
                 for s in geometry.polysticks(4, one_sided=True)}
    mine = [geometry.canonical(p.sticks, geometry.ROTATIONS) for p in welded.pieces]
    assert len(set(mine)) == 10 and set(mine) <= one_sided
    assert all(max(sum(1 for s in p.sticks if q in geometry.ends(s)) for q in
                   {q for s in p.sticks for q in geometry.ends(s)}) >= 3 for p in welded.pieces)
    penta = catalog.load("pentasticks-2x9")
    assert isinstance(penta, PolysticksPuzzle)
    assert canon(penta) == sorted(tuple(sorted(s)) for s in geometry.polysticks(5))


# -- published counts and the brute force ---------------------------------------------------------
@pytest.mark.parametrize("name, raw, distinct, rename", [
    ("polysticks-123-4x4-clipped-corners-1", 84, 21, {}),
    ("polysticks-123-4x4-clipped-corners-2", 264, 132, {}),
    ("one-sided-welded-tetrasticks-5x5", 16, 3, {n: n.swapcase() for n in "YyFfHhRr"}),
])
def test_published_counts_agree_with_the_brute_force(name, raw, distinct, rename):
    """Polyform Puzzler: 21 and 132 solutions (orders 1-3, 4x4 clipped corners), 3
    (one-sided welded tetrasticks, 5x5); the brute force finds the same, as placed and
    up to symmetry."""
    result = catalog.load(name).count()
    assert (result.solutions, result.distinct) == (raw, distinct)
    grid, pieces = catalog_pieces(name)
    solutions = brute_force(parse(grid), pieces, one_sided=bool(rename))
    assert len(solutions) == raw
    assert orbits(solutions, parse(grid), rename) == distinct


def test_pentasticks_2x9_agrees_with_the_brute_force():
    """Not published (puzzlebox's own example, no pentastick puzzle with a count was
    found): any five of the 55 pentasticks on a 2x9 grid of points, 656 as placed and 164
    up to the strip's symmetries, by the kind and by the brute force alike."""
    result = catalog.load("pentasticks-2x9").count()
    assert (result.solutions, result.distinct) == (656, 164)
    grid, pieces = catalog_pieces("pentasticks-2x9")
    solutions = brute_force(parse(grid), pieces)
    assert len(solutions) == 656
    assert orbits(solutions, parse(grid), {}) == 164
    assert all(len(sol) == 5 for sol in solutions)


def test_tetrasticks_6x6_leaving_out_h():
    """Polyform Puzzler's Tetrasticks6x6: 72 of its 1795 solutions leave out H (the whole
    1795 is bench/polysticks.py's, as it takes seconds)."""
    text = catalog.path_of("tetrasticks-6x6").read_text("utf-8")
    text = text.replace('H = { shape = "  +-+/  |/+-+-+", count = [0, 1] }',
                        'H = { shape = "  +-+/  |/+-+-+", count = 0 }')
    text = text.replace("count = [0, 1]", "count = 1")
    result = read_text(text, "t.toml", "t").puzzles[0].count()
    assert (result.solutions, result.distinct) == (8 * 72, 72)


@pytest.mark.parametrize("name", ["pentasticks-2x9", "tritrigs-trapezoid-6x2",
                                  "one-sided-welded-tetrasticks-5x5"])
def test_the_sticks_are_a_graph_so_the_bitboard_engine_counts_them(name):
    """Two sticks that share an end are neighbours: the problem carries that graph, so auto
    counts polysticks on the bitboard engine (its closed-region test on: a piece's sticks
    are connected), and the general engine counts the same tilings."""
    from puzzlebox.engine import bitboard, registry
    from puzzlebox.engine.search import Job, Mode, count_all

    puzzle = catalog.load(name)
    assert isinstance(puzzle, PolysticksPuzzle)
    problem = puzzle.problem
    assert problem.n_graph == len(puzzle.board)
    assert registry.choose(Job(problem, Mode.COUNT, puzzle=puzzle)).name == "bitboard"
    assert bitboard.tables(problem).prune
    tilings = bitboard.BitboardEngine(problem).count()
    general = count_all(registry.get("compiled").start(Job(problem, Mode.COUNT)))[0]
    assert tilings == general > 0


def test_random_small_boards_agree_with_the_brute_force():
    rng = random.Random(27)
    shapes = ["+-+", "+-+-+", "+/|/+-+", "+-+-+-+", "    +/    |/+-+-+", "  +/  |/+-+-+",
              "+-+/  |/  +-+", "+ +/| |/+-+", "+-+/| |/+-+", "  +/  |/+-+-+/  |/  +"]
    checked = 0
    for _ in range(40):
        rows, cols = rng.randint(2, 4), rng.randint(2, 4)
        lines = []
        for y in range(2 * rows - 1):
            lines.append("".join(
                ("+" if x % 2 == 0 else ("-" if rng.random() < 0.85 else " "))
                if y % 2 == 0 else ("|" if x % 2 == 0 and rng.random() < 0.85 else " ")
                for x in range(2 * cols - 1)))
        board = "/".join(lines)
        if not parse(board):
            continue
        pieces = {f"p{i}": (rng.choice(shapes), 0, rng.randint(1, 3)) for i in range(3)}
        touch = rng.choice(["corners", "ends"])
        reflect = rng.random() < 0.7
        puzzle = read_text(file_of(board, pieces, reflect, touch), "r.toml", "r").puzzles[0]
        expected = brute_force(parse(board), pieces, one_sided=not reflect, touch=touch)
        assert puzzle.count(limits=None).solutions == len(expected), (board, pieces, touch)
        checked += bool(expected)
    assert checked >= 5  # some boards have solutions, so the agreement says something


# -- the rule at grid points ------------------------------------------------------------------
PLUS = "  +/  |/+-+-+/  |/  +"  # four sticks meeting at one point


@pytest.mark.parametrize("pieces, touch, count", [
    ({"I2": ("+-+-+", 2, 2)}, "corners", 0),  # a straight one across a straight one: crossing
    ({"V2": ("+/|/+-+", 2, 2)}, "corners", 2),  # two corners touching: allowed (2 ways)
    ({"V2": ("+/|/+-+", 2, 2)}, "ends", 0),  # ... but not where pieces meet only at ends
    ({"T3": ("  +/  |/+-+-+", 1, 1), "I1": ("+-+", 1, 1)}, "ends", 4),  # a T: one piece ends
])
def test_what_may_meet_at_a_grid_point(pieces, touch, count):
    puzzle = read_text(file_of(PLUS, pieces, True, touch), "p.toml", "p").puzzles[0]
    assert puzzle.count().solutions == count
    assert len(brute_force(parse(PLUS), pieces, touch=touch)) == count


# -- text, JSON, pictures ---------------------------------------------------------------------
def test_a_solution_drawing_reads_back_as_its_board(capsys):
    puzzle = catalog.load("polysticks-123-4x4-clipped-corners-1")
    solution = puzzle.solve()
    assert solution is not None
    lines = puzzle.text_lines(solution)
    assert lines[-1].startswith("key: ")  # names longer than one character get a letter
    drawing = "\n".join(lines[:-1])
    assert parse(drawing) == parse(catalog_pieces(puzzle.name)[0])
    back = read_text(f'kind = "polysticks"\n[board]\ngrid = """\n{drawing}\n"""\n[pieces]\n'
                     'a = "+-+"\n', "b.toml", "b").puzzles[0]
    assert isinstance(back, PolysticksPuzzle) and back.board == puzzle.board
    marks = {ch for line in lines[:-1] for ch in line} - set("+ ")
    assert len(marks) == len(puzzle.pieces)  # each piece its own mark
    owners = puzzle.text_owners(solution)  # a terminal colours each placement
    assert [len(row) for row in owners] == [len(line) for line in lines[:-1]]
    by_owner = {}
    for line, row in zip(lines, owners):
        for ch, who in zip(line, row):
            assert (who is None) == (ch in "+ ")
            if who is not None:
                assert by_owner.setdefault(who, ch) == ch
    assert len(by_owner) == len(solution.placements)


def test_describe_draws_the_board_and_pieces_in_the_notation():
    puzzle = catalog.load("tetrasticks-6x6")
    lines = puzzle.describe_lines()
    assert lines[1] == "  +-+-+-+-+-+" and lines[2] == "  | | | | | |"
    assert "H (0 to 1):" in lines


def test_json_placements_are_sticks_as_pairs_of_grid_points(capsys):
    assert main(["solve", "tetrasticks-6x6", "--limit", "1", "--json"]) == 0
    obj = json.loads(capsys.readouterr().out.splitlines()[0])
    assert obj["puzzle"] == "tetrasticks-6x6" and len(obj["placements"]) == 15
    every = []
    for placement in obj["placements"]:
        assert len(placement["sticks"]) == 4
        for (r1, c1), (r2, c2) in placement["sticks"]:
            assert abs(r1 - r2) + abs(c1 - c2) == 1
            assert all(0 <= v <= 5 for v in (r1, c1, r2, c2))
            every.append(frozenset({(r1, c1), (r2, c2)}))
    assert len(set(every)) == 60  # every stick of the 6x6 grid once


def test_pictures_draw_each_piece_as_thick_segments():
    pytest.importorskip("matplotlib")
    puzzle = catalog.load("one-sided-welded-tetrasticks-5x5")
    solution = puzzle.solve()
    assert solution is not None
    svg = solution.svg()
    assert all(f'id="p0-piece-{i}"' in svg for i in range(10)) and 'id="p0-board"' in svg
    assert "stroke-linecap: round" in svg or 'stroke-linecap="round"' in svg


# -- proofs and bad input ---------------------------------------------------------------------
def test_the_sixteen_tetrasticks_fill_no_board_of_balance_zero():
    """Polyform Puzzler's parity argument (puzzler/puzzles/tetrasticks.py): H, J, L, N
    and Y each have two more sticks one way than the other and the rest none, so the 16
    tetrasticks never have as many horizontal sticks as vertical ones. The 6x6 grid with
    two squares more on the right has 64 sticks, 32 each way: refused without search."""
    text = catalog.path_of("tetrasticks-6x6").read_text("utf-8").replace("count = [0, 1]",
                                                                          "count = 1")
    start = text.index('grid = """')
    end = text.index('"""', start + 10) + 3
    rows = ["+-+-+-+-+-+-+", "| | | | | | |", "+-+-+-+-+-+-+", "| | | | | | |",
            "+-+-+-+-+-+ +"] + ["| | | | | |", "+-+-+-+-+-+"] * 3
    text = text[:start] + 'grid = """\n' + "\n".join(rows) + '\n"""' + text[end:]
    puzzle = read_text(text, "t.toml", "t").puzzles[0]
    assert isinstance(puzzle, PolysticksPuzzle) and len(puzzle.board) == 64
    proof = next(puzzle.proofs())
    assert proof.argument == "balance" and "+0 more horizontal" in proof.sentence


def test_balance_proof_on_a_board_of_even_balance():
    pieces = {"L": ("      +/      |/+-+-+-+", 1, 1)}  # 3 horizontal, 1 vertical: +-2
    two = read_text(file_of("+-+-+/| | |/+-+-+", {"L": pieces["L"]}), "b.toml", "b")
    puzzle = two.puzzles[0]
    assert [p.argument for p in puzzle.proofs()] == ["area"]  # 7 sticks, not 4
    square = read_text(file_of("+-+/| |/+-+", {"L": pieces["L"]}), "s.toml", "s").puzzles[0]
    proof = next(square.proofs())
    assert proof.argument == "balance" and "+0 more horizontal" in proof.sentence
    assert square.count().solutions == 0


@pytest.mark.parametrize("grid, message", [
    # rows and columns from 0, as the contract's stick notation counts them (#38 item 9)
    ("+|+", r"row 0, column 1: '\|' where a horizontal stick goes"),
    ("+-+/|x|/+-+", r"row 1, column 1: 'x' stands inside a square"),
    ("+-x", r"row 0, column 2: 'x' stands on a grid point"),
    ("+ +", r"draws no stick"),
])
def test_a_bad_grid_is_one_error_naming_the_place(grid, message):
    with pytest.raises(PuzzleFileError, match=message):
        read_text(f'kind = "polysticks"\n[board]\ngrid = "{grid}"\n[pieces]\na = "+-+"\n',
                  "g.toml", "g")


def test_a_bad_row_of_a_multi_line_grid_is_refused_at_its_own_line():
    text = 'kind = "polysticks"\n[board]\ngrid = """\n\n+-+-+\n| ? |\n+-+-+\n"""\n[pieces]\n' \
        'a = "+-+"\n'
    with pytest.raises(PuzzleFileError, match=r"^g\.toml:6: board\.grid: row 1, column 2: "):
        read_text(text, "g.toml", "g")


def test_bad_pieces_and_rules_are_refused_at_their_line(tmp_path, capsys):
    with pytest.raises(PuzzleFileError, match=r"g\.toml:5: pieces\.a: is not one piece"):
        read_text('kind = "polysticks"\n[board]\ngrid = "+-+-+"\n[pieces]\na = "+-+ +-+"\n',
                  "g.toml", "g")
    with pytest.raises(PuzzleFileError, match=r"rules\.touch: must be one of"):
        read_text('kind = "polysticks"\n[board]\ngrid = "+-+"\n[pieces]\na = "+-+"\n'
                  '[rules]\ntouch = "never"\n', "g.toml", "g")
    bad = tmp_path / "bad.toml"
    bad.write_text('kind = "polysticks"\n[board]\ngrid = "+|+"\n[pieces]\na = "+-+"\n')
    assert main(["count", str(bad)]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "bad.toml" in err[0] and "Traceback" not in err[0]
