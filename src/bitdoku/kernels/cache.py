"""Keep Numba's on-disk cache usable and honest: a writable place, no stale code, and a way to ask ahead.

Where. Numba keeps a compiled function beside its source (``__pycache__``), or under ``NUMBA_CACHE_DIR`` when
that is set, or in the user's cache folder (``~/.cache/numba``), whichever it can write first; when it can write
none of them it refuses to load the module. ``prepare`` makes that case work: it points Numba at a temporary
folder for the run (compiled code is then lost at exit) and says why in ``NOTE``, as it does when
``NUMBA_CACHE_DIR`` names a folder that cannot be written (read-only site-packages and a shared install with a
second user both end up in one of these cases).

Stale code. Numba checks a cached function against the timestamp of the file that defines it, not of the files
it calls: after an edit to ``sudoku9.py``, the cached ``batch.search_rows9`` would still run the old 9x9 code. So
the package fingerprints every file that defines compiled code and, when the fingerprint changes, deletes the
cache files of those folders, wherever Numba keeps them, before anything is loaded. A fresh install has no
cache; this guards editable installs and development. It is best effort: a folder it cannot write is left to
Numba.

Ahead. ``is_compiled`` tells whether a kernel's compiled code is in the cache for this machine, so that the
command line can say "compiling ..." before a first compile starts rather than after.
"""

from __future__ import annotations

import atexit
import hashlib
import os
import re
import shutil
import tempfile
from collections.abc import Callable
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent.parent
#: Where the files that define compiled code are, relative to the package (those that use ``@njit``); a change
#: to any of them invalidates all caches.
SOURCES = ("kernels/*.py", "logic/*.py", "logic/kernels/*.py")
STAMP = "bitdoku-sources.sha256"
#: The folder of the warm-up units' markers (``bitdoku.warmup.ready``) beside the compiled code: cleared with it.
READY = "bitdoku-ready"
#: A line that compiles code: a decorator of Numba's or of ``kernels.jit``, or ``jit.py``'s own ``njit(`` calls
#: (this module's text names them without matching).
_COMPILED = re.compile(rb"^\s*(@(njit|borrowing|inlined|intrinsic|overload)\b|return njit\(|dispatcher = )",
                       re.MULTILINE)
#: Why the cache is not where Numba would normally put it, or None; set by ``prepare``.
NOTE: str | None = None


def fingerprint(package: Path = PACKAGE) -> str:
    """A hash of the contents of every compiled-code source file."""
    digest = hashlib.sha256()
    for pattern in SOURCES:
        for path in sorted(package.glob(pattern)):
            text = path.read_bytes()
            if _COMPILED.search(text):  # an edit to a pure-Python module does not throw compiled code away
                digest.update(path.name.encode())
                digest.update(text)
    return digest.hexdigest()


def source_folders(package: Path = PACKAGE) -> list[Path]:
    """The folders holding compiled-code sources (``kernels``, ``logic``)."""
    return sorted({(package / pattern).parent for pattern in SOURCES})


def cache_locations(package: Path = PACKAGE, cache_dir: str | None = None) -> list[list[Path]]:
    """Every place Numba may keep the package's compiled code, in the order Numba tries them: for each, the
    cache folder of every source folder. ``cache_dir`` is ``NUMBA_CACHE_DIR`` (default: Numba's setting)."""
    from numba.core import config
    from numba.core.caching import _CacheLocator
    from numba.misc.appdirs import AppDirs

    cache_dir = config.CACHE_DIR if cache_dir is None else cache_dir
    folders = source_folders(package)

    def under(root: str) -> list[Path]:
        return [Path(root) / _CacheLocator.get_suitable_cache_subpath(str(folder / "x.py")) for folder in folders]

    locations = [under(cache_dir)] if cache_dir else []
    locations.append([folder / "__pycache__" for folder in folders])
    locations.append(under(AppDirs(appname="numba", appauthor=False).user_cache_dir))
    return locations


def clear_stale(package: Path = PACKAGE, locations: list[list[Path]] | None = None) -> bool:
    """Delete Numba's cache files of the compiled-code folders, in every place Numba may keep them, if the
    sources changed since that place was last stamped; True if any were deleted. The place in use (the first
    of ``locations`` that can be written) is stamped even when it is new, so that its cache is kept next time."""
    current = fingerprint(package)
    locations = cache_locations(package) if locations is None else locations
    active = in_use(locations)
    cleared = False
    for folders in locations:
        cleared |= _clear_if_stale(folders, current, create=folders is active)
    return cleared


