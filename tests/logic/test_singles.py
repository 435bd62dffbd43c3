import pytest

from bitdoku import Grid
from bitdoku.logic import singles
from bitdoku.logic.candidates import CandidateGrid
from tests.logic.checks import cases_of, check_case


def test_hidden_single_case_from_top1465():
    (case,) = cases_of("Hidden Single")
    step = check_case(case, singles.find_hidden_singles_in_boxes)
    assert step.text == "r9c3 = 7: in box 7, 7 fits only in r9c3 (hidden single)"


def test_naked_single_case_from_top1465():
    (case,) = cases_of("Naked Single")
    step = check_case(case, singles.find_naked_singles)
    assert step.text == "r9c5 = 4: 4 is the only candidate left in r9c5 (naked single)"


def test_hidden_singles_in_rows_name_the_row():
    # 4x4: row 1 needs 4 and only r1c4 can take it.
    state = CandidateGrid.from_grid(Grid.parse("123." "...." "...." "...."))
    rows = list(singles.find_hidden_singles_in_rows(state))
    assert [(s.placements, s.units) for s in rows] == [(((3, 4),), (0,))]
    assert rows[0].text == "r1c4 = 4: in row 1, 4 fits only in r1c4 (hidden single)"


@pytest.mark.parametrize("kind", ["rows", "columns", "boxes"])
def test_hidden_singles_name_their_unit(kind):
    grid = Grid.parse("1..." "..2." ".3.." "...4")
    state = CandidateGrid.from_grid(grid)
    finder = getattr(singles, f"find_hidden_singles_in_{kind}")
    for step in finder(state):
        (unit,) = step.units
        assert state.shape.unit_name(unit).startswith(kind.rstrip("s").replace("boxe", "box"))
        assert step.technique == singles.HIDDEN_SINGLE


def test_a_full_unit_but_one_cell_gives_a_naked_single_16x16():
    line = "123456789ABCDEF." + "." * 240
    state = CandidateGrid.parse(line)
    step = next(singles.find_naked_singles(state))
    assert step.placements == ((15, 16),) and "r1c16 = 16" in step.text
