import subprocess
import sys

import cv2
import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from bitdoku.engines.result import Status
from bitdoku.errors import MissingExtraError
from bitdoku.photo import PhotoError, PhotoReading, read

from .conftest import DATA, digits_of, outline_of
from .render import FONTS, draw_grid, photograph, puzzle


def test_each_committed_photo_is_read_exactly(photo):
    reading = read(DATA / photo)
    assert isinstance(reading, PhotoReading)
    assert np.array_equal(reading.grid.to_array(), digits_of(photo))
    assert reading.status is Status.UNIQUE
    assert len(reading.confidence) == 81 and all(0 <= c <= 1 for c in reading.confidence)
    side = np.linalg.norm(outline_of(photo)[0] - outline_of(photo)[1])
    assert np.linalg.norm(np.array(reading.corners) - outline_of(photo), axis=1).max() < 0.05 * side


def test_the_line_has_a_dot_for_each_empty_cell():
    reading = read(DATA / "image1.jpg")
    line = "".join(str(d) if d else "." for d in digits_of("image1.jpg").ravel())
    assert reading.to_line() == line == str(reading)


def test_a_photo_taken_sideways_is_read_upright():
    image = cv2.rotate(cv2.imread(str(DATA / "image165.jpg")), cv2.ROTATE_90_CLOCKWISE)
    reading = read(image)
    assert np.array_equal(reading.grid.to_array(), digits_of("image165.jpg"))
    top_left = np.array(reading.corners[0])
    assert top_left[0] > image.shape[1] / 2 and top_left[1] < image.shape[0] / 2  # the grid's top-left is now top right


@given(seed=st.integers(0, 2**32 - 1), givens=st.integers(17, 45), font=st.sampled_from(FONTS))
def test_a_rendered_puzzle_in_perspective_reads_back_exactly(seed, givens, font):
    rng = np.random.default_rng(seed)
    digits = puzzle(rng, givens)
    image, corners = photograph(draw_grid(digits, font=font), rng)
    reading = read(image, correct_with_solver=False)
    assert np.array_equal(reading.as_read.to_array(), digits)
    assert np.abs(np.array(reading.corners) - corners).max() < 8


def test_where_the_paper_s_edge_passes_for_another_grid_the_9x9_reading_wins():
    from bitdoku.photo.decode import decode
    from bitdoku.photo.locate import locate

    for seed in (0, 9):  # the lines alone take the paper for a 9x9 (seed 0) or a 6x6 (seed 9) grid's frame
        rng = np.random.default_rng(seed)
        digits = puzzle(rng, int(rng.integers(17, 46)))
        image, corners = photograph(draw_grid(digits, font=FONTS[seed % 3]), rng)
        by_lines = locate(decode(image).gray, (6, 9, 16))
        assert np.abs(by_lines.corners - corners).max() > 20
        reading = read(image, correct_with_solver=False)
        assert np.array_equal(reading.as_read.to_array(), digits)
        assert np.abs(np.array(reading.corners) - corners).max() < 8


def test_a_size_the_image_does_not_hold_names_the_size_it_does():
    with pytest.raises(PhotoError) as raised:
        read(DATA / "image1.jpg", size=6)
    assert str(raised.value) == "image1.jpg: the grid is 9x9, not 6x6" and raised.value.kind == "other-size"


def test_the_solver_reports_the_cells_it_corrects():
    rng = np.random.default_rng(1)
    digits = puzzle(rng, 30)
    reading = read(photograph(draw_grid(digits), rng)[0])
    assert reading.corrected == () or set(reading.corrected) <= set(reading.doubtful())


def test_a_page_without_a_grid_says_so_with_the_file_name(tmp_path):
    path = tmp_path / "photo.jpg"
    cv2.imwrite(str(path), np.full((480, 640, 3), 210, np.uint8))
    with pytest.raises(PhotoError) as raised:
        read(path)
    assert str(raised.value) == "no Sudoku grid found in photo.jpg" and raised.value.kind == "no-grid"


def test_a_grid_too_small_to_read_asks_to_get_closer():
    rng = np.random.default_rng(3)
    image, _ = photograph(draw_grid(puzzle(rng)), rng, skew=0.02)
    small = cv2.resize(image, (160, 120), interpolation=cv2.INTER_AREA)
    canvas = np.full((480, 640, 3), 90, np.uint8)
    canvas[200:320, 300:460] = small
    with pytest.raises(PhotoError, match=r"too small to read: \d+ px across; get closer"):
        read(canvas)


def truncated_jpeg() -> bytes:
    data = (DATA / "image1.jpg").read_bytes()
    return data[: len(data) // 2]


@pytest.mark.parametrize("data, kind", [
    (b"", "empty"),
    (b"not an image at all, just text\n" * 10, "not-an-image"),
    (b"GIF89a\x01\x00\x01\x00", "truncated"),
    (bytes(range(256)) * 4, "not-an-image"),
    (b"\xff\xd8\xff\xc0\x00\x11\x08\xff\xff\xff\xff\x03" + b"\0" * 64 + b"\xff\xd9", "too-large"),
])
def test_bad_input_is_a_photo_error_of_its_kind(data, kind):
    with pytest.raises(PhotoError) as raised:
        read(data)
    assert raised.value.kind == kind


def test_a_truncated_jpeg_is_an_error_not_a_crash(tmp_path):
    path = tmp_path / "cut.jpg"
    path.write_bytes(truncated_jpeg())
    with pytest.raises(PhotoError, match=r"cut\.jpg: .*truncated"):
        read(path)


def test_an_empty_file_is_an_error(tmp_path):
    path = tmp_path / "empty.png"
    path.write_bytes(b"")
    with pytest.raises(PhotoError, match=r"empty\.png: the file is empty"):
        read(path)


def test_a_photo_error_is_a_bitdoku_parse_error():
    from bitdoku.errors import BitdokuError, ParseError

    assert issubclass(PhotoError, ParseError) and issubclass(PhotoError, BitdokuError)


def run(code: str) -> str:
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.strip()


def test_importing_bitdoku_or_its_photo_package_does_not_load_opencv():
    assert run("import sys, bitdoku, bitdoku.photo; print('cv2' in sys.modules)") == "False"


def test_without_opencv_reading_asks_for_the_extra():
    code = ("import sys; sys.modules['cv2'] = None\n"
            "from bitdoku.photo import read\n"
            "try:\n    read(b'\\x89PNG\\r\\n\\x1a\\n' + bytes(30))\n"
            "except ImportError as e:\n    print(type(e).__name__, e)")
    output = run(code)
    assert output.startswith(MissingExtraError.__name__) and "pip install 'bitdoku[photo]'" in output
