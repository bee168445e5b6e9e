"""Disassembly: can an assembly come apart by sliding pieces, how, and at what level.

A step after solving: a solution places pieces; this package asks whether they can be
taken apart again by sliding one piece or a group along the lattice axes (cube lattice, and
the square lattice in its plane), finds the fewest moves, and writes BurrTools' level.
It imports the layers below it only (geometry, puzzles); formats and the command line call it.
"""

from puzzlebox.disassembly.blocking import FREE, BlockingCache
from puzzlebox.disassembly.search import (
    DEFAULT_MAX_STATES,
    DisassemblyTooBig,
    Move,
    Separation,
    disassemble,
)

__all__ = [
    "DEFAULT_MAX_STATES",
    "FREE",
    "BlockingCache",
    "DisassemblyTooBig",
    "Move",
    "Separation",
    "disassemble",
]
