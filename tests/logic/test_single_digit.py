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
