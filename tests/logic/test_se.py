"""The SE ladder: singles in SE's order, the direct rules, aligned exclusion, and ratings against published SE
ratings."""

from itertools import pairwise, product

import pytest

import bitdoku
from bitdoku import Grid
from bitdoku.data import sample_lines
from bitdoku.logic import CandidateGrid, als_wings, explain, rate
from bitdoku.logic.difficulty import SE_BANDS, average_ranks, se_level, spearman
from bitdoku.logic.exclusion import (
    APE,
    ATE,
    find_aligned_pair_exclusions,
    find_aligned_triplet_exclusions,
)
from bitdoku.logic.intersections import find_claiming, find_pointing
from bitdoku.logic.se import (
    SE_LADDER,
    find_direct_claiming,
    find_direct_hidden_pairs,
    find_direct_hidden_triples,
    find_direct_pointing,
    next_se_step,
    se_steps,
)
from bitdoku.logic.se_chains import FORCING_CHAIN
from bitdoku.shape import Shape
from tests.logic.checks import assert_sound

#: Puzzles of the Sudoku Exchange bank with their published SE ratings (SukakuExplainer), and the technique
#: that reaches the rating.
PUBLISHED = [
    ("57..6...3.3...5.6.6.1..7....53.....1....8....9.....27....8..4.2.8.1...3.2...4..19", 2.5, "Direct Hidden Triple"),
    ("6...5...7.3........8.4.92...153.......8...3.......759...95.1.3........8.2...7...4", 2.6,
     "Locked Candidates (Pointing)"),
    ("869...312.2.....8..7.1.8.4..3.....9.7...6...4..19.25.....836...4...7...3....1....", 2.8,
     "Locked Candidates (Claiming)"),
    ("....5.......2.6....64...39..45...81.....2.......1.7....53...98..9.8.4.6.1...3...4", 3.0, "Naked Pair"),
    ("97.3.6.428.5...1.9....5....2.7...3.4.1..2..8.4..738..1...9.5............1..847..3", 3.2, "X-Wing"),
    (".8.2..4..57....1....23.....82..9...5...715...7...2..41.....67....3....18..7..9.5.", 3.4, "Hidden Pair"),
    (".13.9.46.8.......5....4....2.......197..1..43.6.7.5.9..894.371.............678...", 3.6, "Naked Triple"),
    ("..96.3..4.1.7...8.4...8...3......641..5...2..164......6...1...2.5...2.6.3..4.75..", 3.8, "Swordfish"),
    (".4........861...34..15..26....3.584.....4.....589.2....95..83..16...945........1.", 4.0, "Skyscraper"),
    (".24...65.1.......7..8.1.9...........26..9..83.8.5.1.7.6..9.3..8..28547......7....", 4.1, "2-String Kite"),
    (".6..5..3....3.6.....7...4...3.....6..14.2.79.7.......1.........9..147..5.516.987.", 4.2, "XY-Wing"),
    (".24..9.3....6..974....8..2...1.4....2.7.5.8.9....6.7...7..9....539..6....8.1..29.", 4.4, "XYZ-Wing"),
    ("9..8.1..5...6.7...87.....6949.....57.8.....2....375....4.....7...8.6.9..1.9...6.3", 4.5,
     "Unique Rectangle Type 1"),
    (".1.7.....4.6.2....9.21.5....48.9....6.1...5.7....5.84....5.37.2....7.9.6.....6.5.", 5.4, "X-Chain"),
    ("..7...5......8....9...7...1.251.893...3...6....9...2.....5.3...7.......6.1.2.7.4.", 5.5, "WXYZ-Wing"),
    ("..8.2.9..6.......55..9.1..2..1.7.5...72...69.3.......7...4.7....1.5.3.2..5..1..8.", 5.6, "WXYZ-Wing"),
    ("4....8.625...278...6.5.....38....1...2.....9...5....73.....3.8...675...973.9....5", 6.3, "VWXYZ-Wing"),
    ("5..8....1.....4.....46123...35...6.8..2...5..6.8...19...61259.....3.....1....8..2", 6.4, "VWXYZ-Wing"),
]

#: 17-clue puzzles whose SE-style solve tops out at each of the easy rules (checked below by the Python path).
EASY = [
    (".......216......3..7.9.........437..1............2.......6....8..21......4....5..", 1.2, "Hidden Single (box)"),
    (".......1.4.........2...........5.4.7..8...3....1.9....3..4..2...5.1........8.6...", 1.5,
     "Hidden Single (row/column)"),
    (".......14....2....5.........1.8.4...7.....5.....1.........5.73...42......3....6..", 1.7, "Direct Pointing"),
    (".......12..8.3...........4.12.5..........47...6.......5.7...3.....62.......1.....", 2.0, "Direct Hidden Pair"),
    (".......12..36..........7...41..2.......5..3..7.....6..28.....4....3..5...........", 2.3, "Naked Single"),
    (".......24.1.3......7........6....3......82...5........4..1..6..2......75..8......", 2.5,
     "Direct Hidden Triple"),
]


