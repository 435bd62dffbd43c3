"""Engine names and the engines behind them, for the API, the CLI and the cross-checking tests."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from bitdoku.engines import reference
from bitdoku.engines.result import SearchResult
from bitdoku.grid import Grid

SearchFunction = Callable[..., SearchResult]


@dataclass(frozen=True)
class Engine:
    """A named search: ``search(puzzle, *, limit, max_nodes, keep) -> SearchResult`` on a valid puzzle."""

    name: str
    summary: str
    search: SearchFunction

    def __call__(self, puzzle: Grid, *, limit: int, max_nodes: int, keep: int) -> SearchResult:
        return self.search(puzzle, limit=limit, max_nodes=max_nodes, keep=keep)


ENGINES: dict[str, Engine] = {
    "reference": Engine(
        "reference", "the seed brute force in pure Python: readable, the oracle, slow", reference.search
    ),
}

DEFAULT_ENGINE = "reference"


def get_engine(name: str) -> Engine:
    """The engine called ``name``, or a ``ValueError`` that lists the names there are."""
    try:
        return ENGINES[name]
    except KeyError:
        raise ValueError(f"unknown engine {name!r}; engines are {', '.join(sorted(ENGINES))}") from None
