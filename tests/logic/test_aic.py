"""AICs, grouped AICs, nice loops (``logic.chains``) and Sudoku Explainer's cycles and forcing chains
(``logic.se_chains``): mined positions with their exact steps, a check of the SE finder against a direct,
potential-by-potential transcription of SE's search, soundness over real solves, and a 16x16 grid."""

from __future__ import annotations

from importlib import resources
from typing import NamedTuple

import pytest

import bitdoku
from bitdoku import Grid, Shape
from bitdoku.logic import chains, links, se_chains
from bitdoku.logic.candidates import CandidateGrid
from bitdoku.logic.explain import CLASSIC_LADDER, explain
from bitdoku.logic.step import GUESS
from tests.logic.checks import assert_sound, named

FINDERS = {
    "find_aics": chains.find_aics,
    "find_grouped_aics": chains.find_grouped_aics,
    "find_continuous_nice_loops": chains.find_continuous_nice_loops,
    "find_discontinuous_nice_loops": chains.find_discontinuous_nice_loops,
    "find_se_chains": se_chains.find_se_chains,
}


class MinedCase(NamedTuple):
    """A position (pencil marks) where the finder's first step is the one recorded. The top1465_sample positions
    are states where ``explain`` stalled (every technique of today's ladder failed); the SE ones are states of a
    solve rated by SE 6.5-7.4 (se_rated_sudoku_exchange_dev) where no technique below SE's chains applied."""

    finder: str
    technique: str
    source: str
    puzzle: str
    marks: tuple[str, ...]
    placements: tuple[tuple[str, int], ...]
    eliminations: tuple[tuple[str, int], ...]
    difficulty: float | None

    def __str__(self) -> str:
        return f"{self.finder}: {self.technique}"


