"""f-puzzles links: Killers, classic, X and jigsaw grids round-trip through them; links made elsewhere (by the
JavaScript lz-string, by hand, by f-puzzles for published puzzles) read with their rules; anything bitdoku cannot
solve with is refused by name."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st
from lzstring import LZString

from bitdoku import Geometry, Grid, ParseError, Shape, search, solve
from bitdoku.constraints import Cage, check_cages
from bitdoku.formats.fpuzzles import (
    FPUZZLES_LINK,
    MAX_DATA_CHARS,
    format_fpuzzles,
    fpuzzles_json,
    is_fpuzzles,
    parse_fpuzzles,
)
from tests.constraints.test_killer import killers
from tests.strategies import puzzles

#: Published puzzles and solutions, with where they were found (tests/formats/data/fpuzzles_published.json).
PUBLISHED = json.loads((Path(__file__).parent / "data" / "fpuzzles_published.json").read_text(encoding="utf-8"))
CLASSICS = [entry for entry in PUBLISHED["puzzles"] if entry["rules"] == "classic"]
#: The shapes f-puzzles gives its sizes (it has no 3x2 boxes).
FPUZZLES_SHAPES = [Shape(2, 2), Shape(2, 3), Shape(3, 3), Shape(2, 4)]
RULES = ["x", "anti-knight", "anti-king", "nonconsecutive"]

#: Made by the JavaScript lz-string 1.5.0 (node: ``LZString.compressToBase64(JSON.stringify(puzzle))``), so the
#: Python codec is checked against the original: the puzzles are written out in ``hand_made``.
JS_LINKS = {
    "x": "N4IgzglgXgpiBcAWANCALhNAbO8QBUIA7ATwAIANMwPg3BL3bMBwCNGMNQXAIRUBDAVzQAsA9gCcEIAEaYAJoIDWPMs1ZhOIYTxxgYaMav4Q"
         "A5vyyH+aAMKCiAMxMBjNCvhp1MVAeEQpCANo/QAG5cWDy4AIzuEAEwRAguoQC+yKB2MczCAAoxdhBYALJcwrJOPgBMyADMALpJwLUJVcj+9c"
         "kgQSHhkdGxzq71jf5twaEIiC11yQ1NEzO1Qx0IFV0xcX1VjSBSEFwGVsEA1KuhqFs7e1gAtEdumxBgXOI4UliCBhB2vhvCXBiCn9xEDCyIim"
         "HTwazBLQJIA=",
    "killer": "N4IgzglgXgpiBcAWANCA5gJwgEwQbT2AF9ljSTiBdZQiu86285qms9ikANwEMAbAK5x4AZlRoIXGADsEAFwxCilaiADWEPnxgYAxjz"
              "TDCIXTC1h8IAEoBGAMI2QqW3YBMIVb0HCQIkJ1NzSytXO0Qna3s/Z3twz34hBABOALM+C3g8a1DHZ1D3eO8EEH9SEzSMrKsRBwirRFrCxP"
              "gQADZ/VX1DfFBA9PwmnzkIOW14AAIAFQhpAE9xgGlNbQwOoiA===",
    "jigsaw": "N4IgzglgXgpiBcA2ANCA5gJwgEwQbT2AF9ljSQMY0IB7AOwQEYTRLr6EAGVANwEMANgFc48AKypqPGA3gAXDCJbKAuskLLSmssTUa"
              "tBnavVHD2ontNXj+62ZVqQfOnIgBrCHTQIFSoA=",
}


def hand_made(kind: str) -> dict[str, object]:
    """The f-puzzles JSON behind ``JS_LINKS[kind]``, written out by hand."""
    def grid(n: int) -> list[list[dict[str, object]]]:
        return [[{} for _ in range(n)] for _ in range(n)]
    if kind == "x":  # givens, a solver's entry and pencil marks (not givens), settings and empty lists
        cells = grid(4)
        cells[0][0], cells[0][1] = {"value": 1, "given": True}, {"centerPencilMarks": [2, 3]}
        cells[1][2], cells[2][0], cells[3][3] = {"value": 1, "given": True}, {"value": 4}, {"value": 3, "given": True}
        return {"size": 4, "title": "Tiny X \U0001f9e9 \u201ctest\u201d", "author": "bitdoku tests", "ruleset": "",
                "highlightConflicts": True, "grid": cells, "diagonal+": True, "diagonal-": True, "disabledlogic": [],
                "ratio": [], "antiknight": False}
    if kind == "killer":  # a sum as a string, one as a number, one empty; a metadata cage
        cells = grid(4)
        cells[3][3] = {"value": 3, "given": True}
        return {"size": 4, "grid": cells, "killercage": [
            {"cells": ["R1C1", "R1C2"], "value": "3"}, {"cells": ["R2C4", "R1C3", "R1C4"], "value": 9},
            {"cells": ["R2C1", "R2C2"], "value": ""}, {"cells": ["R3C1", "R4C1"], "value": "6"}],
            "cage": [{"cells": [], "value": "title: Tiny Killer"}]}
    cells = grid(6)  # r1c3 and r1c4 swap boxes
    cells[0][2], cells[0][3] = {"region": 1}, {"region": 0, "value": 5, "given": True}
    return {"size": 6, "grid": cells, "antiking": True}


def link_of(puzzle: dict[str, object]) -> str:
    """An f-puzzles link made without bitdoku: lz-string of JSON.stringify's compact JSON."""
    return FPUZZLES_LINK + LZString().compressToBase64(json.dumps(puzzle, separators=(",", ":")))


