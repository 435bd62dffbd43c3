import pytest

from bitdoku.logic import single_digit
from tests.logic.checks import (
    cases_of,
    check_case,
    compiled_finds_the_python_steps,
    solve_states,
    whole_and_thinned,
)

FINDERS = {
    "Skyscraper": single_digit.find_skyscrapers,
    "2-String Kite": single_digit.find_two_string_kites,
    "Simple Colouring": single_digit.find_simple_colouring,
    "X-Chain": single_digit.find_x_chains,
}


@pytest.mark.parametrize("case", cases_of(*FINDERS), ids=str)
def test_single_digit_cases(case):
    step = check_case(case, FINDERS[case.technique])
    assert len({digit for _, digit in step.eliminations}) == 1


def test_x_chain_text_shows_strong_and_weak_links():
    (case,) = [c for c in cases_of("X-Chain") if c.shape == "3x3"]
    step = check_case(case, single_digit.find_x_chains)
    assert step.text.startswith("6: r3c5=r7c5-r7c3=r9c1")


def test_turbot_fish_is_found_as_the_3_link_x_chain():
    """A Turbot Fish (strong, weak, strong link) with a strong link in a box, neither a Skyscraper nor a 2-String
    Kite: the X-Chain finder shows it, as the shortest chain."""
    (case,) = [c for c in cases_of("X-Chain") if c.shape == "3x3"]
    step = check_case(case, single_digit.find_x_chains)
    chain = step.text.split(" ")[1]
    assert chain == "r3c5=r7c5-r7c3=r9c1" and chain.count("=") == 2 and chain.count("-") == 1
    assert next(single_digit.find_skyscrapers(step.before), None) is None
    assert next(single_digit.find_two_string_kites(step.before), None) is None


def test_the_compiled_x_chains_find_the_python_ones(monkeypatch):
    """The compiled X-Chain search gives the Python search's steps (text, eliminations, cells) in its order, on
    the states of solves and the same states with random candidates removed, for the bounds SE's rules use
    (3, 5, 7 links) and the longest, with and without the changed digits given, and finds many chains."""
    import random

    from bitdoku.data import sample_lines
    from bitdoku.logic import explain, single_digit
    from bitdoku.logic.candidates import CandidateGrid
    from bitdoku.logic.changes import Changes

    rng = random.Random(17)
    found = 0
    for line in sample_lines("top1465_sample.txt")[:6]:
        for index, step in enumerate(explain(line, guess=True)):
            if index % 3:
                continue
            state = step.before
            masks = list(state.masks)
            for _ in range(6):  # fewer candidates: more strong links, so more chains
                cell = rng.randrange(81)
                if masks[cell].bit_count() > 2:
                    masks[cell] &= ~(masks[cell] & -masks[cell])
            thinned = CandidateGrid(state.values, tuple(masks), state.shape)
            for cg in (state, thinned):
                for links in (3, 5, 7, single_digit.MAX_CHAIN_LINKS):
                    digits = rng.getrandbits(9)
                    changes = Changes(1, tuple(digits >> d & 1 for d in range(9)))
                    for given in (None, changes):
                        ways = []
                        for compiled in (False, True):
                            monkeypatch.setattr(single_digit, "COMPILED", compiled)
                            steps = single_digit.find_x_chains(cg, given, links)
                            ways.append([(s.text, s.eliminations, s.cells) for s in steps])
                        assert ways[0] == ways[1]
                        found += len(ways[0])
    assert found > 200, found


def test_the_compiled_skyscrapers_and_kites_find_the_python_ones(monkeypatch):
    """The compiled searches give the Python finders' Skyscrapers and 2-String Kites (text, eliminations, cells,
    units) in their order, on solve states whole and with one digit thinned, given the changed digits or not."""
    import random

    rng = random.Random(41)
    finders = (single_digit.find_skyscrapers, single_digit.find_two_string_kites)
    found = [0, 0]
    for state in solve_states(6, famous=3):
        masks = list(state.masks)
        digit = 1 << rng.randrange(9)
        for cell in rng.sample(range(81), 25):
            if masks[cell] & ~digit and masks[cell] & digit:
                masks[cell] &= ~digit
        for cg, changes in whole_and_thinned(state, masks):
            for i, finder in enumerate(finders):
                found[i] += compiled_finds_the_python_steps(monkeypatch, single_digit, finder, cg, changes)
    assert min(found) > 50, found
