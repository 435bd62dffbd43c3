import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from bitdoku import Grid, Shape
from bitdoku.generate.symmetry import GENERATORS, Symmetry, has_symmetry, orbits, reachable_clue_counts

SHAPES = [Shape(2, 2), Shape(2, 3), Shape(3, 2), Shape(3, 3), Shape(3, 4), Shape(4, 4)]


@pytest.mark.parametrize("shape", SHAPES)
@pytest.mark.parametrize("symmetry", list(Symmetry))
def test_orbits_partition_the_cells_and_are_closed_under_the_motions(shape, symmetry):
    table = orbits(shape, symmetry)
    cells = table[table >= 0]
    assert sorted(cells.tolist()) == list(range(shape.n_cells))
    n = shape.n
    for row in table:
        members = set(row[row >= 0].tolist())
        for motion in GENERATORS[symmetry]:
            images = {motion(*divmod(cell, n), n) for cell in members}
            assert {r * n + c for r, c in images} == members


@pytest.mark.parametrize(
    ("symmetry", "count"),
    [("none", 81), ("rotational", 41), ("quarter-turn", 21), ("mirror", 45), ("diagonal", 45), ("dihedral", 15)],
)
def test_known_orbit_counts_of_the_9x9_grid(symmetry, count):
    assert len(orbits("3x3", symmetry)) == count


@given(symmetry=st.sampled_from(list(Symmetry)), seed=st.integers(0, 2**32))
def test_a_union_of_orbits_has_the_symmetry_and_a_random_pattern_rarely_does(symmetry, seed):
    draw = np.random.default_rng(seed)
    table = orbits("3x3", symmetry)
    chosen = table[draw.random(len(table)) < 0.4]
    cells = np.zeros(81, np.uint8)
    cells[chosen[chosen >= 0]] = 1
    assert has_symmetry(Grid(cells.tobytes(), Shape(3, 3)), symmetry)
    lopsided = cells.copy()
    lopsided[0], lopsided[80], lopsided[8], lopsided[72] = 1, 0, 0, 0
    if symmetry not in (Symmetry.NONE, Symmetry.DIAGONAL):  # r1c1 and r9c9 are their own orbits for the diagonal
        assert not has_symmetry(Grid(lopsided.tobytes(), Shape(3, 3)), symmetry)


def test_reachable_clue_counts_follow_the_orbit_sizes():
    quarter = reachable_clue_counts("3x3", "quarter-turn")
    assert [c for c in range(30) if quarter[c]] == [0, 1, 4, 5, 8, 9, 12, 13, 16, 17, 20, 21, 24, 25, 28, 29]
    assert reachable_clue_counts("2x2", "rotational").tolist() == [c % 2 == 0 for c in range(17)]
    assert reachable_clue_counts("3x3", "none").all()


def test_unknown_symmetry_names_the_choices():
    with pytest.raises(ValueError, match="symmetries are none, rotational"):
        Symmetry.parse("spiral")
