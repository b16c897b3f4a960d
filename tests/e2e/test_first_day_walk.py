"""The instructor's first-day walk (benchmarks/first_day_walk.py) runs here in full, so the pictures
a person checks by eye cannot rot: every page it photographs shows the sentence the walk says to
look for, and the index names every picture. Skipped, with the reason, without Chromium or playwright."""
from __future__ import annotations

import os

import pytest

from grader.report import CHROMIUM

pytest.importorskip("playwright.sync_api", reason="the playwright package is not installed")
if not os.access(CHROMIUM, os.X_OK):
    pytest.skip(f"no Chromium at {CHROMIUM} (apt-get install chromium)", allow_module_level=True)

from benchmarks import first_day_walk  # imports playwright: only once it is known to be there

pytestmark = [pytest.mark.browser, pytest.mark.slow]


@pytest.mark.timeout(3600)           # two checks and a league through the service at a load of 20
def test_every_page_of_the_first_day_says_what_the_walk_looks_for(tmp_path):
    walk = first_day_walk.walk(tmp_path / "first-day")
    assert [s.file[3:-4] for s in walk.shots] == [
        "instructor-home", "class-empty", "roster-links", "set-password", "student-assignment", "verdict-pass",
        "verdict-fail", "class-uploads", "class-league-done", "standings-instructor", "standings-public",
        "grades-export"]
    for shot in walk.shots:
        assert shot.sentence in shot.text, f"{shot.file} does not say {shot.sentence!r}:\n{shot.text}"
        assert (tmp_path / "first-day" / shot.file).stat().st_size > 0
    index = (tmp_path / "first-day" / "index.html").read_text(encoding="utf-8")
    assert all(s.file in index for s in walk.shots) and "MISSING" not in index
