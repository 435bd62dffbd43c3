"""The page's Photo button in a real browser (Debian's Chromium through Playwright): a photo chosen with the file
input, a screenshot pasted from the clipboard or dropped on the page fills the grid with the puzzle read, the
cells to check are outlined until edited, a Killer grid goes back to classic rules, and a file that is no image
shows the server's sentence. The committed photos' .dat files are the oracle."""

import re
from collections.abc import Iterator

import cv2
import pytest
from playwright.sync_api import Page, expect

from bitdoku.web import create_app
from tests.photo.conftest import DATA, digits_of
from tests.photo.render import draw_grid
from tests.web import test_page
from tests.web.conftest import serving
from tests.web.test_page import cells, grid_line, message, open_page

browser = test_page.browser  # the page tests' fixtures: one Chromium per module, a fresh tab per test
page = test_page.page

#: A paste of an image file, as a screenshot tool puts it on the clipboard (``page.evaluate(PASTE, [bytes, type,
#: name])``); DROP drags it onto the grid and drops it.
PASTE = """([bytes, type, name]) => {
    const data = new DataTransfer();
    data.items.add(new File([new Uint8Array(bytes)], name, {type}));
    document.activeElement.dispatchEvent(new ClipboardEvent('paste', {clipboardData: data, bubbles: true}));
}"""
DROP = """([bytes, type, name]) => {
    const data = new DataTransfer();
    data.items.add(new File([new Uint8Array(bytes)], name, {type}));
    const grid = document.getElementById('grid');
    grid.dispatchEvent(new DragEvent('dragover', {dataTransfer: data, bubbles: true, cancelable: true}));
    grid.dispatchEvent(new DragEvent('drop', {dataTransfer: data, bubbles: true, cancelable: true}));
}"""


@pytest.fixture(scope="module")
def server_url() -> Iterator[str]:
    """The app without its background warm-up: the suite compiled ahead, so a request loads what it needs."""
    with serving(create_app(warm_up=False)) as url:
        yield url


def line_of(photo: str) -> str:
    return "".join(str(d) if d else "." for d in digits_of(photo).ravel())


def screenshot_png(photo: str) -> bytes:
    """A clean screenshot of the photo's puzzle (drawn square on, as a puzzle site shows it)."""
    ok, data = cv2.imencode(".png", draw_grid(digits_of(photo)))
    assert ok
    return data.tobytes()


def doubtful_cells(page: Page) -> list[int]:
    return page.locator("#grid [role=gridcell]").evaluate_all(
        "cells => cells.flatMap((cell, i) => cell.classList.contains('doubtful') ? [i] : [])")


def test_a_photo_chosen_with_the_button_fills_the_grid_and_outlines_the_cells_to_check(page: Page, server_url):
    from bitdoku.photo import read

    reading = read(DATA / "image165.jpg")  # a faint 7 in r7c7 that the reader is unsure of: the solver changes it
    doubts = list(reading.doubtful(0.9))
    assert doubts, "image165 is read without a doubt now: choose a photo with one for this test"
    open_page(page, server_url)
    page.locator("#photo-file").set_input_files(str(DATA / "image165.jpg"))
    expect(message(page)).to_contain_text("Read a 9x9 puzzle with")
    assert grid_line(page) == reading.to_line()
    assert doubtful_cells(page) == doubts
    first = cells(page).nth(doubts[0])
    expect(first).to_have_attribute("title", re.compile(r"^read (with \d+ % confidence|after a correction by "
                                                         r"the solver): check it$"))
    expect(first).to_have_attribute("aria-label", re.compile(r"given, read .*: check it$"))
    names = ", ".join(f"r{cell // 9 + 1}c{cell % 9 + 1}" for cell in doubts)
    expect(message(page)).to_contain_text(f"to check (outlined: {names})")

    truth = line_of("image165.jpg")
    for cell in doubts:  # checked against the photo and typed as it shows: the outline goes
        cells(page).nth(cell).click()
        page.keyboard.press(truth[cell] if truth[cell] != "." else "Delete")
    assert doubtful_cells(page) == [cell for cell in doubts if reading.to_line()[cell] == truth[cell]]
    assert grid_line(page) == truth
    expect(page.locator("#verdict")).to_contain_text("Unique")


