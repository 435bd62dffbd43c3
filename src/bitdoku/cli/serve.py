"""``bitdoku serve``: the web page and its JSON API on this machine (extra ``bitdoku[web]``)."""

from __future__ import annotations

import threading
import webbrowser
from typing import Annotated, Optional

import typer


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

    The first start compiles the engine's kernels (a minute or more, once: Numba caches them; ``bitdoku warmup
    --all`` does it ahead of time); the server takes requests only when that is done. The JSON API is under
    /api, with its documentation at /docs. One server process a core by default: a 2-core machine answers about
    7,000 small requests a second.
    """
    from bitdoku.batch import default_threads
    from bitdoku.cli.console import warn
    from bitdoku.errors import MissingExtraError

    try:
        import uvicorn

        from bitdoku.web import create_app
    except ImportError as error:
        raise MissingExtraError("the web page", "web") from error
    processes = default_threads() if workers is None else workers
    url = f"http://{'127.0.0.1' if host in ('0.0.0.0', '::') else host}:{port}/"
    warn(f"bitdoku: preparing the engine, then serving {url} (Ctrl-C stops)")
    if open_browser:
        threading.Timer(1.0, webbrowser.open, args=(url,)).start()
    if processes == 1:
        uvicorn.run(create_app(), host=host, port=port, log_level="warning")
    else:  # each process builds its app (and loads the compiled kernels) itself
        uvicorn.run("bitdoku.web.app:create_app", factory=True, workers=processes, host=host, port=port,
                    log_level="warning")
