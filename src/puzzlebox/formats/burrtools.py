"""Read BurrTools puzzle files (``.xmpuzzle``) and write them as puzzlebox TOML.

BurrTools (Andreas Röver and others, burrtools.sourceforge.net) stores a puzzle as XML,
usually gzip-compressed. What this module relies on, as BurrTools' own documentation of
the format ("The xmpuzzle format", lib-doc/xmpuzzleFormat.html) and its loader
(src/lib/puzzle.cpp, problem.cpp, voxel.cpp) describe it:

* ``<puzzle version="1|2">`` holds ``<gridType type="N"/>`` (0 cubes, 1 triangular prisms,
  2 spheres, 3 rhombic dodecahedra, 4 tetrahedra and octahedra; cubes when absent), a list
  of ``<colors>``, the ``<shapes>`` and the ``<problems>``.
* A shape is ``<voxel x= y= z= type="0" name=...>`` whose text has one character per
  voxel, x fastest, then y, then z (index ``x + sx * (y + sy * z)``): ``_`` empty, ``#``
  filled, ``+`` variable (may stay empty), each optionally followed by a decimal colour
  number (0 or none: neutral; n: the n-th ``<color>``).
* A problem lists ``<shape id= count=|min= max=>`` (a shape used a number of times, 1 when
  neither is given), ``<result id=>`` (the shape to build) and in ``<bitmap>`` the colour
  pairs ``<pair piece=i result=j>`` (0-based colour numbers) saying that a piece voxel of
  colour i may fill a result voxel of colour j; a neutral voxel goes anywhere.

What maps onto puzzlebox (docs/import-export.md has the table): cube puzzles whose result
and pieces are all one layer thick become square-lattice puzzles (a flat piece can be
turned over, so rotations and reflections are allowed), other cube puzzles become
``lattice = "cube"`` puzzles (pieces are solids: rotations only); triangular prisms become
``lattice = "triangle"`` when every shape is one layer thick, ``lattice = "prism"`` (layers of
triangles, rotations only) otherwise; tetrahedra and octahedra become ``lattice =
"tetra-octa"`` (BurrTools' own positions, rotations only). Anything else is refused in
one line naming what cannot be mapped: the other grids, colour rules that let a colour
fill another (neutral voxels are ``[rules] neutral``), ranges above puzzlebox's limits.

The file is hostile until read: its compressed and decompressed sizes are capped (a gzip
bomb stops at the cap), a document type declaration is refused (so no entity can expand),
the nesting depth and the voxel spaces are bounded, and everything not needed (recorded
solutions, disassemblies) is skipped without being kept.
"""

from __future__ import annotations

import gzip
import io
import json
import re
import zlib
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from xml.parsers import expat

from puzzlebox import limits
from puzzlebox.formats import burrtools_fcc
from puzzlebox.formats.burrtools_variable import part_groups, variable_cells
from puzzlebox.formats.errors import PuzzleFileError
from puzzlebox.formats.reader import read_text
from puzzlebox.geometry.lattice import lattice_named
from puzzlebox.safety import printable

MAX_COMPRESSED_BYTES = 16 << 20  # an .xmpuzzle as stored; BurrTools' examples: 160 KB at most
MAX_XML_BYTES = 64 << 20  # the XML after decompression (a gzip bomb stops here)
MAX_DEPTH = 64  # nested elements (recorded disassemblies nest one level per move)
MAX_VOXELS = 1_000_000  # positions of one voxel space (x * y * z), filled or not
MAX_SHAPES = 10_000  # shapes in one file
MAX_TOTAL_VOXELS = 4_000_000  # positions of all voxel spaces (BurrTools' examples: 90,000)
MAX_FILLED = 200_000  # filled voxels of all shapes together (BurrTools' examples: 3,000)
MAX_ELEMENTS = 250_000  # elements of the whole file (BurrTools' examples: 2,000 at most)
MAX_PROBLEMS = 1_000  # problems in one file (BurrTools' examples: 10 at most)
MAX_PARTS = 100_000  # <shape> entries of all problems together
MAX_COLOURS = 63  # BurrTools' own limit (puzzle.cpp: colour 0 is neutral, 1..63 defined)

_FILLED = re.compile(r"([#+])([0-9]*)")  # a filled or variable voxel and its colour
_NOT_VOXEL = re.compile(r"^[0-9]|[^_#+0-9]")  # a colour first, or a foreign character

GRID_NAMES = {
    0: "cubes",
    1: "triangular prisms",
    2: "spheres",
    3: "rhombic dodecahedra",
    4: "tetrahedra and octahedra",
}

# The characters that stand for BurrTools' colours 1..63 in a grid (0, neutral, is "#").
COLOUR_CHARS = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789@%*"


class BurrToolsError(PuzzleFileError):
    """A BurrTools file that cannot be read, or a puzzle in it that cannot be mapped."""


class ProblemNeeded(BurrToolsError):
    """A file of several problems, and none (or an unknown one) chosen: the command line
    adds how to choose."""


# -- the model of what was read ---------------------------------------------------------------

Voxel = tuple[int, int, int]  # (x, y, z) as BurrTools numbers them


