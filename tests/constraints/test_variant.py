"""The setters' constraints: the kernel of cages agrees with the reference engine on random constraint sets."""

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import bitdoku
from bitdoku.constraints.variant import (
    KINDS,
    Constraint,
    broken,
    check_constraints,
    compile_constraints,
    orthogonal_neighbours,
)
from bitdoku.engines import bitmask, reference
from bitdoku.errors import ParseError
from bitdoku.geometry import Geometry
from bitdoku.grid import Grid
from bitdoku.shape import Shape

#: A solution of each size, relabelled by each example (a digit permutation keeps it a solution).
SOLUTIONS = {
    4: "1234341221434321",
    6: "123456456123231564564231312645645312",
}
SHAPES = {4: Shape(2, 2), 6: Shape(2, 3)}
LIMIT = 40


@st.composite
def walks(draw, n, shortest, longest):
    """A line of distinct cells, each orthogonally next to the one before."""
    cells = [draw(st.integers(0, n * n - 1))]
    for _ in range(draw(st.integers(shortest, longest)) - 1):
        free = [c for c in orthogonal_neighbours(cells[-1], n) if c not in cells]
        if not free:
            break
        cells.append(draw(st.sampled_from(free)))
    return tuple(cells)


@st.composite
def constraints(draw, n):
    """One constraint of any kind read in this round, on random cells with a random value."""
    kind = draw(st.sampled_from(KINDS))
    if kind in ("thermometer", "whispers", "renban", "palindrome"):
        cells = draw(walks(n, 2, n))
        if len(cells) < 2:
            cells = (0, 1)
        value = draw(st.integers(1, n // 2 + 1)) if kind == "whispers" else None
        return Constraint(kind, cells, value)
    if kind in ("difference", "ratio", "xv", "nonconsecutive"):
        a = draw(st.integers(0, n * n - 1))
        b = draw(st.sampled_from(orthogonal_neighbours(a, n)))
        value = {"difference": st.integers(1, 3), "ratio": st.integers(2, 3), "xv": st.integers(3, 2 * n - 1)}.get(kind)
        return Constraint(kind, (a, b), draw(value) if value is not None else None, negative=draw(st.booleans()))
    if kind in ("odd", "even", "minimum", "maximum"):
        return Constraint(kind, (draw(st.integers(0, n * n - 1)),))
    if kind == "clone":
        cells = draw(walks(n, 1, 3))
        others = draw(st.permutations(range(n * n)))[:len(cells)]
        return Constraint(kind, cells, None, tuple(others))
    return Constraint(kind, tuple(draw(st.sets(st.integers(0, n * n - 1), min_size=2, max_size=n))))


@st.composite
def puzzles(draw):
    """A 4x4 or 6x6 grid with a few constraints (half of them kept by a known solution) and some of its givens."""
    n = draw(st.sampled_from((4, 6)))
    digits = draw(st.permutations(range(1, n + 1)))
    solution = {cell: digits[int(ch) - 1] for cell, ch in enumerate(SOLUTIONS[n])}
    found = []
    for _ in range(draw(st.integers(1, 6))):
        constraint = draw(constraints(n))
        if draw(st.booleans()) and broken(constraint, solution, n):
            continue  # keep the known solution alive in half the examples
        found.append(constraint)
    try:
        check_constraints(tuple(found), n)
    except ParseError:
        found = []
    shown = draw(st.sets(st.integers(0, n * n - 1), max_size=n * n // 2))
    cells = bytes(solution[cell] if cell in shown else 0 for cell in range(n * n))
    rules = frozenset(draw(st.sampled_from([(), ("x",), ("anti-king",), ("nonconsecutive",)])))
    shape = SHAPES[n]
    return Grid(cells, shape, Geometry(shape, rules, constraints=tuple(found) or (Constraint("odd", (0,)),)))


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(puzzles())
def test_the_kernel_counts_what_the_reference_counts(puzzle):
    expected = reference.search(puzzle, limit=LIMIT, max_nodes=10**7, keep=LIMIT)
    found = bitmask.search(puzzle, limit=LIMIT, max_nodes=10**7, keep=LIMIT)
    assert found.count == expected.count, (puzzle.to_fpuzzles(), expected.count, found.count)
    n = puzzle.n
    for solution in found.solutions:
        digits = dict(enumerate(solution.cells))
        assert not any(broken(c, digits, n) for c in puzzle.constraints)
        assert not solution.conflicts()
        assert all(a == b for a, b in zip(puzzle.cells, solution.cells, strict=True) if a)
    if expected.count < LIMIT:  # all of them: the same set (with the limit reached each finds its own first ones)
        assert {s.cells for s in found.solutions} == {s.cells for s in expected.solutions}


def test_a_thermometer_compiles_to_its_bounds():
    compiled = compile_constraints((Constraint("thermometer", (0, 9, 18, 27)),), 9)
    puzzle = Grid(bytes(81), Shape(3, 3), Geometry(Shape(3, 3), constraints=(Constraint("thermometer",
                                                                                           (0, 9, 18, 27)),)))
    assert len(compiled.arcs) == 6
    result = bitmask.search(puzzle, limit=1, max_nodes=1000, keep=1)
    line = result.solution.cells
    assert line[0] < line[9] < line[18] < line[27]


@pytest.mark.parametrize(("constraint", "message"), [
    (Constraint("difference", (0, 2)), "its two cells must be orthogonal neighbours"),
    (Constraint("thermometer", tuple(range(5))), "only 4 different digits"),
    (Constraint("clone", (0, 1), None, (5,)), "copy has 1 cells"),
    (Constraint("renban", (0, 1, 0)), "appears twice"),
    (Constraint("entropicline", (0, 1)), "'entropicline', which bitdoku does not support yet"),
    (Constraint("odd", (16,)), "outside the 4x4 grid"),
])
def test_a_constraint_no_digits_can_keep_is_refused_by_name(constraint, message):
    with pytest.raises(ParseError, match=message):
        check_constraints((constraint,), 4)


def test_a_batch_of_constraint_grids_is_searched_each_under_its_own_constraints():
    from bitdoku import count_many

    shape = Shape(2, 2)
    grids = [Grid(bytes(16), shape, Geometry(shape, constraints=(c,))) for c in (
        Constraint("thermometer", (0, 4, 8)), Constraint("xv", (0, 1), 5), Constraint("palindrome", (0, 5, 10, 15)))]
    expected = [reference.search(g, limit=1000, max_nodes=10**7, keep=0).count for g in grids]
    assert list(count_many(grids, limit=1000).counts) == expected == [48, 96, 24]
    with pytest.raises(ParseError, match="pass a list of Grid objects"):
        count_many(np.zeros((2, 16), np.uint8), variant=grids[0].geometry)


def test_two_dots_from_one_cell_into_one_column_leave_it_a_digit_with_two_partners():
    """Five black dots on an empty 9x9: r6c1 between two dots of its column can only be 2 or 4 (a 1 would make
    both neighbours 2). Without that rule the search filled three rows first and spent 8.6 million nodes in
    them without a solution; a node budget, not a timer, makes the test fail if it comes back."""
    shape = Shape(3, 3)
    dots = [Constraint("ratio", cells) for cells in ((19, 10), (36, 45), (2, 1), (17, 16), (45, 54))]
    grid = Grid(bytes(81), shape, Geometry(shape, constraints=tuple(dots)))
    result = bitdoku.search(grid, limit=2, max_nodes=10_000)
    assert result.count == 2
    assert all(not broken(dot, dict(enumerate(solution.cells)), 9) for solution in result.solutions for dot in dots)
    assert bitdoku.true_candidates(grid).digits(45) == [2, 4]


def test_a_whisper_four_cannot_have_both_neighbours_in_one_box():
    shape = Shape(3, 3)
    line = Constraint("whispers", (0, 1, 10))  # r1c2 has its neighbours r1c1 and r2c2 in box 1
    grid = Grid(bytes(81), shape, Geometry(shape, constraints=(line,)))
    kept = bitdoku.true_candidates(grid)
    assert kept.complete and not {4, 5, 6} & set(kept.digits(1))
    assert reference.search(grid, limit=2, max_nodes=10**6, keep=1).count == 2