def decoded(link: str) -> dict[str, object]:
    """The JSON of a link, decoded without bitdoku (the package gives JavaScript's UTF-16 code units, so an emoji
    comes out as two surrogates, joined here)."""
    text = LZString().decompressFromBase64(link.split("load=")[1])
    return json.loads(text.encode("utf-16-le", "surrogatepass").decode("utf-16-le"))


# -- links made elsewhere -------------------------------------------------------------------------------------


def test_links_of_the_javascript_lz_string_read_with_their_rules():
    x = Grid.parse(FPUZZLES_LINK + JS_LINKS["x"])
    assert x.variant == "x" and x.shape == Shape(2, 2)
    assert x.to_line() == "1.....1........3"  # r3c1's 4 has no "given": a solver's entry
    solution = solve(x)
    assert solution.variant == "x" and solution.is_solved() and solution.keeps_givens_of(x)
    killer = Grid.parse(FPUZZLES_LINK + JS_LINKS["killer"])
    assert killer.cages == (Cage((0, 1), 3), Cage((2, 3, 7), 9), Cage((4, 5), None), Cage((8, 12), 6))
    assert killer.variant == "killer" and killer.to_line() == "...............3"
    jigsaw = Grid.parse(FPUZZLES_LINK + JS_LINKS["jigsaw"])
    assert jigsaw.variant == "jigsaw+anti-king" and jigsaw[0, 3] == 5
    assert jigsaw.geometry.region_map() == "AABABB" "AAABBB" + "CCCDDD" * 2 + "EEEFFF" * 2


@pytest.mark.parametrize("kind", sorted(JS_LINKS))
def test_the_javascript_data_is_the_json_written_by_hand(kind):
    assert decoded(FPUZZLES_LINK + JS_LINKS[kind]) == hand_made(kind) == fpuzzles_json(JS_LINKS[kind])
    assert parse_fpuzzles(JS_LINKS[kind]) == parse_fpuzzles(link_of(hand_made(kind)))


@pytest.mark.parametrize("form", [
    "{link}", "  {link}\n", "load={data}", "{data}", "https://www.f-puzzles.com/?load={data}&solve=true",
    "f-puzzles.com/?load={escaped}", "https://sudokupad.app/fpuzzles{data}", "https://sudokupad.app/fpuz{escaped}",
    "https://app.crackingthecryptic.com/sudoku/?puzzleid=fpuzzles{data}", "https://sudokupad.app/?puzzle=fpuzzles{data}",
    "https://f-puzzles.com/?load={spaced}",  # each "+" turned into a space on the way
])
def test_every_form_of_a_link_reads_the_same_puzzle(form):
    link = link_of(hand_made("killer"))
    data = link.split("load=")[1]
    assert "+" in data and "/" in data
    escaped = data.replace("+", "%2B").replace("/", "%2F").replace("=", "%3D")
    text = form.format(link=link, data=data, escaped=escaped, spaced=data.replace("+", " "))
    assert is_fpuzzles(text)
    assert Grid.parse(text) == Grid.parse(link)


