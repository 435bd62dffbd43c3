"""Killer techniques (``logic/killer.py``, ``logic/cage_sums.py``): each fires on a hand-made position with its
exact sentence, every step is sound on random small Killers and on the sample Killers, and explain, hint and rate
solve the samples on the Killer ladder without guessing."""

from __future__ import annotations

import importlib
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings

import bitdoku
from bitdoku import Grid, Shape
from bitdoku.logic import killer
from bitdoku.logic.cage_sums import group_options, groups_of
from bitdoku.logic.candidates import CandidateGrid
from bitdoku.logic.explain import KILLER_LADDER, LADDER, VARIANT_LADDER, explain, geometry_ladder, hint
from bitdoku.logic.rating import KILLER_SE_LADDER, rate
from tests.constraints.test_killer import keeping, killers
from tests.logic.checks import assert_sound

#: A 4x4 Killer (two solutions, r1c1..r4c4 = 1234 3412 2143 4321 one of them): cage A is r1c1 (1), B r1c2-r1c3
#: (5), C r1c4-r2c4 (6), D r2c1-r2c2 (7), E r2c3-r3c3 (5), F r3c1-r4c1 (6), G r3c2-r4c2 (4), H r3c4-r4c4 (4),
#: I r4c3 (2).
explain_module = importlib.import_module("bitdoku.logic.explain")  # the package exports the function by that name

SMALL = "ABBCDDECFGEHFGIH 1,5,6,7,5,6,4,4,2"
#: 8 of the shared Killers with their solutions (krazydad.com, see the file's header).
SAMPLES = Path(__file__).with_name("killer_samples.txt")


def samples() -> list[tuple[Grid, Grid, str]]:
    found = []
    for line in SAMPLES.read_text().splitlines():
        if line.strip() and not line.startswith("#"):
            cage_map, sums, solution, name = line.split()
            found.append((Grid.parse(f"{cage_map} {sums}", variant="killer"), Grid.parse(solution), name))
    return found


def small() -> CandidateGrid:
    return CandidateGrid.from_grid(Grid.parse(SMALL, variant="killer"))


def test_cage_sum_places_a_one_cell_cage_and_the_last_cell_of_a_cage():
    state = small()
    steps = list(killer.find_cage_sums(state))
    assert [s.text for s in steps] == [
        "r1c1 = 1: cage A (r1c1) is one cell, so it holds its sum 1 (cage sum)",
        "r4c3 = 2: cage I (r4c3) is one cell, so it holds its sum 2 (cage sum)",
    ]
    after = state.place(3, 4)  # r1c4 = 4: r2c4 is the last cell of cage C (6)
    step = next(s for s in killer.find_cage_sums(after) if s.placements == ((7, 2),))
    assert step.text == "r2c4 = 2: cage C (r1c4, r2c4) adds up to 6 and r1c4 holds 4, so r2c4 = 6 - 4 = 2 (cage sum)"


def test_cage_combinations_remove_the_digits_no_combination_fits():
    steps = list(killer.find_cage_combinations(small()))
    assert steps[1].text == ("cage C (r1c4, r2c4) adds up to 6: only {2, 4} fits the candidates, so remove 1, 3 "
                             "from r1c4, r2c4 (cage combinations)")
    assert steps[1].eliminations == ((3, 1), (3, 3), (7, 1), (7, 3))
    assert steps[1].technique == killer.CAGE_COMBINATIONS


def test_cage_combinations_respect_placed_digits_and_the_cells_candidates():
    state = small()
    # cage B (r1c2, r1c3) = 5: with 1 and 4 gone from r1c2, {1, 4} cannot fit, so only {2, 3} is left
    step = next(s for s in killer.find_cage_combinations(state.eliminate([(1, 1), (1, 4)])) if 1 in s.cells)
    assert step.eliminations == ((2, 1), (2, 4))
    assert "only {2, 3} fits the candidates" in step.text
    # with 2 placed in r1c2, r1c3 keeps only 3
    step = next(s for s in killer.find_cage_combinations(state.place(1, 2)) if 1 in s.cells)
    assert step.eliminations == ((2, 1), (2, 4))
    assert step.text.startswith("cage B (r1c2, r1c3) adds up to 5 and r1c2 holds 2: only {2, 3} fits")


