"""The fuzz properties, one function per entry point, shared by the CI tests (``tests/fuzz/test_*.py``) and the
long campaign (``benchmarks/fuzz_campaign.py``).

Each property calls the library and holds it to what its docstring promises: the only exceptions are the
documented ones (``ParseError`` for text that is not a puzzle, ``InvalidGridError``, the budget errors, ...), each
call ends within its budget, and the answers agree with an oracle where there is one (the reference engine for
the compiled kernels, the solution for the human-style steps). ``CALLS`` counts the library calls made per entry
point, which is what the campaign reports.
"""

from __future__ import annotations

import json
import time
from collections import Counter
from collections.abc import Callable, Iterator
from contextlib import contextmanager, suppress
from pathlib import Path
from typing import Any

import numpy as np

from bitdoku import Grid
from bitdoku.engines import bitmask, reference
from bitdoku.engines.result import Status
from bitdoku.errors import (
    GenerationLimitError,
    InvalidGridError,
    ParseError,
    SearchLimitError,
    ShapeError,
    StepLimitError,
)
from bitdoku.geometry import Geometry
from bitdoku.kernels import status as codes

#: Library calls made, per entry point (the campaign prints them).
CALLS: Counter[str] = Counter()
#: The longest call seen, per entry point, in seconds.
SLOWEST: dict[str, float] = {}
#: Seconds any one call may take before it counts as a hang. Generous: the machine is shared and slow, and a
#: real hang is minutes, not seconds.
CALL_SECONDS = 30.0
#: The node budget of the oracle; past it the reference engine's answer is LIMIT and there is nothing to compare.
REFERENCE_NODES = 20_000
#: The node budget of a compiled engine: ten times the oracle's, far above what the grids it finishes need.
FAST_NODES = 100_000
#: Steps beyond singles that explain and rate may take on the fuzzed grids.
MAX_STEPS = 200


@contextmanager
def entry(name: str, *documented: type[BaseException], subject: object = None) -> Iterator[None]:
    """Count one call of entry point ``name``, swallow the ``documented`` exceptions (the rest of the block is
    skipped), and fail when
    the call takes longer than ``CALL_SECONDS`` (naming its input, the ``subject``)."""
    CALLS[name] += 1
    start = time.perf_counter()
    with suppress(*documented):
        yield
    seconds = time.perf_counter() - start
    SLOWEST[name] = max(SLOWEST.get(name, 0.0), seconds)
    assert seconds < CALL_SECONDS, f"{name} took {seconds:.1f} s on {subject!r}"


# -- parsers ----------------------------------------------------------------------------------------------------


def check_grid_parse(text: str) -> None:
    """``Grid.parse`` (line, block picture, integer rows, JSON) raises ``ParseError`` or returns a grid that
    reads back the same from each format it writes."""
    from bitdoku.formats.block import parse_block
    from bitdoku.formats.line import parse_line

    with entry("line", ParseError, subject=text):
        parse_line(text.strip())
    with entry("block/rows", ParseError, subject=text):
        parse_block(text.strip())
    grid = None
    with entry("Grid.parse", ParseError, subject=text):
        grid = Grid.parse(text)
    if grid is not None:
        for written in (grid.to_line(), grid.to_picture(), grid.to_rows(), grid.to_json()):
            assert Grid.parse(written, grid.shape) == grid, f"{written!r} does not read back as {grid!r}"


def check_json(text: str) -> None:
    """``parse_json`` raises ``ParseError`` or returns cells in range for the shape it names."""
    from bitdoku.formats.json import parse_json

    found = None
    with entry("json", ParseError, subject=text):
        found = parse_json(text)
    if found is not None:
        cells, shape = found.cells, found.shape
        assert len(cells) == shape.n_cells and all(0 <= value <= shape.n for value in cells)
        assert found.cages is None or all(0 <= cell < shape.n_cells for cage in found.cages for cell in cage.cells)


def check_pencilmarks(text: str) -> None:
    """``CandidateGrid.parse`` (729 pencil marks, candidate pictures, any grid format) raises ``ParseError`` or
    returns marks that write and read back the same (a cell with one candidate reads back as filled, as the
    format says, so the pencil masks are compared)."""
    from bitdoku.formats.tokens import ALPHABET
    from bitdoku.logic import CandidateGrid

    marks = None
    with entry("pencilmarks", ParseError, subject=text):
        marks = CandidateGrid.parse(text)
    if marks is not None and marks.n <= len(ALPHABET):  # past 35 digits pencil marks cannot be written
        again = CandidateGrid.parse(marks.to_pencilmarks(), marks.shape)
        assert again.pencil_masks() == marks.pencil_masks(), f"{text!r} does not read back the same"


