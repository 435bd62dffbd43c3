"""The page in a real browser (Debian's Chromium driven by Playwright): typing and the live verdict, conflicts,
solve, hint, explain and replay, generate, big grids, phone width, the keyboard alone, and API errors.

The tests read the page as a person or a screen reader does: the cells' accessible names ("row 3, column 5,
7, given"), the verdict and the message. The library is the oracle for what they should say.
"""

import re
import shutil
import threading
from collections.abc import Iterator
from urllib.parse import urlencode

import pytest
from playwright.sync_api import Browser, Page, expect, sync_playwright

import bitdoku
from bitdoku.data import sample_lines
from bitdoku.grid import Grid
from bitdoku.logic.explain import explain
from bitdoku.warmup import ready
from bitdoku.warmup.units import LOGIC
from bitdoku.web import create_app
from bitdoku.web.readiness import Readiness
from tests.web.conftest import serving

CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
                 "--disable-sync", "--no-first-run", "--disable-quic"]
SMALL = "..3..4.221......"
SMALL_SOLUTION = "1234341221434321"
README_PUZZLE = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"

#: The verdict's title for each status (app.js VERDICTS).
VERDICT_OF = {"unique": "Unique", "multiple": "Several solutions", "no-solution": "No solution", "invalid": "Invalid"}

expect.set_options(timeout=15_000)


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    executable = shutil.which("chromium")
    if executable is None:  # a failure, not a skip: CI installs Chromium, so its absence is a broken setup
        pytest.fail("the browser tests need Debian's Chromium on the PATH: apt-get install chromium")
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=executable, args=CHROMIUM_ARGS)
        yield browser
        browser.close()


@pytest.fixture
def page(browser: Browser, tmp_path, request) -> Iterator[Page]:
    """A fresh desktop-sized tab; a screenshot of it goes to tmp_path, and a script error or anything the
    Content-Security-Policy refused (Chromium says so on the console) fails the test."""
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    page.set_default_timeout(15_000)
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.on("console", lambda message: errors.append(message.text) if "Content Security Policy" in message.text
            else None)
    yield page
    page.screenshot(path=tmp_path / f"{request.node.name}.png", full_page=True)
    context.close()
    assert not errors, f"the page raised: {errors}"


def open_page(page: Page, base: str, **query: str) -> None:
    """Open the page (with a permalink's query) and wait until its first verdict has arrived."""
    page.goto(f"{base}/?{urlencode(query)}" if query else f"{base}/")
    expect(page.get_by_role("grid")).to_be_visible()
    settled(page)


def settled(page: Page) -> None:
    """Wait until the live verdict describes the grid as it is now (no answer pending)."""
    verdict = page.locator("#verdict")
    expect(verdict).not_to_have_attribute("aria-busy", "true")
    expect(verdict).not_to_contain_text("Checking")


def cells(page: Page):
    return page.get_by_role("gridcell")


def labels(page: Page) -> list[str]:
    return cells(page).evaluate_all("cells => cells.map(cell => cell.getAttribute('aria-label'))")


def shown_value(label: str) -> str:
    """'row 1, column 2, A (10), given' -> 'A'; 'row 1, column 3, empty, ...' -> '.'."""
    what = label.split(", ")[2]
    return "." if what == "empty" else what.split(" ")[0]


def grid_line(page: Page) -> str:
    """The grid the page shows, in the one-line format."""
    return "".join(shown_value(label) for label in labels(page))


def shown_candidates(label: str) -> list[str]:
    match = re.search(r"candidates ([^,]+)", label)
    return match[1].split() if match else []


def cells_labelled(page: Page, word: str) -> set[int]:
    return {index for index, label in enumerate(labels(page)) if word in label.split(", ")}


def message(page: Page):
    return page.locator("#message")