CASES = [
    MinedCase(
        'find_aics',
        'AIC',
        'top1465_sample',
        '2..7..1......5..9...1..4..3......8......4..6...9..6..27..5..6...5..7..3...6..3..1',
        (
            '.2.........34.6.89..345..8.......7....3..6.89.......891...........4...8....456.8...34.6.8...34.6'
            '.8...34..78.123....8.....5....12.....8..2.4.............9...4.678.....56.89.....67891.........2.'
            '....89.2...6.89...4......2..5.7...2..5.78...3......1.34.6...1234.6....2345.7..123.....9123.....9'
            '....5.7.........8.1..4........45.7.91.3....8.123....8..23.5.78.123....89...4.........5.7....3...'
            '..9.....6.......5.7.91.345..8.1.34..78.........91.3....8.1.3....8......6.....345.7..1..45.7...2.'
            '............7..1234...89.234...8.....5....12.....8912.....89.....6....2.4...8....4...891..4...89'
            '....5.....2.4...8......6.........7..12.....89.2.4....9..3.........4...89.......89.2.....89.....6'
            '......4......2.....89..3..........5.7......5.7..1........'
        ),
        (),
        (('r7c8', 8),),
        7.1,
    ),
    MinedCase(
        'find_grouped_aics',
        'Grouped AIC',
        'top1465_sample',
        '4...3.......6..8..........1....5..9..8....6...7.2........1.27..5.3....4.9........',
        (
            '...4.........56..912...6.8.....5.789..3......1...5.789.2..5.....2..567......567.9123...7....3.5.'
            '..912............6...12....7..1..45.7.9.......8..23.5.7....345.7.9.23..678...3.56..9.2...6.8....'
            '45.789.2....78....45.789.2345.....23.567..1........123..6.....34.6...12.4.6.....3...78.....5....'
            '1.3..678..23..............9..3...78.123.............8.....5...9..34..7.91.....7..1.34..7.9.....6'
            '...123.5.7....3.5.7..1.3..6.........7......5...9.2.......1....6.8.1.3..6.89..345....1.3.5..8...3'
            '45..8......6.8....4.6......4.6.8.1................9.2.............7....3.5......3.5........5....'
            '1..........3............78......678......678.........9...4......2...............9.2.............'
            '7....3.5.......4.......3.5....1.............6.8......6.8.'
        ),
        (),
        (('r1c6', 9),),
        7.2,
    ),
    MinedCase(
        'find_continuous_nice_loops',
        'Continuous Nice Loop',
        'top1465_sample',
        '9.4..5...25.6..1..31......8.7...9...4..26......147....7.......2...3..8.6.4.....9.',
        (
            '........9.....6......4.....1......8.1......8.....5.....23...7...23........3...7...2...........5.'
            '..........8......6.....3............7..1...........4.............9..3......1..............7.....'
            '.....9.2.4......2.4.........56.......56..........8......6.8.......7...23..6...1...5..8.1...5..8.'
            '........9.23..6...123..6.8....4........4.......3....89..3.5...9.2............6...1.3....8...3.5.'
            '7.91.3.5..8.1.3.5.7......56.8..23....891...........4...........7....3....8..23.56..9.23.56.8...3'
            '.5..........7....3....89..3.56..91...5..8.1...5..891....6.8....4.....1.3.5.....2.......1...5....'
            '.2......9.2..5...9..3......12.45...912.4............8.......7.......6...1...56.8....4......23.56'
            '.........7..12..5..8.12...6.8...3.5............91.3.5....'
        ),
        (),
        (
            ('r4c3', 6), ('r5c3', 3), ('r5c7', 3), ('r5c8', 3), ('r5c9', 3), ('r6c7', 3), ('r6c7', 5), ('r6c8', 3),
            ('r6c8', 5), ('r7c2', 9),
        ),
        7.3,
    ),
    MinedCase(
        'find_discontinuous_nice_loops',
        'Discontinuous Nice Loop',
        'top1465_sample',
        '...8....9.873...4.6..7.......85..97...........43..75.......3....3...145.4....2..1',
        (
            '..3......12..5....12.45...........8.12.4.6......456.........7..12...6...........912..5...9......'
            '.8.......7....3......12...6.......56..912...6......4......2..56........6...12..5...912.45...9...'
            '...7..12.4........45...9123....8.123....8..23.5..8.12.......12...6..........8.....5......34.6...'
            '...4.6...........9......7...234.6....2..5.7.9.2..567.9.2..56..912.........34.6..9.......8.123..6'
            '...123..6....234.6....2......9...4.......3......12............6..9......7......5....12...6.8..2.'
            '..6.8.12..5.78912..567.912..56..9...4.........5.78...3.......2...6.8..2...6.89.2...678..2....789'
            '..3.......2...6..9.....6..9......78.1...........4.........5.....2...678....4.........567.9....56'
            '..9.....6..9....5.78..2.........3..6.8...3..6.891........'
        ),
        (('r4c5', 3),),
        (),
        7.2,
    ),
    MinedCase(
        'find_discontinuous_nice_loops',
        'Discontinuous Nice Loop',
        'top1465_sample',
        '2..7..1......5..9...1..4..3......8......4..6...9..6..27..5..6...5..7..3...6..3..1',
        (
            '.2.........34.6.89..345..8.......7....3..6.89.......891...........4...8....456.8...34.6.8...34.6'
            '.8...34..78.123....8.....5....12.....8..2.4.............9...4.678.....56.89.....67891.........2.'
            '....89.2...6.89...4......2..5.7...2..5.78...3......1.34.6...1234.6....2345.7..123.....9123.....9'
            '....5.7.........8.1..4........45.7.91.3....8.123....8..23.5.78.123....89...4.........5.7....3...'
            '..9.....6.......5.7.91.345..8.1.34..78.........91.3....8.1.3....8......6.....345.7..1..45.7...2.'
            '............7..1234...89.234...8.....5....12.....8912.....89.....6....2.4...8....4...891..4...89'
            '....5.....2.4...8......6.........7..12.....89.2.4....9..3.........4...89.......89.2.....89.....6'
            '......4......2.....89..3..........5.7......5.7..1........'
        ),
        (),
        (('r7c8', 8),),
        7.1,
    ),
    MinedCase(
        'find_se_chains',
        'Forcing Chain',
        'top1465_sample',
        '2..7..1......5..9...1..4..3......8......4..6...9..6..27..5..6...5..7..3...6..3..1',
        (
            '.2.........34.6.89..345..8.......7....3..6.89.......891...........4...8....456.8...34.6.8...34.6'
            '.8...34..78.123....8.....5....12.....8..2.4.............9...4.678.....56.89.....67891.........2.'
            '....89.2...6.89...4......2..5.7...2..5.78...3......1.34.6...1234.6....2345.7..123.....9123.....9'
            '....5.7.........8.1..4........45.7.91.3....8.123....8..23.5.78.123....89...4.........5.7....3...'
            '..9.....6.......5.7.91.345..8.1.34..78.........91.3....8.1.3....8......6.....345.7..1..45.7...2.'
            '............7..1234...89.234...8.....5....12.....8912.....89.....6....2.4...8....4...891..4...89'
            '....5.....2.4...8......6.........7..12.....89.2.4....9..3.........4...89.......89.2.....89.....6'
            '......4......2.....89..3..........5.7......5.7..1........'
        ),
        (),
        (('r7c8', 8),),
        7.1,
    ),
    MinedCase(
        'find_se_chains',
        'Bidirectional X-Cycle',
        'se_rated_sudoku_exchange_dev',
        '...3..92...59.18.....74...19.....47...4...6...72.....51...53.....82.61...36..9...',
        (
            '...4.6.8.1..4...8.1.....7....3...........6.8.....5............9.2..........4..7...234.67...2.4.6'
            '.......5............9.2...6...1...............8...34.6.....3..67...23..6.8..2...6.89..3.....9...'
            '...7.....4......2.....8.....5......3..6...1................9....56...1.3..........56...1.3......'
            '.2.....8....4...........7...2.....8...3.5..8.1...5..8....4.....1...5..8..23....89......7.......6'
            '...1......89.2.....89.....6.8.......7...2.......1....6.8........89...4.......3......1......89...'
            '.5....1.........2.4....9......7.9...4...8.....5......3.......2....7.....4.6.89.....6.89...45....'
            '...45...9.......8..2.............7.......6...1..........34....9..3.....9.2....7....3...........6'
            '...1..4.....1......8.........9.2....7......5.......4...8.'
        ),
        (),
        (('r5c5', 8), ('r5c9', 8), ('r6c5', 8), ('r7c9', 8)),
        6.5,
    ),
    MinedCase(
        'find_se_chains',
        'Bidirectional Y-Cycle',
        'se_rated_sudoku_exchange_dev',
        '9.3.6.2.847.9.8.16.........2...9...16.......5..9...7.....381....8.7.4.6...4...3..',
        (
            '........91..........3.........45.........6.......5.7...2..........4..7.........8....4...........'
            '7...2...............9..3.............8.....5....1.............6.......5.........6..........8.1..'
            '4.....1.....7...2...............9..34..7....34......2.........345..........7.........8.........9'
            '..3.5.........6.....34.....1.............6.....34.....1.........2..........4..7....3...7........'
            '.8.........9....5...........8...345............91...5....1..4..........6.........7...2.........3'
            '4...........7..........9.....6.....3.............8.1...........4.........5.....2.........3......'
            '.......8.....5..........7...2..........4.....1.............6...........91.........2..........4..'
            '........6.......5............9..3.............8.......7..'
        ),
        (),
        (('r3c8', 4), ('r4c2', 3)),
        6.6,
    ),
    MinedCase(
        'find_se_chains',
        'Forcing X-Chain',
        'se_rated_sudoku_exchange_dev',
        '..9...5.4.....3.6....2..18.....1..72.6.8.2.9.79..6.....24..7....7.6.....5.6...9..',
        (
            '1.3..6...1.3..............9......7.........8.1....6.......5.....2..........4......2.......1..45.'
            '.8.1...5..8.1...5.......45......3............7.......6...........9...4.6......45..........7...2.'
            '.........45...9....56..91...............8...3........34...8...345..8...3.5..8...34....91........'
            '...4....9.....6.........7...2.......1.34..........6...1.3.............8.......7...2.........34..'
            '...........9....5..........7..........9.2.........345.........6......45......34...8.1.3......1..'
            '....8.1.3....89.2..........4.....1.......9..3.....9......7....3....8.....5.........6.....3....89'
            '......7..1.3....8......6.....3.5...91...5..89.2..........4.....1......8.....5....1.3....8......6'
            '...1..4......2.......1..4...8.........91.3............7..'
        ),
        (),
        (('r1c1', 1),),
        6.6,
    ),
    MinedCase(
        'find_se_chains',
        'Bidirectional Cycle',
        'se_rated_sudoku_exchange_dev',
        '8..4....9.13.8..2......3.1...72.9..6.4..6..3.9..1.47...2.5......8..9.24.6....2..8',
        (
            '.......8.....5.7...2..56......4.....12....7..1...56.....3...........67..........9...4..7..1.....'
            '.....3..............9.......8.....56.......56....2..........4..7...2.45.7......5.7.9.2.456..9...'
            '..67...2....7....3.............8.1...........45.7..1..........3............7...2...........5....'
            '........9...4............8......6....2..5.......4......2..5...........8......6.........7........'
            '..9..3......1................9.....6..........8.1..........3.........4...........7......5.....2.'
            '........34..7...2.......1..4....9....5....1..4..7.........8.1....6........67.9..3...7....3.5.7..'
            '.......8.1...5.........67..........91....6....2..........4.......3.5.7.......6.......5.7.91..45.'
            '..9..3......1..4..7...2.......1...5..........7.9.......8.'
        ),
        (),
        (('r1c3', 5), ('r1c5', 7)),
        7.1,
    ),
    MinedCase(
        'find_se_chains',
        'Forcing Chain',
        'se_rated_sudoku_exchange_dev',
        '..7.1...9...472...3.5......6..1..5..9.15.68.2..2..8..6......1.5...254...2...6.4..',
        (
            '...4......2...6.........7....3......1............5.....2...6..........8.........91......8.......'
            '..9.....6.8....4...........7...2.........3..6.......5....1.3........3......12...........5.......'
            '..6..........8.........9.2....7.....4..7..1..4..........6.....34...8...34...8.1.........2.......'
            '......7......5............9..34.............9...4..7..1............5......3...........6.........'
            '.8....4..7...2...........5......3...7...2...............9...4............8...3...7..1...........'
            '..6.........78....4.6......4.6.........78.........9..3......1.........2...........5....1.....78.'
            '1.3....8...3....8..2...........5.......4.............9.....6.........78..2...........5..........'
            '..9......78......6...1...........4.......3............78.'
        ),
        (('r2c3', 6),),
        (),
        7.2,
    ),
]


