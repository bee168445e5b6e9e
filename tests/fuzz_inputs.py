"""A seeded generator of hostile puzzle files for tests/test_fuzz.py (#18).

Each input is a base (a catalog file, a malformed example, or a well-formed file of the
wrong shape) put through one to three mutations: byte flips, deleted and duplicated lines,
values of the wrong type, huge and negative numbers, deep nesting, NUL bytes, invalid
UTF-8, giant grids, unknown kinds, control characters in names, truncation. The same seed
gives the same inputs, so a failure names its seed and index and can be replayed.
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable, Iterator

from puzzlebox import catalog

SMALL = ["queens-5", "queens-8", "blocks-3x3", "cards-3x3", "fibonacci-1x12", "tiling-3x12",
         "dominoes-8x8", "pentomino-6x10"]
WRONG_SHAPES = [
    b'kind = "queens"\nn = 6\n',
    b'kind = "edge-matching"\n[board]\nrows = 2\ncols = 2\n[cards]\n'
    b'1 = "a b c d"\n2 = "c d a b"\n3 = ["a", "b", "c", "d"]\n4 = "d a b c"\n',
    b'[[boards]]\nname = "one"\ngrid = "##/##"\n[[boards]]\nname = "two"\ngrid = "###"\n'
    b'[pieces]\nd = { shape = "##", count = "any" }\nm = { shape = "#", count = [0, 2] }\n',
    b'title = "t"\nnotes = """\nmany\nlines\n"""\n[board]\ngrid = """\n###\n#.#\n###\n"""\n'
    b'[pieces]\nL = "##/#."\n[rules]\nrotate = false\nreflect = true\nmatch_colors = true\n',
    b'[board]\ngrid = 3\n[pieces]\nA = ["#"]\n',
    b"[[board]]\ngrid = 1\n[[pieces]]\nA = 1\n",
    b"pieces = 1\nboard = []\n",
    b"",
    b"\n\n# only a comment\n",
]
WRONG_VALUES = ["[]", "{}", "{a = 1}", "true", '"x"', "1.5", "-1", "0", "[[1]]", '"any"',
                "[1, 2, 3]", "[3, 1]", "nan", "inf", "1979-05-27", '""', "'''\n'''"]
NUMBERS = [str(10**30), str(2**63 - 1), str(2**63), str(10**9), "-1", "-9999999999",
           "9" * 4400, "0", "200", "201", "10000", "10001", "1_000_000", "0x7fffffff"]
NAMES = [r'"$\\sqrt{$"', '"A\\nTraceback (most recent call last):"', '"\\u001b]0;title\\u0007"',
         '"x/../../../../escaped"', '".."', '"\\u202e"', '"' + "n" * 300 + '"', '""']


def bases() -> list[bytes]:
    """Every catalog file, then the wrong shapes."""
    files = [catalog.path_of(name).read_bytes() for name in catalog.names()]
    return files + WRONG_SHAPES


def _lines(raw: bytes) -> list[bytes]:
    return raw.split(b"\n")


def flip_bytes(rng: random.Random, raw: bytes) -> bytes:
    if not raw:
        return bytes([rng.randrange(256)])
    data = bytearray(raw)
    for _ in range(rng.randint(1, 4)):
        i = rng.randrange(len(data))
        data[i] = rng.choice([data[i] ^ (1 << rng.randrange(8)), rng.randrange(256),
                              ord(rng.choice("[]{}\"'=#.\n\\"))])
    return bytes(data)


def delete_line(rng: random.Random, raw: bytes) -> bytes:
    lines = _lines(raw)
    if len(lines) > 1:
        del lines[rng.randrange(len(lines))]
    return b"\n".join(lines)


def duplicate_line(rng: random.Random, raw: bytes) -> bytes:
    lines = _lines(raw)
    i = rng.randrange(len(lines))
    lines[i:i] = [lines[i]] * rng.randint(1, 3)
    return b"\n".join(lines)


def _replace_value(rng: random.Random, raw: bytes, choices: list[str]) -> bytes:
    text = raw.decode("utf-8", "replace")
    spots = list(re.finditer(r"(?m)^([^\n=#\[]+=\s*)([^\n]*)$", text))
    if not spots:
        return raw + f"\nx = {rng.choice(choices)}\n".encode()
    spot = rng.choice(spots)
    return (text[: spot.start(2)] + rng.choice(choices) + text[spot.end(2):]).encode()


def wrong_type(rng: random.Random, raw: bytes) -> bytes:
    return _replace_value(rng, raw, WRONG_VALUES)


