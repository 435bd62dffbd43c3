from collections import Counter

import pytest

from bitdoku import Grid
from bitdoku.data import sample_lines
from bitdoku.errors import InvalidGridError
from bitdoku.logic import CandidateGrid, explain, rate
from bitdoku.logic.explain import LADDER
from bitdoku.logic.rating import DIFFICULTY, LEVELS, rating_of


@pytest.mark.parametrize("name", ["17clue_sample.txt", "top1465_sample.txt", "valid_edgecases.txt"])
def test_rate_counts_the_same_steps_as_explain(name):
    for line in sample_lines(name)[:12]:
        expected = Counter(step.technique for step in explain(line, guess=True))
        rating = rate(line)
        assert rating.counts == dict(expected)
        assert rating.steps == sum(expected.values())


def test_levels_follow_the_hardest_technique():
    edge = sample_lines("valid_edgecases.txt")
    assert rate(edge[0]) == rate(Grid.parse(edge[0]))
    assert rate(edge[0]).level == "easy" and rate(edge[0]).score == 0.0  # already solved
    assert rate(edge[2]).level == "easy"
    for line in sample_lines("famous.txt"):
        rating = rate(line)
        assert rating.level == "beyond logic" and rating.hardest == "Guess" and rating.score > 10


def test_every_technique_has_a_weight_and_levels_rise_with_it():
    assert {rung.technique for rung in LADDER} | {"Guess"} == set(DIFFICULTY)
    by_weight = sorted(DIFFICULTY.values())
    levels = [LEVELS.index(level) for _, level in by_weight]
    assert levels == sorted(levels)


def test_score_is_the_hardest_weight_plus_a_small_term():
    rating = rating_of({"Hidden Single": 40, "X-Wing": 1, "Locked Candidates (Pointing)": 4})
    assert rating.hardest == "X-Wing" and rating.level == "hard"
    assert rating.score == pytest.approx(3.0 + 0.09 * 5 / 10)
    assert list(rating.counts) == ["Hidden Single", "Locked Candidates (Pointing)", "X-Wing"]


def test_rating_is_deterministic_and_takes_pencil_marks():
    line = sample_lines("top1465_sample.txt")[3]
    assert rate(line) == rate(line)
    assert rate(CandidateGrid.parse(line).to_pencilmarks()).hardest == rate(line).hardest


def test_invalid_and_unsolvable_puzzles_raise():
    with pytest.raises(InvalidGridError):
        rate("11" + "." * 79)
    with pytest.raises(InvalidGridError):
        rate(sample_lines("nosolution_sample.txt")[0])


def test_a_rating_past_its_step_budget_is_an_error_not_a_different_rating():
    import pytest

    from bitdoku import Grid
    from bitdoku.errors import StepLimitError
    from bitdoku.logic.rating import default_max_steps

    hard = "8..........36......7..9.2...5...7.......457.....1...3...1....68..85...1..9....4.."
    complete = rate(hard)
    assert complete.steps > 3 and rate(hard, max_steps=10_000) == complete
    with pytest.raises(StepLimitError, match="solving stopped after 3 steps beyond singles"):
        rate(hard, max_steps=3)
    assert default_max_steps(Grid.empty("8x8").shape) == 48  # an empty 64x64 grid stops within a minute
