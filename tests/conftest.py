"""Test settings shared by every test module.

Property tests draw the same examples on every run (``derandomize``): a random draw that
happens to build a large puzzle made one CI run of the brute-force comparisons take minutes
while others took seconds. The examples still cover what the strategies describe; changing
a strategy changes them.
"""

from hypothesis import settings

settings.register_profile("puzzlebox", derandomize=True, deadline=None)
settings.load_profile("puzzlebox")
