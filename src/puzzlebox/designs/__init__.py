"""Design search: which puzzle, of a space of candidates, is worth making (issue #34).

A design file is a puzzle file with a ``[design]`` table (docs/puzzle-format.md, "Design
spaces"): the pieces a design takes from a pool, the holes or optional cells it cuts, the
board it uses, and what a design must have to be kept (one solution, coming apart, a level,
every label solvable) and how the kept ones are ranked. ``space.py`` reads and enumerates
the space, ``evaluate.py`` tries one design (cheapest test first), ``run.py`` tries them
all (here, on processes or on a Dask cluster, with a checkpoint), ``checkpoint.py`` keeps
what a run found.

    >>> import puzzlebox
    >>> for kept in puzzlebox.design("calendar-sets"):   # doctest: +SKIP
    ...     print(kept.design.pieces, kept.hardest_solutions)
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path

from puzzlebox.catalog import design_names, design_path_of
from puzzlebox.catalog.files import UnknownPuzzle
from puzzlebox.designs.evaluate import DEFAULTS, DesignResult
from puzzlebox.designs.run import DesignProgress, DesignRun, DesignSummary, TooManyDesigns
from puzzlebox.designs.space import Design, DesignSpace, describe
from puzzlebox.formats import PuzzleFileError
from puzzlebox.formats.reader import file_text
from puzzlebox.run.limits import Limits

__all__ = ["Design", "DesignProgress", "DesignResult", "DesignRun", "DesignSpace",
           "DesignSummary", "TooManyDesigns", "describe", "design", "load_space"]


def load_space(name_or_path: str | Path) -> DesignSpace:
    """A design file, or a design of the catalog (``puzzlebox design --list`` names them)."""
    text = str(name_or_path)
    path = Path(text)
    if path.suffix == ".toml" or path.exists() or "/" in text:
        if not path.exists():
            raise PuzzleFileError(text, None, "no such file")
        return DesignSpace(file_text(path), str(path), path.stem)
    if design_path_of(text).exists():
        return DesignSpace(file_text(design_path_of(text)), str(design_path_of(text)), text)
    known = ", ".join(design_names())
    raise UnknownPuzzle(text, None, f"no such file or catalog design (the catalog's designs: "
                        f"{known})")


def design(space: str | Path | DesignSpace, limits: Limits | None = DEFAULTS, *,
           jobs: int = 1, cluster: str | None = None, checkpoint: str | None = None,
           on_progress: Callable[[DesignProgress], None] | None = None
           ) -> Iterator[DesignResult]:
    """Yield each kept design of ``space`` (a design file, a catalog design or a
    :class:`DesignSpace`) as it is found, through one :class:`DesignRun` (its limits,
    processes, cluster and checkpoint as for counts). For every result, kept or not, the
    ranking and the totals, make the :class:`DesignRun` yourself."""
    if not isinstance(space, DesignSpace):
        space = load_space(space)
    run = DesignRun(space, limits, jobs=jobs, cluster=cluster, checkpoint=checkpoint,
                    on_progress=on_progress)
    for result in run.results():
        if result.kept:
            yield result
