"""Knuth's exact cover with multiplicities and colours (MCC), as flat integer arrays.

Items ``0 .. n_primary-1`` are primary: item ``i`` must be covered between ``lo[i]`` and
``hi[i]`` times. The remaining items are secondary: covered at most once by an option that
gives it no colour (colour 0), or by any number of options that all give it the same colour.

A solution is a *set* of options (each used at most once) meeting every bound and colour.
Options are stored in compressed-row form: option ``k`` covers
``items[start[k]:start[k+1]]`` with ``colors[start[k]:start[k+1]]``.
"""

from __future__ import annotations

import contextlib
import threading
from array import array
from collections.abc import Callable, Hashable, Iterable, Iterator, Sequence
from functools import cached_property
from typing import TYPE_CHECKING, Any, NamedTuple

if TYPE_CHECKING:
    import numpy as np

NO_COLOR = 0


FREE = -1  # the colour state of a secondary item that no chosen option covers yet

Option = list[tuple[int, int]]  # [(item, colour), ...], as CoverProblem.option gives it


def option_fits(
    option: Option, n_primary: int, hi: list[int], counts: list[int], sec_color: list[int]
) -> bool:
    """Can ``option`` join options already chosen, which cover primary item ``i``
    ``counts[i]`` times and give secondary item ``s`` the colour ``sec_color[s - n_primary]``?

    The one rule every Python-level search shares: no primary item beyond its ``hi``, no
    second use of an uncoloured secondary item, no disagreement on a coloured one.
    """
    for item, color in option:
        if item < n_primary:
            if counts[item] >= hi[item]:
                return False
        else:
            now = sec_color[item - n_primary]
            if now != FREE and (color == NO_COLOR or now != color):
                return False
    return True


def apply_option(option: Option, n_primary: int, counts: list[int], sec_color: list[int]) -> None:
    """Record ``option`` as chosen in ``counts`` and ``sec_color`` (see :func:`option_fits`)."""
    for item, color in option:
        if item < n_primary:
            counts[item] += 1
        else:
            sec_color[item - n_primary] = color


# -- the deadline of a build ---------------------------------------------------------------
# Building a big problem (a million placements: seconds) and its symmetries has no search
# steps between which a run's time limit is checked (#28: ``--max-time 2`` did not apply
# while placements were built). A run hands its check to :func:`build_deadline`; the
# builders call :func:`building` as they go, and the check raises (the run's own
# ``OutOfTime``) once the limit has passed. It is looked at every CHECK_EVERY units of work
# only, so that a build without a deadline pays one counter and a comparison.
CHECK_EVERY = 2048  # options (or rows) built between two looks at the clock
_local = threading.local()


@contextlib.contextmanager
def build_deadline(check: Callable[[], None]) -> Iterator[None]:
    """While the block runs in this thread, builds call ``check`` every so often (it raises
    to stop the build: a run's time limit passed). Nested blocks: the innermost holds."""
    previous = getattr(_local, "check", None)
    _local.check = check
    _local.work = 0
    try:
        check()  # a limit already passed stops the build before it begins
        yield
    finally:
        _local.check = previous


def building(work: int = 1) -> None:
    """Count ``work`` units of a build in this thread and, every :data:`CHECK_EVERY`, call
    the check of the :func:`build_deadline` around it (none: nothing happens)."""
    check = getattr(_local, "check", None)
    if check is None:
        return
    _local.work += work
    if _local.work >= CHECK_EVERY:
        _local.work = 0
        check()


class ProblemError(ValueError):
    """A cover problem that is not well formed (a bug in a puzzle compiler, not user input)."""


class CoverArrays(NamedTuple):
    """A problem's arrays as the standard library's ``array('q')``: what a search reads
    without numpy (the C kernels take any buffer; numpy costs 0.14-0.27 s of CPU to import,
    more than a small puzzle's whole search, issue #23)."""

    lo: array[int]
    hi: array[int]
    start: array[int]
    items: array[int]
    colors: array[int]
    adj_start: array[int]
    adj_items: array[int]


def int64_array(values: Any) -> array[int]:
    """``values`` (a list, an ``array``, a numpy array) as an ``array('q')``; an
    ``array('q')`` is kept as it is, a numpy array copied by its bytes."""
    if isinstance(values, array) and values.typecode == "q":
        return values
    if hasattr(values, "__array_interface__"):  # numpy's: no loop over its elements
        out = array("q")
        out.frombytes(values.astype("int64").tobytes())
        return out
    return array("q", values)


_ARRAY_NAMES = CoverArrays._fields


