"""``python -m puzzlebox``: the command line, as the installed ``puzzlebox`` script runs it
(its entry point, with Ctrl-C clean from the start)."""

import sys

from puzzlebox._start import main

sys.exit(main())
