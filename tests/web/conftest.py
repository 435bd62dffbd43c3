"""The web app served for real: uvicorn on a free local port in a background thread (for the browser tests and
the attacks that need real sockets)."""

import contextlib
import json
import time
import urllib.request
from collections.abc import Callable, Iterator

import pytest

from bitdoku.web import create_app, serve_in_thread


@contextlib.contextmanager
def serving(app) -> Iterator[str]:
    """``app`` served in a daemon thread (``bitdoku.web.serve_in_thread``); a server that does not start fails
    the test with the reason."""
    try:
        with serve_in_thread(app) as url:
            yield url
    except RuntimeError as error:
        if "did not start" not in str(error):
            raise
        pytest.fail(str(error))


def wait_until_ready(health: Callable[[], dict], timeout: float = 1800) -> None:
    """Wait until a server's background warm-up has every feature ready (``/api/health``'s ``ready``): on a cold
    cache its requests answer 503 until then. ``health`` returns the decoded health answer."""
    deadline = time.monotonic() + timeout
    while not all(health()["ready"].values()):
        if time.monotonic() > deadline:
            pytest.fail(f"the server was not ready within {timeout} s: {health()['ready']}")
        time.sleep(0.2)


def ready_client(client):
    """A ``TestClient`` of ``create_app()`` once its warm-up is done (the lifespan has started)."""
    wait_until_ready(lambda: client.get("/api/health").json())
    return client


@pytest.fixture(scope="module")
def server_url() -> Iterator[str]:
    """The base URL (``http://127.0.0.1:<port>``) of ``create_app()`` running under uvicorn, warmed up."""
    with serving(create_app()) as url:
        wait_until_ready(lambda: json.load(urllib.request.urlopen(f"{url}/api/health", timeout=10)))
        yield url


@pytest.fixture(scope="module")
def client():
    """A ``TestClient`` of the default app, started for real (kernels compiled in the background) and ready, one
    a test module (the modules that test other limits define their own)."""
    from fastapi.testclient import TestClient

    with TestClient(create_app()) as client:
        yield ready_client(client)


def post(client, path: str, **body):
    """POST ``body`` as JSON to ``/api/<path>``."""
    return client.post(f"/api/{path}", json=body)
