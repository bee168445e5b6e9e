"""A card turned: shared by the model, its solver, its text and its picture."""

from __future__ import annotations


def turned(labels: tuple[str, ...], turns: int) -> tuple[str, ...]:
    """A card's labels (top, right, bottom, left) after ``turns`` clockwise quarter turns."""
    return tuple(labels[(side - turns) % 4] for side in range(4))