def test_typing_changes_the_verdict_from_several_to_unique_and_solve_fills_the_grid(page, server_url):
    open_page(page, server_url, shape="2x2")
    expect(page.locator("#verdict")).to_contain_text("Several solutions")
    cells(page).first.click()
    last_given = max(index for index, ch in enumerate(SMALL) if ch != ".")
    for index, ch in enumerate(SMALL[: last_given + 1]):
        if index == last_given:  # every given but the last leaves two solutions
            settled(page)
            expect(page.locator("#verdict")).to_contain_text("Several solutions")
            assert grid_line(page) == SMALL[:last_given] + "." * (16 - last_given)
        if ch != ".":
            page.keyboard.press(ch)
        if index < last_given:
            page.keyboard.press("Tab")
    expect(page.locator("#verdict")).to_contain_text("Unique")
    assert grid_line(page) == SMALL

    page.get_by_role("button", name="Solve").click()
    expect(message(page)).to_contain_text("Solved")
    assert grid_line(page) == SMALL_SOLUTION
    assert cells_labelled(page, "solution") == {i for i, ch in enumerate(SMALL) if ch == "."}
    assert cells_labelled(page, "given") == {i for i, ch in enumerate(SMALL) if ch != "."}
    expect(message(page)).to_contain_text("search node")  # the statistics of the search


def test_a_repeated_digit_is_flagged_at_once_and_the_verdict_says_invalid(page, server_url):
    open_page(page, server_url)
    cells(page).first.click()
    page.keyboard.press("5")
    page.keyboard.press("ArrowRight")
    page.keyboard.press("5")
    for index in (0, 1):
        expect(cells(page).nth(index)).to_have_attribute("aria-invalid", "true")
    assert cells_labelled(page, "conflict") == {0, 1}
    expect(page.locator("#verdict")).to_contain_text("Invalid")
    expect(page.locator("#verdict")).to_contain_text("digit 5 appears twice in row 1")

    page.keyboard.press("Backspace")
    expect(cells(page).first).to_have_attribute("aria-invalid", "false")
    expect(page.locator("#verdict")).to_contain_text("Several solutions")


def test_a_hint_highlights_its_cells_and_shows_the_candidate_it_places(page, server_url):
    open_page(page, server_url, shape="3x3", p=README_PUZZLE)
    step = bitdoku.hint(README_PUZZLE)
    page.get_by_role("button", name="Hint").click()
    expect(message(page)).to_contain_text(step.text)
    assert cells_labelled(page, "highlighted") == set(step.cells)
    for cell, digit in step.placements:
        assert str(digit) in shown_candidates(labels(page)[cell])
    assert grid_line(page) == README_PUZZLE  # a hint shows the step; it does not fill the grid
    cells(page).nth(step.cells[0]).click()
    page.keyboard.press("Escape")  # hides the hint
    expect(message(page)).to_be_empty()
    assert not cells_labelled(page, "highlighted")


def test_clicking_an_explanation_step_replays_the_grid_to_just_before_it(page, server_url):
    open_page(page, server_url, shape="3x3", p=README_PUZZLE)
    steps = list(explain(Grid.parse(README_PUZZLE), guess=True))
    page.get_by_role("button", name="Explain").click()
    step_buttons = page.locator("#steps button")
    expect(step_buttons).to_have_count(len(steps))

    k = next(index for index, step in enumerate(steps) if index > 2 and step.eliminations)
    step_buttons.nth(k).click()
    expect(step_buttons.nth(k)).to_have_attribute("aria-current", "step")
    before = steps[k].before
    assert grid_line(page) == before.to_grid().to_line()
    assert cells_labelled(page, "highlighted") == set(steps[k].cells)
    shown = labels(page)
    for cell in before.open_cells():
        assert shown_candidates(shown[cell]) == [str(d) for d in before.candidates(cell)], shown[cell]
    for cell, digit in steps[k].eliminations:  # about to go: still shown before the step
        assert str(digit) in shown_candidates(shown[cell])

    step_buttons.nth(k + 1).click()  # one step later, those candidates are gone
    expect(step_buttons.nth(k + 1)).to_have_attribute("aria-current", "step")
    for cell, digit in steps[k].eliminations:
        assert str(digit) not in shown_candidates(labels(page)[cell])

    page.get_by_role("button", name="Back to my grid").click()
    assert grid_line(page) == README_PUZZLE
    assert not cells_labelled(page, "highlighted")


