"""A user's code, for ``mypy --strict`` (pyproject.toml's ``[tool.mypy] files``): every form of a puzzle is
accepted by the public signatures, and the results have the types a user relies on. Not run, only checked: a
public signature that narrows (takes ``Grid`` where ``Puzzle`` is promised) or loses its types fails CI's mypy."""

from __future__ import annotations

import numpy as np
from numpy.typing import NDArray

import bitdoku
from bitdoku.generate import has_symmetry, is_minimal, removable_clues
from bitdoku.generate.canon import canonical, canonical_many
from bitdoku.logic import CandidateGrid

LINE = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"


def every_form() -> list[bitdoku.Puzzle]:
    grid = bitdoku.Grid.parse(LINE)
    flat: NDArray[np.uint8] = grid.to_array().ravel()
    rows: list[list[int]] = flat.reshape(9, 9).tolist()
    return [grid, LINE, flat, rows, flat.tolist(), tuple(int(cell) for cell in flat)]


def one_puzzle_each_way() -> None:
    for puzzle in every_form():
        solution: bitdoku.Grid | None = bitdoku.solve(puzzle)
        count: int = bitdoku.count_solutions(puzzle, limit=2)
        unique: bool = bitdoku.is_unique(puzzle, shape="3x3")
        result: bitdoku.SearchResult = bitdoku.search(puzzle, limit=2)
        rating: bitdoku.Rating = bitdoku.rate(puzzle)
        step: bitdoku.Step | None = bitdoku.hint(puzzle, variant=None)
        steps: list[bitdoku.Step] = list(bitdoku.explain(puzzle))
        minimal: bool = is_minimal(puzzle)
        removable: list[int] = removable_clues(puzzle)
        symmetric: bool = has_symmetry(puzzle, "rotational")
        form: bitdoku.Grid = canonical(puzzle)
        print(solution, count, unique, result.status, rating.score, step, len(steps), minimal, removable,
              symmetric, form, bitdoku.rate(CandidateGrid.parse(LINE)).score)


def many_puzzles() -> None:
    batch: bitdoku.BatchResult = bitdoku.count_many(every_form())
    solved: bitdoku.BatchResult = bitdoku.solve_many(np.zeros((2, 81), dtype=np.uint8))
    forms: NDArray[np.uint8] = canonical_many([LINE, LINE])
    print(batch.counts, solved.statuses, forms.shape)
