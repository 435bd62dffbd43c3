"""The Sudoku Explainer (SE) difficulty scale: what a step costs a person, from 1.0 up.

SE, whose rating is the common scale of puzzle forums, rates a puzzle by the hardest step of its simplest-first
solve. A chain's rating grows with its length, slowly: ``length_bonus`` adds 0.1 each time the chain's length
passes the next threshold of the series 4, 6, 8, 12, 16, 24, 32, 48, ... (times 3/2 and 4/3 in turn), so a chain
twice as long costs about 0.2 more.
"""

from __future__ import annotations


def length_bonus(length: int) -> float:
    """The rating added to a chain's base difficulty for ``length`` (SE's complexity minus 2: the nodes past
    the two ends).

    >>> [length_bonus(n) for n in (2, 4, 5, 6, 7, 9, 13, 17, 25)]
    [0.0, 0.0, 0.1, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6]
    """
    steps, ceiling, times_three_halves = 0, 4, True
    while length > ceiling:
        steps += 1
        ceiling = ceiling * 3 // 2 if times_three_halves else ceiling * 4 // 3
        times_three_halves = not times_three_halves
    return round(steps / 10, 1)
