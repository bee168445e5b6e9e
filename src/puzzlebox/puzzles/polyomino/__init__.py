"""The polyomino kind: pieces of cells packed into a board, on any lattice (square,
triangle, hexagon, cube).

model.py is the puzzle (its cover problem, symmetries and proofs, and the ``sink`` engine
that only it can use); reader.py reads its part of a file, with designer.py for a
designer's keys; text.py, pictures.py and designer_drawing.py draw it.
"""

from puzzlebox.puzzles.polyomino.model import (
    SINK_SECONDS,
    Piece,
    Placement,
    PolyominoPuzzle,
    PolyominoSolution,
)

__all__ = ["SINK_SECONDS", "Piece", "Placement", "PolyominoPuzzle", "PolyominoSolution"]
