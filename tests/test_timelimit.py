"""Time limits (issue 16, "budgets everywhere"): the stop flag of every search kernel, set by one watchdog thread.

No timing assertions beyond "stopped within a few seconds": a limit of 0 sets the flag before the search starts
(the search stops at its first branch), and a small limit on a search that would run for hours must end soon.
"""

import os
import signal
import time

import numpy as np
import pytest

import bitdoku
from bitdoku import GenerationLimitError, Grid, SearchLimitError, SearchTimeLimitError, Status
from bitdoku.batch import as_puzzle_array, count_many
from bitdoku.data import DEMO
from bitdoku.engines import bitmask
from bitdoku.kernels import status as codes
from bitdoku.kernels.batch import search_rows
from bitdoku.timelimit import STOP_ALL, RowClock, TimeLimit, check_seconds

EMPTY_9X9 = "." * 81
#: Counting every 9x9 grid (6.7e21 of them): a search that never ends on its own.
ENDLESS = 10**15
#: "Stopped soon": far above the limits used here, far below the hours the searches would take.
SOON = 10.0


def test_a_limit_of_zero_stops_every_search_kernel_at_its_first_branch() -> None:
    cases = [
        (Grid.parse(EMPTY_9X9), 2, codes.ALL_RULES),  # the 9x9 band kernel
        (Grid.parse(EMPTY_9X9), 2, codes.ALL_RULES | codes.GENERIC_ONLY),  # the cell-by-cell kernel
        (Grid.empty("4x4"), 2, codes.ALL_RULES),  # the bitboard kernel, counting
        (Grid.empty("5x5"), 1, codes.ALL_RULES),  # the bitboard kernel's restarted first solution
        (Grid.parse(EMPTY_9X9, variant="x"), 2, codes.ALL_RULES),  # the variant kernel
    ]
    for grid, limit, rules in cases:
        result = bitmask.search(grid, limit=limit, max_nodes=10**9, keep=1, rules=rules, time_limit=0)
        assert result.status is Status.LIMIT, (grid.shape, rules)
        assert result.time_limit == 0 and result.reason.startswith("time limit of 0 s reached after")
        assert result.stats.nodes <= 2  # the root, and the first branch found the flag set


def test_a_small_limit_stops_an_endless_search_soon_with_what_it_found() -> None:
    start = time.perf_counter()
    result = bitdoku.search(EMPTY_9X9, limit=ENDLESS, time_limit=0.05)
    assert time.perf_counter() - start < SOON
    assert result.status is Status.LIMIT and result.count > 0 and result.stats.nodes > result.count
    assert f"{result.count:,} solutions found, {result.stats.nodes:,} nodes" in result.reason


def test_a_small_limit_stops_a_64x64_first_solution_soon() -> None:
    start = time.perf_counter()
    result = bitdoku.search(Grid.empty("8x8"), limit=1, time_limit=0.01)
    assert time.perf_counter() - start < SOON
    assert result.status in (Status.LIMIT, Status.SOLVED)  # a fast machine may finish first: either is honest
    if result.status is Status.LIMIT:
        assert result.time_limit == 0.01


def test_a_limit_that_is_not_reached_changes_nothing() -> None:
    for puzzle, limit in ((DEMO, 2), ("..3..4.221......", 2), (EMPTY_9X9, 50)):
        free = bitdoku.search(puzzle, limit=limit)
        limited = bitdoku.search(puzzle, limit=limit, time_limit=60)
        assert limited == free


def test_the_plain_functions_raise_a_search_time_limit_error_that_is_a_search_limit_error() -> None:
    for call in (bitdoku.solve, bitdoku.count_solutions, bitdoku.is_unique):
        with pytest.raises(SearchTimeLimitError, match="time limit of 0 s") as caught:
            call(EMPTY_9X9, time_limit=0)
        assert isinstance(caught.value, SearchLimitError) and caught.value.seconds == 0
    assert bitdoku.is_unique(DEMO, time_limit=60)


def test_bad_time_limits_and_unsupported_engines_are_refused() -> None:
    for bad in (-1, float("nan"), "1", True):
        with pytest.raises(ValueError, match="time_limit must be a number of seconds"):
            bitdoku.search(DEMO, time_limit=bad)
    with pytest.raises(ValueError, match="bitmask engine"):
        bitdoku.search(DEMO, engine="reference", time_limit=1)
    assert check_seconds(None) is None and check_seconds(2) == 2.0


