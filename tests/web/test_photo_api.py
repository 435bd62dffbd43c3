"""``POST /api/photo``: a photo's bytes in, the puzzle read from it out; every hostile image a 4xx with its kind, in
bounded time and memory, and the server still answering after it."""

import io
import resource
import struct
import sys
import time
import zlib

import pytest
from fastapi.testclient import TestClient

from bitdoku.web import create_app
from bitdoku.web.photo import MAX_BYTES, MAX_PIXELS
from tests.photo.conftest import DATA, digits_of

#: The kinds a photo's problems have in the API (PhotoError's kinds, spelt as the API's other kinds are).
PHOTO_KINDS = {"not_an_image", "empty", "truncated", "too_large", "no_grid", "too_small"}


@pytest.fixture(scope="module")
def client():
    with TestClient(create_app(warm_up=False)) as client:
        yield client


def send(client: TestClient, data: bytes, content_type: str = "image/jpeg"):
    return client.post("/api/photo", content=data, headers={"content-type": content_type})


def line_of(photo: str) -> str:
    return "".join(str(d) if d else "." for d in digits_of(photo).ravel())


def png_chunk(kind: bytes, data: bytes) -> bytes:
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))


def png(width: int, height: int, idat: bytes) -> bytes:
    """A gray 8-bit PNG declaring ``width`` x ``height`` with ``idat`` as its compressed rows."""
    header = struct.pack(">IIBBBBB", width, height, 8, 0, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + png_chunk(b"IHDR", header) + png_chunk(b"IDAT", idat) + png_chunk(b"IEND", b"")


def bomb(side: int = 12_000) -> bytes:
    """A real decompression bomb: ``side`` x ``side`` black pixels (144 MB for 12,000) in a few hundred kB."""
    packer = zlib.compressobj(9)
    row = bytes(side + 1)  # filter byte 0, then the pixels
    idat = b"".join(packer.compress(row) for _ in range(side)) + packer.flush()
    return png(side, side, idat)


def animated_gif() -> bytes:
    """Two frames of a white page: an animation, not a photo."""
    from PIL import Image

    frames = [Image.new("L", (320, 240), shade) for shade in (255, 200)]
    out = io.BytesIO()
    frames[0].save(out, format="GIF", save_all=True, append_images=frames[1:], duration=100, loop=0)
    return out.getvalue()


def test_a_photo_gives_its_puzzle_with_each_cells_confidence(client):
    answer = send(client, (DATA / "image1.jpg").read_bytes())
    assert answer.status_code == 200, answer.text
    body = answer.json()
    assert body["puzzle"] == line_of("image1.jpg")
    assert (body["shape"], body["size"], body["status"]) == ("3x3", 9, "unique")
    assert len(body["confidence"]) == 81 and all(0 <= c <= 1 for c in body["confidence"])
    assert (body["doubtful"], body["corrected"], body["as_read"]) == ([], [], body["puzzle"])
    assert len(body["corners"]) == 4 and all(len(corner) == 2 for corner in body["corners"])


def test_the_cells_to_check_come_with_their_names():
    """image165: a faint 7 in r7c7 that the reader is unsure of, so the solver changes it (the library is the
    oracle of what it reads)."""
    from bitdoku.photo import read

    found = read(DATA / "image165.jpg")
    assert found.doubtful(0.9), "image165 is read without a doubt now: choose a photo with one for this test"
    body = send(TestClient(create_app(warm_up=False)), (DATA / "image165.jpg").read_bytes()).json()
    assert body["puzzle"] == found.to_line() and body["as_read"] == found.as_read.to_line()
    assert body["doubtful"] == sorted({i for i, c in enumerate(body["confidence"]) if c < 0.9} | set(body["corrected"]))
    assert body["doubtful"] == list(found.doubtful(0.9)) and body["corrected"] == list(found.corrected)
    assert body["doubtful_names"] == [f"r{c // 9 + 1}c{c % 9 + 1}" for c in found.doubtful(0.9)]
    assert body["corrected_names"] == list(found.corrected_names())


HOSTILE = {
    "text": (b"not an image at all, just text\n" * 10, "text/plain", 422, "not_an_image"),
    "empty": (b"", "image/png", 422, "empty"),
    "truncated JPEG": ((DATA / "image1.jpg").read_bytes()[:20_000], "image/jpeg", 422, "truncated"),
    "JPEG cut, end marker kept": ((DATA / "image1.jpg").read_bytes()[:20_000] + b"\xff\xd9", "image/jpeg", 422,
                                  "truncated"),
    "50 megapixels declared": (png(10_000, 5_000, b"\0" * 64), "image/png", 422, "too_large"),
    "GIF header only": (b"GIF89a\x01\x00", "image/gif", 422, "truncated"),
    "9 MB body": (b"\xff\xd8\xff" + bytes(9 * 1024 * 1024), "image/jpeg", 413, "too_large"),
}


@pytest.mark.parametrize("name", HOSTILE)
def test_a_hostile_image_is_a_4xx_of_its_kind_and_the_server_stays_up(client, name):
    data, content_type, status, kind = HOSTILE[name]
    start = time.perf_counter()
    answer = send(client, data, content_type)
    assert (answer.status_code, answer.json()["error"]["kind"]) == (status, kind), answer.text
    assert time.perf_counter() - start < 2
    assert answer.json()["error"]["message"]
    assert client.get("/api/health").status_code == 200


def test_a_decompression_bomb_is_refused_before_it_is_decoded(client):
    data = bomb()
    assert len(data) < MAX_BYTES and MAX_PIXELS < 12_000**2
    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss  # kB on Linux
    start = time.perf_counter()
    answer = send(client, data, "image/png")
    seconds = time.perf_counter() - start
    grown_mb = (resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before) / 1024
    assert (answer.status_code, answer.json()["error"]["kind"]) == (422, "too_large")
    assert "144 megapixels" in answer.json()["error"]["message"]
    assert seconds < 2 and grown_mb < 60  # decoded, its 144 MB would show


def test_an_animated_gif_is_a_clear_4xx(client):
    answer = send(client, animated_gif(), "image/gif")
    assert answer.status_code == 422 and answer.json()["error"]["kind"] in PHOTO_KINDS, answer.text


def test_an_image_without_a_grid_says_so(client):
    from PIL import Image

    out = io.BytesIO()
    Image.new("L", (640, 480), 210).save(out, format="PNG")
    answer = send(client, out.getvalue(), "image/png")
    assert (answer.status_code, answer.json()["error"]["kind"]) == (422, "no_grid")
    assert answer.json()["error"]["message"] == "no Sudoku grid found"


def test_a_form_upload_is_refused_with_the_way_to_send_an_image(client):
    answer = client.post("/api/photo", files={"image": ("x.jpg", b"\xff\xd8\xff", "image/jpeg")})
    assert answer.status_code == 415 and "not multipart/form-data" in answer.json()["error"]["message"]


def test_the_cap_holds_without_the_body_limit_in_front():
    """``photo.body_of`` refuses past MAX_BYTES by itself (the route mounted in another app)."""
    from fastapi import FastAPI

    from bitdoku.web.app import _api_error
    from bitdoku.web.errors import ApiError
    from bitdoku.web.limits import Limits
    from bitdoku.web.routes import Workers, router

    app = FastAPI()
    app.state.workers = Workers(Limits())
    app.include_router(router)
    app.add_exception_handler(ApiError, _api_error)  # type: ignore[arg-type]
    answer = send(TestClient(app), bytes(MAX_BYTES + 1))
    assert (answer.status_code, answer.json()["error"]["kind"]) == (413, "too_large")


def test_without_opencv_the_answer_says_which_extra_to_install(client, monkeypatch):
    monkeypatch.setitem(sys.modules, "cv2", None)  # ``import cv2`` now raises ImportError
    answer = send(client, (DATA / "image1.jpg").read_bytes())
    assert (answer.status_code, answer.json()["error"]["kind"]) == (501, "missing_extra")
    assert "pip install 'bitdoku[photo]'" in answer.json()["error"]["message"]
    monkeypatch.undo()
    assert send(client, (DATA / "image1.jpg").read_bytes()).status_code == 200


def test_the_size_query_is_checked_and_a_16x16_screenshot_is_read_at_its_size(client):
    import cv2
    import numpy as np

    from bitdoku.grid import Grid
    from bitdoku.shape import Shape
    from tests.photo.screens import render_screens as screens

    refused = client.post("/api/photo?size=12", content=b"x", headers={"Content-Type": "image/png"})
    assert (refused.status_code, refused.json()["error"]["kind"]) == (422, "bad_request")
    shape = Shape(4, 4)
    values = screens.random_puzzle(shape, np.random.default_rng(4))
    image = cv2.cvtColor(np.asarray(screens.render(values, shape)), cv2.COLOR_RGB2BGR)
    png_bytes = cv2.imencode(".png", image)[1].tobytes()
    expected = Grid.from_array(np.asarray(values).reshape(16, 16).tolist(), shape).to_line()
    for query in ("", "?size=auto", "?size=16"):  # no size: told from the image
        answer = client.post(f"/api/photo{query}", content=png_bytes, headers={"Content-Type": "image/png"})
        assert answer.status_code == 200, answer.text
        assert (answer.json()["size"], answer.json()["as_read"]) == (16, expected)
