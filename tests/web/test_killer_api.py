"""Killer Sudoku through the JSON API: ``cages`` on every puzzle endpoint (cells by name, an optional sum), the live
verdict of unique, several and no solutions, errors of kind ``cages`` naming the cage at fault, the limits on
cages, the true candidates, links in and out, and the warm-up of the kernel of cages. The library is the oracle."""

import json

import pytest
from fastapi.testclient import TestClient

import bitdoku
from bitdoku.constraints.cages import Cage
from bitdoku.formats.killer import cage_records, cages_from_records
from bitdoku.geometry import Geometry
from bitdoku.grid import Grid
from bitdoku.solution_digits import true_candidates
from bitdoku.warmup import ready
from bitdoku.web import create_app
from bitdoku.web.readiness import Readiness
from bitdoku.web.schemas import MAX_CAGES
from tests.web.conftest import post

#: A krazydad 9x9 Killer (tests/logic/killer_samples.txt, its first line): cages and sums, no givens.
KILLER_9 = ("AABBCDDEEFGGHCIJJKFFLHMINKKOFLMMMNKPOQQRSTUUPVVRRSTTWWXVVYZaWWbXXXYZabbbccYYZaadd "
            "6,10,9,15,9,16,15,15,3,5,21,10,24,9,13,17,4,20,9,8,8,19,28,26,13,12,27,13,12,9")
#: A 4x4 Killer with one solution from four domino cages (without the first it has several).
CAGES_4 = (Cage((0, 1), 3), Cage((2, 6), 4), Cage((4, 8), 5), Cage((9, 10), 5))
EMPTY_4 = "." * 16


def records(cages: tuple[Cage, ...], n: int = 4) -> list[dict]:
    return cage_records(cages, n)


def killer(cages: tuple[Cage, ...], givens: str = EMPTY_4) -> Grid:
    grid = Grid.parse(givens)
    ordered = tuple(sorted(cages, key=lambda cage: cage.cells[0]))
    return Grid(grid.cells, grid.shape, Geometry(grid.shape, cages=ordered))


@pytest.mark.parametrize(("cages", "status"), [
    (CAGES_4, "unique"),
    (CAGES_4[1:], "multiple"),
    ((Cage((0, 1), 3), Cage((4, 5), 3)), "no-solution"),  # 1 and 2 twice in box 1
])
def test_the_verdict_of_a_killer_follows_its_cages(client, cages, status):
    assert bitdoku.search(killer(cages), limit=2).status.value == status
    answer = post(client, "count", puzzle=EMPTY_4, shape="2x2", variant="killer", cages=records(cages)).json()
    assert answer["status"] == status


def test_cages_alone_make_a_killer_and_solve_returns_a_solution_of_its_cages(client):
    answer = post(client, "solve", puzzle=EMPTY_4, cages=records(CAGES_4)).json()
    assert answer["status"] == "unique"
    assert answer["solution"] == bitdoku.solve(killer(CAGES_4)).to_line()


def test_a_9x9_killer_with_no_givens_is_unique_as_the_library_says(client):
    puzzle = Grid.parse(KILLER_9, variant="killer")
    body = {"puzzle": "." * 81, "variant": "killer", "cages": records(puzzle.cages, 9)}
    assert post(client, "count", **body).json()["status"] == bitdoku.search(puzzle, limit=2).status.value == "unique"
    solved = post(client, "solve", **body).json()
    assert solved["solution"] == bitdoku.solve(puzzle).to_line()
    edited = [dict(record) for record in body["cages"]]
    del edited[0]["sum"]  # a cage without a sum: its digits need only differ
    assert post(client, "count", **{**body, "cages": edited}).json()["status"] == bitdoku.search(
        killer_of(puzzle, edited), limit=2).status.value


def killer_of(puzzle: Grid, cage_list: list[dict]) -> Grid:
    """The puzzle's givens under the cages of a JSON list."""
    cages = cages_from_records(cage_list, puzzle.shape)
    return Grid(puzzle.cells, puzzle.shape, Geometry(puzzle.shape, cages=cages))


def test_a_killer_with_no_cages_yet_is_a_classic_grid(client):
    answer = post(client, "count", puzzle=EMPTY_4, variant="killer", cages=[]).json()
    assert answer["status"] == "multiple"


def test_a_killer_without_cages_is_read_from_its_own_text(client):
    line = killer(CAGES_4).to_killer_line()
    answer = post(client, "candidates", puzzle=line, variant="killer").json()
    assert answer["variant"] == "killer" and answer["cages"] == records(CAGES_4)
    assert post(client, "count", puzzle=line, variant="killer").json()["status"] == "unique"
    plain = post(client, "count", puzzle=EMPTY_4, variant="killer").json()["error"]
    assert plain["kind"] == "parse" and "MAP SUMS" in plain["message"]
    bad = post(client, "count", puzzle="AA" + "." * 14 + " 18", variant="killer").json()["error"]
    assert "cage A (r1c1, r1c2): no two different digits add up to 18" in bad["message"]


