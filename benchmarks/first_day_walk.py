"""The instructor's first day with `grader serve`, in Chromium, as numbered screenshots a person
checks by eye (issues 42 and 45): a course folder from `grader init`, the service started on it,
the instructor signs in and adds the roster, two students set their passwords and upload (one
player that passes, one that fails), the verdicts, the league run, its standings, and the grades
export. Each picture gets one line in index.html saying what to look for, and each step names the
sentence its page must show, so tests/e2e/test_first_day_walk.py runs the walk and cannot rot.

    .venv/bin/python -m benchmarks.first_day_walk [--out reports/first-day]

Needs Chromium (/usr/bin/chromium, `apt-get install chromium`) and the playwright package."""
from __future__ import annotations

import argparse
import csv
import html
import io
import re
import shutil
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from playwright.sync_api import Page, sync_playwright

from grader.report import CHROMIUM, CHROMIUM_ARGS

ROOT = Path(__file__).resolve().parents[1]
GRADER = Path(sys.executable).parent / "grader"
PASSING = ROOT / "submissions" / "quoridor" / "alice" / "player.py"
FAILING = ROOT / "submissions" / "quoridor" / "no_crossing" / "player.py"
ROSTER = ("Username,First name,Last name,Email address\n"
          "novakj,Jan,Novák,novakj@example.edu\n"
          "dvorakb,Bořek,Dvořák,dvorakb@example.edu\n")
STUDENT_PASSWORD = "first-day-password"
WAIT_S = 900                       # a verdict or a league at a load of 20; the walk says what it waited for


@dataclass
class Shot:
    """One screenshot: its file, what a person should look for, and the sentence the page must show."""
    file: str
    look_for: str
    sentence: str
    text: str = ""                 # the page's text when it was taken


class Walk:
    """The pictures taken so far, numbered in order."""

    def __init__(self, out: Path) -> None:
        self.out = out
        self.shots: list[Shot] = []

    def take(self, page: Page, name: str, look_for: str, sentence: str) -> Shot:
        shot = Shot(f"{len(self.shots) + 1:02d}-{name}.png", look_for, sentence, page.inner_text("body"))
        page.screenshot(path=str(self.out / shot.file), full_page=True)
        self.shots.append(shot)
        return shot

    def index(self) -> Path:
        rows = "".join(
            f'<li><a href="{s.file}">{s.file}</a>: {html.escape(s.look_for)} '
            f'<small>(the page says “{html.escape(s.sentence)}”{"" if s.sentence in s.text else ": MISSING"})</small>'
            f'<br><img src="{s.file}" width="480" alt="{html.escape(s.file)}"></li>\n' for s in self.shots)
        path = self.out / "index.html"
        path.write_text(f"<!doctype html><meta charset=utf-8><title>The instructor's first day</title>"
                        f"<h1>The instructor's first day: what to look for</h1><ol>\n{rows}</ol>\n", encoding="utf-8")
        return path


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@contextmanager
def service(course: Path, port: int, log: Path) -> Iterator[str]:
    """`grader serve` on the course folder; yields the instructor's password it prints once."""
    with log.open("w") as out:
        proc = subprocess.Popen([str(GRADER), "serve", "--port", str(port), "--workers", "1"], cwd=course,
                                stdout=out, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL)
        try:
            password = None
            deadline = time.monotonic() + 120
            while time.monotonic() < deadline and proc.poll() is None:
                found = re.search(r"password '([^']+)'", log.read_text())
                if found and up(port):
                    password = found.group(1)
                    break
                time.sleep(0.2)
            if password is None:
                raise RuntimeError(f"grader serve did not start; its output:\n{log.read_text()}")
            yield password
        finally:
            proc.terminate()
            try:
                proc.wait(timeout=30)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()


def up(port: int) -> bool:
    with socket.socket() as s:
        return s.connect_ex(("127.0.0.1", port)) == 0


def sign_in(page: Page, base: str, login: str, password: str) -> None:
    page.goto(f"{base}/login")
    page.fill("input[name=login]", login)
    page.fill("input[name=password]", password)
    page.click("button[type=submit]")


def wait_for(page: Page, selector: str, words: str) -> None:
    """Reload until `selector` holds `words` (the league's run table); the verdict page updates itself."""
    deadline = time.monotonic() + WAIT_S
    while words not in (page.inner_text(selector) if page.locator(selector).count() else ""):
        if time.monotonic() > deadline:
            raise TimeoutError(f"waited {WAIT_S} s for {words!r} in {selector} on {page.url}")
        time.sleep(2)
        page.reload()


def upload(page: Page, base: str, player: Path) -> None:
    page.goto(f"{base}/a/quoridor")
    page.set_input_files("input[name=file]", str(player))
    page.click("form[action$='/upload'] button")
    page.wait_for_selector("#state")


