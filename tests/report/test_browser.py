"""The site in a real headless Chromium (Playwright driving the system browser, opened via file://):
sorting, the replay's controls, no console errors, hostile submission data never runs.

Skipped, with the reason, when the playwright package or /usr/bin/chromium is missing."""
from __future__ import annotations

import copy
import os
from pathlib import Path

import pytest

from grader.report import CHROMIUM, CHROMIUM_ARGS, render_site, screenshots, slug_hash

sync_api = pytest.importorskip("playwright.sync_api", reason="the playwright package is not installed")
if not os.access(CHROMIUM, os.X_OK):
    pytest.skip(f"no Chromium at {CHROMIUM} (apt-get install chromium)", allow_module_level=True)

pytestmark = pytest.mark.browser
REPO = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def browser():
    with sync_api.sync_playwright() as pw:
        b = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield b
        b.close()


@pytest.fixture(scope="module")
def built(tmp_path_factory, request) -> Path:
    """The base document's site, rendered once for the module (fixtures of conftest are
    function-scoped, so build it from the same helpers here)."""
    conftest = request.config.pluginmanager.get_plugin(str(Path(__file__).with_name("conftest.py")))
    out = tmp_path_factory.mktemp("browser") / "site"
    render_site(conftest.base_document(), out, conftest.fake_frames)
    return out


@pytest.fixture
def page(browser):
    """A fresh page that records console errors and uncaught exceptions."""
    context = browser.new_context(viewport={"width": 1000, "height": 800})
    p = context.new_page()
    p.errors = []
    p.on("console", lambda m: p.errors.append(f"console: {m.text}") if m.type == "error" else None)
    p.on("pageerror", lambda e: p.errors.append(f"exception: {e}"))
    yield p
    context.close()


def _names(page) -> list[str]:
    return page.locator("#leaderboard tbody tr td:nth-child(2) a").all_inner_texts()


def _shown_ply(page) -> int:
    """The ply of the picture on the board, read from the SVG's own label."""
    text = page.evaluate("() => atob(document.getElementById('frame').src.split(',')[1])")
    label = text.split("<text", 1)[1].split(">", 1)[1].split("<", 1)[0]
    assert label.startswith("ply ")
    return int(label[4:])


def test_leaderboard_rows_and_sorting(page, built, hostile):
    page.goto((built / "index.html").as_uri())
    assert _names(page) == ["Alice", "Bob", hostile]
    points = page.locator("#leaderboard thead th", has_text="Points")
    points.click()
    assert _names(page) == [hostile, "Bob", "Alice"]              # ascending, missing last
    assert points.get_attribute("aria-sort") == "ascending"
    points.click()
    assert _names(page) == ["Alice", "Bob", hostile]
    assert points.get_attribute("aria-sort") == "descending"
    page.locator("#leaderboard thead th", has_text="Submission").click()
    assert _names(page) == [hostile, "Alice", "Bob"]              # "<" sorts before letters
    page.locator("#leaderboard thead th", has_text="Rank").press("Enter")
    assert _names(page) == ["Alice", "Bob", hostile]
    assert "Trudy" in page.locator("#not-in-league").inner_text()           # not in the league, with why
    assert "opened a network socket" in page.locator("#not-in-league").inner_text()
    assert page.errors == []


def test_replay_steps_through_every_move(page, built):
    page.goto((built / "games" / f"{slug_hash('g-ab-0')}.html").as_uri())
    position = page.locator("#position")
    assert _shown_ply(page) == 0 and position.inner_text() == "ply 0 / 5"
    assert page.locator("#ended").is_hidden()
    for k in range(1, 6):
        page.click("#forward")
        assert _shown_ply(page) == k and position.inner_text() == f"ply {k} / 5"
        assert page.locator(f'#moves button[data-ply="{k}"]').get_attribute("aria-current") == "step"
    assert page.locator("#ended").is_visible()
    assert "goal" in page.locator("#ended").inner_text()
    page.click("#forward")                                                # stays at the end
    assert _shown_ply(page) == 5
    for k in range(4, -1, -1):
        page.keyboard.press("ArrowLeft")
        assert _shown_ply(page) == k
    page.keyboard.press("ArrowLeft")
    assert _shown_ply(page) == 0
    for _ in range(1, 4):
        page.keyboard.press("ArrowRight")
    assert _shown_ply(page) == 3 and page.locator("#slider").input_value() == "3"
    page.keyboard.press("End")
    assert _shown_ply(page) == 5
    page.keyboard.press("Home")
    assert _shown_ply(page) == 0
    assert page.errors == []


def test_replay_slider_moves_and_clicks_jump(page, built):
    page.goto((built / "games" / f"{slug_hash('g-ab-0')}.html").as_uri())
    slider = page.locator("#slider")
    slider.fill("4")
    assert _shown_ply(page) == 4
    slider.focus()
    page.keyboard.press("ArrowLeft")                                      # the slider's own keys
    assert _shown_ply(page) == 3 and slider.input_value() == "3"
    page.locator('#moves button[data-ply="2"]').click()
    assert _shown_ply(page) == 2 and slider.input_value() == "2"
    page.click("#last")
    assert _shown_ply(page) == 5
    page.click("#first")
    assert _shown_ply(page) == 0
    assert page.errors == []


def test_replay_play_and_pause(page, built):
    page.goto((built / "games" / f"{slug_hash('g-ab-0')}.html").as_uri())
    play = page.locator("#play")
    play.click()
    assert play.inner_text() == "pause"
    page.wait_for_function("() => document.getElementById('slider').value === '2'", timeout=5000)
    play.click()
    assert play.inner_text() == "play"
    stopped = _shown_ply(page)
    page.wait_for_timeout(900)
    assert _shown_ply(page) == stopped
    play.click()                                                          # plays on to the end, then stops
    page.wait_for_function("() => document.getElementById('slider').value === '5'", timeout=8000)
    assert play.inner_text() == "play" and page.locator("#ended").is_visible()
    assert page.errors == []


