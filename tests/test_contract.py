"""One public contract: every public function that takes a puzzle takes every form of it, and anything else gets a
bitdoku error that names the problem.

The test walks the public modules (``PUBLIC``: what each exports), finds every function and method whose first
parameter is ``puzzle`` (one puzzle) or ``puzzles`` (a batch), and calls it with each form of the same puzzle
(``grid.Puzzle``: a ``Grid``, text, a flat list, rows of lists, a tuple, flat and 2-D arrays) and with a corpus of
wrong inputs. Each form must give the same answer; each wrong input a ``BitdokuError`` that is a ``ValueError``
or a ``TypeError``, never an ``AttributeError`` or a ``TypeError`` from inside the library. A new public function
that takes a puzzle is checked the day it is exported; one that needs more arguments than the puzzle fails here
until ``ARGUMENTS`` gives them.
"""

from __future__ import annotations

import importlib
import inspect
from collections.abc import Callable, Iterator
from typing import Any

import numpy as np
import pytest

import bitdoku
from bitdoku import BitdokuError, Grid
from bitdoku.batch import BatchResult
from bitdoku.engines.result import SearchResult
from bitdoku.logic import CandidateGrid

#: The modules whose exports are the public API (``__all__``, or the public names a module defines).
PUBLIC = ("bitdoku", "bitdoku.logic", "bitdoku.generate", "bitdoku.generate.canon")
#: An easy 17-clue puzzle: one solution, solved by singles and locked candidates, minimal.
LINE = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"
#: More arguments than the puzzle, for the functions that need them.
ARGUMENTS: dict[str, tuple[Any, ...]] = {"has_symmetry": ("rotational",)}


def public_callables() -> Iterator[tuple[str, Callable[..., Any], str]]:
    """(name, function, first parameter) of every public function and method whose first parameter (after
    ``self``/``cls``) is ``puzzle`` or ``puzzles``."""
    seen = set()
    for module_name in PUBLIC:
        module = importlib.import_module(module_name)
        names = getattr(module, "__all__", None) or [
            name for name, value in vars(module).items()
            if not name.startswith("_") and getattr(value, "__module__", None) == module_name]
        for name in names:
            value = getattr(module, name)
            members = [(f"{name}.{member}", getattr(value, member)) for member in dir(value)
                       if not member.startswith("_")] if inspect.isclass(value) else [(name, value)]
            for qualified, function in members:
                if not callable(function) or id(function) in seen:
                    continue
                try:
                    parameters = [parameter for parameter in inspect.signature(function).parameters
                                  if parameter not in ("self", "cls")]
                except (TypeError, ValueError):
                    continue
                if parameters and parameters[0] in ("puzzle", "puzzles"):
                    seen.add(id(function))
                    yield qualified, function, parameters[0]


CALLABLES = sorted(public_callables(), key=lambda found: found[0])
SINGLE = [(name, function) for name, function, first in CALLABLES if first == "puzzle"]
BATCH = [(name, function) for name, function, first in CALLABLES if first == "puzzles"]


def forms(line: str = LINE) -> dict[str, Any]:
    """The same puzzle in every form the contract names."""
    grid = Grid.parse(line)
    flat = grid.to_array().ravel()
    return {
        "Grid": grid,
        "text": line,
        "flat list": flat.tolist(),
        "rows of lists": flat.reshape(grid.n, grid.n).tolist(),
        "tuple": tuple(int(cell) for cell in flat),
        "flat uint8 array": flat,
        "2-D int64 array": flat.reshape(grid.n, grid.n).astype(np.int64),
    }


#: Inputs that are no puzzle, or a malformed one: each must raise a bitdoku error.
WRONG: dict[str, Any] = {
    "None": None,
    "an int": 5,
    "a float": 3.5,
    "a bool": True,
    "bytes": LINE.encode(),
    "a dict": {"cells": LINE},
    "an object": object(),
    "a 3-D array": np.zeros((2, 9, 9), dtype=np.uint8),
    "80 cells": [0] * 80,
    "a digit out of range": [10] + [0] * 80,
    "a negative digit": [-1] + [0] * 80,
    "float cells": np.zeros(81),
    "None cells": [None] * 81,
    "rows of different lengths": [[1, 2, 3, 4], [1]],
    "text that is no puzzle": "xyz",
    "empty text": "",
    "a 4x4 grid where 3x3 boxes are asked for": Grid.empty("2x2"),
}
#: Inputs for the batch functions that are not many puzzles.
WRONG_BATCHES: dict[str, Any] = {
    "None": None,
    "an int": 5,
    "one puzzle as text": LINE,
    "one Grid": Grid.parse(LINE),
    "bytes": LINE.encode(),
    "a batch with None in it": [None, None],
    "float cells": np.zeros((2, 81)),
    "rows of different lengths": [[0] * 81, [0] * 80],
    "one flat array": np.zeros(81, dtype=np.uint8),
}