def walk(out: Path) -> Walk:
    """Take the first day's pictures into `out` (emptied first) and write its index.html."""
    shutil.rmtree(out, ignore_errors=True)
    out.mkdir(parents=True)
    shots = Walk(out)
    with tempfile.TemporaryDirectory(prefix="first-day-") as scratch:
        course = Path(scratch) / "b3b33alp"
        subprocess.run([str(GRADER), "init", str(course), "--assignment", "quoridor"], check=True,
                       capture_output=True, text=True)
        port = free_port()
        base = f"http://127.0.0.1:{port}"
        with service(course, port, out / "serve.log") as password, sync_playwright() as pw:
            browser = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
            try:
                teacher = browser.new_context(viewport={"width": 1100, "height": 800}).new_page()
                sign_in(teacher, base, "instructor", password)
                shots.take(teacher, "instructor-home", "the instructor's first page after signing in with the "
                           "password `grader serve` printed: the assignment, and a sentence pointing to its class page",
                           "class page is where you add students")
                teacher.goto(f"{base}/teach/quoridor")
                shots.take(teacher, "class-empty", "the empty class page: the league and rejudge buttons, the "
                           "grades link, and a sentence saying to add students from a roster CSV", "No students yet")
                roster = Path(scratch) / "roster.csv"
                roster.write_text(ROSTER, encoding="utf-8")
                teacher.set_input_files("input[name=roster]", str(roster))
                teacher.click("form[action$='/roster'] button")
                shots.take(teacher, "roster-links", "one set-password link per student, their names with accents "
                           "intact, and the CSV for a mail merge", "Download these links as a CSV")
                links = {row.locator("td").nth(0).inner_text(): row.locator("code").inner_text()
                         for row in teacher.locator("#links tbody tr").all()}
                students = {}
                for login, player in (("novakj", PASSING), ("dvorakb", FAILING)):
                    page = browser.new_context(viewport={"width": 1100, "height": 800}).new_page()
                    page.goto(links[login])
                    if login == "novakj":
                        shots.take(page, "set-password", "the student's own name greets them; two password fields",
                                   "Set your password, Jan Novák")
                    page.fill("input[name=password]", STUDENT_PASSWORD)
                    page.fill("input[name=again]", STUDENT_PASSWORD)
                    page.click("button[type=submit]")
                    if login == "novakj":
                        page.goto(f"{base}/a/quoridor")
                        shots.take(page, "student-assignment", "what a student sees before uploading: the "
                                   "upload form, the upload limit and deadline if the course set them", "Upload your player")
                    upload(page, base, player)
                    students[login] = page
                for page in students.values():                  # the upload page updates itself
                    page.wait_for_selector("#verdict", timeout=WAIT_S * 1000)
                shots.take(students["novakj"], "verdict-pass", "a passing upload: green, every stage with its "
                           "points, and what happens next (the league)", "plays in the league")
                shots.take(students["dvorakb"], "verdict-fail", "a failing upload: not green, the failing stage "
                           "named with its sentence and the picture of the position", "positions answered wrongly")
                teacher.goto(f"{base}/teach/quoridor")
                shots.take(teacher, "class-uploads", "both students with their latest verdict: one passed, one "
                           "did not, in words and colours that agree", "did not pass")
                teacher.click("text=Run the league now")
                wait_for(teacher, "#runs", "done")
                shots.take(teacher, "class-league-done", "the league run listed as done with its result line "
                           "(games played, submissions new or changed)", "games reused")
                teacher.goto(f"{base}/teach/quoridor/site/index.html")
                shots.take(teacher, "standings-instructor", "the instructor's standings: real names, what the "
                           "table ranks by, the number in every row, and the student who failed validation with the reason",
                           "Bořek Dvořák")
                students["novakj"].goto(f"{base}/league/quoridor/index.html")
                shots.take(students["novakj"], "standings-public", "the students' standings: pseudonyms only, no "
                           "names or logins", "Leaderboard")
                with teacher.expect_download() as download:
                    teacher.goto(f"{base}/teach/quoridor")
                    teacher.click("text=Grades (CSV)")
                exported = Path(download.value.path()).read_text(encoding="utf-8")
                (out / "grades.csv").write_text(exported, encoding="utf-8")
                teacher.set_content(export_page(exported))
                shots.take(teacher, "grades-export", "the grades CSV as downloaded: a row for each student who uploaded "
                           "(the failing one with 0 and the reason), and the feedback each will read", "dvorakb")
            finally:
                browser.close()
    shots.index()
    return shots


def export_page(text: str) -> str:
    """The downloaded CSV as a table, so that its picture can be looked at like the others."""
    rows = list(csv.reader(io.StringIO(text)))
    cells = "".join("<tr>" + "".join(f"<td>{html.escape(c)}</td>" for c in row) + "</tr>" for row in rows)
    return (f"<!doctype html><meta charset=utf-8><style>td{{border:1px solid #999;padding:4px;font:13px sans-serif;"
            f"vertical-align:top}}</style><h2>grades.csv (the class page's “Grades (CSV)”)</h2><table>{cells}</table>")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", default=str(ROOT / "reports" / "first-day"), help="the folder for the pictures")
    args = parser.parse_args(argv)
    shots = walk(Path(args.out))
    missing = [s.file for s in shots.shots if s.sentence not in s.text]
    print(f"{len(shots.shots)} screenshots and their index: {Path(args.out) / 'index.html'}")
    for file in missing:
        print(f"MISSING its sentence: {file}")
    return 1 if missing else 0


if __name__ == "__main__":
    sys.exit(main())