def test_an_innie_is_placed_and_innies_are_a_virtual_cage():
    steps = list(killer.find_innies(small()))
    assert steps[0].text == ("r1c4 = 4: the cells of row 1 add up to 10; its cages cover all but r1c4, whose value "
                             "is 10 - 6 = 4 (innie)")
    assert steps[0].placements == ((3, 4),)
    assert steps[1].text == ("the cells of row 2 add up to 10; its cages cover all but r2c3, r2c4, which add up to "
                             "10 - 7 = 3: only {1, 2} fits the candidates, so remove 3, 4 from r2c3, r2c4 (innies)")


def test_an_outie_is_placed_and_outies_are_a_virtual_cage_whose_digits_may_repeat():
    steps = list(killer.find_outies(small()))
    assert steps[0].text == ("r2c4 = 2: the cells of row 1 add up to 10; the cages over them add up to 12 and stick "
                             "out by r2c4, whose value is 12 - 10 = 2 (outie)")
    assert steps[1].text == (
        "the cells of row 2 add up to 10; the cages over them add up to 18 and stick out by r1c4, r3c3, which add "
        "up to 18 - 10 = 8, and no filling of them from their candidates that makes 8 puts 1, 2, 3 in r1c4, r3c3, "
        "so remove them (outies)")


def test_a_required_digit_leaves_the_cells_that_see_all_its_places():
    step = next(s for s in killer.find_required_digits(small()) if s.units == () and 3 in s.cells)
    assert step.text == ("cage C (r1c4, r2c4) adds up to 6: the one combination that fits holds 2, which fits only "
                         "in r1c4, r2c4, so remove 2 from r1c3, r2c3, r3c4, r4c4, which see them all (required digit)")


def test_rule_of_45_on_several_units_and_cage_splitting():
    grid, solution, name = samples()[2]
    assert name == "KD_Killer_IM3-B30-P7"
    state = CandidateGrid.from_grid(grid)
    innies = next(killer.find_big_innies(state))
    assert innies.text == ("the cells of rows 1-2 add up to 90; its cages cover all but r2c4, r2c6, which add up to "
                           "90 - 76 = 14: only {6, 8} and {5, 9} fit the candidates, so remove 1, 2, 3, 4, 7 from "
                           "r2c4, r2c6 (innies)")
    outies = next(killer.find_big_outies(state))
    assert outies.text == ("the cells of rows 1-2 add up to 90; the cages over them add up to 94 and stick out by "
                           "r3c4, r3c6, which add up to 94 - 90 = 4: only {1, 3} fits the candidates, so remove "
                           "2, 4, 5, 6, 7, 8, 9 from r3c4, r3c6 (outies)")
    split = next(killer.find_cage_splits(state))
    assert split.text == (
        "the cells of box 2 add up to 45; its cages cover all but r1c4, r1c6, r3c5, which add up to 45 - 24 = 21; "
        "the outies of columns 1-3 (r1c4) add up to 7, so the rest, r1c6, r3c5, which add up to 21 - 7 = 14: only "
        "{6, 8} and {5, 9} fit the candidates, so remove 1, 2, 3, 4, 7 from r1c6, r3c5 (cage splitting)")
    for step in (innies, outies, split):
        assert_sound(step, solution)


def test_the_combination_rule_is_exact_for_distinct_digits():
    """Every digit kept is in a filling, every digit removed in none: against brute force on small cages."""
    from itertools import product

    cases = [(9, (0b1111, 0b1010, 0b0110)), (15, (0b111111111, 0b100000001, 0b011111110)), (7, (0b0011, 0b1100))]
    for total, masks in cases:
        got = group_options(total, masks, None, 9).allowed
        fillings = [digits for digits in product(*[[d for d in range(1, 10) if m >> (d - 1) & 1] for m in masks])
                    if len(set(digits)) == len(digits) and sum(digits) == total]
        expected = [0] * len(masks)
        for filling in fillings:
            for i, digit in enumerate(filling):
                expected[i] |= 1 << (digit - 1)
        assert got == tuple(expected) or not fillings


