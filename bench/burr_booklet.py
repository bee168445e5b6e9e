"""Every puzzle of Siegel's "Starter Burr Set" booklet, rebuilt from its Känel numbers and
counted, against the booklet's figures and BurrTools' (#24).

The booklet (Aaron N. Siegel, Printable Puzzle Project, version 1, 2020; starter-burr-set.pdf
in github.com/aaron-siegel/puzzlecad) lists 90 six-piece burrs, each as six Känel numbers with
its level and "solutions/assemblies". It counts assemblies up to rotation with mirror images
apart (its puzzle #2 has two solutions that are mirror images). puzzlebox counts up to the
puzzle's symmetries, which include a mirror when the piece set is its own mirror image, and
so does BurrTools. This script compares both ways:

* booklet: from every solution as placed (``solve --all``), the assemblies up to the 12
  rotations of the burr; from the assemblies that come apart (``solve --disassemble --all``),
  those up to rotation (one, or two where the set is its own mirror image and the assembly
  is not), and the first numbers of their levels, against the booklet's row (where its
  solutions differ in level, the booklet gives one of them: #30, 2 and 3, says 2);
* BurrTools: ``count --disassemble`` against ``burrTxt -d`` on the same pieces (assemblies,
  solutions, and each level in its notation), where the solver is built.

    .venv/bin/python bench/burr_booklet.py [--only 47,51] [--burrtxt PATH]

A piece k is the 2x2x6 stick whose inner cubes are cut as the bits of k - 1 say: cubes 1-8
in the inner layer (two rows of four), 9-12 in the outer layer's middle (Cutler's binary
piece number; tests/test_burr_catalog.py checks the rule and the catalog's three burrs).
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import re
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

# The booklet's table: number, six Känel numbers, level, solutions/assemblies.
BOOKLET = """
 1 1 52 256 928 1024 1024        1 1/1
 2 1 256 824 928 975 1024        1 2/2
 3 1 188 256 960 975 1024        1 2/2
 4 1 188 824 975 1024 1024       1 2/2
 5 52 792 824 911 975 1024       1 6/8
 6 52 615 792 960 975 992        1 1/1
 7 1 52 256 960 992 1024         1 3/3
 8 1 52 960 975 1024 1024        1 3/3
 9 1 103 256 928 1024 1024       1 1/1
