"""Hostile requests: bodies that cannot be decoded, unknown fields, wrong types, pathological grids and slow
clients. Each gets a 4xx whose body names the problem (or a 200 that says the budget ran out), never a 5xx or a
hang. The slow clients talk raw HTTP over sockets to a real uvicorn on 127.0.0.1, with bounded loops.
(Oversized bodies with and without a length, malformed JSON and the 429 of a full queue: ``test_api.py``.)"""

import socket
import threading
import time

import httpx
import pytest
from fastapi.testclient import TestClient

from bitdoku.web import Limits, create_app
from tests.web.conftest import serving

SMALL = "..3..4.221......"


@pytest.fixture(scope="module")
def client():
    with TestClient(create_app(warm_up=False), raise_server_exceptions=False) as client:
        yield client


def error_of(reply, status=422):
    assert reply.status_code == status, reply.text
    return reply.json()["error"]


def raw(client, path, body: bytes):
    return client.post(path, content=body, headers={"content-type": "application/json"})


# -- bodies that are not the JSON object a request needs ----------------------------------------------------

def test_a_body_that_cannot_be_decoded_says_why(client):
    deep = error_of(raw(client, "/api/solve", b"[" * 30_000 + b"]" * 30_000), 400)
    assert deep["kind"] == "bad_request" and "nests too deeply" in deep["message"]
    binary = error_of(raw(client, "/api/solve", b'{"puzzle": "\xff\xfe"}'), 400)
    assert "not text in utf-8" in binary["message"] and "byte 12" in binary["message"]
    malformed = error_of(raw(client, "/api/solve", b'{"puzzle": "..3'))
    assert malformed["message"] == "the body is not valid JSON: unterminated string starting at character 11"
    assert "control character at character 12" in error_of(raw(client, "/api/count", b'{"puzzle": "\x00"}'))[
        "message"]
    assert error_of(raw(client, "/api/count", b""))["message"] == "the request has no body: send a JSON object"


def test_json_that_is_not_an_object_of_the_right_fields_is_named(client):
    assert "valid dictionary" in error_of(raw(client, "/api/count", b"[1, 2]"))["message"]
    assert "valid dictionary" in error_of(raw(client, "/api/count", b'"..3..4.221......"'))["message"]
    huge = b'{"puzzle": [' + b"0," * 30_000 + b"0]}"  # a 60 KB array: under the body limit, still refused
    assert error_of(raw(client, "/api/count", huge))["message"] == "puzzle: Input should be a valid string"
    nested = b'{"puzzle": ' + b"[" * 900 + b"]" * 900 + b"}"
    assert error_of(raw(client, "/api/count", nested))["message"].startswith("puzzle: ")


def test_an_unknown_field_is_named_instead_of_ignored(client):
    assert error_of(client.post("/api/count", json={"puzzle": SMALL, "shap": "2x2"}))["message"] == (
        "shap: Extra inputs are not permitted")
    assert error_of(client.post("/api/generate", json={"seeds": 3}))["message"].startswith("seeds: ")


@pytest.mark.parametrize(("path", "body", "field"), [
    ("count", {"puzzle": SMALL, "limit": "two"}, "limit"),
    ("count", {"puzzle": SMALL, "limit": 2.5}, "limit"),
    ("count", {"puzzle": SMALL, "limit": 10**30}, "limit"),
    ("count", {"puzzle": None}, "puzzle"),
    ("solve", {"puzzle": SMALL, "shape": ["2x2"]}, "shape"),
    ("solve", {"puzzle": SMALL, "variant": "x; drop"}, "variant"),
    ("explain", {"puzzle": SMALL, "guess": "maybe"}, "guess"),
    ("generate", {"seed": 2**70}, "seed"),
    ("generate", {"seed": -1}, "seed"),
    ("generate", {"minimal": {"a": 1}}, "minimal"),
    ("solve", {"puzzle": "." * 20_001}, "puzzle"),
])
def test_a_wrong_type_or_range_names_its_field(client, path, body, field):
    error = error_of(client.post(f"/api/{path}", json=body))
    assert error["kind"] == "bad_request" and error["message"].startswith(f"{field}: ")


def test_no_such_path_or_method_is_an_error_in_the_api_shape(client):
    assert error_of(client.get("/api/nothing"), 404) == {
        "kind": "not_found", "message": "no such page: /api/nothing", "cell": None, "name": None, "cells": [],
        "line": None, "column": None}
    assert error_of(client.delete("/api/solve"), 405)["message"] == "/api/solve does not take DELETE"
    assert error_of(client.get("/static/../app.py"), 404)["kind"] == "not_found"


# -- pathological grids: the server's default budgets end them --------------------------------------------

def test_near_empty_and_oversized_grids_end_within_the_budgets(client):
    near_empty = "1" + "." * 624
    start = time.perf_counter()
    counted = client.post("/api/count", json={"puzzle": near_empty, "shape": "5x5", "limit": 1000})
    assert counted.status_code == 200 and counted.json()["status"] == "limit"
    assert counted.json()["reason"]  # the budget that ran out, in words
    assert time.perf_counter() - start < 10
    solved = client.post("/api/solve", json={"puzzle": near_empty, "shape": "5x5"})
    assert solved.status_code == 200 and solved.json()["status"] in ("multiple", "limit")
    for shape, cells in (("8x8", 4096), ("6x6", 1296)):
        error = error_of(client.post("/api/count", json={"puzzle": "." * cells, "shape": shape}))
        assert error["kind"] == "too_large" and "up to 25x25" in error["message"]
    assert error_of(client.post("/api/count", json={"puzzle": "." * 4096}))["kind"] == "too_large"
    assert time.perf_counter() - start < 30


