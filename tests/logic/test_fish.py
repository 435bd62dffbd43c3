import pytest

from bitdoku.logic import fish
from tests.logic.checks import cases_of, check_case

FINDERS = {"X-Wing": fish.find_x_wing, "Swordfish": fish.find_swordfish, "Jellyfish": fish.find_jellyfish}


@pytest.mark.parametrize("case", cases_of(*FINDERS), ids=str)
def test_fish_cases(case):
    step = check_case(case, FINDERS[case.technique])
    size = {"X-Wing": 2, "Swordfish": 3, "Jellyfish": 4}[case.technique]
    assert len(step.units) == 2 * size


def test_x_wing_text_from_top1465():
    (case,) = [c for c in cases_of("X-Wing") if c.shape == "3x3"]
    step = check_case(case, fish.find_x_wing)
    assert step.text == "in rows 5 and 8, 3 fits only in columns 1 and 9, so remove 3 from r2c1 (X-Wing)"
