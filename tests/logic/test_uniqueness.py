import pytest

from bitdoku.logic import uniqueness
from tests.logic.checks import cases_of, check_case

FINDERS = {
    "Unique Rectangle Type 1": uniqueness.find_unique_rectangles_type_1,
    "BUG+1": uniqueness.find_bug_plus_1,
}


@pytest.mark.parametrize("case", cases_of(*FINDERS), ids=str)
def test_uniqueness_cases(case):
    check_case(case, FINDERS[case.technique])


def test_bug_plus_1_places_the_digit():
    (case,) = cases_of("BUG+1")
    step = check_case(case, uniqueness.find_bug_plus_1)
    assert step.placements and not step.eliminations
    assert step.text.startswith("r5c5 = 7:")


def test_the_docstring_says_uniqueness_is_assumed():
    assert "exactly one solution" in uniqueness.__doc__
