"""Puzzle generation: complete grids, unique puzzles by clue removal, symmetry, difficulty, minimality.

A thin layer over the engines: the compiled kernels fill grids and remove clues (``bitdoku.kernels.fill`` and
``bitdoku.kernels.dig``), the rater grades (``bitdoku.logic``), and this package drives them with seeds, budgets
and filters. The package is callable: ``bitdoku.generate(...)`` is ``generate`` here; the rest is imported from
it: ``from bitdoku.generate import generate_many, Symmetry``.
"""

import sys
import types
from typing import Any

from bitdoku.generate.grids import random_solution
from bitdoku.generate.puzzles import Generated, generate, generate_many
from bitdoku.generate.removal import is_minimal, removable_clues
from bitdoku.generate.symmetry import Symmetry, has_symmetry, orbits
from bitdoku.grid import Grid

__all__ = [
    "Generated",
    "Symmetry",
    "generate",
    "generate_many",
    "has_symmetry",
    "is_minimal",
    "orbits",
    "random_solution",
    "removable_clues",
]


class _CallableModule(types.ModuleType):
    """This package, callable: ``bitdoku.generate(...)`` is ``bitdoku.generate.generate(...)``, while
    ``bitdoku.generate.generate_many`` and ``import bitdoku.generate.canon`` keep working (a function of the same
    name in ``bitdoku`` would hide the package)."""

    def __call__(self, *args: Any, **kwargs: Any) -> Grid:
        return generate(*args, **kwargs)


sys.modules[__name__].__class__ = _CallableModule
