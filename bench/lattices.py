"""puzzlebox on triangles, hexagons and cubes against xcover, on the same cover problems (#14).

    python bench/lattices.py             # the catalog's lattice puzzles, Bedlam included
    python bench/lattices.py --quick     # without Bedlam (about a minute)
    python bench/lattices.py --write     # also replace this benchmark's section of RESULTS.md

Measured as bench/run.py measures (each in a fresh process, kernels loaded before the clock):

* **count**: ``Puzzle.count()``, what ``puzzlebox count`` does (symmetry breaking, auto);
* **raw**: the bitboard engine counting every solution as placed, no symmetry breaking: the
  work xcover does;
* **xcover**: xcover enumerating the same cover problem (raw solutions);
* **Bedlam**: xcover would need far longer than a benchmark run (and the raw count about 24
  times the symmetry-broken one), so raw times are *projected*:
  the problem is cut by the placements of the item with the fewest options (a piece), a fixed
  random sample of those subproblems is counted by xcover and by the bitboard engine (both
  counts must agree), and each one's CPU on the sample is scaled by ``all / sampled``: the
  same parts for both, so their ratio is measured, while the projected totals carry the
  sample's spread. The whole count also runs as ``puzzlebox count bedlam-cube --jobs 2``.

Targets (issue #14, item 6): 3x4x5 solid pentominoes with at least 10x less CPU than xcover;
the Soma cube's 240 in under 0.2 s of search; Bedlam's 19,186 in under 10 minutes.
"""

from __future__ import annotations

import argparse
import datetime
import importlib.util
import json
import os
import platform
import random
import shutil
import sys
import time
from pathlib import Path

BENCH = Path(__file__).resolve().parent
sys.path.insert(0, str(BENCH))

import run  # noqa: E402  (bench/run.py: subprocesses, the table, the xcover translation)

BEGIN = "<!-- bench/lattices.py: begin -->"
END = "<!-- bench/lattices.py: end -->"

INSTANCES = {  # catalog name -> (raw, distinct) as published (the catalog's notes cite them)
    "soma-cube": (11520, 240),
    "solid-pentominoes-2x3x10": (96, 12),
    "solid-pentominoes-2x5x6": (2112, 264),
    "solid-pentominoes-3x4x5": (31520, 3940),
    "hexiamonds-6x6-rhombus": (624, 156),
    "hexiamonds-4x11-trapezoid": (152, 76),
    "tetrahexes-4x7-parallelogram": (18, 9),
    "bedlam-cube": (460464, 19186),
}
PROJECTED = {"bedlam-cube"}  # xcover's time projected from a sample of subproblems
SAMPLE = 3  # subproblems of the projection


def _subproblems(problem, k: int, seed: int = 0):  # type: ignore[no-untyped-def]
    """``k`` options of the primary item with the fewest options (a fixed random sample) and
    how many options that item has: forcing each of them cuts the problem into parts whose
    solutions partition it."""
    import numpy as np

    counts = np.bincount(problem.items, minlength=problem.n_items)[: problem.n_primary]
    item = int(np.argmin(counts))
    owner = np.repeat(np.arange(problem.n_options), np.diff(problem.start))
    options = sorted(set(owner[problem.items == item].tolist()))
    return random.Random(seed).sample(options, min(k, len(options))), len(options)


def worker(task: str, target: str) -> dict[str, object]:
    """One measurement in this process: ``sample`` counts the sampled subproblems with
    xcover and the bitboard engine."""
    if task != "sample":
        raise SystemExit(f"unknown task {task!r}")
    import xcover

    from puzzlebox.engine import registry
    from puzzlebox.engine.bitboard import _warm_up

    problem = run._problem(target)
    chosen, total = _subproblems(problem, SAMPLE)
    args, why = run._xcover_args(problem)
    if args is None:
        return {"skip": why}
    options, primary, secondary, colored = args
    _warm_up()
    next(xcover.covers([["a"]], primary=["a"], secondary=[]), None)
    ours_cpu = peer_cpu = 0.0
    ours_count = peer_count = 0
    for o in chosen:
        taken = set(problem.items[problem.start[o] : problem.start[o + 1]].tolist())
        rows = [
            row
            for k, row in enumerate(options)
            if not taken & set(problem.items[problem.start[k] : problem.start[k + 1]].tolist())
        ]
        left = [name for name in primary if int(name[1:]) not in taken]
        began = time.process_time()
        peer_count += sum(
            1 for _ in xcover.covers(rows, primary=left, secondary=secondary, colored=colored)
        )
        peer_cpu += time.process_time() - began
        began = time.process_time()
        ours_count += registry.count(problem, "bitboard", forced=(o,))
        ours_cpu += time.process_time() - began
    return {"sampled": len(chosen), "total": total, "raw": peer_count, "ours_raw": ours_count,
            "cpu": peer_cpu, "ours_cpu": ours_cpu}  # fmt: skip