@pytest.mark.parametrize(("puzzle", "se", "hardest"), PUBLISHED)
def test_rates_as_sudoku_explainer_on_published_ratings(puzzle, se, hardest):
    rating = rate(puzzle)
    assert (rating.score, rating.hardest, rating.scale) == (se, hardest, "se")
    assert rating.difficulties[hardest] == se and rating.level == se_level(se)


@pytest.mark.parametrize(("puzzle", "se", "hardest"), EASY)
def test_easy_ratings_match_the_step_by_step_solve(puzzle, se, hardest):
    rating = rate(puzzle)
    assert (rating.score, rating.hardest, rating.level) == (se, hardest, "easy" if se < 2.5 else "medium")
    steps = list(se_steps(puzzle))
    assert max(d for _, d in steps) == se
    solution = bitdoku.solve(puzzle)
    for step, _ in steps:
        assert_sound(step, solution)


def test_the_kernel_solve_agrees_with_the_python_solve():
    """Same score and same histogram from the compiled singles as from the Python finders step by step."""
    lines = sample_lines("17clue_sample.txt")[:8] + [p for p, _, _ in PUBLISHED[:5] + EASY] + ["..3..4.221......"]
    lines += [DIRECT_CLAIMING_CASE[0], bitdoku.generate("2x3", seed=3).to_line()]
    singles = {1.0: "Full House", 1.2: "Hidden Single (box)", 1.5: "Hidden Single (row/column)",
               2.3: "Naked Single"}
    for line in lines:
        rating = rate(line)
        steps = list(se_steps(line))
        counts: dict[str, int] = {}
        for step, difficulty in steps:
            name = singles[difficulty] if step.technique in ("Hidden Single", "Naked Single") else step.technique
            counts[name] = counts.get(name, 0) + 1
        assert rating.score == max(d for _, d in steps), line
        assert rating.counts == counts, line


def test_full_house_and_box_singles():
    rating = rate("..3." ".4.2" "21.." "....")
    assert rating.counts == {"Full House": 8, "Hidden Single (box)": 3} and rating.score == 1.2
    assert rate("..3." ".4.2" "21.." "....", scale="bitdoku").hardest == "Hidden Single"


def test_beyond_logic_is_a_guess_at_10():
    rating = rate(sample_lines("multisolution_sample.txt")[0])  # several solutions: logic cannot finish
    assert rating.level == "beyond logic" and rating.hardest == "Guess" and rating.score == 10.0
    assert rating.counts["Guess"] >= 1


def test_levels_are_bands_of_the_score():
    assert [low for _, low in SE_BANDS] == sorted(low for _, low in SE_BANDS)
    assert [se_level(s) for s in (1.0, 2.4, 2.5, 3.9, 4.0, 5.5, 5.6, 6.9, 7.0, 9.9)] == [
        "easy", "easy", "medium", "medium", "hard", "hard", "expert", "expert", "extreme", "extreme"]


def test_ladder_is_in_se_order_and_bases_rise_but_for_se_quirks():
    bases = [rung.difficulty for rung in SE_LADDER]
    # SE's producers are nearly in order of difficulty; the exceptions are SE's own (the two-link patterns at
    # 4.0-4.2 come after Hidden Triple 4.0 and before XY-Wing 4.2; 3 strong links 5.4 after Hidden Quad 5.4).
    assert all(b >= a - 0.25 for a, b in pairwise(bases))
    assert bases[:4] == [1.7, 1.9, 2.0, 2.5]


# -- the direct rules ---------------------------------------------------------------------------------------

DIRECT_CLAIMING_CASE = (
    ".8.2..4..57....1....23.....82..9...5...715...7...2..41.....67....3....18..7..9.5.",
    # a position of its solve (pencil marks) with a direct claiming and no direct pointing
    "1.3..6..9.......8.1....6..9.2...........567..1.....7.....4.......3..67.9..3..67.9....5..........7..."
    "..4.6..9...4.6.89...4.6.8....4...8.1.........23..6.89.23..6..91..4.6..91..4.6..9.2.........3........"
    ".45678.1..4..78.....56.89.....6789.....67.9.......8..2.......1..4.6......4.6...........9..34.......3"
    "..6.....3..67......5......34.6..9..34.6..9...4.6..9......7..1............5.....23..6.89.23..6.89.23."
    ".6..9......7....3.56..9....56..9.....6.8..2.........3....8...3..6.89...4.....1........12.4....91..45"
    "...91..45..891..45..8...345..8......6.........7...23.....9.234....9.2.4.6..9...456..9..3.........45."
    "......45.7...2.4..7...2...6..91...............8.12.4.6...1..4.6.........7..1..4...8...34...8........"
    ".9.23..6.......5.....234.6...",
    (0, 3),  # r1c1 = 3: in column 2, 3 is confined to box 4, which leaves it one place in column 1
)


