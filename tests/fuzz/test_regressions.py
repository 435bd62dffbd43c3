"""Every input the fuzzers ever failed on, as a plain test with the literal input (long ones are files in
``tests/fuzz/regressions/``), and what it found: a bug fixed in the library, or a property that asked too much."""

from __future__ import annotations

import re
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from bitdoku import Grid, Shape, compile_clock, search
from bitdoku.engines.result import Status
from bitdoku.errors import ParseError, ShapeError
from bitdoku.generate import generate
from bitdoku.logic import CandidateGrid
from tests.fuzz import properties

REGRESSIONS = Path(__file__).parent / "regressions"


@contextmanager
def _works_under(seconds: float) -> Iterator[None]:
    """Bound the CPU seconds of the block outside Numba's compiles: the bugs below were hangs of minutes, and a
    busy machine or a cold cache (a first call compiles for seconds) must not fail the check (a wall-clock bound
    did, once, at load 4 right after a kernel changed)."""
    compile_clock.start()
    cpu, compiled = time.process_time(), compile_clock.compile_seconds()
    yield
    assert time.process_time() - cpu - (compile_clock.compile_seconds() - compiled) < seconds


@pytest.mark.parametrize("variant", ["anti-king", "nonconsecutive", "x+anti-knight"])
def test_generate_refuses_at_once_rules_that_no_4x4_grid_obeys(variant: str) -> None:
    """Found by hypothesis: ``generate('2x2', variant='anti-king', time_limit=1.0, ...)`` ran 170 s, one kernel
    call restarting its random fill on rules that allow no grid. ``Request.make`` now proves it and refuses."""
    with _works_under(10), pytest.raises(ValueError, match=re.escape(f"no 4x4 grid obeys the {variant} rules")):
        generate("2x2", seed=914710, time_limit=1.0, symmetry="dihedral", minimal=True, variant=variant)


def test_a_single_candidate_cell_reads_back_as_filled() -> None:
    """Found by hypothesis (a property that asked too much): a puzzle's open cell with one candidate is written as
    that digit, which reads back as a filled cell; the pencil masks are the same."""
    marks = CandidateGrid.parse(".234341223414123")
    again = CandidateGrid.parse(marks.to_pencilmarks(), marks.shape)
    assert again.pencil_masks() == marks.pencil_masks() and again.values != marks.values
    properties.check_pencilmarks(".234341223414123")


def test_a_63x63_grid_of_characters_has_no_pencil_mark_line() -> None:
    """Found by atheris: 3,969 characters read as a 63x63 grid, whose pencil marks cannot be written one character
    a digit: the documented ``ShapeError``, not a crash (the property now skips the write past 35 digits)."""
    text = (REGRESSIONS / "pencilmarks-63x63.bin").read_bytes()[1:].decode("utf-8", "replace")
    marks = CandidateGrid.parse(text)
    assert marks.n == 63
    with pytest.raises(ShapeError, match="stops at 35 digits"):
        marks.to_pencilmarks()
    properties.check_pencilmarks(text)


def test_a_hard_variant_grid_stops_at_its_node_budget() -> None:
    """Found by hypothesis: a nearly empty 9x9 jigsaw+anti-knight grid took the variant kernel 33 s for 2 million
    nodes (the rules leave few grids or none); the node budget stops it, and the fuzz budget is now 100,000."""
    grid = Grid.parse(
        "....................................7..................1.........................\n"
        "AABBBBCCCAAAEEBBCCDDAEEBCCFGDAAEBCCFGDDAEBIFFGGDEEIIFFGDDEHHIIFGDHHHHIFFGGGHHHIII",
        variant="jigsaw+anti-knight")
    result = search(grid, max_nodes=10_000)
    assert result.status is Status.LIMIT and result.stats.nodes == 10_000


@pytest.mark.parametrize("text", ["1\x1dx4", "²x3", "3x³", "2\x00x2"])
def test_a_shape_with_an_odd_space_or_digit_is_a_shape_error(text: str) -> None:
    """Found by atheris: ``Shape.parse('1\\x1dx4')`` raised int()'s bare ``ValueError`` (``str.strip`` removes the
    group separator, ``int`` does not; ``isdigit`` accepts '²', ``int`` does not) instead of ``ShapeError``."""
    with pytest.raises(ShapeError):
        Shape.parse(text)
    properties.check_shape(text)


def test_a_shape_in_other_decimal_digits_reads_as_int_reads_them() -> None:
    assert Shape.parse(" 2\x1d x ٣ ") == Shape(2, 3)