@pytest.mark.parametrize("case", CASES, ids=str)
def test_mined_case(case):
    state = CandidateGrid.parse("".join(case.marks))
    step = next(FINDERS[case.finder](state))
    assert step.technique == case.technique
    assert named(step.placements, 9) == case.placements
    assert named(step.eliminations, 9) == case.eliminations
    assert step.difficulty == case.difficulty
    assert step.text and step.cells
    solution = bitdoku.solve(Grid.parse(case.puzzle))
    for cell, value in enumerate(solution.cells):  # the position agrees with the solution
        assert state.value(cell) == value or state.has(cell, value)
    assert_sound(step, solution)


def test_every_kind_is_covered():
    kinds = {case.technique for case in CASES}
    assert {"AIC", "Grouped AIC", "Continuous Nice Loop", "Discontinuous Nice Loop"} <= kinds
    assert {se_chains.X_CYCLE, se_chains.Y_CYCLE, se_chains.XY_CYCLE, se_chains.FORCING_X_CHAIN,
            se_chains.FORCING_CHAIN} <= kinds


def test_discontinuous_loops_place_and_remove():
    found = {(case.placements != (), case.eliminations != ()) for case in CASES
             if case.technique == "Discontinuous Nice Loop"}
    assert found == {(True, False), (False, True)}


