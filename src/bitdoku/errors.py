"""The one exception hierarchy of bitdoku.

Every error carries the facts of where it happened as fields (``source``, ``line``, ``column``, ``cell``) and
builds its sentence from them in ``__str__``, so the CLI and the web read fields and never parse text.
"""

from __future__ import annotations

import re

_CELL_NAME = re.compile(r"[rR](\d+)[cC](\d+)")


def cell_name(cell: int, n: int) -> str:
    """Write a 0-based cell index the way people read it: ``r4c7`` (1-based row and column)."""
    row, col = divmod(cell, n)
    return f"r{row + 1}c{col + 1}"


def row_and_column(name: str) -> tuple[int, int] | None:
    """Read a cell name as ``cell_name`` writes it: ``'r4c7'`` -> (4, 7), 1-based; None for anything else."""
    found = _CELL_NAME.fullmatch(name)
    return (int(found[1]), int(found[2])) if found else None


class BitdokuError(Exception):
    """Base class of every error raised by bitdoku."""


class ParseError(BitdokuError, ValueError):
    """Text that is not a well-formed puzzle.

    ``problem`` is the sentence without its place; ``source``, ``line``, ``column`` (1-based) and ``cell``
    (a name like ``r4c7``) say where, when known.
    """

    def __init__(
        self,
        problem: str,
        *,
        source: str | None = None,
        line: int | None = None,
        column: int | None = None,
        cell: str | None = None,
    ) -> None:
        super().__init__(problem)
        self.problem = problem
        self.source = source
        self.line = line
        self.column = column
        self.cell = cell

    def located(self, *, source: str | None = None, line: int | None = None) -> ParseError:
        """Return a copy that also names the file and line (used by readers, which know them)."""
        return type(self)(
            self.problem,
            source=source if source is not None else self.source,
            line=line if line is not None else self.line,
            column=self.column,
            cell=self.cell,
        )

    @property
    def place(self) -> str:
        """``file:line:column (r4c7)``, as much of it as is known."""
        if self.source is not None:
            place = ":".join(str(p) for p in (self.source, self.line, self.column) if p is not None)
        else:
            named = (("line", self.line), ("column", self.column))
            place = ", ".join(f"{word} {value}" for word, value in named if value is not None)
        if self.cell:
            place = f"{place} ({self.cell})" if place else self.cell
        return place

    def __str__(self) -> str:
        return f"{self.place}: {self.problem}" if self.place else self.problem


class ShapeError(ParseError):
    """A cell count or box shape that no grid has."""


class PuzzleTypeError(BitdokuError, TypeError):
    """Something that is no form of a puzzle at all: ``None``, a number, bytes, a dict, cells that are not
    integers. The sentence names what was given and what is accepted (``grid.PUZZLE_FORMS``)."""


class UnsupportedError(BitdokuError, ValueError):
    """A well-formed puzzle that a part of bitdoku cannot take yet (logical steps for the setters' constraints,
    say): refused by name rather than answered as if the rule were absent."""


class InvalidGridError(BitdokuError, ValueError):
    """Givens that break the rules: the same digit twice in a row, column or box."""

    def __init__(self, problem: str, *, cells: tuple[str, ...] = (), unit: str | None = None) -> None:
        super().__init__(problem)
        self.problem = problem
        self.cells = cells
        self.unit = unit

    def __str__(self) -> str:
        return f"invalid grid: {self.problem}"


def solutions_found_phrase(count: int) -> str:
    """``'1 solution'`` or ``'2,345 solutions'``: how a spent budget says what it had found."""
    return "1 solution" if count == 1 else f"{count:,} solutions"


