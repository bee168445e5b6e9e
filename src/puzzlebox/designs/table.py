"""The ranked table of kept designs and the summary sentence, as data: the cells every door
shows (the command line prints them aligned, the page as an HTML table), so that a design's
measures read the same through each.

Columns: ``rank``, ``design`` (its number in the space's order), then each measure some
kept design has (``level``, ``moves``, ``assemblies``, ``apart``: those that come apart,
``solutions`` up to symmetry where no assembly was taken apart, ``hardest``: the label
combination with the fewest solutions, ``there``: its solutions), then ``what`` (the pieces,
holes, optional cells or board, in words).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from puzzlebox.designs.evaluate import DesignResult
from puzzlebox.designs.run import DesignSummary
from puzzlebox.designs.space import RANKS

MEASURES: tuple[tuple[str, Callable[[DesignResult], object]], ...] = (
    ("level", lambda r: r.level),
    ("moves", lambda r: r.moves),
    ("assemblies", lambda r: r.assemblies),
    ("apart", lambda r: r.come_apart),
    ("solutions", lambda r: r.solutions if r.assemblies is None else None),
    ("hardest", lambda r: " ".join(r.hardest.values()) if r.hardest else None),
    ("there", lambda r: r.hardest_solutions),
)


def table(ranked: Sequence[DesignResult], what: Callable[[DesignResult], str]
          ) -> tuple[list[str], list[list[str]]]:
    """The header and the rows (each cell text, "" where a design lacks the measure) of the
    ranked kept designs; ``what`` says a design in words (designs.describe)."""
    shown = [(name, get) for name, get in MEASURES if any(get(r) is not None for r in ranked)]
    header = ["rank", "design"] + [name for name, _ in shown] + ["what"]
    rows = [[str(k), str(r.design.index)] + ["" if get(r) is None else str(get(r))
                                             for _, get in shown] + [what(r)]
            for k, r in enumerate(ranked, 1)]
    return header, rows


def ranking(rank: Sequence[str]) -> str:
    """How the kept designs are ranked, in words."""
    return "; then ".join(RANKS[name] for name in rank) if rank else "in the space's order"


def summary_line(name: str, summary: DesignSummary) -> str:
    """What a design search did, in one sentence (the command line's last line but the
    table, the page's when its search ends)."""
    same = f", {summary.symmetric:,} the same as another up to symmetry" if summary.symmetric \
        else ""
    resumed = f", {summary.resumed:,} from the checkpoint" if summary.resumed else ""
    undecided = f", {summary.undecided:,} undecided" if summary.undecided else ""
    workers = f"{summary.workers} worker{'s' if summary.workers != 1 else ''}"
    return (f"{name}: {summary.designs:,} designs{same}; {summary.tried:,} tried{resumed}, "
            f"{summary.kept:,} kept{undecided} ({workers}, {summary.seconds:.1f} s)")
