"""A burst of requests against the real server, with a health probe beside it (issue 16: the web under load).

Run from the repository root after ``pip install -e '.[test]'``::

    nice -n 10 python benchmarks/web_load.py [--requests 100000] [--clients 200] [--server-workers 2]
                                             [--json FILE]

It starts ``bitdoku serve`` (its default address, which must be 127.0.0.1; a free port) in its own processes
and waits until it answers, then sends ``--requests`` requests from ``--clients`` concurrent clients (one aiohttp
session, a connection limit of ``--clients``, each client sending its next request as soon as the answer
arrives; httpx's async pool managed only 70 requests/s with 50 connections here, so it would have measured
itself) drawn from a mix of the endpoints: solve and the live verdict on 9x9 puzzles, a near-empty 25x25 count
(the pathological case: it ends on its node budget), candidates, hint, explain, health, the page and its
script, and bad requests (malformed JSON, an unknown field, a wrong type, a body over the limit, a bad
character, a path that does not exist). Each kind has its expected status; any other status, and any 5xx,
is counted as a failure.

Beside the burst, a separate process asks ``GET /api/health`` every ``--probe-ms`` milliseconds on its own
connection and records each latency (from before the request to the end of the answer), so the probe's figures
are the server's, not the burst client's event loop.

Reported: the address the server listens on, requests, seconds and requests/s, the count of each status, the
health probe's count, failures and p50/p99/max latency (before, during and after the burst), and the server's
peak memory (VmHWM of each of its processes, and their sum). The exit code is 1 when a request got a 5xx or an
unexpected status, a request or probe failed at the transport level, or the server listened elsewhere than on
127.0.0.1 (``tests/web/test_load.py`` runs a small burst in CI).
"""

from __future__ import annotations

import argparse
import asyncio
import collections
import json
import multiprocessing
import random
import statistics
import sys
import time
from dataclasses import dataclass
from pathlib import Path

import aiohttp
import httpx
from web_bench import free_port, start_server

from bitdoku.data import sample_lines

HEALTH = "/api/health"


@dataclass(frozen=True)
class Kind:
    """One kind of request in the mix: how often, what to send, the status it must get."""

    name: str
    weight: float
    method: str
    path: str
    expected: int
    bodies: tuple[bytes, ...] = (b"",)


def request_mix(draw: random.Random) -> list[Kind]:
    """The kinds of requests, each with a few hundred bodies drawn from the shipped samples."""
    puzzles = sample_lines("17clue_sample.txt")

    def typed() -> str:  # a 17-clue puzzle with some of its givens not yet typed: what the page's verdict sends
        cells = list(draw.choice(puzzles))
        for cell in draw.sample([i for i, ch in enumerate(cells) if ch != "."], draw.randint(0, 17)):
            cells[cell] = "."
        return "".join(cells)

    def bodies(make, count: int = 300) -> tuple[bytes, ...]:
        return tuple(json.dumps(make()).encode() for _ in range(count))

    def near_empty_25() -> dict:
        cells = ["."] * 625
        cells[draw.randrange(625)] = draw.choice("123456789ABCDEFGHIJKLMNOP")
        return {"puzzle": "".join(cells), "shape": "5x5", "limit": 2}

    small = ["..3..4.221......", "1..4.4.......3..", "....3..1..2....4"]
    return [
        Kind("solve 9x9", 26, "POST", "/api/solve", 200, bodies(lambda: {"puzzle": draw.choice(puzzles)})),
        Kind("count 9x9 typed", 26, "POST", "/api/count", 200, bodies(lambda: {"puzzle": typed(), "limit": 2})),
        Kind("count 25x25 near-empty", 0.3, "POST", "/api/count", 200, bodies(near_empty_25, 50)),
        Kind("candidates 9x9", 5, "POST", "/api/candidates", 200, bodies(lambda: {"puzzle": typed()})),
        Kind("hint 9x9", 4, "POST", "/api/hint", 200, bodies(lambda: {"puzzle": draw.choice(puzzles)})),
        Kind("explain 4x4", 3, "POST", "/api/explain", 200, bodies(lambda: {"puzzle": draw.choice(small)}, 3)),
        Kind("health", 10, "GET", HEALTH, 200),
        Kind("page", 4, "GET", "/", 200),
        Kind("page script", 3, "GET", "/static/app.js", 200),
        Kind("malformed JSON", 3, "POST", "/api/solve", 422, (b'{"puzzle": "..3', b"{puzzle: 1}", b"[1, 2")),
        Kind("unknown field", 2, "POST", "/api/count", 422, (b'{"puzzle": "..3..4.221......", "shap": "2x2"}',)),
        Kind("wrong type", 2, "POST", "/api/count", 422, (b'{"puzzle": 81}', b'{"puzzle": "....", "limit": "x"}')),
        Kind("body over the limit", 1, "POST", "/api/solve", 413, (b'{"puzzle": "' + b"." * 70_000 + b'"}',)),
        Kind("bad character", 3, "POST", "/api/solve", 422, bodies(lambda: {"puzzle": "x" + draw.choice(puzzles)[1:]},
                                                                    20)),
        Kind("no such path", 1, "GET", "/api/nothing", 404),
    ]


