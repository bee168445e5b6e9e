"""What a search reports about itself."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass
class SearchStats:
    """Counters every engine fills in; times are wall-clock seconds."""

    engine: str = ""
    nodes: int = 0
    solutions: int = 0
    compile_seconds: float = 0.0
    search_seconds: float = 0.0
    complete: bool = False  # True once the whole tree has been searched
