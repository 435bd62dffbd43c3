"""The web app served for real: uvicorn on a free local port in a background thread (for the browser tests and
the attacks that need real sockets)."""

import contextlib
import socket
import threading
import time
from collections.abc import Iterator

import pytest
import uvicorn

from bitdoku.web import create_app

START_SECONDS = 120  # kernels compile at start-up: quick with Numba's cache warm, slower on a cold one


@contextlib.contextmanager
def serving(app) -> Iterator[str]:
    """``app`` under uvicorn on 127.0.0.1 in a daemon thread: yields its base URL, stops it on the way out."""
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind(("127.0.0.1", 0))  # the port is ours from here on: no race with another process
    port = sock.getsockname()[1]
    server = uvicorn.Server(uvicorn.Config(app, log_level="warning", lifespan="on"))
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    deadline = time.monotonic() + START_SECONDS
    while not server.started:
        if not thread.is_alive() or time.monotonic() > deadline:
            pytest.fail("the web app did not start (see the log above)")
        time.sleep(0.05)
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        thread.join(timeout=10)
        sock.close()


@pytest.fixture(scope="module")
def server_url() -> Iterator[str]:
    """The base URL (``http://127.0.0.1:<port>``) of ``create_app()`` running under uvicorn."""
    with serving(create_app()) as url:
        yield url
