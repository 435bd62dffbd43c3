import json

import pytest

from bitdoku import Grid
from bitdoku.experiment import Measurement, format_table, plot_speedups, run_experiment, write_files

# 19 givens of the demo grid's solution: 470,812 solutions, a quarter of a second.
TREE = "..2...6..9.......5.75.9......4.37..........2.....69.....1.....84..5........3.8..."


def test_experiment_times_every_mode_and_degree_and_checks_agreement():
    puzzles = [Grid.parse(TREE), Grid.empty("2x2")]
    measurements = run_experiment(puzzles, ["seq", "mixed", "pt_mix", "farm"], [1, 2], repeat=2, limit=10**9)
    cells = [(m.mode, m.threads) for m in measurements]
    assert cells == [("seq", 1), ("mixed", 1), ("pt_mix", 1), ("pt_mix", 2), ("farm", 1), ("farm", 2)]
    assert {m.solutions for m in measurements} == {470_812 + 288}
    assert measurements[0].speedup == 1.0 and all(m.runs == 2 and m.min_seconds <= m.median_seconds
                                                  for m in measurements)


def test_disagreeing_modes_are_a_bug_not_a_result():
    def lying_runner(puzzle, mode, degree, limit, max_nodes):
        from bitdoku import search

        result = search(puzzle, limit=limit)
        return result if mode == "seq" else type(result)(result.status, result.count + 1)

    with pytest.raises(AssertionError, match="counted"):
        run_experiment([Grid.empty("2x2")], ["seq", "pt_mix"], [2], repeat=1, limit=10, runner=lying_runner)


def test_results_are_written_as_csv_json_and_plots(tmp_path):
    measurements = [Measurement("seq", 1, 1, 2.0, 2.0, 5, 10, 1.0), Measurement("farm", 1, 1, 2.0, 2.0, 5, 12, 1.0),
                    Measurement("farm", 2, 1, 1.1, 1.2, 5, 12, 1.82)]
    prefix = tmp_path / "run"
    paths = write_files(measurements, prefix) + plot_speedups(measurements, prefix, "test")
    assert [p.suffix for p in paths] == [".csv", ".json", ".png", ".svg"]
    assert json.loads(prefix.with_suffix(".json").read_text())[2]["speedup"] == 1.82
    assert prefix.with_suffix(".csv").read_text().splitlines()[0].startswith("mode,threads,runs")
    assert prefix.with_suffix(".png").read_bytes()[:4] == b"\x89PNG"
    assert "| farm | 2 | 1.100 | 1.200 | 1.82x | 5 | 12 |" in format_table(measurements)
