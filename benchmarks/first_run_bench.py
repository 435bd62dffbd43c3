"""The first run on a cold cache: wall and CPU seconds of each command's first call (issue 16).

Run from the repository root after ``pip install -e '.[test]'``::

    python benchmarks/first_run_bench.py [--runs 3] [--only NAME ...]

Each run of each case starts ``python -m bitdoku ...`` in a child process with an empty Numba cache of its own
(``NUMBA_CACHE_DIR`` set to a new temporary folder), as a fresh install has, and reports the median wall time
and the child's CPU time (user + system, from ``resource.getrusage``): on a busy machine wall time grows with the
load, CPU time much less, so both are printed. ``serve`` is timed from start until ``/api/health`` answers.
The target (issue 16) is the first ``bitdoku solve`` under 8 s on a 2-core machine.
"""

from __future__ import annotations

import argparse
import os
import resource
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request

from bitdoku.data import sample_lines

CASES: dict[str, list[str]] = {
    "solve (the demo 9x9)": ["solve"],
    "solve --first (9x9)": ["solve", "--first"],
    "count 4x4": ["count", "..3..4.221......"],
    "count 16x16": ["count", sample_lines("sample16x16.txt")[0]],
    "solve --first 25x25": ["solve", "--first", sample_lines("sample25x25.txt")[0]],
    "solve FILE (9x9 batch)": ["solve", "FILE"],
    "explain (9x9)": ["explain"],
    "rate (9x9)": ["rate"],
    "generate (9x9)": ["generate"],
}


def _cpu_of_children() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def time_command(args: list[str], puzzle_file: str) -> tuple[float, float]:
    """(wall, cpu) seconds of one cold run of ``python -m bitdoku args``."""
    args = [puzzle_file if arg == "FILE" else arg for arg in args]
    with tempfile.TemporaryDirectory() as cache:
        env = {**os.environ, "NUMBA_CACHE_DIR": cache}
        cpu, start = _cpu_of_children(), time.perf_counter()
        done = subprocess.run([sys.executable, "-m", "bitdoku", *args], env=env, capture_output=True, text=True,
                              timeout=1800)
        wall = time.perf_counter() - start
        if done.returncode != 0:
            raise SystemExit(f"{args}: exit {done.returncode}: {done.stderr[-500:]}")
        return wall, _cpu_of_children() - cpu


def time_serve() -> tuple[float, float]:
    """(wall, cpu) seconds from ``bitdoku serve`` starting on a cold cache until /api/health answers."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    with tempfile.TemporaryDirectory() as cache:
        env = {**os.environ, "NUMBA_CACHE_DIR": cache}
        start = time.perf_counter()
        server = subprocess.Popen([sys.executable, "-m", "bitdoku", "serve", "--port", str(port), "--workers", "1"],
                                  env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        try:
            while True:
                try:
                    with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/health", timeout=1) as answer:
                        if answer.status == 200:
                            break
                except OSError:
                    if server.poll() is not None:
                        raise SystemExit("bitdoku serve ended before it answered") from None
                    time.sleep(0.05)
            wall = time.perf_counter() - start
            with open(f"/proc/{server.pid}/stat") as stat:
                fields = stat.read().rsplit(")", 1)[1].split()
            cpu = (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
        finally:
            server.terminate()
            server.wait(timeout=60)
        return wall, cpu


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=3, help="cold runs of each case (the median is printed)")
    parser.add_argument("--only", nargs="*", help="run only the cases whose name starts with one of these")
    options = parser.parse_args()
    with tempfile.NamedTemporaryFile("w", suffix=".txt", delete=False) as puzzles:
        puzzles.write("\n".join(sample_lines("17clue_sample.txt")) + "\n")
    cases = [*CASES, "serve (until it answers)"]
    chosen = [case for case in cases if not options.only or any(case.startswith(only) for only in options.only)]
    print(f"| first call, cold cache ({options.runs} runs) | wall s (median) | CPU s (median) |")
    print("|---|---:|---:|")
    for case in chosen:
        runs = [time_serve() if case.startswith("serve") else time_command(CASES[case], puzzles.name)
                for _ in range(options.runs)]
        print(f"| `bitdoku {case}` | {statistics.median(w for w, _ in runs):.1f} | "
              f"{statistics.median(c for _, c in runs):.1f} |", flush=True)
    os.unlink(puzzles.name)


if __name__ == "__main__":
    main()
