"""The JSON API through FastAPI's TestClient: every endpoint, every kind of error, and the limits."""

import threading
import time

from fastapi.testclient import TestClient

import bitdoku
from bitdoku.data import DEMO, DEMO_SOLUTION, sample_lines
from bitdoku.web import Limits, create_app
from tests.web.conftest import post

SMALL = "..3..4.221......"
SMALL_SOLUTION = "1234341221434321"


def test_health_names_the_version_shapes_and_limits(client):
    body = client.get("/api/health").json()
    assert body["status"] == "ok" and body["version"] == bitdoku.__version__
    assert body["shapes"] == ["2x2", "2x3", "3x3", "3x4", "4x4", "5x5"] and body["limits"]["max_digits"] == 25


def test_count_gives_the_live_verdict(client):
    assert post(client, "count", puzzle=DEMO).json()["status"] == "unique"
    several = post(client, "count", puzzle="1" + "." * 80).json()
    assert several["status"] == "multiple" and several["count"] == 2
    assert post(client, "count", puzzle=sample_lines("nosolution_sample.txt")[0]).json()["status"] == "no-solution"
    invalid = post(client, "count", puzzle="55" + "." * 79).json()
    assert invalid["status"] == "invalid" and invalid["conflicts"][0]["cells"] == [0, 1]
    assert invalid["conflicts"][0]["names"] == ["r1c1", "r1c2"] and "twice" in invalid["reason"]
    assert post(client, "count", puzzle="." * 16, limit=1000).json()["count"] == 288


def test_solve_returns_the_solution_and_statistics(client):
    body = post(client, "solve", puzzle=DEMO).json()
    assert body["solution"] == DEMO_SOLUTION and body["status"] == "unique"
    assert body["nodes"] > 1 and body["guesses"] > 0 and body["seconds"] > 0
    assert post(client, "solve", puzzle="1" + "." * 80).json()["status"] == "multiple"
    six = sample_lines("unique16x16_sample.txt")[0]
    assert post(client, "solve", puzzle=six, shape="4x4").json()["solution"] == bitdoku.solve(six).to_line()


def test_the_shape_keeps_6x6_grids_apart(client):
    puzzle = bitdoku.generate("3x2", seed=1).to_line()
    body = post(client, "solve", puzzle=puzzle, shape="3x2").json()
    assert bitdoku.Grid.parse(body["solution"], shape="3x2").is_solution_of(bitdoku.Grid.parse(puzzle, shape="3x2"))


def test_candidates_are_the_pencil_marks_of_the_givens(client):
    body = post(client, "candidates", puzzle=SMALL).json()
    grid = bitdoku.Grid.parse(SMALL)
    assert body["candidates"] == [grid.candidates(cell) for cell in range(16)]
    assert body["shape"] == "2x2" and body["conflicts"] == []


def test_hint_names_the_step_its_cells_and_its_sentence(client):
    step = post(client, "hint", puzzle=SMALL).json()["step"]
    assert step["technique"] == "Hidden Single" and step["placements"] == [{"cell": 1, "name": "r1c2", "digit": 2}]
    assert step["cells"] == [1] and "r1c2 = 2" in step["text"]
    assert post(client, "hint", puzzle=SMALL_SOLUTION).json() == {"step": None, "solved": True}


def test_explain_replays_from_its_start_to_the_solution(client):
    puzzle = sample_lines("top1465_sample.txt")[0]
    body = post(client, "explain", puzzle=puzzle).json()
    assert body["solved"] and not body["truncated"]
    values = list(body["start"]["values"])
    for step in body["steps"]:
        for change in step["placements"]:
            values[change["cell"]] = str(change["digit"])
    assert "".join(values) == bitdoku.solve(puzzle).to_line()
    several = sample_lines("multisolution_sample.txt")[0]  # logic cannot finish a grid with several solutions
    stalled = post(client, "explain", puzzle=several, guess=False).json()
    assert stalled["steps"][-1]["technique"] == "Stalled" and not stalled["solved"]
    guessed = post(client, "explain", puzzle=several, guess=True).json()
    assert any(step["technique"] == "Guess" for step in guessed["steps"])


