"""The vectorised file path against the per-puzzle path, byte for byte; output files, resume, interruptions."""

import glob
import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from typer.testing import CliRunner

from bitdoku.cli.exit_codes import ExitCode
from bitdoku.cli.main import app
from bitdoku.data import sample_lines, sample_path

runner = CliRunner()
SHARED = Path(__file__).resolve().parents[3] / "shared" / "data"
FILES = sorted(glob.glob(str(sample_path("famous.txt").parent / "*.txt"))) + sorted(glob.glob(str(SHARED / "*.txt")))
COMMANDS = [["solve"], ["solve", "--first"], ["count", "--limit", "2"], ["count", "--limit", "5"], ["check"]]
BUDGET = ["--max-nodes", "300", "--lenient"]  # the big ACS grids' hard bands would otherwise take minutes


def invoke(*args, input=None):
    return runner.invoke(app, list(args), input=input)


def both_paths(command, path, *extra, input=None):
    fast = invoke(*command, str(path), *extra, input=input)
    slow = invoke(*command, str(path), *extra, "--per-puzzle", input=input)
    return fast, slow


@pytest.mark.parametrize("path", FILES, ids=lambda p: Path(p).name)
def test_every_data_file_gives_the_same_bytes_on_both_paths(path):
    budget = ["--max-nodes", "20", "--lenient"] if "25x25" in path else BUDGET
    for command in COMMANDS:
        fast, slow = both_paths(command, path, *budget)
        assert fast.stdout == slow.stdout, command
        assert fast.exit_code == slow.exit_code, command
        assert fast.stdout.count("\n") == slow.stdout.count("\n") > 0


HOSTILE = {
    "crlf_bom_no_final_newline": "\ufeff..3..4.221......\r\n..3..4.221......\r\n" + "." * 81 + "\r\n1.3.............",
    "mixed_shapes": "\n".join(["..3..4.221......", "." * 81, "." * 36, sample_lines("sample16x16.txt")[0],
                               "8..........36......7..9.2...5...7.......457.....1...3...1....68..85...1..9....4.."]),
    "bad_lines": "..3..4.221......\n1.3x............\n..3..4.221.....\n11..............\n\n# note\n" + "." * 16,
    "pictures_and_rows": "1 . | . 4\n. . | . .\n----+----\n. . | . .\n4 . | . 1\n..3..4.221......\n"
                         "5 3 0 0\n0 0 0 0\n0 0 0 0\n0 0 0 3\n..3..4.221......\n",
    "lone_returns": "..3..4.221......\r1.3.............\r\r" + "." * 16,
    "binary": "..3..4.221......\n\x00\x01\xff\xfe garbage\n1.3.............\n",
    "invalid_and_unsolvable": "55" + "." * 79 + "\n" + "\n".join(sample_lines("nosolution_sample.txt")),
}


@pytest.mark.parametrize("name", HOSTILE)
def test_hostile_files_give_the_same_bytes_and_errors_on_both_paths(tmp_path, name):
    path = tmp_path / f"{name}.txt"
    path.write_bytes(HOSTILE[name].encode("utf-8", errors="surrogateescape"))
    for command in COMMANDS:
        for extra in (["--lenient"], []):
            fast, slow = both_paths(command, path, *extra)
            assert (fast.stdout, fast.exit_code) == (slow.stdout, slow.exit_code), (command, extra)
            assert fast.stderr.splitlines()[:-1] == slow.stderr.splitlines()[:-1]  # the same warnings or error


def test_stdin_takes_the_vectorised_path_too():
    text = "\n".join(sample_lines("top1465_sample.txt")) + "\n"
    fast, slow = both_paths(["solve"], "-", input=text)
    assert fast.stdout == slow.stdout and fast.stdout.count("\n") == 30


def test_canon_gives_the_same_bytes_on_both_paths(tmp_path):
    path = tmp_path / "p.txt"
    path.write_text("\n".join([*sample_lines("17clue_sample.txt"), "..3..4.221......", "oops"]) + "\n")
    fast, slow = both_paths(["canon"], path, "--lenient")
    assert (fast.stdout, fast.exit_code) == (slow.stdout, slow.exit_code)


# -- output files and resuming ------------------------------------------------------------------------------

@pytest.fixture
def puzzles(tmp_path):
    path = tmp_path / "puzzles.txt"
    lines = sample_lines("17clue_sample.txt") + sample_lines("top1465_sample.txt") + sample_lines("famous.txt")
    path.write_text("\n".join(lines * 20) + "\n")
    return path


def test_output_appears_only_when_complete(tmp_path, puzzles):
    out = tmp_path / "out.txt"
    result = invoke("solve", str(puzzles), "-o", str(out))
    assert result.exit_code == 0 and result.stdout == ""
    assert out.read_text() == invoke("solve", str(puzzles)).stdout
    assert not (tmp_path / "out.txt.partial").exists()


