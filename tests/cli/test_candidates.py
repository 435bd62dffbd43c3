"""``bitdoku candidates``: the peers' candidates and, with ``--true``, the true candidates, for a puzzle or a file
(Killers too), checked against the library."""

from __future__ import annotations

from typer.testing import CliRunner

from bitdoku import Grid, true_candidates
from bitdoku.cli.exit_codes import ExitCode
from bitdoku.cli.main import app
from bitdoku.formats.pencilmarks import format_pencilmarks, parse_candidate_picture

runner = CliRunner()
TWO_KILLER = "AABBCDDBCEFFGEHH 3,9,5,5,4,7,4,3"


def test_true_candidates_of_a_killer_match_the_library():
    shown = runner.invoke(app, ["candidates", "--true", "--variant", "killer", TWO_KILLER])
    assert shown.exit_code == 0, shown.output
    masks, _ = parse_candidate_picture(shown.stdout)
    assert tuple(masks) == true_candidates(TWO_KILLER, variant="killer").masks
    plain = runner.invoke(app, ["candidates", "--variant", "killer", TWO_KILLER])
    peers, _ = parse_candidate_picture(plain.stdout)
    grid = Grid.parse(TWO_KILLER, variant="killer")
    assert peers == [grid.candidates_mask(cell) for cell in range(16)] and peers != masks


def test_a_file_gives_one_pencil_mark_line_a_puzzle_and_names_its_bad_lines(tmp_path):
    path = tmp_path / "p.txt"
    path.write_text("1..............4\n11..............\nABC\n")
    shown = runner.invoke(app, ["candidates", "--true", "--lenient", str(path)])
    lines = shown.stdout.splitlines()
    assert lines[0] == format_pencilmarks(true_candidates("1..............4").masks, Grid.parse("." * 16).shape)
    assert lines[1:] == ["invalid", "error"] and shown.exit_code == ExitCode.BAD_INPUT
    assert "line 2: invalid grid: digit 1 appears twice in row 1 (r1c1, r1c2)" in shown.stderr


def test_a_spent_budget_leaves_digits_undecided_and_says_so():
    shown = runner.invoke(app, ["candidates", "--true", "--time-limit", "0", "-f", "json", "1..............4"])
    assert shown.exit_code == ExitCode.LIMIT and '"complete":false' in shown.stdout
    assert "candidates left undecided" in shown.stderr