def test_batch_limits_are_per_row_so_the_rows_after_a_stopped_one_are_answered() -> None:
    for threads in (1, 2):
        batch = count_many([DEMO, EMPTY_9X9, DEMO, EMPTY_9X9], limit=ENDLESS, threads=threads, time_limit=0.1)
        assert batch.statuses == [Status.UNIQUE, Status.LIMIT, Status.UNIQUE, Status.LIMIT]
        row = batch.result(1)
        assert row.time_limit == 0.1 and row.reason.startswith("time limit of 0.1 s reached: ")
        assert batch.result(0).time_limit is None


def test_a_batch_limit_of_zero_stops_every_row_that_needs_a_branch() -> None:
    batch = count_many([DEMO, EMPTY_9X9], limit=2, threads=1, time_limit=0)
    assert batch.statuses == [Status.LIMIT, Status.LIMIT]
    assert (batch.kernel_codes == codes.STOPPED).all()


def _rows(flag: int, ticket: int, puzzles: list[str]):
    """The batch kernel's statuses for 9x9 puzzles with the stop array (flag, ticket) given, and that array."""
    cells, shape = as_puzzle_array(puzzles)
    status = np.zeros(len(puzzles), np.int8)
    stats = np.zeros((len(puzzles), codes.N_STATS), np.int64)
    stop = np.array([flag, ticket], np.int64)
    search_rows(cells, shape.n, *shape.tables, 2, 10**6, codes.ALL_RULES, np.zeros_like(cells), status, stats, stop)
    return status, stop


def test_a_flag_meant_for_an_earlier_row_stops_no_other_row() -> None:
    # The watchdog read ticket 5, the row ended, and it set the flag to 5 while row 6 ran: row 6 runs again.
    status, stop = _rows(5, 5, [DEMO, DEMO])
    assert list(status) == [codes.COMPLETE, codes.COMPLETE] and stop[0] == 0 and stop[1] == 7
    status, stop = _rows(STOP_ALL, 0, [DEMO, DEMO])  # a stop for the whole call stays
    assert list(status) == [codes.STOPPED, codes.STOPPED] and stop[0] == STOP_ALL


def test_the_watchdog_sets_a_flag_at_its_deadline_and_not_after_disarming() -> None:
    with TimeLimit(0.02) as limit:
        deadline = time.perf_counter() + SOON
        while not limit.reached and time.perf_counter() < deadline:
            time.sleep(0.005)
    assert limit.reached and limit.elapsed < SOON
    with TimeLimit(0.05) as early:
        pass
    time.sleep(0.2)
    assert not early.reached
    with TimeLimit(None) as never:
        pass
    assert not never.reached and never.seconds is None


def test_a_row_clock_flags_the_ticket_of_a_row_that_runs_too_long() -> None:
    clock = RowClock(0.02)
    with clock.slot() as slot:
        slot[1] = 3  # row 3 starts and never ends
        deadline = time.perf_counter() + SOON
        while slot[0] == 0 and time.perf_counter() < deadline:
            time.sleep(0.005)
    assert slot[0] == 3


def test_a_64x64_generation_stops_at_its_deadline_inside_the_fill_kernel() -> None:
    # Before the stop flag, the deadline was looked at between kernel calls, and a 64x64 fill is one call of
    # seconds: the generator ran that long past any limit. Now the fill stops at its next node.
    bitdoku.generate("2x2", seed=1)  # compiles or loads the generator's kernels outside the timing
    start = time.perf_counter()
    with pytest.raises(GenerationLimitError, match=r"1e-06 s"):
        bitdoku.generate("8x8", seed=1, time_limit=1e-6)
    assert time.perf_counter() - start < 5.0


@pytest.mark.skipif(not hasattr(os, "fork"), reason="fork is POSIX-only")
def test_a_forked_child_gets_a_watchdog_of_its_own() -> None:
    with TimeLimit(60):  # the parent's watchdog thread is running: a forked child does not inherit it
        pid = os.fork()
        if pid == 0:
            with TimeLimit(0.02) as limit:
                deadline = time.perf_counter() + SOON
                while not limit.reached and time.perf_counter() < deadline:
                    time.sleep(0.005)
            os._exit(0 if limit.reached else 1)
        deadline = time.perf_counter() + SOON
        while (done := os.waitpid(pid, os.WNOHANG))[0] == 0 and time.perf_counter() < deadline:
            time.sleep(0.01)
        if done[0] == 0:  # before the fix the child hung on the watchdog's state copied from the parent
            os.kill(pid, signal.SIGKILL)
            os.waitpid(pid, 0)
    assert done[0] == pid and os.waitstatus_to_exitcode(done[1]) == 0
