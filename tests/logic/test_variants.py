"""Logic on variant grids: the candidate state reads the geometry, the generalised techniques find what they
should on hand-made pencil marks, every step of ``explain`` is sound on puzzles of every variant, and units are
named as the geometry names them."""

from __future__ import annotations

import random

import pytest

import bitdoku
from bitdoku import Grid
from bitdoku.errors import SearchLimitError
from bitdoku.geometry import Geometry
from bitdoku.logic import VARIANT_LADDER, explain, hint, rate
from bitdoku.logic.candidates import CandidateGrid
from bitdoku.logic.explain import LADDER, geometry_ladder, next_step
from bitdoku.logic.intersections import CLAIMING, POINTING
from bitdoku.logic.singles import HIDDEN_SINGLE
from bitdoku.logic.step import GUESS, STALLED
from bitdoku.shape import Shape
from tests.logic.checks import assert_sound

#: Jigsaw region maps that have solutions (each a classic map with a few cells swapped between regions).
JIGSAW_MAPS = {
    "2x2": "BABB" "AAAB" "CCDD" "CCDD",
    "2x3": "AAABBB" "AACCBB" "ACCCBD" "EECFDD" "EEFFDD" "EEFFFD",
    "3x3": "AAABBBCCC" "AAABBBCCC" "AAEDBBCCC" "DDBAEEFFF" "DDDEEEFFF" "DDDEEIHFF" "GGGHHFEII" "GGGHHHIII"
    "GGGHHHIII",
}
FULL9 = (1 << 9) - 1


def geometry_of(variant: str, shape: str) -> Geometry:
    if variant == "jigsaw":
        return Geometry.jigsaw(JIGSAW_MAPS[shape], shape)
    return Geometry.parse(variant, shape)


def marks(geometry: Geometry, removed: dict[int, int]) -> CandidateGrid:
    """An empty 9x9 grid of ``geometry`` with every candidate, except the digits removed from the cells given
    (cell -> mask of digits to remove)."""
    masks = [FULL9 & ~removed.get(cell, 0) for cell in range(81)]
    return CandidateGrid.from_masks(masks, geometry.shape, geometry)


def bit(digit: int) -> int:
    return 1 << (digit - 1)


def cell(row: int, col: int) -> int:
    """The 0-based index of r{row}c{col}, written 1-based as people do."""
    return (row - 1) * 9 + col - 1


# -- the candidate state ---------------------------------------------------------------------------------------


def test_candidates_follow_relations_and_neighbours():
    grid = Grid.parse("." * 40 + "5" + "." * 40, variant="anti-knight+nonconsecutive")
    state = CandidateGrid.from_grid(grid)
    center = cell(5, 5)
    knight = [cell(3, 4), cell(3, 6), cell(4, 3), cell(4, 7), cell(6, 3), cell(6, 7), cell(7, 4), cell(7, 6)]
    for other in knight:
        assert not state.has(other, 5), other
    for other in (cell(4, 5), cell(6, 5), cell(5, 4), cell(5, 6)):
        assert state.candidates(other) == [1, 2, 3, 7, 8, 9]  # 5 (same column or row), 4 and 6 (neighbours)
    assert state.candidates(cell(4, 4)) == [1, 2, 3, 4, 6, 7, 8, 9]  # a king's move: only the box removes 5
    placed = CandidateGrid.from_grid(Grid.empty("3x3").with_geometry(grid.geometry)).place(center, 5)
    assert placed == state  # placing propagates exactly what the givens leave
    assert placed.to_grid() == grid and placed.to_grid().variant == "anti-knight+nonconsecutive"


