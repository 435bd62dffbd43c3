"""Killer Sudoku on the page, in a real browser (Chromium driven by Playwright): cages made by a drag, by
Shift+click and by Shift+arrows with the keyboard alone, drawn as dashed outlines with their sums, edited and
deleted, the live verdict and the true candidates following them, the permalink, and a phone-width screen.

The cages are read from the page's SVG layer (``g.cage`` with ``data-cells`` and ``data-sum``, a dashed
``path.cage-outline`` and a ``text.cage-sum``) and from the cells' accessible names ("..., cage A, sum 3, 2
cells"). The library is the oracle for the verdict and the true candidates.
"""

from urllib.parse import parse_qs, urlparse

import pytest
from playwright.sync_api import Page, expect

import bitdoku
from bitdoku.constraints.cages import Cage
from bitdoku.geometry import Geometry
from bitdoku.grid import Grid
from bitdoku.solution_digits import true_candidates
from tests.web import test_page
from tests.web.test_page import cells, labels, message, open_page, settled

browser = test_page.browser  # the page tests' fixtures: one Chromium per module, a fresh tab per test
page = test_page.page

#: A 4x4 Killer with one solution, 1234/3412/2143/4321, from four domino cages; without its first cage (r1c1 and
#: r1c2, sum 3) it has several. The page is given the other three by its permalink.
CAGES = (Cage((0, 1), 3), Cage((2, 6), 4), Cage((4, 8), 5), Cage((9, 10), 5))
OTHERS = "4.2.6_5.4.8_5.9.10"  # the permalink's form of CAGES[1:]


def killer(cages: tuple[Cage, ...]) -> Grid:
    shape = Grid.empty("2x2").shape
    return Grid(bytes(16), shape, Geometry(shape, cages=tuple(sorted(cages, key=lambda cage: cage.cells[0]))))


def drawn_cages(page: Page) -> list[tuple[list[int], str | None]]:
    """The cages on the SVG layer: each one's cells and its sum label (None when it has none)."""
    drawn = page.locator("svg.cages g.cage").evaluate_all(
        """groups => groups.map(group => [group.dataset.cells.split(' ').map(Number),
                                          group.querySelector('text.cage-sum')?.textContent ?? null])""")
    return [(cells, total) for cells, total in drawn]


def verdict(page: Page):
    return page.locator("#verdict")


def open_killer(page: Page, base: str, cages: str = OTHERS) -> None:
    open_page(page, base, shape="2x2", variant="killer", cages=cages)
    expect(page.locator("#cage-form")).to_be_visible()


def test_the_puzzle_without_its_last_cage_has_several_solutions():  # the premise of the tests below
    assert bitdoku.count_solutions(killer(CAGES[1:]), limit=2) == 2
    assert bitdoku.search(killer(CAGES)).status.value == "unique"


def test_a_drag_and_a_typed_sum_make_a_dashed_cage_with_its_sum_and_the_verdict_becomes_unique(page, server_url):
    open_killer(page, server_url)
    expect(verdict(page)).to_contain_text("Several solutions")
    assert drawn_cages(page) == [([2, 6], "4"), ([4, 8], "5"), ([9, 10], "5")]
    first, second = cells(page).nth(0).bounding_box(), cells(page).nth(1).bounding_box()
    page.mouse.move(first["x"] + 10, first["y"] + 10)
    page.mouse.down()
    page.mouse.move(second["x"] + 10, second["y"] + 10, steps=4)
    page.mouse.up()
    assert [index for index, cell in enumerate(cells(page).all()) if cell.get_attribute("aria-selected") == "true"] \
        == [0, 1]
    page.keyboard.press("3")
    expect(page.locator("#cage-sum")).to_have_value("3")
    page.keyboard.press("Enter")
    expect(page.locator("svg.cages g.cage")).to_have_count(4)
    assert drawn_cages(page)[0] == ([0, 1], "3")
    outline = page.locator("svg.cages g.cage").first.locator("path.cage-outline")
    assert outline.get_attribute("d").startswith("M")
    assert outline.evaluate("path => getComputedStyle(path).strokeDasharray") not in ("", "none")
    label = page.locator("svg.cages g.cage").first.locator("text.cage-sum")
    assert float(label.get_attribute("x")) < 0.5 and float(label.get_attribute("y")) < 0.5  # top left of r1c1
    settled(page)
    expect(verdict(page)).to_contain_text("Unique")
    assert "cage A, sum 3, 2 cells" in labels(page)[0]


