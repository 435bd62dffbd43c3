"""The web page and JSON API: ``create_app()`` for embedding, ``serve_in_thread(app)`` to serve it from this
process (a notebook, a test), ``bitdoku serve`` to run it (extra ``bitdoku[web]``).

FastAPI is imported only here and below; ``import bitdoku`` never needs it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from bitdoku.errors import MissingExtraError

if TYPE_CHECKING:
    from fastapi import FastAPI

    from bitdoku.web.limits import Limits

__all__ = ["Limits", "create_app", "serve_in_thread"]


def create_app(limits: Limits | None = None, *, warm_up: bool = True) -> FastAPI:
    """The web application (see ``bitdoku.web.app.create_app``); ``MissingExtraError`` without the extra."""
    try:
        from bitdoku.web.app import create_app as make
    except ImportError as error:
        if error.name in ("fastapi", "starlette", "pydantic", "anyio"):
            raise MissingExtraError("the web page", "web") from None
        raise
    return make(limits, warm_up=warm_up)


def __getattr__(name: str) -> Any:
    if name == "Limits":
        from bitdoku.web.limits import Limits

        return Limits
    if name == "serve_in_thread":
        from bitdoku.web.background import serve_in_thread

        return serve_in_thread
    raise AttributeError(f"module 'bitdoku.web' has no attribute {name!r}")