def test_a_failed_run_leaves_the_partial_file_and_resume_finishes_it(tmp_path, puzzles):
    broken = tmp_path / "broken.txt"
    good = puzzles.read_text()
    broken.write_text(good + "bad line\n" + good)
    out = tmp_path / "out.txt"
    failed = invoke("solve", str(broken), "-o", str(out))
    assert failed.exit_code == ExitCode.BAD_INPUT and not out.exists()
    partial = tmp_path / "out.txt.partial"
    assert partial.read_text() == invoke("solve", str(puzzles)).stdout
    assert "--resume" in failed.stderr
    broken.write_text(good + "1" + "." * 80 + "\n" + good)  # the bad line mended
    resumed = invoke("solve", str(broken), "-o", str(out), "--resume")
    assert resumed.exit_code == 0 and "resuming after" in resumed.stderr
    assert out.read_text() == invoke("solve", str(broken)).stdout


@pytest.mark.parametrize("command", [["solve"], ["count", "--limit", "2"], ["check"], ["rate"], ["hint"], ["canon"]])
def test_resume_after_a_cut_gives_the_uninterrupted_output(tmp_path, puzzles, command):
    out = tmp_path / "out.txt"
    # 100 lines without famous.txt's puzzles, which take the rater seconds each (a run is made six times here)
    lines = sample_lines("17clue_sample.txt") * 3 + sample_lines("top1465_sample.txt")[:10]
    puzzles.write_text("\n".join(lines) + "\n")
    whole = invoke(*command, str(puzzles)).stdout
    for cut in random.Random(len(command)).sample(range(1, len(whole)), 5):
        partial = tmp_path / "out.txt.partial"
        partial.write_text(whole[:cut])  # a run killed after writing this much, maybe mid-line
        resumed = invoke(*command, str(puzzles), "-o", str(out), "--resume")
        assert resumed.exit_code == 0, resumed.stderr
        assert out.read_text() == whole
        out.unlink()


def test_resume_of_a_generate_run_makes_the_rest_of_the_same_puzzles(tmp_path):
    out = tmp_path / "out.txt"
    whole = invoke("generate", "-n", "30", "--seed", "4").stdout.splitlines(keepends=True)
    (tmp_path / "out.txt.partial").write_text("".join(whole[:11]) + whole[11][:20])
    resumed = invoke("generate", "-n", "30", "--seed", "4", "-o", str(out), "--resume")
    assert resumed.exit_code == 0 and out.read_text() == "".join(whole)
    assert invoke("generate", "-n", "3", "-o", str(out), "--resume").exit_code == ExitCode.USAGE  # no --seed


def test_resume_of_a_complete_file_does_nothing_and_without_o_is_an_error(tmp_path, puzzles):
    out = tmp_path / "out.txt"
    invoke("count", str(puzzles), "-o", str(out))
    before = out.read_text()
    again = invoke("count", str(puzzles), "-o", str(out), "--resume")
    assert again.exit_code == 0 and "already complete" in again.stderr and out.read_text() == before
    assert invoke("count", str(puzzles), "--resume").exit_code == ExitCode.USAGE


# -- real interruptions, in a process of its own ------------------------------------------------------------

@pytest.fixture(scope="module")
def big_file(tmp_path_factory):
    path = tmp_path_factory.mktemp("big") / "big.txt"
    lines = sample_lines("17clue_sample.txt") + sample_lines("top1465_sample.txt")
    path.write_text("\n".join(lines * 4000) + "\n")  # 240,000 puzzles: about two seconds on one thread
    return path


def command_line(*args):
    return [sys.executable, "-m", "bitdoku", *args]


@pytest.fixture(scope="module")
def uninterrupted(big_file, tmp_path_factory):
    out = tmp_path_factory.mktemp("whole") / "whole.txt"
    subprocess.run(command_line("solve", str(big_file), "-o", str(out), "-j", "1"), check=True, timeout=300)
    return out.read_bytes()


def test_kill_9_at_any_moment_then_resume_gives_identical_output(tmp_path, big_file, uninterrupted):
    out = tmp_path / "out.txt"
    draw = random.Random(7)
    for _ in range(3):
        process = subprocess.Popen(command_line("solve", str(big_file), "-o", str(out), "-j", "1", "--resume"),
                                   stderr=subprocess.DEVNULL)
        time.sleep(draw.uniform(0.7, 1.6))
        process.kill()
        process.wait()
        if out.exists():
            break
    subprocess.run(command_line("solve", str(big_file), "-o", str(out), "-j", "1", "--resume"), check=True,
                   timeout=300, stderr=subprocess.DEVNULL)
    assert out.read_bytes() == uninterrupted