def test_shift_click_selects_a_cage_and_the_permalink_restores_every_cage(page, server_url, browser):
    open_killer(page, server_url)
    cells(page).nth(0).click()
    cells(page).nth(1).click(modifiers=["Shift"])
    page.keyboard.press("3")
    page.keyboard.press("Enter")
    expect(page.locator("svg.cages g.cage")).to_have_count(4)
    settled(page)
    expect(verdict(page)).to_contain_text("Unique")
    link = page.evaluate("location.href")
    assert parse_qs(urlparse(link).query)["cages"] == ["3.0.1_4.2.6_5.4.8_5.9.10"]
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    other = context.new_page()
    try:
        other.goto(link)
        settled(other)
        assert drawn_cages(other) == drawn_cages(page)
        expect(other.locator("#variant")).to_have_value("killer")
        expect(verdict(other)).to_contain_text("Unique")
    finally:
        context.close()


def test_the_keyboard_alone_makes_edits_and_deletes_a_cage(page, server_url):
    open_killer(page, server_url)
    page.locator("body").focus()
    page.keyboard.press("Tab")  # the first stop on the page is the grid, at r1c1
    expect(cells(page).nth(0)).to_be_focused()
    page.keyboard.press("Shift+ArrowRight")
    page.keyboard.press("3")
    page.keyboard.press("Enter")
    expect(page.locator("svg.cages g.cage")).to_have_count(4)
    settled(page)
    expect(verdict(page)).to_contain_text("Unique")
    # Enter on a cage's cell edits its sum: an impossible one is refused by the server, naming the cage
    page.keyboard.press("ArrowLeft")  # r1c1 alone
    page.keyboard.press("Enter")
    expect(page.locator("#cage-sum")).to_be_focused()
    page.keyboard.press("Control+a")
    page.keyboard.type("9")
    page.keyboard.press("Enter")
    expect(cells(page).nth(0)).to_be_focused()
    assert drawn_cages(page)[0] == ([0, 1], "9")
    settled(page)
    expect(verdict(page)).to_contain_text("No verdict")
    expect(verdict(page)).to_contain_text("cage A (r1c1, r1c2): no two different digits add up to 9")
    expect(cells(page).nth(1)).to_have_attribute("aria-invalid", "true")
    # Delete on an empty cell of a cage removes the cage
    page.keyboard.press("Delete")
    expect(page.locator("svg.cages g.cage")).to_have_count(3)
    settled(page)
    expect(verdict(page)).to_contain_text("Several solutions")
    page.keyboard.press("Control+z")  # Undo brings it back
    expect(page.locator("svg.cages g.cage")).to_have_count(4)


def test_the_delete_button_removes_the_selected_cage(page, server_url):
    open_killer(page, server_url, cages="3.0.1_" + OTHERS)
    settled(page)
    expect(verdict(page)).to_contain_text("Unique")
    cells(page).nth(6).click()  # in the cage of r1c3 and r2c3
    expect(page.locator("#make-cage")).to_have_text("Set sum")
    expect(page.locator("#cage-sum")).to_have_value("4")
    page.get_by_role("button", name="Delete cage").click()
    expect(page.locator("svg.cages g.cage")).to_have_count(3)
    assert [cage for cage, _ in drawn_cages(page)] == [[0, 1], [4, 8], [9, 10]]
    settled(page)
    expect(verdict(page)).not_to_contain_text("Unique")


def test_a_cell_already_in_a_cage_is_refused_for_a_new_one(page, server_url):
    open_killer(page, server_url)
    cells(page).nth(1).click()
    cells(page).nth(2).click(modifiers=["Shift"])  # r1c3 is in a cage
    page.keyboard.press("5")
    page.keyboard.press("Enter")
    expect(message(page)).to_contain_text("r1c3 is in a cage already")
    expect(page.locator("svg.cages g.cage")).to_have_count(3)


def test_true_candidates_show_as_small_digits_and_follow_the_cages(page, server_url):
    open_killer(page, server_url)
    page.get_by_label("True candidates").check()
    expected = true_candidates(killer(CAGES[1:]))
    first = " ".join(str(digit) for digit in expected.digits(0))
    expect(cells(page).nth(0)).to_have_attribute("aria-label", f"row 1, column 1, empty, candidates {first}")
    assert len(expected.digits(0)) > 1
    cells(page).nth(0).click()
    cells(page).nth(1).click(modifiers=["Shift"])
    page.keyboard.press("3")
    page.keyboard.press("Enter")
    solution = bitdoku.solve(killer(CAGES)).cells
    expect(cells(page).nth(0)).to_have_attribute(
        "aria-label", f"row 1, column 1, empty, candidates {solution[0]}, cage A, sum 3, 2 cells")
    marks = cells(page).nth(5).locator(".mark")
    expect(marks).to_have_count(1)
    expect(marks).to_have_text(str(solution[5]))


