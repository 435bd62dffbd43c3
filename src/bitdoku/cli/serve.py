"""``bitdoku serve``: the web page and its JSON API on this machine (extra ``bitdoku[web]``)."""

from __future__ import annotations

import os
import threading
import webbrowser
from typing import Annotated, Optional

import typer

#: Seconds a stopping server gives the requests under way to finish (a search past it is cut off with the process).
GRACE_SECONDS = 1


def serve(
    host: Annotated[str, typer.Option(help="The address to listen on (0.0.0.0: every interface).")] = "127.0.0.1",
    port: Annotated[int, typer.Option(min=1, max=65535, help="The port to listen on.")] = 8000,
    open_browser: Annotated[bool, typer.Option("--open", help="Open the page in a web browser once it is up.")]
    = False,
    workers: Annotated[
        Optional[int],  # noqa: UP045 - Typer reads this annotation at run time, also on Python 3.10
        typer.Option(min=1, help="Server processes (default: one a core).", show_default=False),
    ] = None,
) -> None:
    """Serve the web page: type or paste a grid, see it checked as you type, solve, hint, explain, rate, generate.

    The page answers at once. On a first start the kernels compile in the background on every core (once:
    Numba caches them), the live verdict first: a few seconds, then hints, then the generator; meanwhile a button
    whose feature is still being prepared says so. The JSON API is under /api, with its documentation at /docs and
    what is ready at /api/health. One server process a core by default: a 2-core machine answers about 7,000
    small requests a second. Ctrl-C or SIGTERM stops it within a second or two, its worker processes with it.
    """
    from bitdoku.batch import default_threads
    from bitdoku.cli.console import warn
    from bitdoku.errors import MissingExtraError

    try:
        import uvicorn

        from bitdoku.web import create_app
        from bitdoku.web.readiness import FOLLOW_ENV, Readiness
    except ImportError as error:
        raise MissingExtraError("the web page", "web") from error
    processes = default_threads() if workers is None else workers
    url = f"http://{'127.0.0.1' if host in ('0.0.0.0', '::') else host}:{port}/"
    warn(f"bitdoku: serving {url} (Ctrl-C stops)")
    if open_browser:
        threading.Timer(1.0, webbrowser.open, args=(url,)).start()
    options = {"host": host, "port": port, "log_level": "warning", "timeout_graceful_shutdown": GRACE_SECONDS}
    if processes == 1:
        uvicorn.run(create_app(), **options)
        return
    # Each worker process builds its app and loads the compiled kernels; this process compiles them, once for all
    # (its farm), and the workers follow it and end with it.
    readiness = Readiness()
    readiness.start(own_farm=True, preload=False)
    os.environ[FOLLOW_ENV] = str(os.getpid())
    try:
        uvicorn.run("bitdoku.web.app:create_app", factory=True, workers=processes, **options)
    finally:
        readiness.stop()
