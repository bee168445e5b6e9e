"""BurrTools' variable voxels as puzzlebox's optional cells (#24).

A result shape's ``+`` voxels may stay empty in an assembly. They are board cells like the
filled ones (with their colours), marked in ``[board] optional``. They go through the same
map onto the lattice as the shape's other voxels, so that both land on the same cells.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping
from typing import Protocol

Voxel = tuple[int, int, int]
Cell = tuple[int, ...]


class _Shape(Protocol):
    @property
    def filled(self) -> Mapping[Voxel, int]: ...

    @property
    def variable(self) -> Collection[Voxel]: ...


def variable_cells(shape: _Shape,
                   place: Callable[[dict[Voxel, int]], dict[Cell, int]]) -> frozenset[Cell]:
    """The cells ``place`` puts the shape's variable voxels on (``place`` maps a shape's
    voxels to cells, keyed by the whole shape, so the marks land where the voxels do)."""
    if not shape.variable:
        return frozenset()
    marked = place({v: int(v in shape.variable) for v in shape.filled})
    return frozenset(cell for cell, mark in marked.items() if mark)


class _Part(Protocol):
    @property
    def shape(self) -> int: ...

    @property
    def group(self) -> int: ...

    @property
    def hi(self) -> int: ...


def part_groups(parts: Collection[_Part], names: Mapping[int, str]) -> tuple[tuple[str, ...], ...]:
    """BurrTools' groups of a problem as sets of piece names (``[disassembly] groups``):
    the pieces of one group number may stay together when the assembly is taken apart."""
    groups: dict[int, list[str]] = {}
    for part in parts:
        if part.group and part.hi > 0:
            members = groups.setdefault(part.group, [])
            if names[part.shape] not in members:
                members.append(names[part.shape])
    return tuple(tuple(members) for _, members in sorted(groups.items()))