async def burst(base: str, kinds: list[Kind], requests: int, clients: int, seed: int) -> dict:
    """Send ``requests`` requests from ``clients`` concurrent clients; the status counts and failures."""
    draw = random.Random(seed)
    plan = draw.choices(kinds, weights=[kind.weight for kind in kinds], k=requests)
    statuses: collections.Counter[str] = collections.Counter()
    by_kind: dict[str, collections.Counter[int]] = collections.defaultdict(collections.Counter)
    unexpected: collections.Counter[str] = collections.Counter()
    transport: collections.Counter[str] = collections.Counter()
    sent = iter(enumerate(plan))
    headers = {"content-type": "application/json"}

    async def client_loop(session: aiohttp.ClientSession) -> None:
        for number, kind in sent:  # the shared iterator hands each request to exactly one client
            body = kind.bodies[number % len(kind.bodies)]
            try:
                async with session.request(kind.method, base + kind.path, data=body or None,
                                           headers=headers if body else None) as reply:
                    await reply.read()
                    status = reply.status
            except (aiohttp.ClientError, asyncio.TimeoutError) as error:
                transport[type(error).__name__] += 1
                continue
            statuses[str(status)] += 1
            by_kind[kind.name][status] += 1
            if status != kind.expected:
                unexpected[f"{kind.name}: {status}"] += 1

    start = time.perf_counter()
    connector = aiohttp.TCPConnector(limit=clients)
    async with aiohttp.ClientSession(connector=connector, timeout=aiohttp.ClientTimeout(total=60)) as session:
        await asyncio.gather(*(client_loop(session) for _ in range(clients)))
    seconds = time.perf_counter() - start
    return {"requests": requests, "clients": clients, "seconds": round(seconds, 2),
            "requests_per_second": round(requests / seconds), "statuses": dict(sorted(statuses.items())),
            "by_kind": {name: dict(counts) for name, counts in by_kind.items()},
            "unexpected": dict(unexpected), "transport_errors": dict(transport)}


def probe(base: str, interval: float, stop, results) -> None:
    """In its own process: ``GET /api/health`` every ``interval`` s until ``stop`` is set; (time, latency or
    None) pairs go to ``results``."""
    samples: list[tuple[float, float | None]] = []
    with httpx.Client(base_url=base, timeout=5) as client:
        next_at = time.monotonic()
        while not stop.is_set():
            started = time.monotonic()
            try:
                ok = client.get(HEALTH).status_code == 200
            except httpx.HTTPError:
                ok = False
            samples.append((time.time(), time.monotonic() - started if ok else None))
            next_at += interval
            time.sleep(max(0.0, next_at - time.monotonic()))
    results.send(samples)


def latency_summary(samples: list[tuple[float, float | None]]) -> dict:
    latencies = sorted(latency * 1000 for _, latency in samples if latency is not None)
    if not latencies:
        return {"probes": len(samples), "failed": len(samples)}
    return {"probes": len(samples), "failed": len(samples) - len(latencies),
            "over_50_ms": sum(latency > 50 for latency in latencies),
            "p50_ms": round(statistics.median(latencies), 2),
            "p99_ms": round(latencies[min(len(latencies) - 1, int(len(latencies) * 0.99))], 2),
            "max_ms": round(latencies[-1], 2)}


def process_tree(pid: int) -> list[int]:
    """``pid`` and its descendants (uvicorn's worker processes), from /proc."""
    children: dict[int, list[int]] = collections.defaultdict(list)
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        children[int(fields[1])].append(int(stat.parent.name))
    tree, todo = [], [pid]
    while todo:
        tree.append(todo.pop())
        todo.extend(children.get(tree[-1], []))
    return tree