def test_rate_gives_level_score_and_counts(client):
    body = post(client, "rate", puzzle=SMALL).json()
    assert body == {"score": 1.2, "level": "easy", "hardest": "Hidden Single (box)",
                    "counts": {"Full House": 8, "Hidden Single (box)": 3}, "steps": 11}


def test_generate_makes_a_unique_puzzle_to_order_and_repeats_a_seed(client):
    body = post(client, "generate", shape="3x3", difficulty="medium", symmetry="rotational", seed=7).json()
    puzzle = bitdoku.Grid.parse(body["puzzle"])
    assert bitdoku.is_unique(puzzle) and body["level"] == "medium" == bitdoku.rate(puzzle).level
    assert bitdoku.generate.has_symmetry(puzzle, "rotational") and body["seed"] == 7
    again = post(client, "generate", shape="3x3", difficulty="medium", symmetry="rotational", seed=7).json()
    assert again["puzzle"] == body["puzzle"] and again["solution"] == body["solution"]
    fresh = post(client, "generate", shape="2x3").json()
    assert fresh["seed"] > 0 and bitdoku.is_unique(fresh["puzzle"], shape="2x3")
    assert post(client, "generate", shape="2x2", seed=fresh["seed"]).json()["shape"] == "2x2"


# -- errors ---------------------------------------------------------------------------------------------

def error_of(response, status=422):
    assert response.status_code == status, response.text
    return response.json()["error"]


def test_a_bad_character_names_its_cell(client):
    error = error_of(post(client, "solve", puzzle="1.3x" + "." * 12, shape="2x2"))
    assert error["kind"] == "parse" and error["cell"] == 3 and error["name"] == "r1c4" and error["cells"] == [3]
    assert "unexpected character 'x'" in error["message"]
    assert error_of(post(client, "count", puzzle="1.3x" + "." * 77))["cell"] == 3  # shape inferred from the length


def test_a_wrong_size_or_shape_is_a_shape_error(client):
    assert error_of(post(client, "count", puzzle="." * 80))["kind"] == "shape"
    assert error_of(post(client, "count", puzzle=SMALL, shape="3x3"))["kind"] in ("shape", "parse")
    assert error_of(post(client, "generate", shape="1x9"))["kind"] == "shape"


def test_clashing_givens_name_both_cells_where_an_answer_needs_a_valid_grid(client):
    for path in ("hint", "explain", "rate"):
        error = error_of(post(client, path, puzzle="11" + "." * 79))
        assert error["kind"] == "invalid" and error["cells"] == [0, 1] and error["name"] == "r1c1"


def test_bad_requests_say_which_field(client):
    assert "puzzle" in error_of(post(client, "count", puzzle=3))["message"]
    assert "limit" in error_of(post(client, "count", puzzle=SMALL, limit=0))["message"]
    assert error_of(client.post("/api/count", content=b"{not json", headers={"content-type": "application/json"}))[
        "kind"] == "bad_request"
    assert error_of(post(client, "generate", symmetry="spiral"))["kind"] == "bad_request"
    assert error_of(post(client, "generate", difficulty="impossible"))["kind"] == "bad_request"


def test_bodies_and_grids_over_the_limits_are_refused():
    with TestClient(create_app(Limits(max_body_bytes=1000, max_digits=9), warm_up=False)) as client:
        error = error_of(client.post("/api/count", json={"puzzle": "." * 2000}), 413)
        assert error["kind"] == "too_large"
        streamed = client.post("/api/count", content=iter([b'{"puzzle": "', b"." * 2000, b'"}']),
                               headers={"content-type": "application/json"})
        assert error_of(streamed, 413)["kind"] == "too_large"
        assert error_of(post(client, "count", puzzle="." * 256, shape="4x4"))["kind"] == "too_large"
        assert error_of(post(client, "generate", shape="4x4"))["kind"] == "too_large"


