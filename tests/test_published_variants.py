"""Published variant puzzles against their published solutions (issue 14).

The other variant tests check the engines against each other and against the rules; these check them against
someone else's answers: 184 jigsaw puzzles published by janko.at with the solutions it publishes (9x9 and 8x8
Chaos-Sudoku, and 6x6 ones whose long diagonals are units too). Every puzzle must have exactly one solution under
its variant, and it must be the published one, through the library's file reader, the compiled engine, the
reference engine (on a few: it is slow) and the command line.
"""

import pytest
from typer.testing import CliRunner

import bitdoku
from bitdoku.cli.main import app
from bitdoku.data import sample_lines, sample_path

SETS = [("jigsaw_janko_9x9", "jigsaw", 133), ("jigsaw_janko_8x8", "jigsaw", 36),
        ("jigsaw_x_janko_6x6", "jigsaw+x", 15)]


def published(name: str, variant: str) -> list[tuple[bitdoku.Grid, str]]:
    """The puzzles of a shipped set with their published solutions (one solution line a puzzle, same order)."""
    puzzles = list(bitdoku.read_puzzles(sample_path(f"{name}.txt"), variant=variant))
    solutions = sample_lines(f"{name}_solutions.txt")
    assert len(puzzles) == len(solutions)
    return list(zip(puzzles, solutions, strict=True))


@pytest.mark.parametrize(("name", "variant", "count"), SETS)
def test_every_published_puzzle_has_exactly_its_published_solution(name, variant, count):
    pairs = published(name, variant)
    assert len(pairs) == count
    for puzzle, solution in pairs:
        result = bitdoku.search(puzzle, limit=2)
        assert result.count == 1, puzzle
        assert result.solutions[0].to_line() == solution


@pytest.mark.parametrize(("name", "variant", "count"), SETS)
def test_the_reference_engine_finds_the_published_solutions_too(name, variant, count):
    for puzzle, solution in published(name, variant)[: 1 if count > 100 else 3]:  # a 9x9 jigsaw takes it seconds
        result = bitdoku.search(puzzle, limit=2, engine="reference")
        assert result.count == 1
        assert result.solutions[0].to_line() == solution


def test_the_diagonal_rule_is_what_makes_the_six_by_six_set_unique():
    """Read as plain jigsaws, janko's 6x6 diagonal puzzles have more than one solution: the X rule is real."""
    plain = list(bitdoku.read_puzzles(sample_path("jigsaw_x_janko_6x6.txt"), variant="jigsaw"))
    assert all(bitdoku.count_solutions(puzzle, limit=2) == 2 for puzzle in plain)


@pytest.mark.parametrize(("name", "variant", "count"), SETS)
def test_the_command_line_prints_the_published_solutions(name, variant, count):
    path = str(sample_path(f"{name}.txt"))
    result = CliRunner().invoke(app, ["solve", "--variant", variant, "--format", "line", path])
    assert result.exit_code == 0, result.output
    lines = [line for line in result.output.splitlines() if line and not line.startswith(("#", "puzzles", "bitdoku:"))]
    assert lines == sample_lines(f"{name}_solutions.txt")