def test_se_difficulty_follows_se_length_bonus():
    assert se_chains.se_difficulty(6.6, 6) == 6.6  # a turbot fish: 6 potentials
    assert se_chains.se_difficulty(6.5, 4) == 6.5  # an X-wing cycle
    assert se_chains.se_difficulty(7.0, 8) == 7.1
    assert se_chains.se_difficulty(7.0, 10) == 7.2
    assert se_chains._se_float(6.6, 8) < se_chains._se_float(6.5, 10)  # SE's doubles: 6.6+0.1 < 6.5+0.2


def se_reference(state: CandidateGrid) -> list[tuple[tuple, tuple]]:
    """A direct transcription of SE's static chaining, one potential at a time and slow: for each mode (X, Y, XY),
    each cell row by row and digit, its cycle search and its two forcing-chain searches, each hint's complexity
    as SE's ancestor count, then SE's sort. Returns ((difficulty as SE's double, complexity, mode, order),
    (placements, eliminations)) for every hint, first the one SE applies."""
    n, masks, layout = state.n, state.masks, state.layout
    units = [(layout.units[2 * n + layout.box[c]], layout.units[layout.row[c]], layout.units[n + layout.col[c]])
             for c in range(n * n)]

    def digits(c):
        return [d for d in range(1, n + 1) if masks[c] >> (d - 1) & 1]

    def on_to_off(c, v, y):
        out = [(c, w) for w in digits(c) if w != v] if y else []
        out += [(o, v) for unit in units[c] for o in unit if o != c and masks[o] >> (v - 1) & 1]
        return list(dict.fromkeys(out))

    def off_to_on(c, v, y, x):
        out = [(c, w) for w in digits(c) if w != v] if y and len(digits(c)) == 2 else []
        for unit in units[c] if x else ():
            places = [o for o in unit if masks[o] >> (v - 1) & 1]
            if len(places) == 2:
                out.append((places[0] if places[1] == c else places[1], v))
        return list(dict.fromkeys(out))

    def is_parent(p, key):
        p = p[3]
        while p is not None:
            if p[:3] == key:
                return True
            p = p[3]
        return False

    def count(p):
        keys = set()
        while p is not None:
            keys.add(p[:3])
            p = p[3]
        return len(keys)

    hints, order = [], 0
    for key, (x, y, cycle_base, forcing_base) in enumerate(((1, 0, 6.5, 6.6), (0, 1, 6.5, None), (1, 1, 7.0, 7.0))):
        for c in range(n * n):
            for v in digits(c) if len(digits(c)) == 2 or (x and len(digits(c)) > 2) else ():
                cycles, to_on, pending_on, length = [], {(c, v, True)}, [(c, v, True, None)], 0
                while pending_on:
                    pending_off = [(o, w, False, p) for p in pending_on for o, w in on_to_off(p[0], p[1], y)
                                   if not is_parent(p, (o, w, False))]
                    length += 2
                    pending_on = []
                    for p in pending_off:
                        for o, w in off_to_on(p[0], p[1], y, x):
                            if length >= 4 and (o, w) == (c, v):
                                cycles.append((o, w, True, p))
                            if (o, w, True) not in to_on:
                                to_on.add((o, w, True))
                                pending_on.append((o, w, True, p))
                targets = []
                for start_on in (True, False) if x else ():
                    seen = {(c, v, start_on)}
                    front = [(c, v, start_on, None)]
                    while front and len(targets) < 2:
                        new = []
                        for p in front:
                            after = on_to_off(p[0], p[1], y) if p[2] else off_to_on(p[0], p[1], y, True)
                            for o, w in after:
                                q = (o, w, not p[2], p)
                                if (o, w) == (c, v) and q[2] != start_on:
                                    targets.append(q)
                                    new = []
                                    break
                                if q[:3] not in seen:
                                    seen.add(q[:3])
                                    new.append(q)
                            else:
                                continue
                            break
                        front = new
                for end in cycles:
                    cells, path, p = set(), [], end
                    while p[3] is not None:
                        cells.add(p[0])
                        path.append(p)
                        p = p[3]
                    sees = [{(o, p[1]) for p in path if p[2] == side for o in layout.peers[p[0]]
                             if o not in cells and masks[o] >> (p[1] - 1) & 1} for side in (True, False)]
                    if sees[0] & sees[1]:
                        hints.append(((se_chains._se_float(cycle_base, count(end)), count(end), key, order),
                                      ((), tuple(sorted(sees[0] & sees[1])))))
                        order += 1
                for end in targets:
                    change = (((c, v),), ()) if end[2] else ((), ((c, v),))
                    hints.append(((se_chains._se_float(forcing_base, count(end)), count(end), key, order), change))
                    order += 1
    hints.sort(key=lambda hint: hint[0])
    return hints


