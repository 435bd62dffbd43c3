import json

import typer
from typer.testing import CliRunner

import bitdoku
from bitdoku.cli.hint import hint
from bitdoku.data import sample_lines

runner = CliRunner()
app = typer.Typer()
app.command()(hint)
app.command(name="noop")(lambda: None)

EASY = sample_lines("17clue_sample.txt")[0]


def test_hint_prints_the_next_step():
    result = runner.invoke(app, ["hint", EASY])
    assert result.exit_code == 0
    assert result.stdout.strip() == bitdoku.logic.hint(EASY).text


def test_hint_json_and_solved():
    record = json.loads(runner.invoke(app, ["hint", EASY, "-f", "json"]).stdout)
    assert record["technique"] == "Hidden Single" and record["placements"]
    solved = bitdoku.solve(EASY).to_line()
    assert runner.invoke(app, ["hint", solved]).stdout.strip() == "solved"
