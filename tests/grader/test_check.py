"""`grader check` on the bundled BRUTE examples: each broken one fails exactly its stage.

These run the real command in a subprocess, through the real sandbox, as a student would.
"""
from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

from tests.checking import check_json

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "submissions" / "quoridor"


@pytest.fixture(autouse=True, params=["native", "portable"])
def sandbox_kind(request, monkeypatch):
    """Each check runs in this platform's sandbox and in the portable one of macOS and Windows
    (sandbox/portable.py): the verdicts must be the same."""
    if request.param == "portable":
        monkeypatch.setenv("GRADER_SANDBOX", "portable")
    else:
        monkeypatch.delenv("GRADER_SANDBOX", raising=False)
    return request.param


def check(path: Path, *extra: str, assignment: str = "quoridor") -> tuple[int, dict]:
    return check_json(path, assignment, *extra)


def stages(doc: dict) -> dict[str, dict]:
    return {c["name"]: c for c in doc["checks"]}


def test_good_submission_passes_everything():
    code, doc = check(EXAMPLES / "alice")
    assert code == 0, doc
    assert doc["passed"] is True
    assert (doc["points"], doc["max_points"]) == (2, 2)
    assert [c["name"] for c in doc["checks"]] == ["interface", "expand_player", "expand_obstacles", "smoke"]
    assert all(c["passed"] for c in doc["checks"])
    assert len(doc["games"]) == 2 and {g["seat"] for g in doc["games"]} == {0, 1}
    assert set(doc) >= {"passed", "points", "max_points", "checks", "games", "sandbox"}


def test_wrong_arity_fails_the_interface_only():
    code, doc = check(EXAMPLES / "wrong_arity")
    assert code == 1
    s = stages(doc)
    assert list(s) == ["interface"]
    assert not s["interface"]["passed"]
    assert "constructor" in s["interface"]["message"]
    assert doc["points"] == 0


def test_pawn_onto_opponent_fails_expand_player():
    code, doc = check(EXAMPLES / "steps_onto_opponent")
    assert code == 1
    s = stages(doc)
    assert s["interface"]["passed"]
    assert not s["expand_player"]["passed"] and s["expand_player"]["points"] == 0
    assert s["expand_obstacles"]["passed"] and s["expand_obstacles"]["points"] == 1
    assert "not legal" in s["expand_player"]["message"] and "onto the opponent" in s["expand_player"]["message"]
    assert s["expand_player"]["picture"]
    assert doc["points"] == 1


def test_walls_that_cross_fail_expand_obstacles():
    code, doc = check(EXAMPLES / "no_crossing")
    assert code == 1
    s = stages(doc)
    assert s["expand_player"]["passed"]
    assert not s["expand_obstacles"]["passed"]
    assert "miss" in s["expand_obstacles"]["message"] and "(0,1)->(1,1)" in s["expand_obstacles"]["message"]
    assert doc["points"] == 1


def test_crash_in_make_move_is_caught_by_the_smoke_games():
    code, doc = check(EXAMPLES / "crashes_in_make_move")
    assert code == 1
    s = stages(doc)
    assert s["expand_player"]["passed"] and s["expand_obstacles"]["passed"]
    assert doc["points"] == 2
    assert not s["smoke"]["passed"]
    assert "exception" in s["smoke"]["message"]
    assert any(g["reason"] == "error" for g in doc["games"])


def test_single_file_and_zip_are_accepted(tmp_path):
    import zipfile

    code, doc = check(EXAMPLES / "alice" / "player.py")
    assert code == 0 and doc["passed"]
    archive = tmp_path / "upload.zip"
    with zipfile.ZipFile(archive, "w") as z:
        z.write(EXAMPLES / "alice" / "player.py", "player.py")
    code, doc = check(archive)
    assert code == 0 and doc["passed"]


def test_human_output_names_each_stage():
    proc = subprocess.run([sys.executable, "-m", "grader.cli", "--config", str(ROOT / "config.yaml"), "check",
                           str(EXAMPLES / "no_crossing"), "--assignment", "quoridor"],
                          capture_output=True, text=True, timeout=600, cwd=ROOT)
    assert proc.returncode == 1
    out = proc.stdout
    for title in ("Interface", "expand_player", "expand_obstacles"):
        assert title.lower() in out.lower()
    assert "FAIL" in out and "PASS" in out
    assert "missing" in out
    stage_lines = [line for line in out.splitlines() if line.lstrip().startswith(("PASS", "FAIL"))]
    assert len({line.rindex("  ") for line in stage_lines}) == 1        # the points form one column


def test_usage_errors_exit_2(tmp_path):
    proc = subprocess.run([sys.executable, "-m", "grader.cli", "--config", str(ROOT / "config.yaml"), "check",
                           str(tmp_path / "nothing.py")], capture_output=True, text=True)
    assert proc.returncode == 2 and "no such file" in proc.stderr


def test_a_stage_stops_asking_a_player_that_keeps_dying(tmp_path):
    """Four positions that end with the process gone, then the stage gives up: a hostile or hanging
    player cannot make validation cost every position times the time limit."""
    sub = tmp_path / "dies"
    sub.mkdir()
    source = (EXAMPLES / "alice" / "player.py").read_text()
    (sub / "player.py").write_text(source.replace("    def expand_player(self):\n",
                                                  "    def expand_player(self):\n        import os; os._exit(3)\n"))
    code, doc = check(sub)
    stage = stages(doc)["expand_player"]
    assert code == 1 and not stage["passed"]
    found = re.fullmatch(r"4 of (\d+) positions answered wrongly\. First: .* The player was stopped in 4 "
                         r"positions, so the other (\d+) were not tried\.", stage["message"])
    assert found and int(found[1]) - int(found[2]) == 4
    assert stages(doc)["expand_obstacles"]["passed"]          # the next stage starts afresh


def test_positions_played_in_fresh_processes_stop_too(tmp_path):
    """Double Card replays each position in a fresh process; a player stopped there counts the same."""
    sub = tmp_path / "dies"
    sub.mkdir()
    source = (ROOT / "submissions" / "doublecard" / "slow" / "player.py").read_text()
    (sub / "player.py").write_text(source.replace("think(5)", "import os; os._exit(3)"))
    code, doc = check(sub, assignment="doublecard")
    stage = stages(doc)["legal_moves"]
    assert code == 1 and "The player was stopped in 4 positions, so the other" in stage["message"]


NUMPY_1_AGENT = '''import numpy as np
from agents.agent import Agent
from agents.random_agent import RandomAgent
from store import register_agent


@register_agent("student_agent")
class StudentAgent(Agent):
    def step(self, chess_board, my_pos, adv_pos, max_step):
        assert np.asarray(chess_board).tostring()          # NumPy 1.x only, as the course pinned
        return RandomAgent().step(chess_board, my_pos, adv_pos, max_step)
'''


def test_a_colosseum_agent_meets_the_courses_numpy_and_the_header_says_which(tmp_path):
    from grader.course_env import course_env
    from rulesets import load

    env = course_env(load("colosseum").requirements)
    if env.path is None:
        pytest.skip(f"the course environment could not be built here: {env.problem}")
    (tmp_path / "student_agent.py").write_text(NUMPY_1_AGENT)
    status, doc = check(tmp_path, assignment="colosseum")
    assert status == 0 and stages(doc)["legal_moves"]["passed"], doc
    assert f"numpy {env.versions['numpy']}" in doc["environment"], doc
