import json

from bitdoku import Grid
from bitdoku.logic import CandidateGrid, Step
from bitdoku.logic.step import digit_list, make_step, names, removals


def test_make_step_sorts_and_dedupes_so_equal_steps_compare_equal():
    before = CandidateGrid.from_grid(Grid.empty("2x2"))
    a = make_step("X", before, "t", eliminations=[(3, 1), (1, 2), (3, 1)], cells=[3, 1], units=[5, 0])
    b = make_step("X", before.place(0, 1), "t", eliminations=[(1, 2), (3, 1)], cells=[1, 3], units=[0, 5])
    assert a == b and a.eliminations == ((1, 2), (3, 1))


def test_to_dict_is_json_with_human_names():
    before = CandidateGrid.from_grid(Grid.empty("3x3"))
    step = make_step("Naked Pair", before, "in row 1 ...", eliminations=[(2, 4)], cells=[0, 1], units=[0, 18])
    record = json.loads(json.dumps(step.to_dict()))
    assert record == {
        "technique": "Naked Pair",
        "text": "in row 1 ...",
        "placements": [],
        "eliminations": [{"cell": "r1c3", "digit": 4}],
        "cells": ["r1c1", "r1c2"],
        "units": ["row 1", "box 1"],
        "before": "123456789" * 81,
    }
    assert str(step) == "in row 1 ..." and step.is_deduction and isinstance(step, Step)


def test_text_helpers():
    assert names([10, 0], 9) == "r1c1, r2c2"
    assert removals([(0, 7), (10, 7), (30, 8)], 9) == "7 from r1c1, r2c2; 8 from r4c4"
    assert digit_list([7, 3]) == "{3, 7}"
