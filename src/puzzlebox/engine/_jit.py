"""numba's ``njit`` and ``intrinsic`` as mypy should see them.

pyproject.toml has mypy skip numba (its own annotations type a jitted function as a
``Dispatcher`` whose ``__call__`` takes the wrong arguments), so the decorators would be
``Any`` and every kernel they decorate untyped. Here, for the type checker only, ``njit``
returns the function it decorates unchanged: a kernel is checked, and called, with the
signature written on it. At run time the names are numba's own objects, imported from numba.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any, Literal, TypeVar

    _F = TypeVar("_F", bound=Callable[..., Any])

    def njit(
        *, cache: bool = ..., nogil: bool = ..., inline: Literal["always", "never"] = ...
    ) -> Callable[[_F], _F]:
        """A kernel compiled on its first call; to mypy, the Python function it is."""

    def intrinsic(
        fn: Callable[..., tuple[Any, Callable[..., Any]] | None],
    ) -> Callable[..., Any]:
        """A function whose body numba emits as LLVM IR. Its Python signature (the typing
        context first) is not the one jitted code calls it with, so a call is unchecked."""

else:
    from numba import njit
    from numba.extending import intrinsic

__all__ = ["intrinsic", "njit"]