def answer(value: Any) -> Any:
    """What a call gave, in a form that two equal answers share (search statistics and timings left out)."""
    if inspect.isgenerator(value) or isinstance(value, Iterator):
        return [answer(item) for item in value]
    if isinstance(value, SearchResult):
        return value.status, tuple(grid.to_line() for grid in value.solutions)
    if isinstance(value, BatchResult):
        return list(value.statuses), np.asarray(value.counts).tolist(), np.asarray(value.solutions).tobytes()
    if isinstance(value, np.ndarray):
        return value.tolist()
    if isinstance(value, (list, tuple)):
        return [answer(item) for item in value]
    return value


def call(function: Callable[..., Any], name: str, puzzle: Any, **options: Any) -> Any:
    return answer(function(puzzle, *ARGUMENTS.get(name.rpartition(".")[2], ()), **options))


def test_the_walk_finds_the_functions_the_readme_shows():
    names = {name for name, _, _ in CALLABLES}
    assert {"search", "solve", "count_solutions", "is_unique", "explain", "hint", "rate", "is_minimal",
            "removable_clues", "has_symmetry", "canonical", "solve_many", "count_many", "canonical_many"} <= names


@pytest.mark.parametrize("name, function", SINGLE, ids=[name for name, _ in SINGLE])
def test_every_form_of_a_puzzle_gives_the_same_answer(name, function):
    if name.startswith("Grid."):  # a method of a grid: the grid is the puzzle itself, the argument its pair
        function = getattr(Grid.parse(bitdoku.solve(LINE).to_line()), name.partition(".")[2])
    answers = {form: call(function, name, puzzle) for form, puzzle in forms().items()}
    first = answers["Grid"]
    assert all(got == first for got in answers.values()), {form: got for form, got in answers.items()
                                                            if got != first}


@pytest.mark.parametrize("name, function", SINGLE, ids=[name for name, _ in SINGLE])
@pytest.mark.parametrize("wrong", WRONG, ids=list(WRONG))
def test_what_is_no_puzzle_gets_a_bitdoku_error(name, function, wrong):
    if name.startswith("Grid."):
        function = getattr(Grid.parse(LINE), name.partition(".")[2])
    options = {"shape": "3x3"} if "shape" in inspect.signature(function).parameters else {}
    with pytest.raises(BitdokuError) as raised:
        call(function, name, WRONG[wrong], **options)
    assert isinstance(raised.value, (ValueError, TypeError))
    assert str(raised.value), "the error says nothing"


@pytest.mark.parametrize("name, function", BATCH, ids=[name for name, _ in BATCH])
def test_every_form_of_a_batch_gives_the_same_answer(name, function):
    same = forms()
    batches = {f"a list of: {form}": [puzzle, puzzle] for form, puzzle in same.items()}
    batches["a (k, N*N) array"] = np.stack([same["flat uint8 array"]] * 2)
    batches["a (k, N, N) array"] = np.stack([same["2-D int64 array"]] * 2)
    answers = {form: call(function, name, batch) for form, batch in batches.items()}
    first = answers["a list of: Grid"]
    assert all(got == first for got in answers.values()), [form for form, got in answers.items() if got != first]


@pytest.mark.parametrize("name, function", BATCH, ids=[name for name, _ in BATCH])
@pytest.mark.parametrize("wrong", WRONG_BATCHES, ids=list(WRONG_BATCHES))
def test_what_is_no_batch_gets_a_bitdoku_error(name, function, wrong):
    with pytest.raises(BitdokuError) as raised:
        call(function, name, WRONG_BATCHES[wrong])
    assert isinstance(raised.value, (ValueError, TypeError))


@pytest.mark.parametrize("name, function", [(n, f) for n, f in SINGLE if n in ("explain", "hint", "rate")])
def test_the_logic_functions_take_pencil_marks_too(name, function):
    marks = CandidateGrid.parse(LINE)
    assert call(function, name, marks) == call(function, name, marks.to_pencilmarks())
    assert call(function, name, marks) == call(function, name, LINE)


def test_shape_and_variant_say_what_a_form_does_not():
    six = ".6.4..1........61.....5.2..54.....61"  # 36 cells: 2x3 boxes unless told; this one has 3x2 boxes
    grid = Grid.parse(six, "3x2")
    cells = grid.to_array().ravel().tolist()
    assert bitdoku.solve(cells, shape="3x2") == bitdoku.solve(grid)
    assert bitdoku.solve(cells, shape="3x2").shape == grid.shape != Grid.parse(six).shape
    assert bitdoku.rate(cells, shape="3x2") == bitdoku.rate(grid)
    x = ".7.......1..586..9...4......1...4..8.3.72...6..6....4...8....63.................."
    array = Grid.parse(x).to_array()
    assert bitdoku.count_solutions(array, variant="x") == bitdoku.count_solutions(Grid.parse(x, variant="x"))
    assert [step.text for step in bitdoku.explain(array, variant="x")] == [
        step.text for step in bitdoku.explain(Grid.parse(x, variant="x"))]
