"""Proofs that a puzzle has no solution, found before any search and told as sentences.

Each proof is a necessary condition that a solution must meet, checked from counts alone:

* **area**: the board's cells must be a sum of the pieces' areas under their counts (58
  cells cannot be filled with pentominoes); with colours, for every colour at once;
* **checkerboard**: colour the board with the lattice's two-colouring (a chessboard on
  square, up and down triangles on triangle, the 3-D checkerboard on cube; hexagon has
  none). A piece covers the same number of cells of each colour wherever it lies, up to
  swapping the two, so each copy adds a fixed difference with a free sign; the board's
  difference must be reachable (the 31 dominoes and the mutilated chessboard, the five
  tetrominoes and 4x5, the 35 hexominoes);
* **placement**: every cell needs a placement that covers it (no X pentomino covers a
  rectangle's corner), and every piece that must be used needs somewhere to lie;
* **region**: each connected region of the board (cells joined by sides, or faces on cube:
  the lattice's neighbours, split off by its holes) must be filled by the pieces that fit
  inside it.

Every proof asks the puzzle's lattice (``puzzle.lattice``), never its name, and each is
linear in the board (#18).

A proof that cannot follow its states (more than ``MAX_STATES``) makes no claim.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING

from puzzlebox.geometry.lattice import Cell, Lattice, TwoColouring
from puzzlebox.geometry.square import SQUARE

if TYPE_CHECKING:
    from puzzlebox.puzzles.base import Puzzle
    from puzzlebox.puzzles.polyomino import Piece, PolyominoPuzzle

MAX_STATES = 200_000  # beyond this many reachable count vectors the area check is skipped
SHOWN_NAMES = 6  # piece names listed in a sentence before "and N more"


@dataclass(frozen=True)
class Proof:
    """Why there is no solution: the argument's short name and a sentence a puzzler reads."""

    argument: str
    sentence: str


# -- the first proof of any puzzle ----------------------------------------------------------
def impossibility_proof(puzzle: Puzzle) -> Proof | None:
    """The first proof that settles the puzzle, naming the argument; None when none does
    (each kind gives its own proofs: :meth:`Puzzle.proofs`)."""
    return next(puzzle.proofs(), None)


def polyomino_proofs(puzzle: PolyominoPuzzle) -> Iterator[Proof]:
    """Every proof that holds, cheapest first (the later ones build the placements)."""
    if puzzle.optional:  # cells that may stay empty: only the area range still holds (#24)
        sentence = area_range_impossibility(puzzle)
        if sentence is not None:
            yield Proof("area", sentence)
        return
    checks: list[tuple[str, Callable[[PolyominoPuzzle], str | None]]] = [
        ("area", area_impossibility),
        ("checkerboard", checkerboard_impossibility),
        ("placement", placement_impossibility),
        ("region", region_impossibility),
    ]
    for argument, check in checks:
        sentence = check(puzzle)
        if sentence is not None:
            yield Proof(argument, sentence)


def area_range_impossibility(puzzle: PolyominoPuzzle) -> str | None:
    """A sentence why no choice of counts gives an area between the required cells and
    all the cells; None when some choice does."""
    total = len(puzzle.board)
    required = total - len(puzzle.optional & puzzle.board.keys())
    sums = 1  # bit a: area a is reachable with the pieces so far
    window = (1 << (total + 1)) - 1
    for piece in puzzle.pieces:
        size = len(piece.shape)
        most = piece.max_copies(total)
        base = sums << (size * piece.lo) & window
        reach = base
        step = base
        for _ in range(most - piece.lo):
            step = (step << size) & window
            if not step:
                break
            reach |= step
        sums = reach
        if not sums:
            break
    wanted = ((1 << (total + 1)) - 1) ^ ((1 << required) - 1)
    if sums & wanted:
        return None
    return (f"the board must have {required} to {total} cells covered ({total - required} may "
            "stay empty), and no choice of the pieces' counts has an area in that range")


def proof_without_placements(puzzle: PolyominoPuzzle) -> Proof | None:
    """The first of the proofs that build no placement (area, then colouring), or None:
    what a caller about to build a cover problem, or to search a bigger one that holds
    this puzzle, asks first (#28: a column of cubes built placements for 13 s before the
    area proof; a sweep searched every combination of an area-impossible calendar)."""
    for argument, check in (("area", area_impossibility),
                            ("checkerboard", checkerboard_impossibility)):
        sentence = check(puzzle)
        if sentence is not None:
            return Proof(argument, sentence)
    return None


# -- area -----------------------------------------------------------------------------------
def _spread(mask: int, step: int, terms: int) -> int:
    """``mask | mask << step | ... | mask << (terms - 1) * step`` in O(log terms) shifts."""
    out, done = mask, 1
    while done < terms:
        more = min(done, terms - done)
        out |= out << (more * step)
        done += more
    return out


