"""The polysticks kind: pieces made of unit sticks (edges) of the square grid laid on a
board of sticks, no two pieces crossing (model.py), read from a file in a grid notation of
``+``, ``-`` and ``|`` (reader.py, text.py), drawn as text in the same notation (text.py)
and as thick line segments (pictures.py). geometry.py holds the sticks themselves: doubled
coordinates, the square's symmetries and the generator of the polystick families.
"""

from puzzlebox.puzzles.polysticks.model import Piece, PolysticksPuzzle, PolysticksSolution

__all__ = ["Piece", "PolysticksPuzzle", "PolysticksSolution"]