class CoverProblem:
    """An MCC instance. Engines read the arrays; puzzle kinds read ``labels`` to decode.

    The arrays are kept as ``array('q')`` (:attr:`arrays`), so that building a problem and
    searching it with the C kernels loads no numpy. ``lo``, ``hi``, ``start``, ``items``,
    ``colors``, ``adj_start`` and ``adj_items`` are numpy views of them (int64, no copy),
    made on first use: the engines written with numpy read those.

    The optional graph lies on the first ``len(adj_start) - 1`` primary items (all covered
    exactly once): item ``i``'s neighbours are ``adj_items[adj_start[i]:adj_start[i + 1]]``.
    Engines may use it to prove a branch empty (a closed region no option set can fill); it
    never changes the solutions. Empty arrays mean no graph.
    """

    def __init__(
        self,
        item_names: tuple[Hashable, ...],
        n_primary: int,
        lo: Any,
        hi: Any,
        start: Any,
        items: Any,
        colors: Any,
        labels: tuple[Any, ...],
        adj_start: Any = (),
        adj_items: Any = (),
    ) -> None:
        self.item_names = item_names
        self.n_primary = n_primary
        self.labels = labels  # one per option: what the option means
        self.arrays = CoverArrays(
            *(int64_array(a) for a in (lo, hi, start, items, colors, adj_start, adj_items))
        )
        self._numpy: dict[str, Any] = {}

    def __repr__(self) -> str:
        return (f"<CoverProblem: {self.n_items} items ({self.n_primary} primary), "
                f"{self.n_options} options>")  # fmt: skip

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickled (to a worker process) as its arguments: the numpy views are not sent."""
        return (CoverProblem, (self.item_names, self.n_primary, *self.arrays[:5], self.labels,
                               *self.arrays[5:]))  # fmt: skip

    def replace(self, **changes: Any) -> CoverProblem:
        """A copy with the fields named changed (as ``dataclasses.replace``)."""
        fields = {"item_names": self.item_names, "n_primary": self.n_primary,
                  "labels": self.labels, **self.arrays._asdict()}  # fmt: skip
        unknown = set(changes) - set(fields)
        if unknown:
            raise TypeError(f"CoverProblem has no field {sorted(unknown)[0]!r}")
        fields.update(changes)
        return CoverProblem(**fields)

    def _view(self, name: str) -> np.ndarray:
        view = self._numpy.get(name)
        if view is None:
            import numpy as np

            data = getattr(self.arrays, name)
            view = np.frombuffer(data, dtype=np.int64) if len(data) else np.zeros(0, np.int64)
            self._numpy[name] = view
        return view

    @property
    def lo(self) -> np.ndarray:
        """int64[n_primary]: how often each primary item must be covered, at least."""
        return self._view("lo")

    @property
    def hi(self) -> np.ndarray:
        """int64[n_primary]: and at most."""
        return self._view("hi")

    @property
    def start(self) -> np.ndarray:
        """int64[n_options + 1]: where each option's items begin in ``items``."""
        return self._view("start")

    @property
    def items(self) -> np.ndarray:
        """int64[start[-1]]: the options' items, option after option."""
        return self._view("items")

    @property
    def colors(self) -> np.ndarray:
        """int64[start[-1]]: the colour each option gives each of its items (0: none)."""
        return self._view("colors")

    @property
    def adj_start(self) -> np.ndarray:
        """int64[n_graph + 1] (or empty): where each graph item's neighbours begin."""
        return self._view("adj_start")

    @property
    def adj_items(self) -> np.ndarray:
        """The graph items' neighbours, item after item."""
        return self._view("adj_items")

    @property
    def n_graph(self) -> int:
        """How many primary items (the first ones) the optional graph covers; 0 for none."""
        return max(len(self.arrays.adj_start) - 1, 0)

    @property
    def n_items(self) -> int:
        return len(self.item_names)

    @property
    def n_options(self) -> int:
        return len(self.arrays.start) - 1

    def option(self, k: int) -> list[tuple[int, int]]:
        """Option ``k`` as ``[(item, colour), ...]``."""
        a, b = self.arrays.start[k], self.arrays.start[k + 1]
        return list(zip(self.arrays.items[a:b], self.arrays.colors[a:b]))

    @cached_property
    def label_index(self) -> dict[Any, int]:
        """The option of each label (the last one where labels repeat), made once: a
        solution's encoding, a symmetry by labels and a queens subproblem read it."""
        return {label: k for k, label in enumerate(self.labels)}

    def option_set(self, values: Iterable[int], what: str) -> tuple[int, ...]:
        """``values`` as sorted distinct option numbers, checked to exist (``what`` names
        them in the error: "forced", "excluded")."""
        chosen = sorted({int(k) for k in values})
        if chosen and (chosen[0] < 0 or chosen[-1] >= self.n_options):
            raise ValueError(f"{what} options must lie in 0..{self.n_options - 1}")
        return tuple(chosen)

    def is_solution(self, chosen: Iterable[int]) -> bool:
        """Check a set of options against every bound and colour: the arbiter of all engines."""
        chosen = list(chosen)
        if len(set(chosen)) != len(chosen):
            return False
        counts = [0] * self.n_primary
        uses: dict[int, list[int]] = {}
        for k in chosen:
            if not 0 <= k < self.n_options:
                return False
            for item, color in self.option(k):
                if item < self.n_primary:
                    counts[item] += 1
                else:
                    uses.setdefault(item, []).append(color)
        for colors in uses.values():
            if len(colors) > 1 and (NO_COLOR in colors or len(set(colors)) > 1):
                return False
        lo, hi = self.arrays.lo, self.arrays.hi
        return all(lo[i] <= counts[i] <= hi[i] for i in range(self.n_primary))


