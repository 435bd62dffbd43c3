"""The errors of reading a photo: one class, with a ``kind`` that the command line and the web can switch on."""

from __future__ import annotations

from bitdoku.errors import ParseError

#: The kinds of failure, for callers that answer each differently (the web API maps them to 4xx replies).
KINDS = ("not-an-image", "empty", "truncated", "too-large", "no-grid", "too-small", "other-size")


class PhotoError(ParseError):
    """An image that holds no readable Sudoku.

    ``kind`` is one of ``KINDS``; ``source`` names the file when there is one, so the sentence reads
    ``photo.jpg: no Sudoku grid found``.
    """

    def __init__(self, problem: str, *, kind: str, source: str | None = None) -> None:
        super().__init__(problem, source=source)
        self.kind = kind

    def __str__(self) -> str:
        if self.source is None:
            return self.problem
        if self.kind == "no-grid":  # reads as a sentence: "no Sudoku grid found in photo.jpg"
            return f"{self.problem} in {self.source}"
        return f"{self.source}: {self.problem}"

    def located(self, *, source: str | None = None, line: int | None = None) -> PhotoError:
        """Return a copy that names the file (the decoder knows it, the stages below do not)."""
        return PhotoError(self.problem, kind=self.kind, source=source if source is not None else self.source)
