"""The generic problem every puzzle compiles to: exact cover with multiplicities and colours.

No puzzle words here: items, options, bounds and colours only.
"""

from puzzlebox.cover.problem import CoverBuilder, CoverProblem, ProblemError

__all__ = ["CoverBuilder", "CoverProblem", "ProblemError"]
