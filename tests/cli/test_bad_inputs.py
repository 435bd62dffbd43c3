"""The bad-input corpus of issue 16: every hostile input, run through the real CLI, with the message it must
give (a substring naming the problem and its place) and its exit code; never a traceback.

``tests/cli/test_pipeline.py`` (``HOSTILE``) checks that the vectorised and per-puzzle paths agree byte for byte
on hostile files; here each case says what the right answer *is*. The cases that need a process of their own
(a 100 MB line and the memory it takes, a closed stdout) run ``python -m bitdoku`` in a subprocess.
docs/reliability/bad-input.md lists the cases and their messages.
"""

from __future__ import annotations

import os
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest
from typer.testing import CliRunner

from bitdoku import Grid
from bitdoku.cli.exit_codes import ExitCode
from bitdoku.cli.main import app
from bitdoku.data import sample_lines

runner = CliRunner()
SMALL = "..3..4.221......"  # 4x4, unique
NINE = sample_lines("famous.txt")[0]
SIXTEEN = sample_lines("unique16x16_sample.txt")[0]
EASY = "....5........9....635.4..8.56.......32....9...4.1...26..48.623.......7.....2..5.8"  # generate --seed 3
#: Every command that reads puzzles (canon only for 9x9 puzzles, explain one puzzle at a time).
READERS = (["solve"], ["solve", "--first"], ["count", "--limit", "2"], ["check"], ["rate"], ["explain"])
ALL_READERS = (*READERS, ["canon"])


def invoke(*args: str):
    return runner.invoke(app, list(args))


def no_traceback(result) -> None:
    assert "Traceback" not in result.stdout + result.stderr
    assert result.exception is None or isinstance(result.exception, SystemExit), repr(result.exception)


@dataclass(frozen=True)
class Bad:
    """A file that is not (all) puzzles: each command stops with ``message`` (``{path}`` is the file) and
    ``code``; with --lenient, the lines around the bad one are answered and the bad one is ``error``."""

    content: bytes
    message: str
    code: ExitCode = ExitCode.BAD_INPUT
    commands: tuple[list[str], ...] = READERS


BAD = {
    "binary": Bad(b"\x7fELF\x02\x01\x01\x00" + bytes(range(256)) * 8,
                  "{path}:1:1: unexpected character '\\x7f' (a control character: a binary file", commands=ALL_READERS),
    "invalid_utf8": Bad(f"{SMALL}\n..3.".encode() + b"\xff\xfe" + b"4.221.....\n" + SMALL.encode() + b"\n",
                        "{path}:2:5 (r2c1): unexpected bytes that are not UTF-8"),
    "nul_bytes": Bad(b"\x00" * 1000, "{path}:1:1: unexpected character '\\x00' (a control character",
                     commands=ALL_READERS),
    "nul_bytes_long": Bad(b"\x00" * 300_000, "{path}:1: line is longer than 65,536 characters"),
    "wrong_alphabet_4x4": Bad(b"..5..4.221......\n", "{path}:1:3 (r1c3): digit '5' (5) is out of range for a 4x4 "
                              "grid; digits are 1-4"),
    "wrong_alphabet_9x9": Bad(("A" + NINE[1:] + "\n").encode(), "{path}:1:1 (r1c1): digit 'A' (10) is out of range "
                              "for a 9x9 grid", commands=ALL_READERS),
    "wrong_alphabet_16x16": Bad(("Z" + SIXTEEN[1:] + "\n").encode(), "{path}:1:1 (r1c1): digit 'Z' (35) is out of "
                                "range for a 16x16 grid; digits are 1-9 and A-G"),
    "wrong_cell_count": Bad((NINE[:-1] + "\n").encode(), "{path}:1: found 80 cells, which fits no grid"),
    "half_a_picture": Bad(b"1 . | . 4\n. . | . .\n", "{path}:1: a block picture of a 4x4 grid needs 4 rows, found 2"),
}


@pytest.mark.parametrize("name", BAD)
def test_a_bad_file_stops_every_command_with_its_place_and_exit_code(tmp_path, name):
    case = BAD[name]
    path = tmp_path / f"{name}.txt"
    path.write_bytes(case.content)
    for command in case.commands:
        result = invoke(*command, str(path))
        assert result.exit_code == case.code, (command, result.output)
        assert case.message.format(path=path) in result.stderr, (command, result.stderr)
        no_traceback(result)


