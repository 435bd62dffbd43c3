"""Seeds: one root seed for a run, one independent stream for each puzzle of it.

Puzzle ``i`` of a run draws only from the stream ``SeedSequence(root, spawn_key=(i,))`` (NumPy's way of making
independent child streams), so what it becomes does not depend on which thread makes it or on how many puzzles
were asked for: the same seed gives the same puzzles on any number of cores.
"""

from __future__ import annotations

from typing import cast

import numpy as np
from numpy.typing import NDArray

Seed = int | np.random.Generator | np.random.SeedSequence | None


def root_sequence(seed: Seed) -> np.random.SeedSequence:
    """The run's root: from an integer, a NumPy generator (one draw), a seed sequence, or fresh entropy."""
    if isinstance(seed, np.random.SeedSequence):
        return seed
    if isinstance(seed, np.random.Generator):
        return np.random.SeedSequence(int(seed.integers(0, 2**63)))
    if seed is not None and (isinstance(seed, bool) or not isinstance(seed, (int, np.integer)) or seed < 0):
        raise ValueError(f"a seed is a non-negative integer, a numpy Generator or None, not {seed!r}")
    return np.random.SeedSequence(None if seed is None else int(seed))


def puzzle_stream(root: np.random.SeedSequence, index: int) -> NDArray[np.uint64]:
    """The kernel random state (``kernels.rng``) of puzzle ``index`` of a run."""
    child = np.random.SeedSequence(root.entropy, spawn_key=(*root.spawn_key, index))
    return cast("NDArray[np.uint64]", child.generate_state(1, np.uint64))  # its stub: uint32 | uint64, any dtype


def root_seed(root: np.random.SeedSequence) -> int | None:
    """The integer that recreates a root (``root_sequence(root_seed(r))``), when it is a plain one."""
    entropy = root.entropy
    return int(entropy) if isinstance(entropy, int) and not root.spawn_key else None