@pytest.mark.parametrize(("cages", "cage", "cells", "words"), [
    ((Cage((0, 1), 3), Cage((2, 3), 18)), 1, [2, 3], "cage B (r1c3, r1c4): no two different digits add up to 18"),
    ((Cage((0, 1), 3), Cage((1, 2), 5)), 1, [1, 2], "cage B (r1c2, r1c3): shares r1c2 with cage A"),
    ((Cage((0,), 7),), 0, [0], "cage A (r1c1): a one-cell cage holds a digit 1-4, not 7"),
    ((Cage((0, 1, 2, 3, 4), 15),), 0, [0, 1, 2, 3, 4], "5 cells, but a cage holds at most 4 different digits"),
])
def test_a_cage_no_digits_can_fill_is_422_naming_the_cage_and_its_cells(client, cages, cage, cells, words):
    response = post(client, "count", puzzle=EMPTY_4, variant="killer", cages=records(cages))
    error = response.json()["error"]
    assert response.status_code == 422 and error["kind"] == "cages"
    assert words in error["message"]
    assert error["message"].startswith(f"cage {'AB'[cage]} ")
    assert error["cells"] == cells and error["cell"] == cells[0]


def test_givens_that_break_a_cage_are_422_naming_the_cage(client):
    givens = "31" + "." * 14  # r1c1 = 3 and r1c2 = 1 in a cage of sum 3
    error = post(client, "count", puzzle=givens, cages=records(CAGES_4)).json()["error"]
    assert error["kind"] == "cages" and error["cells"] == [0, 1]
    assert error["message"] == "cage A (r1c1, r1c2): no digits complete its givens 3, 1 to 3"


@pytest.mark.parametrize("cage", [
    {"sum": 3, "cells": ["r1c1", "x"]},
    {"sum": 3, "cells": ["r1c1", "r5c1"]},
])
def test_a_bad_cell_name_in_a_cage_is_422_naming_the_cage(client, cage):
    error = post(client, "count", puzzle=EMPTY_4, cages=[cage]).json()["error"]
    assert error["kind"] == "cages" and error["message"].startswith("cage A: ")


@pytest.mark.parametrize("cages", [
    [{"sum": 0, "cells": ["r1c1"]}],  # sums are 1 and more
    [{"sum": 2081, "cells": ["r1c1"]}],  # more than 1 + 2 + ... + 64
    [{"sum": 3, "cells": []}],
    [{"sum": 3, "cells": ["r1c1"] * 65}],  # more cells than a cage of the biggest grid holds
    [{"sum": 3, "cells": ["r1c1"], "colour": "red"}],  # a field the API does not know
    [{"cells": ["r1c1"]}] * (MAX_CAGES + 1),  # a short body: the schema refuses it, not the body cap
])
def test_cages_past_the_limits_are_refused_by_the_schema(client, cages):
    response = post(client, "count", puzzle=EMPTY_4, cages=cages)
    assert response.status_code == 422


def test_cages_with_another_variant_or_a_region_map_are_a_variant_error(client):
    for rules in ({"variant": "x"}, {"variant": "killer+x"}, {"regions": "AABBAABBCCDDCCDD"}):
        error = post(client, "count", puzzle=EMPTY_4, cages=records(CAGES_4), **rules).json()["error"]
        assert error["kind"] == "variant" and "killer cages go on a classic grid" in error["message"]


@pytest.mark.parametrize(("shape", "difficulty"), [("2x2", None), ("3x3", "easy")])
def test_generate_makes_a_unique_killer_with_its_cages(client, shape, difficulty):
    made = post(client, "generate", shape=shape, variant="killer", difficulty=difficulty, seed=7).json()
    assert made["variant"] == "killer" and made["cages"] and made["clues"] == 0
    puzzle = Grid.parse(json.dumps({"shape": shape, "variant": "killer", "cages": made["cages"]}))
    assert bitdoku.search(puzzle, limit=2).status.value == "unique"
    assert bitdoku.solve(puzzle).to_line() == made["solution"]
    again = post(client, "generate", shape=shape, variant="killer", difficulty=difficulty, seed=7).json()
    assert again["cages"] == made["cages"]  # the same seed, the same puzzle


def test_generate_refuses_symmetry_for_a_killer(client):
    error = post(client, "generate", variant="killer", symmetry="rotational").json()["error"]
    assert error["kind"] == "bad_request" and "a Killer takes difficulty" in error["message"]