@pytest.mark.parametrize("name", ["binary", "invalid_utf8", "nul_bytes"])
def test_lenient_answers_the_good_lines_around_a_bad_one(tmp_path, name):
    path = tmp_path / f"{name}.txt"
    path.write_bytes(SMALL.encode() + b"\n" + BAD[name].content + b"\n" + SMALL.encode() + b"\n")
    solution = invoke("solve", SMALL, "-f", "line").stdout
    result = invoke("solve", str(path), "--lenient")
    lines = result.stdout.splitlines()
    assert lines[0] == lines[-1] == solution.strip() and "error" in lines[1:-1]
    assert result.exit_code == ExitCode.BAD_INPUT and "bitdoku: skipped:" in result.stderr
    no_traceback(result)


# -- files that are fine once their dressing is seen through: the same answers as the clean file -------------

CLEAN = [SMALL, EASY, SIXTEEN]
#: The vectorised reader (solve, count, check) and the line reader (--per-puzzle, rate).
DRESSED_READERS = (["solve"], ["solve", "--first"], ["count", "--limit", "2"], ["check"], ["check", "--per-puzzle"],
                   ["rate"])
DRESSED = {
    "crlf": "\r\n".join(CLEAN) + "\r\n",
    "bom": "\ufeff" + "\n".join(CLEAN) + "\n",
    "bom_crlf_no_final_newline": "\ufeff" + "\r\n".join(CLEAN),
    "tabs": "\n".join(f"\t{line}\t" for line in CLEAN[:2]) + "\n" + "\t".join(SIXTEEN) + "\n",
    "trailing_spaces": "\n".join(f"{line}   " for line in CLEAN[:2]) + "\n" + SIXTEEN + " \t \n",
    "comments_and_blank_lines": "# puzzles\n\n" + "\n\n".join(f"{line}  # from the corpus" for line in CLEAN) + "\n",
}


@pytest.mark.parametrize("name", DRESSED)
def test_dressed_files_give_the_answers_of_the_clean_file(tmp_path, name):
    clean, dressed = tmp_path / "clean.txt", tmp_path / f"{name}.txt"
    clean.write_text("\n".join(CLEAN) + "\n")
    dressed.write_bytes(DRESSED[name].encode("utf-8"))
    for command in DRESSED_READERS:
        want, got = invoke(*command, str(clean)), invoke(*command, str(dressed))
        assert got.exit_code == want.exit_code == ExitCode.OK, (command, got.output)
        assert got.stdout == want.stdout and got.stdout.count("\n") >= len(CLEAN), command
        no_traceback(got)


def test_mixed_shapes_in_one_file_each_get_the_answer_they_get_alone(tmp_path):
    puzzles = [SMALL, "." * 36, NINE, SIXTEEN, sample_lines("sample25x25.txt")[0], "." * 81]
    path = tmp_path / "mixed.txt"
    path.write_text("\n".join(puzzles) + "\n")
    alone = tmp_path / "alone.txt"
    for command in (["solve"], ["count", "--limit", "3"], ["check"]):
        want = ""
        for puzzle in puzzles:
            alone.write_text(puzzle + "\n")
            want += invoke(*command, str(alone), "--max-nodes", "2000").stdout
        together = invoke(*command, str(path), "--max-nodes", "2000")
        assert together.stdout == want and want.count("\n") == len(puzzles), command
        no_traceback(together)


def test_conflicting_givens_are_invalid_with_their_cells(tmp_path):
    path = tmp_path / "conflict.txt"
    path.write_text(f"{SMALL}\n{'55' + NINE[2:]}\n{SMALL}\n")
    where = "digit 5 appears twice in row 1 (r1c1, r1c2)"
    check = invoke("check", str(path))
    assert check.exit_code == ExitCode.INVALID_GRID and check.stdout.splitlines()[1] == f"invalid: {where}"
    for command in (["solve"], ["count"], ["rate"]):
        result = invoke(*command, str(path))
        assert result.exit_code == ExitCode.INVALID_GRID and result.stdout.splitlines()[1] == "invalid", command
        no_traceback(result)
    explain = invoke("explain", str(path))
    assert explain.exit_code == ExitCode.INVALID_GRID and where in explain.stderr


