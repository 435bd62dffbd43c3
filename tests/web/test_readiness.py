"""A server on a cold cache answers at once: a request whose kernels are still compiling gets 503 with
Retry-After and says what is being prepared, ``/api/health`` says what is ready, and a unit whose compile failed
is not waited for."""

import pytest
from fastapi.testclient import TestClient

from bitdoku.data import DEMO
from bitdoku.warmup import ready
from bitdoku.warmup.units import LOGIC
from bitdoku.web import create_app
from bitdoku.web.readiness import Readiness


@pytest.fixture
def cold(monkeypatch, tmp_path):
    """An app whose warm-up does nothing but look at markers in an empty folder: every unit is still compiling
    until the test marks it."""
    monkeypatch.setattr(ready, "folder", lambda: tmp_path)
    monkeypatch.setattr("bitdoku.web.readiness.folder", lambda: tmp_path)
    monkeypatch.setattr(Readiness, "start", lambda self, **options: None)
    with TestClient(create_app()) as client:
        yield client, tmp_path


def test_a_request_whose_kernel_is_still_compiling_gets_503_with_retry_after(cold):
    client, markers = cold
    answer = client.post("/api/count", json={"puzzle": DEMO})
    assert answer.status_code == 503 and answer.headers["retry-after"] == "2"
    assert answer.json()["error"] == {**answer.json()["error"], "kind": "warming_up",
                                      "message": "preparing the live verdict, a few seconds"}
    assert client.get("/api/health").json()["ready"] == {"verdict": False, "hints": False, "generate": False,
                                                          "variants": False, "killer": False}
    ready.mark_ready("9x9 engine", markers)
    assert client.post("/api/count", json={"puzzle": DEMO}).json()["status"] == "unique"
    hint = client.post("/api/hint", json={"puzzle": DEMO})  # the engine is ready, the logic is not
    assert hint.status_code == 503 and "preparing hints, explanations and ratings" in hint.json()["error"]["message"]
    small = client.post("/api/count", json={"puzzle": "..3..4.221......"})  # another shape: its own engine
    assert small.status_code == 503


def test_health_and_requests_that_need_nothing_compiled_answer_at_once(cold):
    client, _ = cold
    assert client.get("/api/health").status_code == 200
    assert client.get("/").status_code == 200
    assert client.post("/api/candidates", json={"puzzle": DEMO}).status_code == 200
    assert client.post("/api/count", json={"puzzle": "x"}).status_code == 422  # a bad grid: its own error


def test_a_unit_whose_compile_failed_is_not_waited_for(cold):
    client, markers = cold
    ready.mark_ready("9x9 engine", markers)
    for unit in LOGIC:
        ready.mark_failed(unit, where=markers)
    assert client.post("/api/hint", json={"puzzle": DEMO}).status_code == 200  # compiles on first use
    assert client.get("/api/health").json()["ready"]["hints"] is True
