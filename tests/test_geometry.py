"""The variant geometries: their tables, their names, region maps, and the grid and engine reading them."""

from __future__ import annotations

import itertools

import pytest

import bitdoku
from bitdoku import Grid
from bitdoku.errors import ParseError
from bitdoku.geometry import RULES, Geometry
from bitdoku.shape import Shape

JIGSAW_4 = "AABB" "AABB" "CCDD" "CCDD"  # the boxes of a 4x4 grid, as a region map
JIGSAW_4_ODD = "AABB" "AABC" "CDBC" "DDDC"  # 72 grids, 24 with the diagonals


def _all_latin_squares_4() -> list[tuple[int, ...]]:
    """Every 4x4 Latin square, by brute force: the oracle the engines are checked against."""
    rows = list(itertools.permutations(range(1, 5)))
    squares = []
    for a, b, c, d in itertools.product(rows, repeat=4):
        columns_ok = all(len({a[j], b[j], c[j], d[j]}) == 4 for j in range(4))
        if columns_ok:
            squares.append(a + b + c + d)
    return squares


def _fits(square: tuple[int, ...], geometry: Geometry) -> bool:
    """Whether a filled 4x4 grid keeps every rule of a geometry, from the definitions (not the tables)."""
    def at(r: int, c: int) -> int:
        return square[4 * r + c]

    regions = geometry.regions or tuple(Shape(2, 2).box_of(r, c) for r in range(4) for c in range(4))
    for region in range(4):
        if len({square[i] for i in range(16) if regions[i] == region}) != 4:
            return False
    diagonals = ({at(i, i) for i in range(4)}, {at(i, 3 - i) for i in range(4)})
    if "x" in geometry.rules and (len(diagonals[0]) != 4 or len(diagonals[1]) != 4):
        return False
    for r, c in itertools.product(range(4), repeat=2):
        for dr, dc in itertools.product(range(-2, 3), repeat=2):
            if not (0 <= r + dr < 4 and 0 <= c + dc < 4) or (dr, dc) == (0, 0):
                continue
            knight = {abs(dr), abs(dc)} == {1, 2} and "anti-knight" in geometry.rules
            king = abs(dr) == abs(dc) == 1 and "anti-king" in geometry.rules
            if (knight or king) and at(r, c) == at(r + dr, c + dc):
                return False
            consecutive = abs(at(r, c) - at(r + dr, c + dc)) == 1
            if abs(dr) + abs(dc) == 1 and "nonconsecutive" in geometry.rules and consecutive:
                return False
    return True


GEOMETRIES_4 = [Geometry.parse(name, "2x2") for name in ("classic", "x", "anti-knight", "anti-king", "nonconsecutive",
                                                          "x+anti-knight")]
GEOMETRIES_4 += [Geometry.jigsaw(JIGSAW_4_ODD), Geometry.jigsaw(JIGSAW_4_ODD, rules=frozenset({"x"}))]


@pytest.mark.parametrize("geometry", GEOMETRIES_4, ids=lambda g: g.name)
@pytest.mark.parametrize("engine", ["reference", "bitmask"])
def test_the_engines_count_every_4x4_grid_of_a_variant(geometry: Geometry, engine: str) -> None:
    expected = sum(_fits(square, geometry) for square in _all_latin_squares_4())
    empty = Grid.empty("2x2").with_geometry(geometry)
    assert bitdoku.count_solutions(empty, limit=10_000, engine=engine) == expected


def test_the_classic_geometry_has_the_shape_tables() -> None:
    for shape in (Shape(2, 2), Shape(2, 3), Shape(3, 3), Shape(4, 4)):
        tables = Geometry.classic(shape).tables
        assert (tables.units == shape.tables.units).all()
        for cell in range(shape.n_cells):
            peers = tables.peers[tables.peer_start[cell] : tables.peer_start[cell + 1]]
            assert sorted(peers) == sorted(shape.tables.peers[cell])
        assert len(tables.adjacent) == 0


def test_extra_units_and_their_names() -> None:
    x = Geometry.parse("x")
    assert [x.unit_name(u) for u in (0, 9, 18, 27, 28)] == ["row 1", "column 1", "box 1", "the main diagonal",
                                                            "the anti-diagonal"]
    assert list(x.tables.units[28]) == [8, 16, 24, 32, 40, 48, 56, 64, 72]
    windoku = Geometry.parse("windoku")
    assert windoku.n_units == 31 and windoku.unit_name(30) == "window 4"
    assert list(windoku.tables.units[27]) == [10, 11, 12, 19, 20, 21, 28, 29, 30]
    both = Geometry.parse("windoku+x")
    assert both.name == "x+windoku" and both.unit_name(29) == "window 1"
    assert len(Geometry.parse("windoku", "4x4").tables.units) == 48 + 9


def test_relations_are_peers_outside_the_units() -> None:
    tables = Geometry.parse("anti-knight+anti-king").tables
    corner = set(tables.peers[tables.peer_start[0] : tables.peer_start[1]].tolist())
    assert {11, 19} <= corner  # r2c3 and r3c2: a knight's move from r1c1
    assert 10 in corner  # r2c2, a king's move (in box 1 anyway)
    centre = 40
    peers = set(tables.peers[tables.peer_start[centre] : tables.peer_start[centre + 1]].tolist())
    assert len(peers) == 20 + 8  # 20 classic peers and 8 knight cells, none in the centre box (king cells are)
    nonconsecutive = Geometry.parse("nonconsecutive").tables
    assert nonconsecutive.adjacent[nonconsecutive.adjacent_start[40] : nonconsecutive.adjacent_start[41]].tolist() == [
        31, 49, 39, 41]


