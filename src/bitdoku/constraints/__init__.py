"""Constraints beyond a geometry's units, as data over the candidate bitmasks: Killer cages first.

A geometry (``bitdoku.geometry``) says which cells must differ. A constraint here says more about a set of cells,
in a form the compiled search reads as tables, so that a new constraint is data and a few primitives, not a kernel
of its own:

* all different over any set of cells (a cage's cells become peers of each other);
* a sum over a set of distinct cells (a cage with a total), held as the digit sets that can make it
  (``combinations``): a 3-cell cage of 23 keeps only {6, 8, 9}.

* the variant setters' constraints (``variant.py``: thermometers, dots, XV, lines, parities, extra regions), as
  pair relations (arcs over digit tables) and groups with digit sets (a renban's runs).

This package is data only, below the geometry that carries it (``Geometry.cages``): the Killer line and JSON
formats are in ``formats/killer.py``, the search in ``engines/killer.py`` over ``kernels/cages.py``.
"""

from bitdoku.constraints.cages import Cage, cage_name, check_cages, combinations, unit_remainders
from bitdoku.constraints.variant import Constraint, constraint_name

__all__ = ["Cage", "Constraint", "cage_name", "check_cages", "combinations", "constraint_name", "unit_remainders"]
