"""Tests of the experiments in bench/tiling_experiments.py (moved from tests/test_hard.py
with the code they test: nothing in the library reaches it). Run them with
``.venv/bin/python -m pytest bench/test_experiments.py``."""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pytest

from puzzlebox import catalog
from puzzlebox.puzzles import Piece
from puzzlebox.puzzles.polyomino.repair_tiling import is_tiling

sys.path.insert(0, str(Path(__file__).resolve().parent))

from tiling_experiments import deal, tile_by_blocks, tile_by_repair  # noqa: E402


def test_deal_gives_equal_areas():
    puzzle = catalog.load_file("parallelogram-7").puzzles[0]
    units = [Piece(p.name, p.shape) for p in puzzle.pieces]
    hands = deal(units, 4, 256, np.random.default_rng(0), rotate=False)
    assert sorted(i for hand in hands for i in hand) == list(range(132))
    assert [sum(len(units[i].shape) for i in hand) for hand in hands] == [256] * 4


def test_block_tiling_of_parallelogram_5():
    puzzle = catalog.load_file("parallelogram-5").puzzles[0]
    solution, report = tile_by_blocks(puzzle, 8, 4, seed=0, engine="compiled", time_limit=30)
    assert solution is not None and report.found
    assert is_tiling(puzzle, solution)


@pytest.mark.parametrize("name", ["parallelogram-5", "parallelogram-6"])
def test_repair_tiling_finds_tilings(name):
    puzzle = catalog.load_file(name).puzzles[0]
    solution, report = tile_by_repair(puzzle, seed=0, max_windows=2000)
    assert solution is not None and report.found and report.best_holes == 0
    assert is_tiling(puzzle, solution)
    assert len(solution.placements) == len(puzzle.pieces)