def test_cleaned_drops_digits_next_to_a_neighbour_on_nonconsecutive():
    geometry = Geometry.parse("nonconsecutive")
    masks = [FULL9] * 81
    masks[0] = bit(3)
    state = CandidateGrid.from_masks(masks, geometry.shape, geometry).cleaned()
    assert state.candidates(1) == [1, 5, 6, 7, 8, 9]  # r1c2: 3 (row), 2 and 4 (neighbour of r1c1 = 3)
    assert state.candidates(9) == [1, 5, 6, 7, 8, 9]  # r2c1, the same from below
    assert state.candidates(80) == list(range(1, 10))  # r9c9 shares nothing with r1c1
    assert state.candidates(8) == [1, 2, 4, 5, 6, 7, 8, 9]  # r1c9: only the row


def test_a_classic_candidate_grid_is_unchanged_by_geometry():
    line = "8..........36......7..9.2...5...7.......457.....1...3...1....68..85...1..9....4.."
    state = CandidateGrid.from_grid(Grid.parse(line))
    assert state.geometry.is_classic
    assert state.to_grid() == Grid.parse(line)
    assert geometry_ladder(state) is LADDER


# -- each generalised technique as the next step ---------------------------------------------------------------


def test_hidden_single_on_the_diagonal():
    state = marks(Geometry.parse("x"), {10 * i: bit(1) for i in range(1, 9)})  # 1 only in r1c1 on the diagonal
    step = next_step(state, VARIANT_LADDER)
    assert step.technique == HIDDEN_SINGLE
    assert step.placements == ((0, 1),)
    assert step.units == (27,)
    assert "the main diagonal" in step.text


def test_locked_candidates_from_the_diagonal_into_a_box():
    state = marks(Geometry.parse("x"), {10 * i: bit(5) for i in range(2, 9)})  # 5 on the diagonal: r1c1, r2c2
    step = next_step(state, VARIANT_LADDER)
    assert step.technique == CLAIMING
    box1 = {cell(r, c) for r in (1, 2, 3) for c in (1, 2, 3)}
    assert set(step.eliminations) == {(c, 5) for c in box1 - {0, 10, 20}}
    assert step.units == (18, 27)
    assert "in the main diagonal, 5 fits only in box 1" in step.text


