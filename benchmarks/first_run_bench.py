"""First contact: every command's first call on a cold cache, the warm calls, the server's start and stop (issue 35).

Run from the repository root after ``pip install -e '.[test]'``::

    python benchmarks/first_run_bench.py [--runs 3] [--only NAME ...] [--install]

Each cold run starts ``python -m bitdoku ...`` in a child process on an empty Numba cache of its own
(``NUMBA_CACHE_DIR`` set to a new temporary folder), as a fresh install has, and the table gives the medians of
its wall time and CPU time (user + system of the child and its children: the compile workers too) and the
functions it compiled (the index files in its cache: a function each, and the signatures in them). Warm rows
run on a cache one earlier run filled. The server rows time ``bitdoku serve`` from its start until the page
answers, the live verdict of a 9x9 grid answers, and every feature is ready (``/api/health``); then SIGTERM and
the seconds until it and every process it started are gone. ``--install`` adds the README's first line from a
fresh clone in a fresh virtual environment (``pip install . && bitdoku solve``; it downloads the dependencies
unless pip has them cached).

Targets (issue 35): the first ``bitdoku solve`` at most 4 s, every other first call at most 10 s, warm solve and
count 0.5 s, ``--help`` 0.15 s, the server's page and verdict within 8 s and every endpoint within 45 s, its stop
within 2 s, ``warmup --all`` at most 60 s.
"""

from __future__ import annotations

import argparse
import json
import os
import pickle
import resource
import signal
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from collections.abc import Callable
from pathlib import Path

from bitdoku.data import DEMO, sample_lines

sys.path.insert(0, str(Path(__file__).resolve().parent))
from web_bench import free_port
from web_load import process_tree

REPO = Path(__file__).resolve().parents[1]
HARD = sample_lines("hardest_sample.txt")[0]  # a forum_hardest puzzle
EMPTY = {"6x6": "." * 36, "12x12": "." * 144}
KILLER = sample_lines("killer_sample.txt")[0]
PHOTO = str(REPO / "tests" / "photo" / "data" / "image1.jpg")  # a shared photo (Wicht & Hennebert, CC-BY-4.0)

#: name -> (arguments, warm): ``warm`` rows run on a cache an earlier run of the same command filled.
CASES: dict[str, tuple[list[str], bool]] = {
    "solve (the demo 9x9)": (["solve"], False),
    "solve PUZZLE (9x9)": (["solve", DEMO], False),
    "count 4x4": (["count", "..3..4.221......"], False),
    "count 6x6 (empty, to 2)": (["count", EMPTY["6x6"]], False),
    "count 12x12 (empty, to 2)": (["count", EMPTY["12x12"]], False),
    "count 16x16": (["count", sample_lines("sample16x16.txt")[0]], False),
    "solve --first 25x25": (["solve", "--first", sample_lines("sample25x25.txt")[0]], False),
    "check FILE (9x9 batch)": (["check", "FILE"], False),
    "solve FILE (9x9 batch)": (["solve", "FILE"], False),
    "count FILE --cluster local": (["count", "FILE", "--cluster", "local"], False),
    "hint (forum_hardest)": (["hint", HARD], False),
    "explain (forum_hardest)": (["explain", HARD], False),
    "rate (forum_hardest)": (["rate", HARD], False),
    "generate (9x9)": (["generate"], False),
    "generate --shape 4x4 (16x16)": (["generate", "--shape", "4x4"], False),
    **{f"generate --variant {name}": (["generate", "--variant", name], False)
       for name in ("x", "windoku", "jigsaw", "anti-knight", "anti-king", "nonconsecutive")},
    "generate --variant x --count 20": (["generate", "--variant", "x", "--count", "20"], False),
    "solve --variant killer": (["solve", "--variant", "killer", KILLER], False),
    "explain --variant killer": (["explain", "--variant", "killer", KILLER], False),
    "generate --variant killer": (["generate", "--variant", "killer"], False),
    "count --variant killer --strategy pt_mix": (["count", "--variant", "killer", "--strategy", "pt_mix", KILLER],
                                                 False),
    "read PHOTO": (["read", PHOTO], False),
    "solve PHOTO": (["solve", PHOTO], False),
    "canon (9x9)": (["canon", DEMO], False),
    "warmup --all": (["warmup", "--all"], False),
    "warm: solve PUZZLE": (["solve", DEMO], True),
    "warm: count PUZZLE": (["count", DEMO], True),
    "warm: --help": (["--help"], True),
    "warm: read PHOTO": (["read", PHOTO], True),
}


