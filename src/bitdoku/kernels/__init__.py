"""Numba kernels: arrays in, arrays and status codes out.

The modules here import only NumPy and Numba and know nothing of ``Grid`` or ``Shape`` objects; a shape comes in
as its unit and peer tables (``Shape.tables``). ``status`` names the return codes and stats slots, ``bits`` holds
every bit trick, ``propagate`` the deduction rules, ``dfs`` the search on any shape, ``sudoku9`` the specialised
9x9 search, ``frontier`` the expansion of a configuration into its children, and ``batch`` the loop over many
puzzles. Importing the package first finds Numba a writable cache folder and drops its cache files if a kernel
source changed (``cache``).
"""

from bitdoku.kernels.cache import clear_stale, prepare

prepare()
clear_stale()
