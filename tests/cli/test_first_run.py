"""The first run on a cold cache: it compiles what the call needs and nothing more, says so before it starts, and
``bitdoku warmup`` does it ahead of time. Each test that must see a compile runs a child process on an empty
Numba cache of its own (``NUMBA_CACHE_DIR``)."""

import os
import subprocess
import sys

import pytest
from typer.testing import CliRunner

from bitdoku.cli.main import app
from bitdoku.data import sample_lines
from bitdoku.kernels.cache import COMPILE_LOG
from bitdoku.warmup import UNITS


def bitdoku(*args, cache, log=None):
    """``python -m bitdoku args`` on the Numba cache folder ``cache``; ``log``: a file the run lists every function
    it compiles in (``kernels.cache.COMPILE_LOG``)."""
    env = {**os.environ, "NUMBA_CACHE_DIR": str(cache)}
    if log is not None:
        env[COMPILE_LOG] = str(log)
    return subprocess.run([sys.executable, "-m", "bitdoku", *args], env=env, capture_output=True, text=True,
                          timeout=900)


def compiled_functions(log) -> list[tuple[str, str]]:
    """The (function, signature) pairs of bitdoku's a run compiled, one a compile, from its compile log."""
    lines = log.read_text().splitlines() if log.exists() else []
    return [(name, signature) for _, name, signature in (line.split("\t") for line in lines)
            if name.startswith("bitdoku.")]


def assert_each_compiled_once(compiles: list[tuple[str, str]]) -> set[str]:
    """No function compiled twice for one signature, none for a literal argument (a copy of it and all it calls,
    for one value); the functions compiled."""
    assert len(compiles) == len(set(compiles)), sorted(compiles)
    assert not [pair for pair in compiles if "Literal[" in pair[1]]
    return {name for name, _ in compiles}


def compiled_modules(cache):
    """The kernel modules with compiled code in a cache folder (index files are named module.function-line)."""
    return {path.name.split(".")[0] for path in cache.rglob("*.nbi")}


@pytest.fixture(scope="module")
def first_solve(tmp_path_factory):
    cache = tmp_path_factory.mktemp("numba")
    return cache, bitdoku("solve", cache=cache, log=cache.parent / "solve-compiles.log")


def test_a_first_solve_says_it_compiles_before_it_does(first_solve):
    _, run = first_solve
    assert run.returncode == 0, run.stderr
    lines = run.stderr.splitlines()
    assert lines[0] == "bitdoku: compiling the 9x9 engine, once (Numba caches it for later runs)"
    assert lines[1].startswith("bitdoku: compiled in ")
    assert "unique solution" in lines[2]


def test_a_first_9x9_solve_compiles_the_9x9_kernel_only_each_function_once(first_solve):
    cache, _ = first_solve
    assert compiled_modules(cache) <= {"sudoku9", "rng", "bits"}
    functions = assert_each_compiled_once(compiled_functions(cache.parent / "solve-compiles.log"))
    assert {name for name in functions if not name.startswith("bitdoku.kernels.sudoku9.")} <= {
        "bitdoku.kernels.rng.hashed_bit"}
    # the engine's entry point and its helpers; a new function in the 9x9 engine updates this number on purpose
    assert "bitdoku.kernels.sudoku9.search9_in" in functions and len(functions) <= 12


def test_a_first_16x16_count_compiles_the_bitboard_kernel_only_each_function_once(tmp_path):
    log = tmp_path / "compiles.log"
    run = bitdoku("count", sample_lines("sample16x16.txt")[0], cache=tmp_path / "numba", log=log)
    assert run.returncode == 0, run.stderr
    functions = assert_each_compiled_once(compiled_functions(log))
    others = {name for name in functions if not name.startswith("bitdoku.kernels.boards.")}
    assert others <= {"bitdoku.kernels.dfs.box_rows", "bitdoku.kernels.dfs.restarts", "bitdoku.kernels.restarts.luby",
                      "bitdoku.kernels.rng.random_bit"}
    assert "bitdoku.kernels.boards.search" in functions and len(functions) <= 50


def test_the_second_solve_loads_the_cache_and_says_nothing_of_compiling(first_solve):
    cache, _ = first_solve
    run = bitdoku("solve", cache=cache)
    assert run.returncode == 0
    assert "compil" not in run.stderr


def test_a_first_4x4_count_compiles_the_bitboard_kernel_only(tmp_path):
    run = bitdoku("count", "..3..4.221......", cache=tmp_path)
    assert run.returncode == 0, run.stderr
    assert run.stderr.startswith("bitdoku: compiling the 4x4 engine, once")
    assert "sudoku9" not in compiled_modules(tmp_path)
    assert "propagate" not in compiled_modules(tmp_path)  # the cell-by-cell kernel is for other unit tables