class SearchLimitError(BitdokuError):
    """A search ran out of its node budget before it could answer.

    ``stats`` holds the counters gathered so far and ``solutions_found`` how many solutions were seen.
    """

    def __init__(self, max_nodes: int, solutions_found: int, stats: object = None) -> None:
        super().__init__(max_nodes, solutions_found)
        self.max_nodes = max_nodes
        self.solutions_found = solutions_found
        self.stats = stats

    def __str__(self) -> str:
        found = solutions_found_phrase(self.solutions_found)
        return (
            f"search stopped after {self.max_nodes:,} nodes with {found} found; "
            "pass max_nodes=... (CLI: --max-nodes) to go further"
        )


class SearchTimeLimitError(SearchLimitError):
    """A search ran out of its time limit (``time_limit=``, CLI ``--time-limit``) before it could answer: a
    spent budget like the node budget (the same exit code), with the seconds it had and the nodes it visited."""

    def __init__(self, seconds: float, nodes: int, solutions_found: int, stats: object = None) -> None:
        super().__init__(nodes, solutions_found, stats)
        self.seconds = seconds

    def __str__(self) -> str:
        found = solutions_found_phrase(self.solutions_found)
        return (
            f"search stopped at its time limit of {self.seconds:g} s after {self.max_nodes:,} nodes with {found} "
            "found; pass time_limit=... (CLI: --time-limit) to go further"
        )


class StepLimitError(BitdokuError):
    """A human-style solve (``explain`` or ``rate``) ran out of its step budget before the grid was solved."""

    def __init__(self, max_steps: int) -> None:
        super().__init__(max_steps)
        self.max_steps = max_steps

    def __str__(self) -> str:
        return (
            f"human-style solving stopped after {self.max_steps:,} steps beyond singles; "
            "pass max_steps=... (CLI: --max-steps) to go further"
        )


class TimeLimitError(StepLimitError):
    """A human-style solve ran out of its time budget (``bitdoku.logic.budget.time_budget``): a step limit in
    seconds, handled wherever a step limit is."""

    def __init__(self, seconds: float) -> None:
        BitdokuError.__init__(self, seconds)
        self.max_steps = 0
        self.seconds = seconds

    def __str__(self) -> str:
        return f"human-style solving stopped at its time budget of {self.seconds:g} s"


class GenerationLimitError(BitdokuError):
    """The generator spent its node or time budget before it found a puzzle that meets the request.

    ``wanted`` says what was asked (``'a 9x9 puzzle with 18 clues'``), ``spent`` what ran out (``'60 s'``),
    ``attempts`` how many candidates were made, and ``closest`` what came nearest (``'the fewest clues was 21'``).
    """

    def __init__(self, wanted: str, spent: str, attempts: int, closest: str | None = None) -> None:
        super().__init__(wanted, spent, attempts, closest)
        self.wanted = wanted
        self.spent = spent
        self.attempts = attempts
        self.closest = closest

    def __str__(self) -> str:
        tried = f"{self.attempts:,} attempt{'s' if self.attempts != 1 else ''}"
        closest = f"; {self.closest}" if self.closest else ""
        return (
            f"found no {self.wanted} within {self.spent} ({tried}{closest}); "
            "ask for less, or raise the budget (--time-limit, --max-nodes)"
        )


class OutputError(BitdokuError):
    """The results could not be written: the disk (or the user's quota) is full, or the file grew past the
    largest size the file system allows. ``path`` is the file and ``reason`` the system's words.

    Raised from the ``OSError`` of the write, which a person would otherwise read as a bug in bitdoku.
    """

    def __init__(self, path: str, reason: str) -> None:
        super().__init__(path, reason)
        self.path = path
        self.reason = reason

    def __str__(self) -> str:
        return f"cannot write {self.path}: {self.reason}"


class MissingExtraError(BitdokuError, ImportError):
    """An optional feature whose packages are not installed."""

    def __init__(self, feature: str, extra: str) -> None:
        super().__init__(feature, extra)
        self.feature = feature
        self.extra = extra

    def __str__(self) -> str:
        return f"{self.feature} needs extra packages: pip install 'bitdoku[{self.extra}]'"
