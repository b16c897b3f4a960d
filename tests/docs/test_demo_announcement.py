"""`make demo` says how long it takes before it starts, and before each league what it is about to
play (issue 45.8): the sentences come from the bundled config and the measured figures, which
docs/BENCHMARKS.md states too."""
from __future__ import annotations

from pathlib import Path

from grader.assignment import load_assignments
from grader.demo import BUSY_MINUTES, IDLE_MINUTES, expected_duration, league_plan, next_steps

ROOT = Path(__file__).resolve().parents[2]


def test_the_first_line_gives_the_measured_duration_and_the_load_now():
    low, high = IDLE_MINUTES
    idle = expected_duration(0.3, 2)
    assert idle.startswith(f"This demo takes about {low}–{high} minutes on an idle 2-core machine, ")
    for load, minutes in BUSY_MINUTES:
        assert f"{minutes} at a load of {load}" in idle
    assert "the load now is 0.3 on 2 cores." in idle and "busy" not in idle
    assert "busy: expect the longer figures" in expected_duration(9.0, 2)
    assert expected_duration(None, 2).endswith("(docs/BENCHMARKS.md).")


def test_the_figures_are_the_ones_measured_in_the_benchmarks():
    benchmarks = (ROOT / "docs" / "BENCHMARKS.md").read_text(encoding="utf-8")
    section = benchmarks[benchmarks.index("## `make demo`"):]
    section = section[:section.index("\n## ")]
    low, high = IDLE_MINUTES
    assert f"{low}–{high} minutes" in section
    for load, minutes in BUSY_MINUTES:
        assert f"{minutes} minutes at a load of {load}" in section, (load, minutes)


def test_each_league_says_what_it_is_about_to_play():
    plans = {name: league_plan(a) for name, a in load_assignments(ROOT / "config.yaml").items()}
    assert plans["quoridor"].startswith("quoridor: validating 7 submissions (alice, bob, ")
    assert ("a round robin of those that pass and 2 built-ins (random, baseline), 2 games a pair: "
            "at most 72 games.") in plans["quoridor"]
    assert "against 3 random opponents, 2 games a pair, then the top 10% play everyone" in plans["colosseum"]
    assert "then games against random until each student's pass is decided (at most 200 each)" in plans["colosseum"]
    assert "games against baseline, random until" in plans["doublecard"]
    assert "each that passes against perfect, random, 2 games a pair: at most 20 games." in plans["rbnim"]


def test_the_next_steps_name_the_courses_own_file(tmp_path, monkeypatch):
    (tmp_path / "reports" / "colosseum" / "public").mkdir(parents=True)
    (tmp_path / "reports" / "colosseum" / "public" / "index.html").write_text("x")
    monkeypatch.chdir(tmp_path)
    text = "\n".join(next_steps(tmp_path / "reports"))
    assert "grader check student_agent.py --assignment colosseum" in text
