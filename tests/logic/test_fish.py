import pytest

from bitdoku.logic import fish
from tests.logic.checks import (
    cases_of,
    check_case,
    compiled_finds_the_python_steps,
    solve_states,
    whole_and_thinned,
)

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


def test_digit_lines_in_numpy_match_the_loop_over_candidates():
    """The NumPy line masks equal the Python loop's, on random masks of several sizes (the highest digit too)."""
    import random

    from bitdoku import Shape
    from bitdoku.logic import fish
    from bitdoku.logic.candidates import CandidateGrid

    rng = random.Random(3)
    for shape in (Shape(2, 2), Shape(3, 3), Shape(4, 4), Shape(5, 5)):
        n = shape.n
        masks = tuple(rng.getrandbits(n) if rng.random() < 0.8 else 0 for _ in range(n * n))
        masks = (*masks[:-1], 1 << (n - 1) | 1)
        state = CandidateGrid(bytes(0 if m else 1 for m in masks), masks, shape)
        rows = [[sum(1 << c for c in range(n) if masks[r * n + c] >> d & 1) for r in range(n)] for d in range(n)]
        cols = [[sum(1 << r for r in range(n) if masks[r * n + c] >> d & 1) for c in range(n)] for d in range(n)]
        assert fish._digit_lines_numpy(masks, n) == tuple((tuple(rows[d]), tuple(cols[d])) for d in range(n))
        assert fish.digit_lines(state) == fish._digit_lines_numpy(masks, n)


def test_the_compiled_basic_fish_find_the_python_ones(monkeypatch):
    """The compiled basic fish search gives the Python finder's steps (text, eliminations, cells, units) in its
    order, X-Wing to Jellyfish, on solve states thinned so that fish abound, whole and given changes."""
    import random

    rng = random.Random(29)
    finders = [fish.basic_fish(k) for k in (2, 3, 4)]
    found = [0, 0, 0]
    for state in solve_states(6, famous=3):
        masks = list(state.masks)
        digit = 1 << rng.randrange(9)
        for cell in rng.sample(range(81), 30):  # one digit thinned: its lines get few places
            if masks[cell] & ~digit and masks[cell] & digit:
                masks[cell] &= ~digit
        for cg, changes in whole_and_thinned(state, masks):
            for i, finder in enumerate(finders):
                found[i] += compiled_finds_the_python_steps(monkeypatch, fish, finder, cg, changes)
    assert all(found), found
