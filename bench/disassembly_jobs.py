"""Taking apart on every core (#35 item 2): ``count --disassemble`` with ``--jobs 1`` and
``--jobs N`` on public BurrTools files, wall and CPU, interleaved round by round.

Each command runs in a fresh process, ``puzzlebox count FILE.toml --disassemble --json``
with and without ``--jobs N``; its wall time is the clock around it, its CPU that of the
process and of every worker it started (they are its children and it waits for them, so
``wait4`` holds their CPU). The answers (assemblies, how many come apart, every level) must
be equal, or the script says so and fails. The files are other people's: they are found
or extracted as bench/disassembly_public.py finds them (``--files``, ``--mirrors``,
``--examples``; its ``SOURCES`` name each one's repository and commit).

    python bench/disassembly_jobs.py                          # onega, --jobs 2, 2 rounds
    python bench/disassembly_jobs.py --only onega aracna --jobs 2 --rounds 3

The speed-up is only worth quoting from a machine whose other cores are free: the load is
printed before and after.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

BENCH = Path(__file__).resolve().parent
sys.path.insert(0, str(BENCH))
from disassembly_public import EXAMPLES, SOURCES, imported  # noqa: E402
from parallel import warm_bytecode  # noqa: E402


def run_once(argv: list[str]) -> tuple[float, float, dict]:
    """``argv`` in a fresh process: wall seconds, CPU seconds (its own and its workers'),
    and its JSON answer."""
    with tempfile.TemporaryFile("w+") as out:
        began = time.perf_counter()
        proc = subprocess.Popen(argv, stdout=out, stderr=subprocess.DEVNULL, text=True)
        _, status, usage = os.wait4(proc.pid, 0)
        wall = time.perf_counter() - began
        if os.waitstatus_to_exitcode(status) != 0:
            raise SystemExit(f"{' '.join(argv)}: exit status {os.waitstatus_to_exitcode(status)}")
        out.seek(0)
        answer = json.loads(out.read().splitlines()[-1])
    answer.pop("seconds", None)
    return wall, usage.ru_utime + usage.ru_stime, answer


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--only", nargs="+", default=["onega"], metavar="NAME")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--files", default=str(BENCH / ".public"))
    parser.add_argument("--mirrors", default="/work/.mirror")
    parser.add_argument("--examples", default=os.environ.get(
        "BURRTOOLS_EXAMPLES", str(BENCH.parent.parent / EXAMPLES[1])))
    args = parser.parse_args()
    warm_bytecode([])
    puzzlebox = shutil.which("puzzlebox", path=str(Path(sys.executable).parent)) or "puzzlebox"
    load = os.getloadavg()
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        for source, _, toml in imported([s for s in SOURCES if s.name in args.only],
                                        Path(args.files), Path(args.mirrors),
                                        Path(args.examples), Path(tmp), puzzlebox):
            base = [puzzlebox, "count", str(toml), "--disassemble", "--json"]
            got: dict[int, list[tuple[float, float]]] = {1: [], args.jobs: []}
            answers = []
            for round_ in range(args.rounds):
                for jobs in (1, args.jobs):
                    wall, cpu, answer = run_once(base + (["--jobs", str(jobs)] if jobs > 1
                                                         else []))
                    answer.pop("workers", None)
                    got[jobs].append((wall, cpu))
                    answers.append(answer)
                    print(f"round {round_ + 1} {source.name} --jobs {jobs}: {wall:.1f} s wall, "
                          f"{cpu:.1f} s CPU, load {os.getloadavg()[0]:.1f}", file=sys.stderr)
            if any(a != answers[0] for a in answers):
                raise SystemExit(f"{source.name}: the answers differ: {answers}")
            rows.append((source.name, answers[0], got))
    after = os.getloadavg()
    print(f"\n`python bench/disassembly_jobs.py {' '.join(sys.argv[1:])}`: {os.cpu_count()} "
          f"cores, load {load[0]:.1f} at the start, {after[0]:.1f} at the end; median of "
          f"{args.rounds} interleaved rounds; CPU of the command and its workers\n")
    print(f"| file | assemblies | come apart | --jobs 1 wall | --jobs {args.jobs} wall | "
          f"speed-up | --jobs 1 CPU | --jobs {args.jobs} CPU | CPU vs 1 |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|")
    for name, answer, got in rows:
        w1 = statistics.median(w for w, _ in got[1])
        wn = statistics.median(w for w, _ in got[args.jobs])
        c1 = statistics.median(c for _, c in got[1])
        cn = statistics.median(c for _, c in got[args.jobs])
        print(f"| {name} | {answer['assemblies']} | {answer['come_apart']} | {w1:.1f} s | "
              f"{wn:.1f} s | {w1 / wn:.2f}x | {c1:.1f} s | {cn:.1f} s | {cn / c1:.2f}x |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
