"""Compiling is not the work a time limit is about: a deadline moves back by the seconds spent at Numba's compiler
lock (``bitdoku.compile_clock``). Each test compiles a function of its own, uncached, inside a limit far shorter
than the compile, the way a first call on a cold cache compiles its kernel inside ``bitdoku.search(time_limit=...)``
(which returned "limit" after 13 s of compiling before)."""

import time

import numpy as np
import pytest
from numba import njit

from bitdoku.compile_clock import compile_seconds
from bitdoku.compile_clock import start as start_compile_clock
from bitdoku.logic.budget import check_time, seconds_left, time_budget
from bitdoku.timelimit import TimeLimit

#: The limits of these tests: far below what compiling a function takes (tenths of a second, more when loaded).
SHORT = 0.02


def compile_something() -> float:
    """Compile a new function (cache off, so it compiles in every run) and call it; the seconds it took."""

    def work(values):
        total = 0.0
        for i in range(values.shape[0]):
            for j in range(i):
                total += np.sqrt(values[i] * values[j] + 1.0) + np.log1p(values[j]) * np.cos(values[i])
        sorted_values = np.sort(values)
        cumulative = np.cumsum(sorted_values)
        total += np.median(cumulative) + np.std(values) + np.argmax(values)
        return total

    start = time.monotonic()
    njit(cache=False)(work)(np.arange(50, dtype=np.float64))
    return time.monotonic() - start


@pytest.fixture(scope="module", autouse=True)
def numba_warmed_up():
    """Numba's own first-compile costs (imports, target setup) are paid once here, outside any limit: some of
    them happen before the compiler lock is taken, so they are not counted and would eat a short limit."""
    start_compile_clock()
    compile_something()


def test_the_clock_counts_a_compile() -> None:
    start_compile_clock()
    before = compile_seconds()
    took = compile_something()
    counted = compile_seconds() - before
    assert took > SHORT  # the premise of the tests below
    assert 0.5 * took < counted <= took + 0.01


def test_a_search_limit_leaves_out_the_compile_inside_it() -> None:
    with TimeLimit(SHORT) as limit:
        compile_something()
        assert not limit.reached  # without the compile's seconds, its deadline is not due yet
        time.sleep(0.5)  # the work itself still has its limit
        assert limit.reached


def test_a_logic_budget_leaves_out_the_compile_inside_it() -> None:
    with time_budget(SHORT):
        compile_something()
        check_time()  # no TimeLimitError: the compile was not the solve's time
        assert 0 < seconds_left() <= SHORT


def test_the_logic_commands_say_when_a_run_compiles_and_how_long_it_took(capsys, monkeypatch) -> None:
    from bitdoku.cli import runner

    monkeypatch.setattr(runner, "COMPILE_NOTICE_SECONDS", 0.05)
    with runner.saying_compiles():
        compile_something()
    said = capsys.readouterr().err.splitlines()
    assert said[0].startswith("bitdoku: compiling the logic solver's kernels as the run needs them, once")
    assert said[1].startswith("bitdoku: ") and said[1].endswith(" of this run went to compiling")
    with runner.saying_compiles():
        time.sleep(0.3)  # work, no compile: a warm cache says nothing
    assert capsys.readouterr().err == ""


def test_a_forked_child_does_not_wait_for_a_compile_of_its_parent() -> None:
    # A thread of the parent at the compiler lock when it forks is not in the child: its stretch must not run on
    # there, or every deadline of the child would move back for ever.
    import os

    from bitdoku import compile_clock

    start_compile_clock()
    compile_clock._enter()  # as if this thread were compiling when it forks
    try:
        child = os.fork()
        if child == 0:
            first = compile_seconds()
            time.sleep(0.2)
            os._exit(0 if compile_seconds() == first else 1)
        _, status = os.waitpid(child, 0)
    finally:
        compile_clock._leave()
    assert os.waitstatus_to_exitcode(status) == 0