def _cli(target: str, limit: float, *extra: str) -> run.Run:
    exe = shutil.which("puzzlebox", path=str(Path(sys.executable).parent)) or "puzzlebox"
    measured = run.measure([exe, "count", target, "--json", "--quiet", *extra], limit)
    if measured.failure is None:
        got = measured.report
        measured.report = {"result": f"{got.get('solutions')}/{got.get('distinct')}", **got}
    return measured


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="leave out the Bedlam cube")
    parser.add_argument("--timeout", type=float, default=900.0, help="seconds per measurement")
    parser.add_argument("--write", action="store_true", help="update bench/RESULTS.md")
    parser.add_argument("--worker", nargs=2, metavar=("TASK", "TARGET"), help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.worker:
        print(json.dumps(worker(*args.worker)))
        return 0

    if importlib.util.find_spec("xcover") is None:
        from puzzlebox.extras import install_command

        print(f"bench/lattices.py compares with xcover, which is not installed: "
              f"{install_command('bench')}", file=sys.stderr)
        return 2
    started = datetime.datetime.now(datetime.UTC)
    command = "python bench/lattices.py" + (" --quick" if args.quick else "")
    load = os.getloadavg()[0]
    header = [
        f"{started:%Y-%m-%d %H:%M} UTC, `{command}`, Python {platform.python_version()}, "
        f"{platform.machine()}, {os.cpu_count()} CPUs, load average {load:.1f} at the start.",
        "",
    ]
    print("\n".join(header))
    table = run.Table()
    print("\n".join(table.lines), flush=True)
    run.cli_count("soma-cube", 600)  # kernels into numba's cache: no measured process compiles
    problems: list[str] = []
    got: dict[str, run.Run] = {}
    for name, (raw, distinct) in INSTANCES.items():
        if args.quick and name in PROJECTED:
            continue
        ours = run.python_task("pb-count", name, args.timeout)
        table.row(name, f"puzzlebox count ({ours.get('engine') or '-'})", ours,
                  _cli(name, args.timeout))  # fmt: skip
        problems += run.check(f"{name} puzzlebox", ours, raw, distinct)
        got[name] = ours
        if name in PROJECTED:  # (its raw count would take about |G| times the count's time)
            jobs = _cli(name, args.timeout, "--jobs", "2")
            table.row(name, "puzzlebox count --jobs 2 (process)", jobs)
            problems += run.check(f"{name} --jobs 2", jobs, raw)
            got[name + ":jobs"] = jobs
            sample = run.measure([sys.executable, str(Path(__file__)), "--worker", "sample",
                                  name], args.timeout)  # fmt: skip
            got[name + ":sample"] = sample
            if sample.failure is None and sample.get("raw") != sample.get("ours_raw"):
                problems.append(f"{name}: xcover and bitboard disagree on the sampled parts")
            share = f"{sample.get('sampled')} of {sample.get('total')} parts"
            ours_part = run.Run(report={"result": f"{sample.get('ours_raw')} ({share})",
                                        "cpu": sample.get("ours_cpu")})  # fmt: skip
            table.row(name, "bitboard engine, sampled parts", ours_part)
            table.row(name, "xcover, sampled parts", run.Run(
                report={"result": f"{sample.get('raw')} ({share})", "cpu": sample.get("cpu")},
                failure=sample.failure))  # fmt: skip
            continue
        fast = run.python_task("pb-raw", name, args.timeout)
        table.row(name, "bitboard engine, raw count", fast)
        problems += run.check(f"{name} bitboard", fast, raw)
        got[name + ":raw"] = fast
        peer = run.python_task("xcover", name, args.timeout)
        table.row(name, "xcover, raw", peer,
                  ratio=f"{run._ratio(peer, ours)} / {run._ratio(peer, fast)}")  # fmt: skip
        problems += run.check(f"{name} xcover", peer, raw)
        got[name + ":xcover"] = peer

    footer = ["", *targets(got), "", "Disagreements: " + ("; ".join(problems) or "none") + "."]
    print("\n".join(footer))
    if args.write:
        write_results("\n".join(header + table.lines + footer))
    return 1 if problems else 0


def _cpu(got: dict[str, run.Run], key: str, field: str = "cpu") -> float | None:
    value = got[key].get(field) if key in got else None
    return float(value) if isinstance(value, float) else None  # type: ignore[arg-type]


def targets(got: dict[str, run.Run]) -> list[str]:
    """The issue's targets, each with what this run measured."""
    lines = ["Targets (issue #14, item 6), measured in this run:", ""]
    ours, peer = _cpu(got, "solid-pentominoes-3x4x5"), _cpu(got, "solid-pentominoes-3x4x5:xcover")
    raw = _cpu(got, "solid-pentominoes-3x4x5:raw")
    if ours and peer:
        also = f" (raw count {raw:.2f} s: {peer / raw:.0f}x)" if raw else ""
        lines.append(f"- 3x4x5 solid pentominoes, >= 10x less CPU than xcover: `puzzlebox "
                     f"count` {ours:.2f} s, xcover {peer:.1f} s: "
                     f"{peer / ours:.0f}x{also}")  # fmt: skip
    soma = _cpu(got, "soma-cube")
    if soma is not None:
        lines.append(f"- Soma cube, 240 distinct in < 0.2 s of search: {soma:.3f} s CPU")
    bedlam, jobs = got.get("bedlam-cube"), got.get("bedlam-cube:jobs")
    if bedlam is not None:
        wall = bedlam.get("wall")
        lines.append(f"- Bedlam cube, 19,186 distinct in < 10 minutes: one process "
                     f"{run._s(wall)} s of search (wall); `--jobs 2` "
                     f"{run._s(jobs.process_wall if jobs else None)} s for the whole "
                     "command (wall)")  # fmt: skip
    sample = got.get("bedlam-cube:sample")
    if sample is not None and sample.failure is None:
        share = float(sample.get("total")) / float(sample.get("sampled"))  # type: ignore[arg-type]
        peer_all = float(sample.get("cpu")) * share  # type: ignore[arg-type]
        ours_all = float(sample.get("ours_cpu")) * share  # type: ignore[arg-type]
        count_cpu = _cpu(got, "bedlam-cube")
        ratio = f" ({peer_all / count_cpu:.0f}x)" if count_cpu else ""
        lines.append(
            f"- Bedlam, xcover projected from {sample.get('sampled')} of {sample.get('total')} "
            f"parts: {peer_all:.0f} s CPU for the raw count; the bitboard engine's raw count "
            f"projected the same way: {ours_all:.1f} s ({peer_all / ours_all:.0f}x); "
            f"`puzzlebox count` (symmetry broken) {run._s(count_cpu)} s CPU{ratio}"
        )
    return lines


def write_results(text: str) -> None:
    """Replace this benchmark's section of RESULTS.md (other sections are left alone)."""
    section = f"{BEGIN}\n## Triangles, hexagons and cubes against xcover (`bench/lattices.py`)\n\n"
    section += f"{text}\n{END}\n"
    old = run.RESULTS.read_text()
    if BEGIN in old and END in old:
        head, rest = old.split(BEGIN, 1)
        _, tail = rest.split(END, 1)
        new = head + section + tail.lstrip("\n")
    else:
        new = old.rstrip("\n") + "\n\n" + section
    run.RESULTS.write_text(new)


if __name__ == "__main__":
    sys.exit(main())
