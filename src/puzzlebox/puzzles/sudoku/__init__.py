"""The sudoku kind: a grid of givens to complete so that every row, column and region
holds each symbol once (model.py), read from a file (reader.py), drawn as text (text.py)
and as a picture (pictures.py).

Regions are the boxes of a standard grid (3 x 3 on 9 x 9, 2 x 3 on 6 x 6, ...) or, for
jigsaw sudoku, any n regions of n cells given as a grid of region letters.
"""

from puzzlebox.puzzles.sudoku.model import SudokuPuzzle, SudokuSolution

__all__ = ["SudokuPuzzle", "SudokuSolution"]
