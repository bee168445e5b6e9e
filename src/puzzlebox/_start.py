"""The ``puzzlebox`` command's entry point: the command line, with Ctrl-C clean from the start.

A search's command imports numpy, the kinds and the engines (a fifth of a second and
more). A Ctrl-C in that time used to print a KeyboardInterrupt traceback of 15 to 36 lines
(#18). This module imports nothing heavy itself (the package's ``__init__`` is lazy), so it
can catch it: one line, exit 130, whenever Ctrl-C comes.
"""

from __future__ import annotations

import sys

EXIT_INTERRUPTED = 130  # 128 + SIGINT, what a shell reports for a process stopped by Ctrl-C


def main() -> int:
    """Run the command line; a Ctrl-C before it has taken over gives one line and 130."""
    try:
        from puzzlebox.cli import main as command_line

        return command_line()
    except KeyboardInterrupt:
        print("puzzlebox: interrupted", file=sys.stderr)
        return EXIT_INTERRUPTED


if __name__ == "__main__":
    sys.exit(main())
