import pytest

from bitdoku.logic import wings
from tests.logic.checks import (
    cases_of,
    check_case,
    compiled_finds_the_python_steps,
    solve_states,
    whole_and_thinned,
)

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


def test_the_almost_locked_set_cache_stays_a_few_megabytes(monkeypatch):
    """The cache of ``als_wings._unit_sets`` (the Python search's) lives as long as the process: ``bitdoku rate``
    of a big file filled it for every puzzle, at 65,536 entries of about 1.3 KB each (its hits come from the passes
    of one puzzle). Its capacity times what an entry holds must stay small."""
    import gc
    import tracemalloc

    from bitdoku.data import sample_lines
    from bitdoku.logic import als_wings
    from bitdoku.logic.rating import rate

    monkeypatch.setattr(als_wings, "COMPILED", False)
    puzzles = sample_lines("top1465_sample.txt")[:5]
    for line in puzzles[1:]:  # the tables built once per shape and the forcing search's scratch are not measured
        rate(line)
    als_wings._unit_sets.cache_clear()
    gc.collect()
    tracemalloc.start()
    try:
        for line in puzzles[1:]:
            rate(line)
        gc.collect()
        held = tracemalloc.get_traced_memory()[0]
    finally:
        tracemalloc.stop()
    info = als_wings._unit_sets.cache_info()
    assert info.currsize > 50  # the puzzles used the cache
    assert info.maxsize * held / info.currsize < 16 * 2**20


def test_the_compiled_als_wings_find_the_python_ones(monkeypatch):
    """The compiled ALS wing search gives the Python search's steps (text, eliminations, cells, rating) in its
    order, on the states of solves, for the whole state and for random sets of changed cells (the ladder memo's
    calls), and the states hold wings of every size."""
    import random

    from bitdoku.data import sample_lines
    from bitdoku.logic import als_wings, explain
    from bitdoku.logic.changes import Changes

    rng = random.Random(13)
    found = dict.fromkeys(range(3, 7), 0)
    for line in sample_lines("top1465_sample.txt")[:8]:
        for index, step in enumerate(explain(line, guess=True)):
            if index % 2:
                continue
            state = step.before
            for size in range(3, 7):
                for touched in (None, rng.getrandbits(81) & rng.getrandbits(81), 1 << rng.randrange(81)):
                    changes = None if touched is None else Changes(touched, ())
                    ways = []
                    for compiled in (False, True):
                        monkeypatch.setattr(als_wings, "COMPILED", compiled)
                        finder = als_wings.wing_finder(size)
                        steps = finder(state) if changes is None else finder(state, changes)
                        ways.append([(s.text, s.eliminations, s.cells, s.difficulty) for s in steps])
                    assert ways[0] == ways[1]
                    found[size] += len(ways[0])
    assert all(found.values()), found


def test_the_compiled_xy_and_xyz_wings_find_the_python_ones(monkeypatch):
    """The compiled search gives the Python finders' XY- and XYZ-Wings (text, eliminations, cells, units) in their
    order, on solve states whole and thinned (more bivalue cells), whole and given the changed cells."""
    import random

    rng = random.Random(43)
    finders = (wings.find_xy_wings, wings.find_xyz_wings)
    found = [0, 0]
    for state in solve_states(6, famous=3):
        masks = list(state.masks)
        for cell in rng.sample(range(81), 20):
            if masks[cell].bit_count() > 2:
                masks[cell] &= ~(masks[cell] & -masks[cell])
        for cg, changes in whole_and_thinned(state, masks):
            for i, finder in enumerate(finders):
                found[i] += compiled_finds_the_python_steps(monkeypatch, wings, finder, cg, changes)
    assert min(found) > 20, found
