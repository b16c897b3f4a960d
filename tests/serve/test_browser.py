"""The upload service in a real headless Chromium: a student logs in, uploads a broken player, sees the
failing stage with its picture, uploads a fixed one, sees it pass and appear in the table after a league
run; an instructor rejudges and exports. Screenshots go to reports/screenshots/serve-*.png (generated,
git-ignored; the README's copies in docs/screenshots are taken from there by hand).

Skipped, with the reason, when the playwright package or /usr/bin/chromium is missing."""
from __future__ import annotations

import os
import re
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
GOOD = ROOT / "submissions" / "quoridor" / "alice" / "player.py"
BROKEN = ROOT / "submissions" / "quoridor" / "no_crossing" / "player.py"
SHOTS = ROOT / "reports" / "screenshots"


@pytest.fixture
def live(service):
    """The app on a real port (uvicorn in a thread) and a worker thread draining the queue."""
    import socket

    import uvicorn

    from grader.serve.app import create_app
    from grader.serve.worker import Worker

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    server = uvicorn.Server(uvicorn.Config(create_app(service.config), host="127.0.0.1", port=port, log_level="warning"))
    threading.Thread(target=server.run, daemon=True).start()
    stop = threading.Event()

    def work():
        worker = Worker(service.config)
        while not stop.is_set():
            if not worker.run_once():
                time.sleep(0.1)

    threading.Thread(target=work, daemon=True).start()
    while not server.started:
        time.sleep(0.05)
    yield f"http://127.0.0.1:{port}"
    stop.set()
    server.should_exit = True


def test_a_student_and_an_instructor_in_a_real_browser(live, tmp_path):
    SHOTS.mkdir(parents=True, exist_ok=True)
    with sync_api.sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            page = browser.new_context(viewport={"width": 1100, "height": 900}).new_page()
            errors = []
            page.on("pageerror", lambda e: errors.append(str(e)))
            page.goto(f"{live}/")
            page.fill("input[name=login]", "alice")
            page.fill("input[name=password]", "alice-password")
            page.click("button[type=submit]")
            page.click("text=Quoridor")
            page.set_input_files("input[name=file]", str(BROKEN))
            page.click("form[action$='/upload'] button")
            page.wait_for_selector("#verdict", timeout=120_000)          # the page updates itself
            assert "Did not pass" in page.inner_text("#verdict")
            assert page.locator("img.picture").count() >= 1
            assert "FAIL" in page.inner_text("#stages")
            page.screenshot(path=str(SHOTS / "serve-failed-upload.png"), full_page=True)
            page.goto(f"{live}/a/quoridor")
            page.set_input_files("input[name=file]", str(GOOD))
            page.click("form[action$='/upload'] button")
            page.wait_for_selector("#verdict", timeout=120_000)
            assert "Passed" in page.inner_text("#verdict")

            teacher = browser.new_context(viewport={"width": 1100, "height": 900}).new_page()
            teacher.on("pageerror", lambda e: errors.append(str(e)))
            teacher.goto(f"{live}/login")
            teacher.fill("input[name=login]", "teacher")
            teacher.fill("input[name=password]", "teacher-password")
            teacher.click("button[type=submit]")
            teacher.goto(f"{live}/teach/quoridor")
            teacher.click("text=Rejudge every upload")
            assert "queued for evaluation again" in teacher.inner_text(".message")
            teacher.click("text=Run the league now")
            deadline = time.time() + 240
            while "done" not in teacher.inner_text("#runs") and time.time() < deadline:
                time.sleep(1)
                teacher.reload()
            assert "done" in teacher.inner_text("#runs")
            teacher.screenshot(path=str(SHOTS / "serve-class.png"), full_page=True)
            with teacher.expect_download() as download:
                teacher.click("text=Grades (CSV)")
            csv = Path(download.value.path()).read_text()
            assert "alice" in csv

            page.goto(f"{live}/a/quoridor")
            assert page.locator("#my-games tr.mine").count() >= 1
            page.click("text=The table and the replays of the last league run")
            board = page.inner_text("#leaderboard")                    # the public site: pseudonyms only
            assert board.strip() and not re.search(r"Alice|alice|Nováková", board)
            page.click("text=Back to")
            page.goto(f"{live}/a/quoridor")
            page.screenshot(path=str(SHOTS / "serve-student.png"), full_page=True)
            assert errors == []
        finally:
            browser.close()


def test_a_practice_match_is_replayed_on_the_board_for_its_student_only(live, service):
    """The match page's replay link opens the league's replay viewer, which draws the board and lists the
    match's moves; another student logged in gets the refusal, not the viewer."""
    from grader.serve import practice

    alice = service.site("alice", "alice-password")
    assert alice.upload(GOOD).status_code == 303
    with sync_api.sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            errors: list[str] = []
            pages = {}
            for login in ("alice", "bob"):
                pages[login] = browser.new_context().new_page()
                pages[login].on("pageerror", lambda e: errors.append(str(e)))
                pages[login].goto(f"{live}/login")
                pages[login].fill("input[name=login]", login)
                pages[login].fill("input[name=password]", f"{login}-password")
                pages[login].click("button[type=submit]")
            page = pages["alice"]
            page.goto(f"{live}/a/quoridor/practice")
            deadline = time.time() + 240
            while page.locator("option[value='builtin:random']").count() == 0 and time.time() < deadline:
                time.sleep(1)                                   # the upload's check gives the passing upload
                page.reload()
            page.select_option("select[name=opponent]", "builtin:random")
            page.click("form[action$='/practice/match'] button")
            page.wait_for_selector("#result", timeout=240_000)   # the page updates itself
            match_id = page.url.rsplit("/", 1)[1]
            played = practice.games(service.app_.service.data_dir, match_id)
            page.click("a.replay >> nth=0")
            page.wait_for_selector("#replay[data-ready]", state="attached")
            assert page.locator("#frame").is_visible() and page.locator("#no-frames").is_hidden()
            assert page.locator("#moves button").all_inner_texts() == played[0]["moves"]
            page.click("#last")
            assert page.get_attribute("#frame", "data-ply") == str(len(played[0]["moves"]))
            assert "you" in page.inner_text("#title")

            other = pages["bob"]
            other.goto(page.url)
            assert other.locator("#replay").count() == 0 and "No such practice match" in other.content()
            assert errors == []
        finally:
            browser.close()
