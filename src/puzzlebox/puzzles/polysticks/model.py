"""Polysticks as exact cover: pieces made of unit sticks laid on a board of unit sticks,
on the square grid (polysticks) or the triangle grid (polytrigs; geometry.py).

Items: every stick of the board is primary (covered exactly once); every piece is primary
with its count as bounds; and every grid point that some placement claims is secondary, so
that at most one placement claims it. Which points a placement claims is the touch rule:

* ``touch = "corners"`` (the default; Polyform Puzzler's rule, and the one its published
  counts use): no two pieces cross. On the square grid a piece claims the points it
  passes straight through; two pieces may then meet where one ends, or where both turn
  (two corners touching), but never cross (both going straight through one point, one
  across the other). On the triangle grid six rays meet at a point and a piece claims
  rays instead (geometry.claimed_rays): those between two of its own that are 120 or 180
  degrees apart.
* ``touch = "ends"``: a piece claims every point where two or more of its own sticks meet,
  so two pieces share a point only where at least one of them ends there.

Symmetry (``distinct``): the rotations and reflections of the grid (8 on squares, 12 on
triangles) that map the board onto itself and each piece's set of allowed orientations
onto the set of a piece with the same count (the piece itself where it can, otherwise the
one other piece whose set it is: a one-sided piece and its mirror image).
"""

from __future__ import annotations

from collections.abc import Hashable, Iterator
from dataclasses import dataclass
from functools import cached_property
from typing import TYPE_CHECKING, Any

from puzzlebox.cover.problem import CoverBuilder
from puzzlebox.puzzles.base import Puzzle, Solution, register_kind
from puzzlebox.puzzles.polysticks import geometry, reader, text
from puzzlebox.puzzles.polysticks.geometry import Stick, Sticks
from puzzlebox.puzzles.proofs import Proof

if TYPE_CHECKING:
    from puzzlebox.cover.problem import CoverProblem
    from puzzlebox.cover.symmetry import Perms
    from puzzlebox.render.pictures import Panel

TOUCH_RULES = ("corners", "ends")
MAX_STATES = 200_000  # reachable stick-count states past which the direction proof is skipped
Label = tuple[str, tuple[Stick, ...]]  # an option: the piece's name and its sticks, sorted


@dataclass(frozen=True)
class Piece:
    """A named polystick (normalised sticks) and how many copies a solution uses."""

    name: str
    sticks: Sticks
    lo: int = 1
    hi: int = 1

    @property
    def size(self) -> int:
        return len(self.sticks)

    def count_words(self) -> str:
        """`` (2 copies)``, `` (0 to 1)``..., or nothing for exactly one."""
        if self.lo == self.hi:
            return "" if self.lo == 1 else f" ({self.lo} copies)"
        return f" ({self.lo} to {self.hi})"

    def directions(self, grid: geometry.StickGrid) -> tuple[int, ...]:
        """How many of its sticks lie in each of the grid's directions."""
        out = [0] * len(grid.directions)
        for s in self.sticks:
            out[grid.direction(s)] += 1
        return tuple(out)


