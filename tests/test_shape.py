import numpy as np
import pytest

from bitdoku import Shape, ShapeError
from bitdoku.shape import supported_sizes


@pytest.mark.parametrize(
    ("n_cells", "shape"),
    [(16, Shape(2, 2)), (36, Shape(2, 3)), (81, Shape(3, 3)), (144, Shape(3, 4)), (256, Shape(4, 4)),
     (625, Shape(5, 5)), (1296, Shape(6, 6)), (2401, Shape(7, 7)), (4096, Shape(8, 8)), (64, Shape(2, 4))],
)
def test_infer_picks_the_conventional_box_shape(n_cells, shape):
    assert Shape.infer(n_cells) == shape


@pytest.mark.parametrize("n_cells", [0, 1, 9, 25, 49, 80, 82, 121, 4097, 4225])
def test_infer_rejects_counts_that_fit_no_grid_and_names_the_nearest(n_cells):
    with pytest.raises(ShapeError, match=r"nearest sizes: \d+ cells \(\d+x\d+\) or \d+ cells"):
        Shape.infer(n_cells)


def test_infer_error_names_81_for_80_cells():
    with pytest.raises(ShapeError, match=r"found 80 cells.*81 cells \(9x9\)"):
        Shape.infer(80)


@pytest.mark.parametrize(("rows", "cols"), [(1, 4), (4, 1), (0, 3), (9, 9), (1, 1)])
def test_degenerate_or_too_big_shapes_are_rejected(rows, cols):
    with pytest.raises(ShapeError):
        Shape(rows, cols)


@pytest.mark.parametrize("shape", [Shape(2, 2), Shape(2, 3), Shape(3, 2), Shape(3, 3), Shape(3, 4), Shape(8, 8)])
def test_tables_have_the_structure_of_sudoku(shape):
    n = shape.n
    units, cell_units, peers = shape.tables
    assert units.shape == (3 * n, n)
    for unit in units:  # each unit holds N distinct cells
        assert len(set(unit.tolist())) == n
    for cell in range(shape.n_cells):
        assert all(cell in units[u] for u in cell_units[cell])
        row, col = divmod(cell, n)
        assert cell_units[cell, 0] == row and cell_units[cell, 1] == n + col
        assert cell_units[cell, 2] == 2 * n + shape.box_of(row, col)
    assert peers.shape == (shape.n_cells, 3 * n - shape.box_rows - shape.box_cols - 1)
    assert not any(cell in peers[cell] for cell in range(shape.n_cells))


def test_classic_grid_has_81_cells_27_units_and_20_peers_each():
    units, _, peers = Shape(3, 3).tables
    assert units.shape == (27, 9) and peers.shape == (81, 20)
    assert sorted(peers[0].tolist()) == [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 18, 19, 20, 27, 36, 45, 54, 63, 72]


def test_tables_are_read_only():
    with pytest.raises(ValueError):
        Shape(3, 3).tables.units[0, 0] = 5


def test_rectangular_boxes_are_r_rows_by_c_columns():
    units = Shape(2, 3).tables.units
    np.testing.assert_array_equal(units[12], [0, 1, 2, 6, 7, 8])  # box 1: two rows of three cells


def test_parse_and_names():
    assert Shape.parse("3x4") == Shape(3, 4)
    assert str(Shape(3, 4)) == "3x4" and Shape(3, 4).size_name == "12x12"
    assert Shape(3, 3).unit_name(0) == "row 1" and Shape(3, 3).unit_name(13) == "column 5"
    assert Shape(3, 3).unit_name(22) == "box 5"
    with pytest.raises(ShapeError, match="like '3x3'"):
        Shape.parse("nine")


def test_supported_sizes_cover_4_to_64_with_box_shapes():
    sizes = supported_sizes()
    assert sizes[0] == "4x4" and sizes[-1] == "64x64"
    assert "7x7" not in sizes and "6x6" in sizes and "12x12" in sizes
