"""Variants through the JSON API: ``variant`` and ``regions`` on every puzzle endpoint, checked by pydantic and by
the library, with errors that name the cell where a region map goes wrong. The library is the oracle."""

import pytest

import bitdoku
from bitdoku.grid import Grid
from tests.web.conftest import post

X_4 = ".1............43"
JIGSAW_MAP_4 = "AABB" "AABC" "CDBC" "DDDC"
JIGSAW_4 = ".1........3....2"
JIGSAW_MAP_9 = "AAABBBCCCAABBBCCCAABBBCCCAADDDEEEFFFDDEEEFFFD" "DEEEFFFDDGGGHHHIIIGGHHHIIIGGHHHIIIGG"


def test_solve_under_a_variant_returns_a_solution_of_that_variant(client):
    answer = post(client, "solve", puzzle=X_4, variant="x").json()
    puzzle = Grid.parse(X_4, variant="x")
    assert answer["status"] == bitdoku.search(puzzle).status.value
    assert Grid.parse(answer["solution"], variant="x").is_solution_of(puzzle)
    classic = post(client, "count", puzzle=X_4).json()  # without the diagonals the givens allow more grids
    assert classic["count"] > post(client, "count", puzzle=X_4, variant="x").json()["count"]


@pytest.mark.parametrize("variant", [None, "jigsaw"])
def test_a_jigsaw_takes_its_region_map(client, variant):
    answer = post(client, "solve", puzzle=JIGSAW_4, variant=variant, regions=JIGSAW_MAP_4).json()
    puzzle = Grid.parse(f"{JIGSAW_4}\n{JIGSAW_MAP_4}", variant="jigsaw")
    assert answer["status"] == "unique"
    assert Grid.parse(f"{answer['solution']}\n{JIGSAW_MAP_4}", variant="jigsaw").is_solution_of(puzzle)


def test_candidates_follow_the_variant_and_name_it(client):
    answer = post(client, "candidates", puzzle=JIGSAW_4, variant="jigsaw", regions=JIGSAW_MAP_4).json()
    puzzle = Grid.parse(f"{JIGSAW_4}\n{JIGSAW_MAP_4}", variant="jigsaw")
    assert answer["variant"] == "jigsaw" and answer["regions"] == JIGSAW_MAP_4
    assert answer["candidates"] == [puzzle.candidates(cell) for cell in range(16)]
    pasted = post(client, "candidates", puzzle=Grid.parse(X_4, variant="x").to_json()).json()
    assert pasted["variant"] == "x" and pasted["regions"] is None


def test_a_bad_region_map_is_422_naming_the_cell(client):
    response = post(client, "count", puzzle=JIGSAW_4, variant="jigsaw", regions="AABBAABCCDBCDDDE")
    error = response.json()["error"]
    assert response.status_code == 422 and error["kind"] == "regions"
    assert error["name"] == "r4c4" and error["cell"] == 15 and "one too many" in error["message"]
    missing = post(client, "solve", puzzle=JIGSAW_4, variant="jigsaw").json()["error"]
    assert missing["kind"] == "regions" and "region map" in missing["message"]
    short = post(client, "solve", puzzle=JIGSAW_4, regions="AABB").json()["error"]
    assert short["kind"] == "regions" and "16 symbols" in short["message"]


def test_a_bad_variant_name_is_422(client):
    unknown = post(client, "solve", puzzle=X_4, variant="diagonal")
    assert unknown.status_code == 422 and unknown.json()["error"]["kind"] == "variant"
    assert "unknown variant 'diagonal'" in unknown.json()["error"]["message"]
    assert post(client, "solve", puzzle=X_4, variant="x; drop").status_code == 422  # pydantic's pattern
    assert post(client, "solve", puzzle=X_4, regions="A" * 9000).status_code == 422  # pydantic's length


def test_a_variant_conflict_is_an_invalid_verdict_naming_its_cells(client):
    puzzle = Grid.parse("." * 81, variant="x").with_digit(0, 1).with_digit(30, 1)  # r1c1 and r4c4
    answer = post(client, "count", puzzle=puzzle.to_line(), variant="x").json()
    assert answer["status"] == "invalid" and answer["conflicts"][0]["cells"] == [0, 30]
    assert answer["conflicts"][0]["unit"] == "the main diagonal"


@pytest.mark.parametrize("path", ["hint", "explain", "rate"])
def test_logic_endpoints_answer_for_variants(client, path):
    response = post(client, path, puzzle=X_4, variant="x")
    assert response.status_code == 200, response.text


def test_explain_names_jigsaw_regions_not_boxes(client):
    answer = post(client, "explain", puzzle=JIGSAW_4, variant="jigsaw", regions=JIGSAW_MAP_4).json()
    units = [unit for step in answer["steps"] for unit in step["units"]]
    assert any(unit.startswith("region ") for unit in units)
    assert not any(unit.startswith("box ") for unit in units)


@pytest.mark.parametrize("rules", [{"variant": "x"}, {"variant": "windoku"}, {"variant": "anti-king"},
                                   {"regions": JIGSAW_MAP_9}])
def test_generate_makes_a_unique_puzzle_under_the_requested_rules(client, rules):
    made = post(client, "generate", seed=7, **rules).json()
    expected = rules.get("variant", "jigsaw")
    assert made["variant"] == expected and made["regions"] == rules.get("regions")
    text = made["puzzle"] if made["regions"] is None else f"{made['puzzle']}\n{made['regions']}"
    puzzle = Grid.parse(text, variant=expected)
    assert bitdoku.is_unique(puzzle) and puzzle.givens == made["clues"]
    solution = made["solution"] if made["regions"] is None else f"{made['solution']}\n{made['regions']}"
    assert Grid.parse(solution, variant=expected).is_solution_of(puzzle)  # the variant's rules, not only classic


def test_generate_refuses_an_unknown_variant_and_a_bad_region_map_like_the_other_endpoints(client):
    assert post(client, "generate", variant="zz").json()["error"]["kind"] == "variant"
    bad = post(client, "generate", variant="jigsaw", regions="A" * 81).json()["error"]
    assert bad["kind"] == "regions" and bad["name"] == "r2c1"