@pytest.mark.parametrize("text", ["1234341221434321", "N4IgzglgXgpiBcBOAN", "N4Ig!", "{\"size\": 9}",
                                  "https://sudokupad.app/scl" + "A" * 20, "https://example.com/?load=N4Ig"])
def test_other_text_is_not_fpuzzles(text):
    assert not is_fpuzzles(text)


def test_a_title_beyond_the_basic_plane_comes_back_whole():
    assert fpuzzles_json(JS_LINKS["x"])["title"] == "Tiny X \U0001f9e9 \u201ctest\u201d"
    assert "\U0001f9e9" not in LZString().decompressFromBase64(JS_LINKS["x"])  # the package alone gives surrogates


@pytest.mark.parametrize("entry", CLASSICS, ids=lambda entry: entry["title"])
def test_published_classic_links_solve_to_their_published_solutions(entry):
    puzzle = Grid.parse(entry["link"])
    assert puzzle.variant == "classic" and puzzle.givens >= 17
    assert solve(puzzle).to_line() == entry["solution"]


def published(title: str) -> dict[str, object]:
    return next(entry for entry in PUBLISHED["puzzles"] if entry["title"] == title)


@pytest.mark.parametrize(("title", "strip"), [("Killer Blister", ["littlekillersum"]),
                                              ("Self-contained", ["antiknight"])])
def test_published_killer_cages_hold_in_their_published_solutions(title, strip):
    """The cages read from a published Killer (its other rules taken out) are kept by its published solution."""
    entry = published(title)
    data = decoded(entry["link"])
    for key in strip:
        del data[key]
    for row in data["grid"]:
        for cell in row:
            cell.pop("c", None)  # the setter's colours
    killer = Grid.parse(link_of(data))
    assert killer.variant == "killer" and len(killer.cages) == len(data["killercage"])
    solution = Grid.parse(entry["solution"])
    assert killer.with_cells(solution.cells).is_solved()
    assert not killer.with_cells(solution.cells[1:] + solution.cells[:1]).is_solved()  # the check can fail


@pytest.mark.parametrize(("title", "message"), [
    ("Killer Blister", "this puzzle uses 'littlekillersum', which bitdoku does not support yet"),
    ("Self-contained", "r3c3: this puzzle uses 'c', which bitdoku does not support yet"),
    ("Behemoth", "killer cages go on a classic grid for now, not with 'jigsaw'"),
])
def test_published_puzzles_with_rules_bitdoku_lacks_are_refused_by_name(title, message):
    with pytest.raises(ParseError) as error:
        Grid.parse(published(title)["link"])
    assert message in str(error.value)


def test_a_published_kropki_palindrome_puzzle_solves_to_its_published_solution():
    """Bird in a storm: anti-knight, a palindrome, white dots with f-puzzles' nonconsecutive flag as their negative
    constraint and black dots' ``negative`` with no black dot at all."""
    entry = published("Bird in a storm")
    puzzle = Grid.parse(entry["link"])
    assert puzzle.variant == "constraints+anti-knight"
    kinds = {(c.kind, c.negative) for c in puzzle.constraints}
    assert kinds == {("palindrome", False), ("difference", False), ("difference", True), ("ratio", True)}
    result = search(puzzle, limit=2)
    assert result.status.value == "unique" and result.solution.to_line() == entry["solution"]
    assert Grid.parse(puzzle.to_fpuzzles()) == puzzle


def test_a_published_irregular_grid_reads_its_regions():
    data = decoded(published("Behemoth")["link"])
    del data["killercage"]
    jigsaw = Grid.parse(link_of(data))
    assert jigsaw.shape == Shape(4, 4) and jigsaw.variant == "jigsaw" and jigsaw.givens == 69
    assert jigsaw.geometry.region_map()[4:8] == "AAAA"  # r1c5-r1c8 are in the first box's region
    assert jigsaw.is_valid()


# -- round trips ----------------------------------------------------------------------------------------------


