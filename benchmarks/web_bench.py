"""Load on the web API from a local client: requests/second and p50/p99 latency (issue 10).

Run from the repository root after ``pip install -e '.[test]'`` and ``apt-get install wrk``::

    python benchmarks/web_bench.py [--connections 50] [--seconds 10] [--server-workers 2] [--data FILE]

It starts ``bitdoku serve`` on 127.0.0.1 in its own processes, waits until the kernels are compiled and it
answers, then for two scenarios:

* ``/api/solve`` on 17-clue puzzles (``--data``'s file, or the shipped sample);
* the live verdict, ``/api/count`` with limit 2, on puzzles being typed: a 17-clue puzzle with a random number
  of its givens still missing (from none to all), as the page sends while someone types;

first checks 300 answers one by one (status 200, the expected solution or verdict) with httpx, then runs
``wrk`` (a C load generator: the client must not be the bottleneck) with ``--connections`` connections, each
sending its next request as soon as the answer arrives (closed loop, no pause: the hardest case), rotating
through 1,000 different request bodies. Reported: requests/second, p50 and p99 latency, and errors
(non-2xx answers and socket errors). Each scenario runs twice.
"""

from __future__ import annotations

import argparse
import json
import random
import re
import shutil
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import httpx

import bitdoku
from bitdoku.data import sample_lines

BODIES = 1_000
CHECKED = 300


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def start_server(port: int, workers: int) -> subprocess.Popen:
    server = subprocess.Popen([sys.executable, "-m", "bitdoku", "serve", "--port", str(port), "--workers",
                               str(workers)], stderr=subprocess.DEVNULL)
    deadline = time.time() + 1200
    while time.time() < deadline:
        try:
            health = httpx.get(f"http://127.0.0.1:{port}/api/health", timeout=1)
            if health.status_code == 200 and all(health.json()["ready"].values()):  # compiled: the steady state
                time.sleep(2 * workers)  # every process up, its kernels loaded
                return server
        except httpx.HTTPError:
            pass
        time.sleep(0.5)
    server.kill()
    raise SystemExit("the server was not ready in 1,200 s")


def solve_requests(puzzles: list[str], draw: random.Random) -> list[tuple[str, dict, str]]:
    chosen = [draw.choice(puzzles) for _ in range(BODIES)]
    return [("/api/solve", {"puzzle": p, "shape": "3x3"}, bitdoku.solve(p).to_line()) for p in chosen]


def verdict_requests(puzzles: list[str], draw: random.Random) -> list[tuple[str, dict, str]]:
    """A typed-so-far puzzle: a 17-clue puzzle missing a random share of its givens (unique only when whole)."""
    out = []
    for _ in range(BODIES):
        puzzle = list(draw.choice(puzzles))
        givens = [i for i, ch in enumerate(puzzle) if ch != "."]
        missing = draw.randint(0, len(givens))
        for cell in draw.sample(givens, missing):
            puzzle[cell] = "."
        out.append(("/api/count", {"puzzle": "".join(puzzle), "shape": "3x3", "limit": 2},
                    "unique" if missing == 0 else "multiple"))
    return out


def check_answers(base: str, requests: list[tuple[str, dict, str]]) -> int:
    """Ask the first ``CHECKED`` requests one by one; the number of wrong answers."""
    wrong = 0
    with httpx.Client(base_url=base, timeout=30) as client:
        for path, body, expected in requests[:CHECKED]:
            reply = client.post(path, json=body)
            answer = reply.json() if reply.status_code == 200 else {}
            wrong += expected not in (answer.get("solution"), answer.get("status"))
    return wrong


def wrk_script(path: str, bodies: list[dict], folder: Path) -> Path:
    """A wrk Lua script that sends the bodies in turn, each connection starting at its own place."""
    lua = folder / "load.lua"
    table = ",\n".join(json.dumps(json.dumps(body)) for body in bodies)
    lua.write_text(
        f"local bodies = {{\n{table}\n}}\nlocal next_body = 0\n"
        'wrk.method = "POST"\nwrk.headers["Content-Type"] = "application/json"\n'
        "request = function()\n  next_body = next_body % #bodies + 1\n"
        f'  return wrk.format(nil, "{path}", nil, bodies[next_body])\nend\n'
        "done = function(summary, latency, requests)\n"
        '  io.write(string.format("RESULT %d %d %d %d %f %f\\n", summary.requests, summary.errors.status,\n'
        "    summary.errors.connect + summary.errors.read + summary.errors.write + summary.errors.timeout,\n"
        "    summary.duration, latency:percentile(50), latency:percentile(99)))\nend\n"
    )
    return lua


def run_wrk(base: str, script: Path, connections: int, seconds: int) -> dict[str, float]:
    output = subprocess.run(["wrk", "-t2", f"-c{connections}", f"-d{seconds}s", "-s", str(script), base],
                            capture_output=True, text=True, check=True).stdout
    match = re.search(r"RESULT (\d+) (\d+) (\d+) (\d+) ([\d.]+) ([\d.]+)", output)
    if match is None:
        raise SystemExit(f"wrk printed no result:\n{output}")
    requests, status_errors, socket_errors, micros = (int(match[i]) for i in range(1, 5))
    return {"requests": requests, "rps": requests / (micros / 1e6), "p50": float(match[5]) / 1e3,
            "p99": float(match[6]) / 1e3, "errors": status_errors + socket_errors}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--connections", type=int, default=50)
    parser.add_argument("--seconds", type=int, default=10)
    parser.add_argument("--server-workers", type=int, nargs="+", default=[2, 1])
    parser.add_argument("--data", type=Path, help="a 17-clue file to draw puzzles from (default: the sample)")
    args = parser.parse_args()
    if shutil.which("wrk") is None:
        raise SystemExit("this benchmark drives wrk: apt-get install wrk")
    puzzles = ([line.strip() for line in args.data.read_text().splitlines() if line.strip()] if args.data
               else sample_lines("17clue_sample.txt"))
    scenarios = [("/api/solve, 17-clue puzzles", solve_requests(puzzles, random.Random(1))),
                 ("/api/count, live verdict", verdict_requests(puzzles, random.Random(2)))]
    print("| scenario | server processes | connections | requests | req/s | p50 ms | p99 ms | errors | "
          f"wrong of {CHECKED} checked |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|")
    for workers in args.server_workers:
        port = free_port()
        server = start_server(port, workers)
        base = f"http://127.0.0.1:{port}"
        try:
            with tempfile.TemporaryDirectory() as folder:
                for name, requests in scenarios:
                    wrong = check_answers(base, requests)
                    script = wrk_script(requests[0][0], [body for _, body, _ in requests], Path(folder))
                    for _ in range(2):
                        result = run_wrk(base, script, args.connections, args.seconds)
                        print(f"| {name} | {workers} | {args.connections} | {result['requests']:,} | "
                              f"{result['rps']:,.0f} | {result['p50']:.1f} | {result['p99']:.1f} | "
                              f"{result['errors']} | {wrong} |", flush=True)
        finally:
            server.terminate()
            server.wait(timeout=30)


if __name__ == "__main__":
    main()
