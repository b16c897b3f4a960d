"""The config loader answers every mistake with one sentence naming the file and the key."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from grader.assignment import load_assignments
from grader.config import ConfigError, load_config

ROOT = Path(__file__).resolve().parents[2]

GOOD = """
assignments:
  q:
    ruleset: quoridor
    submissions: subs
    game: {sizex: 5, sizey: 5}
    limits: {move_s: 1.5}
    league: {format: round_robin, games_per_pair: 2, seed: 7}
"""


def write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "config.yaml"
    path.write_text(text)
    return path


def error_for(tmp_path: Path, text: str) -> str:
    with pytest.raises(ConfigError) as exc:
        load_config(write(tmp_path, text))
    message = str(exc.value)
    assert "\n" not in message and "Traceback" not in message
    return message


def test_bundled_config_loads():
    assignments = load_assignments(ROOT / "config.yaml")
    assert "quoridor" in assignments
    q = assignments["quoridor"]
    assert q.submissions_dir == ROOT / "submissions" / "quoridor"
    assert q.memory_mb == 500


def test_good_config_applies_overrides_over_course_defaults(tmp_path):
    a = load_assignments(write(tmp_path, GOOD))["q"]
    assert a.move_s == 1.5
    assert a.first_move_s == a.ruleset.defaults.first_move_s
    assert a.game.params["sizex"] == 5
    assert a.submissions_dir == tmp_path / "subs"


def test_move_limits_are_cpu_time_unless_the_course_promises_wall_clock(tmp_path):
    cpu = load_assignments(write(tmp_path, GOOD))["q"].limits()
    assert (cpu.clock, cpu.wall_factor, cpu.wall_after_s) == ("cpu", 3.0, 1.0)
    assert cpu.budget(1.5).wall == 1.5 * 3 + 1
    text = GOOD.replace("move_s: 1.5", "move_s: 1.5, clock: wall")
    a = load_assignments(write(tmp_path, text))["q"]
    assert a.limits().clock == "wall" and a.describe_limits()["clock"] == "wall"
    backstop = load_assignments(write(tmp_path, GOOD.replace("move_s: 1.5", "move_s: 1.5, wall_factor: 2, "
                                                             "wall_after_s: 0.5")))["q"]
    assert backstop.describe_limits()["wall_backstop_s"] == 3.5
    assert backstop.play_settings() != a.play_settings()       # a changed clock replays the league's games
    msg = error_for(tmp_path, GOOD.replace("move_s: 1.5", "move_s: 1.5, clock: sundial"))
    assert "assignments.q.limits.clock" in msg and "'cpu' or 'wall'" in msg and "'sundial'" in msg


def test_unknown_key_names_file_and_key(tmp_path):
    msg = error_for(tmp_path, GOOD.replace("move_s: 1.5", "move_seconds: 1.5"))
    assert str(tmp_path / "config.yaml") in msg
    assert "assignments.q.limits.move_seconds" in msg
    assert "not a known setting" in msg


def test_wrong_type_says_what_is_expected(tmp_path):
    msg = error_for(tmp_path, GOOD.replace("move_s: 1.5", "move_s: fast"))
    assert "assignments.q.limits.move_s" in msg and "number" in msg and "'fast'" in msg


def test_wrong_value_of_a_choice(tmp_path):
    msg = error_for(tmp_path, GOOD.replace("format: round_robin", "format: swiss"))
    assert "assignments.q.league.format" in msg and "round_robin" in msg


def test_negative_time(tmp_path):
    msg = error_for(tmp_path, GOOD.replace("move_s: 1.5", "move_s: -1"))
    assert "assignments.q.limits.move_s" in msg and "greater than 0" in msg


def test_loading_has_its_own_limit_only_when_given_and_then_a_positive_one(tmp_path):
    msg = error_for(tmp_path, GOOD.replace("move_s: 1.5", "move_s: 1.5, load_s: 0"))
    assert "assignments.q.limits.load_s" in msg and "greater than 0" in msg
    config, _ = load_config(write(tmp_path, GOOD.replace("move_s: 1.5", "move_s: 1.5, load_s: 4")))
    assert config.assignments["q"].limits.load_s == 4


def test_unknown_ruleset(tmp_path):
    msg = error_for(tmp_path, GOOD.replace("ruleset: quoridor", "ruleset: chess"))
    assert "assignments.q.ruleset" in msg and "quoridor" in msg


def test_missing_required_key(tmp_path):
    msg = error_for(tmp_path, GOOD.replace("    submissions: subs\n", ""))
    assert "assignments.q.submissions" in msg and "required" in msg


def test_bad_game_parameter_is_the_rulesets_sentence(tmp_path):
    msg = error_for(tmp_path, GOOD.replace("sizex: 5", "sizex: -3"))
    assert "assignments.q.game" in msg


def test_unknown_stage_and_builtin(tmp_path):
    msg = error_for(tmp_path, GOOD + "    validation: {stages: {expand_everything: {points: 1}}}\n")
    assert "expand_everything" in msg and "expand_player" in msg
    msg = error_for(tmp_path, GOOD.replace("seed: 7}", "seed: 7, builtins: [stockfish]}"))
    assert "stockfish" in msg and "random" in msg


def test_invalid_yaml_and_missing_file(tmp_path):
    msg = error_for(tmp_path, "assignments: [\n  q: {")
    assert "not valid YAML" in msg and "line" in msg
    with pytest.raises(ConfigError, match="no such config file"):
        load_config(tmp_path / "nope.yaml")
    msg = error_for(tmp_path, "- just\n- a list\n")
    assert "mapping" in msg


def test_cli_reports_config_error_in_one_line_with_status_2(tmp_path):
    path = write(tmp_path, GOOD.replace("move_s: 1.5", "move_s: fast"))
    proc = subprocess.run([sys.executable, "-m", "grader.cli", "--config", str(path), "check",
                           str(ROOT / "rulesets" / "quoridor" / "players" / "random"), "--assignment", "q"],
                          capture_output=True, text=True)
    assert proc.returncode == 2
    assert proc.stderr.strip().count("\n") == 0 and "Traceback" not in proc.stderr
    assert "move_s" in proc.stderr
