"""A full disk while writing ``-o FILE``: a clear error naming the file, no final file cut short, and ``--resume``
going on once there is room again. Tested twice: on a real 64 KiB tmpfs (needs root, as CI has), and in
process with writes that fail as a full disk's do (partly, then ``ENOSPC``), so the logic is covered anywhere."""

from __future__ import annotations

import errno
import io
import os
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from bitdoku.cli.exit_codes import ExitCode
from bitdoku.cli.main import app
from bitdoku.data import sample_lines
from bitdoku.errors import OutputError
from bitdoku.pipeline import outfile, solve_file

runner = CliRunner()
#: Commands whose results go to ``-o FILE`` (rate writes one puzzle at a time, the others whole blocks).
COMMANDS = [["solve"], ["count", "--limit", "2"], ["check"], ["canon"], ["rate", "--format", "json"]]


def invoke(*args: str):
    return runner.invoke(app, list(args))


@pytest.fixture(scope="module")
def puzzles(tmp_path_factory) -> Path:
    """About 2,000 puzzles and a bad line last: some 160 KB of solutions, more than the small disk holds."""
    lines = sample_lines("17clue_sample.txt") + sample_lines("top1465_sample.txt") + sample_lines("famous.txt")
    path = tmp_path_factory.mktemp("puzzles") / "puzzles.txt"
    path.write_text("\n".join([*lines * 30, "not a puzzle"]) + "\n")
    return path


@pytest.fixture(scope="module")
def easy_puzzles(tmp_path_factory) -> Path:
    """Puzzles ``rate`` answers in a few ms each (its logic solver takes 0.4 s on the hardest), a bad line last."""
    path = tmp_path_factory.mktemp("easy") / "easy.txt"
    path.write_text("\n".join([*sample_lines("17clue_sample.txt") * 2, "not a puzzle"]) + "\n")
    return path


def input_of(command: list[str], request) -> Path:
    return request.getfixturevalue("easy_puzzles" if command[0] == "rate" else "puzzles")


def assert_full_disk_reported(result, out: Path, whole: str) -> None:
    """Exit code 8, one sentence naming the file, no traceback, no final file, whole lines kept for resume."""
    partial = out.with_name(out.name + ".partial")
    assert result.exit_code == ExitCode.OUTPUT, result.output
    assert f"bitdoku: error: cannot write {partial}: the disk is full" in result.stderr
    assert "--resume" in result.stderr and "Traceback" not in result.output
    assert not out.exists()
    assert whole.startswith(partial.read_text()) and partial.stat().st_size < len(whole)


# -- a real full disk ----------------------------------------------------------------------------------------

@pytest.fixture
def small_disk(tmp_path):
    """A 64 KiB tmpfs, unmounted afterwards. Root only: CI runs as root, so there it never skips."""
    if os.geteuid() != 0:
        pytest.skip("mounting a tmpfs needs root (CI runs as root; the in-process tests below cover the logic)")
    where = tmp_path / "disk"
    where.mkdir()
    subprocess.run(["mount", "-t", "tmpfs", "-o", "size=64k", "tmpfs", str(where)], check=True)
    try:
        yield where
    finally:
        subprocess.run(["umount", "-l", str(where)], check=True)


@pytest.mark.parametrize("command", [["solve"], ["canon"]], ids=lambda c: c[0])
def test_a_full_tmpfs_gives_a_clear_error_and_resume_finishes_once_there_is_room(small_disk, puzzles, command):
    whole = invoke(*command, str(puzzles), "--lenient").stdout
    assert len(whole) > 64 * 1024
    out = small_disk / "out.txt"
    args = [*command, str(puzzles), "--lenient", "-o", str(out)]
    assert_full_disk_reported(invoke(*args), out, whole)
    assert_full_disk_reported(invoke(*args, "--resume"), out, whole)  # still full: the same, nothing lost
    subprocess.run(["mount", "-o", "remount,size=1m", str(small_disk)], check=True)
    resumed = invoke(*args, "--resume")
    assert resumed.exit_code == ExitCode.BAD_INPUT, resumed.output  # the bad line, as without a full disk
    assert out.read_text() == whole and not (small_disk / "out.txt.partial").exists()


def test_results_sent_to_a_full_disk_through_stdout_say_so(small_disk, puzzles):
    """``bitdoku solve FILE > DISK/out.txt``: the shell made the file, so it is cut short, but the error is clear."""
    with open(small_disk / "out.txt", "wb") as stdout:
        done = subprocess.run([sys.executable, "-m", "bitdoku", "solve", str(puzzles), "--lenient"], stdout=stdout,
                              stderr=subprocess.PIPE, text=True, timeout=300)
    assert done.returncode == ExitCode.OUTPUT
    assert "bitdoku: error: cannot write the standard output: the disk is full" in done.stderr
    assert "Traceback" not in done.stderr


# -- the same in process: writes that fail as a full disk's do --------------------------------------------------

@pytest.fixture
def disk_room(monkeypatch):
    """Bytes left on a pretend disk for ``ResultFile``'s writes (a list of one int, set by the test): a write
    past it is cut short, the next one fails with ``ENOSPC``, as on a real file system."""
    room = [0]

    class SmallDisk(io.FileIO):
        def write(self, data) -> int:
            size = min(len(data), room[0])
            if not size:
                raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
            room[0] -= size
            return super().write(bytes(data)[:size])

    def open_on_small_disk(path, mode, **text):
        if mode != "a":  # reading back a partial file, cutting it
            return open(path, mode, **text)
        return io.TextIOWrapper(io.BufferedWriter(SmallDisk(path, mode)), **text)

    monkeypatch.setattr(outfile, "open", open_on_small_disk, raising=False)
    return room


@pytest.mark.parametrize("command", COMMANDS, ids=lambda c: c[0])
def test_writes_failing_with_enospc_give_a_clear_error_and_resume_goes_on(tmp_path, request, disk_room, command):
    puzzles = input_of(command, request)
    whole = invoke(*command, str(puzzles), "--lenient").stdout
    out = tmp_path / "out.txt"
    args = [*command, str(puzzles), "--lenient", "-o", str(out)]
    for room in (len(whole) // 3, 1000, 0):  # a run cut, a resume cut (after a piece of a line), no room at all
        disk_room[0] = room
        assert_full_disk_reported(invoke(*args, "--resume"), out, whole)
    disk_room[0] = len(whole)
    assert invoke(*args, "--resume").exit_code == ExitCode.BAD_INPUT
    assert out.read_text() == whole


def test_solve_file_raises_an_output_error_naming_the_partial_file(tmp_path, puzzles, disk_room):
    out = tmp_path / "out.txt"
    disk_room[0] = 5000
    with pytest.raises(OutputError, match=r"out\.txt\.partial: the disk is full \(No space left on device\)"):
        solve_file(puzzles, out, lenient=True)
    assert not out.exists()
    disk_room[0] = 1 << 30
    solve_file(puzzles, out, lenient=True, resume=True)
    assert out.read_text() == invoke("solve", str(puzzles), "--lenient").stdout


def test_other_errors_are_raised_as_they_are(tmp_path):
    target = outfile.ResultFile(tmp_path / "out.txt")
    error = OSError(errno.EIO, os.strerror(errno.EIO))
    assert target.failed(error) is error and target.stream.closed
    assert (tmp_path / "out.txt.partial").exists() and not (tmp_path / "out.txt").exists()
