"""Edge-matching cards: square cards on a rectangle, touching edges must match.

Items: each board position and each card (both exactly once); each inner edge of the board is
a secondary item whose colour is the label seen from its top or left side, so two cards agree
exactly when they give the edge the same colour. With complements, the card on the bottom or
right side gives the complement of its label instead; a label without a complement then
matches nothing.
"""

from __future__ import annotations

from array import array
from collections.abc import Callable, Hashable, Iterator, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, cast

from puzzlebox.cover.problem import CoverBuilder
from puzzlebox.engine.registry import EngineSpec, footprint, register
from puzzlebox.engine.search import Capability, Job, Search
from puzzlebox.puzzles.base import Puzzle, Solution, register_kind
from puzzlebox.puzzles.edge_matching import reader
from puzzlebox.puzzles.edge_matching.cards import turned
from puzzlebox.puzzles.edge_matching.text import card_lines, describe_cards
from puzzlebox.puzzles.proofs import Proof
from puzzlebox.puzzles.reading import FileReader

if TYPE_CHECKING:
    from puzzlebox.cover.problem import CoverProblem
    from puzzlebox.cover.symmetry import Perms
    from puzzlebox.render.pictures import Panel

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


@register_kind
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

    @classmethod
    def read(cls, r: FileReader, doc: dict[str, Any], name: str, title: str, notes: str
             ) -> list[Puzzle]:
        return list(reader.read_edge_matching(r, doc, name, title, notes))

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

    def option_labels(self, solution: Solution) -> list[Hashable]:
        assert isinstance(solution, EdgeMatchingSolution)
        return list(solution.placements)

    def move_words(self, label: Hashable) -> str:
        assert isinstance(label, CardPlacement)
        turned_by = f"turned {90 * label.turns}°" if label.turns else "not turned"
        return f"card {label.card} at row {label.row + 1}, column {label.col + 1}, {turned_by}"

    def item_words(self, name: Hashable) -> str:
        what, *where = cast(Any, name)
        if what == "card":
            return f"card {where[0]}"
        r, c = where
        place = {"pos": "the place at", "hedge": "the edge below", "vedge": "the edge right of"}
        return f"{place.get(what, what)} row {r + 1}, column {c + 1}"

    def drawn_ids(self, solution: Solution, labels: Sequence[Hashable]) -> list[str]:
        assert isinstance(solution, EdgeMatchingSolution)
        return [f"card-{p.row}-{p.col}" for p in solution.placements if p in labels]

    def build_symmetries(self) -> Perms:
        """Turning the whole board turns every card (only when cards may turn): by half a
        turn, and on a square board by quarter turns too."""
        from puzzlebox.cover.symmetry import in_form, options_by_labels

        identity = array("q", range(self.problem.n_options))
        if not self.rotate:
            return in_form(self.problem, [identity])
        R, C = self.rows, self.cols

        def mover(q: int) -> Callable[[CardPlacement], CardPlacement]:
            def move(p: CardPlacement) -> CardPlacement:
                r, c = p.row, p.col
                if q == 2:
                    r, c = R - 1 - r, C - 1 - c
                else:
                    for _ in range(q):  # only square boards turn by a quarter
                        r, c = c, R - 1 - r
                return CardPlacement(p.card, r, c, self.canonical_turn(p.card, p.turns + q))

            return move

        turns = [1, 2, 3] if R == C else [2]
        rows = [identity] + [options_by_labels(self.problem, mover(q)) for q in turns]
        return in_form(self.problem, rows)

    def cover_entries_bound(self) -> int:
        """A card lies at most once per place and turn; each option lists its place, its
        card and up to four edges."""
        places = self.rows * self.cols
        return sum(len(self.turns_of(card)) for card in self.cards) * places * 6

    def proofs(self) -> Iterator[Proof]:
        if len(self.cards) != self.rows * self.cols:
            yield Proof(
                "counting",
                f"the board has {self.rows * self.cols} places but there are "
                f"{len(self.cards)} cards",
            )

    # -- drawing ---------------------------------------------------------------------------
    def text_lines(self, solution: Solution, style: str = "text") -> list[str]:
        assert isinstance(solution, EdgeMatchingSolution)
        return card_lines(self, solution)

    def describe_lines(self) -> list[str]:
        return describe_cards(self)

    def solution_panel(self, solution: Solution, title: str) -> Panel:
        from puzzlebox.puzzles.edge_matching.pictures import cards_solution_panel  # matplotlib

        assert isinstance(solution, EdgeMatchingSolution)
        return cards_solution_panel(self, solution, title)

    def puzzle_panels(self, title: str) -> tuple[Panel, list[Panel]]:
        from puzzlebox.puzzles.edge_matching.pictures import card_panels, cards_board_panel

        return cards_board_panel(self, title), card_panels(self)

# -- the kind's own solver, in the engine registry ----------------------------------------------


CUT_DOWN = ("the edges solver fills the cards of the whole puzzle, and distinct solutions "
            "are searched in the cover problem cut down by its symmetry breaking: use "
            "--engine auto or compiled")


def _edges_accepts(job: Job) -> str | None:
    if job.puzzle is not None and not isinstance(job.puzzle, EdgeMatchingPuzzle):
        return "the edges solver solves edge-matching puzzles only"
    if job.puzzle is None or job.problem is not job.puzzle.problem:
        # #38 item 9: a count (engine/parts.py) or a list of distinct solutions searches
        # the cover problem cut down by the symmetry breaking, with no puzzle or not its
        # own problem; the solver fills the puzzle's own cards
        return CUT_DOWN
    if job.forced or job.excluded:
        return "the edges solver searches whole puzzles, not subproblems"
    return None


def _edges_start(job: Job) -> Search:
    from puzzlebox.puzzles.edge_matching.solver import start  # numba

    return start(job)


register(EngineSpec(
    name="edges",
    summary="edge-matching cards, filled in reading order from per-place candidate tables",
    can=frozenset({Capability.SOLVE, Capability.COUNT, Capability.PROVE}),
    start=_edges_start,
    accepts=_edges_accepts,
    seeded=True,
    # tracemalloc's peak over start and three steps: 42.3 MB for 64 cards (88,704 entries),
    # 71.2 MB for 256 cards (1,491,136): 40 MB and 21 bytes an entry, counted as 48
    memory=footprint(48, 40 << 20),
))  # fmt: skip
