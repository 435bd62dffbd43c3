"""``--variant`` and ``--regions`` on the puzzle commands: files of variant puzzles (jigsaw as puzzle and region
map lines), one map for a whole file, errors that name the file, line and cell, and the logic commands' clean
refusal while the logic solver knows classic grids only.

The library is the oracle: each printed solution must solve its puzzle under the variant's rules, and each
status must be the one ``bitdoku.search`` gives.
"""

import json

import pytest
from typer.testing import CliRunner

import bitdoku
from bitdoku.cli.exit_codes import ExitCode
from bitdoku.cli.main import app
from bitdoku.grid import Grid

runner = CliRunner()

X_9 = "12.4..7.9...7.91.3..9.....6.....5.9..6...2....9.81.6..94.6..2.58325.....6.52....."
X_4 = ".1............43"
JIGSAW_MAP_9 = "AAABBBCCCAABBBCCCAABBBCCCAADDDEEEFFFDDEEEFFFDDEEEFFFDDGGGHHHIIIGGHHHIIIGGHHHIIIGG"
JIGSAW_9 = ".1.34.7.9.41.92..8..5...4.613..58......9.....9.71853...9..712......37.....4..9.3."
JIGSAW_MAP_4 = "AABB" "AABC" "CDBC" "DDDC"
JIGSAW_4 = ".1........3....2"


def invoke(*args: str, input: str | None = None):
    return runner.invoke(app, list(args), input=input)


def solves(line: str, puzzle: str, variant: str, regions: str | None = None) -> bool:
    grid = Grid.parse(puzzle + (f"\n{regions}" if regions else ""), variant=variant)
    return Grid.parse(line + (f"\n{regions}" if regions else ""), variant=variant).is_solution_of(grid)


def test_solve_a_file_under_a_variant_writes_solutions_of_that_variant(tmp_path):
    path = tmp_path / "x.txt"
    path.write_text(f"# X puzzles\n{X_9}\n\n{X_4}\n")
    result = invoke("solve", "--variant", "x", str(path))
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert len(lines) == 2 and solves(lines[0], X_9, "x") and solves(lines[1], X_4, "x")
    classic = invoke("solve", str(path))  # the same givens have other solutions without the diagonals
    assert classic.stdout.splitlines() != lines


def test_count_and_check_follow_the_library_under_the_variant(tmp_path):
    path = tmp_path / "x4.txt"
    puzzles = [X_4, "1..............."]
    path.write_text("\n".join(puzzles) + "\n")
    expected = [bitdoku.count_solutions(Grid.parse(p, variant="x"), limit=1000) for p in puzzles]
    counted = invoke("count", "--variant", "x", str(path))
    assert counted.exit_code == 0 and counted.stdout.splitlines() == [str(c) for c in expected]
    checked = invoke("check", "--variant", "x", str(path))
    statuses = [bitdoku.search(Grid.parse(p, variant="x")).status.value for p in puzzles]
    assert checked.stdout.splitlines() == statuses and checked.exit_code == ExitCode.NO_SOLUTION


def test_a_jigsaw_file_holds_each_puzzle_and_then_its_region_map(tmp_path):
    path = tmp_path / "jigsaw.txt"
    path.write_text(f"{JIGSAW_9}\n# its regions\n{JIGSAW_MAP_9}\n\n{JIGSAW_4}\n{JIGSAW_MAP_4}\n")
    result = invoke("solve", "--variant", "jigsaw", str(path))
    assert result.exit_code == 0, result.output
    first, second = result.stdout.splitlines()  # one line a puzzle: the solution, without the map
    assert solves(first, JIGSAW_9, "jigsaw", JIGSAW_MAP_9) and solves(second, JIGSAW_4, "jigsaw", JIGSAW_MAP_4)
    records = [json.loads(line) for line in invoke("solve", "--variant", "jigsaw", str(path), "-f", "json").stdout
               .splitlines()]
    assert [r["line"] for r in records] == [1, 5] and records[1]["regions"] == JIGSAW_MAP_4
    assert {r["variant"] for r in records} == {"jigsaw"}


