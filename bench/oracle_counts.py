"""The independent brute force of the lattice tests (tests/lattice_oracle.py) counting the
catalog puzzles whose published figures the suite leaves to it here: the longest oracle runs
(issue #23: the suite stays under 8 minutes; the checks stay, here).

    python bench/oracle_counts.py      # every puzzle in PUBLISHED below
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

TESTS = Path(__file__).resolve().parent.parent / "tests"
sys.path.insert(0, str(TESTS))

import lattice_oracle as oracle  # noqa: E402

# puzzle -> (distinct, as placed), the published figures of tests/test_lattice_catalog.py's
# PUBLISHED for the puzzles it lists in ORACLE_IN_BENCH
PUBLISHED = {"solid-pentominoes-2x3x10": (12, 96)}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.parse_args()
    from puzzlebox import catalog

    failed = 0
    for name, (distinct, placed) in PUBLISHED.items():
        instance = oracle.read(catalog.path_of(name))
        began = time.process_time()
        got, kept = oracle.count(instance, keep=3)
        seconds = time.process_time() - began
        board = set(instance.board)
        good = (got.solutions, got.distinct) == (placed, distinct) and all(
            set().union(*s) == board and sum(map(len, s)) == len(board) for s in kept)
        failed += not good
        print(f"{name}: oracle {got.solutions}/{got.distinct}, published {placed}/{distinct}: "
              f"{'agree' if good else 'DISAGREE'} ({seconds:.1f} s CPU)")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
