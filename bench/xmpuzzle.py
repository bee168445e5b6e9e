"""A catalog puzzle written as a BurrTools file (``.xmpuzzle``), for the side-by-side benchmark
against BurrTools' solver (bench/burrtools.py).

Only what that benchmark needs: a box-shaped or any-shaped board on the square or cube
lattice, pieces used a fixed number of times, turned any way in space (BurrTools turns every
piece in 3D and never reflects one; a flat piece turned over is its mirror image, so a
planar puzzle that allows reflections means the same there). Written as uncompressed XML,
which BurrTools reads as well as its gzip files, in the layout of its own files (see
tests/data/pentominoes-6x10.xmpuzzle): a voxel space is ``x`` fastest, then ``y``, then
``z``, ``#`` filled and ``_`` empty.

    python bench/xmpuzzle.py soma-cube > soma.xmpuzzle
"""

from __future__ import annotations

import sys
from collections.abc import Iterable
from typing import Any
from xml.sax.saxutils import quoteattr

Voxel = tuple[int, int, int]  # (x, y, z)


class NotWritable(ValueError):
    """A puzzle this writer cannot say in BurrTools' terms (the message says why)."""


def _voxels(cells: Iterable[tuple[int, ...]]) -> list[Voxel]:
    """puzzlebox's cells as BurrTools voxels: a square cell (row, col) is (col, row, 0), a
    cube cell (layer, row, col) is (col, row, layer)."""
    out: list[Voxel] = []
    for cell in cells:
        if len(cell) == 2:
            out.append((cell[1], cell[0], 0))
        elif len(cell) == 3:
            out.append((cell[2], cell[1], cell[0]))
        else:
            raise NotWritable(f"a cell of {len(cell)} coordinates")
    return out


def voxel_element(voxels: list[Voxel], name: str) -> str:
    """One ``<voxel>`` shape: its bounding box, filled where a voxel is."""
    x0 = min(v[0] for v in voxels)
    y0 = min(v[1] for v in voxels)
    z0 = min(v[2] for v in voxels)
    filled = {(x - x0, y - y0, z - z0) for x, y, z in voxels}
    sx = 1 + max(v[0] for v in filled)
    sy = 1 + max(v[1] for v in filled)
    sz = 1 + max(v[2] for v in filled)
    text = "".join(
        "#" if (x, y, z) in filled else "_"
        for z in range(sz) for y in range(sy) for x in range(sx)
    )  # fmt: skip
    return (f'    <voxel x="{sx}" y="{sy}" z="{sz}" name={quoteattr(name)} '
            f'type="0">{text}</voxel>')  # fmt: skip


def to_xmpuzzle(puzzle: Any) -> str:
    """The BurrTools file of a polyomino puzzle of the square or cube lattice."""
    lattice = getattr(puzzle, "lattice", None)
    lattice_name = getattr(lattice, "name", lattice)
    if str(lattice_name) not in ("square", "cube"):
        raise NotWritable(f"the {lattice_name} lattice (only square and cube are written)")
    if not getattr(puzzle, "rotate", False):
        raise NotWritable("pieces that may not turn (BurrTools turns every piece)")
    planar = str(lattice_name) == "square"
    if not planar and getattr(puzzle, "reflect", False):
        raise NotWritable("solid pieces that may be reflected (BurrTools never reflects)")
    if planar and not getattr(puzzle, "reflect", False):
        raise NotWritable("flat pieces that may not be turned over (BurrTools turns them)")
    board = puzzle.board
    pieces = puzzle.pieces
    shapes = [voxel_element(_voxels(board), "Box")]
    counts = []
    for k, piece in enumerate(pieces, start=1):
        if piece.lo != piece.hi or piece.rotate is False or piece.reflect is not None:
            raise NotWritable(f"piece {piece.name}: a count range or its own rules")
        shapes.append(voxel_element(_voxels(piece.shape.cells), piece.name))
        counts.append(f'        <shape id="{k}" count="{piece.lo}"/>')
    name = quoteattr(str(getattr(puzzle, "name", "puzzle")))
    return "\n".join([
        '<?xml version="1.0"?>',
        '<puzzle version="2">',
        '  <gridType type="0"/>',
        "  <colors/>",
        "  <shapes>",
        *shapes,
        "  </shapes>",
        "  <problems>",
        f'    <problem name={name} state="0">',
        "      <shapes>",
        *counts,
        "      </shapes>",
        '      <result id="0"/>',
        "      <bitmap/>",
        "    </problem>",
        "  </problems>",
        "  <comment>Written by puzzlebox's bench/xmpuzzle.py from its catalog.</comment>",
        "</puzzle>",
        "",
    ])  # fmt: skip


def main() -> int:
    import argparse

    from puzzlebox import catalog

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("puzzle", help="a catalog puzzle")
    name = parser.parse_args().puzzle
    try:
        sys.stdout.write(to_xmpuzzle(catalog.load_file(name).puzzles[0]))
    except NotWritable as error:
        print(f"{name}: cannot be written for BurrTools: {error}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