def test_a_first_9x9_generate_compiles_the_band_kernel_not_the_generic_one(tmp_path):
    # The generator's kernels serve every shape; a 9x9 request picks the band kernel by its tables' type, so the
    # generic kernel (dfs, boards, propagate: 44 of 63 CPU seconds of this first run before) is not compiled.
    run = bitdoku("generate", "-n", "1", "--seed", "1", cache=tmp_path)
    assert run.returncode == 0, run.stderr
    assert len(run.stdout.split()[0]) == 81
    assert {"sudoku9", "dig", "fill", "make"} <= compiled_modules(tmp_path)
    assert not {"dfs", "boards", "propagate", "variant81"} & compiled_modules(tmp_path)


def test_a_time_limit_on_a_cold_cache_is_the_search_s_own_not_the_compile_s(tmp_path):
    # The first search compiles its kernel (5-13 s here) inside its one-second limit: that used to end "limit".
    code = "import bitdoku, bitdoku.data; print(bitdoku.search(bitdoku.data.DEMO, time_limit=1).status.value)"
    run = subprocess.run([sys.executable, "-c", code], env={**os.environ, "NUMBA_CACHE_DIR": str(tmp_path)},
                         capture_output=True, text=True, timeout=900)
    assert run.returncode == 0, run.stderr
    assert run.stdout.split() == ["unique"]
    assert "sudoku9" in compiled_modules(tmp_path)  # it did compile


def test_warmup_compiles_the_engine_with_a_line_a_unit(first_solve):
    cache, _ = first_solve
    run = bitdoku("warmup", cache=cache)
    assert run.returncode == 0, run.stderr
    for unit in UNITS:
        assert (f"{unit.name}: " in run.stderr) == unit.engine
    assert f"compiled kernels are cached in {cache}" in run.stderr
    assert {"sudoku9", "batch", "boards"} <= compiled_modules(cache)
    again = bitdoku("count", "..3..4.221......", cache=cache)
    assert again.returncode == 0 and "compil" not in again.stderr


def test_warmup_all_compiles_every_unit():
    result = CliRunner().invoke(app, ["warmup", "--all"])
    assert result.exit_code == 0, result.output
    for unit in UNITS:
        assert f"{unit.name}: " in result.output


def test_an_unwritable_cache_folder_is_named_and_the_run_goes_on(tmp_path):
    run = bitdoku("warmup", cache="/proc/bitdoku-no-cache")  # /proc refuses new folders, even to root
    assert run.returncode == 0, run.stderr
    assert "NUMBA_CACHE_DIR=/proc/bitdoku-no-cache cannot be written" in run.stderr
    assert "Traceback" not in run.stderr


def test_a_first_file_run_says_which_batch_engine_it_compiles(tmp_path):
    # Files go to the batch kernels (a classic shape's, or a variant's own: X's compiles for ~13 s), which a first
    # run compiled without a word; the second run loads them and says nothing.
    cache = tmp_path / "numba"
    classic = tmp_path / "classic.txt"
    classic.write_text("4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......\n")
    diagonal = tmp_path / "x.txt"
    diagonal.write_text(".7.......1..586..9...4......1...4..8.3.72...6..6....4...8....63..................\n")
    run = bitdoku("count", str(classic), cache=cache)
    assert run.returncode == 0, run.stderr
    assert run.stderr.startswith("bitdoku: compiling the 9x9 engine for files, once")
    run = bitdoku("count", "--variant", "x", str(diagonal), cache=cache)
    assert run.returncode == 0, run.stderr
    assert run.stdout.split() == ["1"]
    assert run.stderr.startswith("bitdoku: compiling the 9x9 x engine for files, once")
    assert "extra9" in compiled_modules(cache)
    again = bitdoku("count", "--variant", "x", str(diagonal), cache=cache)
    assert again.returncode == 0 and "compil" not in again.stderr


def test_a_first_variant_solve_compiles_the_variant_kernel_not_the_classic_one(tmp_path):
    # The single-puzzle path warmed the classic kernel of the shape (5.8 s for nothing under --variant x) and then
    # timed X's own compile (14 s) as the search: "unique solution in 14.24 s (13 nodes)".
    run = bitdoku("solve", "--variant", "x",
                  ".7.......1..586..9...4......1...4..8.3.72...6..6....4...8....63..................", cache=tmp_path)
    assert run.returncode == 0, run.stderr
    lines = run.stderr.splitlines()
    assert lines[0] == "bitdoku: compiling the 9x9 x engine, once (Numba caches it for later runs)"
    assert lines[1].startswith("bitdoku: compiled in ")
    cached = {path.name.split("-")[0] for path in tmp_path.rglob("*.nbi")}
    assert "extra9.search" in cached
    assert not {"sudoku9.search9_in", "sudoku9._search_loaded"} & cached  # the classic kernel: not needed
