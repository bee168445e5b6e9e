"""n-queens: n queens on an n x n board, no two on a row, column or diagonal.

Rows and columns are primary items (exactly one queen each); diagonals are secondary
(at most one queen each).
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, cast

import numpy as np

from puzzlebox import limits
from puzzlebox.cover.problem import CoverProblem
from puzzlebox.cover.symmetry import options_by_labels
from puzzlebox.engine import queens_bitmask
from puzzlebox.engine.registry import register
from puzzlebox.geometry import SYMMETRIES, Symmetry
from puzzlebox.puzzles.base import Puzzle, Solution, register_kind
from puzzlebox.puzzles.queens.text import queens_lines
from puzzlebox.puzzles.reading import COMMON_KEYS, FileReader

if TYPE_CHECKING:
    from puzzlebox.render.pictures import Panel


@dataclass(frozen=True)
class QueensSolution(Solution):
    queens: tuple[tuple[int, int], ...]  # sorted (row, col)

    @property
    def placements(self) -> tuple[tuple[int, int], ...]:
        """The queens' squares, (row, col): the data under the name every kind gives it."""
        return self.queens

    def placements_json(self) -> list[dict[str, Any]]:
        return [{"row": r, "col": c} for r, c in self.queens]

    def key(self) -> tuple[Hashable, ...]:
        return self.queens


register(queens_bitmask.SPEC)  # the kind's own engine, registered with the kind


@register_kind
class QueensPuzzle(Puzzle):
    kind = "queens"

    def __init__(self, name: str, n: int, title: str = "", notes: str = "") -> None:
        super().__init__(name, title, notes)
        self.n = n

    @classmethod
    def read(cls, r: FileReader, doc: dict[str, Any], name: str, title: str, notes: str
             ) -> list[Puzzle]:
        """``n = 8``: the board's side, and the number of queens."""
        r.check_keys(doc, COMMON_KEYS | {"n"}, ())
        n = r.integer(doc, "n", (), 1, limits.MAX_QUEENS)
        return [cls(name, n, title, notes)]

    def build_problem(self) -> CoverProblem:
        return queens_bitmask.queens_problem(self.n)

    def decode(self, chosen: tuple[int, ...]) -> QueensSolution:
        return QueensSolution(tuple(sorted(self.problem.labels[k] for k in chosen)))

    def option_labels(self, solution: Solution) -> list[Hashable]:
        assert isinstance(solution, QueensSolution)
        return list(solution.queens)

    def move_words(self, label: Hashable) -> str:
        r, c = cast(Any, label)
        return f"queen at row {r + 1}, column {c + 1}"

    def item_words(self, name: Hashable) -> str:
        line, number = cast(Any, name)
        words = {"row": "row", "col": "column", "diag": "diagonal", "anti": "anti-diagonal"}
        return f"{words.get(line, line)} {number + 1}"

    def drawn_ids(self, solution: Solution, labels: Sequence[Hashable]) -> list[str]:
        assert isinstance(solution, QueensSolution)
        return [f"queen-{i}" for i, q in enumerate(solution.queens) if q in labels]

    def build_symmetries(self) -> np.ndarray:
        """The eight symmetries of the square board, as permutations of the squares."""
        n = self.n

        def mover(sym: Symmetry) -> Callable[[tuple[int, int]], tuple[int, int]]:
            corners = [sym((0, 0)), sym((n - 1, n - 1))]
            r0 = min(r for r, _ in corners)
            c0 = min(c for _, c in corners)

            def move(queen: tuple[int, int]) -> tuple[int, int]:
                r, c = sym(queen)
                return r - r0, c - c0

            return move

        return np.array([options_by_labels(self.problem, mover(s)) for s in SYMMETRIES])

    # -- drawing ---------------------------------------------------------------------------
    def text_lines(self, solution: Solution, style: str = "text") -> list[str]:
        assert isinstance(solution, QueensSolution)
        return queens_lines(self, solution)

    def describe_lines(self) -> list[str]:
        return [f"{self.n} queens on a {self.n} x {self.n} board"]

    def solution_panel(self, solution: Solution, title: str) -> Panel:
        from puzzlebox.puzzles.queens.pictures import queens_panel  # matplotlib

        assert isinstance(solution, QueensSolution)
        return queens_panel(self.n, solution.queens, title, "solution")

    def puzzle_panels(self, title: str) -> tuple[Panel, list[Panel]]:
        from puzzlebox.puzzles.queens.pictures import queens_panel  # matplotlib

        return queens_panel(self.n, (), f"{self.n} queens", "board"), []
