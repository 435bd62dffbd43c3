"""``solve_file``: the lines of a file that mixes classic puzzles and JSON lines naming a variant."""

import io

import bitdoku
from bitdoku.grid import Grid
from bitdoku.pipeline import solve_file


def test_json_lines_naming_a_variant_are_solved_under_their_rules(tmp_path):
    x = Grid.parse(".1............43", variant="x")
    classic = Grid.parse("..3..4.221......")
    path = tmp_path / "mixed.txt"
    path.write_text(f"{x.to_json()}\n{classic.to_line()}\n{Grid.parse('1.........1.....', variant='x').to_json()}\n")
    out = io.StringIO()
    statuses = solve_file(path, out)
    lines = out.getvalue().splitlines()
    assert lines[0] == bitdoku.solve(x).to_line() != bitdoku.solve(x.with_geometry(None)).to_line()
    assert lines[1] == bitdoku.solve(classic).to_line()
    assert lines[2] == bitdoku.search(Grid.parse("1.........1.....", variant="x")).status.value
    assert sum(statuses.values()) == 3