def test_human_style_answers_on_a_near_empty_25x25_grid_end_at_the_time_budget():
    """These took 14 s (hint), 16 s (explain, with a 3 s budget), 67 s (rate) and 178 s (generate, 10 s budget):
    one step of the techniques on such a grid takes seconds, and nothing looked at the clock inside it."""
    with TestClient(create_app(Limits(explain_seconds=0.3, generate_seconds=0.5), warm_up=False)) as client:
        near_empty = {"puzzle": "1" + "." * 624, "shape": "5x5"}
        for path in ("hint", "explain", "rate"):
            start = time.perf_counter()
            reply = client.post(f"/api/{path}", json=near_empty)
            if path == "explain":
                assert reply.status_code == 200 and reply.json()["truncated"]
            else:
                assert error_of(reply)["message"] == "human-style solving stopped at its time budget of 0.3 s"
            assert time.perf_counter() - start < 3, path
        start = time.perf_counter()
        made = client.post("/api/generate", json={"shape": "5x5", "minimal": True, "difficulty": "extreme"})
        assert error_of(made)["kind"] == "limit" and time.perf_counter() - start < 6


# -- slow clients, over real sockets ------------------------------------------------------------------------

@pytest.fixture(scope="module")
def live():
    with serving(create_app(Limits(body_seconds=1.0), warm_up=False)) as url:
        yield url


def connect(url):
    host, port = url.removeprefix("http://").split(":")
    return socket.create_connection((host, int(port)), timeout=10)


def answer_of(sock) -> bytes:
    """What the server sends back, until it closes or 10 s pass."""
    received = b""
    sock.settimeout(10)
    while b"\r\n\r\n" not in received or not received.endswith(b"}"):
        chunk = sock.recv(65536)
        if not chunk:
            break
        received += chunk
    return received


def health_seconds(url) -> float:
    start = time.perf_counter()
    assert httpx.get(f"{url}/api/health", timeout=10).status_code == 200
    return time.perf_counter() - start


def test_a_body_sent_a_byte_at_a_time_is_cut_off_with_408_while_others_are_answered(live):
    for framing in (b"content-length: 200\r\n", b"transfer-encoding: chunked\r\n"):
        with connect(live) as sock:
            sock.sendall(b"POST /api/count HTTP/1.1\r\nhost: x\r\n" + framing + b"\r\n")
            start = time.perf_counter()
            for byte in b'{"puzzle": "....':  # bounded: 16 bytes, 0.1 s apart, longer than the 1 s allowed
                try:
                    sock.sendall(b"1\r\n" + bytes([byte]) + b"\r\n" if b"chunked" in framing else bytes([byte]))
                except OSError:  # the server has answered and closed: the point of the test
                    break
                assert health_seconds(live) < 2
                time.sleep(0.1)
            reply = answer_of(sock)
        assert reply.startswith(b"HTTP/1.1 408 "), reply[:200]
        assert b'"kind":"timeout"' in reply and b"did not arrive within 1 s" in reply
        assert time.perf_counter() - start < 5


def test_a_declared_huge_body_is_refused_before_any_of_it_arrives(live):
    with connect(live) as sock:
        sock.sendall(b"POST /api/solve HTTP/1.1\r\nhost: x\r\ncontent-type: application/json\r\n"
                     b"content-length: 1000000000000\r\n\r\n")
        reply = answer_of(sock)
    assert reply.startswith(b"HTTP/1.1 413 ") and b'"kind":"too_large"' in reply


def test_many_slow_header_senders_do_not_stop_the_server_answering_others(live):
    """A slowloris: 100 connections, each sending its request line and headers a few bytes at a time (bounded:
    20 rounds), while the health endpoint and a solve keep answering."""
    socks = [connect(live) for _ in range(100)]
    request = b"POST /api/count HTTP/1.1\r\nhost: x\r\ncontent-type: application/json\r\nx-padding: " + b"a" * 60
    try:
        slowest = 0.0
        for round_ in range(20):
            piece = request[round_ * 5:(round_ + 1) * 5]
            for sock in socks:
                sock.sendall(piece)
            slowest = max(slowest, health_seconds(live))
            solved = httpx.post(f"{live}/api/solve", json={"puzzle": SMALL}, timeout=10)
            assert solved.status_code == 200 and solved.json()["solution"] == "1234341221434321"
            time.sleep(0.05)
        assert slowest < 2
    finally:
        for sock in socks:
            sock.close()


def test_idle_connections_and_half_sent_requests_leave_the_others_answered(live):
    idle = [connect(live) for _ in range(50)]
    stop = threading.Event()

    def hammer():  # a client that opens, sends half a request and drops the connection, again and again
        for _ in range(200):
            if stop.is_set():
                return
            with connect(live) as sock:
                sock.sendall(b'POST /api/solve HTTP/1.1\r\nhost: x\r\ncontent-length: 50\r\n\r\n{"puz')

    thread = threading.Thread(target=hammer)
    thread.start()
    try:
        assert max(health_seconds(live) for _ in range(20)) < 2
    finally:
        stop.set()
        thread.join(timeout=30)
        for sock in idle:
            sock.close()
    assert health_seconds(live) < 2


def test_the_search_behind_a_guess_has_a_budget_worth_the_explain_seconds_on_the_variant_kernel_too():
    """hint, explain and rate guess from a solution found in one kernel call, which their time budget cannot
    stop: its node budget is worth ``explain_seconds``, on a variant's slower nodes too."""
    from bitdoku import Grid
    from bitdoku.engines.result import default_max_nodes
    from bitdoku.web.limits import Limits

    limits = Limits()
    classic, variant = Grid.parse("." * 81), Grid.parse("." * 81, variant="x")
    assert limits.guess_nodes(classic) < default_max_nodes(classic.shape)
    assert limits.guess_nodes(variant) < limits.guess_nodes(classic) / 10
