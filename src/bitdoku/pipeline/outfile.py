"""An output file that appears only when complete, and that an interrupted run can go on writing.

Results go to ``FILE.partial``, one line a puzzle, flushed after each block; the rename to ``FILE`` comes when
the last line is written. A run stopped any way at all (Ctrl-C, an error, ``kill -9``, a power cut after the
last flush) leaves ``FILE.partial`` holding whole lines for the first puzzles and perhaps a piece of the next
one; ``resume`` drops that piece and says how many puzzles are done, so the run can skip exactly those and
append the rest: no line is computed or written twice.

A full disk is one more way to stop: the write that fails leaves whole lines and perhaps a piece, like a kill,
and ``failed`` turns its ``OSError`` into an ``OutputError`` that names the file and says the disk is full
(the final name is never given to a file that was cut short). Once space is freed, ``resume`` goes on.
"""

from __future__ import annotations

import contextlib
import errno
import os
from pathlib import Path
from typing import TextIO

from bitdoku.errors import OutputError

_READ = 1 << 20
#: The errors of a write that ran out of room, and how each is told.
_NO_ROOM = {
    errno.ENOSPC: "the disk is full",
    errno.EDQUOT: "the disk quota is full",
    errno.EFBIG: "the file is larger than the file system allows",
}


class ResultFile:
    """``FILE.partial`` open for writing results; ``done`` is the number of lines already there.

    Use ``commit()`` once everything is written (the rename), or ``close()`` to leave the partial file.
    """

    def __init__(self, path: str | Path, *, resume: bool = False) -> None:
        self.path = Path(path)
        self.partial = self.path.with_name(self.path.name + ".partial")
        self.complete = resume and self.path.exists() and not self.partial.exists()
        self.done = 0
        if resume and self.partial.exists():
            self.done = _keep_whole_lines(self.partial)
        elif not self.complete:
            self.partial.write_bytes(b"")
        self.stream: TextIO = open(  # noqa: SIM115 - closed by commit() or close()
            os.devnull if self.complete else self.partial, "a", encoding="utf-8", newline="\n"
        )

    def commit(self) -> None:
        """Close the file and give it its name: the output is complete."""
        self.stream.close()
        if not self.complete:
            os.replace(self.partial, self.path)

    def close(self) -> None:
        """Close the file and leave it as ``FILE.partial`` (a run that did not finish).

        Closing flushes what is buffered; when that write fails too (the disk is still full), the lines it held
        are lost, as in a kill, and the error that stopped the run is the one to report: so it is not raised.
        """
        with contextlib.suppress(OSError):
            self.stream.close()

    def failed(self, error: BaseException) -> BaseException:
        """Close the file after ``error`` stopped the run, and return the error to raise: an ``OutputError``
        naming the file when a write ran out of room, else ``error`` itself."""
        self.close()
        return out_of_room(error, str(self.partial)) or error


def out_of_room(error: BaseException, path: str) -> OutputError | None:
    """The ``OutputError`` for ``path`` when ``error`` is a write that ran out of room (a full disk or quota, a
    file too large), else None."""
    if isinstance(error, OSError) and error.errno in _NO_ROOM:
        return OutputError(path, f"{_NO_ROOM[error.errno]} ({error.strerror or os.strerror(error.errno)})")
    return None


def _keep_whole_lines(path: Path) -> int:
    """Cut a file after its last newline (a run killed mid-write leaves part of a line); its number of lines."""
    lines, keep = 0, 0
    with open(path, "rb") as stream:
        offset = 0
        while block := stream.read(_READ):
            count = block.count(b"\n")
            if count:
                lines += count
                keep = offset + block.rindex(b"\n") + 1
            offset += len(block)
    if keep != path.stat().st_size:
        with open(path, "r+b") as stream:
            stream.truncate(keep)
    return lines
