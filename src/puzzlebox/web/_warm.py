"""Imported by the check processes' server (web/fairness.py) and by nothing else: draws one
small puzzle once, so that matplotlib's fonts, text layout and SVG writer are loaded in the
server and every check forked from it starts with them (a check of a 2 x 2 board took 0.7 s
in a fresh process, 0.07 s in a warm one)."""

from __future__ import annotations

from puzzlebox.formats.reader import read_text
from puzzlebox.render.drawing import pictures

pictures().puzzle_svg(read_text('[board]\ngrid = "##/##"\n[pieces]\nA = "##"\nB = "#/#"\n',
                                "warm.toml", "warm").puzzles[0])
