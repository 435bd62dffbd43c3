"""``create_app``: the FastAPI application that serves the page (static files in the package) and ``/api``."""

from __future__ import annotations

from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import anyio
from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, JSONResponse
from fastapi.staticfiles import StaticFiles

from bitdoku import __version__
from bitdoku.web.errors import ApiError
from bitdoku.web.limits import Limits
from bitdoku.web.routes import Workers, router
from bitdoku.web.schemas import ErrorBody, ErrorOut

STATIC = Path(__file__).resolve().parent / "static"

Send = Callable[[dict[str, Any]], Awaitable[None]]
Receive = Callable[[], Awaitable[dict[str, Any]]]


def create_app(limits: Limits | None = None, *, warm_up: bool = True) -> FastAPI:
    """The bitdoku web application: the page at ``/``, the JSON API at ``/api``, its OpenAPI docs at ``/docs``.

    Parameters
    ----------
    limits : Limits, optional
        Request size, grid size, search and time budgets, worker threads (``bitdoku.web.Limits``).
    warm_up : bool
        Compile (or load from Numba's cache) every kernel a request may need before the first request is
        served, so that no user waits for a compiler. Tests that build many apps may skip it.

    Example
    -------
    >>> from fastapi.testclient import TestClient
    >>> client = TestClient(create_app(warm_up=False))
    >>> client.post("/api/count", json={"puzzle": "..3..4.221......"}).json()["status"]
    'unique'
    """
    limits = limits or Limits()

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        if warm_up:
            await anyio.to_thread.run_sync(compile_kernels)
        yield

    app = FastAPI(title="bitdoku", version=__version__, lifespan=lifespan,
                  description="Solve, count, explain, rate and generate Sudoku puzzles of every box shape.")
    app.state.workers = Workers(limits)
    app.include_router(router)
    app.add_middleware(BodyLimit, max_bytes=limits.max_body_bytes)
    app.add_exception_handler(ApiError, _api_error)  # type: ignore[arg-type]
    app.add_exception_handler(RequestValidationError, _validation_error)  # type: ignore[arg-type]
    app.mount("/static", StaticFiles(directory=STATIC), name="static")

    @app.get("/", include_in_schema=False)
    def page() -> FileResponse:
        return FileResponse(STATIC / "index.html")

    return app


def compile_kernels() -> None:
    """Run each kind of request once on every shape the page offers, so their kernels are compiled."""
    from bitdoku.web import work
    from bitdoku.web.schemas import CountIn, ExplainIn, GenerateIn, PuzzleIn

    quick = Limits(explain_seconds=0.05)
    for shape in work.PAGE_SHAPES:
        work.count(CountIn(puzzle="." * _cells(shape), shape=shape), quick)
    puzzle = PuzzleIn(puzzle="..3..4.221......", shape="2x2")
    work.solve(puzzle, quick)
    work.solve(PuzzleIn(puzzle="1" + "." * 80), quick)
    work.next_hint(puzzle, quick)
    work.explanation(ExplainIn(puzzle="..3..4.221......", shape="2x2"), quick)
    work.rating(puzzle, quick)
    for shape in ("2x2", "3x3"):
        work.generation(GenerateIn(shape=shape, seed=1), quick)
    work.generation(GenerateIn(shape="3x3", seed=1, symmetry="rotational", minimal=True), quick)


def _cells(shape: str) -> int:
    rows, cols = (int(part) for part in shape.split("x"))
    return (rows * cols) ** 2


async def _api_error(request: Request, error: ApiError) -> JSONResponse:
    return JSONResponse(ErrorOut(error=error.body).model_dump(), status_code=error.status)


async def _validation_error(request: Request, error: RequestValidationError) -> JSONResponse:
    """Pydantic's complaint as one sentence in the API's error shape."""
    first = error.errors()[0] if error.errors() else {"loc": (), "msg": "invalid request"}
    where = ".".join(str(part) for part in first.get("loc", ()) if part != "body")
    message = f"{where}: {first['msg']}" if where else str(first["msg"])
    return JSONResponse(ErrorOut(error=ErrorBody(kind="bad_request", message=message)).model_dump(), status_code=422)


class BodyLimit:
    """ASGI middleware: refuse a request body over ``max_bytes`` with 413, whether or not it says its length.

    The body is read before the app runs (it is small by definition), so the app never starts on a request that
    will be refused, and FastAPI's own body parsing cannot swallow the refusal.
    """

    def __init__(self, app: Callable[..., Awaitable[None]], max_bytes: int) -> None:
        self.app = app
        self.max_bytes = max_bytes

    async def __call__(self, scope: dict[str, Any], receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        declared = dict(scope.get("headers") or []).get(b"content-length")
        if declared is not None and declared.isdigit() and int(declared) > self.max_bytes:
            await self._refuse(send)
            return
        messages, received = [], 0
        while True:  # read the whole body first (at most max_bytes of it): the app sees it only if it fits
            message = await receive()
            messages.append(message)
            received += len(message.get("body", b""))
            if received > self.max_bytes:
                await self._refuse(send)
                return
            if message["type"] != "http.request" or not message.get("more_body", False):
                break

        async def replay() -> dict[str, Any]:
            return messages.pop(0) if messages else await receive()

        await self.app(scope, replay, send)

    async def _refuse(self, send: Send) -> None:
        body = ErrorOut(error=ErrorBody(kind="too_large", message=f"a request body may have at most "
                                        f"{self.max_bytes:,} bytes")).model_dump_json().encode()
        await send({"type": "http.response.start", "status": 413,
                    "headers": [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode())]})
        await send({"type": "http.response.body", "body": body})
