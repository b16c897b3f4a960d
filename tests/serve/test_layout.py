"""The verdict a student reads on a phone, a tablet and a laptop (Chromium at 390, 640 and 1280 px):
nothing is cut off or pushed sideways, the board picture keeps a readable size, the check's output
shows its last line, and the games table fits.

Skipped, with the reason, when the playwright package or /usr/bin/chromium is missing."""
from __future__ import annotations

import json
import os
import socket
import threading
import time
from pathlib import Path

import pytest

from grader.report import CHROMIUM, CHROMIUM_ARGS

sync_api = pytest.importorskip("playwright.sync_api", reason="the playwright package is not installed")
if not os.access(CHROMIUM, os.X_OK):
    pytest.skip(f"no Chromium at {CHROMIUM} (apt-get install chromium)", allow_module_level=True)

pytestmark = pytest.mark.browser
ROOT = Path(__file__).resolve().parents[2]
BROKEN = ROOT / "submissions" / "quoridor" / "no_crossing" / "player.py"
WIDTHS = (390, 640, 1280)
SHOTS = ROOT / "reports" / "screenshots"          # generated, git-ignored

# What the page must satisfy, measured in the browser: every element's box inside the viewport.
MEASURE = """() => {
  const width = document.documentElement.clientWidth;
  const out = {width, page: document.documentElement.scrollWidth, cut: []};
  for (const el of document.querySelectorAll('main td, main p, main pre, main img, main h2, main h3')) {
    const r = el.getBoundingClientRect();
    if (r.width && (r.left < -1 || r.right > width + 1)) out.cut.push(el.tagName + ': ' + el.textContent.slice(0, 60));
  }
  const pre = document.querySelector('pre.verdict');
  if (pre) out.pre = {scroll: pre.scrollHeight, client: pre.clientHeight, sw: pre.scrollWidth, cw: pre.clientWidth,
                      last: pre.textContent.trim().split('\\n').pop()};
  const img = document.querySelector('img.picture');
  if (img) out.picture = img.getBoundingClientRect().width;
  return out;
}"""


@pytest.fixture
def live_upload(service, tmp_path):
    """A failed upload with its verdict and a league with one game for alice, served on a real port."""
    import uvicorn

    from grader.serve.app import create_app

    alice = service.site("alice", "alice-password")
    upload = alice.upload(BROKEN).headers["location"]
    assert service.work() == 1
    reports = tmp_path / "data" / "league" / "quoridor" / "reports"
    reports.mkdir(parents=True)
    (reports / "results.json").write_text(json.dumps({
        "assignment": {"name": "quoridor"},
        "submissions": [{"id": "alice", "public_name": "Quiet Fox"}, {"id": "bob", "public_name": "Brave Owl"}],
        "games": [{"seat0": "alice", "seat1": "bob", "points": [0, 1],
                   "detail": "the opponent reached the goal row after 38 moves; a wall placement was refused "
                             "because it would have closed every path of the opponent to its goal row"}]}))
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    server = uvicorn.Server(uvicorn.Config(create_app(service.config), host="127.0.0.1", port=port,
                                           log_level="warning"))
    threading.Thread(target=server.run, daemon=True).start()
    while not server.started:
        time.sleep(0.05)
    yield f"http://127.0.0.1:{port}", upload
    server.should_exit = True


def test_the_verdict_and_the_games_are_readable_at_every_width(live_upload):
    url, upload = live_upload
    with sync_api.sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        errors: list[str] = []
        try:
            for width in WIDTHS:
                page = browser.new_context(viewport={"width": width, "height": 800}).new_page()
                page.on("pageerror", lambda e: errors.append(str(e)))
                page.on("console", lambda m: errors.append(m.text) if "Content Security Policy" in m.text else None)
                page.on("response", lambda r: errors.append(f"{r.status} {r.url}")
                        if r.status >= 400 and not r.url.endswith("/favicon.ico") else None)
                page.goto(f"{url}/login")
                page.fill("input[name=login]", "alice")
                page.fill("input[name=password]", "alice-password")
                page.click("main button[type=submit]")
                page.goto(f"{url}{upload}")
                SHOTS.mkdir(parents=True, exist_ok=True)
                page.screenshot(path=str(SHOTS / f"serve-verdict-{width}.png"), full_page=True)
                m = page.evaluate(MEASURE)
                assert m["page"] <= m["width"], f"{width} px: the page scrolls sideways ({m['page']} px)"
                assert m["cut"] == [], f"{width} px: cut off: {m['cut']}"
                assert m["pre"]["scroll"] <= m["pre"]["client"] + 1 and m["pre"]["sw"] <= m["pre"]["cw"] + 1, \
                    f"{width} px: the check's output hides part of itself: {m['pre']}"
                assert m["pre"]["last"] and page.get_by_text(m["pre"]["last"]).last.is_visible()
                assert m["picture"] >= min(300, 0.7 * width), f"{width} px: the board is {m['picture']:.0f} px wide"
                page.goto(f"{url}/a/quoridor")
                m = page.evaluate(MEASURE)
                assert m["page"] <= m["width"] and m["cut"] == [], f"{width} px, assignment page: {m}"
                assert page.locator("#my-games").is_visible() and "Brave Owl" in page.inner_text("#my-games")
                assert errors == [], errors                      # no CSP violation, no script error
                page.context.close()
        finally:
            browser.close()
