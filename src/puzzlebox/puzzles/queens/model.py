"""n-queens: n queens on an n x n board, no two on a row, column or diagonal.

Rows and columns are primary items (exactly one queen each); diagonals are secondary
(at most one queen each). The puzzle-hunt variants change only the options and the
diagonals: a hole is a square with no option; a given queen leaves no option on a square it
attacks (so it is the only option of its row, and every solution holds it); on a torus the
diagonals wrap, and as there are then n of each and n queens, each is covered exactly once
(primary). The symmetries are the board's maps (the square's eight, and on a torus its
translations too) that keep the squares left.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterator, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, cast

from puzzlebox.engine.registry import EngineSpec, register
from puzzlebox.engine.search import Capability, Job, Search, Subproblem
from puzzlebox.geometry import SYMMETRIES, Symmetry
from puzzlebox.puzzles.base import Puzzle, Solution, register_kind
from puzzlebox.puzzles.proofs import Proof
from puzzlebox.puzzles.queens.board import (
    Square,
    attack_line,
    read_board,
    read_givens,
)
from puzzlebox.puzzles.queens.text import queens_lines
from puzzlebox.puzzles.reading import COMMON_KEYS, FileReader

if TYPE_CHECKING:
    from puzzlebox.cover.problem import CoverProblem
    from puzzlebox.cover.symmetry import Perms
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


# The kind's own engine (engine/queens_bitmask.py), registered with the kind and described
# here: the engine's module (numpy, its kernels) is imported when a search starts, so that
# reading and showing a puzzle loads none of it (issue #23).
def _start_bitmask(job: Job) -> Search:
    from puzzlebox.engine import queens_bitmask

    return queens_bitmask.start(job)


def _bitmask_accepts(job: Job) -> str | None:
    from puzzlebox.engine import queens_bitmask

    return queens_bitmask.accepts(job)


def _frontier_bitmask(job: Job, depth: int) -> list[Subproblem]:
    from puzzlebox.engine import queens_bitmask

    return queens_bitmask.frontier(job, depth)


BITMASK = register(EngineSpec(
    name="queens-bitmask",
    summary="n-queens counts by bitmasks (holes, givens, the torus too), distinct ones by "
            "Burnside's lemma; splits by rows",
    can=frozenset({Capability.COUNT, Capability.DISTINCT, Capability.SPLIT, Capability.PROVE}),
    start=_start_bitmask,
    accepts=_bitmask_accepts,
    frontier=_frontier_bitmask,
    memory=lambda job: 4 << 20,  # a few bitmasks a row: nothing that grows with the search
))


@register_kind
class QueensPuzzle(Puzzle):
    kind = "queens"

    def __init__(self, name: str, n: int, title: str = "", notes: str = "", *,
                 torus: bool = False, holes: frozenset[Square] = frozenset(),
                 givens: tuple[Square, ...] = ()) -> None:
        super().__init__(name, title, notes)
        self.n = n
        self.torus = torus
        self.holes = holes
        self.givens = givens

    @classmethod
    def read(cls, r: FileReader, doc: dict[str, Any], name: str, title: str, notes: str
             ) -> list[Puzzle]:
        """``n = 8``: the board's side, and the number of queens; ``torus``, ``board`` (its
        holes) and ``givens``: the variants (docs/puzzle-format.md)."""
        r.check_keys(doc, COMMON_KEYS | {"n", "torus", "board", "givens"}, ())
        torus = r.boolean(doc, "torus", False, ())
        n, holes = read_board(r, doc)
        givens = read_givens(r, doc, n, holes)
        return [cls(name, n, title, notes, torus=torus, holes=holes, givens=givens)]

    # -- the board -------------------------------------------------------------------------
    def attacks(self, a: Square, b: Square) -> str | None:
        """The line on which queens on ``a`` and ``b`` attack each other, or None."""
        return attack_line(self.n, self.torus, a, b)

    def squares(self) -> list[Square]:
        """The squares a queen may take, in reading order: not a hole, and not attacked by a
        given queen (a given's own square stays)."""
        givens = set(self.givens)
        return [
            (r, c) for r in range(self.n) for c in range(self.n)
            if (r, c) not in self.holes
            and ((r, c) in givens or not any(self.attacks((r, c), g) for g in givens))
        ]

    def build_problem(self) -> CoverProblem:
        # the bitmask engine's problems (engine/queens_bitmask.py)
        from puzzlebox.engine.queens_bitmask import queens_problem, torus_problem

        plain = not (self.holes or self.givens)
        build = torus_problem if self.torus else queens_problem
        return build(self.n, None if plain else self.squares())

    def proofs(self) -> Iterator[Proof]:
        """Two given queens that attack each other; a row or column with no square left."""
        for i, a in enumerate(self.givens):
            for b in self.givens[i + 1:]:
                line = self.attacks(a, b)
                if line is not None:
                    yield Proof("givens", f"the given queens at {list(a)} and {list(b)} "
                                f"share a {line}")
                    return
        if not (self.holes or self.givens):
            return
        left = self.squares()
        for axis, word in ((0, "row"), (1, "column")):
            taken = {square[axis] for square in left}
            for i in range(self.n):
                if i not in taken:
                    why = "holes and the givens' lines" if self.givens else "holes"
                    yield Proof("lines", f"{word} {i + 1} has no square left for a queen "
                                f"(its squares are {why})")
                    return

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

    def build_symmetries(self) -> Perms:
        """The board's maps that keep the squares a queen may take, as permutations of
        them: the eight symmetries of the square, and on a torus each composed with the
        n * n translations (identity first).

        A count of a board the bitmask engine takes never asks for them (it counts distinct
        solutions itself, by Burnside's lemma), so ``count queens-8`` loads no numpy; the
        counts that break symmetry (holes or givens that break it, the torus) build them in
        plain Python or numpy as cover/symmetry.py's ``in_form`` chooses."""
        from puzzlebox.cover.symmetry import in_form, options_by_labels

        n = self.n
        shifts = [(a, b) for a in range(n) for b in range(n)] if self.torus else [(0, 0)]
        left = set(self.squares())
        maps = []
        for sym in SYMMETRIES:
            for a, b in shifts:
                move = _mover(n, sym, a, b)
                if all(move(square) in left for square in left):
                    maps.append(options_by_labels(self.problem, move))
        return in_form(self.problem, maps)

    # -- drawing ---------------------------------------------------------------------------
    def text_lines(self, solution: Solution, style: str = "text") -> list[str]:
        assert isinstance(solution, QueensSolution)
        return queens_lines(self, solution)

    def describe_lines(self) -> list[str]:
        n = self.n
        board = "torus" if self.torus else "board"
        words = [f"{n} queens on a {n} x {n} {board}"]
        if self.holes:
            words.append(f"{len(self.holes)} hole{'s' if len(self.holes) != 1 else ''}")
        if self.givens:
            words.append(f"{len(self.givens)} given")
        lines = [", ".join(words)]
        if self.holes or self.givens:
            lines += queens_lines(self, QueensSolution(self.givens))
        return lines

    def solution_panel(self, solution: Solution, title: str) -> Panel:
        from puzzlebox.puzzles.queens.pictures import queens_panel  # matplotlib

        assert isinstance(solution, QueensSolution)
        return queens_panel(self.n, solution.queens, title, "solution", self.holes)

    def puzzle_panels(self, title: str) -> tuple[Panel, list[Panel]]:
        from puzzlebox.puzzles.queens.pictures import queens_panel  # matplotlib

        return queens_panel(self.n, self.givens, f"{self.n} queens", "board", self.holes), []


def _mover(n: int, sym: Symmetry, a: int, b: int) -> Callable[[Square], Square]:
    """``sym`` moved back onto the board, then shifted by ``(a, b)`` around a torus (a
    plain board has only the shift ``(0, 0)``)."""
    corners = [sym((0, 0)), sym((n - 1, n - 1))]
    r0 = min(r for r, _ in corners)
    c0 = min(c for _, c in corners)

    def move(square: Square) -> Square:
        r, c = sym(square)
        return (r - r0 + a) % n, (c - c0 + b) % n

    return move
