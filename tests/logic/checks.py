"""Helpers shared by the technique tests: run a mined case and check steps against the unique solution."""

from __future__ import annotations

from collections.abc import Callable, Iterator

import bitdoku
from bitdoku import Grid
from bitdoku.errors import cell_name
from bitdoku.logic.candidates import CandidateGrid
from bitdoku.logic.changes import Changes, changes_between
from bitdoku.logic.explain import CLASSIC_LADDER, next_step
from bitdoku.logic.step import Step
from tests.logic.cases import CASES, Case

Finder = Callable[[CandidateGrid], Iterator[Step]]


def cases_of(*techniques: str) -> list[Case]:
    """The mined cases of the given techniques, every shape."""
    found = [case for case in CASES if case.technique in techniques]
    assert found, techniques
    return found


def named(pairs: tuple[tuple[int, int], ...], n: int) -> tuple[tuple[str, int], ...]:
    return tuple((cell_name(cell, n), digit) for cell, digit in pairs)


def assert_sound(step: Step, solution: Grid) -> None:
    """A placement puts the solution's digit; an elimination never removes it."""
    for cell, digit in step.placements:
        assert solution[cell] == digit, step.text
    for cell, digit in step.eliminations:
        assert solution[cell] != digit, step.text


def check_case(case: Case, finder: Finder) -> Step:
    """The ladder picks this technique in this position (so no easier one applies), the technique's own finder
    finds the same step first, the changes are exactly the recorded ones, and they agree with the solution."""
    state = CandidateGrid.parse(case.marks, shape=case.shape)
    if case.technique == "Naked Single":
        state = _reopen(state, case.placements)
    step = next_step(state, CLASSIC_LADDER)  # the cases were mined with the first release's ladder
    assert step is not None
    assert step.technique == case.technique
    assert named(step.placements, state.n) == case.placements
    assert named(step.eliminations, state.n) == case.eliminations
    assert next(finder(state)) == step
    assert step.text and step.cells
    solution = bitdoku.solve(Grid.parse(case.puzzle, shape=case.shape))
    assert solution is not None
    for cell, value in enumerate(solution.cells):  # the position itself is consistent with the solution
        assert state.value(cell) == value or state.has(cell, value)
    assert_sound(step, solution)
    return step


def _reopen(state: CandidateGrid, placements: tuple[tuple[str, int], ...]) -> CandidateGrid:
    """Pencil marks write a cell with one candidate as solved; make the naked single's cell open again."""
    values, masks = bytearray(state.values), list(state.masks)
    for name, digit in placements:
        row, col = (int(part) for part in name[1:].split("c"))
        cell = (row - 1) * state.n + col - 1
        values[cell], masks[cell] = 0, 1 << (digit - 1)
    return CandidateGrid(bytes(values), tuple(masks), state.shape)


def stalled_states(count: int) -> list[CandidateGrid]:
    """The first ``count`` positions of the shipped top1465 sample where the first release's ladder stalls: states
    that need more than its 25 techniques, to try a new finder on."""
    from bitdoku.data import sample_lines
    from bitdoku.logic.explain import explain

    states = []
    for line in sample_lines("top1465_sample.txt"):
        *_, last = explain(line, ladder=CLASSIC_LADDER)
        if last.technique == "Stalled":
            states.append(last.before)
        if len(states) == count:
            break
    return states


def solve_states(top: int, famous: int = 0, every: int = 2) -> Iterator[CandidateGrid]:
    """The states before every ``every``-th step of the full explanations of the first ``top`` top1465 sample
    puzzles and the first ``famous`` famous ones: where the ladder calls its finders."""
    from bitdoku.data import sample_lines
    from bitdoku.logic import explain

    for line in sample_lines("top1465_sample.txt")[:top] + sample_lines("famous.txt")[:famous]:
        for index, step in enumerate(explain(line, guess=True)):
            if index % every == 0:
                yield step.before


def whole_and_thinned(state: CandidateGrid, masks: list[int]) -> tuple[tuple[CandidateGrid, Changes | None], ...]:
    """A finder's three calls on a state: whole, ``masks`` (fewer candidates) whole, and ``masks`` given what
    changed since ``state`` (the ladder memo's call)."""
    thinned = CandidateGrid(state.values, tuple(masks), state.shape)
    return (state, None), (thinned, None), (thinned, changes_between(state.masks, masks, state.n))


def compiled_finds_the_python_steps(monkeypatch, module, finder: Callable[..., Iterator[Step]], state: CandidateGrid,
                                    changes: Changes | None = None) -> int:
    """Run ``finder`` with ``module.COMPILED`` off, then on; assert the same steps in the same order (text,
    eliminations, cells, units, difficulty) and return how many."""
    ways = []
    for compiled in (False, True):
        monkeypatch.setattr(module, "COMPILED", compiled)
        steps = finder(state) if changes is None else finder(state, changes)
        ways.append([(s.text, s.eliminations, s.cells, s.units, s.difficulty) for s in steps])
    assert ways[0] == ways[1]
    return len(ways[0])
