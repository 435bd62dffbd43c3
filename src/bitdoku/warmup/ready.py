"""Which warm-up units are compiled on this machine, and one process at a time compiling each.

A unit that has been compiled into Numba's cache leaves a marker file beside the cache (``<cache>/bitdoku-ready/``
in the folder Numba writes the kernels' code to), so that any process can tell in a ``stat`` whether its first
call of a feature will load the code or compile it: the web page's workers answer "preparing hints" instead of
compiling beside the process that already does. The markers go with the cache: ``kernels.cache.clear_stale``
deletes them with the compiled code when the sources change, and deleting the cache folder deletes them too.

``compiling(name)`` holds a lock file of the unit while it compiles, so that two processes of one machine (two
servers, a server and ``bitdoku warmup``) never compile a unit side by side: the second waits, then finds it done.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Iterator
from pathlib import Path

from bitdoku.kernels.cache import READY


def folder() -> Path | None:
    """The markers' folder: in the cache folder Numba writes to (None when no folder can be written)."""
    from bitdoku.kernels.cache import cache_locations, in_use

    place = in_use(cache_locations())
    return None if place is None else place[0] / READY


def _marker(name: str, where: Path | None, suffix: str = ".done") -> Path | None:
    return None if where is None else where / (name.replace(" ", "_").replace("/", "_") + suffix)


def is_ready(name: str, where: Path | None = None) -> bool:
    """Whether the unit ``name`` has been compiled into this machine's cache."""
    return _is_marked(name, where, ".done")


def mark_ready(name: str, where: Path | None = None) -> None:
    """Note that the unit ``name`` is compiled (best effort: a folder that cannot be written is left alone)."""
    _set_mark(name, where, ".done", True)


def is_failed(name: str, where: Path | None = None) -> bool:
    """Whether the last attempt at compiling unit ``name`` ahead failed (its first use compiles it then)."""
    return _is_marked(name, where, ".failed")


def mark_failed(name: str, failed: bool = True, where: Path | None = None) -> None:
    """Note that compiling unit ``name`` ahead failed, or with ``failed=False`` that it is being tried again."""
    _set_mark(name, where, ".failed", failed)


def _is_marked(name: str, where: Path | None, suffix: str) -> bool:
    marker = _marker(name, where or folder(), suffix)
    return marker is not None and marker.exists()


def _set_mark(name: str, where: Path | None, suffix: str, on: bool) -> None:
    """Create (``on``) or delete the unit's marker of that kind; a folder that cannot be written is left alone."""
    marker = _marker(name, where or folder(), suffix)
    if marker is None:
        return
    with contextlib.suppress(OSError):
        if on:
            marker.parent.mkdir(parents=True, exist_ok=True)
            marker.touch()
        else:
            marker.unlink(missing_ok=True)


@contextlib.contextmanager
def compiling(name: str, where: Path | None = None) -> Iterator[bool]:
    """Hold the unit's lock while compiling it; yields True if it still needs compiling (False: another process
    compiled it while this one waited for the lock, or before). Without ``fcntl`` (Windows) or a writable folder,
    no lock: it yields whether the unit is marked ready."""
    where = where or folder()
    marker = _marker(name, where)
    if marker is None:
        yield True
        return
    try:
        import fcntl

        marker.parent.mkdir(parents=True, exist_ok=True)
        handle = os.open(marker.with_suffix(".lock"), os.O_CREAT | os.O_RDWR, 0o644)
    except (ImportError, OSError):
        yield not marker.exists()
        return
    try:
        fcntl.flock(handle, fcntl.LOCK_EX)
        yield not marker.exists()
    finally:
        os.close(handle)  # closing releases the lock