class CoverBuilder:
    """Collects named items and options, then numbers them: primary items first.

    Item names are any hashable values (``("cell", 2, 3)``); colours are any hashable values
    and are numbered from 1 per problem.
    """

    def __init__(self) -> None:
        self._primary: dict[Hashable, tuple[int, int]] = {}
        self._secondary: dict[Hashable, None] = {}
        self._options: list[tuple[list[Hashable], list[Hashable | None]]] = []
        self._labels: list[Any] = []
        self._color_ids: dict[Hashable, int] = {}
        self._graph: dict[Hashable, list[Hashable]] = {}

    def neighbours(self, name: Hashable, others: Sequence[Hashable]) -> None:
        """Make primary item ``name`` a vertex of the problem's graph, adjacent to ``others``.

        The vertices must be the first primary items declared, each covered exactly once.
        """
        if name in self._graph:
            raise ProblemError(f"item {name!r} given neighbours twice")
        self._graph[name] = list(others)

    def primary(self, name: Hashable, lo: int = 1, hi: int = 1) -> None:
        if name in self._primary or name in self._secondary:
            raise ProblemError(f"item {name!r} declared twice")
        if not 0 <= lo <= hi:
            raise ProblemError(f"item {name!r}: bounds [{lo}, {hi}] are not 0 <= lo <= hi")
        self._primary[name] = (lo, hi)

    def secondary(self, name: Hashable) -> None:
        if name in self._primary or name in self._secondary:
            raise ProblemError(f"item {name!r} declared twice")
        self._secondary[name] = None

    def option(
        self,
        items: Sequence[Hashable],
        label: Any,
        colors: Sequence[Hashable | None] | None = None,
    ) -> None:
        """Add an option covering ``items``; ``colors[j]`` colours secondary ``items[j]``."""
        if colors is None:
            colors = [None] * len(items)
        building()
        self._options.append((list(items), list(colors)))
        self._labels.append(label)

    def build(self) -> CoverProblem:
        names = list(self._primary) + list(self._secondary)
        index = {name: i for i, name in enumerate(names)}
        n_primary = len(self._primary)
        start = [0]
        flat_items: list[int] = []
        flat_colors: list[int] = []
        for items, colors in self._options:
            building()
            try:
                ids = [index[name] for name in items]
            except KeyError as missing:
                raise ProblemError(f"option uses undeclared item {missing.args[0]!r}") from None
            if len(set(ids)) != len(ids):
                twice = next(name for k, name in enumerate(items) if ids.index(ids[k]) != k)
                raise ProblemError(f"option covers item {twice!r} twice")
            if not ids or min(ids) >= n_primary:
                raise ProblemError("every option must cover at least one primary item")
            if colors.count(None) == len(colors):  # no colour: one extend, no loop (#23)
                flat_colors.extend([NO_COLOR] * len(ids))
            else:
                for name, i, color in zip(items, ids, colors, strict=True):
                    if color is None:
                        flat_colors.append(NO_COLOR)
                    elif i < n_primary:
                        raise ProblemError(f"primary item {name!r} cannot have a colour")
                    else:
                        flat_colors.append(self._color_ids.setdefault(color,
                                                                      len(self._color_ids) + 1))
            flat_items.extend(ids)
            start.append(len(flat_items))
        bounds = list(self._primary.values())
        adj_start, adj_items = self._graph_arrays(names, index)
        return CoverProblem(
            item_names=tuple(names),
            n_primary=n_primary,
            lo=array("q", [b[0] for b in bounds]),
            hi=array("q", [b[1] for b in bounds]),
            start=array("q", start),
            items=array("q", flat_items),
            colors=array("q", flat_colors),
            labels=tuple(self._labels),
            adj_start=adj_start,
            adj_items=adj_items,
        )

    def _graph_arrays(
        self, names: list[Hashable], index: dict[Hashable, int]
    ) -> tuple[array[int], array[int]]:
        """The graph in compressed-row form over the first ``len(self._graph)`` items."""
        m = len(self._graph)
        if m == 0:
            return array("q"), array("q")
        start = [0]
        flat: list[int] = []
        for i, name in enumerate(names[:m]):
            if (
                m > len(self._primary)
                or name not in self._graph
                or self._primary.get(name) != (1, 1)
            ):
                raise ProblemError(
                    "graph vertices must be the first primary items, each covered exactly once"
                )
            for other in self._graph[name]:
                j = index.get(other, m)
                if j >= m or j == i:
                    raise ProblemError(f"item {name!r}: neighbour {other!r} is not a vertex")
                flat.append(j)
            start.append(len(flat))
        return array("q", start), array("q", flat)
