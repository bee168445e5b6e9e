"""Make docs/gallery.md: a picture of a solution of every catalog puzzle, drawn by the CLI.

    .venv/bin/python docs/make_gallery.py [--timeout SECONDS] [NAME ...]

For each puzzle it runs ``puzzlebox solve NAME --format svg --out docs/gallery/NAME.svg``
(a batch gives one sheet of all its boards). A puzzle with no solution, or none found within
the time limit, is shown as ``puzzlebox show NAME --format svg --out FILE`` draws it, with
the reason.
Naming puzzles redraws only those and keeps the other entries of the page.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
from pathlib import Path

from puzzlebox import catalog

DOCS = Path(__file__).resolve().parent
GALLERY = DOCS / "gallery"
PAGE = DOCS / "gallery.md"
NOTES = GALLERY / "notes.json"  # what each picture shows, kept so the page can be rebuilt

HEAD = """# Gallery

A solution of every puzzle in the catalog, as `puzzlebox solve NAME --format svg --out
FILE` draws it: each placed piece is one polygon in its own colour, labelled with its name;
colour-matched boards show their dark squares as a shade over the pieces; holes in a board
are hatched. Polyiamonds and polyhexes are drawn as triangles and hexagons, each piece one
outline; a polycube solution is an isometric view of the assembled solid (each piece in its
colour, faces shaded by the way they face, each piece outlined as seen) beside its layers,
bottom first, where every cube shows its piece's colour and name. A puzzle without a
solution is shown as `puzzlebox show NAME --format svg --out FILE` draws it: the empty
board and every piece. Made by `docs/make_gallery.py`. One picture of each, by hand:

```console
$ puzzlebox solve pentomino-6x10 --format svg --out pentomino-6x10.svg
pentomino-6x10.svg
$ puzzlebox show pentomino-6x10 --format svg --out pentomino-6x10-pieces.svg
pentomino-6x10-pieces.svg
```
"""


def cli(*args: str, timeout: float) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "puzzlebox.cli", *args],
        capture_output=True, text=True, timeout=timeout, check=False,
    )


# Puzzles that backtracking cannot solve in any reasonable time, and the search that can.
ENGINES = {"parallelogram-7": "sink", "parallelogram-7-rotate": "sink"}


def draw(name: str, timeout: float) -> str:
    """Draw one puzzle; return the sentence that goes under its picture."""
    out = GALLERY / f"{name}.svg"
    out.unlink(missing_ok=True)
    engine = ENGINES.get(name, "auto")
    try:
        solved = cli("solve", name, "--format", "svg", "--out", str(out), "--quiet",
                     "--engine", engine, timeout=timeout)
    except subprocess.TimeoutExpired:
        solved = None
    if solved is not None and solved.returncode == 0 and out.exists():
        reasons = [line for line in solved.stderr.splitlines() if "no solution" in line]
        note = "The first solution found." if engine == "auto" else (
            f"The tiling found by `puzzlebox solve {name} --engine {engine}`."
        )
        if reasons:
            note += " " + " ".join(reasons)
        return note
    shown = cli("show", name, "--format", "svg", "--out", str(out), timeout=120)
    if shown.returncode != 0:
        raise RuntimeError(shown.stderr.strip())
    if solved is None:
        return f"No solution found within {timeout:.0f} s; the puzzle itself."
    said = solved.stderr.strip().splitlines()
    reason = said[-1].partition("no solution")[2].lstrip(": ") if said else ""
    return f"No solution: {reason}." if reason else "No solution."


def lattice_index(names: list[str]) -> str:
    """A line per lattice naming its puzzles (with links), so the few puzzles on triangles,
    hexagons and cubes are found among the many on squares; puzzles that stand on no
    lattice (cards, queens) are left out."""
    by_lattice: dict[str, list[str]] = {}
    for name in names:
        lattice = getattr(catalog.load_file(name).puzzles[0], "lattice", None)
        if lattice is not None:
            by_lattice.setdefault(lattice.name, []).append(name)
    lines = ["By lattice:", ""]
    for label in sorted(by_lattice, key=lambda k: (len(by_lattice[k]), k)):
        links = ", ".join(f"[{n}](#{n})" for n in by_lattice[label])
        lines.append(f"- {label}: {links}")
    return "\n".join(lines) + "\n"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--timeout", type=float, default=120.0,
                        help="seconds to look for a solution (default 120)")
    parser.add_argument("names", nargs="*", help="only these puzzles (default: all)")
    args = parser.parse_args()
    GALLERY.mkdir(exist_ok=True)
    notes: dict[str, str] = json.loads(NOTES.read_text()) if NOTES.exists() else {}
    failed = []
    for name in args.names or catalog.names():
        try:
            notes[name] = draw(name, args.timeout)
        except RuntimeError as error:
            failed.append(f"{name}: {error}")
            continue
        print(f"{name}: {notes[name]}", flush=True)
    names = [n for n in catalog.names() if n in notes]
    for old in GALLERY.glob("*.svg"):
        if old.stem not in catalog.names():  # a puzzle that left the catalog
            old.unlink()
    NOTES.write_text(json.dumps({n: notes[n] for n in names}, indent=1) + "\n")
    parts = [HEAD, lattice_index(names)]
    for name in names:
        title = catalog.load_file(name).title
        parts.append(f"## {name}\n\n{title}\n\n![{name}](gallery/{name}.svg)\n\n{notes[name]}\n")
    PAGE.write_text("\n".join(parts))
    if failed:
        raise SystemExit("not drawn:\n" + "\n".join(failed))


if __name__ == "__main__":
    main()
