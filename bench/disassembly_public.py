"""Taking apart public BurrTools files: ``burrTxt -d`` against ``puzzlebox count --disassemble``.

Issue #35 item 1: on every public cube-grid file where ``burrTxt -d`` takes 0.5 s of CPU or
more, ``puzzlebox count FILE.toml --disassemble`` in one process should take less CPU, with
the same figures. This script runs both on each file, interleaved (BurrTools, then
puzzlebox, file after file, round after round), each in a fresh process whose CPU (user +
system, from ``wait4``) is the figure; it checks the answers:

* the assemblies (BurrTools' "N assemblies", puzzlebox's distinct count) and how many come
  apart ("M solutions" against ``come_apart``) must be equal;
* the first number of every level (the moves to the first separation, which any
  breadth-first search finds alike) must be equal, as multisets;
* the whole level strings are compared too and reported (issue #35 item 4: BurrTools may
  take another of several equally short separations).

The files are other people's and are not in the repository. ``--files DIR`` is where they
are kept (by their base name); a file missing there is extracted from a bare git mirror under
``--mirrors`` (``OWNER+NAME/repo``, as the sessions keep them) at the commit named below.
The BurrTools examples come from BurrTools' own source (``--examples``). BurrTools' solver
is the one ``bench/burrtools.py`` builds from ``shared/peers/burrtools`` (or ``--burrtxt``).

    python bench/disassembly_public.py --files /tmp/dfiles            # every file, 1 round
    python bench/disassembly_public.py --only gargamel two-face-3 --repeat 3
    python bench/disassembly_public.py --list                          # the files and sources
    python bench/disassembly_public.py --before /tmp/base/src --only gargamel onega

``--before SRC`` runs a third command in the same rounds: an earlier puzzlebox whose source
tree (with its C extensions built in place) is SRC, as ``python -m puzzlebox`` with
``PYTHONPATH=SRC`` (``git archive COMMIT src | tar -x``, then ``gcc -O3 -shared -fPIC`` each
``.c`` of ``engine/`` and ``disassembly/`` next to it).
"""

from __future__ import annotations

import argparse
import json
import os
import re
import resource
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

BENCH = Path(__file__).resolve().parent
ROOT = BENCH.parent
sys.path.insert(0, str(BENCH))

PUZZLECAD = ("aaron-siegel/puzzlecad", "2ba064c51e8b8c0018a34d96776b33625c938602")
BURR_DATA_GO = ("kgeusens/burr-data-go", "5220437c38775e7f82eefb9a44400faccd95136d")
EXAMPLES = ("BurrTools 0.7.1 examples", "shared/peers/burrtools/examples")
KNOT_COMMIT = "a290b2c94273cb05d84bfe0a095f1e36e48f0a3a"


@dataclass(frozen=True)
class Source:
    """One puzzle: a file of a public repository at a commit, and its problem (1 on)."""

    name: str
    repo: str
    commit: str
    path: str
    problem: int | None = None  # for files of several problems

    @property
    def file(self) -> str:
        return Path(self.path).name


def _cad(name: str, folder: str, problem: int | None = None) -> Source:
    author, piece = folder.split("/")
    prefix = {"alfons-eyckmans": "eyckmans", "christoph-lohe": "lohe",
              "yavuz-demirhan": "demirhan"}[author]
    return Source(name, *PUZZLECAD, f"src/main/scad/{folder}/{prefix}.{piece}.xmpuzzle", problem)


