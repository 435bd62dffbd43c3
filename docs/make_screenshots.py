"""Take the web page's screenshots for the docs: docs/web-desktop.png (1280x800, a 9x9 puzzle with its
explanation open and one step replayed) and docs/web-phone.png (390x844, the same puzzle with a hint).

    python docs/make_screenshots.py                              # serves the app itself on a free port
    python docs/make_screenshots.py --url http://127.0.0.1:8000  # or uses a running `bitdoku serve`

Needs the web extra, the playwright package and Debian's Chromium (`chromium` on the PATH).
"""

from __future__ import annotations

import argparse
import shutil
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from urllib.parse import urlencode

from playwright.sync_api import Page, expect, sync_playwright

DOCS = Path(__file__).resolve().parent
PUZZLE = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
                 "--disable-sync", "--no-first-run", "--disable-quic"]


@contextmanager
def served() -> Iterator[str]:
    """``create_app()`` served from this process on a free local port, for as long as the block runs."""
    from bitdoku.web import create_app, serve_in_thread

    with serve_in_thread(create_app()) as url:
        yield url


def open_puzzle(page: Page, base: str) -> None:
    page.goto(f"{base}/?{urlencode({'shape': '3x3', 'p': PUZZLE})}")
    expect(page.locator("#verdict")).to_contain_text("Unique")


def desktop(page: Page, base: str) -> None:
    """The explanation open, replayed to just before its first step that removes candidates."""
    open_puzzle(page, base)
    page.get_by_role("button", name="Explain").click()
    step = page.locator("#steps button", has_text="remove").first
    step.click()
    expect(step).to_have_attribute("aria-current", "step")
    page.locator("#steps").evaluate("list => list.scrollTo(0, 0)")
    page.mouse.move(0, 0)  # no hover colour on the steps that scrolled under the pointer


def phone(page: Page, base: str) -> None:
    """A hint on the same puzzle, at a phone's width."""
    open_puzzle(page, base)
    page.get_by_role("button", name="Hint").click()
    expect(page.locator("#message")).to_contain_text("Hint")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--url", help="a running server's base URL (default: serve the app here)")
    args = parser.parse_args()
    executable = shutil.which("chromium")
    if executable is None:
        raise SystemExit("make_screenshots: Debian's Chromium is needed (apt-get install chromium)")
    with served() if args.url is None else _given(args.url) as base, sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=executable, args=CHROMIUM_ARGS)
        for name, size, scene in (("web-desktop.png", (1280, 800), desktop), ("web-phone.png", (390, 844), phone)):
            context = browser.new_context(viewport={"width": size[0], "height": size[1]}, device_scale_factor=1)
            page = context.new_page()
            scene(page, base.rstrip("/"))
            page.screenshot(path=DOCS / name)
            context.close()
            print(f"wrote {DOCS / name}")
        browser.close()


@contextmanager
def _given(url: str) -> Iterator[str]:
    yield url


if __name__ == "__main__":
    main()
