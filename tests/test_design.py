"""Design search (issue #34): spaces read from ``[design]``, every wanted rule against a
brute force that shares no code with puzzlebox (tests/oracle.py), designs equal up to
symmetry tried once, the two strategies, split and resumed searches equal to one process,
and the published figures (BurrTools' solid six-piece burrs, A-Puzzle-A-Day)."""

from __future__ import annotations

import itertools
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from tests import oracle

import puzzlebox
from puzzlebox.designs import DesignRun, DesignSpace, TooManyDesigns, load_space
from puzzlebox.designs.checkpoint import DesignCheckpointError
from puzzlebox.designs.evaluate import evaluate
from puzzlebox.formats import PuzzleFileError, read_text
from puzzlebox.formats.toml_out import dumps
from puzzlebox.run.limits import Limits

PUZZLEBOX = [sys.executable, "-m", "puzzlebox._start"]
SHAPES = {"a": "#", "b": "##", "c": "###", "d": "##/#.", "e": "####", "f": "###/#..",
          "g": "###/.#.", "h": ".##/##.", "i": "##/##"}


def run_cli(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([*PUZZLEBOX, *args], capture_output=True, text=True, cwd=cwd,
                          timeout=600)


def space_text(rows: int, cols: int, pool: dict[str, int], take: list[int] | None,
               wanted: str, fixed: dict[str, str] | None = None, holes: int = 0) -> str:
    lines = ["[design]", f"pool = {json.dumps(list(pool))}"]
    if take is not None:
        lines.append(f"take = {json.dumps(take)}")
    if holes:
        lines.append(f"holes = {holes}")
    lines += [wanted, "", "[board]", f'grid = "{"/".join(["#" * cols] * rows)}"', "",
              "[pieces]"]
    for name, shape in (fixed or {}).items():
        lines.append(f'{name} = "{shape}"')
    for name, top in pool.items():
        lines.append(f'{name} = {{ shape = "{SHAPES[name]}", count = {top} }}')
    return "\n".join(lines) + "\n"


def oracle_cells(shape: str) -> dict[tuple[int, int], str]:
    return {(r, c): "#" for r, row in enumerate(shape.split("/"))
            for c, ch in enumerate(row) if ch == "#"}


def brute_distinct(rows: int, cols: int, pieces: dict[str, tuple[str, int]],
                   removed: frozenset[tuple[int, int]] = frozenset()) -> int:
    """Solutions up to symmetry of the design with ``pieces`` (name: (shape, copies)), by
    the oracle alone."""
    board = {(r, c): "#" for r in range(rows) for c in range(cols)
             if (r, c) not in removed}
    spec = [(name, oracle_cells(shape), n, n) for name, (shape, n) in pieces.items()]
    found = oracle.polyomino_solutions(board, spec, True, True, False)
    return oracle.distinct(found, oracle.board_symmetries(board, spec, True, True, False))


def kept_of(space: DesignSpace, **options: object) -> dict[tuple[tuple[str, int], ...], int]:
    run = DesignRun(space, **options)  # type: ignore[arg-type]
    return {r.design.pieces: r.solutions for r in run.results() if r.kept}


# -- the rules against a brute force -------------------------------------------------------

@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(rows=st.integers(2, 3), cols=st.integers(2, 4),
       pool=st.dictionaries(st.sampled_from(sorted(SHAPES)), st.integers(1, 2), min_size=1,
                            max_size=4),
       unique=st.booleans(), strategy=st.sampled_from(["each", "together"]))
def test_kept_designs_are_the_brute_force_ones(rows: int, cols: int, pool: dict[str, int],
                                               unique: bool, strategy: str) -> None:
    """Every choice of copies of the pool, tried by the oracle: kept when it has a solution
    (or exactly one up to symmetry, with ``unique``). Free pieces: no two designs are
    related by a symmetry, so the kept sets are equal as they stand."""
    wanted = ("unique = true\n" if unique else "") + f'strategy = "{strategy}"'
    text = space_text(rows, cols, pool, None, wanted)
    space = DesignSpace(text, "space.toml", "space")
    expected = {}
    names = sorted(pool, key=list(pool).index)
    for copies in itertools.product(*(range(pool[n] + 1) for n in names)):
        chosen = {n: (SHAPES[n], k) for n, k in zip(names, copies) if k}
        if not chosen:
            continue
        area = sum(len(oracle_cells(s)) * k for s, k in chosen.values())
        if area != rows * cols:
            continue
        n = brute_distinct(rows, cols, chosen)
        if (n == 1) if unique else n >= 1:
            expected[tuple((name, k) for name, (_, k) in chosen.items())] = n
    got = kept_of(space)
    assert set(got) == set(expected)
    for pieces, n in expected.items():
        if unique or strategy == "together":
            assert got[pieces] == n


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(rows=st.integers(2, 3), cols=st.integers(2, 4), piece=st.sampled_from(["b", "c", "d"]))
def test_holes_tried_once_up_to_symmetry_and_kept_as_the_brute_force(rows: int, cols: int,
                                                                     piece: str) -> None:
    """One hole anywhere, the rest tiled by copies of one piece, one solution wanted: the
    kept holes and their mirror images are exactly the oracle's, and no two kept holes are
    images of each other."""
    size = len(oracle_cells(SHAPES[piece]))
    if (rows * cols - 1) % size:
        return
    copies = (rows * cols - 1) // size
    grid = "/".join(["#" * cols] * rows)
    text = (f'[design]\nholes = 1\nunique = true\n\n[board]\ngrid = "{grid}"'
            f'\n\n[pieces]\n{piece} = {{ shape = "{SHAPES[piece]}", count = {copies} }}\n')
    space = DesignSpace(text, "holes.toml", "holes")
    run = DesignRun(space)
    kept = [r.design.holes[0] for r in run.results() if r.kept]
    board = {(r, c): "#" for r in range(rows) for c in range(cols)}
    maps = [m for m, _ in oracle.board_symmetries(board, [("x", {(0, 0): "#"}, 1, 1)],
                                                  True, True, False)]
    orbit = {cell: {m(cell) for m in maps} for cell in board}
    expected = {cell for cell in board
                if brute_distinct(rows, cols, {piece: (SHAPES[piece], copies)},
                                  frozenset({cell})) == 1}
    assert {c for k in kept for c in orbit[k]} == expected
    assert all(orbit[a].isdisjoint({b}) for a, b in itertools.combinations(kept, 2))
    assert run.summary is not None
    assert run.summary.tried + run.summary.symmetric == rows * cols


def test_mirror_sets_of_one_sided_pieces_are_tried_once() -> None:
    """One-sided tetrominoes L and J (and S, Z) are mirror images: a set and its mirror set
    are one design, tried once; their brute-force answers agree."""
    text = ('[design]\npool = ["L", "J", "S", "Z", "O"]\ntake = 2\nstrategy = "each"\n\n'
            '[board]\ngrid = "####/####"\n\n[rules]\nreflect = false\n\n[pieces]\n'
            'L = { shape = "###/#..", count = 2 }\nJ = { shape = "###/..#", count = 2 }\n'
            'S = { shape = ".##/##.", count = 2 }\nZ = { shape = "##./.##", count = 2 }\n'
            'O = { shape = "##/##", count = 2 }\n')
    space = DesignSpace(text, "mirror.toml", "mirror")
    run = DesignRun(space)
    results = {r.design.pieces: r for r in run.results()}
    assert run.summary is not None and run.summary.symmetric > 0
    mirror = {"L": "J", "J": "L", "S": "Z", "Z": "S", "O": "O"}
    for pieces in results:
        image = tuple(sorted(((mirror[n], k) for n, k in pieces),
                             key=lambda p: ["L", "J", "S", "Z", "O"].index(p[0])))
        assert image == pieces or image not in results  # tried once
    assert run.summary.tried + run.summary.symmetric == space.size()
    for result in results.values():  # each design's verdict is its own file's count
        doc = read_text(space.design_text(result.design), "d", "d").puzzles[0]
        assert result.kept == (doc.count().distinct > 0)


# -- the published figures -----------------------------------------------------------------

def test_calendar_keeps_dragonfjords_set_with_its_hardest_date() -> None:
    """A-Puzzle-A-Day with DragonFjord's seven pentominoes among eight: the set is kept
    (all 366 dates solvable), its hardest date has 7 solutions (bench/design.py runs all
    792 sets); a set that misses a date is dropped naming it."""
    space = load_space("calendar-sets")
    doc = dict(space.doc)
    text = space.text.replace(
        'pool = ["F", "I", "L", "N", "P", "T", "U", "V", "W", "X", "Y", "Z"]',
        'pool = ["F", "L", "N", "P", "U", "V", "Y", "Z"]')
    assert doc and text != space.text
    text = "\n".join(line for line in text.splitlines() if line[:4] not in
                     ("I = ", "T = ", "W = ", "X = "))  # the four left out of the pool
    small = DesignSpace(text, "calendar-8.toml", "calendar-8")
    results = {frozenset(dict(r.design.pieces)): r for r in DesignRun(small).results()}
    assert len(results) == 8
    dragonfjord = results[frozenset("LNPUVYZ")]
    assert dragonfjord.kept and dragonfjord.labels_solvable == 366
    assert dragonfjord.hardest_solutions == 7 and dragonfjord.hardest == {"month": "Oct",
                                                                          "day": "6"}
    dropped = [r for r in results.values() if not r.kept]
    assert dropped and all("label combinations have no solution" in (r.reason or "")
                           for r in dropped)


@pytest.mark.slow
def test_calendar_date_counts_against_the_brute_force() -> None:
    """Two dates of DragonFjord's set counted by the oracle: May 1 has 57 solutions (the
    published figure) and Oct 6, the set's hardest date, 7."""
    space = load_space("calendar-sets")
    grid = space.doc["board"]["grid"].strip("\n").split("\n")
    pieces = {name: (space.doc["pieces"][name], 1) for name in "OLNPUVYZ"}
    months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
    for (month, day), expected in ((("May", 1), 57), (("Oct", 6), 7)):
        m = months.index(month)
        removed = {(m // 6, m % 6), (2 + (day - 1) // 7, (day - 1) % 7)}
        board = {(r, c): "#" for r, row in enumerate(grid) for c, ch in enumerate(row)
                 if ch == "#" and (r, c) not in removed}
        spec = [(n, oracle_cells(s), k, k) for n, (s, k) in pieces.items()]
        assert len(oracle.polyomino_solutions(board, spec, True, True, False)) == expected


BURRTOOLS = Path(os.environ.get("BURRTOOLS_EXAMPLES", Path(__file__).resolve().parents[2]
                                / "shared" / "peers" / "burrtools" / "examples"))


def test_solid_six_piece_burrs_314_come_apart(tmp_path: Path) -> None:
    """BurrTools' SolidSixPieceBurrs example (the 25 notchable sticks, piece ranges) as a
    design space of six sticks: 179 assemblies come apart up to symmetry, 314 with mirror
    images counted apart (Cutler's figure, which the example's notes give), in 137 sets."""
    example = BURRTOOLS / "SolidSixPieceBurrs.xmpuzzle"
    if not example.exists():
        pytest.skip(f"BurrTools' examples are not at {BURRTOOLS} (set BURRTOOLS_EXAMPLES)")
    out = tmp_path / "ssb.toml"
    assert run_cli("import", str(example), "-o", str(out)).returncode == 0
    pool = ", ".join(f'"S{k}"' for k in range(1, 26))
    text = out.read_text().replace("[rules]", f"[design]\npool = [{pool}]\ntake = 6\n"
                                   "comes_apart = true\nrank = \"level\"\n\n[rules]")
    space = DesignSpace(text, "ssb.toml", "ssb")
    assert space.size() == 593775 and space.together()
    run = DesignRun(space)
    kept = [r for r in run.results() if r.kept]
    assert len(kept) == 137
    assert sum(r.come_apart or 0 for r in kept) == 179
    assert sum(r.come_apart_mirrors or 0 for r in kept) == 314
    assert run.ranked()[0].level == "1.2"


# -- scale: split and resumed searches equal one process -------------------------------------

def small_space() -> DesignSpace:
    text = space_text(2, 4, {"b": 2, "d": 2, "e": 1, "g": 1, "i": 1}, None, "unique = true")
    return DesignSpace(text, "small.toml", "small")


def every_result(run: DesignRun) -> dict[int, tuple[object, ...]]:
    return {r.design.index: (r.kept, r.reason, r.solutions) for r in run.results()}


def test_jobs_give_what_one_process_gives() -> None:
    one = every_result(DesignRun(small_space()))
    two = every_result(DesignRun(small_space(), jobs=2))
    assert one == two and len(one) > 5


def test_a_resumed_search_loses_nothing_and_counts_nothing_twice(tmp_path: Path) -> None:
    whole = every_result(DesignRun(small_space()))
    path = tmp_path / "run.checkpoint"
    first = DesignRun(small_space(), checkpoint=str(path))
    got = {}
    for n, r in enumerate(first.results()):
        got[r.design.index] = (r.kept, r.reason, r.solutions)
        if n == 3:
            break  # killed after four designs
    lines = path.read_text().splitlines()
    assert len(lines) == 5  # the header and four designs
    path.write_text("\n".join(lines[:-1]) + "\n" + lines[-1][: len(lines[-1]) // 2])  # a kill
    second = DesignRun(small_space(), checkpoint=str(path))
    resumed = every_result(second)
    assert resumed == whole
    assert second.summary is not None and second.summary.resumed == 3  # the cut line again
    assert second.summary.tried == len(whole)
    third = DesignRun(small_space(), checkpoint=str(path))  # the cut line was cut off
    assert every_result(third) == whole and third.summary is not None
    assert third.summary.resumed == len(whole)


def test_a_damaged_or_foreign_checkpoint_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "run.checkpoint"
    every_result(DesignRun(small_space(), checkpoint=str(path)))
    lines = path.read_text().splitlines()
    damaged = list(lines)
    damaged[2] = damaged[2].replace('"seconds": ', '"seconds": 1', 1)  # valid JSON, edited
    assert damaged[2] != lines[2]
    path.write_text("\n".join(damaged) + "\n")
    with pytest.raises(DesignCheckpointError, match="damaged line"):
        every_result(DesignRun(small_space(), checkpoint=str(path)))
    other = DesignSpace(space_text(2, 4, {"b": 2, "d": 2}, None, ""), "o.toml", "o")
    path.write_text("\n".join(lines) + "\n")
    with pytest.raises(DesignCheckpointError, match="another design space"):
        every_result(DesignRun(other, checkpoint=str(path)))


# -- doors: the command line and the library -------------------------------------------------

def test_the_command_line_streams_writes_and_ranks(tmp_path: Path) -> None:
    path = tmp_path / "space.toml"
    path.write_text(space_text(2, 4, {"b": 2, "d": 2, "e": 1, "g": 1, "i": 1}, None,
                               'unique = true\nrank = "solutions"'))
    out = tmp_path / "kept"
    done = run_cli("design", str(path), "--json", "--out", str(out))
    assert done.returncode == 0, done.stderr
    objects = [json.loads(line) for line in done.stdout.splitlines()]
    kept, summary = objects[:-1], objects[-1]
    library = [r for r in DesignRun(small_space()).results() if r.kept]
    assert [k["design"] for k in kept] == [r.design.index for r in library]
    assert summary["summary"]["kept"] == len(kept) and summary["summary"]["complete"]
    for entry in kept:  # each file is a puzzle every command reads, with one solution
        assert Path(entry["file"]).parent == out
        counted = run_cli("count", entry["file"], "--json")
        assert json.loads(counted.stdout)["distinct"] == 1
    text = run_cli("design", str(path))
    assert text.returncode == 0 and "ranked (the fewest solutions" in text.stdout
    assert "kept" in text.stdout.splitlines()[0]


def test_the_library_yields_the_kept_designs() -> None:
    expected = [r.design.index for r in DesignRun(small_space()).results() if r.kept]
    assert [r.design.index for r in puzzlebox.design(small_space())] == expected
    assert all(r.kept for r in puzzlebox.design(small_space(), limits=None, jobs=1))


def test_bad_design_files_get_one_line(tmp_path: Path) -> None:
    cases = {
        'pool = ["Q"]': "not a piece of [pieces]",
        'pool = ["b"]\nwanted = 3': "unknown key",
        'pool = ["b"]\ntake = "six"': "a number of copies",
        'pool = ["b"]\nrank = "prettiest"': "unknown ranking",
        'pool = ["b"]\nlevel = "x.2"': "BurrTools' notation",
        'pool = ["b"]\nstrategy = "sometimes"': "must be one of",
        "unique = true": "varies nothing",
    }
    for body, words in cases.items():
        path = tmp_path / "bad.toml"
        path.write_text(f'[design]\n{body}\n\n[board]\ngrid = "##/##"\n\n[pieces]\n'
                        'b = { shape = "##", count = 2 }\n')
        done = run_cli("design", str(path))
        assert done.returncode == 2, (body, done.stderr)
        assert done.stderr.count("\n") == 1 and words in done.stderr, (body, done.stderr)
        assert "bad.toml:" in done.stderr and "Traceback" not in done.stderr
    count = run_cli("count", str(path))
    assert count.returncode == 2 and "puzzlebox design" in count.stderr
    empty = run_cli("design", "calendar-sets", "--out", "")
    assert empty.returncode == 2 and "--out" in empty.stderr


def test_a_space_too_large_is_refused_at_once(tmp_path: Path) -> None:
    pool = {name: 2 for name in SHAPES}  # 3 ** 9 piece sets times 5 holes of 12 cells
    text = space_text(3, 4, pool, None, "", holes=5)
    space = DesignSpace(text, "big.toml", "big")
    assert space.size() > 1_000_000
    with pytest.raises(TooManyDesigns, match="designs, more than"):
        next(iter(DesignRun(space).results()))
    path = tmp_path / "big.toml"
    path.write_text(text)
    done = run_cli("design", str(path))
    assert done.returncode == 3 and "--no-limit" in done.stderr
    limited = DesignRun(space, Limits(time=0.5))
    with pytest.raises(puzzlebox.run.OutOfTime):
        for _ in limited.results():
            pass


def test_evaluate_keeps_the_unique_design_and_writes_it_back() -> None:
    space = small_space()
    for design in space.designs():
        result = evaluate(space, design)
        text = space.design_text(design)
        assert "[design]" not in text and read_text(text, "d", "d").puzzles
        assert dumps(read_toml(text)) == text
        if result.kept:
            assert result.solutions == 1
            break
    else:
        raise AssertionError("no design of the small space has one solution")
    with pytest.raises(PuzzleFileError, match="puzzlebox design"):
        read_text(space.text, "small.toml", "small")


def read_toml(text: str) -> dict[str, object]:
    import tomllib

    return tomllib.loads(text)


def test_a_dask_cluster_gives_what_one_process_gives() -> None:
    """The designs shared out over a Dask scheduler (a cluster of threads in this process)
    come back as one process finds them."""
    from dask.distributed import LocalCluster

    with LocalCluster(n_workers=1, threads_per_worker=2, processes=False,
                      dashboard_address=None) as cluster:
        split = every_result(DesignRun(small_space(), cluster=cluster.scheduler_address))
    assert split == every_result(DesignRun(small_space()))


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(spots=st.lists(st.tuples(st.integers(0, 2), st.integers(0, 3)), min_size=2, max_size=4,
                      unique=True))
def test_every_label_against_the_brute_force(spots: list[tuple[int, int]]) -> None:
    """A 3x4 board with a few labelled cells, one of which a solution leaves open: a set of
    pieces is kept when every label has a solution, and its hardest label is the one with
    the fewest (solutions as placed), as the oracle counts them."""
    names = [f"s{k}" for k in range(len(spots))]
    row = {r: ["."] * 4 for r in range(3)}
    for name, (r, c) in zip(names, spots):
        row[r][c] = name
    labels = "\n".join(" ".join(row[r]) for r in range(3))
    pool = {"b": 3, "c": 2, "d": 2, "e": 1}
    text = ("[design]\npool = [\"b\", \"c\", \"d\", \"e\"]\nevery_label = true\n"
            "rank = \"hardest-label\"\n\n[board]\ngrid = \"####/####/####\"\n\n"
            f"[board.labels]\nspot = \"\"\"\n{labels}\n\"\"\"\n\n[sweep]\nuncover = [\"spot\"]\n\n"
            "[pieces]\n" + "".join(f'{n} = {{ shape = "{SHAPES[n]}", count = {k} }}\n'
                                   for n, k in pool.items()))
    space = DesignSpace(text, "labels.toml", "labels")
    got = {r.design.pieces: (r.hardest_solutions, r.hardest) for r in DesignRun(space).results()
           if r.kept}
    expected = {}
    for copies in itertools.product(*(range(k + 1) for k in pool.values())):
        chosen = {n: (SHAPES[n], k) for n, k in zip(pool, copies) if k}
        if sum(len(oracle_cells(s)) * k for s, k in chosen.values()) != 11:
            continue
        counts = {}
        for name, spot in zip(names, spots):
            board = {(r, c): "#" for r in range(3) for c in range(4) if (r, c) != spot}
            spec = [(n, oracle_cells(s), k, k) for n, (s, k) in chosen.items()]
            counts[name] = len(oracle.polyomino_solutions(board, spec, True, True, False))
        if min(counts.values()) > 0:
            expected[tuple((n, k) for n, (_, k) in chosen.items())] = min(counts.values())
    assert {p: n for p, (n, _) in got.items()} == expected


def test_taking_apart_agrees_with_count_disassemble(tmp_path: Path) -> None:
    """Small solid designs (a pool of polycubes in a 2x2x3 box): each kept design's
    assemblies, those that come apart and the highest level are what `count
    --disassemble` says of its own file, and both strategies keep the same designs."""
    pool = {"P": ("##/#.", 2), "L": ("###/#..", 2), "I": ("###", 2), "D": ("##", 2),
            "O": ("##/##", 1)}
    pieces = "".join(f'{n} = {{ shape = "{s}", count = {k} }}\n' for n, (s, k) in pool.items())
    texts = {strategy: (f"lattice = \"cube\"\n\n[design]\npool = {json.dumps(list(pool))}\n"
                        f"comes_apart = true\nrank = \"level\"\nstrategy = \"{strategy}\"\n\n"
                        "[board]\ngrid = [\"###/###\", \"###/###\"]\n\n[pieces]\n" + pieces)
             for strategy in ("each", "together")}
    runs = {s: {r.design.pieces: r for r in DesignRun(DesignSpace(t, f"{s}.toml", s)).results()
                if r.kept} for s, t in texts.items()}
    assert set(runs["each"]) == set(runs["together"]) and runs["each"]
    space = DesignSpace(texts["each"], "each.toml", "each")
    for pieces, result in list(runs["each"].items())[:6]:
        other = runs["together"][pieces]
        assert (result.assemblies, result.come_apart, result.level) == \
            (other.assemblies, other.come_apart, other.level)
        path = tmp_path / "one.toml"
        path.write_text(space.design_text(result.design))
        done = run_cli("count", str(path), "--disassemble", "--json")
        counted = json.loads(done.stdout)
        assert counted["assemblies"] == result.assemblies
        assert counted["come_apart"] == result.come_apart
        assert counted["levels"][0]["level"] == result.level


def test_jobs_on_a_space_searched_together_say_so(tmp_path: Path) -> None:
    """--jobs where the pool is searched together in one process: said in one line, and
    the answer is the one process's."""
    path = tmp_path / "together.toml"
    path.write_text(space_text(2, 4, {"b": 2, "d": 2, "e": 1, "g": 1, "i": 1}, None,
                               'unique = true\nstrategy = "together"'))
    one = run_cli("design", str(path), "--json")
    two = run_cli("design", str(path), "--json", "--jobs", "2")
    assert two.returncode == 0 and "found together" in two.stderr
    def kept(out: str) -> list[tuple[int, object]]:
        return [(o["design"], o["solutions"]) for o in map(json.loads, out.splitlines()[:-1])]

    assert kept(one.stdout) == kept(two.stdout) and kept(one.stdout)


def test_together_on_a_lattice_where_pieces_do_not_slide() -> None:
    """Triangles: a pool searched together counts assemblies without taking them apart
    (nothing asks for it), as one search per design does."""
    text = ('lattice = "triangle"\n\n[design]\npool = ["a", "b", "c"]\nunique = true\n'
            'strategy = "STRATEGY"\n\n[board]\ngrid = "######/######"\n\n[pieces]\n'
            'a = { shape = "##", count = 6 }\nb = { shape = "###", count = 4 }\n'
            'c = { shape = "####", count = 3 }\n')
    results = [kept_of(DesignSpace(text.replace("STRATEGY", s), "t.toml", "t"))
               for s in ("each", "together")]
    assert results[0] == results[1]


def test_a_worker_reads_the_space_once_and_a_forked_one_never(monkeypatch) -> None:
    """A design search's worker keeps the space it read for all its batches; one forked
    from this process (parallel/backends.py's can_fork) starts with this process's space
    and reads nothing (#34: a worker from the forkserver spent about a second starting)."""
    from tests import parallel_faults

    from puzzlebox.designs import run as design_run
    from puzzlebox.designs.evaluate import DesignResult
    from puzzlebox.parallel import backends

    seen: list[dict[str, object]] = []
    plain = DesignResult.from_json

    def keep(data: dict[str, object]) -> DesignResult:
        seen.append(data)
        return plain(data)

    monkeypatch.setattr(design_run, "try_batch", parallel_faults.design_batch_and_reads)
    monkeypatch.setattr(DesignResult, "from_json", staticmethod(keep))
    forked: list[bool] = []
    start = backends.ProcessBackend._slot

    def slot(self: backends.ProcessBackend) -> object:
        forked.append(backends.can_fork())
        return start(self)

    monkeypatch.setattr(backends.ProcessBackend, "_slot", slot)
    one = every_result(DesignRun(small_space()))
    two = every_result(DesignRun(small_space(), jobs=2))
    assert one == two and len(seen) == len(two) > 5
    pids = {data["_pid"] for data in seen}
    assert os.getpid() not in pids
    for pid in pids:
        reads = {data["_reads"] for data in seen if data["_pid"] == pid}
        assert reads <= {0, 1}
    if forked and all(forked):
        assert {data["_reads"] for data in seen} == {0}
