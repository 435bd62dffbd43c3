"""The fuzz targets: each entry point's input strategy and property, in one table that the CI tests
(``tests/fuzz/test_*.py``, a few examples each) and the campaign (``benchmarks/fuzz_campaign.py``, many) share.

``case(name)`` makes the hypothesis test of a target; the test modules hold one line per target, so the
strategies and properties are written once.
"""

from __future__ import annotations

import tempfile
from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from bitdoku import Grid, Shape
from bitdoku.generate.symmetry import Symmetry
from bitdoku.logic.rating import LEVELS
from tests.fuzz import inputs, properties


@dataclass(frozen=True)
class Target:
    """An entry point's fuzzing: ``strategy`` draws an input, ``check`` runs the property on it; ``ci`` is the
    number of examples in CI (the whole fuzz suite must stay under a minute there)."""

    strategy: Callable[[], st.SearchStrategy[Any]]
    check: Callable[[Any], None]
    ci: int = 100


@lru_cache(maxsize=1)
def scratch() -> Path:
    """A directory for the reader's input files, made once per process."""
    return Path(tempfile.mkdtemp(prefix="bitdoku-fuzz-"))


@lru_cache(maxsize=1)
def client() -> Any:
    """A TestClient of the web app with small budgets (each request is quick; the answers are the same kinds)."""
    from fastapi.testclient import TestClient

    from bitdoku.web import Limits, create_app

    limits = Limits(verdict_seconds=0.05, solve_seconds=0.2, explain_seconds=0.3, generate_seconds=0.5)
    return TestClient(create_app(limits, warm_up=False))


@st.composite
def symmetries_of_9x9(draw) -> Callable[[Grid], Grid]:
    """A random symmetry of the 9x9 grid (band, row, stack and column orders, a transposition) with a random
    relabelling of the digits: it keeps the canonical form."""
    def order() -> list[int]:
        return [3 * group + i for group in draw(st.permutations(range(3))) for i in draw(st.permutations(range(3)))]

    rows, cols, transpose = order(), order(), draw(st.booleans())
    digits = np.array([0, *draw(st.permutations(range(1, 10)))], np.uint8)

    def transform(grid: Grid) -> Grid:
        array = digits[grid.to_array()][rows][:, cols]
        return Grid.from_array(array.T if transpose else array)

    return transform


@st.composite
def generate_requests(draw) -> dict[str, Any]:
    """A small generate request: a small shape, any symmetry, sometimes minimal, a clue count or a level (some
    impossible, some misspelt), a variant now and then, and a short time limit."""
    shape = draw(st.sampled_from(inputs.SMALL_SHAPES[:3] + [Shape(3, 3)] * (draw(st.integers(0, 3)) == 0)))
    request: dict[str, Any] = {
        "shape": shape, "seed": draw(st.integers(0, 2**32)), "time_limit": 1.0,
        "symmetry": draw(st.sampled_from([s.value for s in Symmetry])), "minimal": draw(st.booleans()),
    }
    kind = draw(st.integers(0, 5))
    if kind == 1:
        request["clues"] = draw(st.integers(-1, shape.n_cells + 1))
    elif kind == 2:
        request["difficulty"] = draw(st.sampled_from([*LEVELS, "Hard", "impossible"]))
    elif kind == 3:
        request["max_nodes"] = draw(st.integers(1, 10_000))
    elif kind == 4:
        request["variant"] = draw(st.sampled_from(["x", "windoku", "anti-king", "nonconsecutive", "x+anti-knight"]))
    return request


JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers(-2**65, 2**65) | st.floats() | st.text(max_size=30),
    lambda inner: st.lists(inner, max_size=5) | st.dictionaries(st.text(max_size=8), inner, max_size=5),
    max_leaves=20,
)
PATHS = ["/api/count", "/api/solve", "/api/candidates", "/api/hint", "/api/explain", "/api/rate", "/api/generate"]