def check_region_map(region_map: str, shape: Any) -> None:
    """``Geometry.jigsaw`` raises ``ParseError`` or returns N regions of N cells that write back as its map."""
    geometry = None
    with entry("regions", ParseError, subject=region_map):
        geometry = Geometry.jigsaw(region_map, shape)
    if geometry is not None:
        assert Geometry.jigsaw(geometry.region_map(), shape) == geometry


def check_variant_name(name: str, shape: Any, regions: str | None) -> None:
    """``Geometry.parse`` raises ``ParseError`` for an unknown name, a jigsaw without a map or a map without a
    jigsaw; a geometry it returns answers its name back."""
    geometry = None
    with entry("variant names", ParseError, subject=name):
        geometry = Geometry.parse(name, shape, regions)
    if geometry is not None:
        assert Geometry.parse(geometry.name, shape, geometry.region_map() if "jigsaw" in geometry.name else None) \
            == geometry


def check_shape(text: str) -> None:
    """``Shape.parse`` raises ``ShapeError`` or returns a shape that writes back as itself."""
    from bitdoku import Shape

    shape = None
    with entry("shape", ShapeError):
        shape = Shape.parse(text)
    if shape is not None:
        assert Shape.parse(str(shape)) == shape


def check_reader(data: bytes, directory: Path) -> None:
    """``read_entries`` on a file of any bytes never raises: every puzzle is an entry with a grid or an error,
    and the line numbers go up."""
    from bitdoku import read_entries

    path = directory / "puzzles.txt"
    path.write_bytes(data)
    with entry("reader", subject=data):
        lines = [item.line for item in read_entries(path) if item.grid is not None or item.error is not None]
        assert lines == sorted(lines)


# -- engines ----------------------------------------------------------------------------------------------------


def _classic_through_variant_kernel(grid: Grid, limit: int) -> tuple[int, int]:
    """(status code, solutions) of a classic grid searched by the variant kernel with the classic tables."""
    from bitdoku.kernels.variant import search

    solutions = np.zeros((limit, grid.shape.n_cells), np.uint8)
    stats = np.zeros(codes.N_STATS, np.int64)
    code = search(np.frombuffer(grid.cells, np.uint8), grid.n, Geometry.classic(grid.shape).tables, limit,
                  FAST_NODES, codes.ALL_RULES, solutions, stats, np.zeros(1, np.int64))
    return int(code), int(stats[codes.STAT_SOLUTIONS])


def check_engines(grid: Grid, limit: int) -> None:
    """Every compiled path (the 9x9 band kernel or the N x N bitboard kernel, the generic path, the variant
    kernel) gives the reference engine's status, count and solutions, whenever the reference finishes."""
    with entry("reference engine", subject=grid):
        oracle = reference.search(grid, limit=limit, max_nodes=REFERENCE_NODES, keep=limit)
    runs = [("bitmask", {})]
    if grid.geometry.is_classic:
        runs.append(("bitmask generic", {"rules": codes.ALL_RULES | codes.GENERIC_ONLY}))
    for name, options in runs:
        with entry(name, subject=grid):
            fast = bitmask.search(grid, limit=limit, max_nodes=FAST_NODES, keep=limit, **options)
        for solution in fast.solutions:
            assert solution.is_solution_of(grid), f"{name}: {solution!r} does not solve {grid!r}"
        if oracle.status is Status.LIMIT:  # a hard grid (a variant with few solutions or none): nothing to compare
            continue
        assert (fast.status, fast.count) == (oracle.status, oracle.count), f"{name} vs reference on {grid!r}"
        if fast.count < limit:
            assert set(fast.solutions) == set(oracle.solutions), f"{name}: other solutions than reference's"
    if grid.geometry.is_classic:
        with entry("variant kernel", subject=grid):
            code, count = _classic_through_variant_kernel(grid, limit)
        if oracle.status is not Status.LIMIT and oracle.status is not Status.INVALID:
            assert code != codes.BUDGET_EXHAUSTED and count == oracle.count, f"variant kernel on {grid!r}"


def check_public_search(grid: Grid, limit: int) -> None:
    """``search`` never raises for a grid; ``solve`` and ``count_solutions`` raise only ``InvalidGridError`` and
    ``SearchLimitError``, and agree with ``search``."""
    from bitdoku import count_solutions, search, solve

    with entry("search", subject=grid):
        result = search(grid, limit=limit, max_nodes=REFERENCE_NODES)
    with entry("solve", InvalidGridError, SearchLimitError, subject=grid):
        solution = solve(grid, max_nodes=REFERENCE_NODES)
        assert (solution is None) == (result.count == 0), f"solve and search disagree on {grid!r}"
    with entry("count_solutions", InvalidGridError, SearchLimitError, subject=grid):
        assert count_solutions(grid, limit=limit, max_nodes=REFERENCE_NODES) == result.count


