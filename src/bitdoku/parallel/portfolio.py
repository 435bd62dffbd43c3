"""A portfolio: the same first-solution search on every thread, each with its own random seed; the first answer
wins and stops the others.

Why: a first-solution search of a big grid is heavy-tailed (benchmarks/NOTES-kernels.md, rounds 5 and 7): on a
25x25 grid near 45 % fill one seed's restarted runs find a solution in a thousand nodes and another's in a hundred
thousand. Independent seeds make the time the fastest member's, which cuts the tail far more than splitting one
search's tree would. The members are the bitboard kernel's restarted searches (``boards.first_solution``) with
seeds ``PORTFOLIO_SEED + i``; a member that finds a solution, or proves there is none, sets a shared stop flag,
and the others end at their next restart. Which member wins depends on timing, so a puzzle with several solutions
may get a different one from run to run (any solution is a correct first solution).

A portfolio only answers "find one solution": counting (``limit`` > 1) must see the whole tree, and a classic
9x9 grid has no restarted search (its kernel has no heavy tail to cut); both run ``pt_dfs`` instead.
"""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

import numpy as np
from numpy.typing import NDArray

from bitdoku.kernels import status as codes
from bitdoku.parallel.threads import run_shared
from bitdoku.parallel.tree import Tally, Tree

#: Member i draws its runs from seed PORTFOLIO_SEED + i.
PORTFOLIO_SEED = 0x5EED
#: The ends of a member that did not answer: its share spent, or stopped by the member that did.
_NO_ANSWER = (codes.BUDGET_EXHAUSTED, codes.STOPPED)


def run_portfolio(tree: Tree, root: NDArray[np.uint8], tally: Tally, max_nodes: int, *, threads: int) -> bool:
    """Race ``threads`` seeded first-solution searches, each with its share of ``max_nodes``; returns False when
    every member spent its share without an answer."""
    if tally.limit > 1 or not tree.has_restarts:
        return run_shared(tree, root, tally, max_nodes, threads=threads, lifo=True)
    stop = tally.stop  # the time limit's flag too: a member that answers sets it for the others
    share = max(1, max_nodes // threads)

    def member(index: int) -> tuple[int, np.ndarray, np.ndarray]:
        outcome = tree.first_solution(root, PORTFOLIO_SEED + index, share, stop)
        assert outcome is not None  # has_restarts said so
        if outcome[0] not in _NO_ANSWER:
            stop[0] = 1
        return outcome

    with ThreadPoolExecutor(max_workers=threads) as pool:
        outcomes = list(pool.map(member, range(threads)))
    for _status, _solutions, stats in outcomes:
        tally.add_stats(stats)
    answers = [outcome for outcome in outcomes if outcome[0] not in _NO_ANSWER]
    if not answers:
        return False
    _status, solutions, _stats = answers[0]
    tally.add_solutions(solutions, len(solutions))
    return True
