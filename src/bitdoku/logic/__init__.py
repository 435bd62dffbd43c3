"""Human-style solving: pencil marks, techniques people use, step-by-step explanations and difficulty ratings.

``explain(puzzle)`` yields one ``Step`` at a time, each found by the easiest technique that applies;
``hint(puzzle)`` returns the next one; ``rate(puzzle)`` scores a puzzle by the hardest step it needs, on the
Sudoku Explainer scale by default. ``LADDER`` is every technique in the order tried; ``CLASSIC_LADDER`` the first
release's; ``VARIANT_LADDER`` the techniques used on variant grids (X, Windoku, jigsaw, anti-knight, anti-king,
nonconsecutive), chosen automatically for them.
A ``CandidateGrid`` is the pencil-mark state the techniques read.

Layout: one module a technique (``singles``, ``intersections``, ``subsets``, ``fish``, ``wings``, ``single_digit``,
``chains``, ``forcing``, ``als_wings``, ...), each a readable Python finder; where a finder is hot, its compiled
half sits in ``logic/kernels/`` under the same name (``logic/kernels/fish.py`` beside ``logic/fish.py``) and
finds the same steps in the same order (see ``logic.kernels``). Below the techniques: ``candidates`` (the state),
``step`` (what a technique returns), ``changes``, ``arrays`` (the compiled singles' arrays); above them:
``explain`` (the ladder), ``se`` and ``se_chains`` (Sudoku Explainer's rating solve), ``rating``.
"""

from bitdoku.logic.candidates import CandidateGrid
from bitdoku.logic.explain import CLASSIC_LADDER, LADDER, VARIANT_LADDER, explain, hint
from bitdoku.logic.rating import Rating, rate
from bitdoku.logic.step import Step

__all__ = ["CLASSIC_LADDER", "LADDER", "VARIANT_LADDER", "CandidateGrid", "Rating", "Step", "explain", "hint", "rate"]
