from collections import Counter

import pytest

from bitdoku import Grid
from bitdoku.data import sample_lines
from bitdoku.errors import InvalidGridError, SearchLimitError
from bitdoku.logic import CandidateGrid, explain, rate
from bitdoku.logic.explain import CLASSIC_LADDER
from bitdoku.logic.rating import DIFFICULTY, LEVELS, rating_of


@pytest.mark.parametrize("name", ["17clue_sample.txt", "top1465_sample.txt", "valid_edgecases.txt"])
def test_rate_counts_the_same_steps_as_explain(name):
    for line in sample_lines(name)[:12]:
        expected = Counter(step.technique for step in explain(line, guess=True, ladder=CLASSIC_LADDER))
        rating = rate(line, scale="bitdoku")
        assert rating.counts == dict(expected)
        assert rating.steps == sum(expected.values())


def test_levels_follow_the_hardest_technique():
    edge = sample_lines("valid_edgecases.txt")
    for scale in ("se", "bitdoku"):
        assert rate(edge[0], scale=scale) == rate(Grid.parse(edge[0]), scale=scale)
        assert rate(edge[0], scale=scale).level == "easy" and rate(edge[0], scale=scale).score == 0.0  # solved
        assert rate(edge[2], scale=scale).level == "easy"
    for line in sample_lines("famous.txt"):
        rating = rate(line, scale="bitdoku")
        assert rating.level == "beyond logic" and rating.hardest == "Guess" and rating.score > 10
    hardest = rate(sample_lines("famous.txt")[7])  # solved by logic on the SE scale: nested forcing chains
    assert hardest.level == "extreme" and hardest.score >= 9.5 and "Guess" not in hardest.counts
    several = rate(sample_lines("multisolution_sample.txt")[0])  # logic cannot finish: a guess
    assert several.level == "beyond logic" and several.score == 10.0


def test_every_technique_has_a_weight_and_levels_rise_with_it():
    assert {rung.technique for rung in CLASSIC_LADDER} | {"Guess"} == set(DIFFICULTY)
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
    for scale in ("se", "bitdoku"):
        assert rate(line, scale=scale) == rate(line, scale=scale)
        assert rate(CandidateGrid.parse(line).to_pencilmarks(), scale=scale).hardest == rate(line, scale=scale).hardest


#: Ratings of the first release (``scale="bitdoku"``), computed by it before the SE scale was added: they must not
#: change. (file, line, score, level, hardest, steps)
FIRST_RELEASE = [
    ("17clue_sample.txt", 0, 1.2, "easy", "Hidden Single", 64),
    ("17clue_sample.txt", 3, 1.5, "easy", "Naked Single", 64),
    ("top1465_sample.txt", 0, 10.0759, "beyond logic", "Guess", 88),
    ("top1465_sample.txt", 1, 2.2733, "medium", "Hidden Pair", 85),
    ("top1465_sample.txt", 2, 2.2663, "medium", "Hidden Pair", 77),
    ("top1465_sample.txt", 3, 1.7525, "medium", "Locked Candidates (Pointing)", 70),
    ("hardest_sample.txt", 1, 10.06, "beyond logic", "Guess", 64),
    ("hardest_sample.txt", 3, 10.0739, "beyond logic", "Guess", 77),
]


@pytest.mark.parametrize(("name", "index", "score", "level", "hardest", "steps"), FIRST_RELEASE)
def test_the_bitdoku_scale_is_unchanged(name, index, score, level, hardest, steps):
    rating = rate(sample_lines(name)[index], scale="bitdoku")
    assert (rating.score, rating.level, rating.hardest, rating.steps, rating.scale) == (
        score, level, hardest, steps, "bitdoku")
    assert set(rating.to_dict()) == {"score", "level", "hardest", "counts", "steps", "scale"}


def test_se_rating_record_and_unknown_scale():
    rating = rate(sample_lines("top1465_sample.txt")[3])
    record = rating.to_dict()
    assert set(record) == {"score", "level", "hardest", "counts", "steps", "scale", "difficulties"}
    assert record["scale"] == "se" and sum(record["counts"].values()) == record["steps"]
    assert list(record["difficulties"].values()) == sorted(record["difficulties"].values())
    assert record["difficulties"][record["hardest"]] == record["score"]
    with pytest.raises(ValueError, match="unknown rating scale"):
        rate(sample_lines("top1465_sample.txt")[3], scale="hodoku")


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
    for scale in ("se", "bitdoku"):
        complete = rate(hard, scale=scale)
        assert complete.steps > 3 and rate(hard, max_steps=10_000, scale=scale) == complete
        with pytest.raises(StepLimitError, match="solving stopped after 3 steps beyond singles"):
            rate(hard, max_steps=3, scale=scale)
    assert default_max_steps(Grid.empty("8x8").shape) == 48  # an empty 64x64 grid stops within a minute


def test_a_guess_whose_search_spends_max_nodes_is_a_search_limit():
    """The empty grid has no logic step: its guess needs a search, which the budget stops (the fuzzer found a
    variant grid whose search took 83 s with no way to bound it)."""
    for scale in ("se", "bitdoku"):
        with pytest.raises(SearchLimitError):
            rate("." * 81, scale=scale, max_nodes=1)
    with pytest.raises(SearchLimitError):
        rate(Grid.parse("." * 81, variant="x"), max_nodes=1)


def test_bitdoku_rate_takes_max_nodes_and_says_limit():
    from typer.testing import CliRunner

    from bitdoku.cli.exit_codes import ExitCode
    from bitdoku.cli.main import app

    result = CliRunner().invoke(app, ["rate", "." * 81, "--max-nodes", "1"])
    assert result.exit_code == ExitCode.LIMIT
    assert result.stdout.strip() == "limit"


def test_the_uniqueness_check_waits_for_the_rungs_that_need_it(monkeypatch):
    """``rate`` counts solutions only when the solve first reaches a uniqueness or forcing rung, once, and rates as
    if the ladder had been chosen from the count at the start: the full ladder for a unique puzzle, the one
    without those rungs otherwise (the rungs before them are the same)."""
    from bitdoku.logic import rating, se
    from bitdoku.logic.rating import default_max_steps, se_rating_of

    asked: list[bool] = []
    real = rating._is_unique

    def counted(puzzle):
        asked.append(real(puzzle))
        return asked[-1]

    monkeypatch.setattr(rating, "_is_unique", counted)
    hard = "8..........36......7..9.2...5...7.......457.....1...3...1....68..85...1..9....4.."
    # the hard one minus a given: many solutions, and the solve gets to the uniqueness rungs before its guesses
    several = "....3.......6..8..........1....5..9..8....6...7.2........1.27..5.3....4.9........"
    for puzzle, ladder in ((hard, se.SE_LADDER), (several, se.SE_WITHOUT_UNIQUENESS)):
        asked.clear()
        grid = Grid.parse(puzzle)
        expected = se_rating_of(se.se_solve(grid, default_max_steps(grid.shape), ladder))
        assert rate(puzzle) == expected
        assert asked == [ladder is se.SE_LADDER]
    easy = 0
    for puzzle in sample_lines("17clue_sample.txt"):
        asked.clear()
        if rate(puzzle).score < 4.5:  # no rung from the uniqueness ones on was reached: never asked
            assert asked == []
            easy += 1
    assert easy > 0
