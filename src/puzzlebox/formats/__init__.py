"""Reading puzzle files: TOML in, checked puzzle models out, errors that name file and line."""

from puzzlebox import limits  # the limits of a file (puzzlebox/limits.py), as before
from puzzlebox.formats.errors import PuzzleFileError
from puzzlebox.formats.reader import PuzzleFile, file_text, read_bytes, read_file, read_text

__all__ = ["PuzzleFile", "PuzzleFileError", "file_text", "limits", "read_bytes", "read_file",
           "read_text"]