def test_no_console_errors_and_hostile_data_never_runs(page, built, hostile):
    for html in sorted(built.rglob("*.html")):
        page.goto(html.as_uri())
        page.wait_for_load_state("load")
        assert page.evaluate("() => typeof window.__pwned") == "undefined", html.name
        assert page.errors == [], f"{html.relative_to(built)}: {page.errors}"
    page.goto((built / "submissions" / f"{slug_hash('mallory')}.html").as_uri())
    assert page.locator("h2").first.inner_text() == hostile                # shown as text
    assert hostile in page.locator("pre.output").inner_text()
    page.goto((built / "games" / f"{slug_hash('g-am-2')}.html").as_uri())
    assert page.locator('#moves button[data-ply="2"]').inner_text() == hostile
    page.locator('#moves button[data-ply="2"]').click()
    assert page.evaluate("() => typeof window.__pwned") == "undefined"


@pytest.mark.parametrize("width", [390, 640, 1280])
def test_every_page_fits_the_screen_width(browser, request, tmp_path, width):
    """A phone (390 px), a small window (640 px: the header's limits once overflowed there) and a
    laptop (1280 px): no page scrolls sideways, wide tables scroll inside their own box, every
    leaderboard column is visible, the replay stacks on a phone and sits side by side on a laptop."""
    conftest = request.config.pluginmanager.get_plugin(str(Path(__file__).with_name("conftest.py")))
    doc = conftest.base_document()
    doc["assignment"]["limits"] = {f"a_rather_long_limit_name_{n}": "1234567 ms" for n in range(8)}
    doc["submissions"][0]["public_name"] = "A rather long pseudonym that goes on and on " * 2
    render_site(doc, tmp_path / "site", conftest.fake_frames, public=True)
    site = tmp_path / "site"
    context = browser.new_context(viewport={"width": width, "height": 800}, is_mobile=width < 500)
    try:
        p = context.new_page()
        for html in sorted(site.rglob("*.html")):
            p.goto(html.as_uri())
            assert p.evaluate("() => document.documentElement.scrollWidth") <= width + 1, html.name
        p.goto((site / "index.html").as_uri())
        wrap = "document.querySelector('#leaderboard').parentElement"
        assert p.evaluate(f"() => {wrap}.scrollWidth <= {wrap}.clientWidth + 1")
        p.goto(sorted((site / "games").glob("*.html"))[0].as_uri())     # a game page (named by the game)
        board, moves = p.locator("#board").bounding_box(), p.locator("#moves").bounding_box()
        if width < 700:
            assert moves["y"] >= board["y"] + board["height"]               # stacked
        else:
            assert moves["x"] >= board["x"] + board["width"]                # side by side
    finally:
        context.close()


def test_the_failing_position_is_shown_large_enough_to_read(browser, request, tmp_path):
    conftest = request.config.pluginmanager.get_plugin(str(Path(__file__).with_name("conftest.py")))
    doc = conftest.base_document()
    doc["submissions"][2]["validation"]["checks"][1]["svg"] = (
        '<svg xmlns="http://www.w3.org/2000/svg" width="600" height="400" viewBox="0 0 600 400">'
        '<text x="10" y="390" font-size="12">legend: missing, extra</text></svg>')
    render_site(doc, tmp_path / "site")
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    try:
        p = context.new_page()
        p.goto((tmp_path / "site" / "submissions" / f"{slug_hash('mallory')}.html").as_uri())
        assert p.locator("img.picture").bounding_box()["width"] >= 600
    finally:
        context.close()


def test_screenshots_for_the_readme(browser, request, tmp_path):
    """Writes reports/screenshots/{leaderboard,failed-check,replay}.png (generated, git-ignored; the
    README embeds the copies in docs/screenshots/ taken from the demo's league)."""
    conftest = request.config.pluginmanager.get_plugin(str(Path(__file__).with_name("conftest.py")))
    doc = copy.deepcopy(conftest.base_document())
    for sub in doc["submissions"]:
        if sub["id"] == "mallory":
            sub["display_name"], sub["output"] = "Mallory", "searching depth 3\nsearching depth 4\n"
            sub["validation"]["checks"][1]["message"] = "Returned e9, which is off the board."
    render_site(doc, tmp_path / "site", conftest.fake_frames)
    written = screenshots(tmp_path / "site", REPO / "reports" / "screenshots", browser)
    assert [p.name for p in written] == ["leaderboard.png", "failed-check.png", "replay.png"]
    for p in written:
        assert p.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" and p.stat().st_size > 2000


def test_pages_without_pictures_or_with_missing_fields_run_cleanly(page, request, tmp_path):
    conftest = request.config.pluginmanager.get_plugin(str(Path(__file__).with_name("conftest.py")))
    sparse = {"submissions": [{"id": "a"}, {}], "games": [{"seat0": "a", "moves": [1, 2, 3]}, {}],
              "crosstable": {"a": None}}
    for name, doc in (("plain", conftest.base_document()), ("sparse", sparse)):
        render_site(doc, tmp_path / name)
        for html in sorted((tmp_path / name).rglob("*.html")):
            page.goto(html.as_uri())
            assert page.errors == [], f"{name}/{html.relative_to(tmp_path / name)}: {page.errors}"
    page.goto(sorted((tmp_path / "sparse" / "games").glob("*.html"))[0].as_uri())
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowRight")
    assert page.locator("#position").inner_text() == "ply 2 / 3"
    assert page.locator('#moves button[data-ply="2"]').get_attribute("aria-current") == "step"
    assert page.errors == []