def stick_ends_json(stick: Stick, grid: geometry.StickGrid = geometry.SQUARE
                    ) -> list[list[int]]:
    """A stick as the contract writes it: its two grid points, ``[row, col]`` each."""
    a, b = grid.ends(stick)
    return [[a[0] // 2, a[1] // 2], [b[0] // 2, b[1] // 2]]


@dataclass(frozen=True)
class PolysticksSolution(Solution):
    """Each placed piece: its name and its sticks (doubled coordinates, geometry.py)."""

    placements: tuple[Label, ...]  # sorted
    grid: geometry.StickGrid = geometry.SQUARE

    def placements_json(self) -> list[dict[str, Any]]:
        return [{"piece": name, "sticks": [stick_ends_json(s, self.grid) for s in sticks]}
                for name, sticks in self.placements]

    def key(self) -> tuple[Hashable, ...]:
        return self.placements


@register_kind
class PolysticksPuzzle(Puzzle):
    """A board of sticks, the pieces to lay on it and the rules they are laid by."""

    kind = "polysticks"

    def __init__(
        self,
        name: str,
        board: Sticks,
        pieces: list[Piece],
        rotate: bool = True,
        reflect: bool = True,
        touch: str = "corners",
        title: str = "",
        notes: str = "",
        grid: geometry.StickGrid = geometry.SQUARE,
    ) -> None:
        super().__init__(name, title, notes)
        if touch not in TOUCH_RULES:
            raise ValueError(f"touch must be one of {TOUCH_RULES}, not {touch!r}")
        self.grid = grid
        self.board: Sticks = geometry.normalize(board, grid)
        self.pieces = list(pieces)
        self.rotate = rotate
        self.reflect = reflect
        self.touch = touch

    @classmethod
    def read(cls, r: Any, doc: dict[str, Any], name: str, title: str, notes: str
             ) -> list[Puzzle]:
        """The kind's reader (reader.py): the one puzzle of a parsed file."""
        return [reader.read_polysticks(r, doc, name, title, notes)]

    # -- placements ------------------------------------------------------------------------
    @cached_property
    def maps(self) -> tuple[int, ...]:
        """The maps of the grid every piece may take (indices into its maps)."""
        return geometry.allowed_maps(self.rotate, self.reflect, self.grid)

    def orientations(self, piece: Piece) -> list[Sticks]:
        return geometry.orientations(piece.sticks, self.maps, self.grid)

    def claimed(self, sticks: Sticks) -> list[Hashable]:
        """The secondary items a placement claims under the touch rule: points, or on the
        triangle grid with ``corners``, rays of points."""
        if self.touch == "ends":
            return [("point", *p) for p in geometry.joint_points(sticks, self.grid)]
        if self.grid.claims_rays:
            return [("ray", *r) for r in geometry.claimed_rays(sticks, self.grid)]
        return [("point", *p) for p in geometry.through_points(sticks, self.grid)]

    def placements_of(self, piece: Piece) -> list[tuple[Stick, ...]]:
        """Every way the piece lies on the board, each its sorted sticks."""
        board = self.board
        out: set[tuple[Stick, ...]] = set()
        for shape in self.orientations(piece):
            first = min(shape)
            for b in board:
                dy, dx = b[0] - first[0], b[1] - first[1]
                if dy % 2 or dx % 2:
                    continue
                placed = [(y + dy, x + dx) for y, x in shape]
                if all(s in board for s in placed):
                    out.add(tuple(sorted(placed)))
        return sorted(out)

    def build_problem(self) -> CoverProblem:
        # The sticks are a graph (two are neighbours where they share an end), so the
        # bitboard engine takes the problem, its points as counters: every catalog polysticks
        # count took 1.7-2.2x less CPU than on the general engine (tetrasticks-6x6 1.6 s
        # against 3.1 s, the same counts; whole commands, medians of 3, 2026-12-07)
        b = CoverBuilder()
        board, grid = self.board, self.grid
        for s in sorted(board):
            b.primary(("stick", *s))
            b.neighbours(("stick", *s),
                         [("stick", *t) for t in geometry.neighbours(s, grid) if t in board])
        options: list[tuple[list[Hashable], Label]] = []
        points: set[Hashable] = set()
        for piece in self.pieces:
            b.primary(("piece", piece.name), piece.lo, piece.hi)
            if piece.hi == 0:
                continue
            for sticks in self.placements_of(piece):
                claimed = self.claimed(frozenset(sticks))
                points.update(claimed)
                items: list[Hashable] = [("piece", piece.name)]
                items += [("stick", *s) for s in sticks]
                items += claimed
                options.append((items, (piece.name, sticks)))
        for p in sorted(points):  # type: ignore[type-var]  # tuples of str and ints
            b.secondary(p)
        for items, label in options:
            b.option(items, label)
        return b.build()

    def cover_entries_bound(self) -> int:
        """Each piece: at most one orientation per map times one anchor per board stick,
        each option its piece, its sticks and at most six points' rays per stick."""
        n, maps = len(self.board), len(self.grid.maps)
        return sum(maps * n * (1 + 7 * p.size) for p in self.pieces if p.hi > 0)

    def decode(self, chosen: tuple[int, ...]) -> PolysticksSolution:
        labels = self.problem.labels
        return PolysticksSolution(tuple(sorted(labels[k] for k in chosen)), self.grid)

    def option_labels(self, solution: Solution) -> list[Hashable]:
        assert isinstance(solution, PolysticksSolution)
        return list(solution.placements)

    # -- symmetry --------------------------------------------------------------------------
    def board_maps(self) -> Iterator[tuple[int, tuple[int, int]]]:
        """Each map of the grid (index) that sends the board onto itself, with the even
        shift that follows it."""
        board, grid = self.board, self.grid
        for k in range(len(grid.maps)):
            image = geometry.moved(board, k, grid)
            points = [p for s in image for p in grid.ends(s)]
            dy = -min(y for y, _ in points)
            dx = -min(x for _, x in points)
            if {(y + dy, x + dx) for y, x in image} == board:
                yield k, (dy, dx)

    def piece_map(self, k: int) -> dict[str, str] | None:
        """Which piece each piece becomes under map ``k`` (its allowed orientations go onto
        that piece's, with the same count); None when some piece has no such image. Where
        every piece may take every map of the grid, its orientations are its whole orbit and
        each map keeps them: no image is worked out (8 of tetrasticks-6x6's 21 ms of
        symmetries, 2026-12-07)."""
        if set(self.maps) == set(range(len(self.grid.maps))):
            return {p.name: p.name for p in self.pieces}
        sets = {p.name: frozenset(self.orientations(p)) for p in self.pieces}
        bounds = {p.name: (p.lo, p.hi) for p in self.pieces}
        out: dict[str, str] = {}
        for p in self.pieces:
            image = frozenset(geometry.normalize(geometry.moved(o, k, self.grid), self.grid)
                              for o in sets[p.name])
            if image == sets[p.name]:
                out[p.name] = p.name
                continue
            others = [q for q, s in sets.items()
                      if s == image and q != p.name and bounds[q] == bounds[p.name]]
            if len(others) != 1:
                return None
            out[p.name] = others[0]
        return out

    def build_symmetries(self) -> Perms:
        from puzzlebox.cover.symmetry import in_form, options_by_labels

        rows = []
        board = sorted(self.board)
        for k, (dy, dx) in self.board_maps():
            names = self.piece_map(k)
            if names is None:
                continue
            # each stick's image once, not once for each option that holds it
            image = {s: (y + dy, x + dx)
                     for s, (y, x) in zip(board, geometry.moved(board, k, self.grid))}

            def move(label: Any, names: dict[str, str] = names,
                     image: dict[Stick, Stick] = image) -> Label:
                name, sticks = label
                return names[name], tuple(sorted(map(image.__getitem__, sticks)))

            rows.append(options_by_labels(self.problem, move))
        return in_form(self.problem, rows)

    # -- proofs ----------------------------------------------------------------------------
    def proofs(self) -> Iterator[Proof]:
        """Area: the board's sticks must be a sum of the pieces' sizes under their counts.
        Directions: a piece adds its sticks in each of the grid's directions, as it lies in
        one of its allowed orientations; the board's counts must be a sum of those. On
        squares this is the balance of horizontal and vertical sticks (why the 16
        tetrasticks fill no shape symmetric under a quarter turn)."""
        grid, n = self.grid, len(self.board)
        width = len(grid.directions)
        board_counts = [0] * width
        for s in self.board:
            board_counts[grid.direction(s)] += 1
        states: set[tuple[int, ...]] = {(0,) * width}
        for piece in self.pieces:
            variants = {Piece(piece.name, o).directions(grid) for o in self.orientations(piece)}
            grown: set[tuple[int, ...]] = set()
            layer = states  # the states after ``copies`` copies of this piece
            for copies in range(piece.hi + 1):
                if copies >= piece.lo:
                    grown |= layer
                if copies == piece.hi or len(grown) > MAX_STATES:
                    break
                layer = {tuple(a + b for a, b in zip(state, v)) for state in layer
                         for v in variants if sum(state) + piece.size <= n}
                if not layer:
                    break
            states = grown
            if len(states) > MAX_STATES:
                return  # too many to follow: no claim
        if n not in {sum(state) for state in states}:
            yield Proof("area", f"the board has {n} sticks, which no choice of the pieces "
                        "(within their counts) adds up to")
            return
        if tuple(board_counts) in states:
            return
        if len(grid.directions) == 2:  # squares: the balance of horizontal and vertical
            balance = board_counts[0] - board_counts[1]
            yield Proof("balance", f"the board has {balance:+d} more horizontal than "
                        "vertical sticks, which no choice of the pieces and their turns "
                        "adds up to")
            return
        counts = ", ".join(f"{k} {name}" for k, name in zip(board_counts, grid.directions))
        yield Proof("balance", f"the board's sticks lie {counts}, which no choice of the "
                    "pieces and their turns adds up to")

    # -- drawing ---------------------------------------------------------------------------
    def text_lines(self, solution: Solution, style: str = "text") -> list[str]:
        assert isinstance(solution, PolysticksSolution)
        return text.solution_lines(self, solution)

    def text_owners(self, solution: Solution) -> list[list[int | None]]:
        """The placement each character of the drawing shows, for a terminal's colours."""
        assert isinstance(solution, PolysticksSolution)
        return text.solution_owners(solution)

    def describe_lines(self) -> list[str]:
        return text.describe(self)

    def solution_panel(self, solution: Solution, title: str) -> Panel:
        from puzzlebox.puzzles.polysticks.pictures import sticks_panel  # matplotlib

        assert isinstance(solution, PolysticksSolution)
        colors = {p.name: i for i, p in enumerate(self.pieces)}
        drawn = [(colors[name], sticks) for name, sticks in solution.placements]
        return sticks_panel(self.board, drawn, title, "solution", self.grid)

    def puzzle_panels(self, title: str) -> tuple[Panel, list[Panel]]:
        from puzzlebox.puzzles.polysticks.pictures import sticks_panel  # matplotlib

        board = sticks_panel(self.board, [], title, "board", self.grid)
        pieces = [sticks_panel(p.sticks, [(i, tuple(sorted(p.sticks)))],
                               p.name + p.count_words(), "piece", self.grid)
                  for i, p in enumerate(self.pieces)]
        return board, pieces
