import pytest

from bitdoku.logic import wings
from tests.logic.checks import cases_of, check_case

FINDERS = {"XY-Wing": wings.find_xy_wings, "XYZ-Wing": wings.find_xyz_wings, "W-Wing": wings.find_w_wings}


@pytest.mark.parametrize("case", cases_of(*FINDERS), ids=str)
def test_wing_cases(case):
    step = check_case(case, FINDERS[case.technique])
    assert len({digit for _, digit in step.eliminations}) == 1


def test_xy_wing_text_from_top1465():
    (case,) = [c for c in cases_of("XY-Wing") if c.shape == "3x3"]
    step = check_case(case, wings.find_xy_wings)
    assert step.text == (
        "pivot r4c2 {2, 8} with pincers r2c2 {2, 9} and r5c3 {8, 9}: one of them is 9, so remove 9 from r6c2 (XY-Wing)"
    )
