"""Constraints beyond a geometry's units, as data over the candidate bitmasks: Killer cages first.

A geometry (``bitdoku.geometry``) says which cells must differ. A constraint here says more about a set of cells,
in a form the compiled search reads as tables, so that a new constraint is data and a few primitives, not a kernel
of its own:

* all different over any set of cells (a cage's cells become peers of each other);
* a sum over a set of distinct cells (a cage with a total), held as the digit sets that can make it
  (``combinations``): a 3-cell cage of 23 keeps only {6, 8, 9}.

``Killer`` is a Killer Sudoku (cages, optional givens) and reads the line format ``MAP SUMS [GIVENS]``;
``killer.search`` solves and counts one on the compiled constraint kernel (``kernels/cages.py``).
"""

from bitdoku.constraints.cages import Cage, Killer, combinations
from bitdoku.constraints.killer import count_solutions, search, solve

__all__ = ["Cage", "Killer", "combinations", "count_solutions", "search", "solve"]