def test_a_window_points_into_a_row():
    geometry = Geometry.parse("windoku")
    window1 = [cell(r, c) for r in (2, 3, 4) for c in (2, 3, 4)]
    state = marks(geometry, {c: bit(7) for c in window1 if c // 9 != 2})  # in window 1, 7 only in row 3
    step = next_step(state, VARIANT_LADDER)
    assert step.technique == POINTING
    assert set(step.eliminations) == {(cell(3, c), 7) for c in (1, 5, 6, 7, 8, 9)}
    assert step.units == (2, 27)
    assert geometry.unit_name(27) == "window 1" and "in window 1, 7 fits only in row 3" in step.text


def test_a_jigsaw_row_claims_for_its_region():
    geometry = geometry_of("jigsaw", "3x3")
    state = marks(geometry, {cell(3, c): bit(4) for c in range(3, 10)})  # in row 3, 4 only in r3c1, r3c2
    step = next_step(state, VARIANT_LADDER)
    assert step.technique == CLAIMING
    region_a = {c for c, r in enumerate(geometry.regions) if r == 0}
    assert set(step.eliminations) == {(c, 4) for c in region_a - {cell(3, 1), cell(3, 2)}}
    assert "in row 3, 4 fits only in region A" in step.text


def test_a_naked_pair_on_the_anti_diagonal():
    geometry = Geometry.parse("x")
    anti = [8 * (i + 1) for i in range(9)]
    pair = (anti[0], anti[4])  # r1c9 and r5c5: no row, column or box in common
    state = marks(geometry, {c: FULL9 & ~(bit(2) | bit(6)) for c in pair})
    step = next_step(state, VARIANT_LADDER)
    assert step.technique == "Naked Pair" and step.units == (28,)
    assert set(step.eliminations) == {(c, d) for c in anti if c not in pair for d in (2, 6)}
    assert "the anti-diagonal" in step.text


def test_an_xy_wing_through_a_knight_move():
    """The pivot sees one pincer only by a knight's move: anti-knight makes that a link."""
    geometry = Geometry.parse("anti-knight")
    pivot, near, far = cell(1, 3), cell(1, 7), cell(2, 5)  # r1c3-r2c5 is a knight's move, not a unit
    masks = [FULL9] * 81
    masks[pivot], masks[near], masks[far] = bit(1) | bit(2), bit(1) | bit(3), bit(2) | bit(3)
    state = CandidateGrid.from_masks(masks, geometry.shape, geometry)
    step = next(_steps_of(state, "XY-Wing"))
    assert set(step.cells) == {pivot, near, far}
    assert all(digit == 3 for _, digit in step.eliminations)
    assert (cell(1, 5), 3) in step.eliminations  # row 1 with r1c7, box 2 with r2c5
    assert (cell(2, 8), 3) in step.eliminations  # row 2 with r2c5, box 3 with r1c7
    classic = CandidateGrid.from_masks(masks, geometry.shape)
    assert next(_steps_of(classic, "XY-Wing"), None) is None  # without the knight's move, no wing


def _steps_of(state: CandidateGrid, technique: str):
    return (step for rung in VARIANT_LADDER if rung.technique == technique for step in rung.find(state))


# -- which techniques run ---------------------------------------------------------------------------------------


def test_variant_grids_use_the_variant_ladder_only():
    state = CandidateGrid.from_grid(Grid.empty("3x3").with_geometry("windoku"))
    assert geometry_ladder(state) == VARIANT_LADDER
    assert set(geometry_ladder(state, LADDER[:14])) <= set(VARIANT_LADDER)
    names = {rung.technique for rung in VARIANT_LADDER}
    assert not names & {"Skyscraper", "Finned X-Wing", "Unique Rectangle Type 1", "Empty Rectangle"}
    assert {HIDDEN_SINGLE, POINTING, CLAIMING, "Hidden Triple", "X-Wing", "Jellyfish"} <= names


# -- soundness on made puzzles -----------------------------------------------------------------------------------

COMBOS = [
    (variant, shape)
    for variant in ("x", "windoku", "jigsaw", "anti-knight", "anti-king", "nonconsecutive")
    for shape in ("2x2", "2x3", "3x3")
    if (variant, shape) not in {("anti-king", "2x2"), ("nonconsecutive", "2x2")}  # no grid exists
]


def solution_of(geometry: Geometry, rng: random.Random) -> Grid:
    """A solved grid: the engine's solution from one random given (tried until one has a solution)."""
    n = geometry.shape.n
    while True:
        seed = bytearray(n * n)
        seed[rng.randrange(n * n)] = rng.randrange(1, n + 1)
        try:
            found = bitdoku.solve(Grid(bytes(seed), geometry.shape, geometry), max_nodes=200_000)
        except SearchLimitError:
            continue
        if found is not None:
            return found


def unique_puzzle(solution: Grid, rng: random.Random, max_nodes: int) -> Grid:
    """The solution with givens removed in random order while the engine still counts one solution (a count
    that runs past ``max_nodes`` keeps the given)."""
    cells = bytearray(solution.cells)
    order = list(range(len(cells)))
    rng.shuffle(order)
    for place in order:
        kept, cells[place] = cells[place], 0
        try:
            unique = bitdoku.count_solutions(solution.with_cells(bytes(cells)), limit=2, max_nodes=max_nodes) == 1
        except SearchLimitError:
            unique = False
        if not unique:
            cells[place] = kept
    return solution.with_cells(bytes(cells))


@pytest.mark.parametrize(("variant", "shape"), COMBOS)
def test_every_step_keeps_the_solution_of_a_unique_puzzle(variant, shape):
    rng = random.Random(f"{variant} {shape}")
    geometry = geometry_of(variant, shape)
    for _ in range(2):
        solution = solution_of(geometry, rng)
        puzzle = unique_puzzle(solution, rng, max_nodes=3_000)
        state = None
        for step in explain(puzzle, guess=True):
            assert_sound(step, solution)
            state = step.after
        assert state is not None and state.to_grid() == solution


@pytest.mark.parametrize(("variant", "shape"), COMBOS)
def test_every_step_keeps_any_solution_of_a_partial_grid(variant, shape):
    """Without uniqueness: a sound step never removes the digit of any solution, so the grid the givens came from
    checks it (the variant ladder has no uniqueness technique)."""
    rng = random.Random(f"partial {variant} {shape}")
    geometry = geometry_of(variant, shape)
    n_cells = geometry.shape.n_cells
    for _ in range(6):
        solution = solution_of(geometry, rng)
        kept = set(rng.sample(range(n_cells), round(n_cells * rng.uniform(0.2, 0.45))))
        puzzle = solution.with_cells(bytes(v if c in kept else 0 for c, v in enumerate(solution.cells)))
        for step in explain(puzzle, unique=False):
            if step.technique != STALLED:
                assert_sound(step, solution)


# -- names, hints and ratings ------------------------------------------------------------------------------------


def _texts(puzzle: Grid) -> list[str]:
    return [step.text for step in explain(puzzle, guess=True)]


def test_a_jigsaw_explanation_names_regions_not_boxes():
    rng = random.Random(3)
    geometry = geometry_of("jigsaw", "3x3")
    puzzle = unique_puzzle(solution_of(geometry, rng), rng, max_nodes=3_000)
    texts = _texts(puzzle)
    assert any("region " in text for text in texts)
    assert not any("box " in text for text in texts)
    units = {name for step in explain(puzzle, guess=True) for name in step.to_dict()["units"]}
    assert units and all(not name.startswith("box") for name in units)


def test_an_x_explanation_names_a_diagonal():
    rng = random.Random(5)
    geometry = Geometry.parse("x", "2x3")
    found = False
    for _ in range(5):
        puzzle = unique_puzzle(solution_of(geometry, rng), rng, max_nodes=3_000)
        found = found or any("diagonal" in text for text in _texts(puzzle))
    assert found


def test_hint_and_rate_on_a_variant():
    rng = random.Random(11)
    geometry = Geometry.parse("windoku")
    solution = solution_of(geometry, rng)
    puzzle = unique_puzzle(solution, rng, max_nodes=3_000)
    first = hint(puzzle, guess=True)
    assert first is not None
    assert_sound(first, solution)
    steps = list(explain(puzzle, guess=True))
    ours = rate(puzzle, scale="bitdoku")
    assert ours.scale == "bitdoku" and ours.steps == len(steps)
    assert ours.hardest in {step.technique for step in steps}
    se = rate(puzzle)
    assert se.scale == "se" and 1.0 <= se.score <= 10.0
    assert (se.level == "beyond logic") == (GUESS in se.counts)
    assert "Direct Pointing" not in se.counts  # SE's classic-only kernels are not used on variants


def test_a_jigsaw_puzzle_and_its_map_parse_as_candidates():
    text = "." * 81 + "\n" + JIGSAW_MAPS["3x3"]
    state = CandidateGrid.parse(text, variant="jigsaw")
    assert state.geometry == geometry_of("jigsaw", "3x3")
    assert state.to_grid() == Grid.parse(text, variant="jigsaw")
    assert eval(repr(state), {"CandidateGrid": CandidateGrid, "Geometry": Geometry, "Shape": Shape,
                              "frozenset": frozenset}) == state


def test_a_custom_ladder_on_a_variant_keeps_only_the_sound_rungs():
    state = CandidateGrid.from_grid(Grid.empty("3x3").with_geometry("x"))
    kept = geometry_ladder(state, LADDER[:14])
    assert kept == tuple(rung for rung in LADDER[:14] if rung in VARIANT_LADDER)
    assert "Skyscraper" in {rung.technique for rung in LADDER[:14]} - {rung.technique for rung in kept}