SOURCES = [
    _cad("ankes-cube", "alfons-eyckmans/ankes-cube"),
    _cad("aracna", "alfons-eyckmans/aracna"),
    _cad("arnes-cube", "alfons-eyckmans/arnes-cube"),
    _cad("gargamel", "alfons-eyckmans/gargamel"),
    _cad("moiras-cube", "alfons-eyckmans/moiras-cube"),
    _cad("rhinoceros", "alfons-eyckmans/rhinoceros"),
    _cad("save-the-gorilla", "alfons-eyckmans/save-the-gorilla"),
    _cad("key-trap", "christoph-lohe/key-trap"),
    _cad("misused-key-1", "christoph-lohe/misused-key", 1),
    _cad("misused-key-2", "christoph-lohe/misused-key", 2),
    _cad("misused-key-3", "christoph-lohe/misused-key", 3),
    _cad("burrloop", "yavuz-demirhan/burrloop"),
    # in puzzlecad's history only (added in a290b2c, removed in 1cc1b1a)
    Source("knot-in-frame-vii", PUZZLECAD[0], KNOT_COMMIT,
           "src/main/scad/christoph-lohe/corsage/Knot in Frame VII Ab unique 19ID68.xmpuzzle"),
    Source("knot-in-frame-vii-colored", PUZZLECAD[0], KNOT_COMMIT,
           "src/main/scad/christoph-lohe/corsage/"
           "Knot in Frame VII Ab unique 19ID68 colored.xmpuzzle"),
    Source("3d-onat", *BURR_DATA_GO, "test/3D Onat.xmpuzzle"),
    Source("misused-key", *BURR_DATA_GO, "test/Misused Key.xmpuzzle"),
    Source("chocolate-dip", *BURR_DATA_GO, "test/chocolate dip.xmpuzzle"),
    Source("closed-box", *BURR_DATA_GO, "test/closed box.xmpuzzle"),
    Source("magic-drawer", *BURR_DATA_GO, "test/magic drawer.xmpuzzle"),
    Source("onega", *BURR_DATA_GO, "test/onega.xmpuzzle"),
    Source("two-face-3", *BURR_DATA_GO, "test/two face 3.xmpuzzle"),
] + [Source(name, *EXAMPLES, f"{name}.xmpuzzle") for name in
     ["AlPackino", "CubeInCage", "DemoPieceGenerator", "DraculasDentalDesaster",
      "PelikanBurr", "SolidSixPieceBurrs"]] + [
    Source(f"DemoMirrorParadox-{k}", *EXAMPLES, "DemoMirrorParadox.xmpuzzle", k)
    for k in (1, 2)]


def locate(source: Source, files: Path, mirrors: Path, examples: Path) -> Path | None:
    """The file: in ``files`` by its base name, else extracted there from its mirror (or
    BurrTools' examples); None where neither has it."""
    if source.repo == EXAMPLES[0]:
        found = examples / source.path
        return found if found.is_file() else None
    kept = files / source.file
    if kept.is_file():
        return kept
    mirror = mirrors / source.repo.replace("/", "+") / "repo"
    if not mirror.is_dir():
        return None
    shown = subprocess.run(["git", "-C", str(mirror), "show", f"{source.commit}:{source.path}"],
                           capture_output=True)
    if shown.returncode != 0:
        return None
    files.mkdir(parents=True, exist_ok=True)
    kept.write_bytes(shown.stdout)
    return kept


@dataclass
class Measured:
    cpu: float | None
    out: str
    failure: str | None = None


def measure(argv: list[str], cpu_limit: float, wall_limit: float,
            env: dict[str, str] | None = None) -> Measured:
    """``argv`` in a fresh process held to ``cpu_limit`` CPU seconds: its CPU (user +
    system, from ``wait4``) and its standard output."""

    def limit() -> None:
        resource.setrlimit(resource.RLIMIT_CPU, (int(cpu_limit) + 1, int(cpu_limit) + 2))

    with tempfile.TemporaryFile("w+", errors="replace") as out:  # burrTxt's own bytes
        began = time.perf_counter()
        proc = subprocess.Popen(argv, stdout=out, stderr=subprocess.DEVNULL, text=True,
                                preexec_fn=limit, start_new_session=True, env=env)
        while True:
            pid, status, usage = os.wait4(proc.pid, os.WNOHANG)
            if pid:
                break
            if time.perf_counter() - began > wall_limit:
                proc.kill()
                os.wait4(proc.pid, 0)
                return Measured(None, "", f"over {wall_limit:.0f} s of wall time")
            time.sleep(0.005)
        proc.returncode = os.waitstatus_to_exitcode(status)
        out.seek(0)
        text = out.read()
    cpu = usage.ru_utime + usage.ru_stime
    if proc.returncode != 0:  # held to the CPU limit: SIGXCPU at the soft limit, then KILL
        over = cpu >= cpu_limit or proc.returncode in (-signal.SIGXCPU, -signal.SIGKILL)
        return Measured(cpu, text, f"over {cpu_limit:.0f} s of CPU" if over
                        else f"exit status {proc.returncode}")
    return Measured(cpu, text)


@dataclass(frozen=True)
class Answer:
    assemblies: int
    apart: int
    levels: Counter[str]

    @property
    def firsts(self) -> Counter[str]:
        found: Counter[str] = Counter()
        for level, n in self.levels.items():
            found[level.split(".")[0]] += n
        return found