def test_ctrl_c_stops_the_batch_and_leaves_whole_lines(tmp_path, big_file, uninterrupted):
    out = tmp_path / "out.txt"
    process = subprocess.Popen(command_line("solve", str(big_file), "-o", str(out), "-j", "2"),
                               stderr=subprocess.PIPE)
    partial = tmp_path / "out.txt.partial"
    deadline = time.time() + 60
    while (not partial.exists() or partial.stat().st_size == 0) and time.time() < deadline:
        time.sleep(0.02)
    process.send_signal(signal.SIGINT)
    _, err = process.communicate(timeout=30)
    assert process.returncode == ExitCode.INTERRUPTED and b"interrupted" in err
    kept = partial.read_bytes()
    # Stopped where it was, not after the batch: less than the whole output (no clock here: the box is shared;
    # how soon it stops is measured by benchmarks/faults_bench.py).
    assert kept.endswith(b"\n") and uninterrupted.startswith(kept) and len(kept) < len(uninterrupted)
    subprocess.run(command_line("solve", str(big_file), "-o", str(out), "-j", "2", "--resume"), check=True,
                   timeout=300, stderr=subprocess.DEVNULL)
    assert out.read_bytes() == uninterrupted


#: One kill point for each batch command, the two signals in turn (the campaign of 100 random points a command
#: is benchmarks/faults_bench.py); rate writes a line at a time, the others a chunk of 16,384 lines at a time.
KILLS = {"solve": (["solve", "-j", "1"], signal.SIGINT),
         "count": (["count", "--limit", "2", "-j", "1"], signal.SIGKILL),
         "check": (["check", "-j", "1"], signal.SIGINT),
         "canon": (["canon", "-j", "1"], signal.SIGKILL),
         "rate": (["rate"], signal.SIGINT)}


@pytest.fixture(scope="module")
def three_chunks(tmp_path_factory):
    """35,000 puzzles (three chunks) and a bad line, and a file of easy ones for rate (a few ms each)."""
    folder = tmp_path_factory.mktemp("chunks")
    lines = sample_lines("17clue_sample.txt") + sample_lines("top1465_sample.txt") + sample_lines("famous.txt")
    many, easy = folder / "many.txt", folder / "easy.txt"
    many.write_text("\n".join([*(lines * 300)[:17_500], "not a puzzle", *(lines * 300)[:17_500]]) + "\n")
    easy.write_text("\n".join([*sample_lines("17clue_sample.txt") * 10, "not a puzzle"]) + "\n")
    return many, easy


@pytest.mark.parametrize("name", KILLS)
def test_a_kill_after_the_first_results_then_resume_gives_identical_output(tmp_path, three_chunks, name):
    command, sig = KILLS[name]
    source = three_chunks[1] if name == "rate" else three_chunks[0]
    whole = invoke(*command, str(source), "--lenient").stdout
    out, partial = tmp_path / "out.txt", tmp_path / "out.txt.partial"
    args = command_line(*command, str(source), "--lenient", "-o", str(out))
    process = subprocess.Popen(args, stderr=subprocess.PIPE)
    deadline = time.time() + 120
    while (not partial.exists() or partial.stat().st_size == 0) and time.time() < deadline:
        time.sleep(0.005)
    process.send_signal(sig)
    _, err = process.communicate(timeout=60)
    assert not out.exists() and 0 < partial.stat().st_size < len(whole)  # the kill landed mid-run
    if sig == signal.SIGINT:
        assert process.returncode == ExitCode.INTERRUPTED and b"Traceback" not in err
    resumed = subprocess.run([*args, "--resume"], capture_output=True, timeout=300)
    assert b"resuming after" in resumed.stderr and resumed.returncode == ExitCode.BAD_INPUT  # the bad line
    assert out.read_text() == whole and not partial.exists()


@pytest.mark.parametrize("where", ["importing", "running"])
def test_ctrl_c_while_the_command_starts_ends_quietly(where):
    """A Ctrl-C in the imports or the CLI's setup (before its own handler runs) ends with 130 and no traceback."""
    interrupt = "raise KeyboardInterrupt"
    setup = {
        "importing": "import builtins\nreal = builtins.__import__\n"
                     "def hook(name, *args, **kwargs):\n"
                     f"    if name == 'bitdoku.cli.main':\n        {interrupt}\n"
                     "    return real(name, *args, **kwargs)\n"
                     "builtins.__import__ = hook\n",
        "running": f"import bitdoku.cli.main\ndef app():\n    {interrupt}\nbitdoku.cli.main.app = app\n",
    }[where]
    done = subprocess.run([sys.executable, "-c", setup + "from bitdoku.__main__ import main\nmain()"],
                          capture_output=True, text=True, timeout=120)
    assert (done.returncode, done.stderr) == (ExitCode.INTERRUPTED, "bitdoku: interrupted\n")


def test_the_console_script_keeps_exit_codes_and_output(tmp_path):
    path = tmp_path / "p.txt"
    path.write_text("..3..4.221......\n" + "11" + "." * 14 + "\n")
    done = subprocess.run(command_line("check", str(path)), capture_output=True, text=True, timeout=120,
                          env={**os.environ, "PYTHONUNBUFFERED": "0"})
    assert done.returncode == ExitCode.INVALID_GRID
    assert done.stdout.splitlines()[0] == "unique" and done.stdout.splitlines()[1].startswith("invalid: ")
