"""n-queens and its variants: puzzlebox against Knuth's DLX2 on the same cover problems,
interleaved, whole process (issue #38 item 15).

    python bench/queens_dlx.py                  # every row, 3 rounds
    python bench/queens_dlx.py --quick          # the smaller rows, 1 round
    python bench/queens_dlx.py --dlx2 PATH      # a dlx2 built elsewhere

Knuth's DLX2 (exact cover with colours, CWEB, public) is built from a fetched copy of the
repository ascherer/cwebtest by ``shared/peers/knuth/build.sh`` (``$KNUTH_GIT``: its git
directory; it needs ``ctangle``) into ``bench/.peers/knuth/``, once; without it the benchmark
says so and stops, exit 0. Nothing of Knuth's enters puzzlebox: it runs as a separate program.

Each instance is one puzzle file; its cover problem, as puzzlebox builds it (rows and columns
primary, diagonals secondary; on a torus the wrapped diagonals primary; a hole or a square a
given attacks has no option), is written in Knuth's format and counted by ``dlx2 < FILE``
("Altogether N solutions": every solution as placed). puzzlebox counts the file as
``puzzlebox count FILE --no-limit`` does, in a fresh process (auto; the plain rows
``--engine compiled``): its raw count, and its distinct count as well, which DLX2 does not
make. The processes alternate, round after round, so a change of load charges both alike
(after one unmeasured run of each engine, which writes the package's bytecode as an
installation has it); CPU is user + system of each whole process (``wait4``, Python's
start-up included), the median of the rounds, and for puzzlebox also the count's own CPU
(``Puzzle.count``: the problem's build, the engine's imports and the search); the raw
counts must agree.
"""

from __future__ import annotations

import argparse
import os
import platform
import random
import re
import shutil
import statistics
import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import run  # noqa: E402  (bench/run.py: measure)

BENCH = Path(__file__).resolve().parent
ROOT = BENCH.parent
CACHE = BENCH / ".peers" / "knuth"
WORK = BENCH / ".peers" / "queens-dlx"
SOLUTIONS = re.compile(r"Altogether (\d+) solutions?")


class Instance:
    """One row: a queens puzzle file (text), the engine puzzlebox is asked for, whether
    ``--quick`` keeps it."""

    def __init__(self, name: str, text: str, engine: str = "auto", quick: bool = True) -> None:
        self.name, self.text, self.engine, self.quick = name, text, engine, quick


def queens_toml(n: int, torus: bool = False, holes: frozenset[tuple[int, int]] = frozenset(),
                givens: tuple[tuple[int, int], ...] = ()) -> str:
    lines = ['kind = "queens"', f"n = {n}"]
    if torus:
        lines.append("torus = true")
    if holes:
        rows = ["".join("." if (r, c) in holes else "#" for c in range(n)) for r in range(n)]
        lines.append('board = """\n' + "\n".join(rows) + '\n"""')
    if givens:
        lines.append(f"givens = {[list(g) for g in givens]}")
    return "\n".join(lines) + "\n"


def _holes(n: int, k: int, seed: int) -> frozenset[tuple[int, int]]:
    """``k`` holes scattered by a fixed seed (they break the board's symmetry)."""
    rng = random.Random(seed)
    squares = [(r, c) for r in range(n) for c in range(n)]
    return frozenset(rng.sample(squares, k))


def instances() -> list[Instance]:
    """The plain boards through the compiled engine (n = 10..13, as #38 measured them), and
    the variants as ``auto`` counts them: tori, holes scattered by a fixed seed (they break
    the board's symmetry), givens."""
    rows = [Instance(f"queens-{n} (compiled)", queens_toml(n), "compiled", n <= 12)
            for n in range(10, 14)]
    rows += [Instance("queens-13", queens_toml(13), quick=False)]
    rows += [Instance(f"torus-{n}", queens_toml(n, torus=True), quick=n <= 13)
             for n in (13, 17, 19)]
    rows += [Instance(f"torus-{n}, {k} holes", queens_toml(n, True, _holes(n, k, 1)),
                      quick=False) for n, k in ((17, 6), (19, 8))]
    rows += [Instance(f"queens-{n}, {k} holes", queens_toml(n, holes=_holes(n, k, n)),
                      quick=n <= 12) for n, k in ((12, 6), (14, 8), (15, 10), (16, 12))]
    rows += [Instance("queens-14, 1 given", queens_toml(14, givens=((0, 3),))),
             Instance("queens-15, 1 given", queens_toml(15, givens=((2, 5),)), quick=False),
             Instance("queens-16, 2 givens", queens_toml(16, givens=((0, 4), (5, 11))),
                      quick=False),
             Instance("queens-17, 2 givens", queens_toml(17, givens=((1, 7), (8, 2))),
                      quick=False)]
    return rows