def _reachable(targets: tuple[int, ...], parts: list[tuple[tuple[int, ...], int, int]]) -> bool:
    """Can ``targets`` be written as sum of ``k_i * vec_i`` with ``lo_i <= k_i <= hi_i``?"""
    if len(targets) == 1:  # one total: a bitset of sums, linear in it (#18)
        (target,) = targets
        full = (1 << (target + 1)) - 1
        sums = 1
        for (size,), lo, hi in parts:
            if lo > hi:
                return False
            sums = _spread((sums << (lo * size)) & full, size, hi - lo + 1) & full
            if not sums:
                return False
        return bool(sums >> target & 1)
    states = {tuple(0 for _ in targets)}
    for vec, lo, hi in parts:
        nxt = set()
        for state in states:
            for k in range(lo, hi + 1):
                s = tuple(a + k * v for a, v in zip(state, vec))
                if any(a > t for a, t in zip(s, targets)):
                    break
                nxt.add(s)
            if len(nxt) > MAX_STATES:
                return True  # too many to follow: make no claim (#18: checked as they grow)
        states = nxt
        if not states:
            return False
        if len(states) > MAX_STATES:
            return True  # too many to follow: make no claim
    return targets in states


def area_impossibility(puzzle: PolyominoPuzzle) -> str | None:
    """A sentence why the areas (of each colour, when colours must match) cannot add up."""
    area = len(puzzle.board)
    if puzzle.match_colors and puzzle.neutral is None:  # a neutral cell takes any colour
        colours = sorted(set(puzzle.board.values()))
        board_vec = Counter(puzzle.board.values())
        targets = tuple(board_vec[c] for c in colours)
        parts = []
        for piece in puzzle.pieces:
            vec = Counter(piece.shape.colors)
            if any(col not in board_vec for col in vec):
                if piece.lo > 0:
                    bad = sorted(set(vec) - set(board_vec))
                    return (
                        f"piece {piece.name} has colour {bad[0]!r}, which the board "
                        "does not have, but it must be used"
                    )
                continue
            parts.append((tuple(vec[c] for c in colours), piece.lo, piece.max_copies(area)))
        if not _reachable(targets, parts):
            shown = ", ".join(f"{n} of colour {c!r}" for c, n in zip(colours, targets))
            return (
                f"the board has {shown}, and no choice of piece counts covers exactly "
                "that many cells of each colour"
            )
        return None
    parts = [((len(p.shape),), p.lo, p.max_copies(area)) for p in puzzle.pieces]
    if not _reachable((area,), parts):
        sizes = "; ".join(
            f"{p.name}: {len(p.shape)} cells"
            + ("" if p.lo == p.hi == 1 else f", {_count_text(p)}")
            for p in puzzle.pieces
        )
        return (
            f"the board has {area} cells, which is not a sum of the pieces' areas "
            f"under their counts ({sizes})"
        )
    return None


def _count_text(piece: Piece) -> str:
    """How many copies, as a puzzler would say it: "x3", "x1-2", "x2 or more", "any number"."""
    if piece.hi is None:
        return f"x{piece.lo} or more" if piece.lo else "any number"
    return f"x{piece.lo}" if piece.lo == piece.hi else f"x{piece.lo}-{piece.hi}"


# -- checkerboard ---------------------------------------------------------------------------
def _square_colouring() -> TwoColouring:
    colouring = SQUARE.two_colouring()
    assert colouring is not None  # the chessboard
    return colouring


def imbalance(cells: list[Cell], colouring: TwoColouring | None = None) -> int:
    """|dark - light| of a set of cells under a two-colouring (default: the chessboard):
    the same for every position and orientation of a piece, since a shift or a turn at
    most swaps the colours (what makes a :class:`TwoColouring` one)."""
    is_dark = (colouring or _square_colouring()).is_dark
    dark = sum(1 for c in cells if is_dark(c))
    return abs(2 * dark - len(cells))


EXACT_WORK = 200_000  # (areas followed) x (copies tried) up to which both are followed


def _differences(
    puzzle: PolyominoPuzzle, colouring: TwoColouring, area: int, wanted: int
) -> bool | None:
    """Can some choice of counts (within bounds, areas ignored) and of each copy's sign make
    the difference ``wanted``? None when the sums are too wide to follow (no claim).

    One bitset of differences, each piece spreading it in O(log copies) shifts: linear in
    the board where following areas and differences together is quadratic (#18)."""
    parts = []
    for piece in puzzle.pieces:
        step = imbalance(list(piece.shape.cells), colouring)
        lo, hi = piece.lo, piece.max_copies(area)
        if lo > hi:
            return False
        if step:
            parts.append((step, lo, hi))
    offset = sum(step * hi for step, _, hi in parts)  # bit ``offset + d``: difference d
    if offset > 64 * area + 64:
        return None
    mask = 1 << offset
    for step, lo, hi in parts:
        # lo copies that must be used: (lo - 2j) * step, j = 0..lo; then hi - lo that may
        # be: each -step, 0 or +step
        mask = _spread(mask >> (lo * step), 2 * step, lo + 1)
        mask = _spread(mask >> ((hi - lo) * step), step, 2 * (hi - lo) + 1)
    return abs(wanted) <= offset and bool(mask >> (offset + wanted) & 1)