def test_one_region_map_for_a_whole_file_with_regions_inline_or_from_a_file(tmp_path):
    path = tmp_path / "jigsaw4.txt"
    path.write_text(f"{JIGSAW_4}\n{JIGSAW_4}\n")
    regions = tmp_path / "map.txt"
    regions.write_text("# 4x4\nAABB\nAABC\nCDBC\nDDDC\n")
    inline = invoke("solve", "--regions", JIGSAW_MAP_4, str(path))
    from_file = invoke("solve", "--variant", "jigsaw", "--regions", f"@{regions}", str(path))
    assert inline.exit_code == 0 and inline.stdout == from_file.stdout
    assert all(solves(line, JIGSAW_4, "jigsaw", JIGSAW_MAP_4) for line in inline.stdout.splitlines())


def test_a_bad_region_map_line_names_the_file_line_and_cell(tmp_path):
    path = tmp_path / "bad.txt"
    path.write_text(f"{JIGSAW_4}\n{JIGSAW_MAP_4}\n{JIGSAW_4}\nAABBAABCCDBCDDDE\n")
    result = invoke("solve", "--variant", "jigsaw", str(path))
    assert result.exit_code == ExitCode.BAD_INPUT
    assert f"bitdoku: error: {path}:4 (r4c4): region 'E' is one too many" in result.stderr
    assert len(result.stdout.splitlines()) == 1 and "Traceback" not in result.output
    lenient = invoke("solve", "--variant", "jigsaw", "--lenient", str(path))
    assert lenient.stdout.splitlines()[1] == "error"


def test_a_puzzle_without_its_region_map_line_is_reported_at_its_line(tmp_path):
    path = tmp_path / "short.txt"
    path.write_text(f"{JIGSAW_4}\n{JIGSAW_MAP_4}\n{JIGSAW_4}\n")
    result = invoke("count", "--variant", "jigsaw", str(path))
    assert result.exit_code == ExitCode.BAD_INPUT and f"{path}:3: this jigsaw puzzle has no region map" in result.stderr


def test_a_bad_regions_option_and_an_unknown_variant_are_usage_errors():
    bad_map = invoke("solve", "--regions", "AABBAABBCCDDCCDC", JIGSAW_4)
    assert bad_map.exit_code == ExitCode.USAGE
    assert "--regions: r4c4: region 'C' has more than 4 cells" in bad_map.stderr
    unknown = invoke("solve", "--variant", "diagonal", X_4)
    assert unknown.exit_code == ExitCode.USAGE and "--variant: unknown variant 'diagonal'" in unknown.stderr
    assert invoke("solve", "--variant", "x", "--regions", JIGSAW_MAP_4, X_4).exit_code == ExitCode.USAGE


def test_json_lines_name_their_own_variant_without_the_option(tmp_path):
    x = Grid.parse(X_4, variant="x")
    jigsaw = Grid.parse(f"{JIGSAW_4}\n{JIGSAW_MAP_4}", variant="jigsaw")
    path = tmp_path / "mixed.txt"
    path.write_text(f"{x.to_json()}\n..3..4.221......\n{jigsaw.to_json()}\n")
    result = invoke("solve", str(path))
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert solves(lines[0], X_4, "x") and solves(lines[2], JIGSAW_4, "jigsaw", JIGSAW_MAP_4)
    assert lines[1] == bitdoku.solve("..3..4.221......").to_line()


