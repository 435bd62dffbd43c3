"""Keep Numba's on-disk cache honest when kernel sources change.

Numba checks a cached function against the timestamp of the file that defines it, not of the files it calls:
after an edit to ``sudoku9.py``, the cached ``batch.search_rows9`` would still run the old 9x9 code. So the
package fingerprints every file that defines compiled code and, when the fingerprint changes, deletes the
cache files of those folders before anything is loaded. A fresh install has no cache; this guards editable
installs and development. It is best effort: a folder it cannot write is left to Numba.
"""

from __future__ import annotations

import hashlib
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent.parent
#: Every file that defines compiled code, relative to the package; a change to any invalidates all caches.
SOURCES = ("kernels/*.py", "logic/_fast.py")
STAMP = "bitdoku-sources.sha256"


def fingerprint(package: Path = PACKAGE) -> str:
    """A hash of the contents of every compiled-code source file."""
    digest = hashlib.sha256()
    for pattern in SOURCES:
        for path in sorted(package.glob(pattern)):
            digest.update(path.name.encode())
            digest.update(path.read_bytes())
    return digest.hexdigest()


def clear_stale(package: Path = PACKAGE) -> bool:
    """Delete Numba's cache files under the compiled-code folders if the sources changed; True if it did."""
    current = fingerprint(package)
    folders = sorted({(package / pattern).parent / "__pycache__" for pattern in SOURCES})
    stamp = folders[0] / STAMP
    try:
        if stamp.exists() and stamp.read_text() == current:
            return False
        for folder in folders:
            for cached in (*folder.glob("*.nbi"), *folder.glob("*.nbc")):
                cached.unlink(missing_ok=True)
        folders[0].mkdir(exist_ok=True)
        stamp.write_text(current)
    except OSError:
        return False
    return True
