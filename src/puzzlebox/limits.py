"""The limits every puzzle file is held to, checked while it is read (docs/puzzle-format.md,
"Limits"; docs/reliability.md says why each is where it is).

A file over a limit is refused with one line and exit status 2 before any work is done on
it, so no input can make reading hang or fill the memory. Each limit is far above every
puzzle in the catalog and every puzzle the engines can finish.
"""

from __future__ import annotations

MAX_FILE_BYTES = 1 << 20  # a puzzle file: 1 MiB (the largest catalog file is 5 KB)
MAX_NESTING = 16  # arrays and inline tables inside each other (a puzzle file needs 2)
MAX_KEY_PARTS = 16  # parts of one dotted key or table header (a puzzle file needs 3)
MAX_CELLS = 10_000  # cells of one board or piece (a 100 x 100; the catalog's largest: 1,024)
MAX_BOARDS = 1_000  # boards in one batch file
MAX_TOTAL_CELLS = 100_000  # cells of all the boards of a batch together
MAX_PIECES = 1_000  # differently named pieces
MAX_COPIES = MAX_CELLS  # a piece's count (or the top of its range): never more than cells
MAX_CARDS = 1_024  # cards of an edge-matching puzzle, and rows x cols of its board
MAX_QUEENS = 200  # n of an n-queens puzzle (a first solution of n = 200: 30 s, 320 MB)
MAX_NAME = 200  # characters of a piece, card, board or label name
