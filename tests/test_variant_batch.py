"""Batches of variant puzzles (``solve_many``/``count_many`` with ``variant=``, ``kernels/variant_rows.py``) and the
command line's variant files on that path.

The oracles: ``bitdoku.search`` one puzzle at a time (the same kernel, so the same nodes and the same first
solution), the reference engine on counts, and published solutions.
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

import bitdoku
from bitdoku import Geometry, Grid, Shape, ShapeError, Status
from bitdoku.batch import count_many, solve_many
from bitdoku.cli.main import app
from bitdoku.data import sample_lines, sample_path
from bitdoku.engines import reference
from bitdoku.engines.result import default_max_nodes
from tests.kernels.band9_twins import puzzles as band9_puzzles
from tests.kernels.test_variant_kernel import variant_puzzles

#: One geometry a 9x9 variant kernel: extra9 (x, windoku), jigsaw9, nonconsecutive9, variant81 (the others).
GEOMETRIES_9 = [Geometry.parse(name) for name in ("x", "windoku", "nonconsecutive", "anti-knight",
                                                  "windoku+anti-king")]
GEOMETRIES_9.append(Geometry.jigsaw("AAABBBCCCAABBBCCCAABBBCCCAADDDEEEFFFDDEEEFFFDDEEEFFFDDGGGHHHIIIGGHHHIIIGG"
                                    "HHHIIIGG"))
X_9 = "12.4..7.9...7.91.3..9.....6.....5.9..6...2....9.81.6..94.6..2.58325.....6.52....."


def assert_rows_are_single_searches(batch, grids: list[Grid], limit: int) -> None:
    """Each row of the batch is what ``bitdoku.search`` gives its puzzle: status, count, nodes, first solution."""
    for row, grid in enumerate(grids):
        single = bitdoku.search(grid, limit=limit)
        result = batch.result(row)
        assert (result.status, result.count, result.stats.nodes) == (single.status, single.count, single.stats.nodes)
        assert result.solutions == single.solutions[:1]
        assert all(solution.geometry == grid.geometry for solution in result.solutions)


@st.composite
def batches_9(draw: st.DrawFn) -> list[Grid]:
    """One to four random puzzles under one 9x9 variant's rules (kernels: all four band kernels and variant81)."""
    geometry = draw(st.sampled_from(GEOMETRIES_9))
    return draw(st.lists(band9_puzzles([geometry]), min_size=1, max_size=4))


@settings(max_examples=60, deadline=None)
@given(grids=batches_9())
def test_nine_by_nine_variant_batches_match_single_searches_and_the_reference_engine(grids: list[Grid]) -> None:
    batch = count_many(grids, limit=3)
    assert_rows_are_single_searches(batch, grids, limit=3)
    for row, grid in enumerate(grids):
        assert batch.counts[row] == reference.search(grid, limit=3, max_nodes=10**7, keep=0).count


@settings(max_examples=40, deadline=None)
@given(grid=variant_puzzles())
def test_other_sizes_match_single_searches_and_the_reference_engine(grid: Grid) -> None:
    batch = count_many([grid, grid], limit=3)
    assert_rows_are_single_searches(batch, [grid, grid], limit=3)
    expected = reference.search(grid, limit=3, max_nodes=10**7, keep=0)
    if expected.status is Status.INVALID:
        assert batch.statuses[0] is Status.INVALID
    elif expected.status is Status.LIMIT:  # the oracle ran out of nodes (a near-empty 9x9 grid): a lower bound
        assert batch.counts[0] >= expected.count
    else:
        assert batch.counts[0] == expected.count


def test_published_jigsaws_get_their_published_solutions_in_batches_by_map():
    puzzles = list(bitdoku.read_puzzles(sample_path("jigsaw_janko_9x9.txt"), variant="jigsaw"))
    solutions = sample_lines("jigsaw_janko_9x9_solutions.txt")
    by_map: dict[Geometry, list[int]] = {}
    for index, puzzle in enumerate(puzzles):
        by_map.setdefault(puzzle.geometry, []).append(index)
    assert len(by_map) > 1
    for geometry, rows in by_map.items():
        batch = count_many([puzzles[i] for i in rows], threads=2)
        assert batch.geometry == geometry
        assert batch.statuses == [Status.UNIQUE] * len(rows)
        assert [batch.result(row).solutions[0].to_line() for row in range(len(rows))] == [solutions[i] for i in rows]


def test_lines_read_under_the_variant_and_threads_do_not_change_results():
    lines = [X_9, "1" * 81, "." * 81, X_9.replace("1", ".", 1)] * 40
    one = count_many(lines, variant="x", threads=1)
    two = count_many(lines, variant="x", threads=2)
    for field in ("solutions", "status_codes", "counts", "stats"):
        np.testing.assert_array_equal(getattr(one, field), getattr(two, field))
    assert one.statuses[:3] == [Status.UNIQUE, Status.INVALID, Status.MULTIPLE]
    assert one.result(1).reason is not None  # the bad row says why, and the rest of the batch goes on
    assert count_many([X_9]).statuses == [Status.MULTIPLE]  # without the diagonals the puzzle is not unique