# -- paths that are no puzzle file ------------------------------------------------------------------------------

def unreadable_path(tmp_path: Path) -> str:
    """A regular file whose open() fails with EACCES even for root (CI runs as root, so chmod 000 would not
    stop the read): the kernel checks a write-only sysctl file's mode bits for root too."""
    for candidate in ("/proc/sys/vm/compact_memory", "/proc/sys/vm/drop_caches"):
        if os.path.isfile(candidate):
            return candidate
    path = tmp_path / "locked.txt"  # no such sysctl file: a plain chmod 000, enough when not root
    path.write_text(SMALL)
    path.chmod(0)
    return str(path)


@pytest.mark.parametrize(
    ("name", "message"),
    [
        ("missing", "{path}: no such file; give a puzzle file, a puzzle in quotes, or '-' for stdin"),
        ("directory", "{path}: not a file"),
        ("unreadable", "{path}: cannot read the file: Permission denied"),
    ],
)
def test_a_path_that_is_no_puzzle_file_is_one_sentence(tmp_path, name, message):
    path = {"missing": str(tmp_path / "missing.txt"), "directory": str(tmp_path),
            "unreadable": unreadable_path(tmp_path)}[name]
    if name == "unreadable":
        with pytest.raises(PermissionError):
            Path(path).read_bytes()  # the case is what it claims to be, also as root
    for command in (*ALL_READERS, ["hint"]):
        result = invoke(*command, path)
        assert result.exit_code == ExitCode.BAD_INPUT, (command, result.output)
        assert message.format(path=path) in result.stderr, (command, result.stderr)
        no_traceback(result)


# -- huge grids and tiny budgets: every command ends, and says the budget ran out -------------------------------

def test_an_empty_64x64_grid_ends_with_the_default_budget(tmp_path):
    path = tmp_path / "empty64.txt"
    path.write_text(" ".join(["0"] * 4096) + "\n" + "." * 4096 + "\n")  # the integer and the character forms
    solved = invoke("solve", str(path))
    assert solved.exit_code == ExitCode.OK, solved.output
    for line in solved.stdout.splitlines():  # was an IndexError: the 64x64 solution went through the A-Z table
        grid = Grid.parse(line)
        assert grid.shape.n == 64 and grid.is_solved()
    counted = invoke("count", str(path), "--limit", "5")
    assert counted.stdout.splitlines() == ["5+", "5+"] and counted.exit_code == ExitCode.OK


NEAR_EMPTY_25 = "1" + "." * 624


@pytest.mark.parametrize(
    ("args", "line", "message"),
    [
        (["solve", NEAR_EMPTY_25, "--max-nodes", "50", "-f", "line"], "limit", "node budget of 50 spent"),
        (["count", NEAR_EMPTY_25, "--max-nodes", "50"], "limit", "node budget of 50 spent"),
        (["check", NEAR_EMPTY_25, "--max-nodes", "50"], "25x25 grid, 1 givens: limit: node budget of 50 spent", ""),
        (["rate", sample_lines("hardest_sample.txt")[0], "--max-steps", "1"], "limit", "limit "),
        (["explain", sample_lines("hardest_sample.txt")[0], "--max-steps", "1"], None,
         "stopped after 1 steps beyond singles"),
        (["generate", "--shape", "5x5", "--max-nodes", "10"], None, "found no unique 25x25 puzzle within 10 nodes"),
        (["generate", "--shape", "5x5", "--time-limit", "0.05"], None, "found no unique 25x25 puzzle within 0.05 s"),
    ],
)
def test_a_tiny_budget_on_a_hard_input_says_the_limit_was_reached(args, line, message):
    result = invoke(*args)
    assert result.exit_code == ExitCode.LIMIT, result.output
    if line is not None:
        assert result.stdout.splitlines()[-1] == line
    assert message in result.stderr
    no_traceback(result)


