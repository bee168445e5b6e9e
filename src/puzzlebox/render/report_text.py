"""The reports of puzzlebox.reports as lines of text, one pure function each."""

from __future__ import annotations

from typing import TYPE_CHECKING

from puzzlebox.render.text import offset_note
from puzzlebox.words import duration_text, noun_for, plural

if TYPE_CHECKING:
    from puzzlebox.reports import (
        CountReport,
        EstimateReport,
        LabelSweepReport,
        OrderReport,
        SweepReport,
    )


def count_text(report: CountReport) -> list[str]:
    """``label: N solutions, D distinct up to symmetry (time, nodes)``, then why, when known
    (else the impossibility proof, when there is one)."""
    result = report.result
    if report.interrupted:
        return [f"{report.label}: {plural(result.solutions, 'solution')}, {result.distinct} "
                f"distinct up to symmetry so far (partial: {report.done} of {report.total} "
                f"{noun_for(report.total or 0, 'subproblem')})"]
    total = report.total or 0
    parts = f", {plural(total, 'subproblem')}" if report.split else ""
    workers = getattr(result, "workers", 0)  # a split count's processes (#38 item 6)
    if report.split and workers:
        parts += f" on {plural(workers, 'process')}"
    lines = [f"{report.label}: {plural(result.solutions, 'solution')}, {result.distinct} "
             f"distinct up to symmetry ({result.seconds:.3f} s, "
             f"{plural(result.stats.nodes, 'node')}{parts})"]
    if result.reason and report.why is None:
        lines.append(f"  impossible: {result.reason}")
    if report.why is not None:
        lines.append(f"  why: {report.why.sentence}")
    return lines


def estimate_text(report: EstimateReport) -> list[str]:
    """The tree's estimated size and the time to search it, with their spreads."""

    est = report.estimate
    if report.reason is not None or est is None:
        return [f"{report.label}: no search needed: {report.reason}"]
    spread = f"{100 * est.nodes_error / est.nodes:.0f}%" if est.nodes else "0%"
    lines = [f"{report.label}: about {est.nodes:.3g} nodes (\u00b1{spread}), "
             f"{est.solutions_text()}; about {duration_text(report.seconds)} at "
             f"{report.nodes_per_second:.3g} nodes/s ({est.probes_text()})"]
    if report.searched_nodes is not None:
        lines.append(f"  (timing the engine searched the whole tree: {report.searched_nodes} "
                     "nodes)")
    if report.auto_engine != report.tree_engine:
        lines.append(f"  (this is the {report.tree_engine} engine's tree; a count under engine "
                     f"auto uses the {report.auto_engine} engine here)")
    return lines


LONG_REASON = 60  # characters of "proof: reason" past which a reason shared is told once


def _shared_reasons(pairs: list[tuple[str | None, str | None]]) -> dict[tuple[str, str], int]:
    """The long reasons (proof, text) that several lines of a sweep share, numbered in the
    order they first occur (#38 item 9: a sweep of 366 dates printed one proof 366 times)."""
    seen: dict[tuple[str, str], int] = {}
    for proof, reason in pairs:
        if reason and len(f"{proof}: {reason}") > LONG_REASON:
            seen[(proof or "", reason)] = seen.get((proof or "", reason), 0) + 1
    shared = [key for key, times in seen.items() if times > 1]
    return {key: number for number, key in enumerate(shared, start=1)}


def _reason_notes(shared: dict[tuple[str, str], int],
                  pairs: list[tuple[str | None, str | None]], what: str) -> list[str]:
    """One line for each shared reason, told once: ``[1] for 366 dates, area: ...``."""
    times = {key: sum(1 for p, r in pairs if (p or "", r) == key) for key in shared}
    return [f"  [{number}] for {plural(times[key], what)}, {key[0]}: {key[1]}"
            for key, number in shared.items()]


def _reason(shared: dict[tuple[str, str], int], proof: str | None, reason: str | None) -> str:
    """What a line says of its reason: `` (proof: reason)``, or `` (proof: see [1])`` for
    one told once above; nothing without one."""
    if not reason:
        return ""
    number = shared.get((proof or "", reason))
    return f" ({proof}: see [{number}])" if number else f" ({proof}: {reason})"


def sweep_text(report: SweepReport) -> list[str]:
    """A summary line, one line per choice and, for single cells, a map of the answers."""
    how = "each solved" if report.searched == report.choices else (
        f"{report.searched} solved, the others are symmetric to one of them")
    cells = noun_for(report.uncover, "cell")
    lines = [f"{report.label}: {plural(report.choices, 'choice')} of {report.uncover} uncovered "
             f"{cells}, "
             f"{report.solvable} solvable ({how})"]
    pairs = [(r.proof, r.reason) for r in report.results]
    shared = _shared_reasons(pairs)
    lines += _reason_notes(shared, pairs, "choice")
    for r in report.results:
        where = " ".join(f"({','.join(map(str, cell))})" for cell in r.uncovered) or "(none)"
        if report.counted:
            answer = f"{plural(r.solutions or 0, 'solution')}, {r.distinct} distinct"
        else:
            answer = "solvable" if r.solvable else "no solution"
        answer += _reason(shared, r.proof, r.reason)
        lines.append(f"  {where:16} {answer}")
    if report.uncover == 1:
        lines.append("")
        lines += report.grid
        lines.append("each cell: the number of solutions with that cell uncovered; . no cell"
                     if report.counted else
                     "o: solvable with that cell uncovered; -: not solvable; . no cell")
        note = offset_note(report.swept.lattice)
        if note is not None:
            lines.append(note)
    return lines


def label_sweep_text(report: LabelSweepReport) -> list[str]:
    """A summary line, then one line per combination of labels with its count."""
    how = "each counted" if report.searched == len(report.results) else (
        f"{report.searched} counted, the others are symmetric to one of them")
    lines = [f"{report.label}: {plural(len(report.results), 'combination')} of "
             f"{', '.join(report.groups)}, {report.solvable} solvable, "
             f"{plural(report.solutions, 'solution')} in all ({how})"]
    width = max((len(" ".join(one.labels.values())) for one in report.results), default=0)
    pairs = [(one.result.proof, one.result.reason) for one in report.results]
    shared = _shared_reasons(pairs)
    lines += _reason_notes(shared, pairs, "combination")
    for one in report.results:
        r = one.result
        answer = f"{plural(r.solutions or 0, 'solution')}, {r.distinct} distinct"
        answer += _reason(shared, r.proof, r.reason)
        lines.append(f"  {' '.join(one.labels.values()):{width}}  {answer}")
    return lines


def order_text(report: OrderReport) -> list[str]:
    """The shape, the answer, each rectangle tried (when asked) and one tiling, outlined."""
    result = report.result
    lines = [*result.shape.to_text().splitlines(), result.summary()]
    if report.tried:
        for a in result.attempts:
            verdict = "tiled" if a.tiled else "no"
            lines.append(f"  {a.size} ({plural(a.copies, 'copy')}): {verdict} ({a.how}: "
                         f"{a.detail})")
    if result.puzzle is not None and result.solution is not None:
        lines += result.puzzle.text_lines(result.solution, "outline")
    return lines


def no_solution_text(label: str, reason: str | None, local_search: bool = False,
                     seconds: float = 0.0) -> str:
    """The one line that says a search found no solution: with the proof when there is one;
    for a local search (the sink search), that finding none proves nothing."""
    if local_search and reason is None:
        return (f"{label}: no tiling found by the sink search in {seconds:.0f} s (a local "
                "search: this proves nothing; try another --seed)")
    return f"{label}: no solution" + (f": {reason}" if reason else "")
