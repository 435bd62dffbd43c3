"""The web app served in a background thread of this process: for a notebook, a test or a script that drives the
page with a browser, where ``bitdoku serve`` would be a second process to start and stop::

    with serve_in_thread(create_app()) as url:
        httpx.get(f"{url}/api/health").json()["status"]  # 'ok'

(The browser tests, ``tests/web/conftest.py``, serve the app this way.)
"""

from __future__ import annotations

import socket
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

#: How long the app may take to start: its kernels are compiled (or loaded from Numba's cache) first.
START_SECONDS = 120.0


@contextmanager
def serve_in_thread(app: Any, *, start_seconds: float = START_SECONDS) -> Iterator[str]:
    """Serve ``app`` (an ASGI app, e.g. ``create_app()``) with uvicorn on 127.0.0.1, on a free port, in a daemon
    thread; yields its base URL (``http://127.0.0.1:<port>``) once it answers and stops it when the block ends.

    The socket is bound here, before the server starts, so no other process can take the port in between.
    Raises ``RuntimeError`` when the server does not start within ``start_seconds`` (its log says why).
    """
    import uvicorn

    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind(("127.0.0.1", 0))
    server = uvicorn.Server(uvicorn.Config(app, log_level="warning", lifespan="on"))
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    try:
        deadline = time.monotonic() + start_seconds
        while not server.started:
            if not thread.is_alive() or time.monotonic() > deadline:
                raise RuntimeError(f"the web app did not start within {start_seconds:g} s (see its log above)")
            time.sleep(0.05)
        yield f"http://127.0.0.1:{sock.getsockname()[1]}"
    finally:
        server.should_exit = True
        thread.join(timeout=10)
        sock.close()