@dataclass
class BtShape:
    """One voxel space: its filled voxels with their colour numbers, and its variable ones."""

    index: int
    name: str
    size: tuple[int, int, int]
    filled: dict[Voxel, int]
    variable: set[Voxel]
    line: int
    weight: str = "1"  # BurrTools' weight (which side of a split is taken away): not used



@dataclass
class BtPart:
    """A shape as a problem uses it: how many copies, at least and at most."""

    shape: int
    lo: int
    hi: int
    line: int
    group: int = 0  # pieces of one group may stay together when taken apart (0: none)


@dataclass
class BtProblem:
    name: str
    parts: list[BtPart] = field(default_factory=list)
    result: int | None = None
    pairs: set[tuple[int, int]] = field(default_factory=set)  # (piece colour, result colour)
    line: int = 0


@dataclass
class BtPuzzle:
    grid: int = 0
    colours: list[tuple[int, int, int]] = field(default_factory=list)
    shapes: list[BtShape] = field(default_factory=list)
    problems: list[BtProblem] = field(default_factory=list)
    comment: str = ""


# -- bytes to XML ----------------------------------------------------------------------------


def read_bytes(path: str | Path) -> bytes:
    """The file's XML bytes: gunzipped when it is gzip data, as is when it is XML."""
    return decompress(read_raw(path), str(path))


def read_raw(path: str | Path) -> bytes:
    """The file's bytes as stored (gzip or XML), at most :data:`MAX_COMPRESSED_BYTES`."""
    source = str(path)
    try:
        with open(path, "rb") as handle:
            raw = handle.read(MAX_COMPRESSED_BYTES + 1)
    except OSError as error:
        raise BurrToolsError(source, None, f"cannot read: {error.strerror or error}") from None
    if len(raw) > MAX_COMPRESSED_BYTES:
        raise BurrToolsError(source, None, f"the file is larger than {MAX_COMPRESSED_BYTES} "
                             "bytes, the limit for a BurrTools file")
    return raw


def decompress(raw: bytes, source: str) -> bytes:
    """Gunzip ``raw`` (reading at most :data:`MAX_XML_BYTES`), or return it when it is
    already XML; anything else is refused."""
    if raw[:2] == b"\x1f\x8b":
        try:
            with gzip.GzipFile(fileobj=io.BytesIO(raw)) as unzipped:
                xml = unzipped.read(MAX_XML_BYTES + 1)
        except (OSError, EOFError, zlib.error) as error:
            raise BurrToolsError(source, None, f"not a readable gzip file ({error})") from None
        if len(xml) > MAX_XML_BYTES:
            raise BurrToolsError(source, None, f"decompresses to more than {MAX_XML_BYTES} "
                                 "bytes, the limit for a BurrTools file")
        if not _looks_like_xml(xml):
            raise BurrToolsError(source, None, "the gzip data holds no XML: not a BurrTools "
                                 "file")
        return xml
    if _looks_like_xml(raw):
        if len(raw) > MAX_XML_BYTES:  # only when the compressed cap is raised above this
            raise BurrToolsError(source, None, f"more than {MAX_XML_BYTES} bytes of XML")
        return raw
    raise BurrToolsError(source, None, "neither gzip data nor XML: no XML: not a BurrTools "
                         "file")


def _looks_like_xml(data: bytes) -> bool:
    return data.removeprefix(b"\xef\xbb\xbf").lstrip()[:1] == b"<"


# -- XML to the model ------------------------------------------------------------------------


