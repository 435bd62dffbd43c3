"""``bitdoku serve`` on a cold cache: the page answers while the kernels compile in the background, what is
ready is said by /api/health, and the server stops on SIGTERM, mid warm-up included, leaving no process behind;
killed with SIGKILL, its worker processes end by themselves. (How fast: benchmarks/first_run_bench.py.)"""

import json
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.request

import pytest

from bitdoku.kernels.cache import COMPILE_LOG
from tests.processes import all_gone, descendants


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


@pytest.fixture(params=[1, 2], ids=["one process", "two workers"])
def server(request, tmp_path):
    port = free_port()
    env = {**os.environ, "NUMBA_CACHE_DIR": str(tmp_path)}
    process = subprocess.Popen([sys.executable, "-m", "bitdoku", "serve", "--port", str(port), "--workers",
                                str(request.param)], env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 60
    while True:
        try:
            with urllib.request.urlopen(f"{url}/api/health", timeout=5) as answer:
                health = json.load(answer)
                break
        except OSError:
            assert process.poll() is None, process.stderr.read().decode()
            assert time.monotonic() < deadline, "the server did not answer within 60 s"
            time.sleep(0.1)
    yield process, url, health
    if process.poll() is None:
        process.kill()
        process.wait()


def test_the_page_answers_while_the_kernels_compile_and_health_says_what_is_ready(server):
    _, url, health = server
    assert health["ready"]["hints"] is False  # a cold cache: the logic takes longer than the server's start
    with urllib.request.urlopen(f"{url}/", timeout=10) as page:
        assert page.status == 200 and b"bitdoku" in page.read()
    request = urllib.request.Request(f"{url}/api/hint", data=json.dumps({"puzzle": "." * 81}).encode(),
                                     headers={"Content-Type": "application/json"})
    try:
        urllib.request.urlopen(request, timeout=10)
        raise AssertionError("a hint was answered before the logic was compiled")
    except urllib.error.HTTPError as error:
        assert error.code == 503 and error.headers["Retry-After"]
        assert json.load(error)["error"]["kind"] == "warming_up"


def test_sigterm_mid_warm_up_stops_the_server_and_every_process_it_started(server):
    process, _, _ = server
    below = descendants(process.pid)
    assert below  # the compile workers at least
    process.send_signal(signal.SIGTERM)
    process.wait(timeout=20)
    assert all_gone(below, timeout=10)


def test_after_sigkill_the_worker_processes_end_by_themselves(server):
    process, _, _ = server
    below = descendants(process.pid)
    process.kill()
    process.wait()
    assert all_gone(below, timeout=20)


def test_a_cold_server_compiles_each_kernel_once_on_the_machine(tmp_path):
    # Two server processes and the compile farm on a cold cache, until every feature is ready: each function and
    # signature compiled by one process only (the workers load what the farm compiled).
    log = tmp_path / "compiles.log"
    port = free_port()
    env = {**os.environ, "NUMBA_CACHE_DIR": str(tmp_path / "numba"), COMPILE_LOG: str(log)}
    process = subprocess.Popen([sys.executable, "-m", "bitdoku", "serve", "--port", str(port), "--workers", "2"],
                               env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 1200
        while True:
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/health", timeout=5) as answer:
                    if all(json.load(answer)["ready"].values()):
                        break
            except OSError:
                pass
            assert time.monotonic() < deadline and process.poll() is None
            time.sleep(0.5)
        time.sleep(3)  # the workers load every unit once it is ready
    finally:
        process.send_signal(signal.SIGTERM)
        process.wait(timeout=30)
    by_pair: dict[tuple[str, str], set[str]] = {}
    for line in log.read_text().splitlines():
        pid, name, signature = line.split("\t")
        if name.startswith("bitdoku."):  # (Numba's own helpers, np.zeros and the like, are not cached: each process)
            by_pair.setdefault((name, signature), set()).add(pid)
    assert by_pair, "nothing was compiled: the log is not written"
    twice = {pair: pids for pair, pids in by_pair.items() if len(pids) > 1}
    assert not twice, sorted(twice)[:10]
