"""The time budget of human-style solving: the techniques look at the clock, so a near-empty big grid ends on
time instead of after one step of many seconds (a hint took 14 s, a rating 67 s on an empty 25x25 grid)."""

import threading
import time

import pytest

from bitdoku import Grid
from bitdoku.data import DEMO
from bitdoku.errors import StepLimitError, TimeLimitError
from bitdoku.logic import explain, hint, rate
from bitdoku.logic.budget import check_time, seconds_left, time_budget
from bitdoku.logic.candidates import as_candidates
from bitdoku.logic.explain import _solution_for, is_unique_by_search

NEAR_EMPTY_25 = Grid.parse("1" + "." * 624, shape="5x5")


def test_a_check_raises_only_once_the_budget_of_its_block_is_spent():
    check_time()  # no budget: never raises
    with time_budget(None):
        check_time()
    with time_budget(60):
        check_time()
        with time_budget(0), pytest.raises(TimeLimitError, match="time budget of 0 s"):
            check_time()
        check_time()  # the outer budget is back
    check_time()


def test_a_budget_belongs_to_its_thread():
    seen = []
    with time_budget(0):
        thread = threading.Thread(target=lambda: seen.append(check_time()))
        thread.start()
        thread.join()
    assert seen == [None]


def test_a_time_limit_is_a_step_limit_so_every_caller_already_handles_it():
    assert issubclass(TimeLimitError, StepLimitError) and TimeLimitError(2.5).seconds == 2.5


@pytest.mark.parametrize("work", [
    lambda: hint(NEAR_EMPTY_25, guess=True),
    lambda: list(explain(NEAR_EMPTY_25, guess=True)),
    lambda: rate(NEAR_EMPTY_25),
], ids=["hint", "explain", "rate"])
def test_a_near_empty_25x25_grid_stops_at_its_budget(work):
    with time_budget(0.3), pytest.raises(TimeLimitError):
        work()  # a first run compiles (or loads) the kernels it reaches: compile time is not a stretch of work
    # CPU time of this thread, not wall time: on a loaded machine the wall clock runs on while the thread waits
    # for a core, but without the budget the work would spend many seconds of CPU (14 s for a hint, 67 s for a
    # rating), and with it only the budget plus the longest stretch between two checks.
    start = time.thread_time()
    with time_budget(0.3), pytest.raises(TimeLimitError):
        work()
    assert time.thread_time() - start < 2.5


def test_the_compiled_searches_of_a_solve_stop_at_its_deadline_with_its_error():
    # A budget of 0 stops a search at its first branch: the empty grid's first solution and its count to 2
    # both need one, so they must end with the budget's TimeLimitError, not an answer or a silent "not unique".
    empty = Grid.parse("." * 81)
    with time_budget(0):
        assert seconds_left() == 0.0
        with pytest.raises(TimeLimitError):
            _solution_for(as_candidates(empty), None)
        with pytest.raises(TimeLimitError):
            is_unique_by_search(empty)
    assert seconds_left() is None and is_unique_by_search(empty) is False
    with time_budget(60):
        assert 0 < seconds_left() <= 60 and is_unique_by_search(Grid.parse(DEMO)) is True
        assert _solution_for(as_candidates(empty), None).is_solution_of(empty)