def test_a_screenshot_pasted_from_the_clipboard_fills_the_grid(page: Page, server_url):
    open_page(page, server_url, shape="2x2")  # another size: the photo's grid replaces it
    cells(page).first.click()
    page.evaluate(PASTE, [list(screenshot_png("image1.jpg")), "image/png", "image.png"])
    givens = int((digits_of("image1.jpg") > 0).sum())
    expect(message(page)).to_contain_text(f"Read a 9x9 puzzle with {givens} givens from the photo; every cell read")
    expect(cells(page)).to_have_count(81)
    assert grid_line(page) == line_of("image1.jpg")
    assert doubtful_cells(page) == []
    expect(page.locator("#verdict")).to_contain_text("Unique")


def test_text_pasted_still_loads_as_text(page: Page, server_url):
    open_page(page, server_url)
    cells(page).first.click()
    page.evaluate("""text => {
        const data = new DataTransfer();
        data.setData('text/plain', text);
        document.activeElement.dispatchEvent(new ClipboardEvent('paste', {clipboardData: data, bubbles: true}));
    }""", line_of("image1.jpg"))
    expect(message(page)).to_contain_text("Loaded a 9x9 puzzle")


def test_a_photo_dropped_on_a_killer_grid_gives_a_classic_grid(page: Page, server_url):
    open_page(page, server_url, variant="killer")
    expect(page.locator("#variant")).to_have_value("killer")
    page.evaluate(DROP, [list((DATA / "image1.jpg").read_bytes()), "image/jpeg", "photo.jpg"])
    expect(message(page)).to_contain_text("Read a 9x9 puzzle")
    assert grid_line(page) == line_of("image1.jpg")
    expect(page.locator("#variant")).to_have_value("classic")
    expect(page.locator("#cage-form")).to_be_hidden()
    expect(page.locator("#verdict")).to_contain_text("Unique")


def test_a_photo_over_the_servers_cap_is_shrunk_by_the_browser_and_read(page: Page, server_url, tmp_path):
    from bitdoku.web.photo import MAX_BYTES

    photo = cv2.imread(str(DATA / "image1.jpg"))
    big = tmp_path / "big.png"  # 3200 x 2400 stored uncompressed: over the 8 MB a request may carry
    large = cv2.resize(photo, (3200, 2400), interpolation=cv2.INTER_CUBIC)
    cv2.imwrite(str(big), large, [cv2.IMWRITE_PNG_COMPRESSION, 0])
    assert big.stat().st_size > MAX_BYTES
    open_page(page, server_url)
    with page.expect_request("**/api/photo") as sent:
        page.locator("#photo-file").set_input_files(str(big))
    expect(message(page)).to_contain_text("Read a 9x9 puzzle")
    assert grid_line(page) == line_of("image1.jpg")
    assert sent.value.headers["content-type"] == "image/jpeg"  # redrawn at 2000 px as a JPEG