def test_a_tiny_budget_on_a_file_answers_limit_and_goes_on(tmp_path):
    path = tmp_path / "mixed.txt"
    path.write_text(f"{SMALL}\n{NEAR_EMPTY_25}\n{SMALL}\n")
    for command in (["solve"], ["count"], ["check"]):
        result = invoke(*command, str(path), "--max-nodes", "50")
        assert result.exit_code == ExitCode.LIMIT
        assert result.stdout.splitlines()[1].startswith("limit") and "limit 1" in result.stderr


def test_the_library_takes_the_same_budgets_and_says_what_was_done():
    import bitdoku
    from bitdoku.batch import solve_many
    from bitdoku.engines.result import Status
    from bitdoku.errors import GenerationLimitError, SearchLimitError, StepLimitError
    from bitdoku.logic.explain import explain
    from bitdoku.logic.rating import rate

    grid = Grid.parse(NEAR_EMPTY_25)
    assert bitdoku.search(grid, max_nodes=50).status is Status.LIMIT
    assert solve_many([grid], max_nodes=50).result(0).status is Status.LIMIT
    with pytest.raises(SearchLimitError, match="search stopped after 50 nodes with 0 solutions found"):
        bitdoku.count_solutions(grid, limit=10, max_nodes=50)
    hardest = sample_lines("hardest_sample.txt")[0]
    with pytest.raises(StepLimitError, match="stopped after 1 steps beyond singles"):
        list(explain(hardest, max_steps=1))
    with pytest.raises(StepLimitError):
        rate(hardest, max_steps=1)
    with pytest.raises(GenerationLimitError, match="found no unique 25x25 puzzle within 10 nodes"):
        bitdoku.generate("5x5", max_nodes=10)


# -- in a process of its own: memory, and a reader that goes away ------------------------------------------------

def run_measured(args: list[str], folder: Path) -> tuple[int, str, str, int]:
    """Run ``python -m bitdoku ARGS``: exit code, stdout, stderr and the child's own peak RSS in bytes."""
    from benchmarks.memory_bench import run_measured as run

    code, _, peak = run(args, folder / "stdout", folder / "stderr")
    return code, (folder / "stdout").read_text(), (folder / "stderr").read_text(), peak


@pytest.mark.parametrize("command", [["solve"], ["rate"]])  # the vectorised reader, and the line reader
def test_a_100_mb_line_is_never_held_in_memory(tmp_path, command):
    big = tmp_path / "big.txt"
    with big.open("wb") as stream:
        stream.write(SMALL.encode() + b"\n")
        block = b"1." * (1 << 19)  # 1 MiB
        for _ in range(100):
            stream.write(block)
        stream.write(b"\n" + SMALL.encode() + b"\n")
    small = tmp_path / "small.txt"
    small.write_text(f"{SMALL}\n{SMALL}\n")
    _, _, _, baseline = run_measured([*command, str(small)], tmp_path)
    code, stdout, stderr, peak = run_measured([*command, str(big), "--lenient"], tmp_path)
    assert code == ExitCode.BAD_INPUT and f"{big}:2: line is longer than 65,536 characters" in stderr
    assert stdout.splitlines()[1] == "error" and len(stdout.splitlines()) == 3
    assert "Traceback" not in stderr
    assert peak - baseline < 40 * 2**20, f"peak RSS {peak / 2**20:.0f} MB, {baseline / 2**20:.0f} MB for 2 lines"


@pytest.mark.parametrize("command", [["solve"], ["count"], ["rate"], ["canon"]])
def test_a_closed_stdout_ends_quietly(tmp_path, command):
    """``bitdoku solve big.txt | head -1``: the reader goes away; exit code 0 (documented: BrokenPipeError is
    no error of the run), nothing on stderr but what the command says anyway, never a traceback."""
    path = tmp_path / "big.txt"
    path.write_text("\n".join(sample_lines("top1465_sample.txt") * 3000) + "\n")  # 90,000 puzzles
    process = subprocess.Popen([sys.executable, "-m", "bitdoku", *command, str(path)], stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE)
    first = process.stdout.readline()  # type: ignore[union-attr]
    process.stdout.close()  # type: ignore[union-attr]
    _, stderr = process.communicate(timeout=120)
    assert first.strip()
    assert process.returncode == ExitCode.OK, stderr
    assert b"Traceback" not in stderr and b"BrokenPipe" not in stderr and b"Exception ignored" not in stderr
