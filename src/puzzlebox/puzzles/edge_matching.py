"""Edge-matching cards: square cards on a rectangle, touching edges must match.

Items: each board position and each card (both exactly once); each inner edge of the board is
a secondary item whose colour is the label seen from its top or left side, so two cards agree
exactly when they give the edge the same colour. With complements, the card on the bottom or
right side gives the complement of its label instead; a label without a complement then
matches nothing.
"""

from __future__ import annotations

from collections.abc import Hashable
from dataclasses import dataclass
from typing import Any

from puzzlebox.cover.problem import CoverBuilder, CoverProblem
from puzzlebox.engine.registry import EngineSpec, register
from puzzlebox.engine.search import Capability, Job, Search
from puzzlebox.puzzles.base import Puzzle, Solution, SolutionMap

TOP, RIGHT, BOTTOM, LEFT = range(4)


@dataclass(frozen=True)
class CardPlacement:
    card: str
    row: int
    col: int
    turns: int  # quarter turns clockwise


@dataclass(frozen=True)
class EdgeMatchingSolution(Solution):
    placements: tuple[CardPlacement, ...]

    def placements_json(self) -> list[dict[str, Any]]:
        return [
            {"card": p.card, "row": p.row, "col": p.col, "turns": p.turns} for p in self.placements
        ]

    def key(self) -> tuple[Hashable, ...]:
        return tuple(sorted((p.row, p.col, p.card, p.turns) for p in self.placements))


def turned(labels: tuple[str, ...], turns: int) -> tuple[str, ...]:
    """A card's labels (top, right, bottom, left) after ``turns`` clockwise quarter turns."""
    return tuple(labels[(side - turns) % 4] for side in range(4))


class EdgeMatchingPuzzle(Puzzle):
    kind = "edge-matching"

    def __init__(
        self,
        name: str,
        rows: int,
        cols: int,
        cards: dict[str, tuple[str, str, str, str]],
        *,
        rotate: bool = True,
        complements: dict[str, str] | None = None,
        border: str | None = None,
        title: str = "",
        notes: str = "",
    ) -> None:
        super().__init__(name, title, notes)
        self.rows = rows
        self.cols = cols
        self.cards = dict(cards)
        self.rotate = rotate
        self.complements = dict(complements or {})
        self.border = border

    def complement(self, label: str) -> Hashable:
        """What must face ``label``: the label itself, or with complements its complement.

        With ``[rules.complements]`` a label must meet its complement, so a label that has
        none matches nothing inside the board (it can still lie on the border).
        """
        if not self.complements:
            return label
        return self.complements.get(label, ("no complement", label))

    def turns_of(self, card: str) -> list[int]:
        """Distinct turns of a card: a card that looks the same turned is placed once."""
        if not self.rotate:
            return [0]
        seen: dict[tuple[str, ...], int] = {}
        for t in range(4):
            seen.setdefault(turned(self.cards[card], t), t)
        return sorted(seen.values())

    def canonical_turn(self, card: str, turns: int) -> int:
        look = turned(self.cards[card], turns % 4)
        return next(t for t in self.turns_of(card) if turned(self.cards[card], t) == look)

    def build_problem(self) -> CoverProblem:
        b = CoverBuilder()
        R, C = self.rows, self.cols
        for r in range(R):
            for c in range(C):
                b.primary(("pos", r, c))
        for card in self.cards:
            b.primary(("card", card))
        for r in range(R):
            for c in range(C):
                if c + 1 < C:
                    b.secondary(("vedge", r, c))  # between (r, c) and (r, c+1)
                if r + 1 < R:
                    b.secondary(("hedge", r, c))  # between (r, c) and (r+1, c)
        for card, labels in self.cards.items():
            for t in self.turns_of(card):
                top, right, bottom, left = turned(labels, t)
                for r in range(R):
                    for c in range(C):
                        if self.border is not None and not all(
                            label == self.border
                            for label, outer in (
                                (top, r == 0),
                                (bottom, r == R - 1),
                                (left, c == 0),
                                (right, c == C - 1),
                            )
                            if outer
                        ):
                            continue
                        items: list[Hashable] = [("pos", r, c), ("card", card)]
                        colors: list[Hashable | None] = [None, None]
                        if r > 0:
                            items.append(("hedge", r - 1, c))
                            colors.append(self.complement(top))
                        if c > 0:
                            items.append(("vedge", r, c - 1))
                            colors.append(self.complement(left))
                        if r + 1 < R:
                            items.append(("hedge", r, c))
                            colors.append(bottom)
                        if c + 1 < C:
                            items.append(("vedge", r, c))
                            colors.append(right)
                        b.option(items, CardPlacement(card, r, c, t), colors)
        return b.build()

    def decode(self, chosen: tuple[int, ...]) -> EdgeMatchingSolution:
        labels = self.problem.labels
        return EdgeMatchingSolution(
            tuple(sorted((labels[k] for k in chosen), key=lambda p: (p.row, p.col)))
        )

    def symmetry_maps(self) -> list[SolutionMap]:
        """Turning the whole board turns every card; only possible when cards may turn."""
        if not self.rotate:
            return []
        R, C = self.rows, self.cols
        quarter = [1, 2, 3] if R == C else [2]

        def mapper(q: int) -> SolutionMap:
            def move(r: int, c: int) -> tuple[int, int]:
                if q == 2:
                    return R - 1 - r, C - 1 - c
                for _ in range(q):  # only square boards turn by a quarter
                    r, c = c, R - 1 - r
                return r, c

            def apply(solution: Solution) -> Solution:
                assert isinstance(solution, EdgeMatchingSolution)
                moved = []
                for p in solution.placements:
                    r, c = move(p.row, p.col)
                    moved.append(
                        CardPlacement(p.card, r, c, self.canonical_turn(p.card, p.turns + q))
                    )
                return EdgeMatchingSolution(tuple(sorted(moved, key=lambda p: (p.row, p.col))))

            return apply

        return [mapper(q) for q in quarter]

    def impossibility(self) -> str | None:
        if len(self.cards) != self.rows * self.cols:
            return (
                f"the board has {self.rows * self.cols} places but there are "
                f"{len(self.cards)} cards"
            )
        return None


# -- the kind's own solver, in the engine registry ----------------------------------------------


def _edges_accepts(job: Job) -> str | None:
    if not isinstance(job.puzzle, EdgeMatchingPuzzle) or job.problem is not job.puzzle.problem:
        return "the edges solver solves edge-matching puzzles only"
    if job.forced or job.excluded:
        return "the edges solver searches whole puzzles, not subproblems"
    return None


def _edges_start(job: Job) -> Search:
    from puzzlebox.puzzles.edge_solver import start

    return start(job)


register(EngineSpec(
    name="edges",
    summary="edge-matching cards, filled in reading order from per-place candidate tables",
    can=frozenset({Capability.SOLVE, Capability.COUNT, Capability.PROVE}),
    start=_edges_start,
    accepts=_edges_accepts,
    seeded=True,
))  # fmt: skip