def test_a_single_jigsaw_puzzle_prints_a_picture_without_box_lines():
    result = invoke("solve", "--variant", "jigsaw", f"{JIGSAW_4}\n{JIGSAW_MAP_4}")
    assert result.exit_code == 0
    rows = [row for row in result.stdout.splitlines() if row]
    assert "|" not in result.stdout and "-+-" not in result.stdout
    assert [row.split("    ")[1].replace(" ", "") for row in rows] == ["AABB", "AABC", "CDBC", "DDDC"]
    assert solves("".join("".join(row.split("    ")[0].split()) for row in rows), JIGSAW_4, "jigsaw", JIGSAW_MAP_4)


@pytest.mark.parametrize("command", ["explain", "hint", "rate"])
def test_logic_commands_work_on_variants(command):
    result = invoke(command, "--variant", "x", X_9, "-f", "json")
    assert result.exit_code == 0 and "Traceback" not in result.output
    records = [json.loads(line) for line in result.stdout.splitlines() if line.startswith("{")]
    assert records
    if command != "rate":  # every step is named on the diagonal geometry: no step claims a box it does not have
        assert all("technique" in record for record in records)


#: An X puzzle whose explanation places a hidden single on the main diagonal (r4c4 = 3).
X_DIAGONAL = "1.3.567.9..67..1...8............5.97.68...5.4...8...329.....27.....47...67.2...48"


def test_explain_names_the_diagonal():
    result = invoke("explain", "--variant", "x", X_DIAGONAL)
    assert result.exit_code == 0
    assert "r4c4 = 3: in the main diagonal, 3 fits only in r4c4" in result.stdout


def test_variant_without_a_puzzle_is_a_usage_error():
    result = invoke("solve", "--variant", "x")
    assert result.exit_code == ExitCode.USAGE and "the demo grid is classic" in result.stderr


def test_the_help_names_every_variant_a_user_can_name():
    """'constraints' is a variant word of the library, but its data comes from an f-puzzles link or JSON."""
    from bitdoku.cli.options import VARIANT_NAMES
    from bitdoku.geometry import CONSTRAINTS, VARIANTS

    assert sorted(VARIANT_NAMES) == sorted(set(VARIANTS) - {CONSTRAINTS})


def test_naming_the_constraints_variant_without_data_says_where_it_comes_from():
    result = invoke("solve", "--variant", "constraints", "." * 81)
    assert result.exit_code == ExitCode.USAGE and "f-puzzles link" in result.stderr


def test_generate_x_puzzles_unique_under_the_diagonals():
    result = invoke("generate", "-n", "3", "--seed", "4", "--variant", "x")
    assert result.exit_code == 0
    lines = result.stdout.split()
    assert len(lines) == 3
    for line in lines:
        assert bitdoku.count_solutions(line, variant="x") == 1


def test_generate_jigsaw_writes_a_jigsaw_file_that_count_reads(tmp_path):
    result = invoke("generate", "-n", "2", "--seed", "4", "--variant", "jigsaw")
    assert result.exit_code == 0
    lines = result.stdout.split()
    assert len(lines) == 4 and lines[1] == lines[3]  # puzzle, map, puzzle, map: one random map a run
    path = tmp_path / "jigsaw.txt"
    path.write_text(result.stdout)
    counted = invoke("count", "--variant", "jigsaw", str(path))
    assert counted.exit_code == 0 and counted.stdout.split() == ["1", "1"]
    given = invoke("generate", "--seed", "4", "--regions", JIGSAW_MAP_4, "--shape", "2x2")
    puzzle, region_map = given.stdout.split()
    assert region_map == JIGSAW_MAP_4 and bitdoku.count_solutions(f"{puzzle}\n{region_map}", variant="jigsaw") == 1


def test_generate_refuses_what_a_jigsaw_run_cannot_do():
    resumed = invoke("generate", "--seed", "4", "--variant", "jigsaw", "--resume", "-o", "out.txt")
    assert resumed.exit_code == ExitCode.USAGE and "--resume needs one line a puzzle" in resumed.stderr
    unknown = invoke("generate", "--variant", "diagonal")
    assert unknown.exit_code == ExitCode.USAGE and "unknown variant 'diagonal'" in unknown.stderr
