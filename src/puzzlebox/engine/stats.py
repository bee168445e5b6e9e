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
    # the share of the tree searched, read off the current path (engines that can tell);
    # a progress display turns it into a bar and a time left
    walked: float | None = None