def test_playing_locks_the_givens_keeps_pencil_marks_and_shows_mistakes_only_on_check(page, server_url):
    open_page(page, server_url, shape="3x3", p=README_PUZZLE)
    solution = bitdoku.solve(README_PUZZLE).to_line()
    wrong = next(d for d in Grid.parse(README_PUZZLE).candidates(2) if str(d) not in solution[1:3])
    page.get_by_label("Play").check()
    cells(page).first.click()
    page.keyboard.press("5")  # r1c1 is a given
    expect(message(page)).to_contain_text("r1c1 is a given")
    page.keyboard.press("ArrowRight")
    page.keyboard.press("Shift+Digit1")
    page.keyboard.press("Shift+Digit6")
    expect(cells(page).nth(1)).to_have_attribute("aria-label", "row 1, column 2, empty, candidates 1 6")
    page.keyboard.press(solution[1])
    page.keyboard.press("ArrowRight")
    page.keyboard.press(str(wrong))
    assert grid_line(page)[:3] == "4" + solution[1] + str(wrong)
    assert cells_labelled(page, "entry") == {1, 2} and not cells_labelled(page, "wrong")

    page.get_by_role("button", name="Check my entries").click()
    expect(message(page)).to_contain_text("1 of 2 entries is wrong")
    assert cells_labelled(page, "wrong") == {2}
    expect(cells(page).nth(2)).to_have_attribute("aria-invalid", "true")


def test_generate_fills_the_grid_with_a_unique_puzzle_and_its_link_reopens_it(page, server_url):
    open_page(page, server_url, shape="2x3")
    page.get_by_label("Symmetry").select_option("rotational")
    page.get_by_role("button", name="Generate").click()
    expect(message(page)).to_contain_text("New 6x6 puzzle")
    expect(page.locator("#verdict")).to_contain_text("Unique")
    puzzle = grid_line(page)
    assert len(puzzle) == 36 and puzzle.count(".") < 36
    grid = Grid.parse(puzzle, shape="2x3")
    assert bitdoku.is_unique(grid)
    assert [ch == "." for ch in puzzle] == [ch == "." for ch in reversed(puzzle)]  # rotational clue pattern
    assert cells_labelled(page, "given") == {i for i, ch in enumerate(puzzle) if ch != "."}

    page.context.grant_permissions(["clipboard-read", "clipboard-write"])
    page.get_by_role("button", name="Copy as line").click()
    expect(message(page)).to_contain_text("Copied")
    assert page.evaluate("navigator.clipboard.readText()") == puzzle

    page.emulate_media(media="print")  # the print stylesheet keeps the grid alone
    expect(page.get_by_role("grid")).to_be_visible()
    for other in (page.locator("#verdict"), page.get_by_role("button", name="Solve"), page.locator("#keypad")):
        expect(other).to_be_hidden()
    page.emulate_media(media="screen")

    link = page.url  # the address bar is the permalink
    assert f"p={puzzle}" in link
    page.goto("about:blank")
    page.goto(link)
    expect(message(page)).to_contain_text("Loaded a 6x6 puzzle")
    assert grid_line(page) == puzzle


def test_a_16x16_puzzle_pasted_as_a_picture_is_solved_on_the_page(page, server_url):
    line = sample_lines("unique16x16_sample.txt")[0]
    picture = str(Grid.parse(line))
    open_page(page, server_url, shape="4x4")
    cells(page).first.click()
    page.keyboard.press("g")  # a letter is a value above 9: G is 16
    page.keyboard.press("ArrowRight")
    page.keyboard.press("1")  # two digits typed quickly are one value: 1 then 2 is 12, written C
    page.keyboard.press("2")
    assert grid_line(page)[:3] == "GC."
    page.evaluate("""text => {
        const data = new DataTransfer();
        data.setData('text/plain', text);
        document.activeElement.dispatchEvent(new ClipboardEvent('paste', {clipboardData: data, bubbles: true}));
    }""", picture)
    expect(message(page)).to_contain_text("Loaded a 16x16 puzzle")
    expect(cells(page)).to_have_count(256)
    assert grid_line(page) == line
    expect(page.locator("#verdict")).to_contain_text("Unique")

    page.get_by_role("button", name="Solve").click()
    expect(message(page)).to_contain_text("Solved")
    assert grid_line(page) == bitdoku.solve(line).to_line()


