"""The Sudoku Explainer (SE) difficulty scale: what a step costs a person, from 1.0 up.

SE, whose rating is the common scale of puzzle forums, rates a puzzle by the hardest step of its simplest-first
solve. A chain's rating grows with its length, slowly: ``length_bonus`` adds 0.1 each time the chain's length
passes the next threshold of the series 4, 6, 8, 12, 16, 24, 32, 48, ... (times 3/2 and 4/3 in turn), so a chain
twice as long costs about 0.2 more.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np


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


# -- SE's singles, the guess, and the levels as bands of the SE score -------------------------------------------

FULL_HOUSE = "Full House"
HIDDEN_SINGLE_BOX = "Hidden Single (box)"
HIDDEN_SINGLE_LINE = "Hidden Single (row/column)"
NAKED_SINGLE = "Naked Single"

#: SE's singles: a hidden single is 1.0 when its cell is the last empty one of the unit, 1.2 in a box, 1.5 in a
#: row or a column; a naked single is 2.3.
SINGLES_DIFFICULTY: dict[str, float] = {
    FULL_HOUSE: 1.0,
    HIDDEN_SINGLE_BOX: 1.2,
    HIDDEN_SINGLE_LINE: 1.5,
    NAKED_SINGLE: 2.3,
}

#: The SE score of a solve that had to guess: above every logical rule of the scale.
GUESS_DIFFICULTY = 10.0

#: The levels as bands of the SE score: (level, lowest score of the band). easy: singles and the direct rules
#: (below 2.5); medium: Direct Hidden Triple, locked candidates, pairs, triples, X-Wing, Swordfish (2.5 to 3.9);
#: hard: Hidden Triple, the two-link single-digit patterns, XY/XYZ-Wing, Unique Rectangles and Loops, quads,
#: Jellyfish, three strong links (4.0 to 5.5); expert: BUG, four strong links, Aligned Pair Exclusion, cycles and
#: the short forcing chains (5.6 to 6.9); extreme: longer and mixed chains, Aligned Triplet Exclusion, Nishio,
#: multiple, dynamic and nested forcing chains (7.0 and up); beyond logic: a guess was needed.
SE_BANDS: tuple[tuple[str, float], ...] = (
    ("easy", 0.0),
    ("medium", 2.5),
    ("hard", 4.0),
    ("expert", 5.6),
    ("extreme", 7.0),
)


def se_level(score: float) -> str:
    """The level whose band holds an SE score ("beyond logic" is not a band: it says that a solve guessed).

    >>> [se_level(s) for s in (1.2, 2.5, 4.2, 6.6, 8.3, 10.6)]
    ['easy', 'medium', 'hard', 'expert', 'extreme', 'extreme']
    """
    level = SE_BANDS[0][0]
    for name, low in SE_BANDS:
        if score >= low - 1e-9:
            level = name
    return level


def spearman(x: Sequence[float], y: Sequence[float]) -> float:
    """Spearman's rank correlation: the Pearson correlation of the ranks, ties given their average rank (the
    measure of how well a rating orders puzzles as SE does).

    >>> spearman([1, 2, 3, 4], [10, 20, 30, 40]), spearman([1, 2, 3], [3, 2, 1])
    (1.0, -1.0)
    """
    rx, ry = average_ranks(x), average_ranks(y)
    dx, dy = rx - rx.mean(), ry - ry.mean()
    scale = float(np.sqrt((dx * dx).sum() * (dy * dy).sum()))
    return float((dx * dy).sum() / scale) if scale else float("nan")


def average_ranks(values: Sequence[float]) -> np.ndarray:
    """Ranks from 1, equal values sharing the average of their ranks.

    >>> average_ranks([10, 30, 20, 30]).tolist()
    [1.0, 3.5, 2.0, 3.5]
    """
    data = np.asarray(values, dtype=float)
    order = np.argsort(data, kind="stable")
    ranks = np.empty(len(data))
    ranks[order] = np.arange(1, len(data) + 1, dtype=float)
    for value in np.unique(data):
        tied = data == value
        if tied.sum() > 1:
            ranks[tied] = ranks[tied].mean()
    return ranks
