import pytest

from bitdoku.logic import single_digit
from tests.logic.checks import cases_of, check_case

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
