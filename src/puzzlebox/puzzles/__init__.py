"""The puzzle kinds. Each compiles itself to a cover problem and decodes solutions back."""

from puzzlebox.puzzles.base import CountResult, Puzzle, Solution
from puzzlebox.puzzles.edge_matching import EdgeMatchingPuzzle, EdgeMatchingSolution
from puzzlebox.puzzles.polyomino import Piece, Placement, PolyominoPuzzle, PolyominoSolution
from puzzlebox.puzzles.queens import QueensPuzzle, QueensSolution

__all__ = [
    "CountResult",
    "EdgeMatchingPuzzle",
    "EdgeMatchingSolution",
    "Piece",
    "Placement",
    "PolyominoPuzzle",
    "PolyominoSolution",
    "Puzzle",
    "QueensPuzzle",
    "QueensSolution",
    "Solution",
]