@pytest.mark.parametrize("shape, puzzle", [
    ("3x3", README_PUZZLE),
    ("5x5", sample_lines("unique25x25_sample.txt")[0]),
])
def test_the_page_fits_a_phone_without_horizontal_scrolling(browser, server_url, tmp_path, shape, puzzle):
    context = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True)
    page = context.new_page()
    try:
        open_page(page, server_url, shape=shape, p=puzzle)
        expect(page.locator("#verdict")).to_contain_text("Unique")
        assert grid_line(page) == puzzle
        assert page.evaluate("document.documentElement.scrollWidth") <= 390
        box = page.get_by_role("grid").bounding_box()
        assert box["x"] >= 0 and box["x"] + box["width"] <= 390
        n = round(len(puzzle) ** 0.5)
        assert box["width"] / n >= 12  # a 25x25 cell is still big enough to tap and read
        empty = puzzle.index(".")
        page.get_by_role("gridcell").nth(empty).tap()  # touch: select a cell, then the keypad
        page.get_by_role("button", name="Enter 2", exact=True).tap()
        assert grid_line(page)[empty] == "2"
        page.screenshot(path=tmp_path / f"phone-{shape}.png", full_page=True)
    finally:
        context.close()


def test_the_keyboard_alone_reaches_and_edits_the_grid_which_is_accessible(page, server_url):
    open_page(page, server_url)
    grid = page.get_by_role("grid")
    expect(grid).to_have_attribute("aria-label", "Sudoku grid, 9 by 9")
    expect(page.get_by_role("row")).to_have_count(9)
    assert len(labels(page)) == 81 and all(label.startswith("row ") for label in labels(page))
    verdict = page.locator("#verdict")
    expect(verdict).to_have_attribute("aria-live", "polite")
    expect(message(page)).to_have_attribute("aria-live", "polite")

    page.keyboard.press("Tab")  # the first stop on the page is the grid
    focused = page.locator(":focus")
    expect(focused).to_have_attribute("role", "gridcell")
    expect(focused).to_have_attribute("aria-label", "row 1, column 1, empty")
    page.keyboard.press("7")
    expect(focused).to_have_attribute("aria-label", "row 1, column 1, 7, given")
    for key in ("ArrowDown", "ArrowDown", "ArrowRight", "Tab", "Tab", "Shift+Tab"):
        page.keyboard.press(key)
    expect(page.locator(":focus")).to_have_attribute("aria-label", re.compile(r"^row 3, column 3, empty"))
    page.keyboard.press("3")
    page.keyboard.press("End")
    page.keyboard.press("9")
    assert grid_line(page)[:27] == "7................." + "..3.....9"
    page.keyboard.press("Control+z")
    assert grid_line(page)[18:27] == "..3......"
    page.keyboard.press("Control+y")
    assert grid_line(page)[18:27] == "..3.....9"
    page.keyboard.press("Delete")
    assert grid_line(page)[18:27] == "..3......"

    page.keyboard.press("Escape")  # leaves the grid for the actions
    expect(page.locator(":focus")).to_have_accessible_name("Solve")
    page.keyboard.press("Tab")
    expect(page.locator(":focus")).to_have_accessible_name("Hint")
    page.keyboard.press("Enter")
    expect(message(page)).to_contain_text("Hint")
    for button in page.get_by_role("button").all():
        assert button.get_attribute("aria-label") or button.inner_text().strip()
    for control in page.locator("select, input, textarea").all():
        control_id = control.get_attribute("id")
        labelled = control.evaluate("element => element.labels.length > 0")
        assert labelled, f"control {control_id!r} has no label"


def test_an_api_error_is_shown_and_its_cells_highlighted(page, server_url):
    open_page(page, server_url)
    page.get_by_label("Puzzle text").fill("..3..4.x21......")
    page.get_by_role("button", name="Load").click()
    expect(message(page)).to_contain_text("unexpected character 'x'")
    assert cells_labelled(page, "error") == {7}  # r2c4 of the 4x4 grid the text would be
    expect(cells(page).nth(7)).to_have_attribute("aria-invalid", "true")

    picture = str(Grid.parse(SMALL)).replace("4", "x", 1)  # r2c2 of a block picture
    page.get_by_label("Puzzle text").fill(picture)
    page.get_by_role("button", name="Load").click()
    expect(message(page)).to_contain_text("line 2, column 3 (r2c2): unexpected character 'x'")
    assert cells_labelled(page, "error") == {5}

    open_page(page, server_url)
    cells(page).first.click()
    page.keyboard.press("5")
    page.keyboard.press("ArrowDown")
    page.keyboard.press("5")
    page.get_by_role("button", name="Hint").click()
    expect(message(page)).to_contain_text("invalid grid: digit 5 appears twice in column 1")
    assert cells_labelled(page, "error") == {0, 9}


