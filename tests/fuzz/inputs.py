"""Hypothesis strategies for the fuzz properties: near-valid inputs (valid puzzles in every format, then mutated)
mixed with raw random text, and grids of every kind (empty, full, contradictory, nearly empty, random fills).

Structured inputs reach the deep code (a parser past its first character, a search past its givens check); raw
text and bytes reach the error paths nobody wrote a test for. Every strategy here draws both.
"""

from __future__ import annotations

import json
from functools import cache

from hypothesis import strategies as st

from bitdoku import Grid, Shape
from bitdoku.errors import BitdokuError
from bitdoku.geometry import Geometry
from tests.strategies import solutions

#: The shapes the reference engine (the oracle) answers quickly enough: 4x4 to 12x12, boxes both ways round.
ENGINE_SHAPES = [Shape(2, 2), Shape(2, 3), Shape(3, 2), Shape(2, 4), Shape(4, 2), Shape(3, 3), Shape(3, 4)]
#: The shapes of the human-style solver and the generator, whose calls cost more.
SMALL_SHAPES = [Shape(2, 2), Shape(2, 3), Shape(3, 2), Shape(3, 3)]
#: The variant rules one at a time; a name joins one to three of them with '+'.
RULES = ["x", "windoku", "anti-knight", "anti-king", "nonconsecutive"]
#: Characters a puzzle is made of, and a few that break it (BOM, NUL, CR, tab, a non-ASCII digit, braces).
PUZZLE_CHARS = "0123456789.-_*ABCDEFGabcdefg |+-\n\r\t#{}[]\",:\ufeff\x00٣xX"
#: The most blanks in a puzzle the reference engine is asked to finish: its brute force is slow on sparse grids.
MAX_BLANKS = {4: 16, 6: 36, 8: 64, 9: 50, 12: 36}


def formats_of(grid: Grid) -> list[str]:
    """The texts of a grid in every format bitdoku writes: line, picture, integer rows, JSON, pencil marks."""
    from bitdoku.logic import CandidateGrid

    texts = [grid.to_line(), grid.to_picture(), grid.to_rows(), grid.to_json()]
    marks = CandidateGrid.from_grid(grid)
    texts += [marks.to_pencilmarks(), marks.to_picture()]
    return texts


@st.composite
def mutated(draw, text: str) -> str:
    """``text`` with a few random edits: characters deleted, inserted, replaced, lines doubled or dropped, a
    BOM, CRLF line ends, tabs, trailing spaces."""
    chars = list(text)
    for _ in range(draw(st.integers(0, 4))):
        edit = draw(st.sampled_from(["delete", "insert", "replace", "line", "crlf", "bom", "tab", "space"]))
        at = draw(st.integers(0, len(chars)))
        if edit == "delete" and chars:
            del chars[min(at, len(chars) - 1)]
        elif edit == "insert":
            chars.insert(at, draw(st.sampled_from(PUZZLE_CHARS) | st.characters()))
        elif edit == "replace" and chars:
            chars[min(at, len(chars) - 1)] = draw(st.sampled_from(PUZZLE_CHARS))
        elif edit == "line":
            lines = "".join(chars).split("\n")
            line = draw(st.integers(0, len(lines) - 1))
            lines[line:line + 1] = draw(st.sampled_from([[], [lines[line]] * 2, [lines[line], ""]]))
            chars = list("\n".join(lines))
        elif edit == "crlf":
            chars = list("".join(chars).replace("\n", "\r\n"))
        elif edit == "bom":
            chars.insert(0, "\ufeff")
        elif edit == "tab":
            chars = list("".join(chars).replace(" ", "\t"))
        else:
            chars = list("".join(chars).replace("\n", "  \n") + " ")
    return "".join(chars)


@st.composite
def puzzle_texts(draw, shapes: list[Shape] = SMALL_SHAPES) -> str:
    """A puzzle in a random format, often mutated, or random text: what a user might paste."""
    kind = draw(st.integers(0, 9))
    if kind == 0:
        return draw(st.text(alphabet=PUZZLE_CHARS, max_size=300))
    if kind == 1:
        return draw(st.text(max_size=200))
    text = draw(st.sampled_from(formats_of(draw(grids(shapes)))))
    return draw(mutated(text)) if kind >= 5 else text