10 1 103 256 960 992 1024        1 3/3
11 1 103 960 975 1024 1024       1 3/3
12 1 188 256 911 1024 1024       1 1/1
13 1 256 792 960 975 1024        1 2/2
14 1 256 824 960 975 992         1 2/2
15 1 256 911 960 975 1024        1 1/1
16 1 615 928 975 1024 1024       1 1/1
17 1 615 960 975 992 1024        1 2/2
18 1 824 911 975 1024 1024       1 1/1
19 52 103 824 928 975 1024       1 2/2
20 52 103 824 960 975 992        1 2/2
21 52 256 824 911 928 975        1 2/2
22 52 615 792 928 975 1024       1 1/1
23 615 792 824 911 992 1024      2 2/2
24 103 188 615 824 1024 1024     2 1/6
25 103 256 911 928 975 1024      2 1/9
26 103 188 256 911 992 1024      3 1/7
27 103 188 911 960 992 1024      3 1/18
28 103 188 256 928 975 1024      5 1/7
29 188 256 615 928 975 1024      5 2/16
30 103 188 615 960 992 1024      2 8/9
31 103 188 615 975 1024 1024     2 1/5
32 103 256 615 792 1024 1024     2 1/6
33 103 256 615 824 928 1024      2 1/7
34 103 256 615 824 960 992       2 1/7
35 103 256 615 911 1024 1024     2 1/5
36 103 256 615 928 975 1024      2 1/5
37 103 256 615 960 975 992       2 1/5
38 103 615 792 824 1024 1024     2 1/9
39 103 615 824 928 960 1024      2 1/6
40 103 615 911 975 1024 1024     2 1/5
41 52 615 871 960 975 992        1 1/1
42 256 824 911 928 943 1024      4 1/3
43 256 792 911 943 960 1024      4 1/4
44 256 824 911 943 960 1024      4 1/4
45 871 911 943 960 1007 1024     4 1/8
46 359 871 928 943 1007 1024     3 1/37
47 103 760 960 992 996 1024      5 1/24
48 359 615 943 960 992 1024      2 4/156
49 369 871 956 960 992 1000      6 1/5
50 824 928 992 996 1000 1024     6 1/20
51 369 871 928 956 1000 1024     8 1/5
52 103 615 928 956 1024 1024     4 1/51
53 359 615 928 956 992 1024      4 1/80
54 615 928 996 1000 1024 1024    4 1/33
55 1 52 928 1007 1024 1024       1 1/1
56 1 52 960 992 1007 1024        1 2/2
57 1 103 928 1007 1024 1024      1 1/1
58 1 103 960 992 1007 1024       1 2/2
59 1 188 256 928 1007 1024       1 1/1
60 1 188 256 960 992 1007        1 1/1
61 1 188 824 992 1007 1024       1 1/1
62 1 188 871 928 1024 1024       1 1/1
63 1 188 871 960 992 1024        1 3/3
64 1 188 911 1007 1024 1024      1 1/1
65 1 188 960 975 1007 1024       1 1/1
66 1 256 792 928 1007 1024       1 1/1
67 1 256 792 960 992 1007        1 1/1
68 1 256 824 928 992 1007        1 2/2
69 1 359 824 928 1024 1024       1 1/1
70 1 615 928 992 1007 1024       1 2/2
71 1 792 824 992 1007 1024       1 2/2
72 1 824 911 992 1007 1024       1 1/1
73 1 824 928 975 1007 1024       1 1/1
74 1 824 960 975 992 1007        1 1/1
75 1 871 943 975 1024 1024       1 1/1
76 1 871 943 992 1007 1024       1 1/1
77 1 871 960 975 1007 1024       1 2/2
78 52 103 824 928 992 1007       1 1/2
79 52 103 871 928 960 992        1 1/3
80 52 188 824 928 975 1007       1 1/1
81 52 359 824 928 943 992        1 1/2
82 52 615 871 928 975 1024       1 1/1
83 103 760 928 996 1024 1024     5 1/12
84 188 760 928 996 1007 1024     5 1/6
85 188 760 960 992 996 1007      5 1/6
86 188 824 960 992 996 1007      5 1/5
87 256 760 824 871 928 960       5 1/6
88 359 928 956 996 1000 1024     5 1/9
89 359 956 960 992 996 1000      5 1/9
90 369 824 956 960 975 992       5 1/8
"""

Cell = tuple[int, int, int]  # (x, y, z): column, row, layer


def _box(xs: tuple[int, int], ys: tuple[int, int], zs: tuple[int, int]) -> set[Cell]:
    return {(x, y, z) for x in range(*xs) for y in range(*ys) for z in range(*zs)}


# the six sticks' places: a pair along x, a pair along y, a pair along z
SLOTS = [_box((0, 6), (2, 4), (1, 3)), _box((0, 6), (2, 4), (3, 5)),
         _box((1, 3), (0, 6), (2, 4)), _box((3, 5), (0, 6), (2, 4)),
         _box((2, 4), (1, 3), (0, 6)), _box((2, 4), (3, 5), (0, 6))]  # fmt: skip
COVER = Counter(cell for slot in SLOTS for cell in slot)  # 104 cubes; 32 under two or three
INNER = [(1, 0, 1), (1, 0, 2), (1, 0, 3), (1, 0, 4), (1, 1, 1), (1, 1, 2), (1, 1, 3),
         (1, 1, 4), (0, 0, 2), (0, 0, 3), (0, 1, 2), (0, 1, 3)]  # (layer, row, col) of cube i


def stick(number: int) -> list[str]:
    """Känel ``number`` as two layers of 2x6 (outer layer first)."""
    cut = {INNER[i] for i in range(12) if (number - 1) >> i & 1}
    return ["/".join("".join("." if (z, y, x) in cut else "#" for x in range(6))
                     for y in range(2)) for z in range(2)]  # fmt: skip


def _layers(mark: dict[Cell, str]) -> list[str]:
    return ["/".join("".join(mark.get((x, y, z), ".") for x in range(6)) for y in range(6))
            for z in range(6)]  # fmt: skip


def toml(numbers: list[int]) -> str:
    """The puzzle as a puzzlebox file (as the catalog's burr files are written)."""
    grid = _layers({c: "#" for c in COVER})
    optional = _layers({c: "+" for c, n in COVER.items() if n > 1})
    lines = ['lattice = "cube"', "[board]", f"grid = {json.dumps(grid)}",
             f"optional = {json.dumps(optional)}", "[pieces]"]
    for k, n in sorted(Counter(numbers).items()):
        lines.append(f"K{k} = {{ shape = {json.dumps(stick(k))}, count = {n} }}")
    lines += ["[rules]", "rotate = true", "reflect = false", ""]
    return "\n".join(lines)


def xmpuzzle(numbers: list[int]) -> str:
    """The same puzzle for BurrTools: the inner cubes are variable voxels (``+``)."""

    def voxel(cells: dict[Cell, str], name: str) -> str:
        size = [1 + max(c[i] for c in cells) for i in range(3)]
        text = "".join(cells.get((x, y, z), "_") for z in range(size[2])
                       for y in range(size[1]) for x in range(size[0]))  # fmt: skip
        return (f'<voxel x="{size[0]}" y="{size[1]}" z="{size[2]}" name="{name}" '
                f'type="0">{text}</voxel>')

    shapes = [voxel({c: "+" if n > 1 else "#" for c, n in COVER.items()}, "Burr")]
    counts = []
    for i, (k, n) in enumerate(sorted(Counter(numbers).items()), start=1):
        layers = stick(k)
        cells = {(x, y, z): "#" for z in range(2) for y, row in enumerate(layers[z].split("/"))
                 for x, ch in enumerate(row) if ch == "#"}  # fmt: skip
        shapes.append(voxel(cells, f"K{k}"))
        counts.append(f'<shape id="{i}" count="{n}"/>')
    return ('<?xml version="1.0"?>\n<puzzle version="2"><gridType type="0"/><colors/><shapes>'
            + "".join(shapes) + '</shapes><problems><problem name="burr" state="0"><shapes>'
            + "".join(counts) + '</shapes><result id="0"/><bitmap/></problem></problems>'
            "</puzzle>\n")


# -- symmetry: the burr's 12 rotations and one mirror, on placed solutions ----------------


def _apply(turn: tuple[tuple[int, ...], tuple[int, ...]], c: Cell) -> Cell:
    order, flips = turn
    v = [5 - c[o] if f else c[o] for o, f in zip(order, flips, strict=True)]
    return (v[0], v[1], v[2])


def _turns() -> list[tuple[tuple[int, ...], tuple[int, ...]]]:
    from itertools import permutations, product

    found = []
    for order in permutations(range(3)):
        odd = sum(order[i] > order[j] for i in range(3) for j in range(i + 1, 3)) % 2
        for flips in product((0, 1), repeat=3):
            turn = (order, flips)
            if (sum(flips) + odd) % 2 == 0 and {_apply(turn, c) for c in COVER} == set(COVER):
                found.append(turn)
    assert len(found) == 12  # the burr's shape has 12 rotations (and 12 mirror maps)
    return found


TURNS = _turns()
Assembly = frozenset[tuple[str, frozenset[Cell]]]


def canonical(assembly: Assembly) -> tuple:
    """The least form of an assembly over the burr's rotations."""
    return min(tuple(sorted((name, tuple(sorted(_apply(t, c) for c in cells)))
                            for name, cells in assembly)) for t in TURNS)  # fmt: skip


def _proper_key(cells: set[Cell]) -> tuple:
    """One name for a piece and its turns (not its mirror image)."""
    from itertools import permutations, product

    forms = []
    for order in permutations(range(3)):
        odd = sum(order[i] > order[j] for i in range(3) for j in range(i + 1, 3)) % 2
        for signs in product((1, -1), repeat=3):
            if (signs.count(-1) + odd) % 2:
                continue
            moved = [tuple(s * c[o] for o, s in zip(order, signs, strict=True)) for c in cells]
            low = [min(m[i] for m in moved) for i in range(3)]
            forms.append(tuple(sorted(tuple(m[i] - low[i] for i in range(3)) for m in moved)))
    return min(forms)


def mirror_names(numbers: list[int]) -> dict[str, str] | None:
    """Each piece's mirror image among the set's pieces, or None when the set is not its
    own mirror image (then a mirror is no symmetry of the puzzle)."""
    def cells(k: int) -> set[Cell]:
        layers = stick(k)
        return {(x, y, z) for z in range(2) for y, row in enumerate(layers[z].split("/"))
                for x, ch in enumerate(row) if ch == "#"}  # fmt: skip

    keys = {f"K{k}": _proper_key(cells(k)) for k in set(numbers)}
    mirrored = {f"K{k}": _proper_key({(-x, y, z) for x, y, z in cells(k)}) for k in set(numbers)}
    names: dict[str, str] = {}
    for name, key in mirrored.items():
        match = [other for other, k in keys.items() if k == key]
        if not match:
            return None
        names[name] = match[0]
    counts = Counter(numbers)
    if any(counts[int(a[1:])] != counts[int(b[1:])] for a, b in names.items()):
        return None
    return names


def mirror(assembly: Assembly, names: dict[str, str]) -> Assembly:
    return frozenset((names[name], frozenset((5 - x, y, z) for x, y, z in cells))
                     for name, cells in assembly)  # fmt: skip


def _assembly(obj: dict) -> Assembly:
    """A solution object's placements as (piece, cells (x, y, z))."""
    return frozenset((p["piece"], frozenset((c[2], c[1], c[0]) for c in p["cells"]))
                     for p in obj["placements"])  # fmt: skip


def _cli(*argv: str) -> list[dict]:
    from puzzlebox.cli import main

    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        code = main(list(argv))
    assert code == 0, (argv, code)
    return [json.loads(line) for line in out.getvalue().splitlines() if line.strip()]


def burrtxt(binary: Path, path: Path) -> tuple[int, int, Counter[str]]:
    out = subprocess.run([str(binary), "-d", str(path)], capture_output=True, text=True,
                         timeout=600, check=True).stdout
    found = re.search(r"(\d+) assemblies and (\d+) solutions", out)
    assert found, out[-300:]
    levels = Counter(re.findall(r"^level: (\S+)", out, re.M))
    return int(found.group(1)), int(found.group(2)), levels


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", help="booklet numbers, e.g. 47,51")
    parser.add_argument("--burrtxt", default="/work/notes/burrtools-bin/burrTxt")
    args = parser.parse_args()
    rows = [line.split() for line in BOOKLET.strip().splitlines()]
    if args.only:
        wanted = {int(n) for n in args.only.split(",")}
        rows = [r for r in rows if int(r[0]) in wanted]
    binary = Path(args.burrtxt)
    agree_booklet = agree_burrtools = 0
    print("| # | pieces | booklet level, sol/asm | puzzlebox (mirrors apart) | "
          "count --disassemble | burrTxt -d |")
    print("|---|---|---|---|---|---|")
    start = time.perf_counter()
    with tempfile.TemporaryDirectory() as tmp:
        for row in rows:
            number, numbers = int(row[0]), [int(v) for v in row[1:7]]
            level, (sol, asm) = int(row[7]), map(int, row[8].split("/"))
            path = Path(tmp) / f"burr-{number}.toml"
            path.write_text(toml(numbers))
            every = {canonical(_assembly(o)) for o in _cli("solve", str(path), "--all", "--json",
                                                             "--quiet")}  # fmt: skip
            apart = _cli("solve", str(path), "--disassemble", "--all", "--json", "--quiet")
            names = mirror_names(numbers)
            ours_sol = sum(1 if names is None or canonical(mirror(_assembly(o), names))
                           == canonical(_assembly(o)) else 2 for o in apart)  # fmt: skip
            firsts = sorted({int(o["level"].split(".")[0]) for o in apart})
            good = level in firsts and (ours_sol, len(every)) == (sol, asm)
            agree_booklet += good
            (count,) = _cli("count", str(path), "--disassemble", "--json")
            levels = Counter({lv["level"]: lv["assemblies"] for lv in count["levels"]})
            pb = (count["assemblies"], count["come_apart"], levels)
            bt_text = "not run"
            if binary.exists():
                xm = Path(tmp) / f"burr-{number}.xmpuzzle"
                xm.write_text(xmpuzzle(numbers))
                bt = burrtxt(binary, xm)
                agree_burrtools += bt == pb
                bt_text = "same" if bt == pb else f"{bt[0]}, {bt[1]}, {dict(bt[2])}"
            print(f"| {number} | {' '.join(map(str, numbers))} | {level}, {sol}/{asm} | "
                  f"{' or '.join(map(str, firsts))}, {ours_sol}/{len(every)}"
                  f"{'' if good else ' DIFFERS'} | "
                  f"{pb[0]} asm, {pb[1]} apart, {' '.join(sorted(levels))} | {bt_text} |")
    print(f"\n{agree_booklet} of {len(rows)} rows agree with the booklet; {agree_burrtools} of "
          f"{len(rows)} with burrTxt -d ({time.perf_counter() - start:.0f} s)")
    return 0 if agree_booklet == len(rows) else 1


if __name__ == "__main__":
    sys.exit(main())