@pytest.mark.parametrize(("text", "problem"), [
    ("AABBAABBCCDDCCDE", "r4c4: region 'E' is one too many"),
    ("AABBAABBCCDDCC-D", "r4c3: '-' is not a region symbol"),
    ("AAAAAABBCCDDCCDD", "r2c1: region 'A' has more than 4 cells"),
    ("AABBAABBCCDDCCD", "a 4x4 region map has 16 symbols, found 15"),
])
def test_bad_region_maps_name_the_cell(text: str, problem: str) -> None:
    with pytest.raises(ParseError) as error:
        Geometry.jigsaw(text, "2x2")
    assert problem in str(error.value)


def test_bad_variant_names() -> None:
    with pytest.raises(ParseError, match="unknown variant 'diagonal'"):
        Geometry.parse("diagonal")
    with pytest.raises(ParseError, match="needs its region map"):
        Geometry.parse("jigsaw")
    assert len(Geometry.parse("windoku", "2x3").tables.units) == 18 + 1  # every shape has room for a window
    assert set(RULES) == {"x", "windoku", "anti-knight", "anti-king", "nonconsecutive"}


def test_grids_carry_their_variant_through_every_format() -> None:
    grid = Grid.parse("1..." "...." "...." "...." + "\n" + JIGSAW_4_ODD, variant="jigsaw")
    assert grid.variant == "jigsaw" and grid.geometry.region_map() == JIGSAW_4_ODD
    assert Grid.parse(grid.to_json()) == grid
    assert eval(repr(grid), {"Grid": Grid}) == grid
    assert grid != grid.with_geometry(None) and hash(grid) != hash(grid.with_geometry(None))
    x = Grid.parse("." * 81, variant="x").with_digit(0, 5)
    assert x.variant == "x" and Grid.parse(x.to_json()).variant == "x"
    solution = bitdoku.solve(grid)
    assert solution is not None and solution.variant == "jigsaw" and solution.is_solution_of(grid)


def test_conflicts_name_the_variant_rule() -> None:
    x = Grid.parse("." * 81, variant="x").with_digit(0, 5).with_digit(80, 5)
    assert [str(c) for c in x.conflicts()] == ["digit 5 appears twice in the main diagonal (r1c1, r9c9)"]
    knight = Grid.parse("." * 81, variant="anti-knight").with_digit(2, 5).with_digit(13, 5)
    assert [str(c) for c in knight.conflicts()] == ["digit 5 appears twice in cells a knight's move apart (r1c3, r2c5)"]
    near = Grid.parse("." * 81, variant="nonconsecutive").with_digit(40, 4).with_digit(41, 5)
    assert [str(c) for c in near.conflicts()] == ["digits 4 and 5 are consecutive in neighbouring cells (r5c5, r5c6)"]
    assert near.candidates(39) == [1, 2, 6, 7, 8, 9]  # beside the 4: not 3 or 5; the row holds 4 and 5
    assert bitdoku.search(near).status is bitdoku.Status.INVALID


def test_variants_are_refused_where_they_are_not_supported_yet() -> None:
    with pytest.raises(ValueError, match="classic and Killer grids only"):
        bitdoku.search(Grid.parse("." * 81, variant="x"), strategy="pt_dfs", threads=2)


def _jigsaw_maps(count: int) -> list[str]:
    """Distinct region maps: the boxes, with a cell swapped between two boxes side by side in some bands."""
    boxes = [3 * (r // 3) + c // 3 for r in range(9) for c in range(9)]
    swaps = [None] + [(row, col) for row in range(3) for col in (2, 5)]
    maps = []
    for picks in itertools.product(swaps, repeat=3):
        regions = list(boxes)
        for band, pick in enumerate(picks):
            if pick is not None:
                cell = 9 * (3 * band + pick[0]) + pick[1]
                regions[cell], regions[cell + 1] = regions[cell + 1], regions[cell]
        maps.append("".join("ABCDEFGHI"[region] for region in regions))
    return maps[1 : count + 1]


def test_the_table_caches_keep_a_bounded_number_of_geometries() -> None:
    # a file of distinct jigsaw maps must not keep every map's tables for the life of the process
    from bitdoku.geometry import GEOMETRIES_KEPT, _tables
    from bitdoku.kernels import jigsaw9

    maps = _jigsaw_maps(GEOMETRIES_KEPT + 8)
    assert len(set(maps)) == len(maps) == GEOMETRIES_KEPT + 8
    def answer(regions: str) -> tuple[object, int]:
        result = bitdoku.search(Grid.parse("." * 81 + "\n" + regions, variant="jigsaw"), limit=3, max_nodes=20_000)
        return result.status, result.count

    answers = [answer(regions) for regions in maps]
    assert _tables.cache_info().currsize <= GEOMETRIES_KEPT
    assert jigsaw9.tables_for.cache_info().currsize <= GEOMETRIES_KEPT
    # maps whose tables were dropped are built again, with the same answers
    assert [answer(regions) for regions in maps[:4]] == answers[:4]