def burrtools_answer(out: str) -> Answer | None:
    found = re.search(r"(\d+) assemblies and (\d+) solutions", out)
    if not found:
        return None
    return Answer(int(found.group(1)), int(found.group(2)),
                  Counter(re.findall(r"^level: (\S+)", out, re.M)))


def puzzlebox_answer(out: str) -> Answer | None:
    lines = [line for line in out.splitlines() if line.startswith("{")]
    if not lines:
        return None
    obj = json.loads(lines[-1])
    return Answer(obj["assemblies"], obj["come_apart"],
                  Counter({lv["level"]: lv["assemblies"] for lv in obj["levels"]}))


def burrtxt_binary(given: str | None) -> Path | None:
    if given:
        return Path(given)
    import burrtools  # bench/burrtools.py: builds BurrTools from shared/peers/burrtools

    binary, how = burrtools.build()
    if binary is None:
        print(f"no burrTxt: {how}", file=sys.stderr)
    return binary


def imported(rows: list[Source], files: Path, mirrors: Path, examples: Path, tmp: Path,
             puzzlebox: str) -> list[tuple[Source, Path, Path]]:
    """Each source found (:func:`locate`) and imported with ``puzzlebox import`` into
    ``tmp``: the source, its BurrTools file and its TOML; one not found is said and left
    out."""
    ready: list[tuple[Source, Path, Path]] = []
    for source in rows:
        path = locate(source, files, mirrors, examples)
        if path is None:
            print(f"{source.name}: not found ({source.repo} {source.path})", file=sys.stderr)
            continue
        toml = tmp / f"{source.name}.toml"
        problem = ["--problem", str(source.problem)] if source.problem else []
        subprocess.run([puzzlebox, "import", str(path), *problem, "-o", str(toml)],
                       check=True, capture_output=True)
        ready.append((source, path, toml))
    return ready


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--files", default=str(BENCH / ".public"),
                        help="where the public files are kept (default bench/.public)")
    parser.add_argument("--mirrors", default="/work/.mirror",
                        help="bare git mirrors OWNER+NAME/repo to extract missing files from")
    parser.add_argument("--examples", default=os.environ.get(
        "BURRTOOLS_EXAMPLES", str(ROOT.parent / "shared" / "peers" / "burrtools" / "examples")))
    parser.add_argument("--burrtxt", default=None, help="a built burrTxt (default: build it)")
    parser.add_argument("--repeat", type=int, default=1, help="rounds (the least CPU is kept)")
    parser.add_argument("--cpu-limit", type=float, default=600.0, help="CPU s per process")
    parser.add_argument("--only", nargs="+", metavar="NAME", help="these rows only")
    parser.add_argument("--list", action="store_true", help="list the files and stop")
    parser.add_argument("--before", default=None, metavar="SRC",
                        help="also an earlier puzzlebox's source tree (extensions built)")
    args = parser.parse_args()
    rows = [s for s in SOURCES if not args.only or s.name in args.only]
    if args.list:
        for s in rows:
            where = s.repo if s.repo == EXAMPLES[0] else f"{s.repo}@{s.commit[:12]}"
            print(f"{s.name}: {where}:{s.path}" + (f" problem {s.problem}" if s.problem else ""))
        return 0
    binary = burrtxt_binary(args.burrtxt)
    if binary is None:
        return 0
    puzzlebox = shutil.which("puzzlebox", path=str(Path(sys.executable).parent)) or "puzzlebox"
    files, mirrors, examples = Path(args.files), Path(args.mirrors), Path(args.examples)
    print(f"load at start: {os.getloadavg()[0]:.2f} {os.getloadavg()[1]:.2f} "
          f"{os.getloadavg()[2]:.2f}", flush=True)
    results: dict[str, tuple[list[Measured], list[Measured]]] = {}
    before: dict[str, list[Measured]] = {}
    old_env = None if args.before is None else {**os.environ, "PYTHONPATH": args.before}
    with tempfile.TemporaryDirectory() as tmp:
        ready = imported(rows, files, mirrors, examples, Path(tmp), puzzlebox)
        for _ in range(args.repeat):
            for source, path, toml in ready:
                problem = ["-o", str(source.problem - 1)] if source.problem else []
                bt = measure([str(binary), "-d", str(path), *problem], args.cpu_limit,
                             4 * args.cpu_limit)
                pb = measure([puzzlebox, "count", str(toml), "--disassemble", "--json",
                              "--quiet"], args.cpu_limit, 4 * args.cpu_limit)
                both = results.setdefault(source.name, ([], []))
                both[0].append(bt)
                both[1].append(pb)
                if old_env is not None:
                    before.setdefault(source.name, []).append(measure(
                        [sys.executable, "-m", "puzzlebox", "count", str(toml), "--disassemble",
                         "--json", "--quiet"], args.cpu_limit, 4 * args.cpu_limit, old_env))
                print(f"{source.name}: burrTxt {bt.cpu or 0:.2f} s, puzzlebox "
                      f"{pb.cpu or 0:.2f} s {bt.failure or ''} {pb.failure or ''}",
                      file=sys.stderr, flush=True)
    print(f"load at end: {os.getloadavg()[0]:.2f} {os.getloadavg()[1]:.2f} "
          f"{os.getloadavg()[2]:.2f}")
    print()
    extra = " before CPU s |" if old_env is not None else ""
    print("| file | assemblies | come apart | first levels | whole levels | burrTxt -d CPU s "
          f"| puzzlebox CPU s | puzzlebox / burrTxt |{extra}")
    print("|---|---:|---:|---|---|---:|---:|---:|" + ("---:|" if extra else ""))
    wrong = 0
    differ: list[str] = []
    for source, _, _ in ready:
        bts, pbs = results[source.name]
        bt = min(bts, key=lambda m: m.cpu if m.failure is None and m.cpu else float("inf"))
        pb = min(pbs, key=lambda m: m.cpu if m.failure is None and m.cpu else float("inf"))
        bta = burrtools_answer(bt.out) if bt.failure is None else None
        pba = puzzlebox_answer(pb.out) if pb.failure is None else None
        if bta and pba:
            same = (bta.assemblies, bta.apart) == (pba.assemblies, pba.apart)
            firsts = "equal" if bta.firsts == pba.firsts else "DIFFER"
            whole = "equal" if bta.levels == pba.levels else \
                f"{sum((bta.levels - pba.levels).values())} differ"
            if bta.levels != pba.levels:
                differ.append(f"{source.name}: burrTxt -d {_levels(bta.levels - pba.levels)}, "
                              f"puzzlebox {_levels(pba.levels - bta.levels)}")
            wrong += (not same) + (firsts != "equal")
            counts = f"{pba.assemblies} | {pba.apart}" if same else \
                f"{bta.assemblies} vs {pba.assemblies} | {bta.apart} vs {pba.apart}"
        else:
            counts, firsts, whole = "? | ?", "?", "?"
        bt_s = f"{bt.cpu:.2f}" if bt.failure is None and bt.cpu is not None else \
            str(bt.failure)
        pb_s = f"{pb.cpu:.2f}" if pb.failure is None and pb.cpu is not None else \
            str(pb.failure)
        ratio = f"{pb.cpu / bt.cpu:.2f}" if bt.failure is None and pb.failure is None and \
            bt.cpu and pb.cpu is not None else "?"
        if bt.failure is not None and bt.failure.startswith("over") and pb.failure is None \
                and pb.cpu is not None and pba is not None:  # burrTxt ran out of its limit
            ratio = f"< {pb.cpu / args.cpu_limit:.2f}"
            counts = f"{pba.assemblies} | {pba.apart}"
        row = f"| {source.name} | {counts} | {firsts} | {whole} | {bt_s} | {pb_s} | {ratio} |"
        if old_env is not None:
            old = min(before[source.name],
                      key=lambda m: m.cpu if m.failure is None and m.cpu else float("inf"))
            olda = puzzlebox_answer(old.out) if old.failure is None else None
            if olda is not None and pba is not None and (olda.assemblies, olda.apart) != (
                    pba.assemblies, pba.apart):
                wrong += 1
            row += f" {old.cpu:.2f} |" if old.failure is None and old.cpu is not None else \
                f" {old.failure} |"
        print(row)
    if differ:
        print()
        print("levels that differ (those of one side that the other lacks):")
        for line in differ:
            print(f"- {line}")
    return 1 if wrong else 0


def _levels(levels: Counter[str]) -> str:
    return ", ".join(level if n == 1 else f"{level} (x{n})" for level, n in sorted(levels.items()))


if __name__ == "__main__":
    sys.exit(main())