def _states(name: str, count: int, every: int = 1) -> list[tuple[CandidateGrid, Grid]]:
    """The states where today's ladder stalls, in the first ``count`` puzzles of a sample file."""
    text = resources.files("bitdoku.data").joinpath(name).read_text()
    puzzles = [line.strip() for line in text.splitlines() if line.strip() and not line.startswith("#")]
    puzzles = puzzles[:count:every]
    states = []
    for puzzle in puzzles:
        solution = bitdoku.solve(Grid.parse(puzzle))
        steps = explain(puzzle, guess=True, ladder=CLASSIC_LADDER)
        states += [(step.before, solution) for step in steps if step.technique == GUESS]
    return states


@pytest.fixture(scope="module")
def stalled_states():
    return _states("top1465_sample.txt", 30, 3) + _states("hardest_sample.txt", 15, 4)


def test_se_finder_agrees_with_the_transcription(stalled_states):
    states = [CandidateGrid.parse("".join(case.marks)) for case in CASES if case.finder == "find_se_chains"]
    states += [state for state, _solution in stalled_states[:8]]
    for state in states:
        expected = se_reference(state)
        step = next(se_chains.find_se_chains(state), None)
        if not expected:
            assert step is None
            continue
        (difficulty, _complexity, _mode, _order), (placements, eliminations) = expected[0]
        assert step.difficulty == round(difficulty, 1)
        assert (step.placements, step.eliminations) == (placements, eliminations)


