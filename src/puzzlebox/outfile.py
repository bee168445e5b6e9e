"""The user's output files, written whole or not at all (#38 item 5).

A write that fails part-way (a full disk, ``ulimit -f``, Ctrl-C) used to leave a file of
0 or 4,096 bytes where the output was asked for, which looks like output. Every writer of
a file the user named (``solve --out``, ``show --out``, ``moves --out``, ``import -o``,
``generate --out``, ``export --sheet`` and ``--stl``) goes through :func:`replacing`: the
bytes go to a temporary file in the same folder, renamed over the target once they are all
written, and the temporary is removed when anything fails, so the target is either the
complete new file or what was there before.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Iterator
from pathlib import Path
from typing import IO, Any

PART = ".part"  # the temporary's suffix: ".NAME.1a2b3c4d.part" beside NAME


def _temporary(path: Path) -> tuple[int, Path]:
    """A new file beside ``path``, opened for writing, with the mode a plain ``open`` would
    give (0666 less the umask; ``mkstemp``'s 0600 would stay on the renamed file)."""
    for _ in range(100):
        stem = os.fsdecode(os.fsencode(path.name)[:100])  # a name of 255 bytes is the most
        temp = path.with_name(f".{stem}.{os.urandom(4).hex()}{PART}")
        try:
            return os.open(temp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666), temp
        except FileExistsError:
            continue
    raise FileExistsError(f"no free temporary name beside {path}")


@contextlib.contextmanager
def replacing(path: str | os.PathLike[str], binary: bool = True,
              durable: bool = False) -> Iterator[IO[Any]]:
    """A file object whose contents replace ``path`` when the block ends without an error;
    on any error (an ``OSError`` of the write, or an exception of the caller) the temporary
    is removed, ``path`` is left as it was and the error goes on. ``durable`` (a checkpoint)
    also syncs the file to disk before the rename, and the folder after it, so that a power
    cut leaves the old file or the new one."""
    target = Path(path)
    fd, temp = _temporary(target)
    try:
        handle = os.fdopen(fd, "wb") if binary else os.fdopen(fd, "w", encoding="utf-8")
    except BaseException:
        os.close(fd)
        with contextlib.suppress(OSError):
            os.unlink(temp)
        raise
    try:
        with handle:
            yield handle
            if durable:
                handle.flush()
                os.fsync(handle.fileno())
        os.replace(temp, target)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temp)
        raise
    if durable:
        with contextlib.suppress(OSError):  # make the rename itself durable where we can
            folder = os.open(target.parent, os.O_RDONLY)
            try:
                os.fsync(folder)
            finally:
                os.close(folder)


def write_bytes(path: str | os.PathLike[str], data: bytes) -> None:
    """``data`` as the whole of ``path``, or ``path`` untouched (:func:`replacing`)."""
    with replacing(path) as handle:
        handle.write(data)


def write_text(path: str | os.PathLike[str], text: str) -> None:
    """``text`` (UTF-8) as the whole of ``path``, or ``path`` untouched."""
    with replacing(path, binary=False) as handle:
        handle.write(text)
