"""Siegel's Starter Burr Set searched as a design space (issue #34, item 4): every six-piece
burr its pieces make, against the 90 the booklet lists.

The pool is the sticks the booklet's 90 burrs use (bench/burr_booklet.py has the list, as
Känel numbers), each with as many copies as the burr that uses it most: 23 sticks, K1024
twice, 24 pieces in all (the set as the booklet's burrs need it; docs/design-search.md). A design
takes 6 of them into the six-piece burr board with its 32 inner cells optional (as the
catalog's burrs are written), is kept when an assembly comes apart, and the kept designs
are ranked by level. The run is ``puzzlebox design FILE --json --out DIR`` (the pool is
searched together: one search of the pool puzzle, then each assembly taken apart).

Then, for each of the booklet's burrs, the kept design of its pieces (or of their mirror
set, the design the space tries for both) is checked against the booklet's row:

* level: the first number of the design's highest level; where that is not the booklet's,
  the levels of every assembly (``count --disassemble`` on the written file) must hold it
  (the booklet gives one of a burr's levels where its solutions differ: #30, 2 and 3);
* solutions (assemblies that come apart, up to rotation, mirror images apart): the design's
  ``come_apart_mirrors`` where the set is its own mirror image, else ``come_apart``;
* assemblies (up to rotation, mirror images apart): the design's ``assemblies`` where the
  set is not its own mirror image; else counted from ``solve --all`` on the written file up
  to the burr's 12 rotations (bench/burr_booklet.py's ``canonical``).

Last it lists the designs found beyond the booklet: how many at each level, and the highest
ones (``--top-level``), and those of one assembly that comes apart (up to symmetry) at
``--unique-level`` or higher, with the moves that take them apart (``puzzlebox moves FILE
--solution N`` on the design file written with ``--out``). The design command's JSON lines
are kept in DIR/design.jsonl; ``--reuse`` reads them (and DIR/kept) instead of searching
again.

    .venv/bin/python bench/burr_booklet_design.py [--dir DIR] [--reuse] [--top-level 7]
        [--unique-level 5] [--jobs N]
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import os
import resource
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import burr_booklet as booklet  # noqa: E402


def rows() -> list[tuple[int, list[int], int, int, int]]:
    """The booklet's burrs: number, Känel numbers, level, solutions, assemblies."""
    found = []
    for line in booklet.BOOKLET.strip().splitlines():
        row = line.split()
        sol, asm = map(int, row[8].split("/"))
        found.append((int(row[0]), [int(v) for v in row[1:7]], int(row[7]), sol, asm))
    return found


def starter_set() -> Counter[int]:
    """Each stick the booklet's burrs use, with the most copies one burr uses."""
    most: Counter[int] = Counter()
    for _, numbers, *_ in rows():
        for k, n in Counter(numbers).items():
            most[k] = max(most[k], n)
    return most


def space_text() -> str:
    """The design file: the set's pieces as the pool, six of them, coming apart."""
    most = starter_set()
    text = booklet.toml(list(most.elements()))
    pool = ", ".join(f'"K{k}"' for k in sorted(most))
    design = (f"[design]\npool = [{pool}]\ntake = 6\ncomes_apart = true\n"
              'rank = "level"\n\n')
    note = ("# Siegel's Starter Burr Set as a design space: six of its sticks (each with the "
            "most\n# copies one of the booklet's 90 burrs uses) in the six-piece burr, "
            "coming apart.\n")
    return note + text.replace("[rules]", design + "[rules]")


def cli(*argv: str) -> tuple[int, str]:
    from puzzlebox.cli import main

    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        code = main(list(argv))
    return code, out.getvalue()


def first(level: str | None) -> int | None:
    return None if level is None else int(level.split(".")[0])


def check_booklet(results: dict[tuple[tuple[str, int], ...], dict], space: object,
                  out: Path) -> tuple[int, list[str], set[int]]:
    """The booklet's rows against the kept designs: (rows that agree, table lines, the
    indices of the booklet's designs)."""
    from puzzlebox.designs.space import Design

    agree, lines, indices = 0, [], set()
    for number, numbers, level, sol, asm in rows():
        pieces = tuple((f"K{k}", n) for k, n in sorted(Counter(numbers).items()))
        design = space.canonical_form(space.index_of(Design(-1, 0, pieces)))  # type: ignore[attr-defined]
        indices.add(design.index)
        found = results.get(design.pieces)
        if found is None:
            lines.append(f"| {number} | {' '.join(map(str, numbers))} | {level}, {sol}/{asm} "
                         "| not kept | DIFFERS |")
            continue
        own_mirror = booklet.mirror_names(numbers) is not None
        ours_sol = found["come_apart_mirrors"] if own_mirror else found["come_apart"]
        ours_asm = found["assemblies"]
        path = out / Path(found["file"]).name
        if own_mirror:  # assemblies with mirror images apart, from the written file
            code, text = cli("solve", str(path), "--all", "--json", "--quiet")
            ours_asm = len({booklet.canonical(booklet._assembly(json.loads(line)))
                            for line in text.splitlines() if line.strip()})
        firsts = {first(found["level"])}
        if level not in firsts:  # every assembly's level, from the written file
            code, text = cli("count", str(path), "--disassemble", "--json")
            firsts = {first(lv["level"]) for lv in json.loads(text)["levels"]}
        good = level in firsts and (ours_sol, ours_asm) == (sol, asm)
        agree += good
        mirror = "" if design.pieces == pieces else " (as its mirror set)"
        lines.append(f"| {number} | {' '.join(map(str, numbers))} | {level}, {sol}/{asm} | "
                     f"{found['level']}, {ours_sol}/{ours_asm}{mirror} | "
                     f"{'same' if good else 'DIFFERS'} |")
    return agree, lines, indices