def _cpu_of_children() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def compiled(cache: Path) -> tuple[int, int]:
    """(functions, signatures) with compiled code in a cache folder: an index file a function."""
    functions = signatures = 0
    for index in cache.rglob("*.nbi"):
        functions += 1
        try:
            with open(index, "rb") as stream:
                pickle.load(stream)  # Numba's version
                stamp_and_overloads = stream.read()
            signatures += len(pickle.loads(stamp_and_overloads)[1])
        except Exception:
            signatures += 1
    return functions, signatures


def time_command(args: list[str], puzzle_file: str, cache: Path) -> tuple[float, float, int]:
    """(wall, cpu, exit code) of one run of ``python -m bitdoku args`` on the cache folder ``cache``."""
    args = [puzzle_file if arg == "FILE" else arg for arg in args]
    env = {**os.environ, "NUMBA_CACHE_DIR": str(cache)}
    cpu, start = _cpu_of_children(), time.perf_counter()
    done = subprocess.run([sys.executable, "-m", "bitdoku", *args], env=env, capture_output=True, text=True,
                          timeout=1800)
    wall = time.perf_counter() - start
    if done.returncode not in (0, 3):  # 3: a puzzle is not unique (count of an empty grid says 2+)
        raise SystemExit(f"{args}: exit {done.returncode}: {done.stderr[-800:]}")
    return wall, _cpu_of_children() - cpu, done.returncode


def run_case(args: list[str], warm: bool, puzzle_file: str) -> dict[str, float]:
    with tempfile.TemporaryDirectory() as folder:
        cache = Path(folder)
        if warm:
            time_command(args, puzzle_file, cache)
        wall, cpu, _ = time_command(args, puzzle_file, cache)
        functions, signatures = compiled(cache)
    return {"wall": wall, "cpu": cpu, "functions": functions, "signatures": signatures}


def _until(check: Callable[[], bool], timeout: float) -> float:
    """Seconds until ``check()`` holds (polled), or inf."""
    start = time.perf_counter()
    while time.perf_counter() - start < timeout:
        try:
            if check():
                return time.perf_counter() - start
        except (OSError, urllib.error.URLError, ValueError):
            pass
        time.sleep(0.05)
    return float("inf")


