"""Generating Killers: unique by the engine and by an independent counter, cages well formed, seeded, on the CLI."""

from __future__ import annotations

import json

import numpy as np
import pytest
from typer.testing import CliRunner

import bitdoku
from bitdoku import Grid
from bitdoku.cli.exit_codes import ExitCode
from bitdoku.cli.main import app
from bitdoku.generate import generate_many
from bitdoku.generate.killer import (
    KILLER_LEVELS,
    _partition,
    _puzzle,
    generate_killer,
    generate_killers,
    killer_features,
    killer_level,
)

runner = CliRunner()


def count_killer_solutions(puzzle: Grid, limit: int = 2) -> int:
    """A Killer's solutions, up to ``limit``, by plain depth-first search that shares nothing with the
    generator or the kernel: a cell may take a digit that no row, column, box or cage mate holds and with which
    its cage's total is still reachable; the open cell with the fewest such digits goes first."""
    n, size = puzzle.n, puzzle.shape.n_cells
    box_rows, box_cols = puzzle.shape.box_rows, puzzle.shape.box_cols
    cells = list(puzzle.cells)
    cage_of = {cell: cage for cage in puzzle.cages for cell in cage.cells}

    def box(cell: int) -> tuple[int, int]:
        return cell // n // box_rows, cell % n // box_cols

    mates = [{other for other in range(size) if other != cell and (other // n == cell // n or other % n == cell % n
                                                                   or box(other) == box(cell))}
             | (set(cage_of[cell].cells) - {cell} if cell in cage_of else set()) for cell in range(size)]

    def reachable(cell: int, digit: int) -> bool:
        cage = cage_of.get(cell)
        if cage is None or cage.total is None:
            return True
        placed = [cells[other] for other in cage.cells if cells[other] and other != cell] + [digit]
        left = len(cage.cells) - len(placed)
        free = sorted(set(range(1, n + 1)) - set(placed))
        lowest = sum(placed) + sum(free[:left])
        highest = sum(placed) + sum(free[len(free) - left:] if left else [])
        return lowest <= cage.total <= highest

    def options(cell: int) -> list[int]:
        taken = {cells[other] for other in mates[cell]}
        return [digit for digit in range(1, n + 1) if digit not in taken and reachable(cell, digit)]

    def count() -> int:
        open_cells = [cell for cell in range(size) if not cells[cell]]
        if not open_cells:
            return 1
        cell, digits = min(((cell, options(cell)) for cell in open_cells), key=lambda pair: len(pair[1]))
        found = 0
        for digit in digits:
            cells[cell] = digit
            found += count()
            cells[cell] = 0
            if found >= limit:
                break
        return min(found, limit)

    return count()


