import pytest

from bitdoku.logic import intersections
from bitdoku.logic.candidates import CandidateGrid
from tests.logic.checks import (
    cases_of,
    check_case,
    compiled_finds_the_python_steps,
    solve_states,
    whole_and_thinned,
)


@pytest.mark.parametrize("case", cases_of(intersections.POINTING), ids=str)
def test_pointing_cases(case):
    step = check_case(case, intersections.find_pointing)
    line, box = step.units  # units are sorted: rows and columns come before boxes
    assert line < 2 * CandidateGrid.parse(case.marks, shape=case.shape).n <= box


@pytest.mark.parametrize("case", cases_of(intersections.CLAIMING), ids=str)
def test_claiming_cases(case):
    step = check_case(case, intersections.find_claiming)
    assert "(locked candidates, claiming)" in step.text


def test_pointing_text_from_top1465():
    (case,) = [c for c in cases_of(intersections.POINTING) if c.shape == "3x3"]
    step = check_case(case, intersections.find_pointing)
    assert step.text == (
        "in box 8, 6 fits only in row 8 (r8c5, r8c6), so remove 6 from r8c9 (locked candidates, pointing)"
    )


def test_pointing_on_a_hand_made_4x4():
    # Box 1 keeps digit 1 only in r1c1 and r1c2, so 1 goes from r1c3 and r1c4.
    every = "1234"
    no_one = ".234"
    marks = every + every + every + every + no_one * 2 + every * 2 + every * 8
    state = CandidateGrid.parse(marks)
    step = next(intersections.find_pointing(state))
    assert step.eliminations == ((2, 1), (3, 1)) and step.units == (0, 8)


def test_the_compiled_locked_candidates_find_the_python_ones(monkeypatch):
    """The compiled search gives the Python finders' pointing and claiming steps (text, eliminations, cells,
    units) in their order, on solve states (whole and thinned, given the changes or not)."""
    import random

    rng = random.Random(31)
    found = [0, 0]
    for state in solve_states(5, famous=3):
        masks = list(state.masks)
        for cell in rng.sample(range(81), 12):
            if masks[cell].bit_count() > 1:
                masks[cell] &= ~(1 << (masks[cell].bit_length() - 1))
        for cg, changes in whole_and_thinned(state, masks):
            for i, finder in enumerate((intersections.find_pointing, intersections.find_claiming)):
                found[i] += compiled_finds_the_python_steps(monkeypatch, intersections, finder, cg, changes)
    assert all(found), found
