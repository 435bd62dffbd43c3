"""A puzzle's budget (``generate/budget.py``): its deadline and the run's cancel reach the kernels' stop flag."""

import threading
import time

import numpy as np
import pytest

import bitdoku
from bitdoku.generate.budget import Budget, BudgetSpent, Cancel, Cancelled
from bitdoku.generate.puzzles import make_puzzles
from bitdoku.generate.request import Request


def test_cancelling_a_run_sets_the_stop_flag_of_every_open_budget():
    cancel = Cancel()
    before, done = Budget(10, 60.0, cancel), Budget(10, 60.0, cancel)
    done.close()
    cancel.set()
    after = Budget(10, 60.0, cancel)
    assert before.stop[0] == 1 and after.stop[0] == 1 and done.stop[0] == 0
    with pytest.raises(Cancelled):
        before.check()
    for budget in (before, after):
        budget.close()


def test_a_budget_past_its_deadline_has_its_flag_set_and_is_spent():
    budget = Budget(10**9, 0.01)
    deadline = time.perf_counter() + 10
    while budget.stop[0] == 0 and time.perf_counter() < deadline:
        time.sleep(0.005)
    with pytest.raises(BudgetSpent, match=r"0\.01 s"):
        budget.check()
    budget.close()


def test_a_cancel_stops_a_64x64_fill_under_way_not_at_its_deadline():
    bitdoku.generate("4x4", seed=1)  # compiles or loads the kernels of the large grids' path first
    request = Request.make("8x8", time_limit=600)
    cancel, outcome = Cancel(), []

    def run() -> None:
        try:
            make_puzzles(request, np.ones((1, 1), np.uint64), 0, cancel=cancel)
        except Cancelled as error:
            outcome.append(error)

    worker = threading.Thread(target=run)
    worker.start()
    time.sleep(0.2)
    start = time.perf_counter()
    cancel.set()
    worker.join(timeout=60)
    assert not worker.is_alive() and outcome
    # A plain event (before) was seen between kernel calls only: 2.5 s after the cancel on an idle machine, the
    # rest of a 20,000-node fill call. Now the call ends at its next node: milliseconds.
    assert time.perf_counter() - start < 1.0