def test_finders_are_sound_on_stalled_states(stalled_states):
    assert len(stalled_states) >= 10
    fired = dict.fromkeys(FINDERS, 0)
    for state, solution in stalled_states:
        for name, finder in FINDERS.items():
            for index, step in enumerate(finder(state)):
                assert_sound(step, solution)
                fired[name] += index == 0
                if index >= 2:
                    break
    assert all(fired[name] for name in FINDERS if name != "find_continuous_nice_loops"), fired  # loops are rarer


def test_separate_se_finders_keep_their_kind(stalled_states):
    state = CandidateGrid.parse("".join(next(c for c in CASES if c.technique == se_chains.X_CYCLE).marks))
    assert next(se_chains.find_se_cycles(state)).technique == se_chains.X_CYCLE
    assert next(se_chains.find_se_forcing_chains(state)).technique in (se_chains.FORCING_X_CHAIN,
                                                                     se_chains.FORCING_CHAIN)
    for state, _solution in stalled_states[:6]:
        for step in se_chains.find_se_forcing_chains(state):
            assert step.technique in (se_chains.FORCING_X_CHAIN, se_chains.FORCING_CHAIN)
            break


def test_se_steps_come_easiest_first(stalled_states):
    for state, _solution in stalled_states[:4]:
        found = [step.difficulty for _, step in zip(range(25), se_chains.find_se_chains(state), strict=False)]
        assert found == sorted(found)


def test_chains_on_16x16_are_sound():
    text = resources.files("bitdoku.data").joinpath("unique16x16_sample.txt").read_text()
    puzzle = [line.strip() for line in text.splitlines() if line.strip() and not line.startswith("#")][4]
    solution = bitdoku.solve(Grid.parse(puzzle))
    states = [step.before for step in explain(puzzle, guess=True, ladder=CLASSIC_LADDER)
              if step.technique == GUESS][:2]
    assert states
    fired = 0
    for state in states:
        for finder in FINDERS.values():
            for index, step in enumerate(finder(state)):
                assert_sound(step, solution)
                fired += 1
                if index >= 1:
                    break
    assert fired >= 5


def test_group_nodes_lie_in_one_box_line_intersection():
    state = CandidateGrid.parse("".join(next(c for c in CASES if c.technique == "Grouped AIC").marks))
    graph = links.link_graph(state, True)
    layout = state.layout
    assert graph.groups
    for _digit, cells in graph.groups:
        members = list(links.iter_bits(cells))
        assert len(members) >= 2
        assert len({layout.box[c] for c in members}) == 1
        assert len({layout.row[c] for c in members}) == 1 or len({layout.col[c] for c in members}) == 1


def test_links_are_symmetric():
    state = CandidateGrid.parse("".join(CASES[0].marks))
    graph = links.link_graph(state, True)
    for table in (graph.weak_x, graph.weak_cell, graph.strong_x, graph.strong_y):
        for a, bits in enumerate(table):
            for b in links.iter_bits(bits):
                assert table[b] >> a & 1, (a, b)


