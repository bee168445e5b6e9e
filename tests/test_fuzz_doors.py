"""A fuzz test for each door added since #18 (#28): generated hostile inputs, a fixed seed,
a few hundred a door (tests/fuzz_doors.py says what each door gets and what it must
answer). The long version, 10,000 and more a door with the time and memory of each input,
is tools/fuzz_doors.py; its last figures are in docs/reliability.md. A failure names its
door, seed and input number: ``fuzz(door, seed, index + 1)`` replays it.
"""

from __future__ import annotations

import pytest

from fuzz_doors import STATUSES, fuzz

SEED = 28
COUNTS = {"lattice": 200, "burrtools": 300, "export": 300, "web": 250}


@pytest.mark.parametrize("door", sorted(COUNTS))
def test_every_generated_input_is_answered_as_promised(door):
    if door == "web":
        pytest.importorskip("starlette")
        pytest.importorskip("httpx")
    failures = fuzz(door, SEED, COUNTS[door])
    assert not failures, "\n".join(failures[:10])


def test_the_generators_reach_past_the_first_check():
    """The inputs are not all refused at once: of each door some are read and worked on
    (exit 0), so the fuzz reaches the code behind the first check, and some refused."""
    for door in ("lattice", "burrtools", "export"):
        STATUSES.clear()
        assert not fuzz(door, SEED + 1, 40)
        assert 0 in STATUSES and 2 in STATUSES, (door, STATUSES)
