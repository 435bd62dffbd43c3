"""The compiled halves of the logic techniques: one module here a technique, named for the technique module whose
finder it speeds up (``logic.kernels.fish`` is the compiled search of ``logic.fish``).

The rule: a technique is written first in plain Python (``logic/<technique>.py``), which stays its readable
reference; where it is hot, its search moves to a Numba kernel here, which finds the same steps in the same order
and is checked against the Python finder by the tests. The Python module imports its kernel and decides when to
use it (classic grids up to ``candidates.COMPILED_FINDERS_MAX_N`` digits); nothing here imports a technique
module, so the compiled code sits one layer below the logic it serves. Exceptions to the one-to-one naming:
``singles`` is the rater's compiled singles (the twin of ``logic.singles``, used by ``logic.rating`` and
``logic.se``), ``empty_rectangle``, ``two_links`` and ``xchain`` are the three kernels of ``logic.single_digit``,
and ``se_chains`` is ``logic.se_chains``'s.
"""
