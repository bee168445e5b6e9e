"""n-queens: n queens on an n x n board, no two on a row, column or diagonal.

Rows and columns are primary items (exactly one queen each); diagonals are secondary
(at most one queen each).
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from dataclasses import dataclass
from typing import Any

from puzzlebox.cover.problem import CoverBuilder, CoverProblem
from puzzlebox.engine import queens_bitmask  # noqa: F401  (registers 'queens-bitmask')
from puzzlebox.engine.stats import SearchStats
from puzzlebox.geometry import SYMMETRIES, Symmetry
from puzzlebox.puzzles.base import Puzzle, Solution, SolutionMap


@dataclass(frozen=True)
class QueensSolution(Solution):
    queens: tuple[tuple[int, int], ...]  # sorted (row, col)

    def placements_json(self) -> list[dict[str, Any]]:
        return [{"row": r, "col": c} for r, c in self.queens]

    def key(self) -> tuple[Hashable, ...]:
        return self.queens


class QueensPuzzle(Puzzle):
    kind = "queens"

    def __init__(self, name: str, n: int, title: str = "", notes: str = "") -> None:
        super().__init__(name, title, notes)
        self.n = n

    def build_problem(self) -> CoverProblem:
        n = self.n
        b = CoverBuilder()
        # Rows and columns from the middle out ("organ-pipe" order, as Knuth does for DLX):
        # engines break ties between items by their order, and a middle row is the more
        # constrained choice (its queens attack more). 13-queens: 1.05 M nodes instead of
        # 1.68 M for the compiled engine.
        for i in sorted(range(n), key=lambda i: (abs(2 * i - (n - 1)), i)):
            b.primary(("row", i))
            b.primary(("col", i))
        for d in range(2 * n - 1):
            b.secondary(("diag", d))
            b.secondary(("anti", d))
        for r in range(n):
            for c in range(n):
                b.option([("row", r), ("col", c), ("diag", r + c), ("anti", r - c + n - 1)], (r, c))
        return b.build()

    def count_search(
        self,
        engine: str = "auto",
        forced: Sequence[int] = (),
        excluded: Sequence[int] = (),
    ) -> tuple[int, int, SearchStats]:
        """A whole count under "auto" runs the bitmask kernel (engine/queens_bitmask.py),
        distinct solutions by Burnside's lemma; a split or a named engine searches the cover
        problem like any other puzzle."""
        from puzzlebox.engine.queens_bitmask import MAX_N, queens_counts

        if engine == "auto" and not forced and not excluded and 1 <= self.n <= MAX_N:
            return queens_counts(self.n)
        return super().count_search(engine, forced, excluded)

    def decode(self, chosen: tuple[int, ...]) -> QueensSolution:
        return QueensSolution(tuple(sorted(self.problem.labels[k] for k in chosen)))

    def symmetry_maps(self) -> list[SolutionMap]:
        n = self.n

        def mapper(sym: Symmetry) -> SolutionMap:
            def apply(solution: Solution) -> Solution:
                assert isinstance(solution, QueensSolution)
                moved = [sym(q) for q in solution.queens]
                r0 = min(r for r, _ in [sym((0, 0)), sym((n - 1, n - 1))])
                c0 = min(c for _, c in [sym((0, 0)), sym((n - 1, n - 1))])
                return QueensSolution(tuple(sorted((r - r0, c - c0) for r, c in moved)))

            return apply

        return [mapper(sym) for sym in SYMMETRIES[1:]]