def moves_of(path: Path, level: str, come_apart: int) -> str:
    """The moves of the design's assembly at ``level`` (its highest)."""
    for n in range(1, come_apart + 1):
        code, text = cli("moves", str(path), "--solution", str(n))
        if code == 0 and f"at level {level} " in text.splitlines()[0]:
            return text
    return f"(no assembly at level {level} among {come_apart})\n"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--dir", help="where to write the design file, the kept designs "
                        "(kept/) and the report (default: a temporary folder)")
    parser.add_argument("--top-level", type=int, default=7,
                        help="list the moves of designs beyond the booklet at this level "
                        "or higher (default 7)")
    parser.add_argument("--unique-level", type=int, default=5,
                        help="list the moves of designs beyond the booklet with one assembly "
                        "that comes apart, at this level or higher (default 5)")
    parser.add_argument("--reuse", action="store_true",
                        help="read DIR/design.jsonl of an earlier run instead of searching")
    parser.add_argument("--jobs", type=int, default=1)
    args = parser.parse_args()
    from puzzlebox.designs.space import DesignSpace

    with tempfile.TemporaryDirectory() as tmp:
        root = Path(args.dir or tmp)
        root.mkdir(parents=True, exist_ok=True)
        space_file = root / "starter-burr-set.toml"
        space_file.write_text(space_text())
        kept_dir = root / "kept"
        saved = root / "design.jsonl"
        argv = ["design", str(space_file), "--json", "--quiet", "--out", str(kept_dir)]
        if args.jobs > 1:
            argv += ["--jobs", str(args.jobs)]
        if args.reuse and saved.exists():
            text = saved.read_text()
            print(f"(the JSON lines of an earlier run: {saved})")
        else:
            began, cpu = time.perf_counter(), time.process_time()
            load = os.getloadavg()
            code, text = cli(*argv)
            wall = time.perf_counter() - began
            cpu = time.process_time() - cpu + resource.getrusage(
                resource.RUSAGE_CHILDREN).ru_utime
            saved.write_text(text)
            print(f"puzzlebox {' '.join(argv)}: exit {code}, {wall:.0f} s wall, {cpu:.0f} s "
                  f"CPU (load {load[0]:.1f} at the start, {os.getloadavg()[0]:.1f} at the "
                  f"end, {os.cpu_count()} cores)")
        objects = [json.loads(line) for line in text.splitlines() if line.strip()]
        summary = objects[-1]["summary"]
        kept = [o for o in objects[:-1] if o.get("kept")]
        print(f"{summary['designs']:,} designs, {len(kept):,} kept, "
              f"{sum(o['assemblies'] for o in kept):,} assemblies in kept designs\n")
        space = DesignSpace(space_file.read_text(), str(space_file), "starter-burr-set")
        results = {tuple(o["pieces"].items()): o for o in kept}
        agree, lines, indices = check_booklet(results, space, kept_dir)
        print("| # | pieces | booklet level, sol/asm | design search | |\n|---|---|---|---|---|")
        print("\n".join(lines))
        print(f"\n{agree} of {len(lines)} of the booklet's burrs found with their level and "
              "solutions/assemblies\n")
        beyond = [o for o in kept if o["design"] not in indices]
        levels = Counter(first(o["level"]) for o in kept)
        levels_beyond = Counter(first(o["level"]) for o in beyond)
        unique_beyond = Counter(first(o["level"]) for o in beyond if o["come_apart"] == 1)
        print("| level | kept designs | in the booklet | beyond it | beyond, one assembly "
              "comes apart |\n|---|---|---|---|---|")
        for lv in sorted(levels):
            print(f"| {lv} | {levels[lv]:,} | {levels[lv] - levels_beyond[lv]} | "
                  f"{levels_beyond[lv]:,} | {unique_beyond[lv]:,} |")
        top = sorted((o for o in beyond if (first(o["level"]) or 0) >= args.top_level),
                     key=lambda o: (-(first(o["level"]) or 0), o["design"]))
        unique = sorted((o for o in beyond if o["come_apart"] == 1
                         and (first(o["level"]) or 0) >= args.unique_level),
                        key=lambda o: (-(first(o["level"]) or 0), o["design"]))
        for title, listed in ((f"at level {args.top_level} or higher", top),
                              (f"with one assembly that comes apart, at level "
                               f"{args.unique_level} or higher", unique)):
            print(f"\nBeyond the booklet {title}: {len(listed)}\n")
            for o in listed:
                pieces = " ".join(k[1:] + ("x2" if n > 1 else "")
                                  for k, n in o["pieces"].items())
                path = kept_dir / Path(o["file"]).name
                print(f"design {o['design']} ({pieces}): level {o['level']}, "
                      f"{o['come_apart']} of {o['assemblies']} assemblies come apart; "
                      f"puzzlebox moves {path.name}:")
                print("    " + moves_of(path, o["level"], o["come_apart"]).rstrip().replace(
                    "\n", "\n    "))
        return 0 if agree == len(lines) else 1


if __name__ == "__main__":
    sys.exit(main())
