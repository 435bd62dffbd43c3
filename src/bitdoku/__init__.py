"""bitdoku: a fast and complete Sudoku toolkit for grids of any box shape, from 4x4 to 64x64.

The public API is re-exported here; see the README for a tour.
"""

from bitdoku import generate
from bitdoku.batch import BatchResult, count_many, solve_many
from bitdoku.engines.registry import DEFAULT_ENGINE, ENGINES
from bitdoku.engines.result import SearchResult, SearchStats, Status
from bitdoku.errors import (
    BitdokuError,
    GenerationLimitError,
    InvalidGridError,
    MissingExtraError,
    ParseError,
    SearchLimitError,
    ShapeError,
)
from bitdoku.formats.reader import Entry, read_entries, read_puzzles
from bitdoku.grid import Conflict, Grid
from bitdoku.logic import CandidateGrid, Rating, Step, explain, hint, rate
from bitdoku.shape import Shape
from bitdoku.solver import count_solutions, is_unique, search, solve

__version__ = "0.1.0"

__all__ = [
    "DEFAULT_ENGINE",
    "ENGINES",
    "BatchResult",
    "BitdokuError",
    "CandidateGrid",
    "Conflict",
    "Entry",
    "GenerationLimitError",
    "Grid",
    "InvalidGridError",
    "MissingExtraError",
    "ParseError",
    "Rating",
    "SearchLimitError",
    "SearchResult",
    "SearchStats",
    "Shape",
    "ShapeError",
    "Status",
    "Step",
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
    "solve_many",
]
