"""puzzlebox: solve placement puzzles by exact cover and backtracking."""
