"""bitdoku: a fast and complete Sudoku toolkit for grids of any box shape, from 4x4 to 64x64.

The public API is re-exported here; see the README for a tour. Each name is imported on first use (the grid
model needs NumPy; the engines, the batch functions, the human-style solver and the generator need Numba), so
``import bitdoku`` itself costs next to nothing and ``bitdoku --help`` starts at once.
"""

from __future__ import annotations

from importlib import import_module

# Not ``typing.TYPE_CHECKING``: importing typing (and the result and error classes, with dataclasses and enum) took
# 45 ms, and a Ctrl-C while ``python -m bitdoku`` or the console script imports this package, before
# ``bitdoku.__main__`` has its handler in place, printed a traceback (tests/cli/test_startup.py).
TYPE_CHECKING = False

if TYPE_CHECKING:
    from typing import Any

    from bitdoku import generate
    from bitdoku.batch import BatchResult, count_many, solve_many
    from bitdoku.constraints import Cage, Constraint
    from bitdoku.engines.registry import DEFAULT_ENGINE, ENGINES
    from bitdoku.engines.result import SearchResult, SearchStats, Status
    from bitdoku.errors import (
        BitdokuError,
        GenerationLimitError,
        InvalidGridError,
        MissingExtraError,
        ParseError,
        PuzzleTypeError,
        SearchLimitError,
        SearchTimeLimitError,
        ShapeError,
        UnsupportedError,
    )
    from bitdoku.geometry import Geometry
    from bitdoku.grid import Conflict, Grid, Puzzle
    from bitdoku.logic import CandidateGrid, Rating, Step, explain, hint, rate
    from bitdoku.pipeline import solve_file
    from bitdoku.reader import Entry, read_entries, read_puzzles
    from bitdoku.shape import Shape
    from bitdoku.solution_digits import TrueCandidates, true_candidates
    from bitdoku.solver import count_solutions, is_unique, search, solve

__version__ = "0.1.0"

#: Names loaded on first use, and the module each comes from.
_LAZY = {
    "BatchResult": "bitdoku.batch",
    "count_many": "bitdoku.batch",
    "solve_many": "bitdoku.batch",
    "DEFAULT_ENGINE": "bitdoku.engines.registry",
    "ENGINES": "bitdoku.engines.registry",
    "CandidateGrid": "bitdoku.logic",
    "Rating": "bitdoku.logic",
    "Step": "bitdoku.logic",
    "explain": "bitdoku.logic",
    "hint": "bitdoku.logic",
    "rate": "bitdoku.logic",
    "solve_file": "bitdoku.pipeline",
    "count_solutions": "bitdoku.solver",
    "is_unique": "bitdoku.solver",
    "search": "bitdoku.solver",
    "solve": "bitdoku.solver",
    "true_candidates": "bitdoku.solution_digits",
    "TrueCandidates": "bitdoku.solution_digits",
    "Entry": "bitdoku.reader",
    "read_entries": "bitdoku.reader",
    "read_puzzles": "bitdoku.reader",
    "Geometry": "bitdoku.geometry",
    "Cage": "bitdoku.constraints",
    "Constraint": "bitdoku.constraints",
    "Conflict": "bitdoku.grid",
    "Grid": "bitdoku.grid",
    "Puzzle": "bitdoku.grid",
    "Shape": "bitdoku.shape",
    "SearchResult": "bitdoku.engines.result",
    "SearchStats": "bitdoku.engines.result",
    "Status": "bitdoku.engines.result",
    "BitdokuError": "bitdoku.errors",
    "GenerationLimitError": "bitdoku.errors",
    "InvalidGridError": "bitdoku.errors",
    "MissingExtraError": "bitdoku.errors",
    "ParseError": "bitdoku.errors",
    "PuzzleTypeError": "bitdoku.errors",
    "SearchLimitError": "bitdoku.errors",
    "SearchTimeLimitError": "bitdoku.errors",
    "ShapeError": "bitdoku.errors",
    "UnsupportedError": "bitdoku.errors",
}


def __getattr__(name: str) -> Any:
    if name == "generate":  # the package, which is callable: bitdoku.generate(...)
        return import_module("bitdoku.generate")
    if name in _LAZY:
        value = getattr(import_module(_LAZY[name]), name)
        globals()[name] = value
        return value
    raise AttributeError(f"module 'bitdoku' has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted(__all__)


__all__ = [
    "DEFAULT_ENGINE",
    "ENGINES",
    "BatchResult",
    "BitdokuError",
    "Cage",
    "CandidateGrid",
    "Conflict",
    "Constraint",
    "Entry",
    "GenerationLimitError",
    "Geometry",
    "Grid",
    "InvalidGridError",
    "MissingExtraError",
    "ParseError",
    "Puzzle",
    "PuzzleTypeError",
    "Rating",
    "SearchLimitError",
    "SearchResult",
    "SearchStats",
    "SearchTimeLimitError",
    "Shape",
    "ShapeError",
    "Status",
    "Step",
    "TrueCandidates",
    "UnsupportedError",
    "__version__",
    "count_many",
    "count_solutions",
    "explain",
    "generate",
    "hint",
    "is_unique",
    "rate",
    "read_entries",
    "read_puzzles",
    "search",
    "solve",
    "solve_file",
    "solve_many",
    "true_candidates",
]
