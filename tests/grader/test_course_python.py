"""The Python the course ran (issue 40): Colosseum's W2022 tournament ran Python 3.9, so a submission
written in a newer grammar (a 3.10 `match` statement) is refused at the interface with one sentence,
as the course's own Python refused it, though the grader's Python would load it."""
from __future__ import annotations

import shutil
from pathlib import Path

import rulesets
from grader.python_source import too_new
from tests.checking import check_json

ROOT = Path(__file__).resolve().parents[2]
BASELINE = ROOT / "submissions" / "colosseum" / "baseline_student"
MATCH = '''

def heading(d):
    match d:
        case 0:
            return "up"
        case _:
            return "elsewhere"
'''


def test_a_match_statement_fails_the_check_as_the_courses_python_39_refused_it(tmp_path):
    folder = tmp_path / "agent"
    shutil.copytree(BASELINE, folder)
    (folder / "board_tools.py").write_text((folder / "board_tools.py").read_text() + MATCH)
    status, doc = check_json(folder, "colosseum")
    interface = next(c for c in doc["checks"] if c["name"] == "interface")
    assert status != 0 and not interface["passed"], interface
    assert "match" in interface["message"] and "Python 3.10" in interface["message"], interface["message"]
    assert "Python 3.9" in interface["message"] and "board_tools.py" in interface["message"], interface["message"]


def test_the_bundled_agents_and_games_without_a_fixed_python_are_not_refused(tmp_path):
    assert rulesets.load("colosseum").python == (3, 9)
    assert too_new(BASELINE, (3, 9)) is None
    assert all(rulesets.load(n).python is None for n in rulesets.names() if n != "colosseum")
    (tmp_path / "player.py").write_text("x = 1\n" + MATCH)      # a grammar 3.9 lacks, in a 3.9 check
    assert "`match` statement needs Python 3.10" in (too_new(tmp_path, (3, 9)) or "")
    assert too_new(tmp_path, (3, 11)) is None
