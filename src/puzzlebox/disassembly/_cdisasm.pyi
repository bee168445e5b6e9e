# The C disassembly search (disassembly/_cdisasm.c): a part's pieces as voxels (int64 rows of
# x y z) and starts (int64, one more than the pieces); positions are 3 ints per piece.
from collections.abc import Sequence
from typing import Any

MAX_PIECES: int
FOUND: int
NONE: int
STATES: int
TIME: int
MEMORY: int

def expand(
    voxels: Any, starts: Any, dims: int, fixed: int, pos: Sequence[int]
) -> tuple[list[tuple[int, int]], list[tuple[tuple[int, ...], tuple[int, int, int]]]]: ...
def bfs(
    voxels: Any, starts: Any, dims: int, fixed: int, start: Sequence[int], visited: int,
    max_states: int, seconds: float, max_bytes: int = -1,
) -> tuple[int, int, Any, Any, Any]: ...
def walk(voxels: Any, starts: Any, dims: int, fixed: int, start: Sequence[int]) -> Any: ...
def walk_next(
    walk: Any, visited: int, max_states: int, seconds: float, max_bytes: int = -1
) -> tuple[int, int, Any, Any, Any]: ...
def walk_positions(walk: Any) -> list[tuple[int, ...]]: ...
def book(dims: int) -> Any: ...
def book_add(book: Any, voxels: Any) -> tuple[int, tuple[int, int, int]]: ...
def book_info(book: Any) -> dict[str, int]: ...
def bfs_in(
    book: Any, shapes: Sequence[int], origins: Sequence[int], fixed: int, start: Sequence[int],
    visited: int, max_states: int, seconds: float, max_bytes: int = -1,
) -> tuple[int, int, Any, Any, Any]: ...
def walk_in(
    book: Any, shapes: Sequence[int], origins: Sequence[int], fixed: int, start: Sequence[int]
) -> Any: ...
