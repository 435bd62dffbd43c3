"""Admission control: a bounded number of requests in the app at once, a bounded line, 429 past it, the health
check never waiting, and a request waiting for a worker thread giving its place up."""

import gc
import threading
import time

import anyio
from fastapi.testclient import TestClient

from bitdoku.data import DEMO
from bitdoku.web import Limits, create_app
from bitdoku.web.admission import Admission, released


def scope(path):
    return {"type": "http", "path": path}


async def nothing():
    return {"type": "http.request", "body": b"", "more_body": False}


def test_requests_past_the_places_wait_past_the_line_get_429_and_health_never_waits():
    async def main():
        gate, inside, answers = anyio.Event(), [], []

        async def app(scope, receive, send):
            inside.append(scope["path"])
            if scope["path"] == "/slow":
                await gate.wait()

        admission = Admission(app, active=1, waiting=1)

        async def send(message):
            answers.append(message)

        async with anyio.create_task_group() as group:
            group.start_soon(admission, scope("/slow"), nothing, send)
            await anyio.wait_all_tasks_blocked()
            group.start_soon(admission, scope("/second"), nothing, send)  # waits in line
            await anyio.wait_all_tasks_blocked()
            await admission(scope("/third"), nothing, send)  # the line is full: 429 at once
            await admission(scope("/api/health"), nothing, send)  # never waits
            assert inside == ["/slow", "/api/health"]
            gate.set()
        assert inside == ["/slow", "/api/health", "/second"]
        start = answers[0]
        assert start["status"] == 429 and (b"retry-after", b"1") in start["headers"]
        assert b'"kind":"busy"' in answers[1]["body"]

    anyio.run(main)


def test_a_request_waiting_in_released_lets_another_in():
    async def main():
        gate, inside = anyio.Event(), []

        async def app(scope, receive, send):
            inside.append(scope["path"])
            if scope["path"] == "/thread":
                async with released(scope):
                    await gate.wait()

        admission = Admission(app, active=1, waiting=5)
        async with anyio.create_task_group() as group:
            group.start_soon(admission, scope("/thread"), nothing, None)
            await anyio.wait_all_tasks_blocked()
            with anyio.fail_after(5):
                await admission(scope("/quick"), nothing, None)  # in while /thread waits
            gate.set()
        assert inside == ["/thread", "/quick"] and admission.slots.value == 1  # its one place is free again

    anyio.run(main)


def test_with_one_place_a_long_request_on_a_thread_does_not_hold_up_a_quick_one():
    limits = Limits(workers=1, max_active=1, generate_seconds=5)
    with TestClient(create_app(limits, warm_up=False)) as client:
        assert client.post("/api/count", json={"puzzle": DEMO}).json()["status"] == "unique"  # compiled before
        replies = []
        slow = threading.Thread(target=lambda: replies.append(
            client.post("/api/generate", json={"shape": "2x2", "difficulty": "extreme"})))
        slow.start()
        time.sleep(0.3)
        assert client.post("/api/count", json={"puzzle": DEMO}).json()["status"] == "unique"
        assert slow.is_alive()  # the quick one was answered while the long one still holds its thread
        slow.join()
        assert replies[0].status_code == 422


def test_after_start_up_the_long_lived_objects_are_frozen_out_of_the_garbage_collector():
    """A full collection scanning Numba's and FastAPI's objects paused the server ~170 ms under load."""
    gc.unfreeze()
    with TestClient(create_app(warm_up=False)):
        assert gc.get_freeze_count() > 10 * len(gc.get_objects())
    gc.unfreeze()
