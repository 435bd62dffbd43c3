import cv2
import numpy as np
import pytest

from bitdoku.photo.decode import WORKING_SIDE, decode
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