def _alive(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat") as stat:
            return stat.read().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


def time_serve(workers: int, stop_after: float | None = None) -> dict[str, float]:
    """``bitdoku serve`` on a cold cache: seconds until the page, the 9x9 verdict and every feature answer; then
    (or after ``stop_after`` seconds, mid warm-up) SIGTERM and the seconds until every process of it is gone."""
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    with tempfile.TemporaryDirectory() as cache:
        env = {**os.environ, "NUMBA_CACHE_DIR": cache}
        start = time.perf_counter()
        server = subprocess.Popen([sys.executable, "-m", "bitdoku", "serve", "--port", str(port), "--workers",
                                   str(workers)], env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        try:
            page = _until(lambda: urllib.request.urlopen(f"{url}/", timeout=5).status == 200, 600)
            verdict = _until(lambda: _count(url) == "unique", 600)
            figures = {"page": page, "verdict": verdict + page}
            if stop_after is None:
                figures["every feature"] = _until(lambda: all(_health(url)["ready"].values()), 1200) + page + verdict
            else:
                time.sleep(max(0.0, stop_after - (time.perf_counter() - start)))
            below = process_tree(server.pid)[1:]
            stopping = time.perf_counter()
            server.send_signal(signal.SIGTERM)
            _until(lambda: server.poll() is not None and not any(_alive(pid) for pid in below), 60)
            figures["stop"] = time.perf_counter() - stopping
        finally:
            if server.poll() is None:
                server.kill()
                server.wait()
    return figures


def _health(url: str) -> dict:
    with urllib.request.urlopen(f"{url}/api/health", timeout=5) as answer:
        return json.load(answer)


def _count(url: str) -> str:
    request = urllib.request.Request(f"{url}/api/count", data=json.dumps({"puzzle": DEMO}).encode(),
                                     headers={"Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(request, timeout=30) as answer:
            return json.load(answer)["status"]
    except urllib.error.HTTPError:
        return "not yet"


def time_install() -> dict[str, float]:
    """The README's first line from a fresh clone in a fresh virtual environment: seconds of the venv and
    ``pip install .``, of the first ``bitdoku solve``, and in all."""
    with tempfile.TemporaryDirectory() as folder:
        clone = Path(folder) / "bitdoku"
        subprocess.run(["git", "clone", "-q", str(REPO), str(clone)], check=True)
        env = {**os.environ, "NUMBA_CACHE_DIR": str(Path(folder) / "cache")}
        env.pop("PYTHONPATH", None)
        start = time.perf_counter()
        subprocess.run([sys.executable, "-m", "venv", ".venv"], cwd=clone, check=True)
        subprocess.run([".venv/bin/pip", "install", "-q", "."], cwd=clone, check=True, env=env,
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        installed = time.perf_counter()
        subprocess.run([".venv/bin/bitdoku", "solve"], cwd=clone, check=True, env=env, capture_output=True)
        done = time.perf_counter()
    return {"install": installed - start, "solve": done - installed, "in all": done - start}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=3, help="runs of each case (the median is printed)")
    parser.add_argument("--only", nargs="*", help="run only the cases whose name starts with one of these")
    parser.add_argument("--install", action="store_true", help="also the README's first line in a fresh venv")
    options = parser.parse_args()
    chosen = [case for case in CASES if not options.only or any(case.startswith(only) for only in options.only)]
    print(f"machine load {os.getloadavg()[0]:.2f}, {os.cpu_count()} cores, {options.runs} runs a case (medians)\n")
    with tempfile.NamedTemporaryFile("w", suffix=".txt", delete=False) as puzzles:
        puzzles.write("\n".join(sample_lines("17clue_sample.txt")) + "\n")
    print("| first call (cold cache unless warm) | wall s | CPU s | functions compiled (signatures) |")
    print("|---|---:|---:|---:|")
    for case in chosen:
        args, warm = CASES[case]
        runs = [run_case(args, warm, puzzles.name) for _ in range(options.runs)]
        median = {key: statistics.median(run[key] for run in runs) for key in runs[0]}
        print(f"| `bitdoku {case}` | {median['wall']:.2f} | {median['cpu']:.1f} | "
              f"{median['functions']:.0f} ({median['signatures']:.0f}) |", flush=True)
    os.unlink(puzzles.name)
    if not options.only or any("serve".startswith(only) for only in options.only):
        print("\n| `bitdoku serve`, cold cache | page s | 9x9 verdict s | every feature s | stop after SIGTERM s |")
        print("|---|---:|---:|---:|---:|")
        for workers in (1, 2):
            runs = [time_serve(workers) for _ in range(options.runs)]
            mid = [time_serve(workers, stop_after=3.0) for _ in range(options.runs)]
            print(f"| {workers} process{'es' if workers > 1 else ''} | "
                  f"{statistics.median(r['page'] for r in runs):.2f} | "
                  f"{statistics.median(r['verdict'] for r in runs):.2f} | "
                  f"{statistics.median(r['every feature'] for r in runs):.1f} | "
                  f"{statistics.median(r['stop'] for r in runs):.2f} (mid warm-up: "
                  f"{statistics.median(r['stop'] for r in mid):.2f}) |", flush=True)
    if options.install:
        runs = [time_install() for _ in range(options.runs)]
        print("\n| README line 1 from a fresh clone | venv + pip install . s | first solve s | in all s |")
        print("|---|---:|---:|---:|")
        install, solve, total = (statistics.median(r[key] for r in runs) for key in ("install", "solve", "in all"))
        print(f"| `pip install . && bitdoku solve` | {install:.1f} | {solve:.1f} | {total:.1f} |")


if __name__ == "__main__":
    main()
