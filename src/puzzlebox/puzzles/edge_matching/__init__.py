"""The edge-matching kind: square cards with a label on each edge, placed on a grid so that
touching edges match (equal, or complements). Its model (model.py), reader, text,
pictures, and its own solver (solver.py, registered as the ``edges`` engine).
"""

from puzzlebox.puzzles.edge_matching.cards import turned
from puzzlebox.puzzles.edge_matching.model import (
    CardPlacement,
    EdgeMatchingPuzzle,
    EdgeMatchingSolution,
)

__all__ = ["CardPlacement", "EdgeMatchingPuzzle", "EdgeMatchingSolution", "turned"]
