import pytest

from bitdoku.logic import subsets
from bitdoku.logic.candidates import CandidateGrid
from tests.logic.checks import (
    cases_of,
    check_case,
    compiled_finds_the_python_steps,
    solve_states,
    whole_and_thinned,
)

FINDERS = {
    "Naked Pair": subsets.find_naked_pairs,
    "Naked Triple": subsets.find_naked_triples,
    "Naked Quad": subsets.find_naked_quads,
    "Hidden Pair": subsets.find_hidden_pairs,
    "Hidden Triple": subsets.find_hidden_triples,
    "Hidden Quad": subsets.find_hidden_quads,
}


@pytest.mark.parametrize("case", cases_of(*FINDERS), ids=str)
def test_subset_cases(case):
    step = check_case(case, FINDERS[case.technique])
    assert len(step.units) == 1


def test_naked_pair_text_from_top1465():
    (case,) = [c for c in cases_of("Naked Pair") if c.shape == "3x3"]
    step = check_case(case, subsets.find_naked_pairs)
    assert step.text == "in column 1, r8c1, r9c1 hold only {4, 5}, so remove 4 from r5c1 (naked pair)"


def test_naked_pair_on_a_hand_made_4x4_row():
    # Row 1: r1c1 and r1c2 hold only {1, 2}, so 1 and 2 leave r1c3 and r1c4.
    marks = "12.." "12.." "1234" "1234" + "1234" * 12
    step = next(subsets.find_naked_pairs(CandidateGrid.parse(marks)))
    assert step.eliminations == ((2, 1), (2, 2), (3, 1), (3, 2))


def test_hidden_pair_is_the_mirror_of_the_naked_pair():
    # Row 1 of a 4x4: 3 and 4 fit only in r1c3 and r1c4, which also hold 1 and 2.
    marks = "12.." "12.." "1234" "1234" + "1234" * 12
    steps = list(subsets.find_hidden_pairs(CandidateGrid.parse(marks)))
    assert any(s.units == (0,) and s.eliminations == ((2, 1), (2, 2), (3, 1), (3, 2)) for s in steps)


def test_groups_with_a_required_item_are_the_filtered_groups_in_order():
    """``_union_groups_with`` gives exactly the groups of ``_union_groups`` holding a required key, in order."""
    import random

    from bitdoku.logic.subsets import _union_groups, _union_groups_with

    rng = random.Random(7)
    seen = 0
    for _ in range(400):
        k = rng.choice((2, 3, 4))
        digits = list(range(k + 2))
        masks = [sum(1 << d for d in rng.sample(digits, rng.randint(1, k))) for _ in range(rng.randrange(2, 9))]
        items = list(enumerate(masks))
        required = {key for key, _ in items if rng.random() < 0.3}
        whole = [(keys, union) for keys, union in _union_groups(items, k) if required & set(keys)]
        assert list(_union_groups_with(items, k, required)) == whole
        seen += len(whole)
    assert seen > 50


def test_the_compiled_subsets_find_the_python_ones(monkeypatch):
    """The compiled subset search gives the Python finders' steps (text, eliminations, cells, units) in their
    order, naked and hidden, pairs to quads, on the states of solves and the same states with candidates removed,
    on the whole state and given the changes (the ladder memo's calls), and finds sets of every kind."""
    import random

    rng = random.Random(23)
    finders = [subsets.naked_subsets(k) for k in (2, 3, 4)] + [subsets.hidden_subsets(k) for k in (2, 3, 4)]
    found = [0] * len(finders)
    for state in solve_states(6, famous=3):
        masks = list(state.masks)
        for _ in range(5):
            cell = rng.randrange(81)
            if masks[cell].bit_count() > 2:
                masks[cell] &= ~(masks[cell] & -masks[cell])
        for cg, changes in whole_and_thinned(state, masks):
            for i, finder in enumerate(finders):
                found[i] += compiled_finds_the_python_steps(monkeypatch, subsets, finder, cg, changes)
    assert all(found), found
