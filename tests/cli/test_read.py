"""``bitdoku read`` and ``bitdoku solve photo.jpg`` (issue 38): what is printed where, the exit codes, and every
hostile image giving one sentence and exit 6, never a traceback nor a decoder's warning on the terminal."""

from __future__ import annotations

import dataclasses
import inspect
import io
import json
import struct
import zlib
from pathlib import Path

import pytest
from typer.testing import CliRunner

from bitdoku.cli.exit_codes import ExitCode
from bitdoku.cli.main import app
from bitdoku.cli.read import DEFAULT_THRESHOLD

cv2 = pytest.importorskip("cv2")
np = pytest.importorskip("numpy")

PHOTO = Path(__file__).parents[1] / "photo" / "data" / "image1.jpg"
# tests/photo/data/image1.dat: the puzzle the photo shows.
LINE = "...7...8..9...31....68.5.7..2.6...49...2...5...8.4...7...9...3.37......61.5..4..."
SOLUTION_ROW = "2 5 3 | 7 1 6 | 9 8 4"  # its solution's first row
runner = CliRunner()


def invoke(*args: str | Path):
    return runner.invoke(app, [str(arg) for arg in args])


def one_sentence(result, code: ExitCode, *words: str) -> None:
    """Exit ``code``, nothing on stdout, one line on stderr that says ``words``, and no traceback."""
    assert result.exit_code == code, result.stdout + result.stderr
    assert result.exception is None or isinstance(result.exception, SystemExit), repr(result.exception)
    assert result.stdout == "" and "Traceback" not in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1 and result.stderr.startswith("bitdoku: error: ")
    for word in words:
        assert word in result.stderr


def test_read_prints_the_line_alone_on_stdout_and_the_check_on_stderr():
    result = invoke("read", PHOTO)
    assert result.exit_code == ExitCode.OK
    assert result.stdout == LINE + "\n"
    assert ". . . | 7 . . | . 8 ." in result.stderr
    assert "doubtful (below 90 %): none" in result.stderr and result.stderr.rstrip().endswith("unique solution")


def test_the_threshold_s_default_is_the_reader_s():
    from bitdoku.photo import PhotoReading

    assert inspect.signature(PhotoReading.doubtful).parameters["threshold"].default == DEFAULT_THRESHOLD


def test_json_holds_every_fact_of_the_reading():
    result = invoke("read", PHOTO, "--json")
    assert result.exit_code == ExitCode.OK and result.stderr == ""
    record = json.loads(result.stdout)
    assert record["line"] == record["as_read"] == LINE
    assert record["size"] == 9 and record["shape"] == "3x3" and record["status"] == "unique"
    assert len(record["confidence"]) == 81 and all(0 <= c <= 1 for c in record["confidence"])
    assert len(record["corners"]) == 4 and all(len(point) == 2 for point in record["corners"])
    assert record["corners"][0][0] < record["corners"][1][0]  # top-left first, then clockwise
    assert record["corrected"] == [] and record["doubtful"] == [] and record["threshold"] == DEFAULT_THRESHOLD


def test_a_high_threshold_makes_cells_doubtful_and_marks_them():
    record = json.loads(invoke("read", PHOTO, "--json", "--threshold", "1").stdout)
    assert len(record["doubtful"]) == 81 and record["doubtful"][0] == "r1c1"
    result = invoke("read", PHOTO, "--threshold", "1")
    picture = result.stderr.splitlines()[0]
    assert picture == ". . . | 7 . . | . 8 .    ? ? ? | ? ? ? | ? ? ?"
    assert "r1c4 7 (" in result.stderr


@pytest.fixture
def reading_of_image1():
    from bitdoku import photo

    return photo.read(PHOTO)


def test_corrected_and_doubtful_cells_are_named_and_not_unique_exits_3(monkeypatch, reading_of_image1):
    from bitdoku import photo
    from bitdoku.engines.result import Status
    from bitdoku.grid import Grid

    as_read = Grid.parse("8" + LINE[1:])
    confidence = (0.4, 0.55, *reading_of_image1.confidence[2:])
    fake = dataclasses.replace(reading_of_image1, as_read=as_read, corrected=(0,), confidence=confidence,
                               status=Status.MULTIPLE)
    monkeypatch.setattr(photo, "read", lambda image, **options: fake)
    result = invoke("read", PHOTO)
    assert result.exit_code == ExitCode.NO_SOLUTION and result.stdout == LINE + "\n"
    assert result.stderr.splitlines()[0] == ". . . | 7 . . | . 8 .    * ? . | . . . | . . ."
    assert "doubtful (below 90 %): r1c2 empty (55 %); corrected by the solver: r1c1 8 -> empty" in result.stderr
    assert "several solutions" in result.stderr
    assert json.loads(invoke("read", PHOTO, "--json").stdout)["corrected"] == ["r1c1"]