def peak_rss_mb(pids: list[int]) -> dict[str, float]:
    """Each process's peak resident memory (VmHWM) in MB."""
    peaks = {}
    for pid in pids:
        try:
            for line in Path(f"/proc/{pid}/status").read_text().splitlines():
                if line.startswith("VmHWM:"):
                    peaks[str(pid)] = round(int(line.split()[1]) / 1024, 1)
        except OSError:
            continue
    return peaks


def listening_addresses(pids: list[int], port: int) -> list[str]:
    """The addresses the server's sockets listen on for ``port`` (/proc/net/tcp and tcp6, state 0A)."""
    found = set()
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        for row in Path(table).read_text().splitlines()[1:]:
            local, state = row.split()[1], row.split()[3]
            address, port_hex = local.rsplit(":", 1)
            if state == "0A" and int(port_hex, 16) == port:
                raw = bytes.fromhex(address)
                if len(raw) == 4:
                    found.add(".".join(str(b) for b in reversed(raw)))
                else:
                    found.add(f"ipv6:{address}")
    return sorted(found)


def run(args: argparse.Namespace) -> dict:
    port = free_port()
    server = start_server(port, args.server_workers)
    base = f"http://127.0.0.1:{port}"
    context = multiprocessing.get_context("spawn")
    stop, (receiver, sender) = context.Event(), context.Pipe(duplex=False)
    prober = context.Process(target=probe, args=(base, args.probe_ms / 1000, stop, sender), daemon=True)
    try:
        pids = process_tree(server.pid)
        addresses = listening_addresses(pids, port)
        before_rss = peak_rss_mb(pids)
        prober.start()
        time.sleep(args.quiet_seconds)
        started = time.time()
        kinds = [kind for kind in request_mix(random.Random(args.seed)) if not args.only or kind.name in args.only]
        report = asyncio.run(burst(base, kinds, args.requests, args.clients, args.seed))
        ended = time.time()
        time.sleep(args.quiet_seconds)
        stop.set()
        samples = receiver.recv()
        prober.join(timeout=10)
        report["peak_rss_mb"] = peak_rss_mb(process_tree(server.pid))
    finally:
        stop.set()
        server.terminate()
        server.wait(timeout=30)
    report["peak_rss_mb_total"] = round(sum(report["peak_rss_mb"].values()), 1)
    report["rss_after_start_mb"] = before_rss
    report["listening"] = addresses
    report["server_processes"] = args.server_workers
    report["health_before"] = latency_summary([s for s in samples if s[0] < started])
    report["health_during"] = latency_summary([s for s in samples if started <= s[0] <= ended])
    report["health_after"] = latency_summary([s for s in samples if s[0] > ended])
    return report


def problems(report: dict) -> list[str]:
    """What makes the run a failure, in words (empty: it passed)."""
    found = []
    fives = {status: count for status, count in report["statuses"].items() if status.startswith("5")}
    if fives:
        found.append(f"5xx answers: {fives}")
    if report["unexpected"]:
        found.append(f"unexpected statuses: {report['unexpected']}")
    if report["transport_errors"]:
        found.append(f"requests that failed: {report['transport_errors']}")
    for phase in ("health_before", "health_during", "health_after"):
        if report[phase].get("failed"):
            found.append(f"{phase}: {report[phase]['failed']} probes failed")
    if report["health_during"]["probes"] == 0:
        found.append("the health probe asked nothing during the burst")
    if report["listening"] != ["127.0.0.1"]:
        found.append(f"the server listens on {report['listening']}, not 127.0.0.1 only")
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--requests", type=int, default=100_000, help="requests in the burst")
    parser.add_argument("--clients", type=int, default=200, help="concurrent clients (and connections)")
    parser.add_argument("--server-workers", type=int, default=2, help="server processes (bitdoku serve --workers)")
    parser.add_argument("--probe-ms", type=float, default=100, help="the health probe's interval")
    parser.add_argument("--quiet-seconds", type=float, default=2, help="probing alone before and after the burst")
    parser.add_argument("--seed", type=int, default=16)
    parser.add_argument("--only", nargs="+", metavar="KIND", help="send only these kinds (names as in the report)")
    parser.add_argument("--json", type=Path, help="write the report here too")
    args = parser.parse_args()
    report = run(args)
    text = json.dumps(report, indent=2)
    print(text)
    if args.json:
        args.json.write_text(text + "\n")
    failures = problems(report)
    for failure in failures:
        print(f"FAILED: {failure}", file=sys.stderr)
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