@pytest.mark.parametrize("viewport", [{"width": 390, "height": 844}])
def test_a_cage_is_made_and_drawn_at_phone_width(browser, server_url, viewport):
    context = browser.new_context(viewport=viewport, is_mobile=True, has_touch=True)
    phone = context.new_page()
    try:
        open_killer(phone, server_url)
        width = phone.evaluate("document.documentElement.scrollWidth")
        assert width <= viewport["width"], f"the page is {width} px wide on a {viewport['width']} px screen"
        grid = phone.get_by_role("grid").bounding_box()
        assert grid["x"] >= 0 and grid["x"] + grid["width"] <= viewport["width"]
        cells(phone).nth(0).tap()  # a one-cell cage: tap the cell, type its sum in the field, tap Make cage
        phone.locator("#cage-sum").fill("1")
        phone.locator("#make-cage").tap()
        expect(phone.locator("svg.cages g.cage")).to_have_count(4)
        assert drawn_cages(phone)[0] == ([0], "1")
        layer = phone.locator("svg.cages").bounding_box()
        assert abs(layer["width"] - grid["width"]) < 6 and abs(layer["height"] - grid["height"]) < 6
        settled(phone)
        expect(verdict(phone)).to_contain_text("Several solutions")
        start, end = cells(phone).nth(14).bounding_box(), cells(phone).nth(15).bounding_box()
        phone.mouse.move(start["x"] + 5, start["y"] + 5)  # a drag, then the keypad: its digit and its cage key
        phone.mouse.down()
        phone.mouse.move(end["x"] + 5, end["y"] + 5, steps=3)
        phone.mouse.up()
        phone.get_by_role("button", name="Enter 3").tap()
        phone.get_by_role("button", name="Make the selected cells a cage").tap()
        expect(phone.locator("svg.cages g.cage")).to_have_count(5)
        assert ([14, 15], "3") in drawn_cages(phone)
    finally:
        context.close()


def test_an_unreadable_link_says_why_and_keeps_the_grid(page, server_url):
    open_killer(page, server_url)
    page.locator("#import-link").fill("https://example.com/not-a-puzzle")
    page.get_by_role("button", name="Import link").click()
    expect(message(page)).to_have_attribute("data-tone", "error")
    expect(page.locator("svg.cages g.cage")).to_have_count(3)


def test_an_f_puzzles_link_copied_from_the_page_imports_back(page, server_url):
    open_killer(page, server_url, cages="3.0.1_" + OTHERS)
    page.context.grant_permissions(["clipboard-read", "clipboard-write"])
    page.get_by_role("button", name="Copy f-puzzles link").click()
    expect(message(page)).to_contain_text("Copied an f-puzzles link")
    text = message(page).text_content() or ""
    link = text.split(": ", 1)[1]
    page.locator("#variant").select_option("classic")
    page.locator("#import-link").fill(link)
    page.get_by_role("button", name="Import link").click()
    expect(page.locator("svg.cages g.cage")).to_have_count(4)
    expect(page.locator("#variant")).to_have_value("killer")
    settled(page)
    expect(verdict(page)).to_contain_text("Unique")


def test_generate_makes_a_killer_whose_cages_are_drawn_and_unique(page, server_url):
    open_killer(page, server_url, cages="")
    page.get_by_role("button", name="Generate").click()
    expect(message(page)).to_contain_text("New 4x4 killer puzzle")
    count = page.locator("svg.cages g.cage").count()
    assert count > 1 and f"{count} cages" in (message(page).text_content() or "")
    settled(page)
    expect(verdict(page)).to_contain_text("Unique")
    drawn = drawn_cages(page)
    assert sorted(cell for cells, _ in drawn for cell in cells) == list(range(16))  # the cages tile the grid
    assert all(total is not None for _, total in drawn)


def test_a_killer_copied_as_a_line_loads_back_with_its_cages(page, server_url):
    open_killer(page, server_url, cages="3.0.1_" + OTHERS)
    page.context.grant_permissions(["clipboard-read", "clipboard-write"])
    page.get_by_role("button", name="Copy as line").click()
    line = killer(CAGES).to_killer_line()
    expect(message(page)).to_contain_text(f"Copied the Killer as one line: {line}")
    page.locator("#variant").select_option("classic")
    expect(page.locator("svg.cages g.cage")).to_have_count(0)
    page.locator("#load-text").fill(line)
    page.get_by_role("button", name="Load", exact=True).click()
    expect(page.locator("#variant")).to_have_value("killer")
    expect(page.locator("svg.cages g.cage")).to_have_count(4)
    settled(page)
    expect(verdict(page)).to_contain_text("Unique")