def checkerboard_impossibility(puzzle: PolyominoPuzzle) -> str | None:
    """A sentence why the pieces cannot cover the board's dark and light cells, or None.

    States are (cells covered, dark minus light), one bit set per reachable difference for
    each area: each copy of a piece adds its area and plus or minus its imbalance. That is
    quadratic in the board, so beyond :data:`EXACT_WORK` only the differences are followed
    (:func:`_differences`), a weaker but still sound argument, linear in the board.
    """
    colouring = puzzle.lattice.two_colouring()
    if colouring is None:
        return None  # no colouring on this lattice (hexagon): no claim
    if not _survives_wrap(puzzle, colouring):
        return None  # a tube of odd circumference: a piece across the seam breaks it (#27)
    area = len(puzzle.board)
    is_dark = colouring.is_dark
    dark = sum(1 for c in puzzle.board if is_dark(c))
    light = area - dark
    work = (area + 1) * sum(piece.max_copies(area) + 1 for piece in puzzle.pieces)
    if work > EXACT_WORK:
        if _differences(puzzle, colouring, area, dark - light) is not False:
            return None
        return _checkerboard_sentence(puzzle, colouring, dark, light)
    offset = area  # bit ``offset + d`` stands for the difference d; |d| never exceeds area
    states: dict[int, int] = {0: 1 << offset}
    for piece in puzzle.pieces:
        size = len(piece.shape)
        step = imbalance(list(piece.shape.cells), colouring)
        reached: dict[int, int] = {}
        layer = states
        for k in range(piece.max_copies(area) + 1):
            if k >= piece.lo:
                for a, mask in layer.items():
                    reached[a] = reached.get(a, 0) | mask
            nxt: dict[int, int] = {}
            for a, mask in layer.items():
                if a + size <= area:
                    moved = mask if step == 0 else (mask << step) | (mask >> step)
                    nxt[a + size] = nxt.get(a + size, 0) | moved
            if not nxt:
                break
            layer = nxt
        states = reached
        if not states:
            return None  # the areas alone fail: that proof speaks first
    full = states.get(area)
    if full is None or full >> (offset + dark - light) & 1:
        return None
    return _checkerboard_sentence(puzzle, colouring, dark, light)


def _survives_wrap(puzzle: PolyominoPuzzle, colouring: TwoColouring) -> bool:
    """Whether the colouring is still one on the board as wrapped: each cell has the colour
    of the cells a period away (checkerboard on a tube of even circumference), so a
    placement across the seam covers as many of each as its flat piece. True off wraps."""
    wrap = puzzle.wrap
    if wrap is None:
        return True
    return all(
        colouring.is_dark(cell) == colouring.is_dark(tuple(v + d for v, d in
                                                          zip(cell, vec, strict=True)))
        for cell in puzzle.board for vec in wrap.period_vectors()
    )


def _checkerboard_sentence(
    puzzle: PolyominoPuzzle, colouring: TwoColouring, dark: int, light: int
) -> str:
    d, li = colouring.dark_word, colouring.light_word
    return (
        f"colour the board's cells in two colours ({colouring.name}): it has {dark} {d} and "
        f"{light} {li} cells. "
        f"{_imbalance_text(puzzle, colouring)}, so no choice of how many pieces are used and "
        f"where they lie covers {dark} {d} and {light} {li} cells"
    )


def _imbalance_text(puzzle: PolyominoPuzzle, colouring: TwoColouring) -> str:
    groups: dict[int, list[Piece]] = {}
    for piece in puzzle.pieces:
        groups.setdefault(imbalance(list(piece.shape.cells), colouring), []).append(piece)
    parts = []
    for step, pieces in sorted(groups.items()):
        who = _names(pieces)
        verb = "cover" if len(pieces) > 1 else "covers"
        if step == 0:
            parts.append(
                f"{who} {verb} as many {colouring.dark_word} cells as {colouring.light_word} "
                "ones"
            )
        else:
            each = " each" if len(pieces) > 1 else ""
            parts.append(f"{who} {verb}{each} {step} more of one colour than of the other")
    text = "; ".join(parts)
    return text[0].upper() + text[1:]


