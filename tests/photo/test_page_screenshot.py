"""The project's own page in Chromium, screenshotted and read back: a puzzle loaded by its permalink, in each
size, with and without the page's candidates (its pencil marks), which must read as empty cells. The page has
no dark theme (style.css: ``color-scheme: light``), so only the light one is read."""

import json
import shutil
import urllib.request
from collections.abc import Iterator
from urllib.parse import urlencode

import pytest
from playwright.sync_api import Page, expect, sync_playwright

import bitdoku
from bitdoku.photo import read
from bitdoku.web import create_app
from tests.web.conftest import serving, wait_until_ready

CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
                 "--disable-sync", "--no-first-run", "--disable-quic"]


@pytest.fixture(scope="module")
def page() -> Iterator[tuple[Page, str]]:
    """A desktop-sized tab and the base URL of the app served for real (warmed up: candidates need the logic)."""
    executable = shutil.which("chromium")
    if executable is None:  # a failure, not a skip: CI installs Chromium
        pytest.fail("the browser tests need Debian's Chromium on the PATH: apt-get install chromium")
    with serving(create_app()) as url, sync_playwright() as playwright:
        wait_until_ready(lambda: json.load(urllib.request.urlopen(f"{url}/api/health", timeout=10)))
        browser = playwright.chromium.launch(executable_path=executable, args=CHROMIUM_ARGS)
        tab = browser.new_page(viewport={"width": 1280, "height": 900})
        tab.set_default_timeout(15_000)
        yield tab, url
        browser.close()


@pytest.mark.parametrize("shape", ["2x3", "3x3", "4x4"])
@pytest.mark.parametrize("candidates", [False, True], ids=["plain", "candidates"])
def test_a_screenshot_of_the_page_reads_back_as_its_puzzle(page, shape, candidates):
    tab, url = page
    puzzle = bitdoku.generate(shape, seed=38)
    tab.goto(f"{url}/?{urlencode({'shape': shape, 'p': puzzle.to_line()})}")
    grid = tab.get_by_role("grid")
    expect(grid).to_be_visible()
    if candidates:
        tab.get_by_label("Show candidates").check()
        expect(tab.locator("[role=gridcell][aria-label*=candidates]").first).to_be_visible()
    reading = read(grid.screenshot(), size="auto")
    assert reading.grid.shape == puzzle.shape
    assert reading.to_line() == puzzle.to_line() and reading.corrected == ()
