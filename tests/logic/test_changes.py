"""The incremental SE ladder: a rung given the changes since it last found nothing finds what it finds on the
whole state (``bitdoku.logic.changes``)."""

import random
from collections import Counter

import pytest

from bitdoku import Grid
from bitdoku.logic import CandidateGrid, se
from bitdoku.logic.changes import Changes, LadderMemo, changes_between, digit_changed, digits_in
from bitdoku.logic.explain import default_max_steps
from bitdoku.logic.se import SE_LADDER, SeRung, se_solve

#: Puzzles whose solves pass many times through the middle of the ladder (subsets, fish, single-digit patterns,
#: wings) with a step of one or two cells between passes: top1465 #1 and #2, and two published SE ratings (a
#: VWXYZ-Wing at 6.3 and an X-Chain at 5.4).
PUZZLES = [
    "4...3.......6..8..........1....5..9..8....6...7.2........1.27..5.3....4.9........",
    "7.8...3.....2.1...5.........4.....263...8.......1...9..9.6....4....7.5...........",
    "4....8.625...278...6.5.....38....1...2.....9...5....73.....3.8...675...973.9....5",
    ".1.7.....4.6.2....9.21.5....48.9....6.1...5.7....5.84....5.37.2....7.9.6.....6.5.",
]


def test_changes_between_lists_the_removed_candidates():
    before = (0b111, 0b011, 0b100, 0b110)
    after = (0b101, 0b011, 0b000, 0b010)
    found = changes_between(before, after, 3)
    assert found == Changes(cells=0b1101, by_digit=(0, 0b0001, 0b1100))
    assert digits_in(found, 0b0001) == 0b010
    assert digits_in(found, 0b0010) == 0
    assert digit_changed(found, 2) and not digit_changed(found, 1) and digit_changed(None, 1)
    assert changes_between(after, before, 3) is None  # candidates came back: nothing may be skipped
    assert changes_between(before, after[:3], 3) is None


def test_memo_keeps_the_last_failure_of_each_rung():
    memo = LadderMemo()
    first, second = (0b11, 0b11), (0b01, 0b11)
    assert memo.changes(0, first, 2) is None
    memo.record(0, first, found=False)
    assert memo.changes(0, second, 2) == Changes(cells=0b01, by_digit=(0, 0b01))
    memo.record(0, second, found=True)
    assert memo.changes(0, second, 2) is None


def _checked(rung: SeRung, seen: Counter) -> SeRung:
    """The rung with its finder checked at each call with changes: the first step given the changes must be the
    first step on the whole state."""

    def find(cg, changes=None):
        step = next(rung.find(cg, changes), None)
        if changes is not None:
            whole = next(rung.find(cg), None)
            assert (step is None) == (whole is None), f"{rung.technique}: {step} given the changes, {whole} in all"
            if step is not None:
                assert (step.technique, step.eliminations, step.placements, step.cells, step.difficulty) == (
                    whole.technique, whole.eliminations, whole.placements, whole.cells, whole.difficulty)
            seen[rung.technique, step is not None] += 1
        return iter(() if step is None else (step,))

    return rung._replace(find=find)


@pytest.mark.parametrize("puzzle", PUZZLES)
def test_incremental_rungs_find_the_steps_of_the_whole_state(puzzle):
    seen: Counter = Counter()
    ladder = tuple(_checked(rung, seen) if rung.incremental else rung for rung in SE_LADDER)
    grid = Grid.parse(puzzle)
    checked = se_solve(grid, default_max_steps(grid.shape), ladder)
    # the check ran: many calls with changes, some of them finding a step (the memo is dropped then)
    assert sum(seen.values()) >= 20
    assert any(found for _, found in seen)
    plain = se_solve(grid, default_max_steps(grid.shape), SE_LADDER)
    assert (checked.score, checked.hardest, checked.counts) == (plain.score, plain.hardest, plain.counts)


def test_without_the_memo_the_solve_is_the_same(monkeypatch):
    """The straightforward path (every rung on the whole state) rates as the incremental one."""

    class NoMemo(LadderMemo):
        def changes(self, rung, masks, n):
            return None

    grid = Grid.parse(PUZZLES[2])
    fast = se_solve(grid, default_max_steps(grid.shape))
    monkeypatch.setattr(se, "LadderMemo", NoMemo)
    slow = se_solve(grid, default_max_steps(grid.shape))
    assert (fast.score, fast.hardest, fast.counts, fast.difficulties) == (
        slow.score, slow.hardest, slow.counts, slow.difficulties)


def _stalled_states(puzzle: str, every: int) -> list[CandidateGrid]:
    """Every ``every``-th state where the singles stalled in the solve of a puzzle."""
    states: list[CandidateGrid] = []
    real = se.next_se_step

    def keep(state, ladder=SE_LADDER, memo=None):
        states.append(state)
        return real(state, ladder, memo)

    se.next_se_step = keep
    try:
        grid = Grid.parse(puzzle)
        se_solve(grid, default_max_steps(grid.shape))
    finally:
        se.next_se_step = real
    return states[::every]


def test_incremental_finders_after_random_removals():
    """From a state where an incremental rung finds nothing, remove a few random candidates: given the changes,
    the rung finds the step it finds on the whole new state (new patterns appear, and must not be skipped)."""
    rng = random.Random(13)
    rungs = [rung for rung in SE_LADDER if rung.incremental]
    hits: Counter = Counter()
    for state in _stalled_states(PUZZLES[0], 6)[:4]:
        for rung in rungs:
            if next(rung.find(state), None) is not None:
                continue
            for _ in range(12):
                masks = list(state.masks)
                for cell in rng.sample([c for c, m in enumerate(masks) if m.bit_count() >= 3], 3):
                    digits = [d for d in range(9) if masks[cell] >> d & 1]
                    masks[cell] &= ~(1 << rng.choice(digits))
                after = CandidateGrid(state.values, tuple(masks), state.shape)
                changes = changes_between(state.masks, after.masks, 9)
                step = next(rung.find(after, changes), None)
                whole = next(rung.find(after), None)
                assert (step is None) == (whole is None), f"{rung.technique}: {step} given the changes, {whole} in all"
                if step is not None:
                    assert (step.technique, step.eliminations, step.placements, step.cells, step.difficulty) == (
                        whole.technique, whole.eliminations, whole.placements, whole.cells, whole.difficulty)
                    hits[rung.technique] += 1
    # the check saw new steps of most kinds of incremental rung
    assert len(hits) >= 8, hits


def test_the_strong_link_rungs_search_only_as_long_as_they_need():
    """SE's Turbot Fish / 3 / 4 Strong Links rungs search X-Chains of at most 3 / 5 / 7 links and share the result
    of the longest bound asked on a state: their steps are those of the unbounded search (13 links) that fit, in
    any order of asking."""
    from bitdoku.logic import single_digit

    rungs = [rung for rung in SE_LADDER if rung.technique in (se.TURBOT_FISH, se.THREE_LINKS, se.FOUR_LINKS)]
    assert len(rungs) == 3
    found = Counter()
    for puzzle in PUZZLES:
        for state in _stalled_states(puzzle, 3):
            every = list(single_digit.find_x_chains(state))
            for order in (rungs, rungs[::-1]):
                for rung in order:
                    fits = [s for s in every if len(s.cells) <= int(rung.find.__name__.rsplit("_", 1)[1])]
                    assert list(rung.find(state)) == fits, rung.technique
                    found[rung.technique] += bool(fits)
    assert all(found[rung.technique] for rung in rungs), found