#: HoDoKu's published examples (hodoku.sourceforge.net, "show_example.php?file=..."): its original puzzle, the
#: candidates of the step's position (its picture, row by row) and the step's eliminations in HoDoKu's
#: digit-row-column form. aic101: Alternate Inference Chain Type 1; gaic01 / gaic02: Grouped AIC Type 1 / Type 2;
#: gcnl01: Grouped Continuous Nice Loop.
PUBLISHED = {
    "aic101": ("find_aics", ".......69.8..2.13..1......4..........4...9.7..671.29....1....8.3..........867.2.5",
      ["2 35 345 34578 1458 14578 58 6 9", "9 8 456 45 2 456 1 3 7", "7 1 356 3589 5689 568 58 2 4",
       "18 23 9 478 468 4678 36 5 12", "18 4 23 58 568 9 36 7 12", "5 6 7 1 3 2 9 4 8",
       "6 257 1 2459 459 45 47 8 3", "3 257 25 2458 1458 1458 47 9 6", "4 9 8 6 7 3 2 1 5"], "513 523 533 572 582"),
    "gaic01": ("find_grouped_aics", "..512.....7.....8..8....345............6...3.4.2.81..9.......28..9.4.6.....8..7.4",
      ["3 4 5 1 2 8 9 67 67", "9 7 6 345 35 345 2 8 1", "2 8 1 79 679 679 3 4 5",
       "56 3569 78 234579 3579 234579 48 1 267", "1 59 78 6 579 24579 48 3 27", "4 36 2 37 8 1 5 67 9",
       "7 56 4 359 3569 3569 1 2 8", "8 1 9 27 4 27 6 5 3", "56 2 3 8 1 56 7 9 4"], "574 575 576 591"),
    "gaic02": ("find_grouped_aics", "....5.76.7.5.....3....86.2...43.......6.9.14.....2...........5...7.6...2839......",
      ["2 1489 18 149 5 3 7 6 149", "7 6 5 1249 14 129 489 189 3", "149 149 3 7 8 6 459 2 1459",
       "59 5789 4 3 17 158 2 789 6", "3 2 6 58 9 578 1 4 578", "159 15789 18 6 2 4 3589 3789 589",
       "6 14 2 1489 3 1789 489 5 14789", "145 145 7 1489 6 189 3489 1389 2", "8 3 9 25 147 25 6 17 14"], "125 414"),
    "gcnl01": (
        "find_continuous_nice_loops",
        "..243.9...3.7...1519.....2.2.......694.............74.3.9......6...1.....8.5..69.",
      ["78 5 2 4 3 1 9 6 78", "48 3 6 7 29 29 48 1 5", "1 9 47 68 568 568 34 2 347",
       "2 17 1378 1389 45789 345789 1358 358 6", "9 4 1378 1368 5678 35678 12358 358 1238",
       "5 6 138 1238 28 238 7 4 9", "3 127 9 268 24678 24678 12458 578 1248",
       "6 27 5 2389 1 234789 2348 378 2348", "47 8 147 5 27 237 6 9 123"], "143 153 275 276 286 364 399 864"),
}


@pytest.mark.parametrize("name", sorted(PUBLISHED))
def test_published_example(name):
    finder, puzzle, rows, published = PUBLISHED[name]
    masks = [sum(1 << (int(ch) - 1) for ch in token) for row in rows for token in row.split()]
    state = CandidateGrid.from_masks(masks, Shape(3, 3))
    solution = bitdoku.solve(Grid.parse(puzzle))
    wanted = tuple(sorted(((int(e[1]) - 1) * 9 + int(e[2]) - 1, int(e[0])) for e in published.split()))
    for _index, step in zip(range(40), FINDERS[finder](state), strict=False):
        assert_sound(step, solution)
        if step.eliminations == wanted:
            return
    pytest.fail(f"{finder} did not find HoDoKu's step in its first 40 steps")


def test_compiled_scan_agrees_with_the_python_search(stalled_states, monkeypatch):
    """The compiled scan (grids up to 9x9) and the bitset searches in Python give the same steps in the same
    order."""
    states = [state for state, _solution in stalled_states[:6]]
    states += [CandidateGrid.parse("".join(case.marks)) for case in CASES if case.finder == "find_se_chains"]

    def steps(state):
        return [(s.technique, s.placements, s.eliminations, s.difficulty)
                for _, s in zip(range(12), se_chains.find_se_chains(state), strict=False)]

    compiled = [steps(state) for state in states]
    monkeypatch.setattr(se_chains.se_kernel, "MAX_N", 0)
    assert [steps(state) for state in states] == compiled


