"""The n-queens bitmask engine's kernels (engine/queens_bitmask.py): the C ones built at
installation (engine/_ckernels.c) or numba's (engine/_queens_numba.py), whichever
engine/kernel_choice.py says, looked up at each call so that a test can run both. numba is
imported only when its kernels run."""

from __future__ import annotations

from types import ModuleType
from typing import Any

from puzzlebox.engine import kernel_choice


def _numba() -> ModuleType:
    from puzzlebox.engine import _queens_numba

    return _queens_numba


class _Kernel:
    """One kernel, either backend's, called with the numba kernel's arguments."""

    def __init__(self, c_name: str, numba_name: str) -> None:
        self.c_name = c_name
        self.numba_name = numba_name

    def __call__(self, *args: Any) -> Any:
        if kernel_choice.backend() == kernel_choice.C:
            return getattr(kernel_choice.compiled_c(), self.c_name)(*args)
        return getattr(_numba(), self.numba_name)(*args)

    @property
    def _cache(self) -> Any:
        """numba's cache of the numba kernel (engine/kernel_cache.py asks it)."""
        return getattr(_numba(), self.numba_name)._cache


walk_rows = _Kernel("queens_walk_rows", "walk_rows")
walk_symmetric = _Kernel("queens_walk_symmetric", "walk_symmetric")
walk_torus = _Kernel("queens_walk_torus", "walk_torus")
fixed = _Kernel("queens_fixed", "fixed")