class _Parser:
    """Streams the XML through expat and keeps only what a puzzle needs.

    Elements are handled as they open and close; the text of a ``<voxel>`` and of the
    ``<comment>`` is gathered, every other text ignored, so a file of recorded solutions
    costs no memory. Errors carry expat's line number."""

    def __init__(self, source: str, encoding: str | None = None) -> None:
        self.source = source
        self.puzzle = BtPuzzle()
        self.stack: list[str] = []
        self.text: list[str] = []
        self.text_size = 0
        self.gathering = False
        self.voxel_attrs: dict[str, str] = {}
        self.voxel_line = 0
        self.problem: BtProblem | None = None
        self.grid_seen = False
        self.positions = 0  # of all voxel spaces so far
        self.filled = 0  # filled and variable voxels of all shapes so far
        self.elements = 0  # elements opened so far (#28: 6.7 million <problem/> in 64 MB)
        self.parts = 0  # <shape> entries of all problems so far
        self.parser = expat.ParserCreate(encoding)
        self.parser.StartElementHandler = self.start
        self.parser.EndElementHandler = self.end
        self.parser.CharacterDataHandler = self.data
        self.parser.StartDoctypeDeclHandler = self.doctype
        self.parser.EntityDeclHandler = self.entity
        self.parser.ExternalEntityRefHandler = self.external

    def fail(self, message: str, line: int | None = None) -> BurrToolsError:
        where = line if line is not None else self.parser.CurrentLineNumber
        return BurrToolsError(self.source, str(where) if where else None, message)

    def parse(self, xml: bytes) -> BtPuzzle:
        try:
            self.parser.Parse(xml, True)
        except expat.ExpatError as error:
            message = expat.ErrorString(error.code)
            raise BurrToolsError(self.source, f"{error.lineno}:{error.offset + 1}",
                                 f"not well-formed XML: {message}") from None
        except (LookupError, ValueError, UnicodeError) as error:
            # the declaration's encoding: unknown to Python (LookupError), multi-byte and so
            # unknown to expat (ValueError), or bytes it cannot decode (#28: "x-bogus")
            declared = _declared_encoding(xml)
            what = (f"the XML declaration's encoding {declared!r} cannot be read"
                    if declared else "the XML's encoding cannot be read")
            raise BurrToolsError(self.source, "1", f"{what} ({type(error).__name__}: "
                                 f"{str(error)[:80]}); BurrTools files are UTF-8 or "
                                 "ISO-8859-1") from None
        if not self.grid_seen and not self.puzzle.shapes and not self.puzzle.problems:
            raise self.fail("no BurrTools puzzle in the file (no shapes, no problems)", 0)
        return self.puzzle

    # expat refuses nothing by itself: a DOCTYPE could declare entities that expand
    def doctype(self, *args: object) -> None:
        raise self.fail("a document type declaration (<!DOCTYPE>) is not allowed in a "
                        "BurrTools file")

    def entity(self, *args: object) -> None:
        raise self.fail("an entity declaration is not allowed in a BurrTools file")

    def external(self, *args: object) -> int:
        raise self.fail("an external entity is not allowed in a BurrTools file")

    def number(self, attrs: dict[str, str], key: str, element: str, least: int = 0,
               most: int = 1 << 31) -> int:
        value = attrs.get(key, "").strip()
        if not value:
            raise self.fail(f"<{element}> needs a {key!r} attribute")
        if not (value.isascii() and value.isdigit()):  # "²".isdigit()
            raise self.fail(f"<{element}> {key}={value[:20]!r} is not a whole number")
        digits = value.lstrip("0") or "0"
        if len(digits) > len(str(most)) or int(digits) > most:  # a long one is never int()
            shown = digits if len(digits) <= 20 else f"{digits[:20]}... ({len(digits)} digits)"
            raise self.fail(f"<{element}> {key}={shown} is too large: the limit is {most}")
        number = int(digits)
        if number < least:
            raise self.fail(f"<{element}> {key}={number} is outside {least}..{most}")
        return number

    def start(self, name: str, attrs: dict[str, str]) -> None:
        path = "/".join(self.stack[-2:] + [name])
        self.stack.append(name)
        self.elements += 1
        if self.elements > MAX_ELEMENTS:
            raise self.fail(f"more than {MAX_ELEMENTS} elements, the limit for a BurrTools "
                            "file")
        if len(self.stack) > MAX_DEPTH:
            raise self.fail(f"elements nested more than {MAX_DEPTH} deep")
        depth = len(self.stack)
        if depth == 1:
            if name != "puzzle":
                raise self.fail(f"the root element is <{name}>, not <puzzle>: not a "
                                "BurrTools file")
            version = attrs.get("version", "")
            if version not in ("1", "2"):
                raise self.fail(f"puzzle version {version[:20]!r}: BurrTools files are "
                                "version 1 or 2")
        elif depth == 2 and name == "gridType":
            if self.grid_seen or self.puzzle.shapes:
                raise self.fail("one <gridType>, before the shapes")
            self.grid_seen = True
            self.puzzle.grid = self.number(attrs, "type", name, 0, 1 << 16)
        elif path == "puzzle/colors/color":
            if len(self.puzzle.colours) >= MAX_COLOURS:
                raise self.fail(f"more than {MAX_COLOURS} colours, BurrTools' own limit")
            rgb = tuple(self.number(attrs, c, name, 0, 1 << 16) & 0xFF
                        for c in ("red", "green", "blue"))
            self.puzzle.colours.append((rgb[0], rgb[1], rgb[2]))
        elif path == "puzzle/shapes/voxel":
            if len(self.puzzle.shapes) >= MAX_SHAPES:
                raise self.fail(f"more than {MAX_SHAPES} shapes")
            self.voxel_attrs = dict(attrs)
            self.voxel_line = self.parser.CurrentLineNumber
            self.start_text()
        elif path == "puzzle/problems/problem":
            if len(self.puzzle.problems) >= MAX_PROBLEMS:
                raise self.fail(f"more than {MAX_PROBLEMS} problems, the limit for a "
                                "BurrTools file")
            self.problem = BtProblem(attrs.get("name", ""), line=self.parser.CurrentLineNumber)
            self.puzzle.problems.append(self.problem)
        elif path == "problem/shapes/shape" and self.problem is not None and depth == 5:
            self.part(attrs)
        elif path == "problems/problem/result" and self.problem is not None:
            self.problem.result = self.number(attrs, "id", name)
        elif path == "problem/bitmap/pair" and self.problem is not None and depth == 5:
            piece = self.number(attrs, "piece", name, 0, 62)
            result = self.number(attrs, "result", name, 0, 62)
            self.problem.pairs.add((piece + 1, result + 1))
        elif path == "puzzle/comment":
            self.start_text()

    def part(self, attrs: dict[str, str]) -> None:
        assert self.problem is not None
        self.parts += 1
        if self.parts > MAX_PARTS:
            raise self.fail(f"the problems use more than {MAX_PARTS} <shape> entries, the "
                            "limit for a BurrTools file")
        shape = self.number(attrs, "id", "shape")
        if "count" in attrs:
            lo = hi = self.number(attrs, "count", "shape")
        elif "min" in attrs and "max" in attrs:
            lo = self.number(attrs, "min", "shape")
            hi = self.number(attrs, "max", "shape")
            if lo > hi:
                raise self.fail(f"<shape id={shape}> has min {lo} above max {hi}")
        else:
            lo = hi = 1
        group = self.number(attrs, "group", "shape") if "group" in attrs else 0
        self.problem.parts.append(BtPart(shape, lo, hi, self.parser.CurrentLineNumber, group))

    def start_text(self) -> None:
        self.gathering = True
        self.text = []
        self.text_size = 0

    def data(self, text: str) -> None:
        if self.gathering:
            self.text_size += len(text)
            if self.text_size > MAX_VOXELS * 4 + 1000:
                raise self.fail("an element's text is longer than any voxel space allowed")
            self.text.append(text)

    def end(self, name: str) -> None:
        path = "/".join(self.stack[-3:])
        self.stack.pop()
        if path == "puzzle/shapes/voxel":
            self.gathering = False
            self.puzzle.shapes.append(self.voxel("".join(self.text)))
        elif path == "puzzle/comment":
            self.gathering = False
            self.puzzle.comment = "".join(self.text).strip()
        elif path == "puzzle/problems/problem":
            self.problem = None

    def voxel(self, text: str) -> BtShape:
        attrs, line = self.voxel_attrs, self.voxel_line
        size = tuple(self.number(attrs, axis, "voxel", 0, MAX_VOXELS) for axis in "xyz")
        sx, sy, sz = size
        if sx * sy * sz > MAX_VOXELS:
            raise self.fail(f"a voxel space of {sx} x {sy} x {sz}; the limit is "
                            f"{MAX_VOXELS} positions", line)
        if attrs.get("type", "0").strip() != "0":
            raise self.fail(f"voxel type {attrs.get('type', '')[:20]!r}: only type 0 is "
                            "defined", line)
        self.positions += sx * sy * sz
        if self.positions > MAX_TOTAL_VOXELS:
            raise self.fail(f"the voxel spaces so far have {self.positions} positions; the "
                            f"limit for a file is {MAX_TOTAL_VOXELS}", line)
        text = text.strip()
        bad = _NOT_VOXEL.search(text)
        if bad:
            ch = bad.group()
            what = ("a colour number before the first voxel" if ch.isdigit()
                    else f"unknown character {ch!r} in a voxel space (expected _, #, + and "
                    "colour digits)")
            raise self.fail(what, line)
        count = text.count("_") + text.count("#") + text.count("+")
        if count != sx * sy * sz:
            raise self.fail(f"{count} voxels given for a {sx} x {sy} x {sz} space "
                            f"({sx * sy * sz})", line)
        self.filled += count - text.count("_")
        if self.filled > MAX_FILLED:
            raise self.fail(f"the shapes so far have {self.filled} filled voxels; the limit "
                            f"for a file is {MAX_FILLED}", line)
        filled: dict[Voxel, int] = {}
        variable: set[Voxel] = set()
        i, at = 0, 0  # the voxel number, and where in the text its symbol is looked for
        for match in _FILLED.finditer(text):  # only the filled ones: no list of empties
            i += text.count("_", at, match.start())
            state, colour = match.groups()
            if len(colour) > 2 or int(colour or 0) > 63:
                raise self.fail(f"colour {colour[:20]} in a voxel space; BurrTools allows "
                                "0..63", line)
            cell = (i % sx, (i // sx) % sy, i // (sx * sy))
            filled[cell] = int(colour or 0)
            if state == "+":
                variable.add(cell)
            i += 1
            at = match.end()
        name = attrs.get("name", "")
        return BtShape(len(self.puzzle.shapes), name, (sx, sy, sz), filled, variable, line,
                       _weight(attrs.get("weight", "1")))


def parse_xml(xml: bytes, source: str) -> BtPuzzle:
    """The puzzle in BurrTools XML (bytes, as read); :class:`BurrToolsError` if malformed.

    BurrTools writes names and comments as the bytes it was given and declares no
    encoding: its example Prisgon.xmpuzzle has a Latin-1 "ö". XML without a declaration
    must be UTF-8, so a file that is not valid UTF-8 and declares nothing is read as
    Latin-1 (every byte is a character there), as BurrTools itself would show it."""
    encoding = None
    head = xml[:200].split(b"?>", 1)[0] if xml.lstrip().startswith(b"<?xml") else b""
    if b"encoding" not in head:
        try:
            xml.decode("utf-8")
        except UnicodeDecodeError:
            encoding = "ISO-8859-1"
    return _Parser(source, encoding).parse(xml)


def _declared_encoding(xml: bytes) -> str:
    """The encoding named in the XML declaration, as printable text ("" when none)."""

    head = xml[:200].split(b"?>", 1)[0] if xml.lstrip().startswith(b"<?xml") else b""
    found = re.search(rb"encoding\s*=\s*[\"']([^\"']{0,40})", head)
    return printable(found.group(1).decode("latin-1")) if found else ""


def read_puzzle(path: str | Path) -> BtPuzzle:
    """Read an ``.xmpuzzle`` file (gzip or plain XML)."""
    return parse_xml(read_bytes(path), str(path))


# -- the model to puzzlebox TOML ---------------------------------------------------------------

Cell = tuple[int, ...]


@dataclass
class Converted:
    """A problem mapped onto a puzzlebox lattice, ready to write."""

    lattice: str  # "square", "triangle", "cube", "prism" or "tetra-octa"
    board: dict[Cell, str]
    pieces: list[tuple[str, dict[Cell, str], int, int]]  # name, cells, lo, hi
    reflect: bool
    match_colors: bool
    title: str
    notes: str
    colour_notes: list[str]
    optional: frozenset[Cell] = frozenset()  # board cells that may stay empty (#24)
    groups: tuple[tuple[str, ...], ...] = ()  # pieces that may stay together (#24)
    neutral: bool = False  # "#" (BurrTools' colour 0) goes on any colour (#24)
    ignored: tuple[str, ...] = ()  # one line each: what the file has that was not imported


def _weight(text: str) -> str:
    """A shape's ``weight`` attribute, compared as a number where it is one (``"01"`` is 1):
    kept only to say that differing weights were ignored."""
    text = text.strip()[:20]
    return str(int(text)) if text.lstrip("-").isascii() and text.lstrip("-").isdigit() \
        else text


def weights_note(pieces: list[tuple[str, str]]) -> str | None:
    """One line where the pieces' (name, weight) differ: BurrTools' weights decide which
    side of a split is taken away (the heavier stays); puzzlebox has no weights (#35)."""
    if len({weight for _, weight in pieces}) < 2:
        return None
    shown = ", ".join(f"{name} {weight}" for name, weight in pieces[:8])
    more = f" and {len(pieces) - 8} more" if len(pieces) > 8 else ""
    return (f"BurrTools' piece weights were ignored ({shown}{more}): puzzlebox takes "
            "assemblies apart without them, so the side of a split taken away may differ")


def check_grid(puzzle: BtPuzzle, source: str) -> None:
    """Refuse, naming it, a grid puzzlebox has no lattice for (before asking which
    problem: no problem of such a file can be imported)."""
    grid = puzzle.grid
    if grid not in (0, 1, 4, *burrtools_fcc.LATTICES):
        what = GRID_NAMES.get(grid, f"unknown grid type {grid}")
        raise BurrToolsError(source, None, f"BurrTools grid type {grid} ({what}) has no "
                             "puzzlebox lattice yet; cubes (0), triangular prisms (1), "
                             "spheres (2), rhombic dodecahedra (3) and tetrahedra with "
                             "octahedra (4) can be imported")


def choose_problem(puzzle: BtPuzzle, wanted: str | None, source: str) -> BtProblem:
    """The problem to convert: the only one, or the one ``wanted`` names (its name, or its
    number counted from 1)."""
    problems = puzzle.problems
    if not problems:
        raise BurrToolsError(source, None, "the file defines shapes but no problem (nothing "
                             "to solve)")

    def listing() -> str:
        return ", ".join(f"{i + 1} {p.name!r}" if p.name else str(i + 1)
                         for i, p in enumerate(problems[:20]))

    if wanted is None:
        if len(problems) > 1:
            raise ProblemNeeded(source, None, f"the file has {len(problems)} problems: "
                                f"choose one ({listing()})")
        return problems[0]
    named = [p for p in problems if p.name == wanted]
    if len(named) == 1:
        return named[0]
    if wanted.isascii() and wanted.isdigit() and 1 <= int(wanted) <= len(problems):
        return problems[int(wanted) - 1]
    raise ProblemNeeded(source, None, f"no problem {wanted!r} in the file ({listing()})")


def convert(puzzle: BtPuzzle, problem: BtProblem, source: str, title: str) -> Converted:
    """Map one problem onto a puzzlebox lattice, or say in one line why it cannot be."""

    def fail(message: str, line: int | None = None) -> BurrToolsError:
        return BurrToolsError(source, str(line) if line else None, message)

    grid = puzzle.grid
    check_grid(puzzle, source)
    if problem.result is None:
        raise fail("the problem has no <result> shape", problem.line)
    shapes = puzzle.shapes
    if problem.result >= len(shapes):
        raise fail(f"the result is shape {problem.result}, but the file has "
                   f"{len(shapes)} shapes", problem.line)
    result = shapes[problem.result]

    counts: dict[int, list[int]] = {}
    for part in problem.parts:
        if part.shape >= len(shapes):
            raise fail(f"the problem uses shape {part.shape}, but the file has "
                       f"{len(shapes)} shapes", part.line)
        lo_hi = counts.setdefault(part.shape, [0, 0])
        lo_hi[0] += part.lo
        lo_hi[1] += part.hi
    if not any(hi for _, hi in counts.values()):
        raise fail("the problem uses no pieces", problem.line)
    used = [shapes[i] for i, (_, hi) in counts.items() if hi > 0]

    for shape in [result, *used]:
        role = "the result" if shape is result else f"piece {_label(shape)}"
        if shape.variable and shape is not result:  # the result's are optional cells (#24)
            raise fail(f"{role} has {len(shape.variable)} variable voxels ('+', may stay "
                       "empty); puzzlebox cells are always filled", shape.line)
        if not shape.filled:
            raise fail(f"{role} has no filled voxels", shape.line)
        if len(shape.filled) > limits.MAX_CELLS:
            raise fail(f"{role} has {len(shape.filled)} voxels; the limit is "
                       f"{limits.MAX_CELLS}", shape.line)
    for index, (_, hi) in counts.items():
        if hi > limits.MAX_COPIES:
            raise fail(f"piece {_label(shapes[index])} may be used up to {hi} times; the "
                       f"limit is {limits.MAX_COPIES}", shapes[index].line)

    match, chars, colour_notes, neutral = _colours(puzzle, problem, result, used, fail)

    if grid == 0 and _thin_axis(result.filled) is not None and all(
        _thin_axis(s.filled) is not None for s in used
    ):
        lattice, reflect = "square", True
        place = _flat_square
    elif grid == 0:
        lattice, reflect = "cube", False
        place = _solid
    elif grid in burrtools_fcc.LATTICES:  # #37: spheres, rhombic dodecahedra
        for shape in [result, *used]:
            stray = burrtools_fcc.stray_voxel(grid, shape.filled)
            if stray is not None:
                role = "the result" if shape is result else f"piece {_label(shape)}"
                raise fail(f"{role} has a voxel at x, y, z = {stray} that is no cell of "
                           f"BurrTools' {GRID_NAMES[grid]} grid", shape.line)
        lattice, reflect = burrtools_fcc.LATTICES[grid], False
        place = burrtools_fcc.sphere if grid == 2 else burrtools_fcc.rhombic
    elif grid == 4:  # tetrahedra and octahedra (#37): solids, rotations only
        lattice, reflect = "tetra-octa", False
        place = _tetra_octa
    elif all(len({z for _, _, z in s.filled}) == 1 for s in [result, *used]):
        lattice, reflect = "triangle", True
        place = _flat_triangle
    else:  # prisms in layers (#37): solids, rotations only
        lattice, reflect = "prism", False
        place = _prisms

    def cells(shape: BtShape) -> dict[Cell, str]:
        return {cell: chars[colour] for cell, colour in place(shape.filled).items()}

    names = _names(shapes)
    pieces = [
        (names[index], cells(shapes[index]), lo, hi)
        for index, (lo, hi) in sorted(counts.items())
        if hi > 0
    ]
    if len(pieces) > limits.MAX_PIECES:
        raise fail(f"{len(pieces)} different pieces; the limit is {limits.MAX_PIECES}")
    notes = puzzle.comment
    weighed = weights_note([(names[index], shapes[index].weight)
                            for index, (_, hi) in sorted(counts.items()) if hi > 0])
    return Converted(lattice, cells(result), pieces, reflect, match, title, notes,
                     colour_notes, variable_cells(result, place),
                     part_groups(problem.parts, names), neutral,
                     () if weighed is None else (_safe_comment(weighed),))


def _label(shape: BtShape) -> str:
    return f"S{shape.index + 1}" + (f" {shape.name!r}" if shape.name else "")


def _names(shapes: list[BtShape]) -> dict[int, str]:
    """Piece names: the shape's own name where it has a unique one, else BurrTools' S<n>.

    Unique as written to the TOML file, that is after trimming: shapes named ``a`` and
    ``a `` (#28) would otherwise both be key ``a``, which TOML refuses."""

    def written(shape: BtShape) -> str:
        return shape.name.strip()[: limits.MAX_NAME]

    seen: dict[str, int] = {}
    for shape in shapes:
        seen[written(shape)] = seen.get(written(shape), 0) + 1
    plain = {f"S{s.index + 1}" for s in shapes}
    out = {}
    for shape in shapes:
        name = written(shape)
        good = name and seen[name] == 1 and name not in plain
        out[shape.index] = name if good else f"S{shape.index + 1}"
    return out


def _colours(puzzle: BtPuzzle, problem: BtProblem, result: BtShape, used: list[BtShape],
             fail: Callable[[str, int | None], BurrToolsError]
             ) -> tuple[bool, dict[int, str], list[str], bool]:
    """Whether colours must match, the grid character of each colour, comment lines, and
    whether the neutral colour (``#``) is written as ``[rules] neutral``.

    BurrTools lets a piece voxel of colour p fill a result voxel of colour r when either
    is neutral (0) or the problem lists the pair (p, r). puzzlebox's ``match_colors`` says
    "a cell only on a cell of the same character", and ``neutral`` names a character that
    goes on any (#24). The two agree exactly when, over the colours that occur, the allowed
    pairs are all pairs (no rule: colours are dropped) or, among the coloured voxels,
    exactly the equal pairs (each colour on itself; neutral voxels, where there are any,
    become the neutral ``#``)."""
    piece_colours = {c for s in used for c in s.filled.values()}
    result_colours = set(result.filled.values())
    chars = {0: "#"} | {n: COLOUR_CHARS[n - 1] for n in range(1, 64)}
    if not puzzle.colours or (piece_colours | result_colours) <= {0}:
        return False, {n: "#" for n in chars}, [], False

    def allowed(p: int, r: int) -> bool:
        return p == 0 or r == 0 or (p, r) in problem.pairs

    pairs = [(p, r) for p in sorted(piece_colours) for r in sorted(result_colours)]
    if all(allowed(p, r) for p, r in pairs):
        return False, {n: "#" for n in chars}, [], False
    if all(allowed(p, r) == (p == r) for p, r in pairs if p and r):
        notes = []
        for n in sorted(piece_colours | result_colours):
            rgb = puzzle.colours[n - 1] if 0 < n <= len(puzzle.colours) else None
            shown = f" (#{rgb[0]:02x}{rgb[1]:02x}{rgb[2]:02x})" if rgb else ""
            notes.append(f"{chars[n]}: BurrTools colour {n}{shown}" if n else
                         f"{chars[n]}: BurrTools' neutral colour (on any colour)")
        neutral = 0 in piece_colours | result_colours
        return True, chars, notes, neutral
    raise fail("the problem's colour rules let a colour fill another colour; puzzlebox "
               "matches each colour only on itself (and a neutral colour on any)",
               problem.line)


def _thin_axis(voxels: Iterable[Voxel]) -> int | None:
    """An axis (0 x, 1 y, 2 z) along which the voxels are one layer thick, z first."""
    voxels = list(voxels)
    for axis in (2, 1, 0):
        if len({v[axis] for v in voxels}) == 1:
            return axis
    return None


def _flat_square(voxels: dict[Voxel, int]) -> dict[Cell, int]:
    """A one-layer-thick set of cubes as square cells: the two other axes become row and
    column (z-thin: y rows, x columns). Which way round does not matter: a flat piece
    turned over is still a cube piece, so the square puzzle allows every reflection."""
    axis = _thin_axis(voxels)
    assert axis is not None
    keep = [a for a in (2, 1, 0) if a != axis]  # row axis, column axis
    return _origin({(v[keep[0]], v[keep[1]]): c for v, c in voxels.items()})


def _solid(voxels: dict[Voxel, int]) -> dict[Cell, int]:
    """Cubes as cube cells ``(layer, row, col)`` = BurrTools' ``(z, y, x)``. The same map
    for every shape, so a mirror in it (if any) mirrors the whole puzzle: the counts stay."""
    return _origin({(z, y, x): c for (x, y, z), c in voxels.items()})


def _flat_triangle(voxels: dict[Voxel, int]) -> dict[Cell, int]:
    """One layer of triangular prisms as triangle cells ``(row, col)``.

    BurrTools' triangle ``(x, y)`` points up (its base below, towards ``y - 1``) when
    ``x + y`` is even, rows counting upwards; puzzlebox's ``(row, col)`` points up when
    ``row + col`` is even, rows counting downwards, an up triangle's base towards
    ``row + 1``. So ``row = top - y``, ``col = x - left``, shifted by one column where
    needed to keep ``top - left`` even, which keeps every triangle's direction."""
    top = max(y for _, y, _ in voxels)
    left = min(x for x, _, _ in voxels)
    if (top - left) % 2:
        left -= 1
    return {(top - y, x - left): c for (x, y, _), c in voxels.items()}


def _prisms(voxels: dict[Voxel, int]) -> dict[Cell, int]:
    """Triangular prisms in layers as prism cells ``(layer, row, col)``: BurrTools' ``z``
    is the layer, and each layer's triangles map as :func:`_flat_triangle` maps them (the
    same shift for every layer, so prisms stay stacked). The map mirrors space (rows count
    down, ``y`` up), the same for every shape, so the counts stay."""
    top = max(y for _, y, _ in voxels)
    left = min(x for x, _, _ in voxels)
    if (top - left) % 2:
        left -= 1
    low = min(z for _, _, z in voxels)
    return {(z - low, top - y, x - left): c for (x, y, z), c in voxels.items()}


def _tetra_octa(voxels: dict[Voxel, int]) -> dict[Cell, int]:
    """BurrTools' positions of grid type 4 as tetra-octa cells ``(layer, row, col)`` =
    ``(z, y, x)``, moved towards 0 as the lattice's normal form moves them (by whole blocks
    of 3 positions with an even sum: only those keep which positions are cells). The same
    exchange of axes for every shape (a mirror of space) keeps the counts."""
    cells = {(z, y, x): c for (x, y, z), c in voxels.items()}
    shift = lattice_named("tetra-octa").normalize_offset(cells)
    return {tuple(v + d for v, d in zip(cell, shift, strict=True)): c
            for cell, c in cells.items()}


def _origin(cells: dict[tuple[int, ...], int]) -> dict[Cell, int]:
    low = [min(cell[i] for cell in cells) for i in range(len(next(iter(cells))))]
    return {tuple(v - lo for v, lo in zip(cell, low, strict=True)): c
            for cell, c in cells.items()}


# -- writing TOML ----------------------------------------------------------------------------


def toml_string(text: str) -> str:
    """``text`` as a TOML basic string. JSON's escapes are TOML's; json.dumps escapes every
    control character below U+0020 but not DEL, which TOML forbids raw, so DEL is escaped
    here too."""
    return json.dumps(text, ensure_ascii=False).replace("\x7f", "\\u007f")


def _rows(cells: dict[Cell, str], rows: int, cols: int, layer: int | None) -> list[str]:
    grid = [["."] * cols for _ in range(rows)]
    for cell, ch in cells.items():
        if layer is None:
            grid[cell[0]][cell[1]] = ch
        elif cell[0] == layer:
            grid[cell[1]][cell[2]] = ch
    return ["".join(row) for row in grid]


def grid_value(cells: dict[Cell, str], lattice: str, one_line: bool = False) -> str:
    """The TOML value of a grid: a multi-line string of rows (or, ``one_line``, the rows
    joined by ``/``), or on ``cube`` an array of layers (bottom first), each a one-line
    string of rows joined by ``/``, all layers of the same rows and columns."""
    if lattice_named(lattice).dimensions == 3:
        layers = 1 + max(c[0] for c in cells)
        rows = 1 + max(c[1] for c in cells)
        cols = 1 + max(c[2] for c in cells)
        values = [toml_string("/".join(_rows(cells, rows, cols, z))) for z in range(layers)]
        return "[" + ", ".join(values) + "]"
    rows = 1 + max(c[0] for c in cells)
    cols = 1 + max(c[1] for c in cells)
    drawn = _rows(cells, rows, cols, None)
    if one_line or rows == 1:
        return toml_string("/".join(drawn))
    return '"""\n' + "\n".join(drawn) + '\n"""'


_BARE = re.compile(r"[A-Za-z0-9_-]+")  # a TOML bare key: written without quotes


def _count(lo: int, hi: int) -> str:
    return str(lo) if lo == hi else f"[{lo}, {hi}]"


def to_toml(converted: Converted, header: str) -> str:
    """The puzzle as puzzlebox TOML text (docs/puzzle-format.md)."""
    c = converted
    lines = [f"# {line}" if line else "#" for line in header.splitlines()]
    lines += [f"# {line}" for line in c.colour_notes]
    lines += [f"# {line}" for line in c.ignored]
    lines.append(f"title = {toml_string(c.title)}")
    if c.notes:
        lines.append(f"notes = {toml_string(c.notes)}")
    if c.lattice != "square":
        lines.append(f"lattice = {toml_string(c.lattice)}")
    lines += ["", "[board]", f"grid = {grid_value(c.board, c.lattice)}"]
    if c.optional:
        lines.append(f"optional = {grid_value(dict.fromkeys(c.optional, '+'), c.lattice)}")
    lines += ["", "[pieces]"]
    for name, cells, lo, hi in c.pieces:
        key = name if _BARE.fullmatch(name) else toml_string(name)
        if lo == hi == 1:
            lines.append(f"{key} = {grid_value(cells, c.lattice, True)}")
        else:
            lines.append(f"{key} = {{ shape = {grid_value(cells, c.lattice, True)}, count = "
                         f"{_count(lo, hi)} }}")
    lines += ["", "[rules]", "rotate = true", f"reflect = {str(c.reflect).lower()}"]
    if c.match_colors:
        lines.append("match_colors = true")
    if c.match_colors and c.neutral:
        lines.append('neutral = "#"')
    if c.groups:  # #24
        listed = ", ".join("[" + ", ".join(toml_string(n) for n in g) + "]" for g in c.groups)
        lines += ["", "[disassembly]", f"groups = [{listed}]"]
    return "\n".join(lines) + "\n"


def import_file(path: str | Path, problem: str | None = None) -> str:
    """Read a BurrTools file and return one of its problems as puzzlebox TOML text."""
    return import_data(read_raw(path), str(path), problem)


def import_data(raw: bytes, source: str, problem: str | None = None) -> str:
    """:func:`import_file` for a file's bytes (gzip or XML) already in memory, as the page
    receives them, with the same bounds; ``source`` names it in messages."""
    return import_noted(raw, source, problem)[0]


def import_noted(raw: bytes, source: str, problem: str | None = None
                 ) -> tuple[str, tuple[str, ...]]:  # fmt: skip
    """:func:`import_data`, and the lines saying what the file has that was not imported
    (the TOML's header comment says them too; ``puzzlebox import`` on standard error)."""
    if len(raw) > MAX_COMPRESSED_BYTES:
        raise BurrToolsError(source, None, f"the file is larger than {MAX_COMPRESSED_BYTES} "
                             "bytes, the limit for a BurrTools file")
    puzzle = parse_xml(decompress(raw, source), source)
    check_grid(puzzle, source)
    chosen = choose_problem(puzzle, problem, source)
    title = chosen.name or Path(source).stem
    converted = convert(puzzle, chosen, source, title)
    number = puzzle.problems.index(chosen) + 1
    grid = GRID_NAMES.get(puzzle.grid, str(puzzle.grid))
    header = (f"Imported by 'puzzlebox import' from {Path(source).name}, problem {number}"
              + (f" ({chosen.name})" if chosen.name else "")
              + f"; BurrTools grid {puzzle.grid} ({grid}) as lattice {converted.lattice}.")
    text = to_toml(converted, _safe_comment(header))
    _check_readable(text, source, converted.lattice)
    return text, converted.ignored


def _check_readable(text: str, source: str, lattice: str) -> None:
    """Read the TOML back with puzzlebox's own reader, so that what ``import`` writes is a
    file puzzlebox takes (a piece larger than the result, which BurrTools allows with a
    count of 0, is one the reader refuses)."""

    try:
        read_text(text, "converted", "converted")
    except PuzzleFileError as error:
        raise BurrToolsError(source, None, "converted, but puzzlebox's reader refuses the "
                             f"result: {error.message}") from None


def _safe_comment(text: str) -> str:
    """A comment line holds no control character (a newline would end it early)."""

    return printable(text)