def test_true_candidates_are_the_digits_of_some_solution(client):
    for cages in (CAGES_4, CAGES_4[1:]):
        answer = post(client, "true-candidates", puzzle=EMPTY_4, cages=records(cages)).json()
        expected = true_candidates(killer(cages))
        assert answer["candidates"] == [expected.digits(cell) for cell in range(16)]
        assert answer["complete"] is True and answer["undecided"] == 0
    classic = post(client, "true-candidates", puzzle="1..." "...." "...." "...4").json()
    assert classic["candidates"][1] == [2, 3, 4] and classic["candidates"][15] == [4]


def test_true_candidates_of_a_9x9_killer(client):
    puzzle = Grid.parse(KILLER_9, variant="killer")
    answer = post(client, "true-candidates", puzzle="." * 81, cages=records(puzzle.cages, 9)).json()
    solution = bitdoku.solve(puzzle).cells
    assert answer["complete"] is True
    assert answer["candidates"] == [[digit] for digit in solution]


def test_true_candidates_of_no_solution_are_empty_and_of_a_broken_grid_422(client):
    answer = post(client, "true-candidates", puzzle=EMPTY_4, cages=records((Cage((0, 1), 3), Cage((4, 5), 3))))
    assert answer.json()["candidates"] == [[]] * 16
    broken = post(client, "true-candidates", puzzle="11" + "." * 14)
    assert broken.status_code == 422 and broken.json()["error"]["kind"] == "invalid"


def test_candidates_of_pasted_killer_json_bring_its_cages(client):
    puzzle = killer(CAGES_4)
    answer = post(client, "candidates", puzzle=puzzle.to_json()).json()
    assert answer["variant"] == "killer" and answer["cages"] == records(puzzle.cages)
    assert answer["candidates"] == [puzzle.candidates(cell) for cell in range(16)]
    assert post(client, "candidates", puzzle=EMPTY_4).json()["cages"] is None


def test_a_link_written_by_the_server_reads_back_to_the_same_killer(client):
    written = post(client, "link", puzzle=EMPTY_4, cages=records(CAGES_4))
    link = written.json()["link"]
    assert link.startswith("https://f-puzzles.com/?load=")
    read = post(client, "import", link=link).json()
    assert read["shape"] == "2x2" and read["variant"] == "killer" and read["values"] == EMPTY_4
    assert read["cages"] == records(CAGES_4)
    windoku = post(client, "link", puzzle="." * 81, variant="windoku")  # a rule f-puzzles has not
    assert windoku.status_code == 422 and windoku.json()["error"]["kind"] == "link"


@pytest.mark.parametrize("link", ["https://f-puzzles.com/?load=garbage", "https://example.com/", "hello"])
def test_a_link_that_cannot_be_read_is_a_422_of_kind_link(client, link):
    response = post(client, "import", link=link)
    assert response.status_code == 422 and response.json()["error"]["kind"] == "link"
    assert response.json()["error"]["message"]


def test_a_link_with_setters_constraints_is_refused_by_name_not_shown_without_them(client):
    from bitdoku import Constraint, Geometry, Grid, Shape

    shape = Shape(2, 2)
    thermo = Grid(bytes(16), shape, Geometry(shape, constraints=(Constraint("thermometer", (0, 4, 8)),)))
    response = post(client, "import", link=thermo.to_fpuzzles())
    assert response.status_code == 422 and response.json()["error"]["kind"] == "link"
    assert "this puzzle uses thermometer: the page cannot show" in response.json()["error"]["message"]


def test_an_empty_or_huge_link_is_refused_by_the_schema(client):
    assert post(client, "import", link="").status_code == 422
    assert post(client, "import", link="x" * 20_000).status_code == 422


def test_health_says_whether_killer_is_ready(client):
    assert client.get("/api/health").json()["ready"]["killer"] is True


def test_a_killer_waits_for_the_kernel_of_cages_while_it_compiles(monkeypatch, tmp_path):
    monkeypatch.setattr(ready, "folder", lambda: tmp_path)
    monkeypatch.setattr("bitdoku.web.readiness.folder", lambda: tmp_path)
    monkeypatch.setattr(Readiness, "start", lambda self, **options: None)
    with TestClient(create_app()) as cold:
        ready.mark_ready("engine of the other shapes", tmp_path)
        body = {"puzzle": EMPTY_4, "cages": records(CAGES_4)}
        answer = cold.post("/api/count", json=body)
        assert answer.status_code == 503
        assert answer.json()["error"]["message"] == "preparing Killer Sudoku, a few seconds"
        assert cold.post("/api/count", json={"puzzle": EMPTY_4}).status_code == 200  # a classic grid does not wait
        assert cold.get("/api/health").json()["ready"]["killer"] is False
        ready.mark_ready("Killer cages", tmp_path)
        assert cold.post("/api/count", json=body).json()["status"] == "unique"
        assert cold.post("/api/true-candidates", json=body).status_code == 200