def test_a_grid_of_another_size_read_from_a_screenshot_is_drawn_at_its_size(page: Page, server_url):
    """The page takes the size from the answer (the reader also reads 6x6 and 16x16 screenshots): here the
    server's answer is a 6x6 one, given by the test, with a cell read as empty that may hold a digit."""
    import json

    puzzle = "1.....4.....2.....3.....5.....6....."  # six givens of a 6x6 puzzle
    confidence = [0.99] * 36
    confidence[3] = 0.61
    answer = {"puzzle": puzzle, "shape": "2x3", "size": 6, "status": "multiple", "confidence": confidence,
              "doubtful": [3], "doubtful_names": ["r1c4"], "corrected": [], "corrected_names": [],
              "corners": [[0, 0], [1, 0], [1, 1], [0, 1]], "as_read": puzzle, "seconds": 0.01}
    page.route("**/api/photo", lambda route: route.fulfill(status=200, content_type="application/json",
                                                           body=json.dumps(answer)))
    open_page(page, server_url)
    page.locator("#photo-file").set_input_files(str(DATA / "image1.jpg"))
    expect(message(page)).to_contain_text("Read a 6x6 puzzle with 6 givens from the photo; 1 cell to check "
                                          "(outlined: r1c4); as read it has several solutions")
    expect(cells(page)).to_have_count(36)
    expect(page.locator("#shape")).to_have_value("2x3")
    assert grid_line(page) == puzzle and doubtful_cells(page) == [3]
    expect(cells(page).nth(3)).to_have_attribute("title", "read as empty with 61 % confidence: check it")


def test_a_16x16_screenshot_pasted_is_read_by_the_server_at_its_size(page: Page, server_url):
    """No stub: the page sends no size, the server tells it from the image, the page redraws at 16x16."""
    import numpy as np

    from bitdoku.shape import Shape
    from tests.photo.screens import render_screens as screens

    shape = Shape(4, 4)
    values = screens.random_puzzle(shape, np.random.default_rng(4))
    ok, png = cv2.imencode(".png", cv2.cvtColor(np.asarray(screens.render(values, shape)), cv2.COLOR_RGB2BGR))
    assert ok
    open_page(page, server_url)
    page.locator("#grid").focus()
    page.evaluate(PASTE, [list(png.tobytes()), "image/png", "screen16.png"])
    expect(message(page)).to_contain_text("Read a 16x16 puzzle")
    expect(cells(page)).to_have_count(256)
    expect(page.locator("#shape")).to_have_value("4x4")
    expected = "".join(".123456789ABCDEFG"[v] for v in np.asarray(values).ravel())
    assert grid_line(page) == expected


def test_a_file_that_is_no_image_shows_the_servers_sentence_and_keeps_the_grid(page: Page, server_url, tmp_path):
    open_page(page, server_url, p=line_of("image1.jpg"))
    notes = tmp_path / "notes.txt"
    notes.write_text("not a photo\n")
    page.locator("#photo-file").set_input_files(str(notes))
    expect(message(page)).to_have_text("not an image: expected a JPEG, PNG, BMP, WebP or GIF file")
    expect(message(page)).to_have_attribute("data-tone", "error")
    assert grid_line(page) == line_of("image1.jpg")
    expect(page.locator("#photo")).to_be_enabled()


def test_a_server_without_opencv_says_which_extra_to_install(page: Page, server_url, monkeypatch):
    import sys

    monkeypatch.setitem(sys.modules, "cv2", None)  # the server runs in this process: its ``import cv2`` fails
    open_page(page, server_url)
    page.locator("#photo-file").set_input_files(str(DATA / "image1.jpg"))
    expect(message(page)).to_contain_text("pip install 'bitdoku[photo]'")


def test_the_photo_button_is_reached_by_the_keyboard_and_opens_the_file_chooser(page: Page, server_url):
    open_page(page, server_url)
    # Enter on the focused button must open the hidden file input (the chooser); the click on the input is what
    # opens it, observed here directly rather than through the browser's chooser event, which a loaded CI
    # machine delays past any timeout.
    page.evaluate("""() => { window.chooserOpened = false;
        document.getElementById('photo-file').addEventListener('click', (event) => {
            window.chooserOpened = true; event.preventDefault(); }); }""")
    page.locator("#photo").focus()
    page.keyboard.press("Enter")
    page.wait_for_function("() => window.chooserOpened === true")
    page.locator("#photo-file").set_input_files(str(DATA / "image1.jpg"))
    expect(message(page)).to_contain_text("Read a 9x9 puzzle")
    assert grid_line(page) == line_of("image1.jpg")
