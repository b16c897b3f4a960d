"""The site in a real headless Chromium (Playwright driving the system browser, opened via file://):
sorting, the replay's controls, no console errors, hostile submission data never runs.

Skipped, with the reason, when the playwright package or /usr/bin/chromium is missing."""
from __future__ import annotations

import copy
import json
import os
from pathlib import Path

import pytest

from grader.report import CHROMIUM, game_shard, read_shard, render_site, screenshots, shard_entry, slug_hash

sync_api = pytest.importorskip("playwright.sync_api", reason="the playwright package is not installed")
if not os.access(CHROMIUM, os.X_OK):
    pytest.skip(f"no Chromium at {CHROMIUM} (apt-get install chromium)", allow_module_level=True)

pytestmark = pytest.mark.browser
REPO = Path(__file__).resolve().parents[2]


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


def open_game(page, site: Path, key: str):
    """Open the site's one replay viewer on the game with this URL key, once it has loaded."""
    page.goto(f"{(site / 'replay.html').as_uri()}#{game_shard(key)}/{key}")
    page.wait_for_selector("#replay[data-ready]", state="attached")


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
    open_game(page, built, slug_hash("g-ab-0"))
    assert page.locator("#moves li").nth(2).locator(".time").inner_text() == "0.03 / 0.02 s"
    assert page.locator("#times-label").is_visible()                     # what the numbers are
    assert "wall-clock / CPU seconds" in page.locator("#times-label").inner_text()
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
    open_game(page, built, slug_hash("g-ab-0"))
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
    open_game(page, built, slug_hash("g-ab-0"))
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
    open_game(page, built, slug_hash("g-am-2"))
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
        key = _keys(site)[0]
        open_game(p, site, key)                                             # the replay viewer
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
    key = next(k for k in _keys(tmp_path / "sparse") if _record(tmp_path / "sparse", k)["moves"])
    open_game(page, tmp_path / "sparse", key)
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowRight")
    assert page.locator("#position").inner_text() == "ply 2 / 3"
    assert page.locator('#moves button[data-ply="2"]').get_attribute("aria-current") == "step"
    assert page.errors == []


def _keys(site: Path) -> list[str]:
    return sorted(r["key"] for f in (site / "games").glob("*.js") for r in read_shard(f.read_text(encoding="utf-8")))


def _record(site: Path, key: str) -> dict:
    return next(r for r in read_shard((site / "games" / f"{game_shard(key)}.js").read_text(encoding="utf-8"))
                if r["key"] == key)


def test_the_viewer_says_so_for_a_game_that_is_not_in_the_report(page, built):
    for address in ("#00/no-such-game", "#zz/x", "", "#80/<img src=x onerror=window.__pwned=1>"):
        page.goto((built / "replay.html").as_uri() + address)
        page.wait_for_selector("#replay[data-ready]", state="attached")
        assert page.locator("#not-found").is_visible() and page.locator("#replay").is_hidden(), address
        assert page.evaluate("() => typeof window.__pwned") == "undefined"
    assert [e for e in page.errors if "ERR_FILE_NOT_FOUND" not in e] == []


def test_a_damaged_or_swapped_packed_record_is_not_shown(page, built):
    """A shard line whose packed record is not deflate, or names another game, shows nothing."""
    key, other = _keys(built)[:2]
    shard = built / "games" / f"{game_shard(key)}.js"
    good = shard.read_text(encoding="utf-8")
    swapped = json.loads(shard_entry(_record(built, other)))[1]
    try:
        for packed in ("QUJD", "!!not base64!!", swapped):
            shard.write_text("replayRecords([\n" + json.dumps([key, packed]) + "\n]);\n", encoding="utf-8")
            page.goto(f"{(built / 'replay.html').as_uri()}#{game_shard(key)}/{key}")
            page.wait_for_selector("#replay[data-ready]", state="attached")
            assert page.locator("#not-found").is_visible() and page.locator("#replay").is_hidden(), packed[:20]
    finally:
        shard.write_text(good, encoding="utf-8")


def _bohnenspiel_game(seed: int) -> tuple[list, list[str]]:
    """A whole random Bohnenspiel game (skips included) by the Python engine: its stored moves
    and the engine's own picture of every position."""
    import random

    from rulesets.bohnenspiel import RULESET

    rng = random.Random(seed)
    state = RULESET.game(max_turns=30).new_state(seed)
    moves, pictures = [], [state.render_svg()]
    while not state.is_over:
        legal = state.legal_moves()
        move = ("skip",) if ("skip",) in legal and rng.random() < 0.3 else rng.choice(legal)
        state.play(move)
        moves.append(state.move_to_json(move))
        pictures.append(state.render_svg())
    return moves, pictures


@pytest.mark.parametrize("public", [False, True])
def test_the_rulesets_board_script_draws_every_position_as_the_engine_does(browser, request, tmp_path, public):
    """Bohnenspiel's board.js replays the stored moves in the browser: each picture the viewer
    shows is the engine's own render_svg of that position, character for character, for games
    ending by the turn cap and by a player without moves; served under the upload service's CSP
    (no inline script), with no console error."""
    from grader.serve.app import CSP
    from rulesets.bohnenspiel import RULESET

    conftest = request.config.pluginmanager.get_plugin(str(Path(__file__).with_name("conftest.py")))
    doc = conftest.base_document()
    doc["assignment"].update(ruleset="bohnenspiel", game={"max_turns": 30})
    expected = {}
    for n, g in enumerate(doc["games"]):
        g["moves"], expected[g["id"]] = _bohnenspiel_game(n + 3)
        g["move_texts"], g["times"] = [f"m{k}" for k in range(len(g["moves"]))], []
    site = tmp_path / "site"
    render_site(doc, site, public=public, board=RULESET.board_script)
    assert all("frames" not in _record(site, k) for k in _keys(site))

    context = browser.new_context(viewport={"width": 1000, "height": 800})
    context.route("http://site.test/**", lambda route: route.fulfill(
        path=str(site / route.request.url.split("http://site.test/", 1)[1].split("#")[0]),
        headers={"Content-Security-Policy": CSP}))
    try:
        p = context.new_page()
        errors: list[str] = []
        p.on("console", lambda m: errors.append(m.text) if m.type in ("error", "warning") else None)
        p.on("pageerror", lambda e: errors.append(str(e)))
        for key in _keys(site):
            record = _record(site, key)
            pictures = expected[next(g["id"] for g in doc["games"] if g["moves"] == record["moves"])]
            p.goto(f"http://site.test/replay.html#{game_shard(key)}/{key}")
            p.wait_for_selector("#replay[data-ready]", state="attached")
            assert p.locator("#no-frames").is_hidden()
            for ply, want in enumerate(pictures):
                shown = p.evaluate("() => decodeURIComponent(escape(atob(document.getElementById('frame').src.split(',')[1])))")
                assert shown == want, (key, ply)
                p.keyboard.press("ArrowRight")
        assert errors == []
    finally:
        context.close()
