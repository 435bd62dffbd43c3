"""``create_app``: the FastAPI application that serves the page (static files in the package) and ``/api``."""

from __future__ import annotations

import gc
import os
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import anyio
from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.openapi.docs import get_redoc_html, get_swagger_ui_html
from fastapi.responses import FileResponse, HTMLResponse, JSONResponse
from fastapi.staticfiles import StaticFiles
from starlette.exceptions import HTTPException as StarletteHTTPException

from bitdoku import __version__
from bitdoku.warmup.worker import die_with_parent
from bitdoku.web.admission import Admission
from bitdoku.web.errors import ApiError
from bitdoku.web.limits import Limits
from bitdoku.web.photo import MAX_BYTES as PHOTO_BYTES
from bitdoku.web.photo import PATH as PHOTO_PATH
from bitdoku.web.readiness import FOLLOW_ENV, Readiness
from bitdoku.web.routes import Workers, router
from bitdoku.web.schemas import ErrorBody, ErrorOut
from bitdoku.web.security import Receive, SecurityHeaders, Send, docs_policy

STATIC = Path(__file__).resolve().parent / "static"


def create_app(limits: Limits | None = None, *, warm_up: bool = True) -> FastAPI:
    """The bitdoku web application: the page at ``/``, the JSON API at ``/api``, its OpenAPI docs at ``/docs``.

    Parameters
    ----------
    limits : Limits, optional
        Request size, grid size, search and time budgets, worker threads (``bitdoku.web.Limits``).
    warm_up : bool
        Compile (or load from Numba's cache) every kernel a request may need, in the background, on every core,
        the live verdict first (``web.readiness``): the server answers at once, and a request for a feature still
        being compiled gets 503 with Retry-After instead of waiting for a compiler. Without it (tests that build
        many apps), a request compiles what it needs on first use.

    Example
    -------
    >>> from fastapi.testclient import TestClient
    >>> client = TestClient(create_app(warm_up=False))
    >>> client.post("/api/count", json={"puzzle": "..3..4.221......"}).json()["status"]
    'unique'
    """
    limits = limits or Limits()
    readiness = Readiness(gate=warm_up)

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        if warm_up:
            parent = os.environ.get(FOLLOW_ENV)  # a worker of ``bitdoku serve --workers N``: its farm compiles
            if parent:
                die_with_parent(int(parent))
            readiness.start(own_farm=not parent)
        else:
            # Numba, FastAPI and the kernels leave ~160,000 long-lived objects, and a full garbage collection that
            # scans them stopped the server for ~170 ms: the health check's tail under load
            # (docs/reliability/web.md). Frozen, they are never scanned again (with a warm-up: once it is done).
            gc.collect()
            gc.freeze()
        try:
            yield
        finally:
            readiness.stop()

    app = FastAPI(title="bitdoku", version=__version__, lifespan=lifespan, docs_url=None, redoc_url=None,
                  description="Solve, count, explain, rate and generate Sudoku puzzles of every box shape.")
    app.state.workers = Workers(limits, readiness)
    app.include_router(router)
    app.add_middleware(Admission, active=limits.max_active, waiting=limits.max_waiting)
    app.add_middleware(BodyLimit, max_bytes=limits.max_body_bytes, seconds=limits.body_seconds,
                       larger={PHOTO_PATH: PHOTO_BYTES})  # an image, not JSON: web/photo.py
    app.add_middleware(SecurityHeaders)  # added last, so outermost: the 413 and 408 answers carry the headers too
    app.add_exception_handler(ApiError, _api_error)  # type: ignore[arg-type]
    app.add_exception_handler(RequestValidationError, _validation_error)  # type: ignore[arg-type]
    app.add_exception_handler(StarletteHTTPException, _http_error)  # type: ignore[arg-type]
    app.mount("/static", StaticFiles(directory=STATIC), name="static")

    @app.get("/", include_in_schema=False)
    def page() -> FileResponse:
        return FileResponse(STATIC / "index.html")

    @app.get("/docs", include_in_schema=False)
    def docs() -> HTMLResponse:
        return _with_docs_policy(get_swagger_ui_html(openapi_url="/openapi.json", title="bitdoku API"))

    @app.get("/redoc", include_in_schema=False)
    def redoc() -> HTMLResponse:
        return _with_docs_policy(get_redoc_html(openapi_url="/openapi.json", title="bitdoku API"))

    return app


def _with_docs_policy(page: HTMLResponse) -> HTMLResponse:
    """FastAPI's documentation page with a policy that allows its inline script by hash (``docs_policy``)."""
    page.headers["content-security-policy"] = docs_policy(bytes(page.body).decode())
    return page


