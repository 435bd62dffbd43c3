"""The compile farm: units compiled on worker processes into the shared cache and marked ready, a unit that
fails reported and the rest compiled, and workers that never outlive the process that started them."""

import os
import signal
import subprocess
import sys
import textwrap

from bitdoku.warmup import Farm, Unit
from bitdoku.warmup.worker import compile_unit
from tests.processes import alive, all_gone


def run_python(code: str, cache, timeout: float = 900) -> subprocess.CompletedProcess:
    """``code`` in a child process on the Numba cache folder ``cache`` (this process's cache is set already)."""
    env = {**os.environ, "NUMBA_CACHE_DIR": str(cache)}
    return subprocess.run([sys.executable, "-c", textwrap.dedent(code)], env=env, capture_output=True, text=True,
                          timeout=timeout)


def test_units_compile_on_two_processes_into_the_cache_and_a_second_farm_finds_them_ready(tmp_path):
    code = """
        import os
        from bitdoku.warmup import Farm, is_ready
        from bitdoku.warmup.units import BY_NAME
        units = [BY_NAME["9x9 engine"], BY_NAME["canonical forms"]]
        pids = set()
        with Farm(units, processes=2) as farm:
            assert farm.processes == 2
            assert farm.wait(), farm.events
            pids = {worker.pid for worker in farm._workers}
        print(sorted(event.status for event in farm.events), len(pids), all(is_ready(u.name) for u in units))
        again = Farm(units)
        print(again.processes, again.start().wait(), again.events)
    """
    run = run_python(code, tmp_path)
    assert run.returncode == 0, run.stderr
    first, second = run.stdout.splitlines()
    assert first == "['done', 'done'] 2 True"
    assert second == "1 True []"  # everything ready: no worker started, nothing to report
    modules = {path.name.split(".")[0] for path in tmp_path.rglob("*.nbi")}
    assert {"sudoku9", "minlex"} <= modules


def test_a_unit_that_fails_is_reported_and_the_units_after_it_still_compile():
    # a name the worker does not know stands for a unit that fails (its compile raises)
    broken = Unit("no such unit", "verdict", run=lambda: None)
    cheap = Unit("9x9 engine", "verdict", run=lambda: None)
    events = []
    with Farm([broken, cheap], processes=1, on_event=events.append) as farm:
        assert farm.wait() is False
    outcome = {event.unit.name: event.status for event in events}
    assert outcome["no such unit"] == "failed" and "KeyError" in events[0].error
    assert farm.ready("9x9 engine") and not farm.ready("no such unit")


def test_a_worker_reports_a_failure_with_its_reason():
    reply = compile_unit("no such unit")
    assert reply["status"] == "failed" and reply["error"].startswith("KeyError")


def test_workers_end_when_the_process_that_started_them_is_killed(tmp_path):
    # The parent is killed with SIGKILL in the middle of a compile: no cleanup of its own runs.
    code = """
        import sys, time
        from bitdoku.warmup import Farm
        from bitdoku.warmup.units import UNITS
        farm = Farm(UNITS, processes=2).start()
        time.sleep(1)
        print(" ".join(str(worker.pid) for worker in farm._workers), flush=True)
        time.sleep(600)
    """
    env = {**os.environ, "NUMBA_CACHE_DIR": str(tmp_path)}
    parent = subprocess.Popen([sys.executable, "-c", textwrap.dedent(code)], env=env, stdout=subprocess.PIPE,
                              text=True)
    workers = [int(pid) for pid in parent.stdout.readline().split()]
    assert len(workers) == 2 and all(alive(pid) for pid in workers)
    parent.send_signal(signal.SIGKILL)
    parent.wait()
    assert all_gone(workers, timeout=30)


def test_stop_ends_the_workers_at_once_in_the_middle_of_a_compile(tmp_path):
    code = """
        import time
        from bitdoku.warmup import Farm
        from bitdoku.warmup.units import UNITS
        farm = Farm(UNITS, processes=2).start()
        time.sleep(1)
        pids = [worker.pid for worker in farm._workers]
        farm.stop()
        print(" ".join(str(pid) for pid in pids), all(worker.poll() is not None for worker in farm._workers))
    """
    run = run_python(code, tmp_path, timeout=120)
    assert run.returncode == 0, run.stderr
    *pids, stopped = run.stdout.split()
    assert stopped == "True" and not any(alive(int(pid)) for pid in pids)