def fits_its_cages(killer: Grid) -> bool:
    try:
        check_cages(killer.shape, killer.cages, killer.cells)
    except ParseError:
        return False
    return True


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(killers(shapes=(Shape(2, 2), Shape(2, 3))))
def test_random_killers_round_trip(made):
    killer = made[0]
    assume(fits_its_cages(killer))
    link = killer.to_fpuzzles()
    assert link.startswith(FPUZZLES_LINK) and Grid.parse(link) == killer
    data = decoded(link)
    cages = data["killercage"]
    assert all(isinstance(cage.get("value", ""), str) and cage["cells"][0].startswith("R") for cage in cages)


@settings(max_examples=60, deadline=None)
@given(puzzles(FPUZZLES_SHAPES), st.sets(st.sampled_from(RULES)))
def test_random_classic_and_variant_grids_round_trip(puzzle, rules):
    grid = puzzle.with_geometry("+".join(rules) or None)
    assert Grid.parse(grid.to_fpuzzles()) == grid
    assert Grid.parse(grid.to_fpuzzles(), variant=grid.variant, shape=grid.shape) == grid


@st.composite
def jigsaws(draw):
    """A puzzle on random regions of N cells each (regions need not be connected, in f-puzzles or bitdoku)."""
    puzzle = draw(puzzles(FPUZZLES_SHAPES))
    n = puzzle.n
    order = draw(st.permutations([region for region in range(n) for _ in range(n)]))
    first = list(dict.fromkeys(order))  # lettered in the reading order of their first cells, as the reader does
    regions = "".join("ABCDEFGHI"[first.index(region)] for region in order)
    rules = draw(st.sets(st.sampled_from(RULES)))
    return Grid(puzzle.cells, puzzle.shape, Geometry.jigsaw(regions, puzzle.shape, rules=frozenset(rules)))


@settings(max_examples=60, deadline=None)
@given(jigsaws())
def test_random_jigsaws_round_trip(jigsaw):
    assert Grid.parse(jigsaw.to_fpuzzles()) == jigsaw


def test_a_jigsaw_writes_region_only_where_it_leaves_the_box():
    boxes = Grid.parse("1" + "." * 15).with_geometry(Geometry.jigsaw("AABB" "AABB" "CCDD" "CCDD"))
    data = decoded(boxes.to_fpuzzles())
    assert data == {"size": 4, "grid": [[{"value": 1, "given": True}, {}, {}, {}]] + [[{}] * 4] * 3}
    assert Grid.parse(boxes.to_fpuzzles()).variant == "classic"  # regions that are the boxes are the boxes


def test_the_json_written_is_what_f_puzzles_writes():
    killer = Grid.parse("AABB" "C.DD" "CEEF" "GGHF 3,7,3,7,-,3,7,3", variant="killer").with_digit(5, 4)
    data = decoded(killer.to_fpuzzles())
    assert data["size"] == 4 and data["grid"][1][1] == {"value": 4, "given": True} and data["grid"][0][0] == {}
    assert data["killercage"][0] == {"cells": ["R1C1", "R1C2"], "value": "3"}
    assert data["killercage"][4] == {"cells": ["R3C2", "R3C3"]}  # no sum, no value
    x = decoded(Grid.empty("2x2").with_geometry("x+anti-knight+nonconsecutive").to_fpuzzles())
    assert {key: value for key, value in x.items() if key != "grid"} == {
        "size": 4, "diagonal+": True, "diagonal-": True, "antiknight": True, "nonconsecutive": True}


def test_what_f_puzzles_cannot_hold_is_not_written():
    with pytest.raises(ValueError, match="'windoku'"):
        Grid.empty().with_geometry("windoku").to_fpuzzles()
    with pytest.raises(ValueError, match="2x3 boxes, not 3x2"):
        Grid.empty("3x2").to_fpuzzles()
    with pytest.raises(ValueError, match="boxes"):
        format_fpuzzles(bytes(36), Shape(3, 2))


# -- errors ---------------------------------------------------------------------------------------------------


def edited(**changes: object) -> str:
    """The hand-made X link with top-level keys changed (``None`` removes one)."""
    data = hand_made("x")
    for key, value in changes.items():
        data.pop(key) if value is None else data.__setitem__(key, value)
    return link_of(data)


