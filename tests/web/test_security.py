"""The headers a browser needs to keep the page safe, on every kind of answer, and no CORS by default."""

import pytest
from fastapi.testclient import TestClient

from bitdoku.web import Limits, create_app
from bitdoku.web.security import docs_policy

SMALL = "..3..4.221......"


@pytest.fixture(scope="module")
def client():
    with TestClient(create_app(Limits(max_body_bytes=1000), warm_up=False)) as client:
        yield client


def answers(client):
    """One answer of each kind: the page, a static file, JSON, a 422, a 413, a 404, a 405, the OpenAPI document."""
    yield "page", client.get("/")
    yield "static", client.get("/static/app.js")
    yield "json", client.post("/api/count", json={"puzzle": SMALL})
    yield "422", client.post("/api/count", json={"puzzle": "x" * 16})
    yield "413", client.post("/api/count", json={"puzzle": "." * 2000})
    yield "404", client.get("/nothing")
    yield "405", client.get("/api/count")
    yield "openapi", client.get("/openapi.json")


def directives(policy):
    return {part.split()[0]: part.split()[1:] for part in policy.split(";") if part.strip()}


def test_every_answer_carries_a_policy_without_inline_script_and_the_other_headers(client):
    for name, reply in answers(client):
        policy = directives(reply.headers["content-security-policy"])
        assert policy["script-src"] == ["'self'"] and policy["frame-ancestors"] == ["'none'"], name
        assert policy["object-src"] == ["'none'"] and "'unsafe-inline'" not in policy["style-src"], name
        assert reply.headers["x-content-type-options"] == "nosniff", name
        assert reply.headers["x-frame-options"] == "DENY" and reply.headers["referrer-policy"] == "no-referrer", name


def test_no_cors_header_for_another_origin_not_even_on_a_preflight(client):
    origin = {"origin": "https://elsewhere.example"}
    reply = client.post("/api/count", json={"puzzle": SMALL}, headers=origin)
    assert reply.status_code == 200 and not any(name.startswith("access-control-") for name in reply.headers)
    preflight = client.options("/api/count", headers={**origin, "access-control-request-method": "POST"})
    assert preflight.status_code == 405 and "access-control-allow-origin" not in preflight.headers


def test_the_page_has_no_inline_script_or_style_that_its_policy_would_block(client):
    page = client.get("/").text.lower()
    assert "<script>" not in page and "<style" not in page and " on" + "load=" not in page and "style=" not in page
    assert '<script type="module" src="/static/app.js">' in page


def test_the_api_documentation_allows_its_own_inline_script_by_hash_only(client):
    for path in ("/docs", "/redoc"):
        reply = client.get(path)
        policy = directives(reply.headers["content-security-policy"])
        assert reply.status_code == 200 and "'unsafe-inline'" not in reply.headers["content-security-policy"], path
        assert policy["frame-ancestors"] == ["'none'"] and reply.headers["x-content-type-options"] == "nosniff"
    assert any(source.startswith("'sha256-") for source in directives(client.get("/docs").headers[
        "content-security-policy"])["script-src"])


def test_the_docs_policy_hashes_exactly_the_inline_scripts_and_styles():
    policy = directives(docs_policy("<script>go()</script><script src='x.js'></script><style>b{}</style>"))
    # sha256("go()") and sha256("b{}"), base64: from openssl dgst -sha256 -binary | base64
    assert [s for s in policy["script-src"] if s.startswith("'sha256")] == [
        "'sha256-5KYv+PUboo5h+0+YAtGRPbwv5d/QxzHslP4YGnUaxRw='"]
    assert [s for s in policy["style-src"] if s.startswith("'sha256")] == [
        "'sha256-7yqHVAesot11p6HczDsgKRipvI5UPgs97z80zNXlans='"]
