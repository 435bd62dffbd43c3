"""Every strategy and parallel mode gives the reference engine's counts, on classic and Killer grids; solve mode
stops early."""

import time

import numpy as np
import pytest
from hypothesis import given, settings

from bitdoku import Grid, Shape, Status, search
from bitdoku.parallel.run import STRATEGIES, search_tree
from bitdoku.parallel.strategies import run_bfs
from bitdoku.parallel.tree import Tally, Tree
from tests.constraints.test_killer import keeps_every_cage, killers, reference_count
from tests.strategies import puzzles

# Kept 20 givens of the demo grid's solution: 2,058,658 solutions, about a second of compiled search.
BIG_TREE = "..2...6..9.......5.75.9......4237..........2....1.9....2.....68..8........6.....2"
PARALLEL = ("pt_dfs", "pt_mix", "farm")


@pytest.mark.parametrize("strategy", STRATEGIES)
@settings(max_examples=40)
@given(puzzle=puzzles(shapes=[Shape(2, 2), Shape(2, 3), Shape(3, 2)]))
def test_counts_match_the_reference_engine(strategy, puzzle):
    expected = search(puzzle, limit=50, keep=0, engine="reference", max_nodes=2_000_000)
    result = search(puzzle, limit=50, keep=3, strategy=strategy, threads=2)
    assert (result.status, result.count) == (expected.status, expected.count)
    assert all(solution.is_solution_of(puzzle) for solution in result.solutions)


@pytest.mark.parametrize("strategy", STRATEGIES)
def test_empty_4x4_has_288_solutions_in_every_strategy(strategy):
    result = search(Grid.empty("2x2"), limit=10**6, keep=0, strategy=strategy, threads=2)
    assert (result.status, result.count) == (Status.MULTIPLE, 288)


@pytest.mark.parametrize("strategy", ("mixed", *PARALLEL))
def test_a_big_tree_is_counted_the_same_way_as_by_dfs(strategy):
    expected = search(BIG_TREE, limit=10**9, keep=0)
    result = search(BIG_TREE, limit=10**9, keep=0, strategy=strategy, threads=2)
    assert result.count == expected.count == 2_058_658


@pytest.mark.parametrize("strategy", PARALLEL)
def test_small_slices_split_the_tree_without_changing_the_count(strategy):
    result = search_tree(Grid.parse(BIG_TREE), strategy=strategy, limit=10**9, keep=0, max_nodes=10**9,
                         threads=2, slice_nodes=5_000)
    assert result.count == 2_058_658


@pytest.mark.parametrize("strategy", ("mixed", *PARALLEL))
def test_solve_mode_returns_a_valid_solution_and_stops_early(strategy):
    puzzle = Grid.parse(BIG_TREE)
    counted = search(puzzle, limit=10**9, keep=0, strategy=strategy, threads=2)
    solved = search(puzzle, limit=1, strategy=strategy, threads=2)
    assert solved.status is Status.SOLVED and solved.solution.is_solution_of(puzzle)
    assert solved.stats.nodes * 100 < counted.stats.nodes  # stopped long before the end


@pytest.mark.parametrize("strategy", STRATEGIES)
def test_the_node_budget_is_global(strategy):
    result = search(BIG_TREE, limit=10**9, keep=0, strategy=strategy, threads=2, max_nodes=50_000)
    assert result.status is Status.LIMIT and "50,000" in result.reason
    # a budget is checked between parts: it may be overrun by at most one slice per thread (or one BFS level)
    assert result.stats.nodes < 50_000 + 2 * 500_000


@pytest.mark.parametrize("strategy", STRATEGIES)
def test_invalid_and_unsolvable_puzzles(strategy):
    assert search("55" + "." * 79, strategy=strategy).status is Status.INVALID
    contradiction = "12345678." + "........9" + "." * 63
    assert search(contradiction, strategy=strategy).status is Status.NO_SOLUTION


@pytest.mark.parametrize("strategy", STRATEGIES)
@settings(max_examples=25, deadline=None)
@given(case=killers(givens=0.1))
def test_killer_counts_match_the_slow_reference_in_every_strategy(strategy, case):
    puzzle, _solution = case
    expected = reference_count(puzzle, limit=20)
    result = search(puzzle, limit=20, keep=3, strategy=strategy, threads=2)
    assert result.count == expected
    assert all(solution.variant == "killer" and keeps_every_cage(puzzle, solution) for solution in result.solutions)


@pytest.mark.parametrize("strategy", ("mixed", *PARALLEL))
def test_killer_parts_split_into_small_slices_still_add_up(strategy):
    sumless = Grid.parse("AABBCC" "DDEEFF" "GGHHII" "JJKKLL" "MMNNOO" "PPQQRR " + ",".join("-" * 18),
                         Shape(2, 3), variant="killer")
    expected = search(sumless, limit=10**6, keep=0)
    result = search_tree(sumless, strategy=strategy, limit=10**6, keep=0, max_nodes=10**9, threads=2,
                         slice_nodes=50)
    assert result.count == expected.count > 10_000
    solved = search(sumless, limit=1, strategy=strategy, threads=2)
    assert solved.status is Status.SOLVED and keeps_every_cage(sumless, solved.solution)