def assert_well_formed(puzzle: Grid, solution: Grid, max_cage: int = 6) -> None:
    """Cages cover every cell once, are connected, hold 1..max_cage cells of different digits, sum right."""
    n = puzzle.n
    assert puzzle.variant == "killer" and solution.is_solved()
    covered = sorted(cell for cage in puzzle.cages for cell in cage.cells)
    assert covered == list(range(puzzle.shape.n_cells))
    assert [cage.cells[0] for cage in puzzle.cages] == sorted(cage.cells[0] for cage in puzzle.cages)
    for cage in puzzle.cages:
        assert 1 <= len(cage.cells) <= max_cage and list(cage.cells) == sorted(cage.cells)
        digits = [solution.cells[cell] for cell in cage.cells]
        assert len(set(digits)) == len(digits) and cage.total == sum(digits)
        reached, todo = {cage.cells[0]}, [cage.cells[0]]
        while todo:
            row, col = divmod(todo.pop(), n)
            for other in ((row - 1) * n + col, (row + 1) * n + col, row * n + col - 1, row * n + col + 1):
                near = abs(other // n - row) + abs(other % n - col) == 1
                if near and other in cage.cells and other not in reached:
                    reached.add(other)
                    todo.append(other)
        assert reached == set(cage.cells), f"cage {cage} is not connected"
    assert all(given in (0, digit) for given, digit in zip(puzzle.cells, solution.cells, strict=True))


def test_the_independent_counter_agrees_with_the_engine_on_random_layouts_unique_or_not():
    rng = np.random.default_rng(5)
    counts = set()
    for seed in range(12):
        shape = "2x2" if seed % 2 else "2x3"
        solution = bitdoku.generate.random_solution(shape, seed=seed)
        digits = list(solution.cells)
        layout = _partition(digits, solution.n, rng, 2.0 if seed % 3 else 3.5, 4)
        puzzle = _puzzle(bytes(solution.shape.n_cells), solution.shape, digits, layout)
        engine = bitdoku.search(puzzle, limit=3).count
        assert count_killer_solutions(puzzle, limit=3) == engine
        counts.add(min(engine, 2))
    assert counts == {1, 2}  # both kinds were checked


@pytest.mark.parametrize("shape, count", [("2x2", 12), ("2x3", 8)])
def test_small_killers_are_unique_by_the_engine_and_by_the_independent_counter(shape: str, count: int):
    for made in generate_killers(count, shape, seed=3, threads=1):
        puzzle = made.puzzle
        assert puzzle.givens == 0
        assert_well_formed(puzzle, made.solution, max_cage=min(6, puzzle.n))
        result = bitdoku.search(puzzle, limit=2)
        assert result.status.value == "unique" and result.solution == made.solution
        assert count_killer_solutions(puzzle) == 1


def test_9x9_killers_are_unique_well_formed_and_have_no_givens():
    for made in generate_killers(6, "3x3", seed=21, threads=2):
        assert made.puzzle.givens == 0
        assert_well_formed(made.puzzle, made.solution)
        result = bitdoku.search(made.puzzle, limit=2)
        assert result.status.value == "unique" and result.solution == made.solution


def test_a_9x9_killer_with_givens_is_unique_by_the_independent_counter_too():
    made = next(generate_killers(1, "3x3", seed=4, givens=30))
    assert made.puzzle.givens == 30
    assert_well_formed(made.puzzle, made.solution)
    assert count_killer_solutions(made.puzzle) == 1 and bitdoku.is_unique(made.puzzle)


@pytest.mark.parametrize("givens", [1, 5, 16])
def test_givens_n_gives_n_givens_from_the_solution(givens: int):
    made = next(generate_killers(1, "2x2", seed=givens, givens=givens))
    assert made.puzzle.givens == givens
    assert_well_formed(made.puzzle, made.solution, max_cage=4)
    assert count_killer_solutions(made.puzzle) == 1


def test_max_cage_bounds_every_cage():
    for made in generate_killers(3, "2x3", seed=8, max_cage=3, threads=1):
        assert_well_formed(made.puzzle, made.solution, max_cage=3)
        assert count_killer_solutions(made.puzzle) == 1


def test_the_same_seed_gives_the_same_killers_on_any_number_of_threads():
    one = [made.puzzle for made in generate_killers(6, "3x3", seed=17, threads=1)]
    two = [made.puzzle for made in generate_killers(6, "3x3", seed=17, threads=2)]
    assert one == two and len(set(one)) == 6
    assert generate_killer("3x3", seed=17) == one[0]
    assert [made.puzzle for made in generate_killers(6, "3x3", seed=17, start=4)] == one[4:]
    assert generate_killer("3x3", seed=18) != one[0]


@pytest.mark.parametrize("level", KILLER_LEVELS[:3])
def test_a_difficulty_gives_a_killer_of_that_level(level: str):
    puzzle = generate_killer("3x3", seed=2, difficulty=level)
    assert killer_level(puzzle) == level
    features = killer_features(puzzle)
    assert features.cages == len(puzzle.cages) and features.mean_size == 81 / len(puzzle.cages)


def test_the_levels_follow_the_proof_nodes_and_the_mean_cage_size():
    easy = generate_killer("2x3", seed=1, difficulty="easy")
    assert killer_features(easy).nodes == 1 and killer_features(easy).mean_size <= 2.75
    hard = generate_killer("2x3", seed=1, difficulty="hard")
    assert killer_features(hard).mean_size > killer_features(easy).mean_size


def test_generate_and_generate_many_take_the_killer_variant():
    puzzle = bitdoku.generate("2x3", seed=9, variant="killer", clues=4, difficulty="medium")
    assert puzzle.variant == "killer" and puzzle.givens == 4 and bitdoku.is_unique(puzzle)
    made = list(generate_many(3, "2x2", seed=9, variant="killer", threads=2))
    assert [m.index for m in made] == [0, 1, 2]
    assert all(m.puzzle.variant == "killer" and bitdoku.is_unique(m.puzzle) for m in made)
    assert made[0].puzzle == generate_killer("2x2", seed=9)


@pytest.mark.parametrize("arguments, message", [
    ({"difficulty": "beyond logic"}, "unknown Killer difficulty"),
    ({"givens": 82}, "0 to 81 givens"),
    ({"max_cage": 1}, "from 2 to 9"),
    ({"shape": "5x5"}, "up to 16x16"),
    ({"shape": "2x2", "difficulty": "hard"}, "4x4 Killers are easy"),
    ({"time_limit": 0}, "positive number of seconds"),
])
def test_requests_that_cannot_work_are_refused_with_the_reason(arguments: dict[str, object], message: str):
    with pytest.raises(ValueError, match=message):
        generate_killer(**arguments)  # type: ignore[arg-type]


def test_classic_options_are_refused_for_killers():
    with pytest.raises(ValueError, match="symmetry shapes a classic puzzle"):
        bitdoku.generate(variant="killer", symmetry="rotational")
    with pytest.raises(ValueError, match="minimal and distinct"):
        next(generate_many(2, variant="killer", minimal=True, distinct=True))


def test_a_spent_budget_says_what_was_asked():
    with pytest.raises(bitdoku.GenerationLimitError, match="9x9 Killer, level extreme"):
        generate_killer("3x3", seed=1, difficulty="extreme", max_nodes=50)


def invoke(*args: str):
    return runner.invoke(app, ["generate", "--variant", "killer", *args])


def test_the_cli_writes_killer_lines_that_parse_back_unique():
    result = invoke("-n", "4", "--seed", "5")
    assert result.exit_code == 0, result.stderr
    lines = result.stdout.splitlines()
    assert len(lines) == 4 and "generated 4 puzzles" in result.stderr and "cages" in result.stderr
    for line in lines:
        puzzle = Grid.parse(line, variant="killer")
        assert puzzle.givens == 0 and bitdoku.is_unique(puzzle) and puzzle.to_killer_line() == line
    assert invoke("-n", "4", "--seed", "5", "-j", "1").stdout == result.stdout


def test_the_cli_takes_shape_givens_difficulty_and_json():
    result = invoke("--shape", "2x3", "-n", "2", "--seed", "1", "--givens", "3", "--difficulty", "medium",
                    "-f", "json")
    assert result.exit_code == 0, result.stderr
    for line in result.stdout.splitlines():
        record = json.loads(line)
        puzzle = Grid.parse(record["puzzle"], variant="killer")
        assert puzzle.givens == record["givens"] == 3 and record["level"] == "medium" and record["seed"] == 1
        assert count_killer_solutions(puzzle) == 1


@pytest.mark.parametrize("arguments, message", [
    (["--difficulty", "beyond-logic"], "unknown Killer difficulty"),
    (["--symmetry", "rotational"], "symmetry shapes a classic"),
    (["--givens", "100"], "0 to 81 givens"),
    (["--shape", "8x8"], "up to 16x16"),
    (["--givens", "2", "--clues", "3"], "give one of them"),
])
def test_the_cli_reports_a_bad_request_in_one_sentence(arguments: list[str], message: str):
    result = invoke(*arguments)
    assert result.exit_code == ExitCode.USAGE and message in result.stderr
    assert "Traceback" not in result.stderr and result.stdout == ""


def test_the_cli_says_when_the_budget_is_spent():
    result = invoke("--difficulty", "extreme", "--max-nodes", "50", "--seed", "1")
    assert result.exit_code == ExitCode.LIMIT and "found no unique 9x9 Killer" in result.stderr
    assert "Traceback" not in result.stderr


def test_givens_without_killer_is_refused():
    result = runner.invoke(app, ["generate", "--givens", "3"])
    assert result.exit_code == ExitCode.USAGE and "--givens is for Killers" in result.stderr
