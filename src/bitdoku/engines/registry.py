"""Engine names and the engines behind them, for the API, the CLI and the cross-checking tests."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from bitdoku.engines import bitmask, reference
from bitdoku.engines.result import SearchResult
from bitdoku.grid import Grid

SearchFunction = Callable[..., SearchResult]


@dataclass(frozen=True)
class Engine:
    """A named search: ``search(puzzle, *, limit, max_nodes, keep) -> SearchResult``. An engine checks the
    givens itself and answers ``Status.INVALID`` with the first conflict as the reason."""

    name: str
    summary: str
    search: SearchFunction
    batched: bool = False  # whether bitdoku.solve_many runs it on a compiled batch kernel
    warm_up: Callable[..., None] | None = None  # compiles a JIT engine (shape, limit, geometry=) before timing
    will_compile: Callable[..., bool] | None = None  # whether that (or a batch) compiles: bitmask.will_compile

    def __call__(self, puzzle: Grid, *, limit: int, max_nodes: int, keep: int) -> SearchResult:
        return self.search(puzzle, limit=limit, max_nodes=max_nodes, keep=keep)


ENGINES: dict[str, Engine] = {
    "bitmask": Engine(
        "bitmask",
        "compiled (Numba) bitmask search: singles, locked candidates, fewest-candidates branching",
        bitmask.search,
        batched=True,
        warm_up=bitmask.warm_up,
        will_compile=bitmask.will_compile,
    ),
    "reference": Engine(
        "reference", "the seed brute force in pure Python: readable, the oracle, slow", reference.search
    ),
}

DEFAULT_ENGINE = "bitmask"


def get_engine(name: str) -> Engine:
    """The engine called ``name``, or a ``ValueError`` that lists the names there are."""
    try:
        return ENGINES[name]
    except KeyError:
        raise ValueError(f"unknown engine {name!r}; engines are {', '.join(sorted(ENGINES))}") from None
