"""The puzzle kinds, one package each. Each compiles itself to a cover problem, decodes
solutions back, reads its part of a file and draws itself.

Importing this package registers every kind (``KINDS``: kind name -> class): a new kind is
one package here and one line below.
"""

from puzzlebox.puzzles.base import KINDS, CountResult, Puzzle, Solution, register_kind
from puzzlebox.puzzles.edge_matching import EdgeMatchingPuzzle, EdgeMatchingSolution
from puzzlebox.puzzles.polyomino import Piece, Placement, PolyominoPuzzle, PolyominoSolution
from puzzlebox.puzzles.polysticks import PolysticksPuzzle, PolysticksSolution
from puzzlebox.puzzles.queens import QueensPuzzle, QueensSolution
from puzzlebox.puzzles.sudoku import SudokuPuzzle, SudokuSolution

__all__ = [
    "KINDS",
    "CountResult",
    "EdgeMatchingPuzzle",
    "EdgeMatchingSolution",
    "Piece",
    "Placement",
    "PolyominoPuzzle",
    "PolyominoSolution",
    "PolysticksPuzzle",
    "PolysticksSolution",
    "Puzzle",
    "QueensPuzzle",
    "QueensSolution",
    "Solution",
    "SudokuPuzzle",
    "SudokuSolution",
    "register_kind",
]
