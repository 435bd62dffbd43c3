import pytest

from bitdoku.logic import chains
from tests.logic.checks import cases_of, check_case

FINDERS = {"Remote Pairs": chains.find_remote_pairs, "XY-Chain": chains.find_xy_chains}


@pytest.mark.parametrize("case", cases_of(*FINDERS), ids=str)
def test_chain_cases(case):
    step = check_case(case, FINDERS[case.technique])
    assert len(step.cells) >= 4


def test_xy_chain_is_bounded():
    assert 4 <= chains.MAX_CHAIN_CELLS <= 20
