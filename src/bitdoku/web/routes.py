"""The endpoints of ``/api``: each hands its work to a bounded pool of worker threads and answers with a model.

The event loop never runs a search: the compiled kernels release the GIL, so worker threads run them side by
side. A heavy request waits for one of ``Limits.workers`` threads; past ``Limits.max_pending`` waiting or
running, the answer is 429 with Retry-After at once (the client's to slow down: no 5xx for an overload), so a
flood of requests queues nowhere without bound.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from functools import partial
from typing import Any, TypeVar

import anyio
from fastapi import APIRouter, Request, Response
from pydantic import BaseModel

from bitdoku.web import photo, work
from bitdoku.web.admission import RETRY_SECONDS, busy_body, released
from bitdoku.web.errors import ApiError
from bitdoku.web.limits import Limits
from bitdoku.web.readiness import Readiness
from bitdoku.web.schemas import (
    CandidatesOut,
    CountIn,
    CountOut,
    ErrorOut,
    ExplainIn,
    ExplainOut,
    GenerateIn,
    GenerateOut,
    HealthOut,
    HintOut,
    LinkIn,
    LinkOut,
    PhotoOut,
    PuzzleIn,
    RateOut,
    SolveOut,
    TrueCandidatesOut,
)

In = TypeVar("In")
Job = Callable[..., BaseModel | None]
Needs = Callable[[Any, Limits], tuple[str, ...]]

ERRORS = {422: {"model": ErrorOut}, 429: {"model": ErrorOut}, 503: {"model": ErrorOut}}


class Workers:
    """The threads that run the work, the count of requests waiting for them, and what is compiled yet."""

    def __init__(self, limits: Limits, readiness: Readiness | None = None) -> None:
        self.limits = limits
        self.readiness = readiness or Readiness(gate=False)
        self.limiter = anyio.CapacityLimiter(limits.workers)
        self._pending = 0
        self._lock = threading.Lock()

    async def run(self, job: Job, request: In, scope: dict[str, Any], *, inline: bool = False,
                  needs: Needs | None = None) -> Response:
        """The job's answer as JSON. With ``inline``, first ask the job for a quick answer on the event loop
        (``job(..., inline=True)`` spends at most ``Limits.inline_seconds`` of search and returns None when that
        is not enough); the thread hop costs more than most 9x9 searches (benchmarks/RESULTS.md, issue 10).
        While it waits for a thread, the request's place in ``admission`` goes to another (``scope``: its ASGI
        scope). ``needs`` names the warm-up units the request runs: while one is still being compiled, the
        answer is 503 with Retry-After (``readiness``), so no request waits for a compiler or compiles beside it."""
        if needs is not None and not self.readiness.all_ready:
            self.readiness.require(needs(request, self.limits))
        answer = job(request, self.limits, inline=True) if inline and self.limits.inline_seconds > 0 else None
        if answer is None:
            answer = await self._in_thread(job, request, scope)
        # serialised here, once: FastAPI would validate the model against ``response_model`` again
        return Response(answer.model_dump_json(), media_type="application/json")

    async def _in_thread(self, job: Job, request: In, scope: dict[str, Any]) -> BaseModel:
        with self._lock:
            if self._pending >= self.limits.max_pending:
                raise ApiError(429, busy_body(), headers={"Retry-After": str(RETRY_SECONDS)})
            self._pending += 1
        try:
            async with released(scope):
                return await anyio.to_thread.run_sync(job, request, self.limits, limiter=self.limiter)
        finally:
            with self._lock:
                self._pending -= 1


def workers_of(request: Request) -> Workers:
    return request.app.state.workers


router = APIRouter(prefix="/api", responses=ERRORS)


@router.get("/health", response_model=HealthOut)
async def health(request: Request) -> HealthOut:
    """Whether the server is up, its version, the shapes the page offers, the limits of a request, and which
    features are ready (compiled; the others answer 503 with Retry-After for a few seconds after a cold start)."""
    # async: answered on the event loop, never queued behind the thread pool that a burst of requests fills
    workers = workers_of(request)
    return work.health(workers.limits, workers.readiness.features())


@router.post("/count", response_model=CountOut)
async def count(body: CountIn, request: Request) -> Response:
    """Count solutions up to ``limit`` (2 tells unique from several): the live verdict while typing."""
    return await workers_of(request).run(work.count, body, request.scope, inline=True, needs=work.search_needs)


@router.post("/solve", response_model=SolveOut)
async def solve(body: PuzzleIn, request: Request) -> Response:
    """A solution, whether it is the only one, and the search's statistics."""
    return await workers_of(request).run(work.solve, body, request.scope, inline=True, needs=work.search_needs)


