"""The process tree, read from /proc: the tests that a process's children never outlive it use these."""

import os
import time
from collections.abc import Iterable


def descendants(pid: int) -> set[int]:
    """Every process below ``pid`` (its workers and theirs)."""
    found, todo = set(), [pid]
    while todo:
        parent = todo.pop()
        for entry in os.listdir("/proc"):
            if entry.isdigit():
                try:
                    with open(f"/proc/{entry}/stat") as stat:
                        if int(stat.read().rsplit(")", 1)[1].split()[1]) == parent:
                            found.add(int(entry))
                            todo.append(int(entry))
                except (FileNotFoundError, ProcessLookupError, IndexError):
                    continue
    return found


def alive(pid: int) -> bool:
    """Whether process ``pid`` runs (a zombie waiting for its reaper does not)."""
    try:
        with open(f"/proc/{pid}/stat") as stat:
            return stat.read().rsplit(")", 1)[1].split()[0] != "Z"
    except FileNotFoundError:
        return False


def all_gone(pids: Iterable[int], timeout: float) -> bool:
    """Wait up to ``timeout`` seconds for every process of ``pids`` to end; whether they all did."""
    pids = list(pids)
    deadline = time.monotonic() + timeout
    while any(alive(pid) for pid in pids) and time.monotonic() < deadline:
        time.sleep(0.1)
    return not any(alive(pid) for pid in pids)
