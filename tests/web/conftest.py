"""The web app served for real: uvicorn on a free local port in a background thread (for the browser tests and
the attacks that need real sockets)."""

import contextlib
from collections.abc import Iterator

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


@pytest.fixture(scope="module")
def server_url() -> Iterator[str]:
    """The base URL (``http://127.0.0.1:<port>``) of ``create_app()`` running under uvicorn."""
    with serving(create_app()) as url:
        yield url