def test_every_budget_ends_a_request_quickly():
    limits = Limits(verdict_seconds=0.001, explain_seconds=0.05, generate_seconds=0.2)
    with TestClient(create_app(limits, warm_up=False)) as client:
        start = time.perf_counter()
        hard = sample_lines("unique25x25_sample.txt")[-1]
        assert post(client, "count", puzzle="1" + "." * 624, shape="5x5", limit=1000).json()["status"] == "limit"
        assert post(client, "count", puzzle=hard, shape="5x5").json()["status"] in ("limit", "unique")
        assert post(client, "explain", puzzle=hard, shape="5x5").json()["truncated"]
        assert error_of(post(client, "rate", puzzle=hard, shape="5x5"))["kind"] == "limit"
        assert error_of(post(client, "generate", shape="2x2", difficulty="extreme"))["kind"] == "limit"
        assert time.perf_counter() - start < 20


def test_a_search_request_ends_at_its_seconds_even_when_its_node_budget_is_far_away(monkeypatch):
    # A loaded machine makes nodes dearer than the node budget assumes: the seconds must hold on their own.
    # With 0 seconds a search stops at its first branch, which both grids need.
    monkeypatch.setattr(Limits, "nodes", lambda self, shape, seconds, classic=True: 10**12)
    limits = Limits(verdict_seconds=0, solve_seconds=0, inline_seconds=0)
    with TestClient(create_app(limits, warm_up=False)) as client:
        counted = post(client, "count", puzzle="." * 81, limit=1000).json()
        solved = post(client, "solve", puzzle="1" + "." * 255, shape="4x4").json()
    for answer in (counted, solved):
        assert answer["status"] == "limit" and answer["reason"].startswith("time limit of 0 s reached after ")


def test_past_max_pending_the_server_says_busy_at_once():
    with TestClient(create_app(Limits(max_pending=0), warm_up=False)) as client:
        busy = post(client, "hint", puzzle=SMALL)
        assert error_of(busy, 429)["kind"] == "busy" and busy.headers["retry-after"] == "1"
        assert post(client, "count", puzzle=SMALL).json()["status"] == "unique"  # answered on the event loop
        assert client.get("/api/health").status_code == 200


def test_a_long_request_does_not_hold_up_the_others():
    with TestClient(create_app(Limits(workers=2, generate_seconds=1.5), warm_up=False)) as client:
        hopeless = {"shape": "2x2", "difficulty": "extreme"}  # runs until its 1.5 s budget is spent
        replies = []
        slow = threading.Thread(target=lambda: replies.append(post(client, "generate", **hopeless)))
        slow.start()
        time.sleep(0.3)
        start = time.perf_counter()
        assert post(client, "count", puzzle=DEMO).json()["status"] == "unique"
        assert client.get("/api/health").status_code == 200
        assert time.perf_counter() - start < 0.5 and slow.is_alive()
        slow.join()
        assert error_of(replies[0])["kind"] == "limit"


def test_the_page_and_the_openapi_document_are_served(client):
    page = client.get("/")
    assert page.status_code == 200 and page.text.lower().startswith("<!doctype html") and "bitdoku" in page.text
    paths = client.get("/openapi.json").json()["paths"]
    assert {f"/api/{name}" for name in ("solve", "count", "candidates", "hint", "explain", "rate", "generate",
                                        "health")} <= set(paths)


def test_answers_are_the_same_on_the_event_loop_and_on_worker_threads(client):
    lines = [DEMO, "1" + "." * 80, "55" + "." * 79, *sample_lines("17clue_sample.txt")[:5], SMALL]
    with TestClient(create_app(Limits(inline_seconds=0), warm_up=False)) as threaded:
        for line in lines:
            for path in ("count", "solve"):
                quick, slow = post(client, path, puzzle=line).json(), post(threaded, path, puzzle=line).json()
                quick.pop("seconds"), slow.pop("seconds")
                assert quick == slow
