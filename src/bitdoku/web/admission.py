"""Admission control: how many requests a server process works on at once, so its event loop stays responsive.

Under a burst every open connection has a request on the event loop, and the loop serves them in turn: with a
hundred in flight, ``/api/health`` waited behind all of them (p99 0.4 s, benchmarks/web_load.py). ``Admission``
lets ``Limits.max_active`` requests into the app at once; the others wait on a semaphore, which costs the loop
nothing, so a request that is let in (and ``/api/health``, which never waits) is served after a few dozen steps
instead of hundreds. Past ``Limits.max_waiting`` waiting, the answer is 429 with Retry-After at once: an
overload is the client's to wait out, never a server error and never an unbounded queue.

It sits inside ``BodyLimit``: a request is let in only once its body has arrived, so slow senders hold no place.
A request that waits for a worker thread gives its place up while it waits (``released``): work on threads is
bounded by its own pool, and a long explanation must not keep a quick verdict out.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from typing import Any

import anyio

from bitdoku.web.schemas import ErrorBody, ErrorOut
from bitdoku.web.security import Receive, Send

#: What a 429 asks the client to wait, in seconds.
RETRY_SECONDS = 1
#: Paths that never wait: the health check must answer while the server is busy.
EXEMPT = frozenset({"/api/health"})
#: The scope key under which a let-in request finds its place: [the Admission, whether it holds a place].
PLACE = "bitdoku.admission"


class Admission:
    """ASGI middleware: at most ``active`` requests in the app at once, at most ``waiting`` more in line."""

    def __init__(self, app: Callable[..., Awaitable[None]], active: int, waiting: int) -> None:
        self.app = app
        self.slots = anyio.Semaphore(active)
        self.max_waiting = waiting
        self.waiting = 0

    async def __call__(self, scope: dict[str, Any], receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope["path"] in EXEMPT:
            await self.app(scope, receive, send)
            return
        if self.waiting >= self.max_waiting:
            await busy(send)
            return
        self.waiting += 1
        try:
            await self.slots.acquire()
        finally:
            self.waiting -= 1
        place = scope[PLACE] = [self, True]
        try:
            await self.app(scope, receive, send)
        finally:
            if place[1]:
                self.slots.release()


@asynccontextmanager
async def released(scope: dict[str, Any]) -> AsyncIterator[None]:
    """While the block runs (a wait for a worker thread), the request's place goes to another; it is taken back
    afterwards. Outside ``Admission`` (or on the health path) it does nothing."""
    place = scope.get(PLACE)
    if place is None or not place[1]:
        yield
        return
    admission: Admission = place[0]
    admission.slots.release()
    place[1] = False
    try:
        yield
    finally:
        await admission.slots.acquire()  # cancelled here, the place is not held and is not given back twice
        place[1] = True


def busy_body() -> ErrorBody:
    return ErrorBody(kind="busy", message=f"the server is busy; try again in {RETRY_SECONDS} s")


async def busy(send: Send) -> None:
    """Answer 429 with Retry-After, straight from the ASGI layer."""
    body = ErrorOut(error=busy_body()).model_dump_json().encode()
    await send({"type": "http.response.start", "status": 429,
                "headers": [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode()),
                            (b"retry-after", str(RETRY_SECONDS).encode())]})
    await send({"type": "http.response.body", "body": body})