def with_cell(record: dict[str, object], size: int = 4) -> str:
    grid = [[{} for _ in range(size)] for _ in range(size)]
    grid[1][2] = record
    return link_of({"size": size, "grid": grid})


@pytest.mark.parametrize(("text", "message"), [
    (edited(betweenline=[{"lines": [["R1C1", "R1C2", "R1C3"]]}]), "this puzzle uses 'betweenline', which bitdoku "
                                                                   "does not support yet"),
    (edited(arrow=[{"cells": ["R1C1"], "lines": [["R1C1", "R2C2"]]}], sandwichsum=[{"cell": "R0C1", "value": "3"}]),
     "this puzzle uses 'arrow' and 'sandwichsum', which"),
    (edited(negative=["quadruple"]), "uses the negative constraint of 'quadruple', which bitdoku does not support"),
    (edited(difference=[{"cells": ["R1C1", "R2C2"]}]),
     "white dot r1c1-r2c2: its two cells must be orthogonal neighbours"),
    (edited(xv=[{"cells": ["R1C1", "R1C2"], "value": "Y"}]), 'xv 1: an XV is marked "X" or "V", not \'Y\''),
    (edited(thermometer=[{"lines": [["R1C1", "R9C9"]]}]), "thermometer 1: R9C9 is outside the 4x4 grid"),
    (edited(thermometer=[{"lines": "R1C1"}]), 'thermometer 1: expected {"lines": [["R1C1", "R2C1", ...]]}'),
    (edited(odd=[{"cell": "A1"}]), "odd 1: 'A1' is not a cell name like R1C1"),
    (edited(clone=[{"cells": ["R1C1"], "cloneCells": ["R2C2", "R2C3"]}]), "a clone's copy has 2 cells, not 1"),
    (edited(cage=[{"cells": ["R1C1", "R1C2"], "value": "7", "outlineC": "#000000"}]), "uses 'cage'"),
    (edited(text=[{"cells": ["R1C1"], "value": "E"}]), "uses 'text'"),
    (with_cell({"givenPencilMarks": [1, 2]}), "r2c3: this puzzle uses 'givenPencilMarks'"),
    (with_cell({"c": "#B0FFB0"}), "r2c3: this puzzle uses 'c'"),
    (with_cell({"value": 5, "given": True}), "r2c3: digit 5 is out of range for a 4x4 grid; digits are 1-4"),
    (with_cell({"value": 0, "given": True}), "r2c3: digit 0 is out of range"),
    (with_cell({"value": "x", "given": True}), "digit 'x' is out of range"),
    (with_cell({"region": None}), "r2c3: this cell is in no region"),
    (with_cell({"region": 4}), "r2c3: region 4 is out of range; regions are 0-3"),
    (with_cell({"region": 0}), "region 0 has 5 cells; the regions of a 4x4 grid have 4 each"),
    (with_cell(7), "r2c3: a cell of the grid is an object"),
    (edited(size=7), "a 7x7 grid has no boxes of 2x2 cells or more (f-puzzles draws 1x7)"),
    (edited(size="9"), '"size" is the number of rows'),
    (edited(size=None), '"size" is the number of rows'),
    (edited(size=81), "larger than bitdoku's largest"),
    (edited(size=9), '"grid" is a list of 9 rows of 9 cells for a size 9 puzzle, found 4 rows'),
    (edited(grid=[[{}] * 4] * 3 + [[{}] * 3]), "row 4 of the grid has 3 cells, not 4"),
    (link_of({"size": 4, "grid": [[{}] * 4] * 4, "killercage": [{"cells": ["R1C1", "R5C1"], "value": "3"}]}),
     "killer cage 1: R5C1 is outside the 4x4 grid"),
    (link_of({"size": 4, "grid": [[{}] * 4] * 4, "killercage": [{"cells": ["A1"], "value": "3"}]}),
     "killer cage 1: 'A1' is not a cell name like R1C1"),
    (link_of({"size": 4, "grid": [[{}] * 4] * 4, "killercage": [{"cells": ["R1C1"], "value": "?"}]}),
     "killer cage 1: its sum '?' is not a number"),
    (link_of({"size": 4, "grid": [[{}] * 4] * 4, "killercage": [{"cells": ["R1C1", "R1C2"], "value": "2"}]}),
     "cage A (r1c1, r1c2): no two different digits add up to 2"),
    (link_of({"size": 4, "grid": [[{}] * 4] * 4, "killercage": {"cells": ["R1C1"]}}), '"killercage" is a list'),
    (link_of({"size": 4, "grid": [[{}] * 4] * 4, "killercage": [{"cells": ["R1C1"]}], "antiking": True}),
     "killer cages go on a classic grid for now, not with 'anti-king'"),
    (FPUZZLES_LINK + "N4IgzglgXgpiBcBOAN", "does not decode"),
    ("load=N4Ig%zz", "not Base64: unexpected character '%'"),
    (FPUZZLES_LINK + "N4Ig!!!!", "not Base64: unexpected character '!'"),
    (FPUZZLES_LINK + "N4Ig.-_", "not Base64: unexpected character '.'"),
    (FPUZZLES_LINK + LZString().compressToBase64('{"size": 4, "grid": '), "decodes to text that is not JSON"),
    (FPUZZLES_LINK + LZString().compressToBase64("[" * 100_000), "not JSON"),
    (FPUZZLES_LINK + LZString().compressToBase64("[4, 4]"), "JSON but not a puzzle"),
    (FPUZZLES_LINK, "holds no data"),
    ("https://f-puzzles.com/?id=abc123", "a short link names a puzzle stored online"),
    (FPUZZLES_LINK + "A" * (MAX_DATA_CHARS + 1), "bitdoku reads at most 16,384"),
])
def test_bad_links_are_refused_with_the_reason(text, message):
    with pytest.raises(ParseError) as error:
        Grid.parse(text)
    assert message in str(error.value)


