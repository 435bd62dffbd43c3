"""Generating variant puzzles: unique and minimal under the variant's rules, seeded, carrying their geometry."""

from __future__ import annotations

import os
import re
import subprocess
import sys

import numpy as np
import pytest

import bitdoku
from bitdoku import Grid
from bitdoku.engines import reference
from bitdoku.generate import generate, generate_many, is_minimal, random_solution, removable_clues
from bitdoku.generate.regions import random_jigsaw
from bitdoku.generate.removal import EXACT_CHECK_RULES
from bitdoku.generate.request import Request
from bitdoku.generate.symmetry import orbits
from bitdoku.geometry import Geometry
from bitdoku.kernels import make
from bitdoku.kernels.status import ALL_RULES

# anti-knight, anti-king and nonconsecutive keep the classic units: the 9x9 band kernel must not be used for them
VARIANTS_9 = ["x", "windoku", "anti-knight", "anti-king", "nonconsecutive", "x+anti-king"]


def _reference_count(puzzle: Grid, limit: int = 2) -> int:
    return reference.search(puzzle, limit=limit, max_nodes=10**7, keep=0).count


@pytest.mark.parametrize("variant", VARIANTS_9)
def test_9x9_puzzles_are_unique_under_their_rules_and_so_is_their_solution(variant: str) -> None:
    for made in generate_many(3, variant=variant, seed=11, threads=1):
        assert made.puzzle.geometry == made.solution.geometry == Geometry.parse(variant)
        assert made.solution.is_solution_of(made.puzzle)  # conflicts() checks relations and neighbours too
        result = bitdoku.search(made.puzzle, limit=2)
        assert result.status.name == "UNIQUE" and result.solution == made.solution
        assert made.minimal is True


@pytest.mark.parametrize("variant", ["x", "anti-king", "nonconsecutive", "x+anti-knight"])
@pytest.mark.parametrize("shape", ["2x2", "2x3"])
def test_small_minimal_puzzles_checked_by_the_reference_engine(variant: str, shape: str) -> None:
    geometry = Geometry.parse(variant, shape)
    if _reference_count(Grid.empty(shape).with_geometry(geometry), limit=1) == 0:
        refusal = re.escape(f"no {geometry.shape.size_name} grid obeys the {variant} rules")
        with pytest.raises(ValueError, match=refusal):
            generate(shape, variant=geometry, seed=3, max_nodes=10_000)  # refused at once, not a spent budget
        return
    for made in generate_many(4, shape, variant=geometry, minimal=True, seed=3, threads=1):
        puzzle = made.puzzle
        assert _reference_count(puzzle) == 1
        for cell, digit in enumerate(puzzle.cells):
            if digit:
                assert _reference_count(puzzle.with_digit(cell, 0)) == 2, f"clue {cell} could go"


def test_a_variant_puzzle_needs_its_rules() -> None:
    puzzle = generate(variant="x", seed=5)
    assert bitdoku.count_solutions(puzzle.with_geometry(None), limit=2) == 2
    assert bitdoku.count_solutions(puzzle, limit=2) == 1


def test_minimality_is_judged_under_the_variant() -> None:
    puzzle = generate(variant="windoku", seed=8)
    assert is_minimal(puzzle)
    solution = bitdoku.solve(puzzle)
    empty = next(c for c, d in enumerate(puzzle.cells) if d == 0)
    one_more = puzzle.with_digit(empty, solution.cells[empty])
    assert empty in removable_clues(one_more)
    assert not is_minimal(one_more)


def test_seeded_runs_repeat_on_any_number_of_threads() -> None:
    jigsaw = random_jigsaw(seed=4)
    one = [g.puzzle for g in generate_many(6, variant=jigsaw, seed=9, threads=1)]
    two = [g.puzzle for g in generate_many(6, variant=jigsaw, seed=9, threads=2)]
    assert one == two
    assert generate(variant="anti-knight", seed=2) == generate(variant="anti-knight", seed=2)
    assert generate(variant="anti-knight", seed=2) != generate(variant="anti-knight", seed=3)


def test_minimal_nonconsecutive_runs_repeat_on_any_number_of_threads() -> None:
    # 9x9 nonconsecutive runs on its own kernel (nonconsecutive9): its searches too must not depend on the threads
    one = [g.puzzle for g in generate_many(4, variant="nonconsecutive", minimal=True, seed=11, threads=1)]
    two = [g.puzzle for g in generate_many(4, variant="nonconsecutive", minimal=True, seed=11, threads=2)]
    assert one == two
    for puzzle in one:
        assert bitdoku.count_solutions(puzzle, limit=2) == 1


def test_symmetric_jigsaw_puzzles_keep_the_pattern_whatever_the_map() -> None:
    jigsaw = random_jigsaw(seed=6)
    for made in generate_many(3, variant=jigsaw, symmetry="rotational", seed=1, threads=1):
        assert bitdoku.generate.has_symmetry(made.puzzle, "rotational")
        assert bitdoku.count_solutions(made.puzzle, limit=2) == 1


def test_random_solutions_keep_the_variant() -> None:
    for variant in [*VARIANTS_9, random_jigsaw(seed=2)]:
        grid = random_solution(variant=variant, seed=1)
        assert grid.is_solved() and not grid.geometry.is_classic
        assert grid == random_solution(variant=variant, seed=1)


