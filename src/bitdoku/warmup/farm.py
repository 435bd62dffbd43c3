"""Compile warm-up units on several processes at once, in order of need, into the shared cache.

Numba compiles one function at a time in a process, and a compile is mostly Python (its own passes) with some
LLVM: one process uses one core. ``Farm`` starts worker processes (``bitdoku.warmup.worker``), one a core by
default, and hands each the next unit whose needs are done, in the order given; a worker's units go into Numba's
on-disk cache, where every other process (the one that started the farm, a web server's workers) then loads them
in a fraction of a second. So ``bitdoku warmup --all`` and ``bitdoku serve`` compile on every core, and a unit a
feature needs first is ready first.

The workers are the farm's: ``stop()`` (also on leaving a ``with`` block, an exception or Ctrl-C included) kills
them at once, and a worker whose parent process is gone ends by itself (``worker.die_with_parent``), so none
outlives the process that started it, not even one killed with ``kill -9``.
"""

from __future__ import annotations

import contextlib
import json
import os
import subprocess
import sys
import threading
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path

from bitdoku.warmup.ready import is_ready, mark_failed
from bitdoku.warmup.units import Unit


@dataclass(frozen=True)
class Event:
    """A unit that finished: ``status`` is ``done`` (compiled), ``cached`` (ready already) or ``failed``."""

    unit: Unit
    status: str
    seconds: float
    error: str | None = None


class Farm:
    """Compile ``units`` on ``processes`` worker processes (default: one a core, at most one a unit).

    ``on_event`` is called, from the farm's threads, with an ``Event`` as each unit finishes. Units already ready
    (``ready.is_ready``) are not sent to a worker; a unit whose process fails is reported ``failed`` and left to be
    compiled on first use, as without a farm.

    Example
    -------
    >>> from bitdoku.warmup.units import units
    >>> with Farm(units(), processes=2) as farm:
    ...     farm.wait()
    True
    """

    def __init__(self, units: Iterable[Unit], *, processes: int | None = None,
                 on_event: Callable[[Event], None] | None = None) -> None:
        self.units = tuple(units)
        self._on_event = on_event
        self._state = {unit.name: "done" if is_ready(unit.name) else "pending" for unit in self.units}
        self._events: list[Event] = []
        self._changed = threading.Condition()
        self._stopped = False
        self._workers: list[subprocess.Popen[str]] = []
        self._threads: list[threading.Thread] = []
        todo = sum(state == "pending" for state in self._state.values())
        self.processes = max(1, min(processes or os.cpu_count() or 1, todo))

    def __enter__(self) -> Farm:
        return self.start()

    def __exit__(self, *exc_info: object) -> None:
        self.stop()

    def start(self) -> Farm:
        """Start the workers (none when every unit is ready); returns the farm."""
        if all(state != "pending" for state in self._state.values()):
            return self
        for name, state in self._state.items():
            if state == "pending":
                mark_failed(name, False)  # tried again: its followers wait for it again
        for index in range(self.processes):
            worker = _start_worker()
            self._workers.append(worker)
            thread = threading.Thread(target=self._feed, args=(worker,), name=f"bitdoku-farm-{index}", daemon=True)
            self._threads.append(thread)
            thread.start()
        return self

    @property
    def pending(self) -> int:
        """How many units are still to compile (not ready, not being compiled)."""
        with self._changed:
            return sum(state == "pending" for state in self._state.values())

    def ready(self, name: str) -> bool:
        """Whether unit ``name`` is compiled (or was ready before)."""
        with self._changed:
            return self._state.get(name) == "done"

    def finished(self, name: str) -> bool:
        """Whether unit ``name`` is done or failed: nothing more will happen to it."""
        with self._changed:
            return self._state.get(name) in ("done", "failed")

    def wait(self, names: Iterable[str] | None = None, timeout: float | None = None) -> bool:
        """Wait until the units ``names`` (default: all) have finished; True if they all finished in time and
        none failed."""
        wanted = [unit.name for unit in self.units] if names is None else list(names)
        with self._changed:
            self._changed.wait_for(lambda: self._stopped or all(self._state[name] in ("done", "failed")
                                                                for name in wanted), timeout)
            return all(self._state[name] == "done" for name in wanted)

    @property
    def events(self) -> list[Event]:
        with self._changed:
            return list(self._events)

    def stop(self) -> None:
        """Kill the workers now (a unit half compiled is simply not marked ready)."""
        with self._changed:
            self._stopped = True
            self._changed.notify_all()
        for worker in self._workers:
            with contextlib.suppress(OSError):
                worker.kill()
        for worker in self._workers:
            with contextlib.suppress(OSError, subprocess.TimeoutExpired):
                worker.wait(timeout=5)
            for stream in (worker.stdin, worker.stdout):
                with contextlib.suppress(OSError):
                    if stream is not None:
                        stream.close()

    def _next(self) -> Unit | None:
        """The first pending unit whose needs have finished (waiting for one); None when there is no more work."""
        with self._changed:
            while not self._stopped:
                pending = [unit for unit in self.units if self._state[unit.name] == "pending"]
                if not pending:
                    return None
                for unit in pending:
                    if all(self._state.get(need, "done") in ("done", "failed") for need in unit.needs):
                        self._state[unit.name] = "running"
                        return unit
                self._changed.wait()
            return None

    def _feed(self, worker: subprocess.Popen[str]) -> None:
        """One worker's loop: send it a unit, read its reply, until there is no more work. A worker that dies
        (its unit fails) is replaced, so the units after it still get compiled."""
        while (unit := self._next()) is not None:
            try:
                assert worker.stdin is not None and worker.stdout is not None
                worker.stdin.write(json.dumps({"unit": unit.name}) + "\n")
                worker.stdin.flush()
                line = worker.stdout.readline()
            except (OSError, ValueError):
                line = ""
            if line.strip():
                reply = json.loads(line)
                self._finish(Event(unit, reply["status"], float(reply["seconds"]), reply.get("error")))
                continue
            self._finish(Event(unit, "failed", 0.0, f"its process ended (exit code {worker.poll()})"))
            with self._changed:
                if self._stopped:
                    return
                worker = _start_worker()
                self._workers.append(worker)
        with contextlib.suppress(OSError):
            if worker.stdin is not None:
                worker.stdin.close()

    def _finish(self, event: Event) -> None:
        with self._changed:
            if self._stopped:
                return
            self._state[event.unit.name] = "failed" if event.status == "failed" else "done"
            if event.status == "failed":
                mark_failed(event.unit.name)
            self._events.append(event)
            self._changed.notify_all()
        if self._on_event is not None:
            self._on_event(event)


def _start_worker() -> subprocess.Popen[str]:
    """A worker process with this process's bitdoku and cache folder; its stderr is dropped (what goes wrong is in
    its replies)."""
    from numba.core import config

    env = dict(os.environ)
    source = str(Path(__file__).resolve().parents[2])  # the folder that holds this bitdoku package
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [source, env.get("PYTHONPATH")]))
    if config.CACHE_DIR:  # NUMBA_CACHE_DIR, or the folder ``kernels.cache.prepare`` chose for this run
        env["NUMBA_CACHE_DIR"] = config.CACHE_DIR
    env["BITDOKU_WARMUP_PARENT"] = str(os.getpid())
    return subprocess.Popen([sys.executable, "-m", "bitdoku.warmup.worker"], stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, env=env, text=True, bufsize=1)
