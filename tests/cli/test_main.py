import json

import pytest
from typer.testing import CliRunner

from bitdoku import Grid
from bitdoku.cli.exit_codes import ExitCode
from bitdoku.cli.main import app
from bitdoku.data import DEMO, DEMO_SOLUTION, sample_path

runner = CliRunner()
SMALL = "..3." ".4.2" "21.." "...."
SMALL_SOLUTION = "1234341221434321"


def invoke(*args, input=None):
    return runner.invoke(app, list(args), input=input)


def test_solve_without_argument_solves_the_demo_as_a_picture_with_the_time():
    result = invoke("solve")
    assert result.exit_code == 0
    assert Grid.parse(result.stdout) == Grid.parse(DEMO_SOLUTION)
    assert "------+-------+------" in result.stdout
    assert "unique solution in" in result.stderr and "nodes" in result.stderr


def test_solve_one_puzzle_in_each_format():
    assert invoke("solve", SMALL, "--format", "line").stdout.strip() == SMALL_SOLUTION
    record = json.loads(invoke("solve", SMALL, "-f", "json").stdout)
    assert record["status"] == "unique" and record["solution"] == SMALL_SOLUTION and record["nodes"] > 0
    assert Grid.parse(invoke("solve", SMALL).stdout) == Grid.parse(SMALL_SOLUTION)


def test_solve_a_file_streams_one_line_per_puzzle_in_order(tmp_path):
    path = tmp_path / "p.txt"
    path.write_text(f"# two puzzles\n{SMALL}\n{DEMO}\n")
    result = invoke("solve", str(path))
    assert result.exit_code == 0
    assert result.stdout.splitlines() == [SMALL_SOLUTION, DEMO_SOLUTION]


def test_solve_from_stdin_and_statuses_for_unsolved_lines():
    nosolution = sample_path("nosolution_sample.txt").read_text().splitlines()[0]
    result = invoke("solve", "-", input=f"{SMALL}\n{nosolution}\n{'55' + '.' * 79}\n")
    assert result.stdout.splitlines() == [SMALL_SOLUTION, "no-solution", "invalid"]
    assert result.exit_code == ExitCode.INVALID_GRID


def test_bad_line_stops_with_file_line_and_cell_unless_lenient(tmp_path):
    path = tmp_path / "bad.txt"
    path.write_text(f"{SMALL}\n1.3x3...........\n{SMALL}\n")
    strict = invoke("solve", str(path))
    assert strict.exit_code == ExitCode.BAD_INPUT
    assert strict.stdout.splitlines() == [SMALL_SOLUTION]  # what was done before the error is kept
    assert f"bitdoku: error: {path}:2:4 (r1c4): unexpected character 'x'" in strict.stderr
    assert "Traceback" not in strict.output
    lenient = invoke("solve", str(path), "--lenient")
    assert lenient.stdout.splitlines() == [SMALL_SOLUTION, "error", SMALL_SOLUTION]
    assert "bitdoku: skipped:" in lenient.stderr and lenient.exit_code == ExitCode.BAD_INPUT


@pytest.mark.parametrize(
    ("args", "code", "message"),
    [
        (["solve", DEMO[:-1]], ExitCode.BAD_INPUT, "found 80 cells, which fits no grid"),
        (["solve", "55" + "." * 79], ExitCode.INVALID_GRID, "digit 5 appears twice in row 1 (r1c1, r1c2)"),
        (["solve", "missing.txt"], ExitCode.BAD_INPUT, "missing.txt: no such file"),
        (["solve", "." * 256, "--max-nodes", "10", "--format", "line"], ExitCode.LIMIT, "node budget of 10 spent"),
        (["count", "." * 256, "--max-nodes", "10", "--limit", "1000000"], ExitCode.LIMIT, "node budget of 10 spent"),
        (["solve", SMALL, "--shape", "nine"], ExitCode.BAD_INPUT, "like '3x3'"),
        (["solve", SMALL, "--engine", "warp"], ExitCode.USAGE, "warp"),
    ],
)
def test_errors_are_one_sentence_with_documented_exit_codes(args, code, message):
    result = invoke(*args)
    assert result.exit_code == code, result.output
    assert message in result.stderr
    assert "Traceback" not in result.output


def test_debug_shows_the_traceback():
    result = invoke("--debug", "solve", DEMO[:-1])
    assert result.exit_code != 0 and result.exception is not None


def test_count_prints_counts_and_marks_the_limit():
    assert invoke("count", "." * 16).stdout.strip() == "288"
    assert invoke("count", "." * 16, "--limit", "100").stdout.strip() == "100+"
    record = json.loads(invoke("count", "." * 16, "--limit", "100", "-f", "json").stdout)
    assert record["count"] == 100 and record["exact"] is False