def to_dlx(problem) -> str:  # type: ignore[no-untyped-def]
    """A cover problem of primary items (each covered once) and uncoloured secondary items in
    Knuth's format: the item line, then one option a line."""
    names = [f"i{k}" for k in range(problem.n_items)]
    head = " ".join(names[: problem.n_primary])
    if problem.n_primary < problem.n_items:
        head += " | " + " ".join(names[problem.n_primary:])
    start, items = problem.arrays.start, problem.arrays.items
    lines = [head]
    for k in range(problem.n_options):
        lines.append(" ".join(names[i] for i in items[start[k]:start[k + 1]]))
    return "\n".join(lines) + "\n"


def knuth_git() -> Path | None:
    """The git directory of a fetched ascherer/cwebtest: ``$KNUTH_GIT``, else the fetch
    tool's mirror where it is."""
    candidates = [Path(os.environ["KNUTH_GIT"])] if os.environ.get("KNUTH_GIT") else []
    candidates.append(Path("/work/.mirror/ascherer+cwebtest/repo"))
    return next((c for c in candidates if (c / "HEAD").is_file()), None)


def build_script() -> Path | None:
    candidates = [ROOT.parent / "shared" / "peers" / "knuth", ROOT / "shared" / "peers" / "knuth",
                  ROOT.parent.parent / "shared" / "peers" / "knuth"]
    return next((c / "build.sh" for c in candidates if (c / "build.sh").is_file()), None)


def build() -> tuple[Path | None, str]:
    """``dlx2`` from the cache, built first if it is not there; else None and why."""
    binary = CACHE / "dlx2"
    if binary.is_file():
        return binary, f"cached build in {CACHE}"
    script, git = build_script(), knuth_git()
    if script is None:
        return None, "shared/peers/knuth/build.sh not found"
    if git is None:
        return None, "no copy of ascherer/cwebtest (set KNUTH_GIT to its git directory)"
    if shutil.which("ctangle") is None or shutil.which("gcc") is None:
        return None, "ctangle or gcc missing (apt-get install texlive-binaries gcc)"
    made = subprocess.run(["bash", str(script), str(git), str(CACHE)], capture_output=True,
                          text=True, timeout=600)  # fmt: skip
    if made.returncode != 0 or not binary.is_file():
        last = (made.stderr.strip().splitlines() or ["?"])[-1]
        return None, f"the build failed: {last}"
    return binary, f"built from {git}"


def dlx2(binary: Path, path: Path, limit: float) -> run.Run:
    """``dlx2 < FILE``: its count (it prints to standard error) and whole-process CPU."""
    measured = run.measure(["sh", "-c", f'exec "{binary}" < "{path}" 2>&1'], limit)
    text = str(measured.get("result", ""))
    found = SOLUTIONS.search(text)
    measured.report = {"solutions": int(found.group(1)) if found else None}
    return measured


def ours(path: Path, engine: str, limit: float) -> run.Run:
    """A fresh process that imports puzzlebox, reads the file and counts it (what
    ``puzzlebox count FILE --engine ENGINE --no-limit`` does): its whole-process CPU, and the
    count's own CPU (``Puzzle.count``, the problem's build and the engine's imports in it)."""
    return run.measure([sys.executable, str(Path(__file__)), "--worker", str(path), engine],
                       limit)  # fmt: skip