def _state_before(puzzle: str, technique: str) -> CandidateGrid:
    for step, _ in se_steps(puzzle):
        if step.technique == technique:
            return step.before
    raise AssertionError(technique)


def test_direct_claiming_places_the_single_it_leaves():
    puzzle, marks, expected = DIRECT_CLAIMING_CASE
    state = CandidateGrid.parse(marks)
    assert next(find_direct_pointing(state), None) is None  # SE tries direct pointing first
    step = next(find_direct_claiming(state))
    assert step.placements == (expected,) and step.eliminations == ()
    assert step.text.startswith("r1c1 = 3: in column 2, 3 fits only in box 4") and "direct claiming" in step.text
    assert_sound(step, bitdoku.solve(puzzle))
    assert any(set(s.units) <= set(step.units) for s in find_claiming(state))  # a direct claiming is a claiming


def test_direct_pointing_is_a_pointing_that_leaves_a_hidden_single():
    puzzle = EASY[2][0]
    state = _state_before(puzzle, "Direct Pointing")
    step = next(find_direct_pointing(state))
    assert len(step.placements) == 1 and step.eliminations == ()
    cell, digit = step.placements[0]
    assert bitdoku.solve(puzzle)[cell] == digit
    assert any(s.eliminations and s.eliminations[0][1] == digit for s in find_pointing(state))


@pytest.mark.parametrize(("index", "finder", "name"), [(3, find_direct_hidden_pairs, "Direct Hidden Pair"),
                                                        (5, find_direct_hidden_triples, "Direct Hidden Triple")])
def test_direct_hidden_sets(index, finder, name):
    puzzle = EASY[index][0]
    state = _state_before(puzzle, name)
    step = next(finder(state))
    assert step.technique == name and len(step.placements) == 1 and not step.eliminations
    assert_sound(step, bitdoku.solve(puzzle))
    _cell, digit = step.placements[0]
    unit = step.units[0]
    assert len(state.cells_with(unit, digit)) > 1  # not already a hidden single


DIRECT = (find_direct_pointing, find_direct_claiming, find_direct_hidden_pairs, find_direct_hidden_triples)
EXCLUSION = (find_aligned_pair_exclusions, find_aligned_triplet_exclusions, als_wings.find_wxyz_wings,
             als_wings.find_vwxyz_wings, als_wings.find_uvwxyz_wings, als_wings.find_tuvwxyz_wings)


def _walk_states(lines, every=3):
    for line in lines:
        solution = bitdoku.solve(line)
        for index, step in enumerate(explain(line, guess=True)):
            if index % every == 0:
                yield step.before, solution


def test_soundness_of_direct_and_exclusion_steps_along_solves():
    lines = sample_lines("top1465_sample.txt")[:6] + sample_lines("hardest_sample.txt")[:4]
    fired = dict.fromkeys(DIRECT + EXCLUSION, 0)
    for state, solution in _walk_states(lines):
        for finder in DIRECT + EXCLUSION:
            for step in list(_first(finder(state), 3)):
                assert_sound(step, solution)
                fired[finder] += 1
    assert all(fired[f] for f in (find_direct_pointing, find_direct_hidden_pairs, *EXCLUSION)), fired


def test_wings_are_rated_by_size_and_largest_cell():
    """A WXYZ-Wing step carries SukakuExplainer's rating of its set, and its cells (3 set cells and the bivalue
    pivot) hold 4 digits between them."""
    puzzle = PUBLISHED[-4][0]
    state = _state_before(puzzle, "WXYZ-Wing")
    step = next(als_wings.find_wxyz_wings(state))
    largest = max(state.masks[c].bit_count() for c in step.cells)
    assert step.difficulty == als_wings.rating(3, largest) and len(step.cells) == 4
    union = 0
    for cell in step.cells:
        union |= state.masks[cell]
    assert union.bit_count() == 4 and any(state.masks[c].bit_count() == 2 for c in step.cells)
    assert_sound(step, bitdoku.solve(puzzle))