@st.composite
def json_texts(draw) -> str:
    """JSON puzzles: a valid one, one with fields of the wrong type, or any JSON value at all."""
    values = st.recursive(
        st.none() | st.booleans() | st.integers(-3, 70) | st.floats(allow_nan=True) | st.text(PUZZLE_CHARS, max_size=9),
        lambda inner: st.lists(inner, max_size=10) | st.dictionaries(st.sampled_from(
            ["shape", "cells", "variant", "regions", "solution", "x"]), inner, max_size=5),
        max_leaves=40,
    )
    kind = draw(st.integers(0, 3))
    if kind == 0:
        return json.dumps(draw(values))
    document = json.loads(draw(grids(SMALL_SHAPES)).to_json())
    if kind >= 2:
        document[draw(st.sampled_from(["shape", "cells", "variant", "regions"]))] = draw(values)
    if kind == 3:
        cells = document.get("cells")
        rows = [row for row in cells if isinstance(row, list) and row] if isinstance(cells, list) else []
        if rows:  # a cell of a row made wrong (``cells`` may have been drawn anew above: any JSON at all)
            draw(st.sampled_from(rows))[0] = draw(values)
    return json.dumps(document)


@st.composite
def variant_names(draw) -> str:
    """A variant name: one to three rules joined by '+', sometimes mistyped, in odd case or with spaces."""
    words = draw(st.lists(st.sampled_from([*RULES, "jigsaw", "classic"]), min_size=1, max_size=3))
    name = draw(st.sampled_from(["+", " + ", "++", ","])).join(words)
    if draw(st.booleans()):
        name = name.upper() if draw(st.booleans()) else draw(mutated(name))
    return name


@st.composite
def region_maps(draw) -> tuple[str, Shape]:
    """A jigsaw region map and the shape it is read for: a real map, the boxes, mutated, or random symbols."""
    shape = draw(st.sampled_from(SMALL_SHAPES))
    kind = draw(st.integers(0, 4))
    if kind == 0:
        return draw(st.text(alphabet="ABCDEFGHIabc123 \n.", max_size=100)), shape
    base = jigsaw(shape, draw(st.integers(0, 3))).region_map() if kind >= 2 else Geometry.classic(shape).region_map()
    return (draw(mutated(base)) if kind >= 3 else base), shape


@cache
def jigsaw(shape: Shape, seed: int) -> Geometry:
    """A random jigsaw geometry, drawn once per (shape, seed)."""
    from bitdoku.generate.regions import random_jigsaw

    return random_jigsaw(shape, seed=seed)


@cache
def variant_solution(geometry: Geometry, seed: int) -> Grid | None:
    """A complete grid of a variant, drawn once per (geometry, seed); None when the rules allow none."""
    from bitdoku.generate.grids import random_solution

    try:
        return random_solution(geometry.shape, seed=seed, variant=geometry, max_nodes=20_000)
    except BitdokuError:
        return None


@st.composite
def geometries(draw, shapes: list[Shape] = SMALL_SHAPES) -> Geometry:
    """A variant geometry: rules drawn from ``RULES``, or a random jigsaw (with a rule on top, sometimes)."""
    shape = draw(st.sampled_from(shapes))
    rules = draw(st.sets(st.sampled_from(RULES), min_size=0, max_size=2))
    if draw(st.booleans()):
        return Geometry.jigsaw(jigsaw(shape, draw(st.integers(0, 3))).region_map(), shape, rules=frozenset(rules))
    return Geometry.parse("+".join(sorted(rules)) or "x", shape)


@st.composite
def grids(draw, shapes: list[Shape] = ENGINE_SHAPES, variants: bool = False) -> Grid:
    """A grid of one of the kinds that stress an engine: empty, full, a puzzle (a solution with cells blanked),
    contradictory (a puzzle with digits written over), nearly empty, or random digits at random cells."""
    if variants:
        geometry = draw(geometries([s for s in shapes if s in SMALL_SHAPES]))
        shape = geometry.shape
        solution = variant_solution(geometry, draw(st.integers(0, 3)))
    else:
        solution = draw(solutions(shapes))
        shape, geometry = solution.shape, None
    n, n_cells = shape.n, shape.n_cells
    kind = draw(st.sampled_from(["empty", "full", "puzzle", "contradictory", "nearly empty", "random"]))
    if solution is None or kind in ("empty", "nearly empty", "random"):
        cells = [0] * n_cells
        most = {"empty": 0, "nearly empty": 4}.get(kind, n_cells)
        chosen = draw(st.lists(st.tuples(st.integers(0, n_cells - 1), st.integers(1, n)), max_size=most))
        for cell, digit in chosen:
            cells[cell] = digit
    else:
        cells = list(solution.cells)
        if kind != "full":
            blanks = draw(st.sets(st.integers(0, n_cells - 1), max_size=MAX_BLANKS[n]))
            for cell in blanks:
                cells[cell] = 0
        if kind == "contradictory":
            for _ in range(draw(st.integers(1, 2))):
                cells[draw(st.integers(0, n_cells - 1))] = draw(st.integers(1, n))
    return Grid(bytes(cells), shape, geometry)
