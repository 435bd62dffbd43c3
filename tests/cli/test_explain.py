import json

import typer
from typer.testing import CliRunner

from bitdoku.cli.explain import explain
from bitdoku.data import sample_lines
from bitdoku.logic import CandidateGrid

runner = CliRunner()
app = typer.Typer()
app.command()(explain)
app.command(name="noop")(lambda: None)  # two commands, so the command name is part of the call as in main.py

EASY = sample_lines("17clue_sample.txt")[0]
HARD = sample_lines("multisolution_sample.txt")[0]  # logic cannot finish a grid with several solutions


def test_explain_prints_one_sentence_a_step():
    result = runner.invoke(app, ["explain", EASY])
    assert result.exit_code == 0
    lines = result.stdout.splitlines()
    assert lines[0].startswith("r") and "(hidden single)" in lines[0]
    assert "steps" in result.stderr


def test_explain_json_has_one_object_a_step():
    result = runner.invoke(app, ["explain", EASY, "--format", "json"])
    records = [json.loads(line) for line in result.stdout.splitlines()]
    assert records[0]["step"] == 1 and records[0]["technique"] == "Hidden Single"
    assert records[-1]["step"] == len(records)


def test_explain_stops_with_a_stalled_line_unless_guessing():
    stalled = runner.invoke(app, ["explain", HARD]).stdout.splitlines()
    assert stalled[-1].startswith("no technique applies")
    guessed = runner.invoke(app, ["explain", HARD, "--guess"]).stdout
    assert "so guess" in guessed and "no technique applies:" not in guessed


def test_explain_reads_pencil_marks():
    marks = CandidateGrid.parse(EASY).to_pencilmarks()
    result = runner.invoke(app, ["explain", marks])
    assert result.exit_code == 0 and result.stdout.strip()


def test_explain_a_file_heads_each_puzzle(tmp_path):
    path = tmp_path / "p.txt"
    path.write_text(f"{EASY}\n{EASY}\n")
    lines = runner.invoke(app, ["explain", str(path)]).stdout.splitlines()
    assert lines[0] == "# line 1" and "# line 2" in lines