def test_a_variant_or_shape_that_disagrees_with_the_data_is_refused():
    link = FPUZZLES_LINK + JS_LINKS["x"]
    assert Grid.parse(link, variant="X") == Grid.parse(link) == Grid.parse(link, shape="2x2")
    with pytest.raises(ParseError, match=re.escape("the f-puzzles data is a x puzzle, not 'x+anti-knight'")):
        Grid.parse(link, variant="x+anti-knight")
    with pytest.raises(ParseError, match="not 'classic'"):
        Grid.parse(link, variant="classic")
    with pytest.raises(ParseError, match="a classic puzzle, not 'killer'"):
        Grid.parse(link_of({"size": 4, "grid": [[{}] * 4] * 4}), variant="killer")
    with pytest.raises(ParseError, match="4x4 grid of 2x2 boxes, not 3x3"):
        Grid.parse(link, shape="3x3")


def test_metadata_cages_and_drawings_of_other_rules_are_not_rules():
    notes = {"cage": [{"cells": [], "value": "msgcorrect: well done"},
                      {"cells": ["R1C1"], "value": "rules: none", "outlineC": "#00000000", "fontC": "#0000"}],
             "line": [{"lines": [["R1C1", "R2C2"]], "fromConstraint": "Renban"}], "text": [], "circle": []}
    assert Grid.parse(edited(**notes)) == Grid.parse(edited())


def test_one_diagonal_and_disjoint_groups_read_as_extra_regions():
    from bitdoku.engines import reference

    one = Grid.parse(edited(**{"diagonal-": None}))
    assert one.variant == "constraints" and [(c.kind, c.cells) for c in one.constraints] == [
        ("extraregion", (12, 9, 6, 3))]  # diagonal+ runs from the bottom left
    groups = Grid.parse(edited(disjointgroups=True))
    assert groups.variant == "constraints+x" and len(groups.constraints) == 4
    for puzzle in (one, groups, Grid.parse(edited(**{"diagonal-": None}, negative=["xv"]))):
        expected = reference.search(puzzle.with_cells(bytes(16)), limit=10_000, max_nodes=10**7, keep=0).count
        assert bitdoku_count(puzzle.with_cells(bytes(16))) == expected
        assert expected > 0 or any(c.negative for c in puzzle.constraints)  # every 4x4 has neighbours adding to 5


def bitdoku_count(puzzle: Grid) -> int:
    return search(puzzle, limit=10_000).count