def test_random_jigsaw_maps_are_connected_and_seeded() -> None:
    for shape in ("2x2", "2x3", "3x3"):
        geometry = random_jigsaw(shape, seed=5)
        assert geometry == random_jigsaw(shape, seed=5)
        n = geometry.shape.n
        for region in range(n):
            cells = [c for c, r in enumerate(geometry.regions) if r == region]
            assert len(cells) == n
            reached, todo = {cells[0]}, [cells[0]]
            while todo:
                row, col = divmod(todo.pop(), n)
                for other in ((row + 1) * n + col, (row - 1) * n + col, row * n + col + 1, row * n + col - 1):
                    near = abs(other // n - row) + abs(other % n - col) == 1
                    if 0 <= other < n * n and near and other in cells and other not in reached:
                        reached.add(other)
                        todo.append(other)
            assert len(reached) == n, f"region {region} of {geometry.region_map()} is in pieces"
        assert bitdoku.count_solutions(Grid.empty(shape).with_geometry(geometry), limit=1) == 1


@pytest.mark.parametrize(
    ("options", "words"),
    [
        ({"variant": "x", "clues": 7}, "fewer than 8 clues"),
    ],
)
def test_requests_a_variant_cannot_meet_are_refused(options: dict, words: str) -> None:
    with pytest.raises(ValueError, match=words):
        generate(**options)


def test_distinct_runs_are_refused_for_variants() -> None:
    with pytest.raises(ValueError, match=r"9x9 only \(classic rules\)"):
        list(generate_many(2, variant="x", distinct=True))


def test_variants_are_generated_at_a_difficulty_and_rated() -> None:
    puzzle = generate(variant="x", difficulty="easy", seed=2)
    assert bitdoku.rate(puzzle).level == "easy" and bitdoku.count_solutions(puzzle) == 1
    made = next(generate_many(1, variant="windoku", rated=True, seed=2))
    assert made.rating == bitdoku.rate(made.puzzle) and made.puzzle.variant == "windoku"


def test_generated_records_name_their_variant() -> None:
    jigsaw = random_jigsaw(seed=1)
    record = next(generate_many(1, variant=jigsaw, seed=1)).to_dict()
    assert record["variant"] == "jigsaw" and record["regions"] == jigsaw.region_map()
    assert "variant" not in next(generate_many(1, seed=1)).to_dict()


@pytest.mark.parametrize("variant", ["anti-knight", "jigsaw"])
def test_variant_checks_use_locked_candidates_and_make_the_same_puzzles(variant: str) -> None:
    # Uncapped checks are exact whatever their rules, so the rules change only their cost: a variant's checks run
    # every rule (fewer nodes), a classic grid's naked and hidden singles (cheaper nodes).
    geometry = random_jigsaw("3x3", seed=3) if variant == "jigsaw" else Geometry.parse(variant)
    request = Request.make(variant=geometry, minimal=True)
    assert request.check_rules == ALL_RULES
    assert Request.make("4x4", minimal=True).check_rules == EXACT_CHECK_RULES
    made = {}
    for rules in (ALL_RULES, EXACT_CHECK_RULES):
        rngs = np.arange(1, 7, dtype=np.uint64).reshape(6, 1)
        puzzles, solutions = np.zeros((6, 81), np.uint8), np.zeros((6, 81), np.uint8)
        outcome = np.zeros((6, make.N_OUTCOME), np.int64)
        make.attempt_rows(rngs, 9, *request.tables, orbits(request.shape, request.symmetry), 0, request.check_nodes,
                          rules, 10**6, False, puzzles, solutions, outcome, np.zeros(1, np.int64))
        assert outcome[:, make.MADE].all()
        made[rules] = (puzzles, outcome[:, make.CHECK_NODES].sum())
    assert (made[ALL_RULES][0] == made[EXACT_CHECK_RULES][0]).all()
    assert made[ALL_RULES][1] < made[EXACT_CHECK_RULES][1]
    puzzle = Grid.from_array(made[ALL_RULES][0][0]).with_geometry(geometry)
    assert is_minimal(puzzle)


_COMPILES_AFTER_WARM_UP = """
from numba.core import event
from bitdoku.generate import generate
from bitdoku.generate.puzzles import warm_up
from bitdoku.generate.request import Request

warm_up(Request.make("3x3", variant="windoku"))
compiled = []


class Seen(event.Listener):
    def on_start(self, ev):
        compiled.append(ev.data["dispatcher"].py_func.__name__)

    def on_end(self, ev):
        pass


event.register("numba:compile", Seen())
generate("3x3", variant="x", seed=7)
print(sorted(set(compiled)))
"""


def test_the_warm_up_of_a_9x9_variant_compiles_what_9x9_variants_run(tmp_path) -> None:
    """9x9 variants run on tables of their own type (``variant81.Tables81``), so warming up on a small grid does
    not compile them: a server's first X request then compiled inside its time budget. On an empty Numba cache,
    after the warm-up of one 9x9 variant, another 9x9 variant's puzzle compiles nothing."""
    env = {**os.environ, "NUMBA_CACHE_DIR": str(tmp_path)}
    run = subprocess.run([sys.executable, "-c", _COMPILES_AFTER_WARM_UP], env=env, capture_output=True, text=True,
                         timeout=900)
    assert run.returncode == 0, run.stderr
    assert run.stdout.strip() == "[]"
