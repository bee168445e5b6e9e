"""The edge-matching kind's part of a puzzle file: the board, the cards, the rules."""

from __future__ import annotations

from typing import Any

from puzzlebox import limits
from puzzlebox.puzzles.edge_matching import model
from puzzlebox.puzzles.reading import COMMON_KEYS, FileReader, shown


def read_edge_matching(
    r: FileReader, doc: dict[str, Any], name: str, title: str, notes: str
) -> list[model.EdgeMatchingPuzzle]:
    """``[board]`` rows, cols and border, ``[cards]`` and ``[rules]``."""
    r.check_keys(doc, COMMON_KEYS | {"board", "cards", "rules"}, ())
    board = r.table(doc, "board", ())
    r.check_keys(board, {"rows", "cols", "border"}, ("board",))
    rows = r.integer(board, "rows", ("board",), 1, limits.MAX_CARDS)
    cols = r.integer(board, "cols", ("board",), 1, limits.MAX_CARDS)
    if rows * cols > limits.MAX_CARDS:
        raise r.fail(("board", "cols"), f"a board of {rows} x {cols} = {rows * cols} cards; "
                     f"the limit is {limits.MAX_CARDS}")
    border = board.get("border")
    if border is not None and (
        isinstance(border, bool) or not isinstance(border, str | int)
    ):
        raise r.fail(("board", "border"), f"must be a label (a string), not {shown(border)}")
    border = None if border is None else str(border)
    if border is not None and len(border) > limits.MAX_NAME:
        raise r.fail(("board", "border"), f"a label of {len(border)} characters; the limit "
                     f"is {limits.MAX_NAME}")

    cards_table = r.table(doc, "cards", ())
    if not cards_table:
        raise r.fail(("cards",), "no cards are given")
    r.names(cards_table, "cards", limits.MAX_CARDS, ("cards",))
    cards: dict[str, tuple[str, str, str, str]] = {}
    for card, labels in cards_table.items():
        if isinstance(labels, str):
            parts = labels.split()
        elif isinstance(labels, list) and len(labels) == 4 and all(
            isinstance(x, str | int) and not isinstance(x, bool) for x in labels
        ):
            parts = [str(x) for x in labels]
        elif isinstance(labels, list) and len(labels) != 4:
            parts = ["?"] * len(labels)
        else:
            raise r.fail(("cards", card), "must be a string of 4 labels: top right bottom left")
        if any(len(part) > limits.MAX_NAME for part in parts):
            raise r.fail(("cards", card), f"a label longer than {limits.MAX_NAME} characters")
        if len(parts) != 4:
            raise r.fail(
                ("cards", card),
                f"has {len(parts)} labels; a card needs 4 (top right bottom left)",
            )
        cards[card] = (parts[0], parts[1], parts[2], parts[3])

    rules = doc.get("rules", {})
    if not isinstance(rules, dict):
        raise r.fail(("rules",), "must be a table")
    r.check_keys(rules, {"rotate", "complements"}, ("rules",))
    rotate = r.boolean(rules, "rotate", True, ("rules",))
    complements: dict[str, str] = {}
    comp_table = rules.get("complements", {})
    if not isinstance(comp_table, dict):
        raise r.fail(("rules", "complements"), "must be a table of label = \"complement\"")
    r.names(comp_table, "complements", 2 * limits.MAX_CARDS, ("rules", "complements"))
    for label, other in comp_table.items():
        if not isinstance(other, str):
            raise r.fail(("rules", "complements", label), f"must be a label, not {shown(other)}")
        for a, b in ((label, other), (other, label)):
            if complements.setdefault(a, b) != b:
                raise r.fail(
                    ("rules", "complements", label),
                    f"label {a!r} is given two complements ({complements[a]!r} and {b!r})",
                )
    puzzle = model.EdgeMatchingPuzzle(
        name,
        rows,
        cols,
        cards,
        rotate=rotate,
        complements=complements or None,
        border=border,
        title=title,
        notes=notes,
    )
    return [puzzle]