@router.post("/candidates", response_model=CandidatesOut)
async def candidates(body: PuzzleIn, request: Request) -> Response:
    """The candidates of every empty cell (pencil marks), and the conflicting givens."""
    return await workers_of(request).run(work.candidates, body, request.scope)


@router.post("/true-candidates", response_model=TrueCandidatesOut)
async def true_candidates(body: PuzzleIn, request: Request) -> Response:
    """The digits each cell holds in at least one solution (a setter's view: one digit a cell is unique), within
    a time limit of a second at most (``complete`` says whether every digit was decided)."""
    return await workers_of(request).run(work.truth, body, request.scope, needs=work.search_needs)


@router.post("/import", response_model=CandidatesOut)
async def import_link(body: LinkIn, request: Request) -> Response:
    """Read an f-puzzles or SudokuPad link into a grid, its rules and a Killer's cages (422 of kind ``link``
    when the link cannot be read, or this server reads no links)."""
    return await workers_of(request).run(work.read_link, body, request.scope)


@router.post("/link", response_model=LinkOut)
async def link(body: PuzzleIn, request: Request) -> Response:
    """The puzzle, its rules and a Killer's cages as an f-puzzles link (422 of kind ``link`` when this server
    writes no such links)."""
    return await workers_of(request).run(work.link_of, body, request.scope)


@router.post("/hint", response_model=HintOut)
async def hint(body: PuzzleIn, request: Request) -> Response:
    """The next step a person would take, with its cells, candidates and sentence."""
    return await workers_of(request).run(work.next_hint, body, request.scope, needs=work.logic_needs)


@router.post("/explain", response_model=ExplainOut)
async def explain(body: ExplainIn, request: Request) -> Response:
    """Every step of a human-style solve, in order, from the start state."""
    return await workers_of(request).run(work.explanation, body, request.scope, needs=work.logic_needs)


@router.post("/rate", response_model=RateOut)
async def rate(body: PuzzleIn, request: Request) -> Response:
    """How hard the puzzle is for a person: level, score and the hardest technique it needs."""
    return await workers_of(request).run(work.rating, body, request.scope, needs=work.logic_needs)


@router.post("/generate", response_model=GenerateOut)
async def generate(body: GenerateIn, request: Request) -> Response:
    """A new puzzle with exactly one solution: shape, difficulty, symmetry, minimality and seed."""
    return await workers_of(request).run(work.generation, body, request.scope, needs=work.generate_needs)


#: The body of ``/api/photo`` as the OpenAPI page shows it: an image's bytes, not JSON.
PHOTO_BODY = {"requestBody": {"required": True, "content": {
    kind: {"schema": {"type": "string", "format": "binary"}} for kind in ("image/jpeg", "image/png", "image/webp")}}}


@router.post("/photo", response_model=PhotoOut, openapi_extra=PHOTO_BODY,
             responses={413: {"model": ErrorOut}, 415: {"model": ErrorOut}, 501: {"model": ErrorOut}})
async def read_photo(request: Request) -> Response:
    """Read the Sudoku in a photo or a screenshot: the image's bytes as the body (JPEG, PNG, BMP, WebP or GIF, at
    most 8 MB and 25 megapixels; 413 or 422 ``too_large`` past them), the grid, each cell's confidence and the
    cells to check. An image without a readable grid is a 422 whose ``kind`` says why; the image is never kept."""
    size = photo.size_of(request)
    data = await photo.body_of(request)
    return await workers_of(request).run(partial(photo.reading, size=size), data, request.scope, needs=photo.needs)
