"""``--variant killer`` on the puzzle commands: files of Killer lines (``MAP SUMS [GIVENS]``), one answer a line;
bad lines named with their file, line and cage; a single Killer given on the command line.

The library is the oracle: each printed solution must keep every cage of its puzzle, and each verdict must be the
one ``bitdoku.search`` gives.
"""

from __future__ import annotations

from typer.testing import CliRunner

import bitdoku
from bitdoku.cli.exit_codes import ExitCode
from bitdoku.cli.main import app
from bitdoku.formats.killer import format_killer_line
from bitdoku.grid import Grid

runner = CliRunner()

UNIQUE_4 = "ABBCADECFDECFFGG 4,5,9,5,5,9,3"
TWO_4 = "AABBCDDBCEFFGEHH 3,9,5,5,4,7,4,3"
WITH_GIVEN_4 = "AABBCDDBCEFFGEHH 3,9,5,5,4,7,4,3 1..............."


def dominoes_9() -> str:
    """A 9x9 Killer of the pattern grid: each row in four two-cell cages and one cell, sums from the pattern."""
    solution = Grid.pattern("3x3")
    cages = tuple(bitdoku.Cage(cells, sum(solution.cells[c] for c in cells))
                  for row in range(9) for cells in [*((row * 9 + 2 * k, row * 9 + 2 * k + 1) for k in range(4)),
                                                    (row * 9 + 8,)])
    return format_killer_line(bytes(81), solution.shape, cages)


def keeps_its_cages(line: str, puzzle: str) -> bool:
    killer = Grid.parse(puzzle, variant="killer")
    solved = Grid(Grid.parse(line).cells, killer.shape, killer.geometry)
    return solved.is_solved() and solved.keeps_givens_of(Grid(killer.cells, killer.shape))


def test_solve_check_and_count_a_file_of_killers(tmp_path):
    lines = [UNIQUE_4, TWO_4, WITH_GIVEN_4, dominoes_9()]
    path = tmp_path / "killers.txt"
    path.write_text("# Killers\n" + "\n\n".join(lines) + "\n")
    solved = runner.invoke(app, ["solve", "--variant", "killer", str(path)])
    assert solved.exit_code == 0, solved.output
    answers = solved.stdout.splitlines()
    assert len(answers) == 4 and all(keeps_its_cages(a, p) for a, p in zip(answers, lines, strict=True))
    checked = runner.invoke(app, ["check", "--variant", "killer", str(path)])
    expected = [bitdoku.search(line, variant="killer").status.value for line in lines]
    assert checked.stdout.splitlines() == expected and expected[:3] == ["unique", "multiple", "multiple"]
    counted = runner.invoke(app, ["count", "--variant", "killer", "--limit", "10", str(path)])
    assert counted.stdout.splitlines()[:3] == ["1", "2", "2"]


def test_a_bad_killer_line_is_named_by_file_line_and_cage(tmp_path):
    path = tmp_path / "bad.txt"
    path.write_text(f"{UNIQUE_4}\nAABBCDDBCEFFGEHH 3,9,5,8,4,7,4,3\n")
    stopped = runner.invoke(app, ["solve", "--variant", "killer", str(path)])
    assert stopped.exit_code == ExitCode.BAD_INPUT
    assert f"{path}:2: cage D (r2c2, r2c3): no two different digits add up to 8" in stopped.stderr
    lenient = runner.invoke(app, ["check", "--lenient", "--variant", "killer", str(path)])
    assert lenient.stdout.splitlines() == ["unique", "error"]
    mixed = runner.invoke(app, ["solve", "--variant", "killer+x", str(path)])
    assert mixed.exit_code != 0 and "killer cages go on a classic grid for now" in mixed.stderr


def test_one_killer_on_the_command_line():
    shown = runner.invoke(app, ["solve", "--variant", "killer", UNIQUE_4])
    assert shown.exit_code == 0 and "sums 4,5,9,5,5,9,3" in shown.stdout and "1 2 3 4    A B B C" in shown.stdout
    refused = runner.invoke(app, ["solve", "--variant", "killer", "ABBCADECFDECFFGG 4,5,9,5,5,9,30"])
    assert refused.exit_code != 0 and "cage G (r4c3, r4c4): no two different digits add up to 30" in refused.stderr


def test_an_fpuzzles_link_is_a_puzzle_argument_with_its_rules():
    link = Grid.parse(UNIQUE_4, variant="killer").to_fpuzzles()
    solved = runner.invoke(app, ["solve", link])
    assert solved.exit_code == 0 and "sums 4,5,9,5,5,9,3" in solved.stdout and "1 2 3 4" in solved.stdout
    counted = runner.invoke(app, ["count", link.split("?", 1)[1]])  # the load= string alone
    assert counted.stdout.splitlines() == ["1"]
    cut = runner.invoke(app, ["check", link[:60]])
    assert cut.exit_code == ExitCode.BAD_INPUT and "does not decode" in cut.stderr


def test_format_fpuzzles_writes_links_that_read_back():
    solved = runner.invoke(app, ["solve", "-f", "fpuzzles", "--variant", "killer", UNIQUE_4])
    solution = Grid.parse(solved.stdout.strip())
    assert solution.cages == Grid.parse(UNIQUE_4, variant="killer").cages and solution.is_solved()
    made = runner.invoke(app, ["generate", "--variant", "killer", "--shape", "2x2", "-n", "2", "--seed", "4",
                               "-f", "fpuzzles"])
    lines = runner.invoke(app, ["generate", "--variant", "killer", "--shape", "2x2", "-n", "2", "--seed", "4"])
    assert [Grid.parse(link) for link in made.stdout.split()] == [
        Grid.parse(line, variant="killer") for line in lines.stdout.splitlines()]
    refused = runner.invoke(app, ["count", "-f", "fpuzzles", UNIQUE_4])
    assert refused.exit_code == ExitCode.USAGE and "--format fpuzzles writes grids" in refused.stderr