def test_no_correct_is_passed_to_the_reader(monkeypatch, reading_of_image1):
    from bitdoku import photo

    seen = {}

    def fake(image, **options):
        seen.update(options)
        return reading_of_image1

    monkeypatch.setattr(photo, "read", fake)
    assert invoke("read", PHOTO, "--no-correct").exit_code == ExitCode.OK
    assert seen == {"correct_with_solver": False, "size": "auto"}


def test_debug_image_writes_a_png_of_the_image_s_size(tmp_path):
    out = tmp_path / "found.png"
    result = invoke("read", PHOTO, "--debug-image", out)
    assert result.exit_code == ExitCode.OK and result.stdout == LINE + "\n"
    assert out.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert cv2.imread(str(out)).shape == cv2.imread(str(PHOTO)).shape == (480, 640, 3)


def test_debug_image_to_a_missing_folder_or_an_unknown_suffix_is_one_sentence(tmp_path):
    one_sentence(invoke("read", PHOTO, "--debug-image", tmp_path / "no" / "found.png"), ExitCode.OUTPUT,
                 "cannot write", "found.png")
    one_sentence(invoke("read", PHOTO, "--debug-image", tmp_path / "found.txt"), ExitCode.USAGE, "found.txt")


def test_read_takes_the_image_from_stdin(tmp_path):
    out = tmp_path / "found.png"
    result = runner.invoke(app, ["read", "-", "--debug-image", str(out)], input=PHOTO.read_bytes())
    assert result.exit_code == ExitCode.OK and result.stdout == LINE + "\n"
    assert cv2.imread(str(out)).shape == (480, 640, 3)
    one_sentence(runner.invoke(app, ["read", "-"], input=b""), ExitCode.BAD_INPUT, "the file is empty")


def test_read_piped_into_solve_solves_it(tmp_path):
    line = invoke("read", PHOTO).stdout
    result = runner.invoke(app, ["solve", "-"], input=line)
    assert result.exit_code == ExitCode.OK and result.stdout.startswith("253716984")


@pytest.mark.parametrize("command", ["solve", "count", "check", "rate", "hint", "explain"])
def test_a_photo_is_a_puzzle_for_every_command_with_a_note_on_stderr(command):
    result = invoke(command, PHOTO)
    assert result.exit_code == ExitCode.OK, result.stdout + result.stderr
    assert result.stderr.startswith(f"bitdoku: read from the photo image1.jpg: {LINE}\n")
    if command == "solve":
        assert result.stdout.startswith(SOLUTION_ROW + "\n")


def test_a_photo_without_an_image_suffix_is_known_by_its_first_bytes(tmp_path):
    copy = tmp_path / "scan"
    copy.write_bytes(PHOTO.read_bytes())
    result = invoke("solve", copy)
    assert result.exit_code == ExitCode.OK and result.stdout.startswith(SOLUTION_ROW)


def test_a_missing_photo_is_no_such_file_not_puzzle_text():
    one_sentence(invoke("solve", "missing.JPG"), ExitCode.BAD_INPUT, "missing.JPG: no such file")
    one_sentence(invoke("read", "missing.jpg"), ExitCode.BAD_INPUT, "missing.jpg: cannot read the file")


def test_a_photo_of_another_shape_than_shape_says_so():
    one_sentence(invoke("solve", PHOTO, "--shape", "2x3"), ExitCode.BAD_INPUT, "image1.jpg: the grid is 9x9, not 6x6")
    assert invoke("solve", PHOTO, "--shape", "3x3").exit_code == ExitCode.OK


def test_a_photo_with_a_variant_is_a_usage_error():
    one_sentence(invoke("solve", PHOTO, "--variant", "x"), ExitCode.USAGE, "classic Sudoku")


# Hostile images: each is built here, written with the name it would have, and must give exit 6 and a sentence.

def png_header(width: int, height: int) -> bytes:
    """A PNG that declares ``width`` x ``height`` gray pixels, then stops."""
    ihdr = struct.pack(">IIBBBBB", width, height, 8, 0, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + _chunk(b"IHDR", ihdr)


def _chunk(kind: bytes, data: bytes) -> bytes:
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)


def bomb() -> bytes:
    """A complete, valid PNG of 100,000 x 100,000 zeros: a few kilobytes on disk, 10 GB decoded."""
    rows = zlib.compressobj(9)
    data = b"".join(rows.compress(b"\0" * 100_001) for _ in range(1000)) + rows.flush()
    return png_header(100_000, 100_000) + _chunk(b"IDAT", data) + _chunk(b"IEND", b"")


def gif_animation(frames) -> bytes:
    image = pytest.importorskip("PIL.Image")
    pictures = [image.fromarray(frame) for frame in frames]
    out = io.BytesIO()
    pictures[0].save(out, format="GIF", save_all=True, append_images=pictures[1:], duration=100, loop=0)
    return out.getvalue()


