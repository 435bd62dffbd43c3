"""An output file that appears only when complete, and that an interrupted run can go on writing.

Results go to ``FILE.partial``, one line a puzzle, flushed after each block; the rename to ``FILE`` comes when
the last line is written. A run stopped any way at all (Ctrl-C, an error, ``kill -9``, a power cut after the
last flush) leaves ``FILE.partial`` holding whole lines for the first puzzles and perhaps a piece of the next
one; ``resume`` drops that piece and says how many puzzles are done, so the run can skip exactly those and
append the rest: no line is computed or written twice.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import TextIO

_READ = 1 << 20


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
        """Close the file and leave it as ``FILE.partial`` (a run that did not finish)."""
        self.stream.close()


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
