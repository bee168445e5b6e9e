"""``python -m puzzlebox.cli``: the command line, as ``python -m puzzlebox`` runs it."""

import sys

from puzzlebox._start import main

sys.exit(main())
