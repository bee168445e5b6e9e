"""The long fuzz of the doors added since #18 (#28): 10,000 and more inputs a door.

tests/test_fuzz_doors.py runs a few hundred inputs a door in CI; this runs as many as asked,
with the same generators and checks (tests/fuzz_doors.py), and measures what the CI test
must not: the wall-clock time of each input (the slowest is named, to be replayed) and the
peak resident memory of this process and of the page's check processes. The figures of its
last run go in docs/reliability.md.

    python tools/fuzz_doors.py                       # every door, 10,000 inputs each
    python tools/fuzz_doors.py --door burrtools --count 2000 --seed 7
    python tools/fuzz_doors.py --search-seconds 2    # let each count run longer

Exit status 1 when any input was not answered as promised (each failure is printed with its
door, seed and input number: ``fuzz(door, seed, index + 1)`` in tests/fuzz_doors.py replays
it).
"""

from __future__ import annotations

import argparse
import resource
import sys
import time
import warnings
from collections import Counter
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))

import fuzz_doors  # noqa: E402

DOORS = ["lattice", "burrtools", "export", "web"]


def _peak_mb() -> tuple[float, float]:
    """Peak resident MB of this process and of its (waited-for) children (Linux: KB)."""
    own = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    children = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
    return own, children


def run_door(door: str, seed: int, count: int) -> tuple[list[str], dict[str, Any]]:
    """Fuzz one door; its failures and its figures."""
    slowest = (0.0, -1)
    began = time.perf_counter()
    last = [began]
    fuzz_doors.STATUSES.clear()

    def each(index: int, given: Any, problem: str | None) -> None:
        nonlocal slowest
        now = time.perf_counter()
        spent = now - last[0]
        last[0] = now
        if spent > slowest[0] and index > 0:  # the first input pays the start-up
            slowest = (spent, index)
        if (index + 1) % 1000 == 0:
            print(f"  {door}: {index + 1} inputs, {now - began:.0f} s", file=sys.stderr,
                  flush=True)

    failures = fuzz_doors.fuzz(door, seed, count, on_each=each)
    total = time.perf_counter() - began
    own, children = _peak_mb()
    if door == "web":  # the check processes are the process server's children, not ours
        children = fuzz_doors.WEB_CHECK_PEAK / (1 << 20)
    statuses = Counter(fuzz_doors.STATUSES)
    return failures, {"inputs": count, "failures": len(failures), "seconds": total,
                      "slowest": slowest[0], "slowest_index": slowest[1],
                      "statuses": dict(sorted(statuses.items())), "peak_mb": own,
                      "children_peak_mb": children}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--door", choices=DOORS, action="append",
                        help="a door to fuzz (repeatable; default: every door)")
    parser.add_argument("--count", type=int, default=10_000, help="inputs a door")
    parser.add_argument("--seed", type=int, default=28)
    parser.add_argument("--search-seconds", type=float, default=fuzz_doors.SEARCH_SECONDS,
                        help="--max-time of each count of the lattice door")
    args = parser.parse_args(argv)
    warnings.simplefilter("ignore")
    fuzz_doors.SEARCH_SECONDS = args.search_seconds
    failed = False
    for door in args.door or DOORS:
        failures, figures = run_door(door, args.seed, args.count)
        failed = failed or bool(failures)
        print(f"{door}: {figures['inputs']} inputs (seed {args.seed}), {figures['failures']} "
              f"failures, exit statuses {figures['statuses']}, {figures['seconds']:.0f} s in "
              f"all, slowest input {figures['slowest']:.2f} s (#{figures['slowest_index']}), "
              f"peak memory {figures['peak_mb']:.0f} MB (children "
              f"{figures['children_peak_mb']:.0f} MB)", flush=True)
        for failure in failures[:20]:
            print("  " + failure[:500])
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
