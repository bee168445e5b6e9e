"""Design search on six-piece burrs from Siegel's Starter Burr Set (issue #34, item 4).

The whole set (23 sticks, 108,262 designs) takes minutes (bench/burr_booklet_design.py,
docs/design-search.md), so these tests search parts of it, in seconds:

* a pool that is not its own mirror image (a stick whose mirror image is not in the pool)
  gives the pool puzzle no mirror, while a design of mirror-closed sticks has one: the
  designs found together must still equal the designs tried one by one (a design and its
  mirror set were counted twice, and a set that is its own mirror image counted its
  assemblies up to rotation only, before designs/together.py kept one per orbit);
* the booklet's burrs whose sticks lie in a pool are found with the booklet's level and
  solutions/assemblies (counted up to rotation with mirror images apart, as the booklet
  counts: bench/burr_booklet.py).
"""

from __future__ import annotations

import contextlib
import importlib.util
import io
import json
import sys
from collections import Counter
from pathlib import Path
from types import ModuleType

from puzzlebox.designs.run import DesignRun
from puzzlebox.designs.space import Design, DesignSpace

BENCH = Path(__file__).resolve().parent.parent / "bench"


def _bench(name: str) -> ModuleType:
    if name in sys.modules:
        return sys.modules[name]
    spec = importlib.util.spec_from_file_location(name, BENCH / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    sys.path.insert(0, str(BENCH))
    try:
        spec.loader.exec_module(module)
    finally:
        sys.path.remove(str(BENCH))
    return module


booklet = _bench("burr_booklet")


def space_of(pool: Counter[int], strategy: str) -> DesignSpace:
    text = booklet.toml(list(pool.elements()))
    names = ", ".join(f'"K{k}"' for k in sorted(pool))
    text = text.replace("[rules]", f"[design]\npool = [{names}]\ntake = 6\ncomes_apart = "
                        f'true\nrank = "level"\nstrategy = "{strategy}"\n\n[rules]')
    return DesignSpace(text, "starter-part.toml", "starter-part")


def kept(space: DesignSpace) -> dict[int, tuple[object, ...]]:
    return {r.design.index: (r.assemblies, r.come_apart, r.come_apart_mirrors,
                             (r.level or "").split(".")[0])
            for r in DesignRun(space).results() if r.kept}


def test_together_equals_each_where_the_pool_has_no_mirror() -> None:
    """Burr No. 305 (booklet #6) and its mirror set lie in this pool, with K943, whose
    mirror image does not: the pool puzzle has no mirror, yet 305 and its mirror set are one
    design with 1 assembly (it was 2 before together.py kept one solution per orbit)."""
    pool = Counter({52: 1, 359: 1, 615: 1, 792: 1, 824: 1, 911: 1, 943: 1, 960: 1, 975: 1,
                    992: 1})
    together, each = space_of(pool, "together"), space_of(pool, "each")
    found = kept(together)
    assert found == kept(each)
    pieces = tuple((f"K{k}", 1) for k in (52, 615, 792, 960, 975, 992))
    burr305 = together.canonical_form(together.index_of(Design(-1, 0, pieces)))
    assert found[burr305.index] == (1, 1, 2, "1")  # the booklet's 1/1 at level 1


def _assemblies_mirrors_apart(space: DesignSpace, design: Design, tmp: Path) -> int:
    from puzzlebox.cli import main

    path = tmp / f"design-{design.index}.toml"
    path.write_text(space.design_text(design))
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        assert main(["solve", str(path), "--all", "--json", "--quiet"]) == 0
    return len({booklet.canonical(booklet._assembly(json.loads(line)))
                for line in out.getvalue().splitlines() if line.strip()})


def test_the_booklets_burrs_in_a_part_of_the_set(tmp_path: Path) -> None:
    """Nine of the set's sticks (K1024 twice) hold the booklet's #1, #2, #7, #8 and #14:
    each is kept with its level, and its solutions and assemblies as the booklet counts
    them; the designs found together are those tried one by one."""
    pool = Counter({1: 1, 52: 1, 256: 1, 824: 1, 928: 1, 960: 1, 975: 1, 992: 1, 1024: 2})
    space = space_of(pool, "together")
    results = {r.design.index: r for r in DesignRun(space).results() if r.kept}
    assert len(results) == 62
    rows = {int(r.split()[0]): r.split() for r in booklet.BOOKLET.strip().splitlines()}
    for number in (1, 2, 7, 8, 14):
        row = rows[number]
        numbers = [int(v) for v in row[1:7]]
        level, (sol, asm) = int(row[7]), map(int, row[8].split("/"))
        pieces = tuple((f"K{k}", n) for k, n in sorted(Counter(numbers).items()))
        design = space.canonical_form(space.index_of(Design(-1, 0, pieces)))
        result = results[design.index]
        own_mirror = booklet.mirror_names(numbers) is not None
        assert result.level is not None and int(result.level.split(".")[0]) == level
        assert (result.come_apart_mirrors if own_mirror else result.come_apart) == sol
        assemblies = (_assemblies_mirrors_apart(space, design, tmp_path) if own_mirror
                      else result.assemblies)
        assert assemblies == asm, number
