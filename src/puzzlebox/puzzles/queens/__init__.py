"""The n-queens kind: its model (model.py, with its reader), text and picture.

n queens on an n x n board, no two on a row, column or diagonal; its own engine, the
bitmask kernel, is engine/queens_bitmask.py.
"""

from puzzlebox.puzzles.queens.model import QueensPuzzle, QueensSolution

__all__ = ["QueensPuzzle", "QueensSolution"]