@st.composite
def web_requests(draw) -> tuple[str, Any]:
    """(path, body): a structured body with near-valid fields, any JSON value, or raw bytes; now and then a
    GET of the health check."""
    if draw(st.integers(0, 20)) == 0:
        return "/api/health", None
    path = draw(st.sampled_from(PATHS))
    kind = draw(st.integers(0, 5))
    if kind == 0:
        return path, draw(st.binary(max_size=300))
    if kind == 1:
        return path, draw(JSON_VALUES)
    if path == "/api/generate":
        body = {"shape": draw(st.sampled_from(["2x2", "2x3", "3x2", "3x3", "9x9", "1x1", "x", "8x8"])),
                "symmetry": draw(st.sampled_from([*(s.value for s in Symmetry), "spiral"])),
                "difficulty": draw(st.sampled_from([None, *LEVELS, "hardest"])), "minimal": draw(st.booleans()),
                "seed": draw(st.integers(-1, 2**64))}
    else:
        body = {"puzzle": draw(inputs.puzzle_texts(inputs.SMALL_SHAPES))}
        if draw(st.booleans()):
            body["shape"] = draw(st.sampled_from(["2x2", "2x3", "3x2", "3x3", "5x5", "6x6", "0x0", "axb"]))
        if draw(st.booleans()):
            body["variant"] = draw(inputs.variant_names())
        if draw(st.integers(0, 3)) == 0:
            body["regions"] = draw(inputs.region_maps())[0]
        if path == "/api/count" and draw(st.booleans()):
            body["limit"] = draw(st.integers(-1, 1001))
        if path == "/api/explain":
            body["guess"] = draw(st.booleans())
    if kind == 2:
        body[draw(st.sampled_from(sorted(body)))] = draw(JSON_VALUES)
    return path, body


def _logic_inputs() -> st.SearchStrategy[Any]:
    return st.tuples(
        inputs.grids(inputs.SMALL_SHAPES) | inputs.grids(inputs.SMALL_SHAPES, variants=True)
        | inputs.puzzle_texts(), st.booleans())


TARGETS: dict[str, Target] = {
    "grid text": Target(inputs.puzzle_texts, properties.check_grid_parse),
    "json": Target(inputs.json_texts, properties.check_json),
    "pencil marks": Target(inputs.puzzle_texts, properties.check_pencilmarks),
    "region maps": Target(inputs.region_maps, lambda drawn: properties.check_region_map(*drawn)),
    "variant names": Target(
        lambda: st.tuples(inputs.variant_names(), st.sampled_from(inputs.SMALL_SHAPES),
                          st.none() | inputs.region_maps().map(lambda drawn: drawn[0])),
        lambda drawn: properties.check_variant_name(*drawn)),
    "shape": Target(lambda: st.text(alphabet="0123456789x*X -", max_size=8) | st.text(max_size=8),
                    properties.check_shape),
    "reader": Target(lambda: st.binary(max_size=600) | inputs.puzzle_texts().map(lambda text: text.encode()),
                     lambda data: properties.check_reader(data, scratch())),
    "engines": Target(lambda: st.tuples(inputs.grids(), st.integers(2, 3)),
                      lambda drawn: properties.check_engines(*drawn), ci=60),
    "variant engines": Target(lambda: st.tuples(inputs.grids(variants=True), st.integers(2, 3)),
                              lambda drawn: properties.check_engines(*drawn), ci=40),
    "public search": Target(lambda: st.tuples(inputs.grids() | inputs.grids(variants=True), st.integers(1, 3)),
                            lambda drawn: properties.check_public_search(*drawn), ci=30),
    "logic": Target(_logic_inputs, lambda drawn: properties.check_logic(*drawn), ci=25),
    "generate": Target(generate_requests, properties.check_generate, ci=15),
    "canon": Target(lambda: st.tuples(inputs.grids([Shape(3, 3)]) | inputs.puzzle_texts([Shape(3, 3)]),
                                      symmetries_of_9x9()),
                    lambda drawn: properties.check_canonical(*drawn), ci=50),
    "web": Target(web_requests, lambda drawn: properties.check_request(client(), *drawn), ci=80),
}


def case(name: str, max_examples: int | None = None) -> Callable[[], None]:
    """The hypothesis test of target ``name``: its CI count of examples unless ``max_examples`` says otherwise
    (the other settings come from the active profile: ``tests/conftest.py``)."""
    target = TARGETS[name]
    examples = target.ci if max_examples is None else max_examples

    @settings(max_examples=examples)
    @given(target.strategy())
    def test(value: Any) -> None:
        target.check(value)

    test.__name__ = test.__qualname__ = "test_" + name.replace(" ", "_")
    return test
