"""Edge-matching as text: each card a small box of its labels as placed; the card list."""

from __future__ import annotations

from typing import TYPE_CHECKING

from puzzlebox.puzzles.edge_matching.cards import turned

if TYPE_CHECKING:
    from puzzlebox.puzzles.edge_matching.model import EdgeMatchingPuzzle, EdgeMatchingSolution


def card_lines(puzzle: EdgeMatchingPuzzle, solution: EdgeMatchingSolution) -> list[str]:
    """Each card as a small box: its turned labels around its name."""
    at = {(p.row, p.col): p for p in solution.placements}
    width = max(
        [len(label) for labels in puzzle.cards.values() for label in labels]
        + [len(name) for name in puzzle.cards]
    )
    names = max(len(name) for name in puzzle.cards) + (3 if puzzle.rotate else 0)
    cell = 2 * width + names + 2
    lines = []
    for r in range(puzzle.rows):
        top, mid, bottom = [], [], []
        for c in range(puzzle.cols):
            p = at[(r, c)]
            t, right, b, left = turned(puzzle.cards[p.card], p.turns)
            top.append(t.center(cell))
            name = p.card + ("'" * p.turns)
            mid.append(f"{left.rjust(width)} {name.center(names)} {right.ljust(width)}")
            bottom.append(b.center(cell))
        lines += ["|".join(top), "|".join(mid), "|".join(bottom), "-" * ((cell + 1) * puzzle.cols)]
    lines[-1:] = ["", CARD_KEY] if puzzle.rotate else []
    return lines


CARD_KEY = ("each card: its name, its edge labels around it as placed; a ' after the name "
            "for each quarter turn clockwise it was given")


def describe_cards(puzzle: EdgeMatchingPuzzle) -> list[str]:
    """An edge-matching puzzle's board, its cards, complements and rules."""
    out = [f"board {puzzle.rows} x {puzzle.cols}" + (
        f", border label {puzzle.border!r}" if puzzle.border is not None else ""
    )]  # fmt: skip
    out.append("cards (top right bottom left):")
    out += [f"  {name}: {' '.join(labels)}" for name, labels in puzzle.cards.items()]
    if puzzle.complements:
        pairs = sorted({tuple(sorted(p)) for p in puzzle.complements.items()})
        out.append("complements: " + ", ".join(f"{a}<->{b}" for a, b in pairs))
    out.append(f"cards may turn: {'yes' if puzzle.rotate else 'no'}")
    return out
