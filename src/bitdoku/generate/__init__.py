"""Puzzle generation: complete grids, unique puzzles by clue removal, symmetry, difficulty, minimality.

A thin layer over the engines: the compiled kernels fill grids and remove clues (``bitdoku.kernels.fill`` and
``bitdoku.kernels.dig``), the rater grades (``bitdoku.logic``), and this package drives them with seeds, budgets
and filters. ``bitdoku.generate`` (the function) is ``generate`` here; the rest is imported from this package:
``from bitdoku.generate import generate_many, Symmetry``.
"""

from bitdoku.generate.grids import random_solution
from bitdoku.generate.puzzles import Generated, generate, generate_many
from bitdoku.generate.removal import is_minimal, removable_clues
from bitdoku.generate.symmetry import Symmetry, has_symmetry, orbits

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