def test_a_jigsaw_map_colours_its_regions_and_the_solution_follows_them(page, server_url):
    puzzle, region_map = ".1........3....2", "AABB" "AABC" "CDBC" "DDDC"
    jigsaw = Grid.parse(f"{puzzle}\n{region_map}", variant="jigsaw")
    open_page(page, server_url, shape="2x2", p=puzzle)
    page.get_by_label("Variant").select_option("jigsaw")
    page.get_by_label("Region map").fill(region_map[:-1] + "E")  # a fifth region: the server names r4c4
    expect(page.locator("#verdict")).to_contain_text("r4c4: region 'E' is one too many")
    expect(cells(page).nth(15)).to_have_attribute("aria-invalid", "true")
    page.get_by_label("Region map").fill(region_map)
    settled(page)
    classes = cells(page).evaluate_all("cells => cells.map(cell => cell.className.split(' '))")
    regions = [next(int(name[7:]) for name in names if name.startswith("region-") and name[7:].isdigit())
               for names in classes]
    assert regions == list(jigsaw.geometry.regions)  # each cell coloured by its region
    assert ["region-right" in names for names in classes][:4] == [False, True, False, False]
    expect(page.locator("#verdict")).to_contain_text(VERDICT_OF[bitdoku.search(jigsaw).status.value])
    page.get_by_role("button", name="Solve").click()
    expect(message(page)).to_contain_text("Solved")
    assert grid_line(page) == bitdoku.solve(jigsaw).to_line()
    assert "variant=jigsaw" in page.url and f"regions={region_map}" in page.url

    page.get_by_label("Variant").select_option("x")  # the diagonals are shaded, the regions gone
    diagonal = cells(page).evaluate_all("cells => cells.map(cell => cell.classList.contains('diagonal'))")
    assert [i for i, shaded in enumerate(diagonal) if shaded] == [0, 3, 5, 6, 9, 10, 12, 15]
    expect(page.get_by_label("Region map")).to_be_hidden()


def test_generate_keeps_the_variant_of_the_grid(page, server_url):
    open_page(page, server_url)
    page.get_by_label("Variant").select_option("x")
    page.get_by_role("button", name="Generate").click()
    expect(message(page)).to_contain_text("New 9x9 x puzzle")
    assert page.get_by_label("Variant").input_value() == "x"
    assert "variant=x" in page.url
    puzzle = Grid.parse(grid_line(page), variant="x")
    assert bitdoku.is_unique(puzzle)
    diagonal = cells(page).evaluate_all("cells => cells.map(cell => cell.classList.contains('diagonal'))")
    assert [i for i, shaded in enumerate(diagonal) if shaded] == sorted({10 * i for i in range(9)} |
                                                                      {8 * (i + 1) for i in range(9)})


def test_while_the_server_prepares_hints_the_button_says_so_and_the_hint_then_comes(page, monkeypatch, tmp_path):
    # A cold start: the warm-up looks at markers in an empty folder and does nothing, so every feature is "being
    # prepared" until the test marks it ready; the page waits (Retry-After) and says what it waits for.
    monkeypatch.setattr(ready, "folder", lambda: tmp_path)
    monkeypatch.setattr("bitdoku.web.readiness.folder", lambda: tmp_path)
    monkeypatch.setattr(Readiness, "start", lambda self, **options: None)
    with serving(create_app()) as url:
        page.goto(f"{url}/?{urlencode({'shape': '3x3', 'p': README_PUZZLE})}")
        expect(page.locator("#verdict")).to_contain_text("preparing the live verdict, a few seconds")
        ready.mark_ready("9x9 engine", tmp_path)
        expect(page.locator("#verdict")).to_contain_text("Unique")
        button = page.get_by_role("button", name=re.compile("^Hint"))
        button.click()
        expect(button).to_have_attribute("data-preparing", "Preparing hints, explanations and ratings, a few seconds")
        expect(message(page)).to_contain_text("Preparing hints, explanations and ratings, a few seconds.")
        threading.Timer(1.0, lambda: [ready.mark_ready(unit, tmp_path) for unit in LOGIC]).start()
        expect(message(page)).to_contain_text(bitdoku.hint(README_PUZZLE).text)
        expect(button).not_to_have_attribute("data-preparing", re.compile(".*"))