def _names(pieces: list[Piece]) -> str:
    def one(p: Piece) -> str:
        if p.hi is None:
            return f"{p.name} (any number)" if p.lo == 0 else f"{p.name} ({p.lo} or more)"
        return p.name if p.lo == p.hi == 1 else f"{p.name} ({_count_text(p)})"

    if len(pieces) == 1:
        first = pieces[0]
        return (
            f"piece {first.name}"
            if first.lo == first.hi == 1
            else (f"each copy of piece {one(first)}")
        )
    shown = ", ".join(one(p) for p in pieces[:SHOWN_NAMES])
    more = len(pieces) - SHOWN_NAMES
    return f"the {len(pieces)} pieces {shown}" + (f" and {more} more" if more > 0 else "")


# -- regions --------------------------------------------------------------------------------
def components(cells: set[Cell], lattice: Lattice | None = None,
               neighbours: Callable[[Cell], Iterable[Cell]] | None = None
               ) -> list[list[Cell]]:
    """The board's connected regions (cells joined by a side, or a face: the lattice's
    neighbours, default the square lattice's; or ``neighbours`` where given, as on a board
    that wraps), each sorted, in board order."""
    if lattice is None:
            lattice = SQUARE
    if neighbours is None:
        neighbours = lattice.neighbours
    seen: set[Cell] = set()
    out = []
    for start in sorted(cells):
        if start in seen:
            continue
        seen.add(start)
        region = [start]
        frontier = [start]
        while frontier:
            for nb in neighbours(frontier.pop()):
                if nb in cells and nb not in seen:
                    seen.add(nb)
                    region.append(nb)
                    frontier.append(nb)
        out.append(sorted(region))
    return out


def _placements(puzzle: PolyominoPuzzle) -> dict[str, list[tuple[Cell, ...]]]:
    """Where each piece can lie, read off the puzzle's (cached) cover problem."""
    out: dict[str, list[tuple[Cell, ...]]] = {p.name: [] for p in puzzle.pieces}
    for name, cells in puzzle.problem.labels:
        out[name].append(cells)
    return out


def placement_impossibility(puzzle: PolyominoPuzzle) -> str | None:
    """A sentence naming a piece that must be used but lies nowhere, or a cell that no
    placement of any piece covers; else None."""
    placements = _placements(puzzle)
    for piece in puzzle.pieces:
        if piece.lo > 0 and not placements[piece.name]:
            return f"piece {piece.name} must be used but fits nowhere on the board"
    covered = {cell for spots in placements.values() for cells in spots for cell in cells}
    for cell in sorted(puzzle.board):
        if cell not in covered:
            return f"no piece can cover the cell at {_where(cell)}"
    return None


def _where(cell: Cell) -> str:
    """A cell as a sentence names it: "row 2, column 3" ("layer 1, row 2, column 3" in 3-D)."""
    *layer, r, c = cell
    return "".join(f"layer {v}, " for v in layer) + f"row {r}, column {c}"


def region_impossibility(puzzle: PolyominoPuzzle) -> str | None:
    """A sentence naming a region (cells joined by sides, split off by holes) that the
    pieces fitting inside it cannot fill, whatever their number; else None."""
    wrap, lattice = puzzle.wrap, puzzle.lattice
    regions = components(set(puzzle.board), lattice, None if wrap is None else
                         lambda cell: wrap.neighbours(lattice, cell))  # across seams (#27)
    if len(regions) == 1:
        return None  # the whole board: the area proof has spoken
    area = len(puzzle.board)
    by_name = {p.name: p for p in puzzle.pieces}
    region_of = {cell: i for i, region in enumerate(regions) for cell in region}
    inside: list[dict[str, Piece]] = [{} for _ in regions]
    crossing = [False] * len(regions)
    for name, spots in _placements(puzzle).items():
        for cells in spots:
            where = {region_of[cell] for cell in cells}
            if len(where) == 1:
                inside[where.pop()][name] = by_name[name]
            else:  # a piece in several parts may straddle regions: no claim about them
                for i in where:
                    crossing[i] = True
    for i, region in enumerate(regions):
        if crossing[i]:
            continue
        fits = list(inside[i].values())
        parts: list[tuple[tuple[int, ...], int, int]] = [
            ((len(p.shape),), 0, p.max_copies(area)) for p in fits
        ]
        if _reachable((len(region),), parts):
            continue
        place = f"the region of {len(region)} cells that begins at {_where(region[0])}"
        if not fits:
            return f"no piece fits inside {place}"
        sizes = sorted({len(p.shape) for p in fits})
        shown = ", ".join(map(str, sizes))
        return (
            f"{place} cannot be filled: the pieces that fit inside it have "
            f"{'area' if len(sizes) == 1 else 'areas'} {shown}, and no number of them adds "
            f"up to {len(region)}"
        )
    return None
