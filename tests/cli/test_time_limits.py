"""``--time-limit`` on every command that searches or reasons (issue 16): a puzzle that runs out answers 'limit',
the ones after it go on, and the run ends with the budget exit code (4). A limit of 0 stops at the first branch
(or the first check of the clock), so nothing here depends on the machine's speed."""

import json
import time

from typer.testing import CliRunner

from bitdoku.cli.exit_codes import ExitCode
from bitdoku.cli.main import app
from bitdoku.data import DEMO, DEMO_SOLUTION, sample_lines

runner = CliRunner()
EMPTY_9X9 = "." * 81
ENDLESS = str(10**15)  # a count limit no search reaches: counting every 9x9 grid
EASY = sample_lines("17clue_sample.txt")[0]
HARD = sample_lines("top1465_sample.txt")[0]  # needs techniques beyond singles: the rater looks at the clock


def invoke(*args: str):
    return runner.invoke(app, list(args))


def test_solve_one_puzzle_over_its_limit_says_so_with_the_budget_exit_code():
    result = invoke("solve", EMPTY_9X9, "--time-limit", "0", "-f", "line")
    assert result.exit_code == ExitCode.LIMIT
    assert result.stdout.strip() == "limit"
    assert "no answer: time limit of 0 s reached after" in result.stderr


def test_a_limit_that_is_not_reached_changes_nothing():
    for command in (["solve", DEMO, "-f", "json"], ["count", DEMO], ["check", DEMO]):
        free, limited = invoke(*command), invoke(*command, "--time-limit", "60")
        assert limited.exit_code == free.exit_code == 0
        if command[0] == "solve":
            free_record, limited_record = json.loads(free.stdout), json.loads(limited.stdout)
            assert limited_record["solution"] == free_record["solution"] == DEMO_SOLUTION
            assert limited_record["nodes"] == free_record["nodes"]
        else:
            assert limited.stdout == free.stdout


def test_files_have_a_limit_per_puzzle_on_the_batch_path_and_the_per_puzzle_path(tmp_path):
    path = tmp_path / "p.txt"
    path.write_text(f"{DEMO}\n{EMPTY_9X9}\n{DEMO}\n")
    for extra in ([], ["-j", "1"], ["--per-puzzle"]):
        start = time.perf_counter()
        result = invoke("count", str(path), "--limit", ENDLESS, "--time-limit", "0.2", *extra)
        assert time.perf_counter() - start < 60
        assert result.stdout.splitlines() == ["1", "limit", "1"], extra
        assert result.exit_code == ExitCode.LIMIT
        assert "limit 1" in result.stderr  # the summary


def test_check_gives_the_reason_of_a_puzzle_its_limit_stopped(tmp_path):
    path = tmp_path / "p.txt"
    path.write_text(f"{EMPTY_9X9}\n")
    result = invoke("check", str(path), "--time-limit", "0")
    assert result.stdout.strip() == "limit: time limit of 0 s reached: 0 solutions found, 1 nodes"
    assert result.exit_code == ExitCode.LIMIT


def test_results_before_the_limit_are_kept_in_the_output_file(tmp_path):
    path, out = tmp_path / "p.txt", tmp_path / "out.txt"
    path.write_text(f"{DEMO}\n{EMPTY_9X9}\n")
    result = invoke("count", str(path), "--limit", ENDLESS, "--time-limit", "0.3", "-o", str(out))
    assert result.exit_code == ExitCode.LIMIT
    assert out.read_text().splitlines() == ["1", "limit"]


def test_explain_keeps_its_steps_and_ends_with_a_limit_line():
    result = invoke("explain", EASY, "--time-limit", "0")
    assert result.exit_code == ExitCode.LIMIT
    assert result.stdout.splitlines()[-1] == "limit: human-style solving stopped at its time budget of 0 s"
    free = invoke("explain", EASY)
    assert invoke("explain", EASY, "--time-limit", "600").stdout == free.stdout and free.exit_code == 0


def test_hint_and_rate_answer_limit_for_a_puzzle_over_its_limit_and_go_on(tmp_path):
    path = tmp_path / "p.txt"
    path.write_text(f"{HARD}\n{HARD}\n")
    hinted = invoke("hint", str(path), "--time-limit", "0")
    assert hinted.stdout.splitlines() == ["limit", "limit"] and hinted.exit_code == ExitCode.LIMIT
    rated = invoke("rate", str(path), "--time-limit", "0")
    assert rated.stdout.splitlines() == ["limit", "limit"] and rated.exit_code == ExitCode.LIMIT
    assert invoke("hint", str(path), "--time-limit", "600").stdout == invoke("hint", str(path)).stdout


def test_negative_limits_are_a_usage_error():
    result = invoke("solve", DEMO, "--time-limit", "-1")
    assert result.exit_code == ExitCode.USAGE


def test_a_parallel_strategy_keeps_the_limit_of_each_puzzle(tmp_path):
    path = tmp_path / "p.txt"
    path.write_text(f"{DEMO}\n{EMPTY_9X9}\n{DEMO}\n")
    result = invoke("count", str(path), "--limit", ENDLESS, "--strategy", "pt_mix", "-j", "2", "--time-limit", "0.2")
    assert result.exit_code == ExitCode.LIMIT
    assert result.stdout.splitlines() == ["1", "limit", "1"]