def test_jigsaw_lines_bring_their_map_and_an_array_takes_a_geometry():
    grid = next(iter(bitdoku.read_puzzles(sample_path("jigsaw_janko_9x9.txt"), variant="jigsaw")))
    cells = np.frombuffer(grid.cells, np.uint8).reshape(1, 81)
    from_array = solve_many(cells, variant=grid.geometry, limit=2)
    from_lines = solve_many([grid.to_line() + "\n" + grid.geometry.region_map()], variant="jigsaw", limit=2)
    assert from_array.statuses == from_lines.statuses == [Status.UNIQUE]
    np.testing.assert_array_equal(from_array.solutions, from_lines.solutions)
    assert solve_many(cells, limit=2).statuses == [Status.MULTIPLE]  # as a classic grid it is not unique


def test_time_limits_stop_only_the_rows_that_run_out():
    empty = "." * 81
    batch = count_many([X_9, empty, X_9], variant="nonconsecutive", limit=10**9, max_nodes=10**12, time_limit=0.3,
                       threads=1)
    assert batch.statuses[1] is Status.LIMIT
    assert batch.result(1).reason is not None
    assert batch.statuses[0] is batch.statuses[2] is bitdoku.search(X_9, variant="nonconsecutive").status


def test_one_batch_takes_one_set_of_rules():
    x = Grid.parse(X_9, variant="x")
    with pytest.raises(ValueError, match="one set of rules"):
        count_many([x, x.with_geometry("windoku")])
    with pytest.raises(ShapeError, match="does not fit"):
        count_many(np.zeros((1, 16), np.uint8), variant=Geometry.parse("x"))
    assert count_many([x, x.with_geometry(None)], variant="windoku").geometry == Geometry.parse("windoku")
    assert count_many([x.with_geometry(None)]).geometry is None


runner = CliRunner()


def test_a_variant_file_gives_the_same_bytes_on_the_batch_and_per_puzzle_paths(tmp_path):
    path = tmp_path / "x.txt"
    path.write_text("\n".join([X_9, "1" * 81, "." * 81, "# a comment", X_9]) + "\n")
    for command in (["solve"], ["count", "--limit", "3"], ["check"]):
        fast = runner.invoke(app, [*command, "--variant", "x", str(path)])
        slow = runner.invoke(app, [*command, "--variant", "x", str(path), "--per-puzzle"])
        assert fast.stdout == slow.stdout and fast.exit_code == slow.exit_code
    counted = runner.invoke(app, ["count", "--limit", "3", "--variant", "x", str(path)]).stdout.split()
    assert counted == ["1", "invalid", "3+", "1"]


def test_jigsaw_files_with_a_map_a_puzzle_are_searched_by_map(tmp_path):
    path = sample_path("jigsaw_janko_9x9.txt")
    counted = runner.invoke(app, ["count", "--variant", "jigsaw", str(path)])
    assert counted.exit_code == 0
    assert counted.stdout.split() == ["1"] * 133
    per_puzzle = runner.invoke(app, ["solve", "--variant", "jigsaw", str(path), "--per-puzzle"])
    assert runner.invoke(app, ["solve", "--variant", "jigsaw", str(path)]).stdout == per_puzzle.stdout


def test_shape_of_the_batch_is_kept():
    assert count_many([".1............43"], variant="x").shape == Shape(2, 2)


def test_variant_batches_take_the_variant_node_budget_by_default():
    """``bitdoku.search``'s default for a variant (its nodes cost more than classic ones): a file of hard variant
    puzzles stops where one puzzle would."""
    batch = count_many([X_9], variant="x")
    assert batch.max_nodes == default_max_nodes(Shape(3, 3), classic=False) < default_max_nodes(Shape(3, 3))
    assert count_many([X_9]).max_nodes == default_max_nodes(Shape(3, 3))


def test_a_line_the_region_map_does_not_fit_is_reported_at_its_line_on_both_paths(tmp_path):
    geometry = GEOMETRIES_9[-1]
    path = tmp_path / "mixed.txt"
    path.write_text(X_9 + "\n.1............43\n" + X_9 + "\n")
    for extra in ([], ["--lenient"]):
        args = ["count", "--variant", "jigsaw", "--regions", geometry.region_map(), str(path), *extra]
        fast, slow = runner.invoke(app, args), runner.invoke(app, [*args, "--per-puzzle"])
        assert (fast.stdout, fast.exit_code) == (slow.stdout, slow.exit_code)
        assert fast.stderr.splitlines()[0] == slow.stderr.splitlines()[0]  # the next line is the timed summary
        assert f"{path}:2: a 4x4 region map has 16 symbols, found 81" in fast.stderr
    assert fast.stdout.split()[1] == "error" and len(fast.stdout.split()) == 3


def test_json_lines_that_name_their_variant_keep_it_under_the_variant_option_on_both_paths(tmp_path):
    windoku, classic = Grid.parse(X_9, variant="windoku"), Grid.parse(X_9)
    path = tmp_path / "mixed.txt"
    path.write_text("\n".join([X_9, windoku.to_json(), classic.to_json(), X_9]) + "\n")
    args = ["count", "--variant", "x", str(path)]
    fast, slow = runner.invoke(app, args), runner.invoke(app, [*args, "--per-puzzle"])
    assert (fast.stdout, fast.exit_code) == (slow.stdout, slow.exit_code)
    assert windoku.conflicts() and bitdoku.is_unique(Grid.parse(X_9, variant="x"))  # so "invalid" comes from windoku
    assert fast.stdout.split() == ["1", "invalid", "1", "1"]  # a JSON line naming no variant takes the option's
