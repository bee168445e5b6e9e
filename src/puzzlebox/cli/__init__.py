"""The ``puzzlebox`` command line, one module per group of commands, importing one way
(docs/DESIGN.md, the command line's own layers): common.py (errors, hints, argument types,
printing) at the bottom; puzzle.py (reading a puzzle, ``--engine``) and show.py (``list``,
``show``) above it; tools.py and disassembly.py, then search.py (``solve``, ``count``);
dispatch.py (the table of commands, the parser, :func:`main`) at the top. The entry point is
``puzzlebox._start:main``; ``python -m puzzlebox`` runs the same.
"""

from puzzlebox.cli.dispatch import main

__all__ = ["main"]
