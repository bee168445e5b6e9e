"""A kind is one package and one registration (docs/DESIGN.md, "A kind").

A toy kind written here (n rooks on an n x n board, no two on a row or column: n!
solutions, and under the board's eight symmetries the classes that OEIS A000903 counts)
is read from a file, counted, drawn as text and as JSON by the library's own doors,
with nothing else of puzzlebox told about it. And nothing outside a kind's package asks
which kind a puzzle is.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Callable, Hashable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np
import pytest

from puzzlebox.cover.problem import CoverBuilder, CoverProblem
from puzzlebox.cover.symmetry import options_by_labels
from puzzlebox.formats import PuzzleFileError, read_text
from puzzlebox.geometry import SYMMETRIES, Symmetry
from puzzlebox.puzzles import KINDS, Puzzle, Solution, register_kind
from puzzlebox.puzzles.reading import COMMON_KEYS, FileReader
from puzzlebox.render import solution_json

if TYPE_CHECKING:
    from puzzlebox.render.pictures import Panel

SOURCE = Path(__file__).resolve().parents[1] / "src" / "puzzlebox"


@dataclass(frozen=True)
class RooksSolution(Solution):
    rooks: tuple[tuple[int, int], ...]

    def placements_json(self) -> list[dict[str, Any]]:
        return [{"row": r, "col": c} for r, c in self.rooks]

    def key(self) -> tuple[Hashable, ...]:
        return self.rooks


class RooksPuzzle(Puzzle):
    kind = "rooks-test"

    def __init__(self, name: str, n: int, title: str = "", notes: str = "") -> None:
        super().__init__(name, title, notes)
        self.n = n

    @classmethod
    def read(cls, r: FileReader, doc: dict[str, Any], name: str, title: str, notes: str
             ) -> list[Puzzle]:
        r.check_keys(doc, COMMON_KEYS | {"n"}, ())
        return [cls(name, r.integer(doc, "n", (), 1, 8), title, notes)]

    def build_problem(self) -> CoverProblem:
        b = CoverBuilder()
        for i in range(self.n):
            b.primary(("row", i))
            b.primary(("col", i))
        for r in range(self.n):
            for c in range(self.n):
                b.option([("row", r), ("col", c)], (r, c))
        return b.build()

    def decode(self, chosen: tuple[int, ...]) -> RooksSolution:
        return RooksSolution(tuple(sorted(self.problem.labels[k] for k in chosen)))

    def option_labels(self, solution: Solution) -> list[Hashable]:
        assert isinstance(solution, RooksSolution)
        return list(solution.rooks)

    def build_symmetries(self) -> np.ndarray:
        n = self.n

        def mover(sym: Symmetry) -> Callable[[tuple[int, int]], tuple[int, int]]:
            corners = [sym((0, 0)), sym((n - 1, n - 1))]
            r0, c0 = min(r for r, _ in corners), min(c for _, c in corners)
            return lambda cell: (sym(cell)[0] - r0, sym(cell)[1] - c0)

        return np.array([options_by_labels(self.problem, mover(s)) for s in SYMMETRIES])

    def text_lines(self, solution: Solution, style: str = "text") -> list[str]:
        assert isinstance(solution, RooksSolution)
        on = set(solution.rooks)
        return [" ".join("R" if (r, c) in on else "." for c in range(self.n))
                for r in range(self.n)]  # fmt: skip

    def describe_lines(self) -> list[str]:
        return [f"{self.n} rooks"]

    def solution_panel(self, solution: Solution, title: str) -> Panel:
        from puzzlebox.render.pictures import Canvas, Panel

        assert isinstance(solution, RooksSolution)

        def paint(canvas: Canvas, x0: float, y0: float) -> None:
            canvas.rect(x0, y0, self.n, self.n, facecolor="none", edgecolor="#000000",
                        gid=canvas.gid("board"))
            for i, (r, c) in enumerate(solution.rooks):
                canvas.centred(x0 + c + 0.5, y0 + r + 0.5, "R", 0.6, gid=canvas.gid(f"rook-{i}"))

        return Panel("solution", title, float(self.n), float(self.n), paint, 40, 8.0)

    def puzzle_panels(self, title: str) -> tuple[Panel, list[Panel]]:
        return self.solution_panel(RooksSolution(()), title), []


@pytest.fixture
def rooks() -> Iterator[type[RooksPuzzle]]:
    register_kind(RooksPuzzle)
    try:
        yield RooksPuzzle
    finally:
        del KINDS[RooksPuzzle.kind]


# A000903: n rooks on an n x n board up to the board's symmetries.
DISTINCT_ROOKS = {1: 1, 2: 1, 3: 2, 4: 7, 5: 23}


@pytest.mark.parametrize("n", [1, 2, 3, 4, 5])
def test_a_new_kind_is_read_counted_and_shown_with_one_registration(rooks, n):
    pf = read_text(f'kind = "rooks-test"\nn = {n}\n', "r.toml", "r")
    puzzle = pf.puzzles[0]
    assert isinstance(puzzle, rooks) and not pf.batch
    result = puzzle.count()
    assert (result.solutions, result.distinct) == (math.factorial(n), DISTINCT_ROOKS[n])
    solution = puzzle.solve()
    assert solution is not None
    lines = str(solution).splitlines()
    assert len(lines) == n and sum(line.count("R") for line in lines) == n
    assert str(puzzle) == f"{n} rooks"
    assert json.loads(solution_json(puzzle, solution))["placements"] == [
        {"row": r, "col": c} for r, c in solution.rooks]
    if n == 5:  # drawn by the sheet like any kind (matplotlib, in the test extra)
        pytest.importorskip("matplotlib")
        svg = solution.svg()
        assert all(f'id="p0-rook-{i}"' in svg for i in range(n)) and 'id="p0-board"' in svg
        assert 'id="p0-rook-0"' not in puzzle.svg()  # the empty board


def test_the_new_kinds_reader_reports_a_bad_value_at_its_line(rooks):
    with pytest.raises(PuzzleFileError, match=r"r\.toml:2: n: must be at most 8, not 9"):
        read_text('kind = "rooks-test"\nn = 9\n', "r.toml", "r")
    with pytest.raises(PuzzleFileError, match=r"unknown key"):
        read_text('kind = "rooks-test"\nn = 3\nboard = 1\n', "r.toml", "r")


def test_a_kind_not_registered_is_unknown_to_the_reader():
    with pytest.raises(PuzzleFileError, match=r"unknown kind 'rooks-test' \(known: edge-matching, "
                       r"polyomino, polysticks, queens, sudoku\)"):
        read_text('kind = "rooks-test"\nn = 3\n', "r.toml", "r")


# Outside its package nothing asks which kind a puzzle is.
KIND_PACKAGES = {"polyomino", "edge_matching", "queens", "sudoku"}
KNOWN_ASKING: set[str] = set()
ASKS = re.compile(r"isinstance\([^)]*\b(Polyomino|EdgeMatching|Queens|Sudoku)(Puzzle|Solution)\b|"
                  r"\bkind\b[\"']?,?\s*(None\))?\s*[!=]=\s*[\"'](polyomino|edge-matching|queens|sudoku)|"
                  r"[\"'](polyomino|edge-matching|queens|sudoku)[\"']\s*[!=]=")  # fmt: skip


def test_nothing_outside_a_kinds_package_asks_which_kind_a_puzzle_is():
    found = []
    for path in sorted(SOURCE.rglob("*.py")):
        relative = path.relative_to(SOURCE)
        if relative.parts[0] == "puzzles" and relative.parts[1] in KIND_PACKAGES:
            continue
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if ASKS.search(line):
                found.append(f"{relative}:{n}: {line.strip()}")
    asking = {entry.split(":")[0] for entry in found}
    assert asking == KNOWN_ASKING, found