def test_killer_grids_use_the_killer_ladder_without_uniqueness_or_compiled_finders(monkeypatch):
    state = small()
    assert geometry_ladder(state) is KILLER_LADDER
    assert not any(rung.needs_unique for rung in KILLER_LADDER)
    assert {rung.technique for rung in KILLER_LADDER} >= set(killer.DIFFICULTY)
    killer_finders = {rung.find for _, rung in explain_module._KILLER_RUNGS}
    assert tuple(rung for rung in KILLER_LADDER if rung.find not in killer_finders) == VARIANT_LADDER
    classic = CandidateGrid.from_grid(Grid.parse("." * 16))
    assert geometry_ladder(classic) is LADDER and geometry_ladder(classic, VARIANT_LADDER) is VARIANT_LADDER

    def no_count(*args, **kwargs):
        raise AssertionError("explain counted solutions on a Killer")

    monkeypatch.setattr(explain_module, "is_unique_by_search", no_count)
    grid = samples()[0][0]
    assert all(step.technique != "Stalled" for step in explain(grid, unique=True))
    assert [rung.technique for rung in KILLER_SE_LADDER[:2]] == [killer.CAGE_SUM, killer.CAGE_COMBINATIONS]


def test_a_grid_without_cages_gets_nothing_from_the_killer_finders():
    classic = CandidateGrid.from_grid(Grid.parse("." * 16))
    finders = [rung.find for _, rung in explain_module._KILLER_RUNGS]
    assert all(next(find(classic), None) is None for find in finders)
    assert groups_of(classic.geometry).cages == ()


@pytest.mark.parametrize("index", range(8))
def test_explain_solves_the_sample_killers_without_guessing_and_every_step_is_sound(index):
    grid, solution, name = samples()[index]
    steps = list(explain(grid))
    assert steps and steps[-1].after.values == solution.cells, name
    for step in steps:
        assert step.technique not in ("Guess", "Stalled", "Contradiction"), step.text
        assert_sound(step, solution)


def test_hint_and_rate_on_a_killer():
    grid = samples()[0][0]
    first = hint(grid)
    assert first is not None and first.technique in killer.DIFFICULTY
    for scale in ("se", "bitdoku"):
        rating = rate(grid, scale=scale)
        assert rating.level != "beyond logic" and rating.score > 0 and "Guess" not in rating.counts
        assert rating.counts.get(killer.CAGE_COMBINATIONS, 0) > 0
    assert bitdoku.rate(grid, scale="bitdoku").hardest in {*killer.DIFFICULTY, "Hidden Single", "Naked Single",
                                                           "Locked Candidates (Pointing)",
                                                           "Locked Candidates (Claiming)"}


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(killers(shapes=(Shape(2, 2), Shape(2, 3), Shape(3, 2))))
def test_every_step_on_a_random_small_killer_is_sound(made):
    grid, solution = made
    grid = keeping(grid, solution)  # the solution it was made from solves it (maybe with others)
    state = CandidateGrid.from_grid(grid)
    for rung in explain_module._KILLER_RUNGS:  # each finder, every step it finds on the first position
        for step in rung[1].find(state):
            assert_sound(step, solution)
    for step in explain(grid):
        if step.technique == "Stalled":
            break
        assert step.technique != "Contradiction", step.text
        assert_sound(step, solution)


@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(killers(shapes=(Shape(3, 3),)))
def test_every_step_on_a_random_9x9_killer_is_sound(made):
    grid, solution = made
    grid = keeping(grid, solution)
    for step in explain(grid, max_steps=400):
        if step.technique == "Stalled":
            break
        assert_sound(step, solution)


@pytest.mark.parametrize("index", range(3))
def test_the_incremental_contradiction_check_misses_nothing(index):
    """Along a solve, with random candidates taken away (the solution's among them, so contradictions come),
    ``_may_contradict`` is true wherever ``problem`` finds something new."""
    import random

    grid = samples()[index][0]
    chooser = random.Random(index)
    checked = 0
    for step in explain(grid):
        state = step.before
        if state.problem() is not None:
            break
        for _ in range(5):
            open_cells = [c for c in range(81) if state.masks[c]]
            cells = chooser.sample(open_cells, min(3, len(open_cells)))
            pairs = [(c, d) for c in cells for d in state.candidates(c) if chooser.random() < 0.6]
            after = state.eliminate(pairs)
            if after.problem() is not None:
                checked += 1
                assert explain_module._may_contradict(state, after)
    assert checked > 0