def huge_number(rng: random.Random, raw: bytes) -> bytes:
    text = raw.decode("utf-8", "replace")
    numbers = list(re.finditer(r"(?<![\w.])\d+(?![\w.])", text))
    if not numbers or rng.random() < 0.3:
        return _replace_value(rng, raw, NUMBERS)
    spot = rng.choice(numbers)
    return (text[: spot.start()] + rng.choice(NUMBERS) + text[spot.end():]).encode()


def deep_nesting(rng: random.Random, raw: bytes) -> bytes:
    depth = rng.choice([5, 17, 100, 500, 3000])
    arrays = "[" * depth + "]" * depth
    tables = "{a=" * depth + "1" + "}" * depth
    value = rng.choice([arrays, tables])
    key = rng.choice(["x", "kind", "title", "n", "a" + ".a" * rng.choice([3, 40, 5000])])
    return f"{key} = {value}\n".encode() + raw


def nul_bytes(rng: random.Random, raw: bytes) -> bytes:
    i = rng.randrange(len(raw) + 1)
    return raw[:i] + b"\x00" * rng.randint(1, 3) + raw[i:]


def invalid_utf8(rng: random.Random, raw: bytes) -> bytes:
    i = rng.randrange(len(raw) + 1)
    return raw[:i] + rng.choice([b"\xff", b"\xc3", b"\xed\xa0\x80", b"\xf4\x90\x80\x80"]) + raw[i:]


def giant_grid(rng: random.Random, raw: bytes) -> bytes:
    rows, cols = rng.choice([(100, 100), (101, 100), (300, 300), (1, 10_001), (60, 60)])
    row = "".join(rng.choice("##.X") for _ in range(cols))
    grid = "/".join([row] * rows)
    pieces = rng.choice(['d = { shape = "##", count = "any" }', 'A = "#"',
                         'P = ".##/##./.#."\nI = "#####"'])
    if rng.random() < 0.5 and b"grid" in raw:
        return re.sub(rb'grid = ("""[^"]*"""|"[^"\n]*")', f'grid = "{grid}"'.encode(), raw,
                      count=1)
    return f'[board]\ngrid = "{grid}"\n[pieces]\n{pieces}\n'.encode()


def unknown_kind(rng: random.Random, raw: bytes) -> bytes:
    kind = rng.choice(['"sudoku"', '"QUEENS"', '""', '"queens "', "1", '"edge_matching"'])
    text = raw.decode("utf-8", "replace")
    if "kind" in text:
        return re.sub(r'kind\s*=\s*"[^"\n]*"', f"kind = {kind}", text, count=1).encode()
    return f"kind = {kind}\n".encode() + raw


def hostile_names(rng: random.Random, raw: bytes) -> bytes:
    name = rng.choice(NAMES)
    text = raw.decode("utf-8", "replace")
    for section in ("[pieces]", "[cards]"):
        if section in text:
            shape = '"#"' if section == "[pieces]" else '"a b c d"'
            return text.replace(section, f"{section}\n{name} = {shape}", 1).encode()
    return f"title = {name}\n".encode() + raw


def truncate(rng: random.Random, raw: bytes) -> bytes:
    return raw[: rng.randrange(len(raw) + 1)]


MUTATIONS: list[Callable[[random.Random, bytes], bytes]] = [
    flip_bytes, delete_line, duplicate_line, wrong_type, huge_number, deep_nesting, nul_bytes,
    invalid_utf8, giant_grid, unknown_kind, hostile_names, truncate,
]


def inputs(seed: int, count: int, small_only: bool = False) -> Iterator[tuple[str, bytes]]:
    """``count`` inputs ``(description, bytes)``, the same ones for the same seed.

    ``small_only``: mutations of small puzzles only, and no giant grids, for commands that
    search (a count of domino tilings of a random 6,000-cell board is a hard problem, not a
    hostile file)."""
    rng = random.Random(seed)
    files = (
        [catalog.path_of(name).read_bytes() for name in SMALL] + WRONG_SHAPES
        if small_only else bases()
    )
    mutations = [m for m in MUTATIONS if not (small_only and m is giant_grid)]
    for index in range(count):
        raw = rng.choice(files)
        applied = []
        for _ in range(rng.choice([1, 1, 2, 3])):
            mutation = rng.choice(mutations)
            raw = mutation(rng, raw)
            applied.append(mutation.__name__)
        yield f"seed {seed} input {index} ({', '.join(applied)})", raw