async def _api_error(request: Request, error: ApiError) -> JSONResponse:
    return JSONResponse(ErrorOut(error=error.body).model_dump(), status_code=error.status, headers=error.headers)


async def _validation_error(request: Request, error: RequestValidationError) -> JSONResponse:
    """Pydantic's complaint as one sentence in the API's error shape."""
    first = error.errors()[0] if error.errors() else {"loc": (), "msg": "invalid request"}
    if first.get("type") == "json_invalid":  # FastAPI's location is the character where the JSON goes wrong
        position = first["loc"][-1] if first.get("loc") else "?"
        reason = str((first.get("ctx") or {}).get("error", "")).removesuffix(" at") or "malformed"
        message = f"the body is not valid JSON: {reason.lower()} at character {position}"
    else:
        where = ".".join(str(part) for part in first.get("loc", ()) if part != "body")
        message = f"{where}: {first['msg']}" if where else f"the body: {first['msg']}"
        if not where and first.get("type") == "missing":
            message = "the request has no body: send a JSON object"
    return JSONResponse(ErrorOut(error=ErrorBody(kind="bad_request", message=message)).model_dump(), status_code=422)


async def _http_error(request: Request, error: StarletteHTTPException) -> JSONResponse:
    """Starlette's and FastAPI's own refusals (no such path or method, a body that cannot be decoded) in the API's
    error shape; a body that cannot be decoded says why (FastAPI keeps the decoder's exception as the cause)."""
    kinds = {400: "bad_request", 404: "not_found", 405: "method"}
    message, cause = str(error.detail), error.__cause__
    if isinstance(cause, RecursionError):
        message = "the body is not valid JSON: it nests too deeply"
    elif isinstance(cause, UnicodeDecodeError):
        message = f"the body is not text in {cause.encoding}: {cause.reason} at byte {cause.start}"
    elif error.status_code == 404:
        message = f"no such page: {request.url.path}"
    elif error.status_code == 405:
        message = f"{request.url.path} does not take {request.method}"
    body = ErrorOut(error=ErrorBody(kind=kinds.get(error.status_code, "bad_request"), message=message))
    return JSONResponse(body.model_dump(), status_code=error.status_code, headers=error.headers)


class BodyLimit:
    """ASGI middleware: refuse a request body over ``max_bytes`` with 413, whether or not it says its length, and
    one that takes more than ``seconds`` to arrive with 408.

    The body is read before the app runs (it is small by definition), so the app never starts on a request that
    will be refused, and FastAPI's own body parsing cannot swallow the refusal. The time limit frees the request
    of a client that sends its body a byte at a time (a slow-body attack) instead of letting it wait forever.
    ``larger`` gives the paths whose bodies may be bigger their own cap (a photo's bytes: ``/api/photo``).
    """

    def __init__(self, app: Callable[..., Awaitable[None]], max_bytes: int, seconds: float,
                 larger: dict[str, int] | None = None) -> None:
        self.app = app
        self.max_bytes = max_bytes
        self.seconds = seconds
        self.larger = larger or {}

    async def __call__(self, scope: dict[str, Any], receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        max_bytes = self.larger.get(scope["path"], self.max_bytes)
        declared = dict(scope.get("headers") or []).get(b"content-length")
        too_large = f"a request body may have at most {max_bytes:,} bytes"
        if declared is not None and declared.isdigit() and int(declared) > max_bytes:
            await self._refuse(send, 413, "too_large", too_large)
            return
        messages: list[dict[str, Any]] = []
        fits: bool | None = None  # stays None when the time runs out
        with anyio.move_on_after(self.seconds):
            fits = await self._read(receive, messages, max_bytes)
        if fits is None:
            await self._refuse(send, 408, "timeout", f"the request body did not arrive within {self.seconds:g} s")
            return
        if not fits:
            await self._refuse(send, 413, "too_large", too_large)
            return

        async def replay() -> dict[str, Any]:
            return messages.pop(0) if messages else await receive()

        await self.app(scope, replay, send)

    async def _read(self, receive: Receive, messages: list[dict[str, Any]], max_bytes: int) -> bool:
        """Read the whole body into ``messages``: True, or False as soon as it is over ``max_bytes``."""
        received = 0
        while True:
            message = await receive()
            messages.append(message)
            received += len(message.get("body", b""))
            if received > max_bytes:
                return False
            if message["type"] != "http.request" or not message.get("more_body", False):
                return True

    async def _refuse(self, send: Send, status: int, kind: str, message: str) -> None:
        body = ErrorOut(error=ErrorBody(kind=kind, message=message)).model_dump_json().encode()
        await send({"type": "http.response.start", "status": status,
                    "headers": [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode())]})
        await send({"type": "http.response.body", "body": body})