def in_use(locations: list[list[Path]]) -> list[Path] | None:
    """The place of ``locations`` (``cache_locations``) where Numba keeps the code: the first it can write."""
    return next((folders for folders in locations if _can_write(folders[0])), None)


def _clear_if_stale(folders: list[Path], current: str, *, create: bool) -> bool:
    stamp = folders[0] / STAMP
    try:
        if not create and not stamp.parent.exists():
            return False
        if stamp.exists() and stamp.read_text() == current:
            return False
        for folder in folders:
            for cached in (*folder.glob("*.nbi"), *folder.glob("*.nbc"), *(folder / READY).glob("*.done"),
                           *(folder / READY).glob("*.failed")):
                cached.unlink(missing_ok=True)
        stamp.parent.mkdir(parents=True, exist_ok=True)
        stamp.write_text(current)
    except OSError:
        return False
    return True


#: The environment variable naming a file to which every process appends a line for each function it compiles.
COMPILE_LOG = "BITDOKU_COMPILE_LOG"


def _log_compiles(path: str) -> None:
    """Append ``pid<TAB>module.function<TAB>signature`` to ``path`` for every function this process compiles
    (``BITDOKU_COMPILE_LOG``): what an entry point pulls in, and whether two processes ever compile the same."""
    from numba.core import event

    class Log(event.Listener):
        def on_start(self, ev: event.Event) -> None:
            function = ev.data["dispatcher"].py_func
            line = f"{os.getpid()}\t{function.__module__}.{function.__qualname__}\t{ev.data['args']}\n"
            with open(path, "a", encoding="utf-8") as log:  # one write a line: lines of processes do not mix
                log.write(line)

        def on_end(self, ev: event.Event) -> None:
            pass

    event.register("numba:compile", Log())


def prepare(package: Path = PACKAGE, writable: Callable[[Path], bool] | None = None) -> str | None:
    """Make sure Numba has a writable cache folder for the kernels before they are defined; return (and keep
    in ``NOTE``) a sentence saying why the cache is not where it would be, or None when all is normal.

    ``writable`` tests a folder (default: create it and a temporary file in it, as Numba does).
    """
    from numba.core import config

    global NOTE
    if os.environ.get(COMPILE_LOG) and not getattr(prepare, "_logging", False):
        _log_compiles(os.environ[COMPILE_LOG])
        prepare._logging = True  # type: ignore[attr-defined]
    writable = writable or _can_write
    first, *others = cache_locations(package)
    usable = first if writable(first[0]) else next((folders for folders in others if writable(folders[0])), None)
    if usable is first:
        NOTE = None
    elif usable is None:
        config.CACHE_DIR = tempfile.mkdtemp(prefix="bitdoku-numba-")
        atexit.register(shutil.rmtree, config.CACHE_DIR, ignore_errors=True)
        NOTE = (f"no folder for Numba's cache can be written ({first[0].parent}, {others[-1][0].parent}): "
                "kernels are compiled for this run only; set NUMBA_CACHE_DIR to a writable folder to keep them")
    else:
        unwritable = f"NUMBA_CACHE_DIR={config.CACHE_DIR}" if config.CACHE_DIR else f"the package folder {package}"
        NOTE = f"{unwritable} cannot be written: compiled kernels are cached in {usable[0].parent} instead"
    return NOTE


def _can_write(folder: Path) -> bool:
    try:
        os.makedirs(folder, exist_ok=True)
        tempfile.TemporaryFile(dir=folder).close()
    except OSError:
        return False
    return True


def is_compiled(kernel: object) -> bool | None:
    """Whether a Numba dispatcher has compiled code ready: loaded already, or in its on-disk cache for this
    machine. None when that cannot be told (a Numba whose cache internals differ): say nothing then."""
    from numba.core.caching import NullCache

    try:
        if kernel.overloads:  # type: ignore[attr-defined]
            return True
        if isinstance(kernel._cache, NullCache):  # type: ignore[attr-defined] - a kernel without cache=True
            return False
        index = kernel._cache._cache_file._load_index()  # type: ignore[attr-defined]
        magic = kernel.targetctx.codegen().magic_tuple()  # type: ignore[attr-defined]
        return any(key[1] == magic for key in index)
    except Exception:  # private Numba API: any change there means "cannot tell"
        return None