@pytest.mark.parametrize("strategy", STRATEGIES)
def test_killer_budgets_and_bad_cages_in_every_strategy(strategy):
    sumless = Grid.parse("AABB" "CCDD" "EEFF" "GGHH -,-,-,-,-,-,-,-", variant="killer")
    cut = search(sumless, limit=10**6, keep=0, strategy=strategy, threads=2, max_nodes=20)
    assert cut.status is Status.LIMIT and "20" in cut.reason
    broken = Grid.parse("AABB" "CCDD" "EEFF" "GGHH 3,7,3,7,3,7,3,7 1...............", variant="killer")
    assert search(broken, strategy=strategy).status in (Status.NO_SOLUTION, Status.INVALID)
    repeated = sumless.with_digit(0, 2).with_digit(1, 2)
    assert search(repeated, strategy=strategy).status is Status.INVALID


def test_bfs_holds_levels_and_stops_at_its_memory_bound(monkeypatch):
    from bitdoku.parallel import strategies

    monkeypatch.setattr(strategies, "MAX_FRONTIER", 10)
    tree, tally = Tree(Shape(2, 3)), Tally(limit=10**9, keep=0)
    assert not run_bfs(tree, np.zeros(36, np.uint8), tally, 10**9)


def test_unknown_strategy_and_engine_mismatch():
    with pytest.raises(ValueError, match="unknown strategy 'zigzag'"):
        search(BIG_TREE, strategy="zigzag")
    with pytest.raises(ValueError, match="runs on the bitmask engine"):
        search(BIG_TREE, strategy="bfs", engine="reference")


@pytest.mark.parametrize("strategy", ("pt_dfs", "pt_mix"))
def test_a_failing_worker_stops_the_others_and_raises_instead_of_hanging(strategy, monkeypatch):
    from bitdoku.parallel import threads

    calls = []

    def failing_work(*args):
        calls.append(1)
        if len(calls) == 3:
            raise RuntimeError("boom")
        return real_work(*args)

    real_work = threads.work
    monkeypatch.setattr(threads, "work", failing_work)
    raised = []

    def run() -> None:
        try:
            search(BIG_TREE, limit=10**9, keep=0, strategy=strategy, threads=2)
        except RuntimeError as error:
            raised.append(error)

    import threading

    runner = threading.Thread(target=run, daemon=True)
    runner.start()
    runner.join(timeout=60)
    assert not runner.is_alive(), "the search hung after a worker failed"
    assert [str(error) for error in raised] == ["boom"]


@settings(max_examples=40)
@given(puzzle=puzzles(shapes=[Shape(2, 2), Shape(2, 3), Shape(3, 2)]))
def test_the_portfolio_finds_a_solution_exactly_when_one_exists(puzzle):
    expected = search(puzzle, limit=1, engine="reference", max_nodes=2_000_000)
    result = search(puzzle, limit=1, strategy="portfolio", threads=2)
    assert result.status is expected.status
    assert all(solution.is_solution_of(puzzle) for solution in result.solutions)
    assert len(result.solutions) == result.count


@pytest.mark.parametrize("name", ["unique16x16_sample.txt", "unique25x25_sample.txt"])
def test_the_portfolio_solves_big_grids(name):
    from bitdoku.data import sample_lines

    for line in sample_lines(name)[:4]:
        puzzle = Grid.parse(line)
        result = search(puzzle, limit=1, strategy="portfolio", threads=2)
        assert result.status is Status.SOLVED and result.solution.is_solution_of(puzzle)
        assert result.stats.nodes >= 1


def test_the_portfolio_keeps_to_the_node_budget():
    puzzle = Grid.empty("5x5")
    result = search(puzzle, limit=1, strategy="portfolio", threads=2, max_nodes=20)
    assert result.status is Status.LIMIT and result.stats.nodes <= 20


def test_portfolio_members_search_differently_and_obey_the_stop_flag():
    from bitdoku.kernels import status as codes

    tree = Tree(Shape(5, 5))
    root = np.zeros(625, np.uint8)
    assert tree.has_restarts and not Tree(Shape(3, 3)).has_restarts
    alone = [tree.first_solution(root, seed, 10**6, np.zeros(1, np.int64)) for seed in (1, 2)]
    assert all(status == codes.LIMIT_REACHED for status, _, _ in alone)
    assert not np.array_equal(alone[0][1], alone[1][1])  # another seed, another search
    _, _, stats = tree.first_solution(root, 1, 10**6, np.ones(1, np.int64))
    assert stats[codes.STAT_RESTARTS] == 0  # a set stop flag: no run after the first


@pytest.mark.parametrize("strategy", STRATEGIES)
def test_a_time_limit_stops_every_strategy_soon_and_says_so(strategy):
    # Counting every 9x9 grid would take hours; 0.2 s of it must end well within a few seconds.
    start = time.perf_counter()
    result = search("." * 81, limit=10**15, keep=0, strategy=strategy, threads=2, time_limit=0.2)
    assert time.perf_counter() - start < 5.0
    assert result.status is Status.LIMIT and result.time_limit == 0.2
    assert result.reason.startswith("time limit of 0.2 s reached after ")


@pytest.mark.parametrize("strategy", STRATEGIES)
def test_a_time_limit_that_is_not_reached_changes_no_count(strategy):
    result = search(Grid.empty("2x2"), limit=10**6, keep=0, strategy=strategy, threads=2, time_limit=600)
    assert (result.status, result.count, result.time_limit) == (Status.MULTIPLE, 288, None)


def test_the_portfolio_stops_at_its_time_limit_on_a_big_grid():
    result = search(Grid.empty("7x7"), limit=1, strategy="portfolio", threads=2, time_limit=0)
    assert result.status is Status.LIMIT and result.time_limit == 0
