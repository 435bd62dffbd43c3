import json

import typer
from typer.testing import CliRunner

from bitdoku.cli.exit_codes import ExitCode
from bitdoku.cli.rate import rate
from bitdoku.data import sample_lines, sample_path

runner = CliRunner()
app = typer.Typer()
app.command()(rate)
app.command(name="noop")(lambda: None)


def test_rate_a_file_one_line_a_puzzle_with_a_histogram():
    result = runner.invoke(app, ["rate", str(sample_path("multisolution_sample.txt"))])
    assert result.exit_code == 0
    lines = result.stdout.splitlines()
    assert len(lines) == len(sample_lines("multisolution_sample.txt"))
    assert all(line == "beyond logic 10.0 Guess" for line in lines)  # several solutions: logic cannot finish
    assert "beyond logic" in result.stderr and "100.0%" in result.stderr


def test_rate_json():
    line = sample_lines("17clue_sample.txt")[0]
    record = json.loads(runner.invoke(app, ["rate", line, "-f", "json", "--scale", "bitdoku"]).stdout)
    assert record["level"] in ("easy", "medium") and record["counts"]["Hidden Single"] > 0
    assert record["scale"] == "bitdoku" and "difficulties" not in record


def test_rate_json_on_the_se_scale_has_the_histogram():
    line = sample_lines("top1465_sample.txt")[3]
    for flags in (["--json"], ["-f", "json"], ["--json", "--scale", "se"]):
        result = runner.invoke(app, ["rate", line, *flags])
        assert result.exit_code == 0
        record = json.loads(result.stdout)
        assert set(record) == {"line", "puzzle", "score", "level", "hardest", "counts", "steps", "scale",
                               "difficulties"}
        assert record["scale"] == "se" and record["puzzle"] == line
        assert sum(record["counts"].values()) == record["steps"] and set(record["counts"]) == set(
            record["difficulties"])
        assert record["difficulties"][record["hardest"]] == record["score"]


def test_rate_text_on_both_scales():
    line = "..3..4.221......"
    assert runner.invoke(app, ["rate", line]).stdout == "easy 1.2 Hidden Single (box)\n"
    assert runner.invoke(app, ["rate", line, "--scale", "bitdoku"]).stdout == "easy 1.20 Hidden Single\n"
    assert runner.invoke(app, ["rate", line, "--scale", "hodoku"]).exit_code != 0


def test_rate_marks_invalid_lines_and_goes_on():
    good = sample_lines("17clue_sample.txt")[0]
    result = runner.invoke(app, ["rate", "-"], input=f"{good}\n{'11' + '.' * 79}\n{good}\n")
    lines = result.stdout.splitlines()
    assert lines[1] == "invalid" and len(lines) == 3
    assert result.exit_code == ExitCode.INVALID_GRID


def test_rate_bad_lines_need_lenient(tmp_path):
    path = tmp_path / "p.txt"
    path.write_text(f"{sample_lines('17clue_sample.txt')[0]}\n{'x' * 81}\n")
    strict = runner.invoke(app, ["rate", str(path)])
    assert strict.exit_code != 0 and strict.exception is not None
    lenient = runner.invoke(app, ["rate", str(path), "--lenient"])
    assert lenient.stdout.splitlines()[1] == "error" and lenient.exit_code == ExitCode.BAD_INPUT


def test_a_rating_over_its_step_budget_prints_limit_and_goes_on(tmp_path):
    from bitdoku.cli.exit_codes import ExitCode

    path = tmp_path / "two.txt"
    path.write_text("8..........36......7..9.2...5...7.......457.....1...3...1....68..85...1..9....4..\n"
                    "..3..4.221......\n")
    result = runner.invoke(app, ["rate", str(path), "--max-steps", "3"])
    assert result.stdout.splitlines() == ["limit", "easy 1.2 Hidden Single (box)"]
    assert result.exit_code == ExitCode.LIMIT and "limit" in result.stderr
