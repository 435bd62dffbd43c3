import json

from typer.testing import CliRunner

from bitdoku import Grid, count_solutions
from bitdoku.cli.exit_codes import ExitCode
from bitdoku.cli.main import app
from bitdoku.generate import has_symmetry
from bitdoku.generate.canon import canonical
from bitdoku.logic.rating import rate

runner = CliRunner()


def invoke(*args):
    return runner.invoke(app, ["generate", *args])


def test_generate_prints_one_unique_puzzle_and_the_seed_that_repeats_it():
    result = invoke()
    assert result.exit_code == 0
    (line,) = result.stdout.splitlines()
    assert count_solutions(line) == 1 and len(line) == 81
    seed = result.stderr.split("--seed ")[1].split()[0]
    assert invoke("--seed", seed).stdout == result.stdout


def test_the_same_seed_gives_the_same_lines_on_any_number_of_threads():
    one = invoke("-n", "12", "--seed", "7", "-j", "1")
    two = invoke("-n", "12", "--seed", "7", "-j", "2")
    assert one.exit_code == two.exit_code == 0
    assert one.stdout == two.stdout and len(set(one.stdout.splitlines())) == 12
    assert "generated 12 puzzles" in one.stderr and "seed 7" in one.stderr


def test_options_shape_symmetry_minimal_and_clues():
    result = invoke("--shape", "2x3", "-n", "4", "--seed", "3", "--symmetry", "diagonal", "--minimal")
    assert result.exit_code == 0
    for line in result.stdout.splitlines():
        puzzle = Grid.parse(line, shape="2x3")
        assert count_solutions(puzzle, engine="reference") == 1 and has_symmetry(puzzle, "diagonal")
    clued = invoke("-n", "2", "--seed", "3", "--clues", "28").stdout.splitlines()
    assert [Grid.parse(line).givens for line in clued] == [28, 28]


def test_json_lines_carry_solution_clues_rating_and_level():
    result = invoke("-n", "3", "--seed", "5", "-f", "json", "--difficulty", "medium")
    assert result.exit_code == 0
    for line in result.stdout.splitlines():
        record = json.loads(line)
        puzzle = Grid.parse(record["puzzle"])
        assert Grid.parse(record["solution"]).is_solution_of(puzzle)
        assert record["clues"] == puzzle.givens and record["level"] == "medium" == rate(puzzle).level
        assert record["rating"] == rate(puzzle).score and record["seed"] == 5 and record["minimal"] is True


def test_grid_format_and_rating_range():
    picture = invoke("--seed", "1", "-f", "grid").stdout
    assert "------+-------+------" in picture and count_solutions(Grid.parse(picture)) == 1
    ranged = invoke("-n", "3", "--seed", "2", "--rating", ":1.9")
    assert all(rate(line).score <= 1.9 for line in ranged.stdout.splitlines())


def test_distinct_runs_have_no_two_equivalent_puzzles():
    result = invoke("-n", "30", "--seed", "4", "--distinct")
    forms = {canonical(line).cells for line in result.stdout.splitlines()}
    assert result.exit_code == 0 and len(forms) == 30


def test_an_impossible_target_is_refused_at_once_with_a_usage_error():
    result = invoke("--clues", "10")
    assert result.exit_code == ExitCode.USAGE
    assert "no 9x9 puzzle with fewer than 17 clues has a unique solution" in result.stderr
    assert "Traceback" not in result.output


def test_a_target_out_of_reach_stops_at_the_budget_with_exit_code_4():
    result = invoke("--clues", "18", "--time-limit", "0.5", "--seed", "1")
    assert result.exit_code == ExitCode.LIMIT
    assert "found no unique 9x9 puzzle with 18 clues within 0.5 s" in result.stderr
    assert "the fewest clues reached was" in result.stderr and result.stdout == ""


def test_puzzles_made_before_a_failure_are_kept():
    result = invoke("--shape", "2x2", "-n", "3", "--difficulty", "extreme", "--time-limit", "0.2")
    assert result.exit_code == ExitCode.LIMIT and "levels seen" in result.stderr


def test_bad_option_values_are_usage_errors():
    assert invoke("--rating", "hard").exit_code == ExitCode.USAGE
    assert "MIN:MAX" in invoke("--rating", "hard").stderr
    assert invoke("--symmetry", "spiral").exit_code == ExitCode.USAGE
    assert invoke("--shape", "2x2", "--distinct", "-n", "2").exit_code == ExitCode.USAGE


def test_a_progress_bar_shows_on_a_terminal_and_not_in_a_pipe(monkeypatch):
    import io

    from rich.console import Console

    from bitdoku.cli import generate as command
    from bitdoku.generate import generate_many

    screen = io.StringIO()
    monkeypatch.setattr(command, "err_console", lambda: Console(file=screen, force_terminal=True, width=80))
    monkeypatch.setattr(command, "stderr_is_terminal", lambda: True)
    assert len(list(command._with_progress(generate_many(5, "2x2", seed=1), 5))) == 5
    assert "5/5" in screen.getvalue()
    piped = io.StringIO()
    monkeypatch.setattr(command, "err_console", lambda: Console(file=piped, force_terminal=False))
    monkeypatch.setattr(command, "stderr_is_terminal", lambda: False)
    assert len(list(command._with_progress(generate_many(5, "2x2", seed=1), 5))) == 5
    assert piped.getvalue() == ""
