"""Forcing chains (``logic.forcing``): mined positions where each family is the first to fire, soundness over
stalled states of the sample puzzles, hard puzzles solved to the end without a guess, and other box shapes."""

from __future__ import annotations

import re
from itertools import islice
from typing import NamedTuple

import pytest

import bitdoku
from bitdoku import Grid
from bitdoku.data import sample_lines
from bitdoku.logic import forcing
from bitdoku.logic.candidates import CandidateGrid
from bitdoku.logic.difficulty import length_bonus
from bitdoku.logic.explain import CLASSIC_LADDER, explain, next_step
from bitdoku.logic.step import GUESS
from tests.logic.checks import assert_sound, named

#: The finders in the order a ladder tries them (the cell and unit rungs apart, as the mined cases need).
ORDER = (
    "find_nishio",
    "find_cell_forcing_chains",
    "find_unit_forcing_chains",
    "find_dynamic_forcing_chains",
    "find_dynamic_plus_forcing_chains",
    "find_nested_forcing_chains",
)
#: SE base difficulty of each finder's steps (nested: the lowest level).
BASE = dict(zip(ORDER, (7.5, 8.0, 8.0, 8.5, 9.0, 9.5), strict=True))


class Mined(NamedTuple):
    """A position (pencil marks, from the solve of ``puzzle`` by the ladder until it stalls) where ``finder`` is
    the first forcing finder to fire, and its first step."""

    finder: str
    puzzle: str
    marks: str
    placements: tuple[tuple[str, int], ...]
    eliminations: tuple[tuple[str, int], ...]
    difficulty: float


