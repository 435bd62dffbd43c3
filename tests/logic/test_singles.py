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


def _all_hidden_singles(state: CandidateGrid) -> list[tuple]:
    finders = (singles.find_hidden_singles_in_boxes, singles.find_hidden_singles_in_rows,
               singles.find_hidden_singles_in_columns, singles.find_hidden_singles_in_extra_units)
    return [(step.placements, step.units) for finder in finders for step in finder(state)]


def _states_of(grid: Grid) -> list[CandidateGrid]:
    from bitdoku.logic import explain

    return [step.before for step in explain(grid)]


def test_the_memo_of_quiet_units_never_hides_a_hidden_single():
    """Each state of two explanations, visited in an order that jumps back and forth between the puzzles and
    within each (a state seen, then an older one): the memo's answers equal those of a fresh scan."""
    from tests.logic.test_killer_logic import samples

    (killer_a, _, _), (killer_b, _, _) = samples()[:2]
    classic = Grid.parse("4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......")
    for first, second in ((killer_a, killer_b), (classic, classic)):
        a, b = _states_of(first), _states_of(second)
        order = [s for pair in zip(a, reversed(b), strict=False) for s in pair] + a[::3] + a[::-2]
        fresh = []
        for state in order:
            singles._last_quiet = None
            fresh.append(_all_hidden_singles(state))
        singles._last_quiet = None
        remembered = [_all_hidden_singles(state) for state in order]
        assert remembered == fresh
        assert any(fresh), "the walk must meet hidden singles for the check to mean anything"


def test_the_memo_marks_quiet_units_and_forgets_them_when_their_cells_change():
    state = CandidateGrid.from_grid(Grid.parse("123." "...." "...." "...."))
    singles._last_quiet = None
    assert list(singles.find_hidden_singles_in_columns(state)) == []
    columns = (1 << 8) - (1 << 4)  # units 4-7 of a 4x4 grid
    assert singles._last_quiet.quiet & columns == columns
    after = state.eliminate([(5, 3)])  # r2c2 loses 3: its row (unit 1), column (unit 5) and box (unit 8) change
    memo = singles._quiet_units(after)
    assert not memo.quiet >> 5 & 1, "column 2 holds the changed cell: it must be scanned again"
    assert memo.quiet >> 4 & 1 and memo.quiet >> 6 & 1 and memo.quiet >> 7 & 1
