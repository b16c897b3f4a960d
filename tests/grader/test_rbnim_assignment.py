"""The rbnim assignment grades both kinds of submission: the module through its probes, the
interactive program through its console; `grader check` tells them apart by reading the file."""
from __future__ import annotations

from pathlib import Path

import yaml

from grader.cli import main
from tests.checking import check_json

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "submissions" / "rbnim"


def check(path: Path) -> tuple[int, dict]:
    return check_json(path, "rbnim")


def test_correct_program_is_driven_through_its_console():
    code, doc = check(EXAMPLES / "correct_program")
    assert code == 0
    assert [c["name"] for c in doc["checks"]] == ["program"]
    assert doc["points"] == doc["max_points"] == 10


def test_hanging_program_gets_a_sentence_and_no_points():
    _code, doc = check(EXAMPLES / "hangs_on_input")
    program = doc["checks"][0]
    assert program["name"] == "program" and not program["passed"] and program["points"] == 0
    assert "hang" in program["message"].lower()


def test_module_with_the_wrong_move_order_gets_a_share_of_the_points():
    _code, doc = check(EXAMPLES / "wrong_order")
    search = next(c for c in doc["checks"] if c["name"] == "search")
    assert 0 < search["points"] < search["max_points"]
    assert "misere" in search["message"].lower() or "misère" in search["message"].lower()


def test_a_bad_output_pattern_in_the_config_is_one_sentence(tmp_path, capsys):
    config = tmp_path / "config.yaml"
    config.write_text(yaml.safe_dump({"assignments": {"nim": {
        "ruleset": "rbnim", "submissions": "subs",
        "validation": {"program_patterns": {"computer_move": "([unclosed"}}}}}), encoding="utf-8")
    assert main(["--config", str(config), "check", str(EXAMPLES / "correct_program"), "--assignment", "nim"]) == 2
    err = capsys.readouterr().err
    assert "validation.program_patterns" in err and "computer_move" in err and "Traceback" not in err


def test_program_settings_on_a_game_without_programs_are_refused(tmp_path, capsys):
    config = tmp_path / "config.yaml"
    config.write_text(yaml.safe_dump({"assignments": {"q": {
        "ruleset": "quoridor", "submissions": "subs", "validation": {"kind": "program"}}}}), encoding="utf-8")
    assert main(["--config", str(config), "standings", "q"]) == 2
    assert "has no command-line kind" in capsys.readouterr().err
