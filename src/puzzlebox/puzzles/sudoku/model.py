"""Sudoku as exact cover: one item per cell, per row and digit, per column and digit and
per region and digit; one option per (cell, digit) that no given rules out.

Givens prune options instead of being forced: a given cell keeps its one option, and no
other cell of its row, column or region keeps an option for the given's digit. The cover
problem is then the whole puzzle and an engine's count is the number of completions.

Symmetry (``distinct``): the rotations and reflections of the square grid that map the
regions onto regions and each given onto a given of the same digit. Relabelling digits
and permuting bands, stacks, rows in a band and columns in a stack are symmetries of the
empty standard grid too, but they are not counted here: their group (3,359,232 maps
times 9! relabellings on 9 x 9) is far too large for permutations of the options; the
bench (bench/sudoku_count.py) uses them by hand.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterator
from dataclasses import dataclass
from functools import cached_property
from typing import TYPE_CHECKING, Any, NamedTuple, cast

from puzzlebox.cover.problem import CoverBuilder
from puzzlebox.puzzles.base import Puzzle, Solution, register_kind
from puzzlebox.puzzles.proofs import Proof
from puzzlebox.puzzles.sudoku import reader
from puzzlebox.puzzles.sudoku.text import describe, grid_lines

if TYPE_CHECKING:
    from puzzlebox.cover.problem import CoverProblem
    from puzzlebox.cover.symmetry import Perms
    from puzzlebox.render.pictures import Panel

Cell = tuple[int, int]
# The symbols a grid of each size uses unless the file names its own: digits, then letters
# (16 x 16: 1-9 and A-G).
DEFAULT_SYMBOLS = "123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ"
MAX_SIZE = 25  # the largest grid read: 25 x 25, 15,625 options


def default_symbols(n: int) -> str:
    return DEFAULT_SYMBOLS[:n]


def box_regions(n: int, box_rows: int, box_cols: int) -> tuple[tuple[int, ...], ...]:
    """The region number of each cell of an ``n`` x ``n`` grid cut into boxes."""
    per_band = n // box_cols
    return tuple(
        tuple((r // box_rows) * per_band + c // box_cols for c in range(n)) for r in range(n)
    )


class SudokuCell(NamedTuple):
    """One cell of a completed grid: its row and column (from 0) and its symbol as shown."""

    row: int
    col: int
    digit: str


@dataclass(frozen=True)
class SudokuSolution(Solution):
    """The completed grid: ``digits[r][c]`` is the symbol of each cell as the grid shows it
    (``"5"``, or ``"G"`` on 16 x 16; #38 item 10: it held the symbol's index, 4 for a 5);
    ``symbols`` the puzzle's symbols in order."""

    digits: tuple[tuple[str, ...], ...]
    symbols: str

    @property
    def placements(self) -> tuple[SudokuCell, ...]:
        """Every cell in reading order, givens included, as ``--json`` lists them: the data
        under the name every kind gives it."""
        return tuple(SudokuCell(r, c, d) for r, row in enumerate(self.digits)
                     for c, d in enumerate(row))

    def placements_json(self) -> list[dict[str, Any]]:
        return [{"row": r, "col": c, "digit": d} for r, c, d in self.placements]

    def key(self) -> tuple[Hashable, ...]:
        return self.digits

    def rows(self) -> list[str]:
        """Each row as a string of symbols."""
        return ["".join(row) for row in self.digits]

    def indices(self) -> tuple[tuple[int, ...], ...]:
        """Each cell's symbol as its index in ``symbols`` (0 to n-1): the cover problem's
        numbering, which text, pictures and labels are drawn from."""
        return tuple(tuple(self.symbols.index(d) for d in row) for row in self.digits)


@register_kind
class SudokuPuzzle(Puzzle):
    """An n x n grid, its regions (boxes, or jigsaw pieces) and its givens."""

    kind = "sudoku"

    def __init__(
        self,
        name: str,
        n: int,
        givens: dict[Cell, int],
        regions: tuple[tuple[int, ...], ...],
        symbols: str | None = None,
        box: tuple[int, int] | None = None,
        title: str = "",
        notes: str = "",
        region_names: str | None = None,
    ) -> None:
        super().__init__(name, title, notes)
        self.n = n
        self.givens = dict(givens)
        self.regions = regions
        self.symbols = symbols or default_symbols(n)
        self.box = box  # (rows, cols) of a box; None for jigsaw regions
        # the character that names each region (jigsaw: the file's letters), by number
        self.region_names = region_names or "ABCDEFGHIJKLMNOPQRSTUVWXY"[:n]
        if len(self.symbols) != n or len(set(self.symbols)) != n:
            raise ValueError(f"a {n} x {n} sudoku needs {n} distinct symbols")

    @classmethod
    def read(cls, r: Any, doc: dict[str, Any], name: str, title: str, notes: str
             ) -> list[Puzzle]:
        """The kind's reader (reader.py): the one puzzle of a parsed file."""
        return [reader.read_sudoku(r, doc, name, title, notes)]

    # -- the cover problem -----------------------------------------------------------------
    def region_cells(self) -> list[list[Cell]]:
        """The cells of each region, in reading order."""
        out: list[list[Cell]] = [[] for _ in range(self.n)]
        for r in range(self.n):
            for c in range(self.n):
                out[self.regions[r][c]].append((r, c))
        return out

    def candidates(self, cell: Cell) -> list[int]:
        """The digits a cell may hold: its given, or those no given of its row, column or
        region holds."""
        return self._candidates[cell]

    @cached_property
    def _candidates(self) -> dict[Cell, list[int]]:
        n = self.n
        rows: list[set[int]] = [set() for _ in range(n)]
        cols: list[set[int]] = [set() for _ in range(n)]
        regions: list[set[int]] = [set() for _ in range(n)]
        for (r, c), d in self.givens.items():
            rows[r].add(d)
            cols[c].add(d)
            regions[self.regions[r][c]].add(d)
        out: dict[Cell, list[int]] = {}
        for r in range(n):
            for c in range(n):
                if (r, c) in self.givens:
                    out[r, c] = [self.givens[r, c]]
                else:
                    seen = rows[r] | cols[c] | regions[self.regions[r][c]]
                    out[r, c] = [d for d in range(n) if d not in seen]
        return out

    def build_problem(self) -> CoverProblem:

        n = self.n
        b = CoverBuilder()
        for r in range(n):
            for c in range(n):
                b.primary(("cell", r, c))
        for unit in ("row", "col", "region"):
            for i in range(n):
                for d in range(n):
                    b.primary((unit, i, d))
        for r in range(n):
            for c in range(n):
                for d in self.candidates((r, c)):
                    items = [("cell", r, c), ("row", r, d), ("col", c, d),
                             ("region", self.regions[r][c], d)]
                    b.option(items, (r, c, d))
        return b.build()

    def decode(self, chosen: tuple[int, ...]) -> SudokuSolution:
        grid = [[-1] * self.n for _ in range(self.n)]
        for k in chosen:
            r, c, d = self.problem.labels[k]
            grid[r][c] = d
        return SudokuSolution(tuple(tuple(self.symbols[d] for d in row) for row in grid),
                              self.symbols)

    def option_labels(self, solution: Solution) -> list[Hashable]:
        assert isinstance(solution, SudokuSolution)
        return [(r, c, d) for r, row in enumerate(solution.indices()) for c, d in enumerate(row)]

    def move_words(self, label: Hashable) -> str:
        r, c, d = cast(Any, label)
        return f"{self.symbols[d]} at row {r + 1}, column {c + 1}"

    def item_words(self, name: Hashable) -> str:
        what, a, b = cast(Any, name)
        if what == "cell":
            return f"the cell at row {a + 1}, column {b + 1}"
        where = {"row": "row", "col": "column", "region": "region"}.get(what, what)
        return f"{self.symbols[b]} in {where} {a + 1}"

    # -- symmetry --------------------------------------------------------------------------
    def square_maps(self) -> list[Callable[[Cell], Cell]]:
        """The eight rotations and reflections of the n x n square, identity first."""
        m = self.n - 1
        return [
            lambda p: (p[0], p[1]),
            lambda p: (p[1], m - p[0]),
            lambda p: (m - p[0], m - p[1]),
            lambda p: (m - p[1], p[0]),
            lambda p: (p[0], m - p[1]),
            lambda p: (m - p[0], p[1]),
            lambda p: (p[1], p[0]),
            lambda p: (m - p[1], m - p[0]),
        ]

    def keeps(self, move: Callable[[Cell], Cell]) -> bool:
        """Whether a map of the square sends regions onto regions and givens onto givens of
        the same digit."""
        cells = [(r, c) for r in range(self.n) for c in range(self.n)]
        image: dict[int, int] = {}
        for cell in cells:
            r, c = cell
            r2, c2 = move(cell)
            if image.setdefault(self.regions[r][c], self.regions[r2][c2]) != \
                    self.regions[r2][c2]:
                return False
        return all(self.givens.get(move(cell)) == d for cell, d in self.givens.items())

    def build_symmetries(self) -> Perms:
        from puzzlebox.cover.symmetry import in_form, options_by_labels

        def on_options(move: Callable[[Cell], Cell]) -> Callable[[Any], Any]:
            def option(label: Any) -> Any:
                r, c, d = label
                return (*move((r, c)), d)

            return option

        return in_form(self.problem, [
            options_by_labels(self.problem, on_options(move))
            for move in self.square_maps() if self.keeps(move)
        ])

    # -- proofs ----------------------------------------------------------------------------
    def units(self) -> Iterator[tuple[str, list[Cell]]]:
        """Every row, column and region, named as a sentence names it."""
        n = self.n
        for r in range(n):
            yield f"row {r + 1}", [(r, c) for c in range(n)]
        for c in range(n):
            yield f"column {c + 1}", [(r, c) for r in range(n)]
        word = "box" if self.box else "region"
        for i, cells in enumerate(self.region_cells()):
            yield f"{word} {i + 1}", cells

    def proofs(self) -> Iterator[Proof]:
        """Two givens of one digit in a unit; a cell no digit can fill; a digit with no
        cell left in some unit (each read off the givens, without search)."""
        for unit, cells in self.units():
            where: dict[int, list[Cell]] = {}
            for cell in cells:
                if cell in self.givens:
                    where.setdefault(self.givens[cell], []).append(cell)
            for d, places in where.items():
                if len(places) > 1:
                    at = " and ".join(cell_name(p) for p in places[:2])
                    yield Proof("givens", f"{unit} has two givens {self.symbols[d]} "
                                f"({at}): no completion can exist")
                    return
        for r in range(self.n):
            for c in range(self.n):
                if not self.candidates((r, c)):
                    yield Proof("candidates", f"cell {cell_name((r, c))} can hold no digit: "
                                "its row, column and region already have every one")
                    return
        for unit, cells in self.units():
            for d in range(self.n):
                if not any(d in self.candidates(cell) for cell in cells):
                    yield Proof("candidates", f"{unit} has no cell left for "
                                f"{self.symbols[d]}: the givens rule out every one")
                    return

    # -- drawing ---------------------------------------------------------------------------
    def text_lines(self, solution: Solution, style: str = "text") -> list[str]:
        assert isinstance(solution, SudokuSolution)
        return grid_lines(self, solution.indices())

    def describe_lines(self) -> list[str]:
        return describe(self)

    def solution_panel(self, solution: Solution, title: str) -> Panel:
        from puzzlebox.puzzles.sudoku.pictures import grid_panel

        assert isinstance(solution, SudokuSolution)
        return grid_panel(self, solution.indices(), title, "solution")

    def puzzle_panels(self, title: str) -> tuple[Panel, list[Panel]]:
        from puzzlebox.puzzles.sudoku.pictures import grid_panel

        return grid_panel(self, None, title, "board"), []


def cell_name(cell: Cell) -> str:
    """``r3c7``: the way sudoku players name a cell (rows and columns from 1)."""
    return f"r{cell[0] + 1}c{cell[1] + 1}"