def _first(steps, k):
    for index, step in enumerate(steps):
        if index >= k:
            return
        yield step


def test_direct_rules_and_exclusion_on_other_shapes():
    """6x6 and 16x16: the SE solve and the finders run and stay sound."""
    lines = [bitdoku.generate("2x3", seed=seed).to_line() for seed in range(4)]
    lines += sample_lines("unique16x16_sample.txt")[:1]
    for line in lines:
        grid = Grid.parse(line)
        solution = bitdoku.solve(grid)
        rating = rate(grid)
        assert rating.scale == "se" and 1.0 <= rating.score <= 10.0
        state = CandidateGrid.from_grid(grid)
        for index, (step, _) in enumerate(_first(se_steps(grid), 40)):
            assert_sound(step, solution)
            if index % 10 == 0:
                for finder in DIRECT + EXCLUSION:
                    for found in _first(finder(step.before), 2):
                        assert_sound(found, solution)
            state = step.after
        assert state.problem() is None


# -- aligned exclusion ------------------------------------------------------------------------------------

#: Positions of solves (pencil marks) where the SE ladder, without the WXYZ-family wings that come before in
#: SE's order, takes an aligned exclusion (eliminations checked against the solution; the kernel against the
#: slow definition below).
APE_CASE = (
    ".8.7...2.6......4...26.17.9..4..6.383..5.8..282.1..4..9.84.72...1......4.4...2.6.",
    (
     "1...5...........8.1.3.5...9......7....3.5...9...4.....1.3.56....2.......1.3.56........6.....3.5.7.91"
     ".3.5.7.9.23....89.23.5..89..3.5...91.3.5..8....4.....1.3.5.......4.......3.5.....2............6....."
     "3.5..8.1..............7......5..8.........91...5.7......5...9...4......2......9.2....7.9.....6...1.."
     ".5...9..3.............8...3...........67.91....67.9....5.......4............8.1....6..91.....7.9.2.."
     "............8..2...........56..91..........3...7.9..3.....9...4.........5...9....567..........9..3.5"
     "6..........8....4.....1.3.56.........7...2.......1...5....1.3.5.....2.......1..........3.567....3..."
     ".89..3.56.89..3.5...9..3.5..89....5.789...4.........5.7.....4.......3.5......3....891.3.5..89.2....."
     "..1.3.5..89.....6...1.3.5.7.."
    ),
    ((78, 5),),  # 5 leaves r9c7
)
ATE_CASE = (
    "594.6.7...........6..1..84....9....894..3..621....6....52..7..4...........9.4.135",
    (
     "....5............9...4.......3....8......6.....3....8.......7...2.......1.........23...78.123...78.1"
     ".3...78..2.4..7...2....7.9.2.4....9..3..6..9....5......3..6..9.....6....23...7....3...7..1.........2"
     "..5.7.9.2..5...9.......8....4.......3.....9.23...7...23..67....3.567..........9.2..5.7...2.45......3"
     "4.....1...............8.........9...4...........78.......78...3......1............5.........6....2.."
     ".....1.........23....8...3.5..8..2.45..8..2..5..8......6.....34....9......7.9..3...7.9..3....8.....5"
     ".....2.........3..6.8.1..............7.......6..9.......89...4........4.....1.3..6.8.1.3..6.....3.56"
     ".8.....5..89..3.5..89.2.............78......67........78......678.........9.2...6.8....4......2....."
     "8.1..........3..........5...."
    ),
    ((10, 3),),  # 3 leaves r2c2
)


@pytest.mark.parametrize(("case", "name", "finder", "se"), [(APE_CASE, APE, find_aligned_pair_exclusions, 6.2),
                                                            (ATE_CASE, ATE, find_aligned_triplet_exclusions, 7.5)])
def test_aligned_exclusion_mined_cases(case, name, finder, se):
    puzzle, marks, expected = case
    state = CandidateGrid.parse(marks)
    # Mined with the wings and chains left out: in the full ladder a cheaper chain comes first here.
    ladder = tuple(rung for rung in SE_LADDER if not rung.technique.endswith("XYZ-Wing")
                   and rung.technique != FORCING_CHAIN)
    step, difficulty = next_se_step(state, ladder)
    assert (step.technique, difficulty, step.eliminations) == (name, se, expected)
    assert next(finder(state)).eliminations == expected
    assert_sound(step, bitdoku.solve(puzzle))


