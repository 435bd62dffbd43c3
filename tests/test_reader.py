import io

import pytest

from bitdoku import Grid, ParseError, Shape, read_entries, read_puzzles, reader
from bitdoku.data import DEMO


def test_comments_and_blank_lines_are_skipped_and_lines_are_numbered(tmp_path):
    path = tmp_path / "p.txt"
    path.write_text(f"# a list\n\n{DEMO}   # the demo\n\n1.3.3.........1.\n")
    entries = list(read_entries(path))
    assert [e.line for e in entries] == [3, 5]
    assert entries[0].grid == Grid.parse(DEMO) and entries[1].grid.shape == Shape(2, 2)


def test_first_bad_line_raises_with_file_and_line(tmp_path):
    path = tmp_path / "bad.txt"
    path.write_text(f"{DEMO}\n{DEMO[:-1]}\n")
    puzzles = read_puzzles(path)
    assert next(puzzles) == Grid.parse(DEMO)
    with pytest.raises(ParseError) as info:
        next(puzzles)
    assert (info.value.source, info.value.line) == (str(path), 2)
    assert str(info.value).startswith(f"{path}:2: found 80 cells")


def test_lenient_reading_reports_each_bad_line_and_goes_on():
    text = f"{DEMO}\nxyz\n{DEMO[:33]}x{DEMO[34:]}\n{DEMO}\n"
    entries = list(read_entries(io.StringIO(text)))
    assert [e.grid is not None for e in entries] == [True, False, False, True]
    assert entries[2].error.line == 3 and entries[2].error.column == 34 and entries[2].error.cell == "r4c7"
    assert str(entries[2].error).startswith("<input>:3:34 (r4c7): unexpected character 'x'")
    assert list(read_puzzles(io.StringIO(text), errors="skip")) == [Grid.parse(DEMO)] * 2


def test_block_pictures_and_integer_rows_in_a_file():
    rows = "\n".join(" ".join("0" if ch == "." else ch for ch in DEMO[r * 9 : r * 9 + 9]) for r in range(9))
    picture = str(Grid.parse(DEMO))
    text = f"{rows}\n\n{picture}\n{DEMO}\n"
    entries = list(read_entries(io.StringIO(text)))
    assert [e.line for e in entries] == [1, 11, 22]
    assert all(e.grid == Grid.parse(DEMO) for e in entries)


def test_unfinished_block_picture_is_an_error_that_does_not_swallow_the_next_puzzle():
    text = "1 2 3 4\n3 4 1 2\n" + DEMO + "\n"
    entries = list(read_entries(io.StringIO(text)))
    assert "needs 4 rows, found 2" in str(entries[0].error)
    assert entries[1].grid == Grid.parse(DEMO) and entries[1].line == 3


def test_a_given_shape_reads_rectangular_boxes():
    grid = Grid.empty("3x2")
    entries = list(read_entries(io.StringIO(grid.to_line() + "\n"), shape="3x2"))
    assert entries[0].grid == grid


def test_an_overlong_line_is_skipped_in_constant_memory(monkeypatch):
    monkeypatch.setattr(reader, "MAX_LINE_LENGTH", 100)
    text = "." * 1000 + "\n" + "1.3.3.........1." + "\n"
    entries = list(read_entries(io.StringIO(text)))
    assert "longer than 100 characters" in str(entries[0].error) and entries[0].line == 1
    assert entries[1].grid is not None and entries[1].line == 2


def test_binary_file_gives_errors_not_crashes(tmp_path):
    path = tmp_path / "noise.bin"
    path.write_bytes(bytes(range(256)) * 4)
    entries = list(read_entries(path))
    assert entries and all(e.error is not None for e in entries)


def test_missing_file_is_a_clean_error(tmp_path):
    with pytest.raises(ParseError, match="cannot read the file"):
        list(read_puzzles(tmp_path / "nope.txt"))


def test_reading_is_lazy_so_memory_stays_constant():
    def endless():
        while True:
            yield DEMO + "\n"

    class Stream(io.TextIOBase):
        lines = endless()

        def readline(self, size=-1):
            return next(self.lines)

    puzzles = read_puzzles(Stream())
    assert [next(puzzles) for _ in range(3)] == [Grid.parse(DEMO)] * 3


# -- variants ---------------------------------------------------------------------------------------------------

JIGSAW_MAP_4 = "AABB" "AABC" "CDBC" "DDDC"


class _CountingLines(io.StringIO):
    """A stream that counts the lines read from it, to show that the reader does not read ahead."""

    name = "<counting>"
    lines_read = 0

    def readline(self, *args):  # type: ignore[override]
        self.lines_read += 1
        return super().readline(*args)


def test_a_jigsaw_puzzle_takes_the_next_line_as_its_region_map_across_comments():
    text = f"1...............\n# regions:\n\n{JIGSAW_MAP_4}\n..3.............\nAABB AABB CCDD CCDD\n"
    entries = list(read_entries(io.StringIO(text), variant="jigsaw"))
    assert [e.line for e in entries] == [1, 5]
    assert entries[0].grid == Grid.parse(f"1...............\n{JIGSAW_MAP_4}", variant="jigsaw")
    assert entries[1].grid.geometry.region_map() == "AABBAABBCCDDCCDD"


def test_a_bad_map_is_reported_at_its_line_and_cell_and_a_missing_one_at_the_puzzle():
    text = "1...............\nAABBAABCCDBCDDDE\n1...............\n"
    entries = list(read_entries(io.StringIO(text), variant="jigsaw"))
    assert [e.line for e in entries] == [1, 3] and all(e.grid is None for e in entries)
    assert (entries[0].error.line, entries[0].error.cell) == (2, "r4c4")
    assert entries[1].error.line == 3 and "no region map line" in str(entries[1].error)


def test_one_region_map_serves_every_puzzle_and_json_keeps_its_own_variant():
    x = Grid.parse("1" + "." * 15, variant="x")
    text = f"1...............\n{x.to_json()}\n"
    first, second = read_entries(io.StringIO(text), regions=JIGSAW_MAP_4)
    assert first.grid.variant == "jigsaw" and first.grid.geometry.region_map() == JIGSAW_MAP_4
    assert second.grid == x
    with pytest.raises(ParseError, match="one too many"):
        read_entries(io.StringIO(text), regions="AABBAABCCDBCDDDE").__next__()


def test_every_puzzle_gets_the_variant_and_a_grid_it_does_not_fit_is_an_error_at_its_line():
    text = f"{DEMO}\n1.3.3.........1.\n"
    x, small = read_entries(io.StringIO(text), variant="x")
    assert x.grid.variant == "x" and small.grid.variant == "x" and small.grid.shape == Shape(2, 2)
    boxes = "".join(band * 3 for band in ("AAABBBCCC", "DDDEEEFFF", "GGGHHHIII"))  # a 9x9 map for a 4x4 puzzle
    _, wrong = read_entries(io.StringIO(text), regions=boxes)
    assert wrong.grid is None and wrong.error.line == 2


def test_variant_files_stream_a_puzzle_at_a_time():
    stream = _CountingLines(f"1...............\n{JIGSAW_MAP_4}\n" * 1000)
    entries = read_entries(stream, variant="jigsaw")
    next(entries)
    assert stream.lines_read <= 3  # the first puzzle, its map, and at most the next line
    assert sum(1 for _ in entries) == 999
