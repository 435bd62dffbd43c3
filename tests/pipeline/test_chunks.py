"""The chunk reader against ``read_entries``: the same entries, line numbers and errors, on any file."""

import glob
import io
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bitdoku.data import sample_path
from bitdoku.pipeline import chunks
from bitdoku.pipeline.chunks import PlainChunk, read_chunks
from bitdoku.reader import MAX_LINE_LENGTH, read_entries

SHARED = Path(__file__).resolve().parents[3] / "shared" / "data"
FILES = sorted(glob.glob(str(sample_path("famous.txt").parent / "*.txt"))) + sorted(glob.glob(str(SHARED / "*.txt")))


def described(entries):
    return [(e.line, e.grid.to_line() if e.grid else None, str(e.error) if e.error else None) for e in entries]


def through_chunks(path, **options):
    out = []
    for chunk in read_chunks(path, **options):
        out += chunk.entries() if isinstance(chunk, PlainChunk) else chunk.entries
    return described(out)


@pytest.mark.parametrize("path", FILES, ids=lambda p: Path(p).name)
def test_every_data_file_reads_the_same(path):
    assert through_chunks(path) == described(read_entries(path))


FRAGMENTS = [
    "8..........36......7..9.2...5...7.......457.....1...3...1....68..85...1..9....4..",
    "..3..4.221......",
    "1..4\n....\n....\n4..1",
    "1 . | . 4\n. . | . .\n----+----\n. . | . .\n4 . | . 1",
    "5 3 0 0\n0 0 0 0\n0 0 0 0\n0 0 0 3",
    "..3..4.221...... # a comment",
    "# only a comment",
    "",
    "   ",
    "1.3x............",
    "..3..4.221.....",
    "\ufeff..3..4.221......",
    "11..............",
    "..3..4.22G......",
    "1..4\n....",
    "ÿþ\x00\x01binary",
    "G" * 256,
    "." * 36,
    "-----+-----",
]


@st.composite
def files(draw):
    parts = draw(st.lists(st.sampled_from(FRAGMENTS), min_size=0, max_size=30))
    endings = draw(st.lists(st.sampled_from(["\n", "\r\n", "\r"]), min_size=len(parts), max_size=len(parts)))
    text = "".join(part + end for part, end in zip(parts, endings, strict=True))
    if draw(st.booleans()):
        text = text.rstrip("\r\n")
    return text.encode("utf-8")


@settings(max_examples=200)
@given(data=files(), block=st.integers(1, 200), chunk=st.integers(1, 7), shape=st.sampled_from([None, "2x2", "3x3"]))
def test_any_file_reads_the_same_whatever_the_block_sizes(tmp_path_factory, data, block, chunk, shape):
    path = tmp_path_factory.mktemp("f") / "puzzles.txt"
    path.write_bytes(data)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(chunks, "BLOCK_BYTES", block)
        patch.setattr(chunks, "CHUNK_PUZZLES", chunk)
        assert through_chunks(path, shape=shape) == described(read_entries(path, shape=shape))


def test_an_overlong_line_is_one_error_and_memory_stays_bounded(tmp_path, monkeypatch):
    path = tmp_path / "long.txt"
    path.write_bytes(b"..3..4.221......\n" + b"1" * (5 * MAX_LINE_LENGTH) + b"\n..3..4.221......\n"
                     + b"2" * (6 * MAX_LINE_LENGTH))
    monkeypatch.setattr(chunks, "BLOCK_BYTES", 4096)
    read = through_chunks(path)
    assert read == described(read_entries(path))
    assert [line for line, _, error in read if error and "longer than" in error] == [2, 4]


def test_plain_lines_become_arrays_and_other_chunks_entries(tmp_path, monkeypatch):
    monkeypatch.setattr(chunks, "CHUNK_PUZZLES", 4)  # lines 1-4, then 5-8 (a picture starts), then 9
    path = tmp_path / "p.txt"
    path.write_text("# header\n..3..4.221......\n1.3.............\n\n" + "." * 81 + "\n1..4\n....\n....\n4..1\n")
    got = list(read_chunks(path))
    plain = [c for c in got if isinstance(c, PlainChunk)]
    assert plain and plain[0].puzzles.dtype == np.uint8 and plain[0].lines.tolist()[:2] == [2, 3]
    assert sum(len(c) for c in got) == len(list(read_entries(path)))
    assert not isinstance(got[1], PlainChunk)  # the chunk with the picture went through the scanner


def test_skip_leaves_out_the_first_entries(tmp_path):
    path = tmp_path / "p.txt"
    lines = ["..3..4.221......", "bad", "1.3.............", "." * 81, "4..1" * 4]
    path.write_text("\n".join(lines) + "\n")
    whole = through_chunks(path)
    for skip in range(len(whole) + 1):
        assert through_chunks(path, skip=skip) == whole[skip:]


def test_stdin_is_read_as_bytes(monkeypatch):
    monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO(b"..3..4.221......\r\n1.3.............\r\n")))
    assert [line for line, _, _ in through_chunks("-")] == [1, 2]
