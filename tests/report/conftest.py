"""Shared fixtures for the report tests: a small results document with hostile submission data,
a fake `frames` function (no real game involved), an HTML tag-balance checker and the headless
Chromium of the browser tests."""
from __future__ import annotations

import copy
from html.parser import HTMLParser
from pathlib import Path

import pytest

from grader.report import CHROMIUM, CHROMIUM_ARGS, render_site

HOSTILE = '<script>window.__pwned=1</script><img src=x onerror="window.__pwned=1">'


def fake_frames(game: dict) -> list[str]:
    """One SVG per ply: a label "ply k" and a circle whose x position is 10 + 20·k."""
    n = len(game.get("moves") or [])
    return [f'<svg xmlns="http://www.w3.org/2000/svg" width="200" height="60" viewBox="0 0 200 60">'
            f'<text x="4" y="14">ply {k}</text><circle cx="{10 + 20 * k}" cy="40" r="8"/></svg>'
            for k in range(n + 1)]


def _game(gid, a, b, points, reason, texts, seed):
    return {"id": gid, "seat0": a, "seat1": b, "seed": seed, "game_index": seed % 2, "points": points,
            "reason": reason, "detail": f"detail of {gid}", "moves": [[i, i + 1] for i in range(len(texts))],
            "move_texts": texts, "times": [[0.01 * (i + 1), 0.008 * (i + 1)] for i in range(len(texts))],
            "incidents": [], "reproduce": f"grader play {a} {b} --assignment demo --seed {seed}"}


def base_document() -> dict:
    """Four submissions (two valid, one failed validation, one disqualified) and three games.

    The failed one has a hostile display name, output and move text; alice is first, bob second."""
    games = [
        _game("g-ab-0", "alice", "bob", [1, 0], "goal", ["e2", "e8", "e3", "e7", "e4"], 0),
        _game("g-ba-1", "bob", "alice", [0.5, 0.5], "move limit", ["d2", "d8", "d3", "d7"], 1),
        _game("g-am-2", "alice", "mallory", [1, 0], "illegal move", ["e2", HOSTILE], 2),
    ]
    sub = {"status": "valid", "status_detail": None, "grade_max": 10, "slowest_move_s": 0.42,
           "peak_memory_mb": 88.5, "output": "thinking...\n"}
    ok_checks = {"passed": True, "points": 2, "max_points": 2, "checks": [
        {"name": "imports", "passed": True, "points": 1, "max_points": 1, "message": "ok", "picture": None,
         "svg": None},
        {"name": "legal opening", "passed": True, "points": 1, "max_points": 1, "message": "ok",
         "picture": None, "svg": None}]}
    return {
        "assignment": {"name": "demo", "title": "Demo league", "ruleset": "quoridor", "ruleset_version": "1.2",
                       "limits": {"move_s": 1.0, "memory_mb": 512},
                       "league": {"format": "round_robin", "games_per_pair": 2, "seed": 7},
                       "generated_at": "2026-11-22T08:00:00Z", "grader_version": "0.3.0", "anonymised": False},
        "submissions": [
            {**sub, "id": "bob", "display_name": "Bob", "validation": copy.deepcopy(ok_checks), "rank": 2,
             "points": 0.5, "wins": 0, "draws": 1, "losses": 1, "games": 2, "rating": 1480,
             "rating_low": 1400, "rating_high": 1560, "grade": 6},
            {**sub, "id": "alice", "display_name": "Alice", "validation": copy.deepcopy(ok_checks), "rank": 1,
             "points": 2.5, "wins": 2, "draws": 1, "losses": 0, "games": 3, "rating": 1620,
             "rating_low": 1540, "rating_high": 1700, "grade": 9.5},
            {**sub, "id": "mallory", "display_name": HOSTILE, "status": "failed", "status_detail": None,
             "validation": {"passed": False, "points": 1, "max_points": 2, "checks": [
                 {"name": "imports", "passed": True, "points": 1, "max_points": 1, "message": "ok",
                  "picture": None, "svg": None},
                 {"name": "legal opening", "passed": False, "points": 0, "max_points": 1,
                  "message": "Traceback: " + HOSTILE, "picture": "+---+\n| X |\n+---+", "svg": None}]},
             "rank": 3, "points": 0, "wins": 0, "draws": 0, "losses": 1, "games": 1, "rating": None,
             "rating_low": None, "rating_high": None, "grade": 0, "output": HOSTILE * 3},
            {**sub, "id": "trudy", "display_name": "Trudy", "status": "disqualified",
             "status_detail": "opened a network socket", "validation": None, "rank": None, "points": None,
             "wins": None, "draws": None, "losses": None, "games": 0, "rating": None, "grade": None,
             "slowest_move_s": None, "peak_memory_mb": None, "output": None},
        ],
        "crosstable": {
            "alice": {"bob": {"points": 1.5, "games": 2, "game_ids": ["g-ab-0", "g-ba-1"]},
                      "mallory": {"points": 1, "games": 1, "game_ids": ["g-am-2"]}},
            "bob": {"alice": {"points": 0.5, "games": 2, "game_ids": ["g-ab-0", "g-ba-1"]}},
            "mallory": {"alice": {"points": 0, "games": 1, "game_ids": ["g-am-2"]}},
        },
        "games": games,
    }


class TagBalance(HTMLParser):
    """Collects unbalanced tags and <script> elements of a page (void elements need no end tag)."""

    VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source",
            "track", "wbr"}

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.stack: list[str] = []
        self.errors: list[str] = []
        self.scripts: list[dict] = []
        self.script_text: list[str] = []
        self._in_script = False

    def handle_starttag(self, tag, attrs):
        if tag == "script":
            self.scripts.append(dict(attrs))
            self._in_script = True
        if tag not in self.VOID:
            self.stack.append(tag)

    def handle_startendtag(self, tag, attrs):
        if tag not in self.VOID:
            self.errors.append(f"self-closing <{tag}/>")

    def handle_endtag(self, tag):
        if tag == "script":
            self._in_script = False
        if tag in self.VOID:
            self.errors.append(f"end tag for void element </{tag}>")
        elif not self.stack or self.stack[-1] != tag:
            self.errors.append(f"</{tag}> closes <{self.stack[-1] if self.stack else 'nothing'}>")
        else:
            self.stack.pop()

    def handle_data(self, data):
        if self._in_script:
            self.script_text.append(data)

    def check(self, text: str) -> TagBalance:
        self.feed(text)
        self.close()
        if self.stack:
            self.errors.append(f"unclosed: {self.stack}")
        return self


@pytest.fixture
def doc() -> dict:
    return base_document()


@pytest.fixture
def site(tmp_path, doc) -> Path:
    """The rendered site of the base document with fake board pictures."""
    render_site(doc, tmp_path / "site", fake_frames)
    return tmp_path / "site"


@pytest.fixture
def frames():
    return fake_frames


@pytest.fixture
def parse():
    """Parse a page and return its TagBalance (errors, scripts, script text)."""
    return lambda text: TagBalance().check(text)


@pytest.fixture
def hostile() -> str:
    return HOSTILE


@pytest.fixture(scope="module")
def browser():
    """The system Chromium driven by Playwright, one per test module (the browser tests skip,
    with the reason, where either is missing)."""
    sync_api = pytest.importorskip("playwright.sync_api", reason="the playwright package is not installed")
    with sync_api.sync_playwright() as pw:
        b = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield b
        b.close()