# -- human-style solving ----------------------------------------------------------------------------------------


def check_logic(puzzle: Grid | str, guess: bool) -> None:
    """``hint``, ``explain`` and ``rate`` raise only ``ParseError`` (text), ``InvalidGridError``, ``StepLimitError``
    and (a guess's search) ``SearchLimitError``; on a puzzle with one solution no step places a wrong digit or
    removes a right one."""
    from bitdoku.logic import explain, hint, rate
    from bitdoku.logic.step import CONTRADICTION, STALLED

    documented = (ParseError, InvalidGridError, StepLimitError, SearchLimitError)
    with entry("hint", *documented, subject=puzzle):
        hint(puzzle, guess=guess, max_nodes=REFERENCE_NODES)
    with entry("rate", *documented, subject=puzzle):
        rate(puzzle, max_steps=MAX_STEPS)
    solution = None
    if isinstance(puzzle, Grid):
        result = bitmask.search(puzzle, limit=2, max_nodes=FAST_NODES, keep=1)
        solution = result.solution if result.status is Status.UNIQUE else None
    with entry("explain", *documented, subject=puzzle):
        for step in explain(puzzle, guess=guess, max_steps=MAX_STEPS, max_nodes=REFERENCE_NODES):
            if solution is None:
                continue
            assert step.technique != CONTRADICTION and (step.technique != STALLED or not guess), f"{step}: {puzzle!r}"
            for cell, digit in step.placements:
                assert solution[cell] == digit, f"{step} places a wrong digit in {puzzle!r}"
            for cell, digit in step.eliminations:
                assert solution[cell] != digit, f"{step} removes the solution's digit in {puzzle!r}"


# -- generation and canonical forms -----------------------------------------------------------------------------


def check_generate(request: dict[str, Any]) -> None:
    """``generate`` raises only ``ValueError`` (an impossible request) or ``GenerationLimitError``, and returns a
    puzzle with one solution that meets the request, within its time limit."""
    from bitdoku import count_solutions
    from bitdoku.generate import generate, has_symmetry, is_minimal

    puzzle = None
    start = time.perf_counter()
    with entry("generate", ValueError, GenerationLimitError, subject=request):
        puzzle = generate(**request)
    seconds = time.perf_counter() - start
    assert seconds < request["time_limit"] + 10, f"generate took {seconds:.1f} s for {request!r}"
    if puzzle is None:
        return
    assert count_solutions(puzzle, limit=2) == 1, f"{puzzle!r} from {request!r} is not unique"
    if isinstance(request.get("clues"), int):
        assert puzzle.givens == request["clues"], f"{puzzle!r} has not the clues of {request!r}"
    assert has_symmetry(puzzle, request["symmetry"]), f"{puzzle!r} is not {request['symmetry']}"
    if request.get("minimal"):
        assert is_minimal(puzzle), f"{puzzle!r} is not minimal"


def check_canonical(puzzle: Grid | str, transform: Callable[[Grid], Grid]) -> None:
    """``canonical`` raises only ``ParseError`` (``ShapeError`` for a grid that is not 9x9); its answer is its
    own canonical form and the same for a transformed copy of the puzzle."""
    from bitdoku.generate.canon import canonical

    form = None
    with entry("canon", ParseError, subject=puzzle):
        form = canonical(puzzle)
    if form is None:
        return
    grid = puzzle if isinstance(puzzle, Grid) else Grid.parse(puzzle)
    with entry("canon"):
        assert canonical(form) == form, f"the canonical form of {puzzle!r} is not canonical"
    with entry("canon"):
        assert canonical(transform(grid)) == form, f"a transformed {puzzle!r} has another canonical form"


# -- the web API ------------------------------------------------------------------------------------------------


def check_request(client: Any, path: str, body: Any) -> None:
    """A request to the API (``body``: a JSON value, raw bytes, or None for a GET) answers 2xx or 4xx with a JSON
    body, never 5xx."""
    with entry(f"web {path}", subject=body):
        if body is None:
            response = client.get(path)
        else:  # encoded here: the client's own encoder refuses NaN and infinities, which a hostile client sends
            content = body if isinstance(body, bytes) else json.dumps(body).encode()
            response = client.post(path, content=content, headers={"content-type": "application/json"})
    assert response.status_code < 500, f"{path} {body!r}: {response.status_code} {response.text[:300]}"
    response.json()