MINED = (
    Mined(
        "find_nishio",
        "2..7..1......5..9...1..4..3......8......4..6...9..6..27..5..6...5..7..3...6..3..1",
        (
            ".2.........34.6.89..345..8.......7....3..6.89.......891...........4...8....456.8...34.6.8...34.6.8.."
            ".34..78.123....8.....5....12.....8..2.4.............9...4.678.....56.89.....67891.........2.....89.2"
            "...6.89...4......2..5.7...2..5.78...3......1.34.6...1234.6....2345.7..123.....9123.....9....5.7....."
            "....8.1..4........45.7.91.3....8.123....8..23.5.78.123....89...4.........5.7....3.....9.....6......."
            "5.7.91.345..8.1.34..78.........91.3....8.1.3....8......6.....345.7..1..45.7...2.............7..1234."
            "..89.234...8.....5....12.....8912.....89.....6....2.4...8....4...891..4...89....5.....2.4...8......6"
            ".........7..12.....89.2.4....9..3.........4...89.......89.2.....89.....6......4......2.....89..3...."
            "......5.7......5.7..1........"
        ),
        (),
        (('r4c1', 1),),
        7.8,
    ),
    Mined(
        "find_cell_forcing_chains",
        "4...3.......6..8..........1....5..9..8....6...7.2........1.27..5.3....4.9........",
        (
            "...4.........56..912...6.8.....5.789..3......1...5.78..2..5.....2..567......567.9123...7....3.5...91"
            "2............6...12....7..1..45.7.9.......8..23.5.7....345.7.9.23..678...3.56..9.2...6.8....45.789.2"
            "....78....45.789.2345.....23.567..1........123..6.....34.6...12.4.6.....3...78.....5....1.3..678..23"
            "..............9..3...78.123.............8.....5...9...4..7.91.....7..1.34..7.9.....6...123.5.7....3."
            "5.7..1.3..6.........7......5...9.2.......1....6.8.1.3..6.89..345....1.3.5..8...345..8......6.8....4."
            "6......4.6.8.1................9.2.............7....3.5......3.5........5....1..........3............"
            "78......678......678.........9...4......2...............9.2.............7....3.5.......4.......3.5.."
            "..1.............6.8......6.8."
        ),
        (),
        (('r1c6', 5),),
        8.2,
    ),
    Mined(
        "find_unit_forcing_chains",
        "4...3.......6..8..........1....5..9..8....6...7.2........1.27..5.3....4.9........",
        (
            "...4.........56..912...6.8.....5.789..3......1...5.789.2..5.....2..567......567.9123...7....3.5...91"
            "2............6...12....7..1..45.7.9.......8..23.5.7....345.7.9.23..678...3.56..9.2...6.8....45.789.2"
            "....78....45.789.2345.....23.567..1........123..6.....34.6...12.4.6.....3...78.....5....1.3..678..23"
            "..............9..3...78.123.............8.....5...9..34..7.91.....7..1.34..7.9.....6...123.5.7....3."
            "5.7..1.3..6.........7......5...9.2.......1....6.8.1.3..6.89..345....1.3.5..8...345..8......6.8....4."
            "6......4.6.8.1................9.2.............7....3.5......3.5........5....1..........3............"
            "78......678......678.........9...4......2...............9.2.............7....3.5.......4.......3.5.."
            "..1.............6.8......6.8."
        ),
        (),
        (('r1c6', 9),),
        8.3,
    ),
    Mined(
        "find_dynamic_forcing_chains",
        "4...3.......6..8..........1....5..9..8....6...7.2........1.27..5.3....4.9........",
        (
            "...4.........56..912...6.8.....5.789..3......1.....78..2..5.....2..567......567.9123...7....3.5...91"
            "2............6...12....7..1..45.7.9.......8..23.5.7....345.7.9.23..678...3.56..9.2...6.8....45.789.2"
            "....78....45.789.2345.....23.567..1........123..6.....34.6...12.4.6.....3...78.....5....1.3..678..23"
            "..............9..3...78.123.............8.....5...9...4....91.....7..1.34..7.9.....6...123.5.7....3."
            "5.7..1.3..6.........7......5...9.2.......1....6.8.1.3..6.89..345....1.3.5..8...345..8......6.8....4."
            "6......4.6.8.1................9.2.............7....3.5......3.5........5....1..........3............"
            "78......678......678.........9...4......2...............9.2.............7....3.5.......4.......3.5.."
            "..1.............6.8......6.8."
        ),
        (),
        (('r3c7', 2),),
        8.9,
    ),
    Mined(
        "find_dynamic_plus_forcing_chains",
        "........8..3...4...9..2..6.....79.......612...6.5.2.7...8...5...1.....2.4.5.....3",
        (
            "12..567...2.45.7..12.4.67..1.3..67.91..45...9..34567..1.3...7.91.3.5...9.......8.1...5678.....5.78.."
            ".3......1....67891...5..89....5678....4.....1...5...9.2.......1...5.78.........91..4..7..1.34..78..2"
            ".........345.78.1.3...7.......6...1...5.7..123.5..8..2345..8.12.4.......34...8.......7..........91.3"
            "..6.8.1.345..8.1..456.....3.5.789..345.78....4..7.9..34...8......6...1.........2.........345..89...4"
            "5...91.3....89.....6...1..4....9....5......34...8..2.......1.3....89......7..1..4....9.23..67.9.23.."
            ".7.........8.1234.67.91.34....9..34.67......5....1..4....91..4.67.9..3..67.91.............67.9..34.6"
            "789..345..89..345678......6789.2..........4.67.9...4......2....7......5....12...67891......89.....67"
            "8.1....67891......89..3......"
        ),
        (),
        (('r8c6', 3),),
        9.6,
    ),
    Mined(
        "find_nested_forcing_chains",
        "........8..3...4...9..2..6.....79.......612...6.5.2.7...8...5...1.....2.4.5.....3",
        (
            "12..567...2.45.7..12.4.67..1.34.67.91.345...9..34567..1.3...7.91.3.5...9.......8.1...5678.....5.78.."
            ".3......1....67891...5..89....5678....4.....1...5...9.2.......1...5.78.........91..4..7..1.34..78..2"
            ".........345.78.1.3...7.......6...1...5.7..123.5..8..2345..8.12.4.......34...8.......7..........91.3"
            "..6.8.1.345..8.1..456.....3.5.789..345.78....4..7.9..34...8......6...1.........2.........345..89...4"
            "5...91.3....89.....6...1..4....9....5......34...8..2.......1.3....89......7..1..4....9.23..67.9.23.."
            ".7.........8.1234.67.91.34....9..34.67......5....1..4....91..4.67.9..3..67.91.............67.9..34.6"
            "789..345..89..345678......6789.2..........4.67.9...4......2....7......5....12...67891......89.....67"
            "8.1....67891......89..3......"
        ),
        (),
        (('r6c5', 4),),
        10.4,
    ),)