def test_check_reports_validity_and_uniqueness():
    assert invoke("check", SMALL).stdout.strip() == "4x4 grid, 5 givens: valid, unique solution"
    multi = invoke("check", "1" + "." * 15)
    assert "more than one solution" in multi.stdout and multi.exit_code == ExitCode.NO_SOLUTION
    report = invoke("check", str(sample_path("duplicate_givens.txt")))
    assert report.stdout.splitlines()[0] == "invalid: digit 5 appears twice in box 5 (r4c6, r5c4)"
    assert report.exit_code == ExitCode.INVALID_GRID


def test_version_and_help():
    assert invoke("--version").stdout.startswith("bitdoku ")
    assert "Exit codes" in invoke("--help").stdout


def test_a_file_ends_with_a_summary_and_threads_do_not_change_the_output(tmp_path):
    lines = sample_path("top1465_sample.txt").read_text().splitlines()
    path = tmp_path / "top.txt"
    path.write_text("\n".join(lines * 3) + "\n")
    one, two = invoke("solve", str(path), "--threads", "1"), invoke("solve", str(path), "-j", "2")
    assert one.stdout == two.stdout and len(one.stdout.splitlines()) == 90
    assert "puzzles 90: unique 90 |" in one.stderr and "puzzles/s" in one.stderr


def test_reference_engine_streams_a_file_too(tmp_path):
    path = tmp_path / "p.txt"
    path.write_text(f"{SMALL}\n{'55' + '.' * 79}\n")
    result = invoke("solve", str(path), "--engine", "reference")
    assert result.stdout.splitlines() == [SMALL_SOLUTION, "invalid"]


def test_bench_prints_a_verified_table(tmp_path):
    result = invoke("bench", str(sample_path("famous.txt")), "--repeat", "1", "--mode", "first")
    assert result.exit_code == 0, result.output
    header, _, row = result.stdout.splitlines()[:3]
    assert "µs/puzzle" in header and "no guess %" in header
    assert row.startswith("| famous.txt | 8 | first | 1 |") and "| solved 8 |" in row


def test_experiment_prints_the_table_and_writes_csv_json_png_svg(tmp_path):
    path = tmp_path / "tree.txt"
    path.write_text("." * 16 + "\n" + "1" + "." * 35 + "\n")
    out = tmp_path / "exp"
    result = invoke("experiment", str(path), "--modes", "seq,mixed,pt_dfs,farm", "--threads", "1,2", "--repeat", "1",
                    "--limit", "5000", "--out", str(out), "--print")
    assert result.exit_code == 0, result.output
    assert "| farm | 2 |" in result.stdout and "| mixed | 1 |" in result.stdout
    assert result.stdout.count("| 5,288 |") == 6  # 288 + the 5,000 limit for the 6x6 grid, in every mode
    assert all((tmp_path / f"exp.{suffix}").exists() for suffix in ("csv", "json", "png", "svg"))


def test_experiment_rejects_unknown_modes():
    result = invoke("experiment", str(sample_path("famous.txt")), "--modes", "seq,warp")
    assert result.exit_code == ExitCode.USAGE and "unknown mode warp" in result.output


def test_strategy_option_counts_the_same(tmp_path):
    assert invoke("count", "." * 16, "--strategy", "pt_mix", "-j", "2").stdout.strip() == "288"
    assert invoke("count", "." * 16, "-s", "bfs").stdout.strip() == "288"


@pytest.mark.parametrize(
    ("args", "expected"),
    [
        (["solve", "f.txt", "--cluster"], ["solve", "f.txt", "--cluster", "local"]),
        (["solve", "--cluster", "-j", "2", "f.txt"], ["solve", "--cluster", "local", "-j", "2", "f.txt"]),
        (["solve", "--cluster", "tcp://h:8786"], ["solve", "--cluster", "tcp://h:8786"]),
        (["solve", "f.txt"], ["solve", "f.txt"]),
    ],
)
def test_a_bare_cluster_option_means_local(args, expected):
    from bitdoku.cli.main import _with_default_cluster

    assert _with_default_cluster(args) == expected


def test_progress_shows_on_a_terminal_and_not_in_a_pipe(monkeypatch):
    import io

    from rich.console import Console

    from bitdoku.cli import runner

    screen = io.StringIO()
    monkeypatch.setattr(runner, "err_console", lambda: Console(file=screen, force_terminal=True, width=80))
    monkeypatch.setattr(runner, "stderr_is_terminal", lambda: True)
    with runner._progress(enabled=True) as advance:
        for _ in range(3):
            advance(1)
    assert "puzzles" in screen.getvalue()  # the live count was drawn
    piped = io.StringIO()
    monkeypatch.setattr(runner, "err_console", lambda: Console(file=piped, force_terminal=False))
    monkeypatch.setattr(runner, "stderr_is_terminal", lambda: False)
    with runner._progress(enabled=True) as advance:
        advance(1)
    assert piped.getvalue() == ""