JSON_ROWS_AND_A_NUMBER = (
    '{"shape":"4x4","cells":[[1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16],[5,6,7,8,9,10,11,12,13,14,15,16,1,2,3,4],'
    '[9,10,11,12,13,14,15,16,1,2,3,4,5,6,7,8],[13,14,15,16,1,2,3,4],2,[7,8,9,10,11,12,13,14,15,16,1,2,3,4,5,6],'
    '[11,12,13,14,15,16,1,2,3,4,5,6,7,8,9,10],[15,16,1,2,3,4,5,6,444444444444444444444444444444444444444444447,8,9,'
    '10,11,12,13,14],[4,5,6,7,8,9,10,11,12,13,14,15,16,1,2,3],[8,9,10,11,12,13,14,15,16,1,2,3,4,5,6,7],'
    '[12,13,14,15,16,1,2,3,4,5,6,7,8,9,10,11],[16,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15]]}'
)


@pytest.mark.parametrize("text", [JSON_ROWS_AND_A_NUMBER, '{"cells": [[1, 2], 3]}', '{"cells": [[1], null]}'])
def test_json_cells_mixing_rows_and_numbers_are_a_parse_error(text: str) -> None:
    """Found by atheris: a "cells" list of rows with a bare number among them raised ``TypeError: 'int' object is
    not iterable`` from ``parse_json`` (and so from ``Grid.parse`` and the reader) instead of ``ParseError``."""
    with pytest.raises(ParseError, match="each a list of cells"):
        Grid.parse(text)
    properties.check_json(text)
    properties.check_grid_parse(text)


def test_a_variant_search_gets_a_minute_of_its_own_kernel_by_default(monkeypatch: pytest.MonkeyPatch) -> None:
    """Found by hypothesis: the variant kernel spent 33 s on 2 million nodes of a nearly empty 9x9
    jigsaw+anti-knight grid; a node of it costs about 40 times a node of the 9x9 band kernel (measured in the same
    run: 29 µs and 0.7 µs), so the classic 9x9 default of 100 million nodes ("about a minute") was most of an hour
    (and ``hint(guess=True)``, which solves with the default budget, as long). Variants now get the generic
    kernel's minute."""
    from bitdoku.engines import bitmask, registry
    from bitdoku.engines.result import default_max_nodes

    budgets = []

    def record_budget(grid, **options):
        budgets.append(options["max_nodes"])
        return registry.ENGINES["reference"].search(grid, limit=1, max_nodes=1, keep=0)

    monkeypatch.setattr(bitmask, "search", record_budget)
    search("." * 81, variant="x")
    search("." * 81)
    assert budgets == [default_max_nodes(Shape(3, 3), classic=False), default_max_nodes(Shape(3, 3))]
    assert budgets[0] * 40 <= budgets[1] * 4  # a variant's default lasts about as long as a classic one's


@pytest.mark.parametrize("content", [
    '{"puzzle": {"": [], "p9W": [[null, null, null], {"k": -Infinity}], "x": {"y": -502}}}',
    '{"puzzle": NaN}', '{"puzzle": "..3..4.221......", "limit": Infinity}', '{"puzzle": [1e999]}',
])
def test_nan_and_infinities_in_a_request_are_a_4xx(content: str) -> None:
    """Found by hypothesis (the harness: httpx's encoder refuses -inf, so the property now encodes bodies itself):
    a body with -Infinity, NaN or 1e999 where the API wants a string or an integer is a 422 naming the field."""
    from tests.fuzz.targets import client

    response = client().post("/api/count", content=content, headers={"content-type": "application/json"})
    assert response.status_code == 422 and response.json()["error"]["kind"] == "bad_request"
    properties.check_request(client(), "/api/solve", content.encode())


def test_a_guess_on_a_variant_with_no_solution_stops_at_its_node_budget() -> None:
    """Found by hypothesis: ``hint(grid, guess=True)`` on a 9x9 variant whose rules leave no solution searched with
    the default budget for minutes (``explain`` had no node budget for the solution a guess places); ``max_nodes``
    now bounds it and the documented ``SearchLimitError`` says so."""
    from bitdoku.errors import SearchLimitError
    from bitdoku.logic import hint

    grid = Grid.parse("." * 81 + "\nAABBBBCCCAAAEEBBCCDDAEEBCCFGDAAEBCCFGDDAEBIFFGGDEEIIFFGDDEHHIIFGDHHHHIFFGGGHHHIII",
                      variant="jigsaw+anti-knight")
    with _works_under(10), pytest.raises(SearchLimitError):
        hint(grid, guess=True, max_nodes=10_000)
