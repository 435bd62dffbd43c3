import io
import os

import cv2
import numpy as np
import pytest

from bitdoku.photo.decode import WORKING_SIDE, _decoder_messages, decode
from bitdoku.photo.errors import PhotoError

from .conftest import DATA


def test_a_path_bytes_and_an_array_decode_alike():
    path = DATA / "image1.jpg"
    from_path, from_bytes = decode(path), decode(path.read_bytes())
    from_array = decode(cv2.imread(str(path)))
    assert from_path.gray.shape == from_bytes.gray.shape == from_array.gray.shape == (480, 640)
    assert from_path.source == "image1.jpg" and from_bytes.source is None
    assert np.abs(from_path.gray.astype(int) - from_array.gray).mean() < 2


def test_a_pil_image_is_accepted():
    image = pytest.importorskip("PIL.Image")
    assert decode(image.open(DATA / "image1.jpg")).gray.shape == (480, 640)


@pytest.mark.parametrize("shape", [(40, 50), (40, 50, 1), (40, 50, 3), (40, 50, 4)])
def test_gray_bgr_and_bgra_arrays_become_gray(shape):
    assert decode(np.zeros(shape, np.uint8)).gray.shape == (40, 50)


@pytest.mark.parametrize("bad", [np.zeros((4, 4), np.float64), np.zeros((4, 4, 2), np.uint8), np.zeros(5, np.uint8),
                                 42, None, "no such file.jpg"])
def test_what_is_not_an_image_is_a_photo_error(bad):
    with pytest.raises(PhotoError):
        decode(bad)


def test_a_large_jpeg_is_decoded_reduced_and_its_scale_kept():
    _, encoded = cv2.imencode(".jpg", np.full((3000, 4000), 200, np.uint8))
    decoded = decode(encoded.tobytes())
    assert WORKING_SIDE <= max(decoded.gray.shape) <= 1.5 * WORKING_SIDE
    assert decoded.scale * decoded.gray.shape[1] == pytest.approx(4000)


def test_the_pixel_cap_applies_before_decoding():
    _, encoded = cv2.imencode(".png", np.zeros((100, 100), np.uint8))
    with pytest.raises(PhotoError, match="too large") as raised:
        decode(encoded.tobytes(), max_pixels=5_000)
    assert raised.value.kind == "too-large"


def test_a_pil_image_over_the_pixel_cap_is_refused_before_it_is_converted():
    image = pytest.importorskip("PIL.Image")
    with pytest.raises(PhotoError, match="too large"):
        decode(image.new("RGB", (100, 100)), max_pixels=5_000)


def test_the_size_is_the_original_s_as_displayed():
    assert decode(np.zeros((40, 50), np.uint8)).size == (50, 40)
    _, encoded = cv2.imencode(".jpg", np.full((3000, 4000), 200, np.uint8))
    assert decode(encoded.tobytes()).size == (4000, 3000)


def test_a_size_turned_by_exif_is_the_displayed_one():
    image = pytest.importorskip("PIL.Image")
    out = io.BytesIO()
    picture = image.new("L", (200, 100), 128)
    exif = picture.getexif()
    exif[0x0112] = 6  # orientation: turn 90 degrees clockwise to display
    picture.save(out, format="JPEG", exif=exif)
    decoded = decode(out.getvalue())
    assert decoded.gray.shape == (200, 100) and decoded.size == (100, 200)


def test_an_animated_gif_decodes_to_its_first_frame():
    image = pytest.importorskip("PIL.Image")
    frames = [image.new("L", (80, 60), value) for value in (10, 200, 90)]
    out = io.BytesIO()
    frames[0].save(out, format="GIF", save_all=True, append_images=frames[1:], duration=100, loop=0)
    decoded = decode(out.getvalue())
    assert decoded.gray.shape == (60, 80) and abs(int(decoded.gray.mean()) - 10) <= 1


def test_libjpeg_s_warnings_stay_off_the_terminal_and_a_jpeg_ending_early_is_truncated(capfd):
    data = (DATA / "image1.jpg").read_bytes()
    scan = data.find(b"\xff\xda")
    assert decode(data[:scan] + b"\0\0\0" + data[scan:]).gray.shape == (480, 640)  # extraneous bytes: harmless
    with pytest.raises(PhotoError, match="damaged or truncated") as raised:
        decode(data[: len(data) // 2] + b"\xff\xd9")  # libjpeg would fill the missing half with gray
    assert raised.value.kind == "truncated"
    assert capfd.readouterr().err == ""


def test_what_others_write_during_a_decode_still_reaches_stderr(capfd):
    with _decoder_messages() as messages:
        os.write(2, b"Corrupt JPEG data: 3 extraneous bytes before marker 0xda\nanother thread's line\n")
    assert messages == ["Corrupt JPEG data: 3 extraneous bytes before marker 0xda"]
    assert capfd.readouterr().err == "another thread's line\n"


def test_bytes_over_the_file_cap_are_refused_before_decoding(monkeypatch):
    from bitdoku.photo import decode as module

    monkeypatch.setattr(module, "MAX_BYTES", 1000)
    with pytest.raises(PhotoError, match="too large: over 1,000 bytes") as raised:
        decode((DATA / "image1.jpg").read_bytes())
    assert raised.value.kind == "too-large"