def _reference_exclusions(cg: CandidateGrid, degree: int) -> set:
    """Aligned exclusion the slow way, every combination listed (SE's definition), for checking the kernel."""
    masks, layout = cg.masks, cg.layout
    counts = [m.bit_count() for m in masks]
    excluders = {}
    for cell, count in enumerate(counts):
        if count < 2 or any(counts[p] == 1 for p in layout.peers[cell]):
            continue
        found = {p for p in layout.peers[cell] if 2 <= counts[p] <= degree}
        if found:
            excluders[cell] = found
    base = sorted(excluders)
    sets = set()
    for j, b in enumerate(base):
        for a in base[:j]:
            if degree == 2:
                sets.add((a, b))
            else:
                for c in (excluders[a] | excluders[b]) & set(base) - {a, b}:
                    sets.add(tuple(sorted((a, b, c))))
    results = set()
    for cells in sets:
        common = set.intersection(*(excluders[c] for c in cells))
        if len(common) < 2:
            continue
        used = [0] * len(cells)
        options = [[d for d in range(1, cg.n + 1) if masks[c] >> (d - 1) & 1] for c in cells]
        for values in product(*options):
            if any(values[x] == values[y] and layout.sees(cells[x], cells[y])
                   for x in range(len(cells)) for y in range(x + 1, len(cells))):
                continue
            union = sum({1 << (v - 1) for v in values})
            if any(masks[e] & ~union == 0 for e in common):
                continue
            for x, v in enumerate(values):
                used[x] |= 1 << (v - 1)
        gone = tuple(sorted((c, d) for x, c in enumerate(cells) for d in range(1, cg.n + 1)
                            if masks[c] >> (d - 1) & 1 and not used[x] >> (d - 1) & 1))
        if gone:
            results.add(gone)
    return results


def test_exclusion_kernel_agrees_with_the_slow_definition():
    lines = sample_lines("top1465_sample.txt")[6:9]
    states = [state for state, _ in _walk_states(lines, every=9)]
    fired = 0
    for state in states:
        for degree, finder in ((2, find_aligned_pair_exclusions), (3, find_aligned_triplet_exclusions)):
            expected = _reference_exclusions(state, degree)
            got = {step.eliminations for step in finder(state)}
            assert got == expected
            fired += bool(got)
    assert fired


def test_exclusion_bitset_kernel_finds_what_the_peer_scan_finds():
    """``exclusion._search`` (peers as bitsets) gives every exclusion of ``_search_scan`` (the peer table scanned),
    in the same order, with the same excluders, for the whole state and for random touched cells, on solve states
    with random candidates removed (so that many exclusions exist)."""
    import random

    import numpy as np

    from bitdoku.logic import exclusion

    rng = random.Random(7)
    lines = sample_lines("top1465_sample.txt")[:4]
    tables = Shape(3, 3).tables
    found = 0
    for state, _ in _walk_states(lines, every=6):
        masks = list(state.masks)
        for _ in range(8):
            cell = rng.randrange(81)
            if masks[cell].bit_count() > 2:
                digits = [d for d in range(9) if masks[cell] >> d & 1]
                masks[cell] &= ~(1 << rng.choice(digits))
        array = np.array(masks, dtype=np.uint64)
        for degree in (2, 3):
            touched = np.array([rng.random() < 0.3 for _ in range(81)])
            for flags in (np.ones(81, dtype=np.bool_), touched):
                ways = []
                for search in (exclusion._search_scan, exclusion._search):
                    out, cells, gone = [], np.zeros(3, np.int64), np.zeros(3, np.uint64)
                    common = np.zeros(tables.peers.shape[1], np.int64)
                    while len(out) < 40:
                        count = search(array, tables.peers, tables.cell_units, degree, len(out), cells, gone, common,
                                       flags)
                        if count == 0:
                            break
                        out.append((cells.tolist(), gone.tolist(), common[:count].tolist()))
                    ways.append(out)
                assert ways[0] == ways[1]
                found += len(ways[0])
    assert found > 100


# -- Spearman -------------------------------------------------------------------------------------------------


def test_spearman_by_hand():
    # No ties: rho = 1 - 6 * sum(d^2) / (n (n^2 - 1)) = 1 - 6 * 4 / 120 = 0.8.
    assert spearman([1, 2, 3, 4, 5], [2, 1, 4, 3, 5]) == pytest.approx(0.8)
    # Ties: ranks of x are 1, 2.5, 2.5, 4; the Pearson correlation of (1, 2.5, 2.5, 4) and (1, 3, 2, 4) is
    # 4.5 / sqrt(4.5 * 5) = 0.9487.
    assert average_ranks([1, 2, 2, 3]).tolist() == [1.0, 2.5, 2.5, 4.0]
    assert spearman([1, 2, 2, 3], [1, 3, 2, 4]) == pytest.approx(4.5 / (4.5 * 5) ** 0.5)