def test_live_search_fills_what_the_two_reference_kernels_fill(stalled_states):
    """``se_kernel.se_live_search`` (bitsets on the live candidates, SE's cycle search only where the layers allow
    a cycle) gives every forcing chain's complexity and every worthy cycle round as ``se_scan`` and
    ``se_cycle_rounds`` do, on stalled states and on the same states with random candidates removed (new strong
    links, new cycles), 9x9 and smaller grids."""
    import random

    import numpy as np

    from bitdoku.logic.kernels import se_chains as se_kernel
    from tests.logic.cases import CASES as LADDER_CASES

    rng = random.Random(13)
    states = [(state.masks, state.shape) for state, _solution in stalled_states]
    states += [(CandidateGrid.parse(case.marks, shape=case.shape).masks, Shape.parse(case.shape))
               for case in LADDER_CASES if case.shape in ("3x2", "2x4")]
    for masks, shape in list(states):
        for _ in range(3):
            cut = list(masks)
            for cell in rng.sample(range(len(cut)), len(cut) // 3):
                if cut[cell].bit_count() > 2:
                    cut[cell] &= ~(1 << rng.choice([k for k in range(shape.n) if cut[cell] >> k & 1]))
            states.append((tuple(cut), shape))
    worthy_seen = forcing_seen = 0
    for masks, shape in states:
        order = se_chains._peer_order(shape)
        for cycles, forcing in ((True, True), (True, False), (False, True)):
            on_found, off_found, _rounds = se_kernel.scan(masks, shape, False, forcing)
            worthy = se_kernel.cycle_rounds(masks, shape, order) if cycles else np.zeros_like(_rounds)
            live = se_kernel.live_search(masks, shape, order, cycles, forcing)
            assert all(np.array_equal(a, b) for a, b in zip((on_found, off_found, worthy), live, strict=True))
            worthy_seen += int(np.count_nonzero(worthy))
            forcing_seen += int(np.count_nonzero(on_found) + np.count_nonzero(off_found))
    assert worthy_seen > 50 and forcing_seen > 50, (worthy_seen, forcing_seen)


def test_live_search_steps_are_the_reference_ones(stalled_states, monkeypatch):
    """With ``LIVE_SEARCH`` the forcing chains' paths come from the compiled search (no link graph): the same
    steps, sentences and cells included, as with the reference kernels and the layers traced in Python, on stalled
    states and on the same states with candidates removed."""
    import random

    rng = random.Random(21)
    states = [state for state, _solution in stalled_states]
    for state in list(states):
        cut = list(state.masks)
        for cell in rng.sample(range(len(cut)), 30):
            if cut[cell].bit_count() > 2:
                cut[cell] &= ~(1 << rng.choice([k for k in range(9) if cut[cell] >> k & 1]))
        states.append(CandidateGrid(state.values, tuple(cut), state.shape))

    def steps(state):
        return [(s.technique, s.text, s.placements, s.eliminations, s.difficulty, sorted(s.cells))
                for _, s in zip(range(4), se_chains.find_se_chains(state), strict=False)]

    live = [steps(state) for state in states]
    monkeypatch.setattr(se_chains, "LIVE_SEARCH", False)
    assert [steps(state) for state in states] == live
    kinds = {step[0] for found in live for step in found}
    assert {se_chains.FORCING_X_CHAIN, se_chains.FORCING_CHAIN} <= kinds, kinds


def test_small_grids_are_sound_and_the_scan_agrees(monkeypatch):
    """6x6 and 8x8 positions of the mined cases: every finder stays sound, and the compiled scan (which takes any
    grid up to 9x9) gives the same SE steps as the Python search."""
    from tests.logic.cases import CASES as LADDER_CASES

    small = [case for case in LADDER_CASES if case.shape in ("3x2", "2x4")]
    assert small
    compiled = []
    for case in small:
        state = CandidateGrid.parse(case.marks, shape=case.shape)
        solution = bitdoku.solve(Grid.parse(case.puzzle, shape=case.shape))
        for finder in FINDERS.values():
            for _index, step in zip(range(4), finder(state), strict=False):
                assert_sound(step, solution)
        compiled.append([(s.placements, s.eliminations, s.difficulty)
                         for _, s in zip(range(6), se_chains.find_se_chains(state), strict=False)])
    monkeypatch.setattr(se_chains.se_kernel, "MAX_N", 0)
    python = [[(s.placements, s.eliminations, s.difficulty)
               for _, s in zip(range(6), se_chains.find_se_chains(CandidateGrid.parse(c.marks, shape=c.shape)),
                               strict=False)] for c in small]
    assert python == compiled