def _solution(puzzle: str, shape: str | None = None) -> Grid:
    found = bitdoku.solve(Grid.parse(puzzle, shape) if shape else Grid.parse(puzzle))
    assert found is not None
    return found


def _complexity(text: str) -> int:
    match = re.search(r", (\d+) nodes \(", text)
    assert match, text
    return int(match.group(1))


@pytest.mark.parametrize("case", MINED, ids=[case.finder for case in MINED])
def test_mined_first_to_fire(case: Mined) -> None:
    """The earlier finders find nothing; this one's first step is the recorded one, sound, rated by SE's rule."""
    state = CandidateGrid.parse(case.marks)
    for earlier in ORDER[: ORDER.index(case.finder)]:
        assert next(getattr(forcing, earlier)(state), None) is None, earlier
    step = next(getattr(forcing, case.finder)(state))
    assert named(step.placements, 9) == case.placements
    assert named(step.eliminations, 9) == case.eliminations
    assert step.difficulty == case.difficulty
    assert step.difficulty >= BASE[case.finder]
    if case.finder != "find_nested_forcing_chains":
        assert step.difficulty == round(BASE[case.finder] + length_bonus(_complexity(step.text) - 2), 1)
    assert step.text and step.cells and step.before == state
    assert bool(step.units) == ("wherever" in step.text)  # a unit forcing chain shows its unit
    assert_sound(step, _solution(case.puzzle))


def test_easiest_first() -> None:
    """A finder yields its steps by increasing difficulty, each deduction once."""
    state = CandidateGrid.parse(MINED[3].marks)
    steps = list(islice(forcing.find_dynamic_forcing_chains(state), 40))
    assert len(steps) > 5
    ratings = [step.difficulty for step in steps]
    assert ratings == sorted(ratings)
    changes = [(step.placements, step.eliminations) for step in steps]
    assert len(set(changes)) == len(changes)


def _stalled_states(lines: list[str], per_puzzle: int) -> list[tuple[CandidateGrid, Grid]]:
    """Positions where the first release's ladder stalls in the guessing solve of each puzzle (the forcing chains
    are tried on many kinds of states: where static chains would also have worked, and where they would not)."""
    found = []
    for line in lines:
        solution = _solution(line)
        taken = 0
        for step in explain(line, guess=True, ladder=CLASSIC_LADDER):
            if step.technique == GUESS:
                found.append((step.before, solution))
                taken += 1
                if taken == per_puzzle:
                    break
    return found


FAST_FINDERS = ORDER[:5]


def test_sound_on_stalled_states() -> None:
    """Every step of the first few per finder is sound, over stalled states of the top1465 and hardest samples."""
    states = _stalled_states(sample_lines("top1465_sample.txt") + sample_lines("hardest_sample.txt"), 1)
    assert len(states) > 20
    fired = dict.fromkeys(FAST_FINDERS, 0)
    for state, solution in states:
        for name in FAST_FINDERS:
            for step in islice(getattr(forcing, name)(state), 3):
                assert_sound(step, solution)
                assert step.technique and step.difficulty is not None
                fired[name] += 1
    assert all(fired.values()), fired


def test_hard_puzzles_solved_without_guess() -> None:
    """The existing ladder, then the forcing finders in order, solve hard puzzles to the end (no guess)."""
    finders = [finder for _, finder in forcing.FINDERS]
    for line in sample_lines("hardest_sample.txt")[1:2]:
        solution = _solution(line)
        state = CandidateGrid.from_grid(Grid.parse(line))
        while not state.is_solved():
            step = next_step(state)
            if step is None:
                step = next((s for finder in finders for s in islice(finder(state), 1)), None)
                assert step is not None, state.to_pencilmarks()
            assert_sound(step, solution)
            state = state.apply(step)
        assert state.to_grid() == solution


@pytest.mark.parametrize(
    ("puzzle", "shape"),
    [
        (sample_lines("sample16x16.txt")[0], None),
        ("..3..5..1...3..5.2.4....6.......2..1", "3x2"),
    ],
    ids=["16x16", "6x6"],
)
def test_other_shapes(puzzle: str, shape: str | None) -> None:
    """On 16x16 and 6x6 grids the finders fire and stay sound."""
    grid = Grid.parse(puzzle, shape) if shape else Grid.parse(puzzle)
    solution = _solution(puzzle, shape)
    state = CandidateGrid.from_grid(grid)
    for name in FAST_FINDERS:
        steps = list(islice(getattr(forcing, name)(state), 3))
        assert steps, name
        for step in steps:
            assert_sound(step, solution)


