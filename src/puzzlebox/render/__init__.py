"""Showing puzzles and solutions: text, JSON (and pictures). No search words here."""

from puzzlebox.render.json_out import count_json, solution_json
from puzzlebox.render.text import describe, side_by_side, solution_lines

__all__ = ["count_json", "describe", "side_by_side", "solution_json", "solution_lines"]