def worker(path: str, engine: str) -> None:
    import json
    import time

    import puzzlebox

    puzzle = puzzlebox.loads(Path(path).read_text(), Path(path).stem)
    began = time.process_time()
    result = puzzle.count(engine=engine, limits=None)
    cpu = time.process_time() - began
    print(json.dumps({"solutions": result.solutions, "distinct": result.distinct,
                      "engine": result.stats.engine, "count_cpu": cpu}))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="the smaller rows, one round")
    parser.add_argument("--rounds", type=int, default=None, help="rounds (default 3; quick 1)")
    parser.add_argument("--timeout", type=float, default=600.0, help="seconds per process")
    parser.add_argument("--dlx2", type=Path, default=None, help="a built dlx2 to use")
    parser.add_argument("--only", nargs="*", default=None, help="rows whose name starts so")
    parser.add_argument("--worker", nargs=2, metavar=("FILE", "ENGINE"), help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.worker:
        worker(*args.worker)
        return 0
    rounds = args.rounds or (1 if args.quick else 3)
    if args.dlx2 is not None:
        binary, how = args.dlx2, f"given: {args.dlx2}"
    else:
        binary, how = build()
    if binary is None:
        print(f"skipped: {how}")
        return 0
    import puzzlebox

    rows = [i for i in instances() if i.quick or not args.quick]
    if args.only:
        rows = [i for i in rows if any(i.name.startswith(o) for o in args.only)]
    WORK.mkdir(parents=True, exist_ok=True)
    files: dict[str, tuple[Path, Path]] = {}
    for i in rows:
        stem = re.sub(r"[^a-z0-9]+", "-", i.name.lower()).strip("-")
        toml, dlx = WORK / f"{stem}.toml", WORK / f"{stem}.dlx"
        toml.write_text(i.text)
        dlx.write_text(to_dlx(puzzlebox.loads(i.text).problem))
        files[i.name] = (toml, dlx)
    # a user's installed package has its bytecode (pip writes it): so here too, written by
    # one unmeasured run of each engine (bench/startup.py does the same; without it every
    # process compiled the modules it imports, about 0.1 s of CPU)
    os.environ.pop("PYTHONDONTWRITEBYTECODE", None)
    for engine in sorted({i.engine for i in rows}):
        ours(files[rows[0].name][0], engine, args.timeout)
    load_before = " ".join(f"{x:.1f}" for x in os.getloadavg())
    mine: dict[str, list[run.Run]] = {i.name: [] for i in rows}
    theirs: dict[str, list[run.Run]] = {i.name: [] for i in rows}
    for _ in range(rounds):
        for i in rows:
            toml, dlx = files[i.name]
            mine[i.name].append(ours(toml, i.engine, args.timeout))
            theirs[i.name].append(dlx2(binary, dlx, args.timeout))
    load_after = " ".join(f"{x:.1f}" for x in os.getloadavg())
    print(f"`python bench/queens_dlx.py{' --quick' if args.quick else ''} --rounds {rounds}`, "
          f"Knuth's DLX2 ({how}), Python {platform.python_version()}, {platform.machine()}, "
          f"{os.cpu_count()} CPUs, load average {load_before} at the start, {load_after} at "
          f"the end; whole-process CPU seconds (user + system), median of {rounds}.\n")
    print("| instance | puzzlebox engine | solutions / distinct | DLX2 solutions "
          "| puzzlebox process CPU s | puzzlebox count CPU s | DLX2 CPU s "
          "| DLX2 / puzzlebox, process | DLX2 / puzzlebox, count |")
    print("|---|---|---:|---:|---:|---:|---:|---:|---:|")
    problems = []
    for i in rows:
        good = [r for r in mine[i.name] if r.failure is None and r.process_cpu is not None]
        peer = [r for r in theirs[i.name] if r.failure is None and r.process_cpu is not None]
        if not good or not peer:
            why = (mine[i.name] + theirs[i.name])[0].failure
            print(f"| {i.name} | {why} |  |  |  |  |  |  |  |")
            continue
        ours_cpu = statistics.median(r.process_cpu or 0.0 for r in good)
        count_cpu = statistics.median(float(r.get("count_cpu") or 0.0) for r in good)  # type: ignore[arg-type]
        peer_cpu = statistics.median(r.process_cpu or 0.0 for r in peer)
        solutions, distinct = good[0].get("solutions"), good[0].get("distinct")
        knuth = peer[0].get("solutions")
        if knuth != solutions:
            problems.append(f"{i.name}: puzzlebox {solutions}, DLX2 {knuth}")
        print(f"| {i.name} | {good[0].get('engine')} | {solutions} / {distinct} | {knuth} | "
              f"{ours_cpu:.3f} | {count_cpu:.3f} | {peer_cpu:.3f} | "
              f"{peer_cpu / ours_cpu:.2f}x | {peer_cpu / max(count_cpu, 1e-4):.1f}x |")
    for problem in problems:
        print(f"DISAGREE: {problem}")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