def test_a_search_does_not_read_the_scratch_another_left() -> None:
    """The search kernel's scratch (every run's derivations) is kept between searches: a search on scratch that
    a bigger search filled, or that holds junk, finds the same conclusions as on fresh scratch."""
    states = [CandidateGrid.parse(case.marks) for case in MINED[:4]]
    modes = (forcing.MODE_NISHIO, forcing.MODE_MULTIPLE, forcing.MODE_DYNAMIC)

    def conclusions(state: CandidateGrid, mode: forcing.Mode) -> list:
        _arr, ranked = forcing._search(state, mode)
        return [tuple(hint) for hint in ranked]

    forcing._SCRATCH.arrays = None
    fresh = {}
    for state in states:
        for mode in modes:
            forcing._SCRATCH.arrays = None
            fresh[state, mode] = conclusions(state, mode)
    biggest = max(states, key=lambda state: forcing._arrays(state).size)
    assert any(fresh.values())
    for junk in (0, 255, 7):  # every byte
        for state in states:
            for mode in modes:
                conclusions(biggest, forcing.MODE_DYNAMIC)  # scratch as a bigger search leaves it
                for array in forcing._SCRATCH.arrays:
                    array.view("uint8").fill(junk)
                assert conclusions(state, mode) == fresh[state, mode], (junk, mode.technique)


def test_compiled_grid_arrays_are_the_numpy_ones() -> None:
    """``forcing._arrays`` (one compiled call) builds what the numpy reference builds, array for array and
    dtype for dtype, on 9x9 stalled states (and the same with whole digits removed, as Nishio's part grids are),
    a 16x16 and a 6x6 grid."""
    import numpy as np

    states = [state for state, _solution in _stalled_states(sample_lines("top1465_sample.txt")[:6], 2)]
    states += [CandidateGrid(s.values, tuple(m & 0b101010101 for m in s.masks), s.shape) for s in states]
    states.append(CandidateGrid.from_grid(Grid.parse(sample_lines("sample16x16.txt")[0])))
    states.append(CandidateGrid.from_grid(Grid.parse("..3..5..1...3..5.2.4....6.......2..1", "3x2")))
    for state in states:
        compiled, reference = forcing._arrays.__wrapped__(state), forcing._arrays_numpy(state)
        for name in compiled.__dataclass_fields__:
            a, b = getattr(compiled, name), getattr(reference, name)
            if isinstance(a, np.ndarray):
                assert a.dtype == b.dtype and np.array_equal(a, b), name
            else:
                assert a == b, name


def test_static_runs_on_fixed_links_find_what_the_general_drain_finds(monkeypatch) -> None:
    """Cell and unit forcing chains (static runs) walk fixed "off" links (``fast._drain_static``): every
    conclusion, its complexity and the order are those of the general propagation (``STATIC_LINKS = False``),
    on stalled states and the same with random candidates removed, and the steps (sentences) are the same."""
    import random

    rng = random.Random(8)
    states = [state for state, _solution in _stalled_states(sample_lines("top1465_sample.txt")[:8], 2)]
    for state in list(states):
        cut = list(state.masks)
        for cell in rng.sample(range(81), 25):
            if cut[cell].bit_count() > 2:
                cut[cell] &= ~(1 << rng.choice([k for k in range(9) if cut[cell] >> k & 1]))
        states.append(CandidateGrid(state.values, tuple(cut), state.shape))
    modes = (forcing.MODE_MULTIPLE, forcing.MODE_CELL, forcing.MODE_UNIT)

    def found() -> list:
        out = []
        for state in states:
            for mode in modes:
                _arr, ranked = forcing._search(state, mode)
                out.append([tuple(hint) for hint in ranked])
            out.append([step.text for step in islice(forcing.find_multiple_forcing_chains(state), 3)])
        return out

    fixed = found()
    monkeypatch.setattr(forcing, "STATIC_LINKS", False)
    assert found() == fixed
    assert sum(len(hints) for hints in fixed) > 1000