def jpeg_cut_short() -> bytes:
    """The photo cut in half (an interrupted download), with its end marker put back so the header looks whole."""
    data = PHOTO.read_bytes()
    return data[: len(data) // 2] + b"\xff\xd9"


HOSTILE = {
    "text.jpg": (lambda: b"5.3..7....\n" * 9, "not an image"),
    "empty.png": (lambda: b"", "the file is empty"),
    "truncated.jpg": (lambda: PHOTO.read_bytes()[:15_000], "truncated"),
    "cut.jpg": (jpeg_cut_short, "damaged or truncated"),
    "huge.png": (lambda: png_header(10_000, 6_000), "too large: 10000 x 6000 = 60 megapixels (at most 50)"),
    "bomb.png": (bomb, "too large: 100000 x 100000"),
    "truncated.png": (lambda: cv2.imencode(".png", cv2.imread(str(PHOTO)))[1].tobytes()[:50_000], "damaged"),
    "blank.gif": (lambda: gif_animation([np.full((120, 160), v, np.uint8) for v in (40, 200)]), "no Sudoku grid"),
    "image.tiff": (lambda: b"II*\0" + bytes(100), "not an image"),
}


@pytest.mark.parametrize("name", HOSTILE)
@pytest.mark.parametrize("command", ["read", "solve"])
def test_a_hostile_image_is_one_sentence_and_exit_6(tmp_path, capfd, name, command):
    make, words = HOSTILE[name]
    path = tmp_path / name
    path.write_bytes(make())
    one_sentence(invoke(command, path), ExitCode.BAD_INPUT, name, words)
    leaked = capfd.readouterr().err  # what C code wrote to file descriptor 2, past Python's sys.stderr
    assert "JPEG" not in leaked and "libpng" not in leaked and "ERROR" not in leaked, leaked


def test_a_jpeg_with_stray_bytes_reads_and_libjpeg_says_nothing_on_the_terminal(tmp_path, capfd):
    data = PHOTO.read_bytes()
    scan = data.find(b"\xff\xda")
    path = tmp_path / "stray.jpg"
    path.write_bytes(data[:scan] + b"\x00\x01\x02" + data[scan:])  # "3 extraneous bytes before marker 0xda"
    result = invoke("read", path)
    assert result.exit_code == ExitCode.OK and result.stdout == LINE + "\n"
    assert "Corrupt JPEG" not in capfd.readouterr().err


def test_an_animated_gif_is_read_from_its_first_frame(tmp_path):
    photo = cv2.imread(str(PHOTO), cv2.IMREAD_GRAYSCALE)
    path = tmp_path / "animated.gif"
    path.write_bytes(gif_animation([photo, np.full_like(photo, 128), cv2.rotate(photo, cv2.ROTATE_180)]))
    result = invoke("read", path)
    assert result.exit_code == ExitCode.OK and result.stdout == LINE + "\n"


@pytest.mark.parametrize("command", [["read"], ["solve"]])
def test_without_opencv_the_command_asks_for_the_extra(monkeypatch, command):
    monkeypatch.setitem(__import__("sys").modules, "cv2", None)  # `import cv2` now raises ImportError
    result = invoke(*command, PHOTO)
    assert result.exit_code == ExitCode.INTERNAL and result.stdout == "" and "Traceback" not in result.stderr
    assert result.stderr == "bitdoku: error: reading a photo needs extra packages: pip install 'bitdoku[photo]'\n"


def test_a_16x16_screenshot_is_read_at_its_size_and_a_bad_size_is_a_usage_error(tmp_path):
    import cv2
    import numpy as np

    from bitdoku.grid import Grid
    from bitdoku.shape import Shape
    from tests.photo.screens import render_screens as screens

    shape = Shape(4, 4)
    values = screens.random_puzzle(shape, np.random.default_rng(7))
    path = tmp_path / "screen16.png"
    cv2.imwrite(str(path), cv2.cvtColor(np.asarray(screens.render(values, shape)), cv2.COLOR_RGB2BGR))
    expected = Grid.from_array(np.asarray(values).reshape(16, 16).tolist(), shape).to_line()
    result = invoke("read", path, "--no-correct")  # no --size: told from the image
    assert result.exit_code in (ExitCode.OK, ExitCode.NO_SOLUTION), result.output  # a random puzzle: maybe not unique
    line = result.stdout.splitlines()[0]
    assert len(line) == 256  # read as 16x16: the size told from the lines
    assert sum(a != b for a, b in zip(line, expected, strict=True)) <= 2  # the screenshot benchmark's figures hold
    bad = invoke("read", path, "--size", "12")
    assert bad.exit_code == ExitCode.USAGE and "--size: 6, 9, 16 or auto, not '12'" in bad.stderr
    one_sentence(invoke("read", path, "--size", "6"), ExitCode.BAD_INPUT, "the grid is 16x16, not 6x6")
